/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What --root (and --before, and diff's arguments) may name: a directory holding proc/ and sys/,
 * a `netpath capture` (its archive file or the directory unpacked from it), a sosreport
 * directory, or an archive of either (.tar, .tar.gz, .tar.xz), unpacked into a private scratch
 * directory that is removed again at close or when a signal ends the process.
 */
#ifndef NP_ROOT_H
#define NP_ROOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "origin.h"

/*
 * Archives are unpacked with these caps (tar.h says what each counts). A capture is under
 * 1 MiB unpacked and about 1,000 members (tests/fixtures/capture: 621 members, 198
 * directories); a full sosreport is tens to a few hundred MiB in tens of thousands of members
 * and thousands of directories (a CPU's sysfs directories each, /etc, /proc/sys; on a SAN host
 * each disk's sysfs queue/ below its whole device path), of which netpath reads the networking
 * outputs, /proc and /sys. Each cap leaves a margin of several times that; beyond them the
 * reason says to unpack the archive and name the directory, which has no caps. The stream cap
 * bounds the CPU a small file can cost (gzip-compressed zeros inflate at about 1 GiB/s: 5 s
 * for the 2 GiB on a loaded 2-CPU VM); the disk cap the scratch space (often a tmpfs, so
 * memory); the member and directory caps the time spent creating and removing entries.
 */
#define NP_ROOT_MAX_INFLATED (2ull << 30)	/* bytes of tar data, skipped members' too */
#define NP_ROOT_MAX_MEMBERS 200000u
#define NP_ROOT_MAX_DIRS 50000u
#define NP_ROOT_MAX_DISK (1ull << 30)		/* 4 KiB blocks, at least one an entry */
/* An archive file of at most NP_ROOT_MEM_ARCHIVE bytes is unpacked in memory (a tmpfs:
 * np_scratch_dir_mem) with NP_ROOT_MEM_DISK in place of NP_ROOT_MAX_DISK; beyond it, or
 * without such a tmpfs, on disk. A capture is tens of KiB compressed and about 1 MiB unpacked;
 * the margin is 64 times that. */
#define NP_ROOT_MEM_ARCHIVE (8ull << 20)
#define NP_ROOT_MEM_DISK (64ull << 20)
/* Files bigger than np_read_file() reads (NP_READ_MAX) are not written: no collector could
 * read them (a sosreport's journal or a core file). */
#define NP_ROOT_SKIP_OVER NP_READ_MAX

/* A capture's top-level file naming the format (key: value lines). */
#define NP_CAPTURE_META "META"
#define NP_CAPTURE_FORMAT "netpath-capture 1"
/* In a sample taken with --netns: the initial namespace's host-wide sysctls. */
#define NP_CAPTURE_HOST_SYSCTLS "host_sysctls"

struct np_root {
	char shown[256];		/* the path as the user gave it, for reports */
	/* How dir and before are opened: top as named (the user's path, or scratch), then
	 * dir_rel / before_rel walked beneath it one directory at a time, never through a
	 * symlink, so nothing inside the tree can point a sample at another place. */
	char dir_rel[2 * NAME_MAX + 4];
	char before_rel[2 * NAME_MAX + 4];
	bool capture;
	bool resolved;			/* np_root_resolve() filled the path buffers below */
	double interval;		/* a capture's seconds between its samples, 0 unknown */
	char interfaces[256];		/* a capture's target interfaces, space-separated */
	unsigned page_size;		/* a capture's page size, 0 unknown */
	struct np_origin origin;	/* a capture's metadata (a sosreport's: np_sos_detect) */
	/* The path buffers last: np_root_clear() leaves them out (see there). Read them only
	 * when resolved. */
	char dir[PATH_MAX];		/* the tree to read: a directory, a capture's last sample */
	char before[PATH_MAX];		/* a capture's first sample, "" for a single tree */
	char scratch[PATH_MAX];		/* where an archive was unpacked, "" when none */
	char top[PATH_MAX];
};

/* An empty root (no --root): every field before the four path buffers zero (resolved false),
 * the buffers not touched at all. Clearing them whole was 16 KB of memset (a sixth of a live
 * run's page touches), and even a first byte of each lies on its own page: four page faults
 * that a live run, which never reads them, paid. np_root_resolve clears the whole root before
 * it fills one. */
void np_root_clear(struct np_root *r);
/* The root holds an earlier sample (a capture's first, read from before): false for a live
 * target, whose path buffers are never written. */
static inline bool np_root_has_before(const struct np_root *r)
{
	return r->resolved && r->before[0];
}


/*
 * Find the tree path names. 0, or -1 with a one-line reason in err (nothing left behind).
 * path itself may be a symlink (the user's choice); inside it, a capture's samples s1/ and s2/
 * must be directories of it, and every sample's (or the tree's) proc/, sys/ and run/ must stay
 * beneath it: a symbolic link leading elsewhere (s2 -> /, proc -> /proc) refuses the whole
 * tree, as does a tree with neither proc/ nor sys/.
 */
int np_root_resolve(struct np_root *r, const char *path, char *err, size_t errlen);
/* Remove the scratch directory, if any. */
void np_root_release(struct np_root *r);

/*
 * Open ctx on dir (r->dir or r->before; any other path is -EINVAL) with, for a capture's sample, its recorded kernel
 * answers and read errors attached, and ctx->root showing r->shown. 0 or -errno.
 */
int np_root_ctx_open(struct np_ctx *ctx, const struct np_root *r, const char *dir);
/* np_ctx_close() and what np_root_ctx_open() attached. */
void np_root_ctx_close(struct np_ctx *ctx);

/* Parse a capture's META text into r (untrusted: unknown keys are ignored). 0, or -EINVAL when
 * it is not a netpath capture of a format this version reads. */
int np_capture_meta_parse(const char *text, size_t len, struct np_root *r);

#endif
