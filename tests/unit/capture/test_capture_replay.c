// SPDX-License-Identifier: GPL-2.0-only
/* A real capture (tests/fixtures/capture/veth-tbf.cap) read back without root: the NIC side
 * comes from its recorded kernel answers through the same collectors as live. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "collect.h"
#include "root.h"
#include "snapshot.h"
#include "socket_fold.h"

#define CAP NP_FIXTURES "/capture/veth-tbf.cap"

static void sample(const struct np_root *r, const char *dir, struct np_snapshot *s)
{
	struct np_ctx ctx;

	assert_int_equal(np_root_ctx_open(&ctx, r, dir), 0);
	assert_non_null(ctx.tape);
	assert_int_equal(np_collect(&ctx, "va", NULL, s), 0);
	np_root_ctx_close(&ctx);
}

static void nic_side_replayed(void **state)
{
	struct np_snapshot a, b;
	struct np_root r;
	char err[256];

	(void)state;
	assert_int_equal(np_root_resolve(&r, CAP, err, sizeof(err)), 0);
	assert_true(r.capture);
	assert_string_equal(r.interfaces, "va");
	assert_string_equal(r.origin.hostname, "vm");
	sample(&r, r.before, &a);
	sample(&r, r.dir, &b);
	/* Two instants of one machine, half a second apart by their proc/uptime. */
	assert_true(a.t_known && b.t_known);
	assert_true(b.t > a.t && b.t - a.t < 2.0);
	/* Channels from the recorded ETHTOOL_MSG_CHANNELS_GET reply. */
	assert_true(np_src_ok(&b, NP_SRC_ETHTOOL_CHANNELS));
	assert_int_equal(b.eth.channels.rx, 2);
	assert_int_equal(b.eth.channels.tx, 2);
	/* veth has no rings: the driver said so then, and the replay says the same. */
	assert_int_equal(np_srcp(&b, NP_SRC_ETHTOOL_RINGS)->status, NP_SRC_UNSUPPORTED);
	/* rtnetlink: the link and the tbf qdisc. */
	assert_true(np_src_ok(&b, NP_SRC_RTNL_LINK));
	assert_int_equal(b.rtnl.mtu, 1500);
	assert_true(np_src_ok(&b, NP_SRC_RTNL_QDISC));
	assert_true(b.rtnl.nqdisc >= 1);
	assert_string_equal(b.rtnl.qdiscs[0].kind, "tbf");
	/* Driver info over the recorded SIOCETHTOOL. */
	assert_true(np_src_ok(&b, NP_SRC_ETHTOOL_DRVINFO));
	assert_string_equal(b.eth.driver, "veth");
	/* A netpath capture is read like the live system: not a partial copy. */
	assert_false(b.captured);
	np_snapshot_free(&a);
	np_snapshot_free(&b);
	np_root_release(&r);
}

/* The recorded sock_diag dumps (of a namespace without sockets) go through the fold the command hands the context (the checks'
 * judgement); a context without one dumps no sockets and says so rather than reporting none. */
static void sockets_replayed_through_the_fold(void **state)
{
	struct np_snapshot with, without;
	struct np_root r;
	struct np_ctx ctx;
	char err[256];

	(void)state;
	assert_int_equal(np_root_resolve(&r, CAP, err, sizeof(err)), 0);
	assert_int_equal(np_root_ctx_open(&ctx, &r, r.dir), 0);
	assert_int_equal(np_collect(&ctx, "va", np_socket_fold, &with), 0);
	np_collect(&ctx, "va", NULL, &without);
	np_root_ctx_close(&ctx);
	assert_true(np_src_ok(&with, NP_SRC_SOCK_DIAG));
	assert_int_equal(np_srcp(&without, NP_SRC_SOCK_DIAG)->status, NP_SRC_SKIPPED);
	assert_non_null(strstr(np_srcp(&without, NP_SRC_SOCK_DIAG)->detail, "not asked"));
	np_snapshot_free(&with);
	np_snapshot_free(&without);
	np_root_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nic_side_replayed),
		cmocka_unit_test(sockets_replayed_through_the_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
