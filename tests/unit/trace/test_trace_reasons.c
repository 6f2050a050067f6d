// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reason names come from BTF, never from a number table: an enum built here with values that
 * differ from any kernel's (TCP_LISTEN_OVERFLOW inserted mid-enum, everything after it shifted,
 * subsystem reasons in the high bits) must resolve by name. And the stage table's choices.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <bpf/btf.h>

#include "trace_names.h"
#include "trace_stage.h"

static struct btf *shifted_btf(void)
{
	/* Order and values unlike any kernel: SOCKET_RCVBUFF is 7 here (6 on 6.18), CPU_BACKLOG
	 * right after it, TCP_LISTEN_OVERFLOW before NO_SOCKET. */
	static const char *const names[] = {
		"SKB_NOT_DROPPED_YET", "SKB_CONSUMED", "SKB_DROP_REASON_NOT_SPECIFIED",
		"SKB_DROP_REASON_TCP_LISTEN_OVERFLOW", "SKB_DROP_REASON_NO_SOCKET",
		"SKB_DROP_REASON_SOCKET_CLOSE", "SKB_DROP_REASON_NETFILTER_DROP",
		"SKB_DROP_REASON_SOCKET_RCVBUFF", "SKB_DROP_REASON_CPU_BACKLOG",
		"SKB_DROP_REASON_MAX",
	};
	struct btf *btf = btf__new_empty();
	int id;

