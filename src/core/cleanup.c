// SPDX-License-Identifier: GPL-2.0-only
/* Paths removed when a signal ends the process; a recursive removal safe inside the handler. */
#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#define SLOTS 8

/* A slot is filled before it is marked active and unmarked before it is reused, so the handler
 * never reads a half-written path. netpath is single-threaded. */
static struct slot {
	char path[4096];
	enum np_cleanup_kind kind;
	volatile sig_atomic_t active;
} slots[SLOTS];
static bool installed;

static void first_error(int *err)
{
	if (!*err && errno != ENOENT)
		*err = -errno;
}

/* Remove everything inside the open directory fd; depth counts the levels still allowed. */
static int empty_dir(int fd, int depth)
{
	/* getdents64 records are 8-byte aligned; 1 KiB holds at least three of any name length
	 * and keeps NP_RMTREE_DEPTH frames well inside a signal handler's stack. */
	char buf[1024] __attribute__((aligned(8)));
	int err = 0;
	ssize_t n;

	/* Entries already returned may be unlinked while reading on: getdents continues. */
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);
			const char *name = e->d_name;
			int sub, r;

			off += e->d_reclen;
			if (!strcmp(name, ".") || !strcmp(name, ".."))
				continue;
			if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN) {
				if (unlinkat(fd, name, 0) < 0)
					first_error(&err);
				continue;
			}
			/* DT_UNKNOWN: try it as a file first; EISDIR says it is a directory. */
			if (e->d_type == DT_UNKNOWN && unlinkat(fd, name, 0) == 0)
				continue;
			if (depth <= 1) {
				if (!err)
					err = -ELOOP;
				continue;
			}
			sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0) {
				/* Replaced by a symlink or a file meanwhile, or already gone. */
				if (unlinkat(fd, name, 0) < 0)
					first_error(&err);
				continue;
			}
			r = empty_dir(sub, depth - 1);
			if (r < 0 && !err)
				err = r;
			close(sub);
			if (unlinkat(fd, name, AT_REMOVEDIR) < 0)
				first_error(&err);
		}
	}
	if (n < 0 && !err)
		err = -errno;
	return err;
}

int np_rmtree(const char *path)
{
	int fd, err;

	if (!path || !*path)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		/* Not a directory, or a symlink (to one or not): remove the name itself. */
		if (errno == ENOTDIR || errno == ELOOP)
			return unlink(path) < 0 ? -errno : 0;
		return -errno;
	}
	err = empty_dir(fd, NP_RMTREE_DEPTH);
	close(fd);
	if (rmdir(path) < 0 && !err)
		err = -errno;
	return err;
}

void np_cleanup_now(void)
{
	for (int i = 0; i < SLOTS; i++) {
		if (!slots[i].active)
			continue;
		if (slots[i].kind == NP_CLEANUP_TREE)
			np_rmtree(slots[i].path);
		else
			unlink(slots[i].path);
		slots[i].active = 0;
	}
}

/* Set by np_cleanup_signals() before the handler is installed, read by the handler only. */
static char cmd_name[32];
static bool service;
/* --every: a complete report is in its file (np_cleanup_service_done), read by the handler. */
static volatile sig_atomic_t service_done;

static void say(const char *why, int sig)
{
	const char *name = sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT";
	char line[128];
	size_t n = 0;

	/* No stdio in a handler: the line is put together by hand. */
	for (const char *p = "netpath "; *p; p++)
		line[n++] = *p;
	for (const char *p = cmd_name; *p; p++)
		line[n++] = *p;
	for (const char *p = ": "; *p; p++)
		line[n++] = *p;
	for (const char *p = why; *p && n < sizeof(line) - 16; p++)
		line[n++] = *p;
	for (const char *p = name; *p; p++)
		line[n++] = *p;
	line[n++] = '\n';
	for (size_t off = 0; off < n;) {
		ssize_t w = write(2, line + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
}

/*
 * Everything remembered is removed first, whatever the signal. Then: SIGTERM and SIGHUP end a
 * command that owes a verdict with exit 3 (UNKNOWN: what a monitoring system or a script
 * waiting for 0-2 must read, not 143) and a line saying so. A long-running --every is a
 * service: asked to stop once its file holds a complete report, it has done its work and exits
 * 0 (a clean stop for systemd, where exit 3 would mark the unit failed); stopped before the
 * first report, it owes one, and exits 3 like a one-shot run. SIGINT always dies by SIGINT: a
 * shell running netpath in a loop stops the loop only when its child did. SIGPIPE (the reader of stdout went away), SIGQUIT
 * (its core dump), SIGXCPU and SIGXFSZ (limits) end the process as they would have, silently.
 */
static void on_signal(int sig)
{
	int saved = errno;

	np_cleanup_now();
	if (cmd_name[0] && (sig == SIGTERM || sig == SIGHUP || sig == SIGINT)) {
		if (sig != SIGINT) {
			say(service ? "stopped by " : "terminated by ", sig);
			_exit(service && service_done ? 0 : 3);
		}
		say("interrupted by ", sig);
	}
	errno = saved;
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int handled[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGXCPU, SIGXFSZ };

static void install(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	const size_t n = sizeof(handled) / sizeof(handled[0]);

	if (installed)
		return;
	installed = true;
	/* A second of these signals waits until the first one's removal is done. */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < n; i++)
		sigaddset(&sa.sa_mask, handled[i]);
	for (size_t i = 0; i < n; i++) {
		struct sigaction old;

		/* A signal the parent ignores stays ignored (nohup, a SIGPIPE-ignoring daemon:
		 * then a write fails with EPIPE, and np_finish() says so). */
		if (sigaction(handled[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(handled[i], &sa, NULL);
	}
}

void np_cleanup_service_done(void)
{
	service_done = 1;
}

void np_cleanup_signals(const char *cmd, bool is_service)
{
	size_t n = 0;

	for (; cmd && cmd[n] && n < sizeof(cmd_name) - 1; n++)
		cmd_name[n] = cmd[n];
	cmd_name[n] = '\0';
	service = is_service;
	install();
}

int np_cleanup_add(const char *path, enum np_cleanup_kind kind)
{
	size_t len;

	if (!path || !*path)
		return -EINVAL;
	len = strlen(path);
	if (len >= sizeof(slots[0].path))
		return -ENAMETOOLONG;
	for (int i = 0; i < SLOTS; i++) {
		if (slots[i].active)
			continue;
		memcpy(slots[i].path, path, len + 1);
		slots[i].kind = kind;
		/* The path is complete before the handler may see the slot as active. */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		slots[i].active = 1;
		install();
		return 0;
	}
	return -ENOSPC;
}

void np_cleanup_drop(const char *path)
{
	if (!path)
		return;
	for (int i = 0; i < SLOTS; i++) {
		if (slots[i].active && !strcmp(slots[i].path, path)) {
			slots[i].active = 0;
			return;
		}
	}
}
