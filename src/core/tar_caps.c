// SPDX-License-Identifier: GPL-2.0-only
/* The unpacking caps (tar_extract.h): members, directories and disk blocks, each said once
 * with the member it stopped at. */
#include "tar_extract.h"
#include "log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

/* A byte count as people write it: "2 GiB", "64 MiB", else the number of bytes. */
const char *np_tarx_amount(uint64_t v, char *out, size_t size)
{
	if (v && !(v % (1ull << 30)))
		snprintf(out, size, "%" PRIu64 " GiB", v >> 30);
	else if (v && !(v % (1ull << 20)))
		snprintf(out, size, "%" PRIu64 " MiB", v >> 20);
	else if (v && !(v % (1ull << 10)))
		snprintf(out, size, "%" PRIu64 " KiB", v >> 10);
	else
		snprintf(out, size, "%" PRIu64 " bytes", v);
	return out;
}

/* Stop on a cap: "the CAP cap (VALUE) is reached at member PATH", path "" when none. */
int np_tarx_cap_hit(struct extract *x, const char *cap, const char *value, const char *path)
{
	char s[128];

	if (path && *path)
		snprintf(x->err, x->errlen, "the %s cap (%s) is reached at member %s", cap, value,
			 np_sanitize(path, s, sizeof(s)));
	else
		snprintf(x->err, x->errlen, "the %s cap (%s) is reached", cap, value);
	return -EFBIG;
}

static int too_big(struct extract *x, const char *path, const char *cap, uint64_t limit)
{
	char v[32];

	return np_tarx_cap_hit(x, cap, np_tarx_amount(limit, v, sizeof(v)), path);
}

/* Disk blocks an entry of size bytes takes, as max_total counts them: at least one. */
uint64_t np_tarx_blocks_of(uint64_t size)
{
	uint64_t b = size / NP_TAR_DISK_BLOCK + (size % NP_TAR_DISK_BLOCK != 0);

	return (b ? b : 1) * NP_TAR_DISK_BLOCK;
}

/* Room on disk for an entry of size bytes (0 for a directory or a symlink)? */
int np_tarx_disk_room(struct extract *x, const char *path, uint64_t size)
{
	uint64_t need = np_tarx_blocks_of(size);

	if (x->lim && x->lim->max_total &&
	    (need > x->lim->max_total || x->st->disk > x->lim->max_total - need))
		return too_big(x, path, "disk-use", x->lim->max_total);
	return 0;
}

/* Room for one more directory (explicit, or a parent of path)? */
int np_tarx_dir_room(struct extract *x, const char *path)
{
	if (x->lim && x->lim->max_dirs && x->st->dirs >= x->lim->max_dirs) {
		char v[48];

		snprintf(v, sizeof(v), "%zu directories", x->lim->max_dirs);
		return np_tarx_cap_hit(x, "directory", v, path);
	}
	return np_tarx_disk_room(x, path, 0);
}

void np_tarx_dir_made(struct extract *x)
{
	x->st->dirs++;
	x->st->disk += NP_TAR_DISK_BLOCK;
}

int np_tarx_check_size(struct extract *x, const char *path, uint64_t size)
{
	if (x->lim && x->lim->max_member && size > x->lim->max_member)
		return too_big(x, path, "per-member size", x->lim->max_member);
	return np_tarx_disk_room(x, path, size);
}