	assert_non_null(btf);
	id = btf__add_enum(btf, "skb_drop_reason", 4);
	assert_true(id > 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_int_equal(btf__add_enum_value(btf, names[i], (int64_t)i), 0);
	assert_int_equal(btf__add_enum_value(btf, "SKB_DROP_REASON_SUBSYS_MASK",
					     (int64_t)0xffff0000u), 0);
	id = btf__add_enum(btf, "skb_drop_reason_subsys", 4);
	assert_true(id > 0);
	assert_int_equal(btf__add_enum_value(btf, "SKB_DROP_REASON_SUBSYS_CORE", 0), 0);
	assert_int_equal(btf__add_enum_value(btf, "SKB_DROP_REASON_SUBSYS_MAC80211_UNUSABLE", 1),
			 0);
	assert_int_equal(btf__add_enum_value(btf, "SKB_DROP_REASON_SUBSYS_OPENVSWITCH", 2), 0);
	return btf;
}

static void test_shifted(void **state)
{
	struct btf *btf = shifted_btf();
	struct np_reason_names n;
	char buf[64];

	(void)state;
	assert_int_equal(np_reason_names_from_btf(btf, &n), 0);
	btf__free(btf);
	assert_int_equal(n.n, 11);
	assert_string_equal(np_reason_name(&n, 7, buf, sizeof(buf)), "SOCKET_RCVBUFF");
	assert_string_equal(np_reason_name(&n, 8, buf, sizeof(buf)), "CPU_BACKLOG");
	assert_string_equal(np_reason_name(&n, 3, buf, sizeof(buf)), "TCP_LISTEN_OVERFLOW");
	assert_string_equal(np_reason_name(&n, 2, buf, sizeof(buf)), "NOT_SPECIFIED");
	/* SKB_CONSUMED loses its SKB_ prefix too. */
	assert_string_equal(np_reason_name(&n, 1, buf, sizeof(buf)), "CONSUMED");
	assert_int_equal(np_reason_value(&n, "NETFILTER_DROP"), 6);
	assert_int_equal(np_reason_value(&n, "XDP"), -1);
	/* A value the enum lacks, and subsystem reasons (shift 16 from the mask). */
	assert_string_equal(np_reason_name(&n, 42, buf, sizeof(buf)), "reason-42");
	assert_int_equal(n.subsys_shift, 16);
	assert_string_equal(np_reason_name(&n, (2u << 16) | 3, buf, sizeof(buf)), "OPENVSWITCH:3");
	assert_string_equal(np_reason_name(&n, (9u << 16) | 1, buf, sizeof(buf)), "SUBSYS_9:1");
	/* The shifted names land in their stages. */
	assert_int_equal(np_reason_info(np_reason_name(&n, 7, buf, sizeof(buf))).stage,
			 NP_STAGE_SOCKET);
	assert_int_equal(np_reason_info(np_reason_name(&n, 8, buf, sizeof(buf))).stage,
			 NP_STAGE_SOFTNET);
	assert_int_equal(np_reason_info("OPENVSWITCH:3").stage, NP_STAGE_INGRESS);
	np_reason_names_free(&n);
}

static void test_no_enum(void **state)
{
	/* A kernel before 5.17: BTF without the enum. */
	struct btf *btf = btf__new_empty();
	struct np_reason_names n;
	char buf[64];

	(void)state;
	assert_true(btf__add_int(btf, "int", 4, BTF_INT_SIGNED) > 0);
	assert_int_equal(np_reason_names_from_btf(btf, &n), -ENOENT);
	assert_int_equal(n.n, 0);
	assert_string_equal(np_reason_name(&n, 5, buf, sizeof(buf)), "reason-5");
	btf__free(btf);
}

static void test_stages(void **state)
{
	static const struct {
		const char *name;
		enum np_stage stage;
		bool benign;
	} want[] = {
		{ "SOCKET_RCVBUFF", NP_STAGE_SOCKET, false },
		{ "CPU_BACKLOG", NP_STAGE_SOFTNET, false },
		{ "NETFILTER_DROP", NP_STAGE_INGRESS, false },
		{ "TC_INGRESS", NP_STAGE_INGRESS, false },
		{ "XDP", NP_STAGE_INGRESS, false },
		{ "TCP_LISTEN_OVERFLOW", NP_STAGE_SOCKET, false },
		{ "SOCKET_BACKLOG", NP_STAGE_SOCKET, false },
		{ "TCP_INVALID_SEQUENCE", NP_STAGE_TRANSPORT, false },
		{ "TCP_MD5FAILURE", NP_STAGE_TRANSPORT, false },
		{ "IP_RPFILTER", NP_STAGE_IP, false },
		{ "IP_INNOROUTES", NP_STAGE_IP, false },
		{ "UDP_CSUM", NP_STAGE_TRANSPORT, false },
		{ "NO_SOCKET", NP_STAGE_TRANSPORT, false },
		{ "PROTO_MEM", NP_STAGE_SOCKET, false },
		{ "QDISC_DROP", NP_STAGE_CONGESTION, false },
		{ "FULL_RING", NP_STAGE_NIC, false },
		{ "OTHERHOST", NP_STAGE_IP, true },
		{ "UNHANDLED_PROTO", NP_STAGE_IP, true },
		{ "NOT_SPECIFIED", NP_STAGE_IP, true },
		{ "TCP_OLD_DATA", NP_STAGE_TRANSPORT, true },
	};
	struct np_reason_info i;

	(void)state;
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		i = np_reason_info(want[k].name);
		if (i.stage != want[k].stage || i.benign != want[k].benign)
			fail_msg("%s: stage %s benign %d", want[k].name, np_stage_name(i.stage),
				 i.benign);
		assert_int_not_equal(i.match, NP_MATCH_DEFAULT);
		assert_non_null(i.explanation);
	}
	/* A name from a future kernel: still a stage, flagged as a default. */
	i = np_reason_info("SOMETHING_NEW");
	assert_int_equal(i.match, NP_MATCH_DEFAULT);
	assert_false(i.benign);
	/* Functions of kernels without reasons. */
	assert_int_equal(np_symbol_info("enqueue_to_backlog").stage, NP_STAGE_SOFTNET);
	/* A veth frame over the peer's MTU is freed in __dev_forward_skb2: a link mismatch,
	 * not IP (the default for an unknown function). */
	assert_int_equal(np_symbol_info("__dev_forward_skb2").stage, NP_STAGE_LINK);
	assert_int_equal(np_symbol_info("__dev_forward_skb2").match, NP_MATCH_PREFIX);
	assert_int_equal(np_symbol_info("__udp_enqueue_schedule_skb").stage, NP_STAGE_SOCKET);
	assert_int_equal(np_symbol_info("nf_hook_slow").stage, NP_STAGE_INGRESS);
	assert_int_equal(np_symbol_info("ip_rcv_core.isra.0").stage, NP_STAGE_IP);
	assert_int_equal(np_symbol_info("tcp_v4_rcv").stage, NP_STAGE_TRANSPORT);
	assert_int_equal(np_symbol_info("mystery_func").match, NP_MATCH_DEFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shifted),
		cmocka_unit_test(test_no_enum),
		cmocka_unit_test(test_stages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
