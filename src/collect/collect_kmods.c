// SPDX-License-Identifier: GPL-2.0-only
/* Kernel modules a plan may need: built in, loadable, or absent, from lib/modules/RELEASE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "kmods.h"
#include "parse.h"
#include "strjoin.h"

/* A release as uname -r spells it; it becomes a path component, so nothing else passes. */
static bool release_ok(const char *r)
{
	if (!r[0] || !strcmp(r, ".") || !strcmp(r, ".."))
		return false;
	for (const char *p = r; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._+-~", *p)))
			return false;
	return true;
}

struct lists {
	char *builtin, *dep;
	size_t builtin_len, dep_len;
};

static enum np_kmod_state one(const struct np_ctx *ctx, const struct lists *l, const char *dir,
			      const char *relpath)
{
	static const char *const suffixes[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	char path[160];

	if (l->builtin && np_parse_kmod_listed(l->builtin, l->builtin_len, relpath) == 1)
		return NP_KMOD_BUILTIN;
	if (l->dep && np_parse_kmod_listed(l->dep, l->dep_len, relpath) == 1)
		return NP_KMOD_MODULE;
	/* depmod's two lists together name every module of the release. */
	if (l->builtin && l->dep)
		return NP_KMOD_ABSENT;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		np_strjoin(path, sizeof(path), dir, "/", relpath, suffixes[i]);
		if (np_exists(ctx, NP_ROOTFS, path))
			return NP_KMOD_MODULE;
	}
	return NP_KMOD_UNKNOWN;
}

void np_collect_kmods(const struct np_ctx *ctx, const char *release, struct np_kmods *out)
{
	struct lists l = { 0 };
	char dir[96], path[128];

	memset(out, 0, sizeof(*out));
	if (!release || !release_ok(release) || strlen(release) >= sizeof(out->release)) {
		snprintf(out->from, sizeof(out->from), "the kernel release is not known");
		return;
	}
	np_strjoin(out->release, sizeof(out->release), release);
	np_strjoin(dir, sizeof(dir), "lib/modules/", out->release);
	if (!np_exists(ctx, NP_ROOTFS, dir)) {
		np_strjoin(out->from, sizeof(out->from), "no /", dir, " ",
			   ctx->live ? "on this host" : "in this tree");
		return;
	}
	np_strjoin(path, sizeof(path), dir, "/modules.builtin");
	if (np_read_file(ctx, NP_ROOTFS, path, &l.builtin, &l.builtin_len) < 0)
		l.builtin = NULL;
	np_strjoin(path, sizeof(path), dir, "/modules.dep");
	if (np_read_file(ctx, NP_ROOTFS, path, &l.dep, &l.dep_len) < 0)
		l.dep = NULL;
	out->tcp_bbr = one(ctx, &l, dir, "kernel/net/ipv4/tcp_bbr");
	out->sch_fq = one(ctx, &l, dir, "kernel/net/sched/sch_fq");
	np_strjoin(out->from, sizeof(out->from), "/", dir, "/",
		   l.builtin && l.dep ? "modules.builtin and modules.dep" :
		   l.builtin ? "modules.builtin" : l.dep ? "modules.dep" : "(module files)");
	free(l.builtin);
	free(l.dep);
}
