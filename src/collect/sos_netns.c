// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which network namespaces a sosreport holds copies for, and choosing one (--netns NS with
 * --root). sos lists them in sos_commands/networking/ip_netns (`ip netns`: "NS" or
 * "NS (id: N)" per line) and, from sos 4.3, keeps each one's outputs in
 * sos_commands/networking/namespaces/NS/; 3.4-4.2 named them ip_netns_exec_NS_CMD beside the
 * host's. A namespace counts when one of the outputs netpath reads is there under either name.
 */
#include "sos.h"
#include "origin.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NET "sos_commands/networking/"

static bool ns_name_ok(const char *ns)
{
	size_t n = strlen(ns);

	if (!n || n >= sizeof(((struct np_ctx *)0)->sos_netns) || !strcmp(ns, ".") ||
	    !strcmp(ns, ".."))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(ns[i] == '-' || ns[i] == '_' || ns[i] == '.' || (ns[i] >= '0' && ns[i] <= '9') ||
		      (ns[i] >= 'a' && ns[i] <= 'z') || (ns[i] >= 'A' && ns[i] <= 'Z')))
			return false;
	return true;
}

static bool has_copies(const struct np_ctx *ctx, const char *ns)
{
	static const char *const cmds[] = { "ss_-peaonmi", "netstat_-s", "nstat_-zas",
					    "ip_-d_address_show", "sysctl_-a", NULL };
	char p[256];

	snprintf(p, sizeof(p), NET "namespaces/%s", ns);
	if (np_exists(ctx, NP_TOP, p))
		return true;
	for (int i = 0; cmds[i]; i++) {
		snprintf(p, sizeof(p), NET "ip_netns_exec_%s_%s", ns, cmds[i]);
		if (np_exists(ctx, NP_TOP, p))
			return true;
	}
	return false;
}

static void add_name(char *list, size_t size, const char *name, size_t n)
{
	size_t used = strlen(list);
	char one[72];

	if (n >= sizeof(one) - 2)
		return;
	snprintf(one, sizeof(one), " %.*s ", (int)n, name);
	if (strstr(list, one) || used + n + 2 >= size)
		return;	/* listed already (both sources), or no room */
	snprintf(list + used, size - used, "%.*s ", (int)n, name);
}

/* " a b c " (blank-separated, each once), from ip_netns and namespaces/. */
static void list_namespaces(const struct np_ctx *ctx, char *list, size_t size)
{
	char *buf;
	size_t len;
	DIR *d;

	snprintf(list, size, " ");
	if (np_read_file(ctx, NP_TOP, NET "ip_netns", &buf, &len) == 0) {
		for (size_t i = 0; i < len;) {
			size_t s = i;

			while (i < len && buf[i] != ' ' && buf[i] != '\n' && buf[i] != '\t')
				i++;
			if (i > s)
				add_name(list, size, buf + s, i - s);
			while (i < len && buf[i] != '\n')
				i++;
			i++;
		}
		free(buf);
	}
	if (np_opendir(ctx, NP_TOP, NET "namespaces", &d) == 0) {
		struct dirent *e;

		while ((e = readdir(d)))
			if (e->d_name[0] != '.')
				add_name(list, size, e->d_name, strlen(e->d_name));
		closedir(d);
	}
}

int np_sos_select_netns(struct np_ctx *ctx, const char *ns, char *err, size_t errlen)
{
	char list[512];
	const char *l;

	if (!np_ctx_is_sos(ctx)) {
		snprintf(err, errlen, "--netns with --root reads a sosreport's namespace copies; %s "
			 "is not a sosreport (a copied tree is one namespace already)", ctx->root);
		return -1;
	}
	list_namespaces(ctx, list, sizeof(list));
	if (ns_name_ok(ns) && has_copies(ctx, ns)) {
		snprintf(ctx->sos_netns, sizeof(ctx->sos_netns), "%s", ns);
		/* sos runs no ip -s link there: the header says so before the checks do. */
		if (ctx->origin) {
			size_t n = strlen(ctx->origin->lacks);

			snprintf(ctx->origin->lacks + n, sizeof(ctx->origin->lacks) - n,
				 "%snamespace %s: only its copies are read; no interface counters "
				 "(sos runs no ip -s link there)", n ? "; " : "", ns);
		}
		return 0;
	}
	l = list + 1;
	snprintf(err, errlen, "no namespace '%.64s' in this sosreport (%s%.*s)", ns,
		 *l ? "it has: " : "it holds no namespace copies",
		 *l ? (int)strlen(l) - 1 : 0, l);
	return -1;
}
