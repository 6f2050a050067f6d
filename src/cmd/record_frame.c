// SPDX-License-Identifier: GPL-2.0-only
/* One frame of the recorder: counters by name, and the configuration sample (record.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture_sample.h"
#include "collect.h"
#include "config.h"
#include "record.h"
#include "root.h"
#include "tar.h"

void np_record_state_free(struct np_record_state *rs)
{
	np_named_counters_free(&rs->nc);
	free(rs->config);
	memset(rs, 0, sizeof(*rs));
}

static const struct np_snapshot *latest(const struct np_dev_run *r)
{
	return r->have_cur ? &r->cur : &r->prev;
}

int np_record_counters(struct np_record_state *rs, const struct np_dev_runs *dr)
{
	np_named_counters_reset(&rs->nc);
	if (!dr->n)
		return 0;
	if (np_snapcnt_host(latest(&dr->run[0]), &rs->nc) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < dr->n; i++)
		if (np_snapcnt_dev(latest(&dr->run[i]), &rs->nc) < 0)
			return -ENOMEM;
	return 0;
}

uint64_t np_record_digest(const struct np_dev_runs *dr)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < dr->n; i++)
		h = np_snapshot_config_digest(latest(&dr->run[i]), h);
	return h;
}

int np_record_meta(struct np_tar_out *tar, const char *const *tops, size_t ntops,
		   const struct record_args *a, int64_t now, int nsamples, double interval)
{
	struct np_capture_meta m = {
		.ifs = tops, .nifs = ntops, .all = a->all, .netns = a->netns,
		.interval = interval, .nsamples = nsamples, .recorded_by = "netpath record",
		.now = now,
	};

	return np_capture_meta_write(tar, &m);
}

/* The whole of fd (a memfd just written) into a malloc'd buffer. */
static int slurp(int fd, char **buf, size_t *len)
{
	struct stat st;
	char *p;
	size_t got = 0;

	if (fstat(fd, &st) < 0)
		return -errno;
	p = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!p)
		return -ENOMEM;
	while (got < (size_t)st.st_size) {
		ssize_t n = pread(fd, p + got, (size_t)st.st_size - got, (off_t)got);

		if (n <= 0) {
			free(p);
			return n < 0 ? -errno : -EIO;
		}
		got += (size_t)n;
	}
	*buf = p;
	*len = got;
	return 0;
}

int np_record_sample(struct np_target *tgt, const char *const *tops, size_t ntops,
		     struct np_tar_out *tar, const char *prefix, int64_t now, uint64_t sock_cap)
{
	struct np_capture_session cs;
	struct np_capture_stats ss;
	struct np_dev_runs *dr = calloc(1, sizeof(*dr));
	char uptime[64], route_if[IF_NAMESIZE];
	int err;

	if (!dr)
		return -ENOMEM;
	err = np_capture_begin_capped(tgt, &cs, sock_cap);
	if (!err) {
		/* As capture reads them: the instant, the routes (doctor --root finds the
		 * default route's interface in them), the devices. */
		np_read_str(&tgt->ctx, NP_PROC, "uptime", uptime, sizeof(uptime));
		(void)np_default_iface(&tgt->ctx, route_if, sizeof(route_if));
		np_runs_discover(dr, &tgt->ctx, tops, ntops);
		err = np_capture_end(tgt, &cs, tar, prefix, now, &ss);
	}
	np_runs_free(dr);
	free(dr);
	return err;
}

int np_record_config(struct np_record_state *rs, struct np_target *tgt, const char *const *tops,
		     size_t ntops, const struct record_args *a)
{
	struct np_tar_out *tar = NULL;
	int64_t now = (int64_t)time(NULL);
	char *buf = NULL;
	size_t len = 0;
	int fd, err;

	fd = memfd_create("netpath-record-config", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	tar = np_tar_out_open(fd, false, &err);
	if (!tar)
		goto out;
	/* The socket summary's counters are in every frame; the configuration keeps the
	 * socket dumps only up to NP_RECORD_SOCK_BYTES, so that a server's million sockets
	 * cannot make it larger than a block (8 MiB raw) nor cost a second to store. */
	err = np_record_sample(tgt, tops, ntops, tar, "s1", now, NP_RECORD_SOCK_BYTES);
	if (!err)
		err = np_record_meta(tar, tops, ntops, a, now, 1, 0);
out:
	if (tar) {
		int r = np_tar_out_close(tar);

		if (!err)
			err = r;
	}
	if (!err)
		err = slurp(fd, &buf, &len);
	close(fd);
	if (err)
		return err;
	free(rs->config);
	rs->config = buf;
	rs->config_len = len;
	rs->configs++;
	return 0;
}
