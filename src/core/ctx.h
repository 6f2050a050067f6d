/* SPDX-License-Identifier: GPL-2.0-only */
/* The root context: every procfs/sysfs read goes through here, beneath one root directory. */
#ifndef NP_CTX_H
#define NP_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>

/* NP_TOP is the tree's own top directory (a capture's META, a sosreport's sos_commands/): only
 * under --root; on the live system it has no files (reads give -ENOENT). NP_RUN is /run, where
 * daemons leave their sockets (a tree's run/, when it has one; recorded in captures). NP_ROOTFS
 * is the file system proc and sys belong to, for the few files beside them (lib/modules): "/"
 * on the live system, the tree's top under --root (not recorded in captures). */
enum np_tree { NP_PROC, NP_SYS, NP_TOP, NP_RUN, NP_ROOTFS };

struct np_overlay;
struct np_ktape;
struct np_fsrec;
struct np_sockets;
struct np_sock_rec;
struct np_sock_limits;

/* Where a --root tree came from, said in every report's header: a plain tree of /proc and /sys
 * files, a `netpath capture`, or a sosreport. Filled when the root is opened; empty fields are
 * unknown. */
/* model/origin.h: core does not know the type, only holds it. */
struct np_origin;

struct np_ctx {
	int proc_fd;		/* directory fd of ROOT/proc */
	int sys_fd;		/* directory fd of ROOT/sys */
	int top_fd;		/* directory fd of ROOT itself (--root only), else -1 */
	int run_fd;		/* directory fd of ROOT/run, -1 when there is none */
	int rootfs_fd;		/* live only: "/" (O_PATH) for NP_ROOTFS; unused under --root */
	bool confined;		/* --root given: resolve every path beneath the tree */
	bool live;		/* reading the running kernel: netlink, ioctls, sysconf are meaningful */
	char root[256];
	/* Files that answer np_read_str()/np_read_file() where the tree has none (overlay.h):
	 * --netns keeps the initial namespace's host-wide sysctls here. NULL: none. */
	const struct np_overlay *overlay;
	bool owns_overlay;	/* a capture's, freed by np_root_ctx_close() */
	/* Where a --root tree came from (model/origin.h): set by collect/root.c for a tree or a
	 * capture, by np_sos_detect() for a sosreport; NULL for the live system or a tree nobody
	 * looked at yet. Owned here: np_ctx_close() frees it. */
	struct np_origin *origin;
	/* `netpath capture`: the kernel's answers are recorded here (live) or replayed from here
	 * (a capture's sample), and every file read is recorded in rec. NULL otherwise. */
	struct np_ktape *tape;
	struct np_fsrec *rec;
	unsigned page_size;	/* a capture's recorded page size; 0 when the tree does not say */
	/* --root SOSDIR --netns NS: the sosreport's copies of what sos ran in that namespace
	 * (ip netns exec NS ...) replace the host's command outputs; "" for the host. */
	char sos_netns[64];
	/* The MIB table (snmp, netstat, snmp6) is only looked up by name, never walked in order
	 * (doctor): it is indexed instead of sorted, 150 k instructions less a pass. Commands
	 * that walk it by position (the recorder's frames) leave this false. */
	bool mib_by_name;
};

/* A netpath capture (ctx->tape replays its kernel answers) holds every file its collectors read,
 * as they read it: what it lacks, the machine lacked. Collectors treat it like the live system;
 * other trees (hand-copied, sosreports) prove nothing by a missing file. */
static inline bool np_ctx_faithful(const struct np_ctx *ctx)
{
	return ctx->live || ctx->tape;
}

/*
 * With ctx->sos_netns set (core/sos_netns.c): what path in tree t stands for in that
 * namespace's view of a sosreport, candidate number try (0, 1, ...). 0: path itself; 1: out
 * holds the namespace's copy to try; -ENOENT: none (the host's, hidden, or no more candidates).
 */
int np_sos_netns_path(const struct np_ctx *ctx, enum np_tree t, const char *path, unsigned try,
		      char *out, size_t size);

