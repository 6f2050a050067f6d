// SPDX-License-Identifier: GPL-2.0-only
/* Opt-in: which process owns a socket of the top lists, from /proc/PID/fd (bounded scan). */
#include "clock.h"
#include "collect.h"
#include "log.h"
#include "parse.h"
#include "sock_diag.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every id of every list: at most five lists of NP_SOCK_TOP. */
#define MAX_IDS (5 * NP_SOCK_TOP)

static size_t gather(struct np_sockets *k, struct np_sock_id **ids)
{
	size_t n = 0;

	for (uint32_t i = 0; i < k->listen.n; i++)
		ids[n++] = &k->listen.e[i].id;
	for (uint32_t i = 0; i < k->udp.n; i++)
		ids[n++] = &k->udp.e[i].id;
	for (uint32_t i = 0; i < k->ceiling.n; i++)
		ids[n++] = &k->ceiling.e[i].id;
	for (uint32_t i = 0; i < k->pinned.n; i++)
		ids[n++] = &k->pinned.e[i].id;
	for (uint32_t i = 0; i < k->lossy.n; i++)
		ids[n++] = &k->lossy.e[i].id;
	return n;
}

static bool all_numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Match one process's descriptors against the ids; returns descriptors looked at. */
static unsigned scan_pid(const struct np_ctx *ctx, const char *pid, struct np_sock_id **ids,
			 size_t nids, int *mapped, unsigned budget)
{
	char path[64], link[64], comm[16] = "";
	unsigned seen = 0;
	struct dirent *de;
	DIR *dir;
	int dfd;

	snprintf(path, sizeof(path), "%.20s/fd", pid);
	if (np_opendir(ctx, NP_PROC, path, &dir) < 0)
		return 0;	/* gone, or not ours to read */
	dfd = dirfd(dir);
	while (seen < budget && (de = readdir(dir))) {
		unsigned long inode;
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		seen++;
		n = readlinkat(dfd, de->d_name, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (sscanf(link, "socket:[%lu]", &inode) != 1)
			continue;
		for (size_t i = 0; i < nids; i++) {
			if (ids[i]->pid >= 0 || ids[i]->inode != inode)
				continue;
			if (!comm[0]) {
				snprintf(path, sizeof(path), "%.20s/comm", pid);
				if (np_read_str(ctx, NP_PROC, path, comm, sizeof(comm)) < 0)
					snprintf(comm, sizeof(comm), "?");
			}
			ids[i]->pid = (int32_t)strtol(pid, NULL, 10);
			snprintf(ids[i]->comm, sizeof(ids[i]->comm), "%s", comm);
			(*mapped)++;
		}
	}
	closedir(dir);
	return seen;
}

int np_sockets_map_owners(const struct np_ctx *ctx, struct np_snapshot *s, unsigned max_fds,
			  double deadline_s)
{
	struct np_sock_id *ids[MAX_IDS];
	size_t nids = gather(&s->socks, ids);
	double end = np_mono_now() + deadline_s;
	unsigned seen = 0;
	int mapped = 0, err;
	struct dirent *de;
	DIR *proc;

	if (!ctx->live)
		return -EOPNOTSUPP;
	if (!nids)
		return 0;
	err = np_opendir(ctx, NP_PROC, ".", &proc);
	if (err < 0)
		return err;
	while ((de = readdir(proc)) && (size_t)mapped < nids) {
		if (!all_numeric(de->d_name))
			continue;
		if (seen >= max_fds || np_mono_now() > end) {
			np_dbg("sockets: owner scan stopped after %u descriptors", seen);
			break;
		}
		seen += scan_pid(ctx, de->d_name, ids, nids, &mapped, max_fds - seen);
	}
	closedir(proc);
	s->socks.owners_mapped = true;
	return mapped;
}
