// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor --root SOSDIR --netns NS over tests/fixtures/sos/sos4.5-netns-composite (README.md
 * there): namespace blue in sos 4.3+'s layout (namespaces/blue/ip_netns_exec_blue_*), red in
 * the 3.4-4.2 one (ip_netns_exec_red_* beside the host's). Each namespace's netstat -s and
 * ss -peaonmi must be read, and the host's /proc/net, ss and ip link outputs never: the host
 * has 6 TCP and 2 UDP sockets, proc/net/snmp with UdpInDatagrams 452 and an ip -s -d link.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collect.h"
#include "ctx.h"
#include "socket_fold.h"
#include "sos.h"

#define FX NP_FIXTURES "/sos/sos4.5-netns-composite"

struct fx {
	struct np_ctx ctx;
	struct np_snapshot s;
};

static struct fx *open_ns(const char *ns)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];

	assert_non_null(f);
	assert_int_equal(np_ctx_open(&f->ctx, FX), 0);
	np_sos_detect(&f->ctx);
	if (ns)
		assert_int_equal(np_sos_select_netns(&f->ctx, ns, err, sizeof(err)), 0);
	np_collect(&f->ctx, "eth0", np_socket_fold, &f->s);
	return f;
}

static void close_fx(struct fx *f)
{
	np_snapshot_free(&f->s);
	np_ctx_close(&f->ctx);
	free(f);
}

static void test_host(void **state)
{
	struct fx *f = open_ns(NULL);

	(void)state;
	assert_int_equal(np_counters_get(&f->s.hs->mib, "UdpInDatagrams"), 452);
	assert_int_equal(f->s.socks.tcp_total, 6);
	assert_int_equal(f->s.socks.udp_total, 2);
	assert_non_null(strstr(np_srcp(&f->s, NP_SRC_SOCK_DIAG)->detail, "from ss text ss_-peaonmi"));
	close_fx(f);
}

/* sos 4.3+: the namespace's netstat -su (MemErrors 1945378) and its ss -temoi text. */
static void test_blue(void **state)
{
	struct fx *f = open_ns("blue");

	(void)state;
	assert_int_equal(np_counters_get(&f->s.hs->mib, "UdpMemErrors"), 1945378);
	assert_int_equal(np_counters_get(&f->s.hs->mib, "UdpInDatagrams") == 452, 0);
	assert_int_equal(f->s.socks.tcp_total, 4);
	assert_int_equal(f->s.socks.udp_total, 0);
	assert_non_null(strstr(np_srcp(&f->s, NP_SRC_SOCK_DIAG)->detail,
			       "ip_netns_exec_NS_ss_-peaonmi"));
	/* The host's sockstat, ip -s -d link and sysfs are not the namespace's. */
	assert_int_equal(np_srcp(&f->s, NP_SRC_SOCKSTAT)->status, NP_SRC_ABSENT);
	assert_int_equal(np_srcp(&f->s, NP_SRC_RTNL_LINK)->status, NP_SRC_ABSENT);
	close_fx(f);
}

/* sos 3.4-4.2: ip_netns_exec_red_netstat_-s beside the host's files; no ss copy for red. */
static void test_red_flat(void **state)
{
	struct fx *f = open_ns("red");

	(void)state;
	assert_int_equal(np_counters_get(&f->s.hs->mib, "UdpRcvbufErrors"), 4238702717ll);
	assert_true(np_srcp(&f->s, NP_SRC_SOCK_DIAG)->status != NP_SRC_OK &&
		    np_srcp(&f->s, NP_SRC_SOCK_DIAG)->status != NP_SRC_PARTIAL);
	assert_int_equal(f->s.socks.tcp_total, 0);
	close_fx(f);
}

static void test_unknown(void **state)
{
	struct np_ctx ctx;
	char err[256];

	(void)state;
	assert_int_equal(np_ctx_open(&ctx, FX), 0);
	np_sos_detect(&ctx);
	assert_int_equal(np_sos_select_netns(&ctx, "green", err, sizeof(err)), -1);
	assert_string_equal(err, "no namespace 'green' in this sosreport (it has: blue red)");
	assert_int_equal(np_sos_select_netns(&ctx, "../blue", err, sizeof(err)), -1);
	assert_int_equal(np_sos_select_netns(&ctx, "", err, sizeof(err)), -1);
	assert_string_equal(ctx.sos_netns, "");
	np_ctx_close(&ctx);
	/* A plain tree has no namespace copies to choose from. */
	assert_int_equal(np_ctx_open(&ctx, NP_FIXTURES "/trees/lan-10g/after"), 0);
	np_sos_detect(&ctx);
	assert_int_equal(np_sos_select_netns(&ctx, "blue", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is not a sosreport"));
	np_ctx_close(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_blue),
		cmocka_unit_test(test_red_flat),
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
