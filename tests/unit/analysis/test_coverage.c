// SPDX-License-Identifier: GPL-2.0-only
/*
 * Never "OK" without evidence: over temporary --root trees, a run in which no stage could be
 * judged is UNKNOWN in every output (exit 3, JSON status "unknown", NETPATH UNKNOWN,
 * netpath_status 3); a partial run says which stages it judged; a link that is down is a
 * critical finding.
 */
#include "golden.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render_monitor.h"
#include "../collect/tree_put.h"

static char *tmp_tree(void)
{
	char *root = malloc(64);

	assert_non_null(root);
	snprintf(root, 64, "/tmp/np-cov-XXXXXX");
	assert_non_null(mkdtemp(root));
	return root;
}

static void rm_tree(char *root)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

/* Render one output format into a string. */
static char *render(const struct golden *g, int fmt, int *code)
{
	struct np_doctor_view v = {
		.a = &g->a, .r = &g->rep, .funnel = &g->fn, .cov = &g->cov, .root = g->after,
		.exit_code = g->exit_code,
	};
	struct np_render_opts ro = { .width = 80 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (fmt == 0)
		np_render_doctor_text(f, &v, &ro);
	else if (fmt == 1)
		np_render_doctor_json(f, &v);
	else if (fmt == 2)
		np_render_doctor_prom(f, &v, false);
	else
		*code = np_render_doctor_nagios(f, &v);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void assert_unknown_everywhere(const struct golden *g)
{
	int code = -1;
	char *text = render(g, 0, &code), *json = render(g, 1, &code),
	     *prom = render(g, 2, &code), *nagios = render(g, 3, &code);

	assert_int_equal(g->exit_code, 3);
	assert_true(np_coverage_unknown(&g->cov));
	assert_contains(text, "result: UNKNOWN");
	assert_lacks(text, "No findings: nothing along the receive path looks limiting");
	assert_contains(json, "\"status\": \"unknown\"");
	assert_contains(json, "\"exit_code\": 3");
	assert_contains(prom, "\nnetpath_status 3\n");
	assert_contains(nagios, "NETPATH UNKNOWN - eth0: no stage of the receive path could be judged");
	assert_int_equal(code, 3);
	free(text);
	free(json);
	free(prom);
	free(nagios);
}

/* A tree with nothing in it that doctor reads. */
static void test_empty_tree(void **state)
{
	char *root = tmp_tree();
	struct golden *g;

	tree_put(root, "proc/version", "Linux version 5.14.0\n");
	g = golden_run_single(state, root, "eth0");
	assert_unknown_everywhere(g);
	assert_int_equal(g->cur.hs->host.ncpu_online, 0);
	for (int st = 0; st < NP_STAGE__COUNT; st++)
		assert_int_not_equal(g->cov.st[st].status, NP_COV_JUDGED);
	rm_tree(root);
}

/* softnet_stat as the only file, in no kernel's layout: refused with what was seen, and the
 * verdict is UNKNOWN with that reason, not "nothing was readable". */
static void test_softnet_refused(void **state)
{
	char *root = tmp_tree();
	struct golden *g;

	tree_put(root, "proc/net/softnet_stat", "00000001 00000000 00000000 00000000 00000000\n");
	g = golden_run_single(state, root, "eth0");
	assert_unknown_everywhere(g);
	assert_int_equal(np_srcp(&g->cur, NP_SRC_SOFTNET)->status, NP_SRC_MALFORMED);
	assert_contains(g->cov.st[NP_STAGE_SOFTNET].reason, "5 fields per row");
	rm_tree(root);
}

/* softnet_stat of RHEL 7 (10 columns) alone: softnet judged, the rest said to be not judged,
 * and the summary is about the stages judged, not the whole receive path. */
static void test_partial(void **state)
{
	char *root = tmp_tree();
	struct golden *g;
	int code = 0;
	char *text, *nagios;

	tree_put(root, "proc/net/softnet_stat",
		 "0000a000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
		 "00000000 00000000\n"
		 "0000b000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
		 "00000000 00000000\n");
	g = golden_run_single(state, root, "eth0");
	assert_int_equal(g->exit_code, 0);
	assert_int_equal(g->cov.judged, 1);
	text = render(g, 0, &code);
	nagios = render(g, 3, &code);
	assert_contains(text, "No findings in the 1 of");
	assert_contains(text, "stages judged: softnet (partly)");
	assert_contains(text, "ip: not judged - ");
	assert_contains(text, "not in this capture");
	assert_contains(nagios, "NETPATH OK - eth0:");
	assert_contains(nagios, "stages judged (not judged: link,");
	assert_int_equal(code, 0);
	free(text);
	free(nagios);
	rm_tree(root);
}

/* /proc/net/snmp without /proc/net/netstat: the TcpExt counters are missing evidence, not
 * "not on this kernel", and the stages that need them are not fully judged. */
static void test_netstat_missing(void **state)
{
	char *root = tmp_tree();
	struct golden *g;
	const struct np_check_result *res;

	tree_put(root, "proc/net/snmp",
		 "Ip: Forwarding InReceives InDelivers\nIp: 2 1000 1000\n"
		 "Udp: InDatagrams NoPorts InErrors RcvbufErrors\nUdp: 10 0 0 0\n");
	g = golden_run_single(state, root, "eth0");
	res = result(g, "transport.tcp-backlog-drop");
	assert_int_equal(res->state, NP_CHECK_SKIPPED);
	assert_false(res->not_applicable);
	assert_int_equal(g->cov.st[NP_STAGE_TRANSPORT].status, NP_COV_PARTIAL);
	rm_tree(root);
}

/* A link without carrier: critical, in monitoring too. */
static void test_link_down(void **state)
{
	char *root = tmp_tree();
	struct golden *g;
	const struct np_finding *f;

	tree_put(root, "sys/class/net/eth0/operstate", "down\n");
	tree_put(root, "sys/class/net/eth0/carrier", "0\n");
	tree_put(root, "sys/class/net/eth0/flags", "0x1003\n");
	tree_put(root, "sys/class/net/eth0/mtu", "1500\n");
	tree_put(root, "sys/class/net/eth0/ifindex", "2\n");
	g = golden_run_single(state, root, "eth0");
	f = finding(g, "link.down");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_contains(f->summary, "eth0 is down");
	assert_contains(f->detail, "without carrier");
	assert_int_equal(g->exit_code, 2);
	rm_tree(root);

	/* Administratively down: a warning, with the command that brings it up. */
	root = tmp_tree();
	golden_teardown(state);
	tree_put(root, "sys/class/net/eth0/operstate", "down\n");
	tree_put(root, "sys/class/net/eth0/flags", "0x1002\n");
	tree_put(root, "sys/class/net/eth0/mtu", "1500\n");
	g = golden_run_single(state, root, "eth0");
	f = finding(g, "link.down");
	assert_int_equal(f->severity, NP_SEV_WARNING);
	assert_contains(f->remedy, "ip link set dev eth0 up");
	rm_tree(root);

	/* "unknown" with carrier (a tun device) is not down. */
	root = tmp_tree();
	golden_teardown(state);
	tree_put(root, "sys/class/net/eth0/operstate", "unknown\n");
	tree_put(root, "sys/class/net/eth0/carrier", "1\n");
	tree_put(root, "sys/class/net/eth0/mtu", "1500\n");
	g = golden_run_single(state, root, "eth0");
	assert_int_equal(result(g, "link.down")->state, NP_CHECK_PASSED);
	rm_tree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_empty_tree, golden_teardown),
		cmocka_unit_test_teardown(test_softnet_refused, golden_teardown),
		cmocka_unit_test_teardown(test_partial, golden_teardown),
		cmocka_unit_test_teardown(test_netstat_missing, golden_teardown),
		cmocka_unit_test_teardown(test_link_down, golden_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