/* Largest file we agree to read: /proc/interrupts on a 4096-CPU box is a few MiB. */
#define NP_READ_MAX (64u << 20)

/* root == NULL means the live system ("/"). Returns 0 or -errno. Under --root (any other
 * root) a tree whose proc, sys or run leads outside it (a symlink to /proc, "../x") is refused
 * with -EXDEV (-ELOOP for a link loop), not read without them. */
int np_ctx_open(struct np_ctx *ctx, const char *root);
/* The same on the directory rfd (not taken over; root names it, NULL or "/" for the live
 * system). On a refused member, *bad (when bad is not NULL) names it: "proc", "sys" or "run". */
int np_ctx_open_dir(struct np_ctx *ctx, int rfd, const char *root, const char **bad);
void np_ctx_close(struct np_ctx *ctx);

/* All return a negative errno on failure. Paths are relative to the tree ("net/snmp").
 * np_read_file() and np_read_str() (so np_read_u64/s64 too) fall back on ctx->overlay for a
 * file absent beneath the tree; np_open, np_exists and np_opendir see the tree only. */
int np_open(const struct np_ctx *ctx, enum np_tree t, const char *path, int flags);
/* Whole file, malloc'd and NUL-terminated; *len excludes the NUL. */
int np_read_file(const struct np_ctx *ctx, enum np_tree t, const char *path, char **buf, size_t *len);
/* Each line (without its newline) to fn, the file read in pieces (read_lines.c): memory is the
 * longest line, not the file. fn returns 0 to go on or a negative errno to stop, returned. */
typedef int (*np_line_fn)(const char *line, size_t len, void *arg);
int np_read_lines(const struct np_ctx *ctx, enum np_tree t, const char *path, np_line_fn fn,
		  void *arg);
/* First size-1 bytes, trailing whitespace trimmed. Returns the length. */
int np_read_str(const struct np_ctx *ctx, enum np_tree t, const char *path, char *buf, size_t size);
/* The same, saying in *overlaid whether ctx->overlay answered (the tree has no such file). */
int np_read_str_overlaid(const struct np_ctx *ctx, enum np_tree t, const char *path, char *buf,
			 size_t size, bool *overlaid);
/* A file holding one decimal integer (leading '-' allowed for s64). -EINVAL if it is not one. */
int np_read_u64(const struct np_ctx *ctx, enum np_tree t, const char *path, uint64_t *out);
int np_read_s64(const struct np_ctx *ctx, enum np_tree t, const char *path, int64_t *out);
/* Last component of a symlink's target ("../../bus/virtio/drivers/virtio_net" -> "virtio_net"). */
int np_read_link_base(const struct np_ctx *ctx, enum np_tree t, const char *path, char *buf, size_t size);
int np_exists(const struct np_ctx *ctx, enum np_tree t, const char *path);
int np_opendir(const struct np_ctx *ctx, enum np_tree t, const char *path, DIR **out);

/*
 * Test seam, set and read by tests only: no_openat2 makes every confined open take the
 * pre-5.6 resolver (beneath.h) on any kernel; openat2_eagain makes the first that many
 * openat2() calls of every confined open fail with EAGAIN, as on a busy host (UINT_MAX: all of
 * them); the counters say which one answered. A global rather than an option or environment
 * variable: nothing a user, or the environment of a monitoring job, should be able to switch.
 */
/* openat2() tries per confined open before the resolver by hand takes over (ctx.c). */
#define NP_CTX_OPENAT2_TRIES 3

struct np_ctx_seam {
	bool no_openat2;
	unsigned openat2_eagain;
	unsigned long openat2_opens;	/* confined opens the kernel's openat2() answered */
	unsigned long beneath_opens;	/* confined opens np_beneath_open() answered */
	unsigned long openat2_eagains;	/* openat2() calls that said EAGAIN (or EINTR) */
};
extern struct np_ctx_seam np_ctx_seam;

#endif
