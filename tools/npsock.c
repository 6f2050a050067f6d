// SPDX-License-Identifier: GPL-2.0-only
/*
 * Debug and test tool for the sock_diag collector.
 *
 *   npsock [--top N] [--owners] [--text]   collect this namespace's sockets and print the JSON
 *                                 "sockets" object (tests/integration/sockets-*.sh use it as a
 *                                 probe), or the text block
 *   npsock record 4|6 tcp|udp FILE   write one raw dump (every recv() buffer, through
 *                                 NLMSG_DONE) to FILE: the fixtures of tests/fixtures/netlink
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "collect.h"
#include "json_writer.h"
#include "render_sockets.h"
#include "sock_diag.h"
#include "socket_fold.h"

static void tap(void *arg, const struct nlmsghdr *req, const void *buf, size_t len)
{
	(void)req;
	fwrite(buf, 1, len, arg);
}

static int record(const char *fam, const char *proto, const char *path)
{
	struct np_sock_limits lim = { { -1, -1, -1 }, { -1, -1, -1 }, -1, -1, -1 };
	struct np_sockets *k = calloc(1, sizeof(*k));
	struct np_sock_diag_stream st = { .socks = k, .lim = &lim, .fold = np_socket_fold };
	struct np_nl d;
	FILE *f;
	int err;

	if (!k)
		return 1;
	np_sockets_init(k);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		free(k);
		return 1;
	}
	err = np_sock_diag_open(&d);
	if (!err) {
		d.tap = tap;
		d.tap_arg = f;
		err = np_sock_diag_dump(&d, strcmp(fam, "6") ? AF_INET : AF_INET6,
					strcmp(proto, "udp") ? IPPROTO_TCP : IPPROTO_UDP,
					NP_SOCK_WALK_FULL, &st);
		np_nl_close(&d);
	}
	fclose(f);
	fprintf(stderr, "%s: %llu sockets, %s\n", path, (unsigned long long)st.n,
		err ? strerror(-err) : "ok");
	free(k);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct np_snapshot *s;
	struct np_ctx ctx;
	struct np_json j;
	int top = 0, rc = 0;
	bool owners = false, text = false;

	if (argc == 5 && !strcmp(argv[1], "record"))
		return record(argv[2], argv[3], argv[4]);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--top") && i + 1 < argc) {
			top = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--owners")) {
			owners = true;
		} else if (!strcmp(argv[i], "--text")) {
			text = true;
		} else {
			fprintf(stderr, "usage: npsock [--top N] [--owners] [--text] | "
				"record 4|6 tcp|udp FILE\n");
			return 2;
		}
	}
	s = calloc(1, sizeof(*s));
	if (!s || np_ctx_open(&ctx, NULL) < 0)
		return 1;
	np_snapshot_init(s);
	np_collect_sysctls(&ctx, s);
	np_collect_sockets(&ctx, np_socket_fold, s);
	if (owners)
		np_sockets_map_owners(&ctx, s, 200000, 2.0);
	if (!np_src_ok(s, NP_SRC_SOCK_DIAG)) {
		fprintf(stderr, "sock_diag: %s\n", np_srcp(s, NP_SRC_SOCK_DIAG)->detail);
		rc = 1;
	}
	if (text) {
		np_render_sockets_text(stdout, s, top);
	} else {
		np_json_init(&j, stdout, true);
		np_render_sockets_json(&j, s, top);
		np_json_end(&j);
	}
	np_snapshot_free(s);
	np_ctx_close(&ctx);
	free(s);
	return rc;
}
