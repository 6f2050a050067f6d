// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Prometheus renderer over the golden fixture trees: the exposition is well-formed (HELP and
 * TYPE once before each family's consecutive samples, counters *_total, no duplicate series),
 * carries the fixture's numbers, escapes hostile label values, and leaves raw driver counters
 * out unless asked.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "config.h"
#include "driver_counters.h"
#include "prom_parse.h"
#include "tree.h"

#define assert_near(x, want) do { \
	double x_ = (x), w_ = (want); \
	if (!(fabs(x_ - w_) <= 1e-6 * (fabs(w_) + 1))) \
		fail_msg("%s = %.17g, expected %.17g", #x, x_, w_); \
} while (0)
#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' not in the output", (needle)); \
} while (0)
#define assert_lacks(hay, needle) do { \
	if (strstr((hay), (needle))) \
		fail_msg("'%s' unexpectedly in the output", (needle)); \
} while (0)

static int64_t sysctl_val(const struct np_snapshot *s, const char *key, int idx)
{
	bool ok;
	const struct np_sysctl *e = np_sysctl_find_key(s, key);
	int64_t v = e && !e->err && idx < e->nvals ? e->v[idx] : 0;

	ok = e && !e->err && idx < e->nvals;

	if (!ok)
		fail_msg("fixture has no %s[%d]", key, idx);
	return v;
}

/* Every check the engine ran has a severity and a skipped gauge. */
static void check_every_check(const struct tree_run *t, const struct prom_doc *d)
{
	for (size_t i = 0; i < t->rep.nres; i++) {
		const struct np_check_result *c = &t->rep.res[i];

		assert_int_not_equal(c->state, NP_CHECK_NOT_RUN);
		assert_near(prom_get(d, "netpath_check_severity", "check", c->check->id, "stage",
				     np_stage_name(c->check->stage), NULL),
			    (double)c->worst);
		assert_near(prom_get(d, "netpath_check_skipped", "check", c->check->id, NULL),
			    c->state == NP_CHECK_SKIPPED ? 1 : 0);
	}
	assert_int_equal(prom_count(d, "netpath_check_severity", NULL), t->rep.nres);
}

/* The value of label name on sample s, NULL when it has none. */
static const char *label(const struct prom_sample *s, const char *name)
{
	for (size_t i = 0; i < s->nl; i++)
		if (!strcmp(s->lname[i], name))
			return s->lval[i];
	return NULL;
}

/* The families whose values are the host's: no interface, no netns, once per host. */
static bool host_family(const char *name)
{
	static const char *const host[] = {
		"netpath_netdev_", "netpath_rmem_max_bytes", "netpath_wmem_max_bytes",
		"netpath_tcp_mem_", "netpath_udp_mem_", "netpath_page_size_bytes",
	};

	for (size_t i = 0; i < sizeof(host) / sizeof(host[0]); i++)
		if (!strncmp(name, host[i], strlen(host[i])))
			return true;
	return false;
}

/* The families of one device (and the funnel, whose rows name theirs or none). */
static bool device_family(const char *name)
{
	static const char *const dev[] = {
		"netpath_nic_", "netpath_queue_", "netpath_qdisc_",
		"netpath_stack_device_info", "netpath_device_check_severity", "netpath_stage_packets_",
		"netpath_stage_drops_",
	};

	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		if (!strncmp(name, dev[i], strlen(dev[i])))
			return true;
	return false;
}

/*
 * Every sample's scope labels: host families none; device families interface first (dev when
 * given; the funnel's namespace and host rows interface=""), the run's and the namespace's
 * families none; and netns on everything but the host's when netns is given.
 */
static void check_scopes(const struct prom_doc *d, const char *dev, const char *netns)
{
	for (size_t i = 0; i < d->ns; i++) {
		const struct prom_sample *s = &d->s[i];
		const char *iface = label(s, "interface"), *ns = label(s, "netns");

		if (host_family(s->name)) {
			if (iface || ns)
				fail_msg("%s: a host-wide series with interface or netns", s->key);
			continue;
		}
		if (netns && (!ns || strcmp(ns, netns)))
			fail_msg("%s: no netns=\"%s\"", s->key, netns);
		if (!netns && ns)
			fail_msg("%s: netns without --netns", s->key);
		if (!device_family(s->name)) {
			if (iface)
				fail_msg("%s: a run-wide series with interface", s->key);
			continue;
		}
		if (!iface || strcmp(s->lname[0], "interface"))
			fail_msg("%s: a device series without interface first", s->key);
		if (!strncmp(s->name, "netpath_stage_", 14)) {
			const char *scope = label(s, "scope");

			if (!strcmp(scope, "interface") ? !*iface : !!*iface)
				fail_msg("%s: interface does not match scope", s->key);
		} else if (dev && strcmp(iface, dev)) {
			fail_msg("%s: interface is not %s", s->key, dev);
		}
	}
}

/*
 * What node_exporter's default collectors export is not repeated (contrib/prometheus/README.md):
 * softnet_stat (node_softnet_*), MTU and speed (node_network_mtu_bytes, _speed_bytes), the
 * conntrack limit (node_nf_conntrack_entries_limit), sockstat memory (node_sockstat_*_mem).
 */
static void check_no_node_exporter(const char *buf)
{
	static const char *const dropped[] = {
		"netpath_softnet_", "netpath_link_speed_", "netpath_link_mtu_",
		"netpath_conntrack_max_", "netpath_tcp_mem_used_", "netpath_udp_mem_used_",
	};

	for (size_t i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++)
		assert_lacks(buf, dropped[i]);
}

static void test_x710(void **state)
{
	struct tree_run *t = tree_run(state, "x710-server", "eth0", true);
	const struct np_snapshot *s = &t->cur;
	struct prom_doc d;
	size_t len;
	char *buf = render_prom(t, false, &len);
	double now = (double)time(NULL);

	prom_parse(buf, len, &d);
	check_scopes(&d, "eth0", NULL);
	assert_near(prom_get(&d, "netpath_check_severity", "check", "softnet.backlog-drops",
			     "stage", "softnet", NULL), 3);
	assert_near(prom_get(&d, "netpath_check_severity", "check", "softnet.time-squeeze", NULL),
		    2);
	/* A skipped check: severity 0 with skipped 1, so alert rules keep their series. */
	assert_near(prom_get(&d, "netpath_check_skipped", "check", "ingress.conntrack-full", NULL),
		    1);
	assert_near(prom_get(&d, "netpath_check_severity", "check", "ingress.conntrack-full",
			     NULL), 0);
	assert_near(prom_get(&d, "netpath_check_skipped", "check", "softnet.backlog-drops", NULL),
		    0);
	check_every_check(t, &d);
	/* netpath_status is the run's exit code (critical: 2); the worst severity has its own
	 * family (critical: 3). */
	assert_near(prom_get(&d, "netpath_status", NULL), 2);
	assert_near(prom_get(&d, "netpath_status", NULL), t->v.exit_code);
	assert_near(prom_get(&d, "netpath_worst_severity", NULL), 3);
	/* Coverage per stage: softnet was read; a capture has no PCIe config space. */
	assert_near(prom_get(&d, "netpath_stage_judged", "stage", "softnet", NULL), 1);
	assert_near(prom_get(&d, "netpath_stage_judged", "stage", "softnet", NULL),
		    t->cov.st[NP_STAGE_SOFTNET].status == NP_COV_JUDGED ? 1 : 0.5);

	/* Metadata. */
	assert_near(prom_get(&d, "netpath_info", "version", NETPATH_VERSION,
			     "kernel", "5.15.0-91-generic", NULL), 1);
	assert_near(prom_get(&d, "netpath_interval_seconds", NULL), 10);
	assert_true(fabs(prom_get(&d, "netpath_last_run_timestamp_seconds", NULL) - now) < 120);

	/* The funnel: counters since boot, rates over the 10 s between the captures. */
	assert_string_equal(prom_family(&d, "netpath_stage_drops_total")->type, "counter");
	assert_string_equal(prom_family(&d, "netpath_stage_drops_per_second")->type, "gauge");
	assert_near(prom_get(&d, "netpath_stage_drops_per_second", "stage", "softnet",
			     "scope", "host", NULL), 12000);
	assert_near(prom_get(&d, "netpath_stage_drops_per_second", "stage", "nic",
			     "scope", "interface", NULL), 9000);
	assert_near(prom_get(&d, "netpath_stage_packets_per_second", "stage", "nic", NULL),
		    1650000);
	assert_near(prom_get(&d, "netpath_stage_drops_total", "stage", "nic", NULL),
		    (double)(s->dev.stats.rx_missed_errors + s->dev.stats.rx_fifo_errors +
			     s->dev.stats.rx_over_errors));
	/* No conntrack in the tree: the ingress stage's drops are the IPv4 balance, 0 here. */
	assert_near(prom_get(&d, "netpath_stage_drops_per_second", "stage", "ingress", NULL), 0);

	/* The values the checks compared. */
	assert_near(prom_get(&d, "netpath_netdev_max_backlog_packets", NULL), 1000);
	assert_near(prom_get(&d, "netpath_netdev_budget_packets", NULL), 300);
	assert_near(prom_get(&d, "netpath_netdev_budget_seconds", NULL), 0.002);
	assert_near(prom_get(&d, "netpath_tcp_mem_pages", "threshold", "pressure", NULL),
		    (double)sysctl_val(s, "net.ipv4.tcp_mem", 1));
	assert_near(prom_get(&d, "netpath_tcp_mem_pages", "threshold", "max", NULL),
		    (double)sysctl_val(s, "net.ipv4.tcp_mem", 2));
	assert_near(prom_get(&d, "netpath_tcp_rmem_bytes", "setting", "max", NULL),
		    (double)sysctl_val(s, "net.ipv4.tcp_rmem", 2));
	assert_near(prom_get(&d, "netpath_rmem_max_bytes", NULL),
		    (double)sysctl_val(s, "net.core.rmem_max", 0));
	check_no_node_exporter(buf);

	/* A captured tree has no netlink: no driver counters at all, and never raw ones. */
	assert_null(prom_family(&d, "netpath_nic_driver_stat_total"));
	assert_lacks(buf, "netpath_nic_driver_stat_total");
	prom_free(&d);
	free(buf);
}

/* Driver counters, queues, rings and qdiscs as netlink would have filled them, some hostile. */
static const char hostile[] = "ev\"il\\na\nme";
static const char hostile_esc[] = "ev\\\"il\\\\na\\nme";

static void inject_nic(struct np_snapshot *s)
{
	struct np_counters *c = &s->eth.drv_stats;
	static const struct { const char *name; uint64_t v; } drv[] = {
		{ "rx_queue_0_drops", 5 }, { "rx0_drops", 7 }, { "rx_queue_1_drops", 3 },
		{ "rx_drops", 20 }, { "rx0_hw_drop_overruns", 4 }, { "rx_packets", 1000 },
		{ "rx_bytes", 64000 }, { "rx_bytes", 64001 }, { hostile, 42 },
		{ "bad\xffutf8", 9 }, { "bad\xfeutf8", 10 },
	};
	struct np_qdisc *q;

	snprintf(s->eth.driver, sizeof(s->eth.driver), "virtio_net");
	for (size_t i = 0; i < sizeof(drv) / sizeof(drv[0]); i++)
		assert_int_equal(np_counters_append(c, drv[i].name, drv[i].v), 0);
	np_src_set(s, NP_SRC_DRIVER_STATS, 0, NULL);

	s->eth.qstats = calloc(3, sizeof(*s->eth.qstats));
	assert_non_null(s->eth.qstats);
	s->eth.nqstats = 3;
	for (int i = 0; i < 3; i++) {
		struct np_qstat *qs = &s->eth.qstats[i];

		memset(qs, 0xff, sizeof(*qs));	/* NP_NA everywhere */
		qs->queue = i < 2 ? i : 1;	/* queue 1 twice: only the first is written */
		qs->rx_packets = 100u + (unsigned)i;
		qs->rx_hw_drops = 7u * (unsigned)i;
	}
	np_src_set(s, NP_SRC_QSTATS, 0, NULL);

	s->eth.rings.rx = 512;
	s->eth.rings.rx_max = 4096;
	np_src_set(s, NP_SRC_ETHTOOL_RINGS, 0, NULL);
	s->eth.channels.combined = 4;
	s->eth.channels.combined_max = 16;
	np_src_set(s, NP_SRC_ETHTOOL_CHANNELS, 0, NULL);
	s->eth.coalesce = (struct np_coalesce){ .rx_usecs = 64, .rx_max_frames = 32,
						.tx_usecs = NP_NA, .tx_max_frames = NP_NA,
						.adaptive_rx = 1, .adaptive_tx = -1 };
	np_src_set(s, NP_SRC_ETHTOOL_COALESCE, 0, NULL);

	q = calloc(3, sizeof(*q));
	assert_non_null(q);
	s->rtnl.qdiscs = q;
	s->rtnl.nqdisc = 3;
	for (int i = 0; i < 3; i++) {
		snprintf(q[i].kind, sizeof(q[i].kind), "%s", i == 2 ? "fq" : "q\"\\\nx");
		q[i].handle = 0x10000;
		q[i].root = true;
		q[i].drops = 11u + (unsigned)i;
		q[i].overlimits = NP_NA;
		q[i].bytes = q[i].packets = q[i].requeues = q[i].backlog = q[i].qlen = NP_NA;
	}
	np_src_set(s, NP_SRC_RTNL_QDISC, 0, NULL);
}

static void test_injected_nic(void **state)
{
	struct tree_run *t = tree_run(state, "x710-server", "eth0", true);
	struct np_drv_class cl;
	struct prom_doc d;
	size_t len;
	char *buf;

	/* The classification this test relies on (src/checks/driver_counters.c). */
	assert_true(np_drv_classify("virtio_net", "rx_queue_1_drops", &cl));
	assert_int_equal(cl.meaning, NP_DRV_QUEUE_DROP);
	assert_int_equal(cl.queue, 1);
	assert_true(np_drv_classify("virtio_net", "rx_drops", &cl));
	assert_int_equal(cl.queue, -1);
	assert_false(np_drv_classify("virtio_net", hostile, &cl));
	inject_nic(&t->cur);

	buf = render_prom(t, false, &len);
	prom_parse(buf, len, &d);
	/* Classified counters summed by (meaning, direction, queue); no raw names. */
	assert_near(prom_get(&d, "netpath_nic_witness_total", "meaning", "queue_drop",
			     "direction", "rx", "queue", "0", NULL), 12);
	assert_near(prom_get(&d, "netpath_nic_witness_total", "meaning", "queue_drop",
			     "queue", "1", NULL), 3);
	assert_near(prom_get(&d, "netpath_nic_witness_total", "meaning", "queue_drop",
			     "queue", "device", NULL), 20);
	assert_near(prom_get(&d, "netpath_nic_witness_total", "meaning", "ring_empty",
			     "queue", "0", NULL), 4);
	assert_int_equal(prom_count(&d, "netpath_nic_witness_total", NULL), 4);
	assert_null(prom_family(&d, "netpath_nic_driver_stat_total"));
	assert_lacks(buf, "\"rx_packets\"");
	assert_lacks(buf, "ev\\\"il");

	/* Queues: the duplicated queue id once; NP_NA fields leave no series. */
	assert_int_equal(prom_count(&d, "netpath_queue_rx_packets_total", NULL), 2);
	assert_near(prom_get(&d, "netpath_queue_rx_packets_total", "queue", "1", NULL), 101);
	assert_near(prom_get(&d, "netpath_queue_rx_drops_total", "queue", "1", NULL), 7);
	assert_null(prom_family(&d, "netpath_queue_rx_alloc_fail_total"));
	assert_near(prom_get(&d, "netpath_nic_rx_ring_descriptors", NULL), 512);
	assert_near(prom_get(&d, "netpath_nic_rx_ring_max_descriptors", NULL), 4096);
	assert_near(prom_get(&d, "netpath_nic_channels", "type", "combined", NULL), 4);
	assert_near(prom_get(&d, "netpath_nic_channels_max", "type", "combined", NULL), 16);
	/* Coalescing, which node_exporter lacks: seconds, frames, adaptive. */
	assert_near(prom_get(&d, "netpath_nic_rx_coalesce_seconds", "interface", "eth0", NULL),
		    64e-6);
	assert_near(prom_get(&d, "netpath_nic_rx_coalesce_frames", NULL), 32);
	assert_near(prom_get(&d, "netpath_nic_rx_coalesce_adaptive", NULL), 1);

	/* Qdiscs: the hostile kind escaped, the identical pair written once. */
	assert_contains(buf, "kind=\"q\\\"\\\\\\nx\",handle=\"1:0\",parent=\"root\"} 11\n");
	assert_near(prom_get(&d, "netpath_qdisc_drops_total", "kind", "q\"\\\nx", NULL), 11);
	assert_near(prom_get(&d, "netpath_qdisc_drops_total", "kind", "fq", NULL), 13);
	assert_null(prom_family(&d, "netpath_qdisc_overlimits_total"));
	prom_free(&d);
	free(buf);

	/* Raw on request: every name once (rx_bytes twice in the driver's list), escaped, and
	 * bytes that are not UTF-8 replaced, which makes the two bad* names one series. */
	buf = render_prom(t, true, &len);
	prom_parse(buf, len, &d);
	assert_contains(buf, hostile_esc);
	assert_near(prom_get(&d, "netpath_nic_driver_stat_total", "name", hostile, NULL), 42);
	assert_near(prom_get(&d, "netpath_nic_driver_stat_total", "name", "rx_bytes", NULL), 64000);
	assert_near(prom_get(&d, "netpath_nic_driver_stat_total", "name", "bad?utf8", NULL), 9);
	assert_lacks(buf, "\xff");
	assert_int_equal(prom_count(&d, "netpath_nic_driver_stat_total", NULL), 9);
	/* The witnesses stay: alert rules on them do not lose their series. */
	assert_int_equal(prom_count(&d, "netpath_nic_witness_total", NULL), 4);
	prom_free(&d);
	free(buf);
}

/* --interval 0 on a 2-CPU VM: no rates at all, no link speed (virtio reports none). */
static void test_vm_virtio_unsampled(void **state)
{
	struct tree_run *t = tree_run(state, "vm-virtio", "eth0", false);
	struct prom_doc d;
	size_t len;
	char *buf = render_prom(t, false, &len);

	prom_parse(buf, len, &d);
	assert_null(prom_family(&d, "netpath_stage_drops_per_second"));
	assert_null(prom_family(&d, "netpath_stage_packets_per_second"));
	assert_non_null(prom_family(&d, "netpath_stage_drops_total"));
	assert_near(prom_get(&d, "netpath_interval_seconds", NULL), 0);
	check_no_node_exporter(buf);
	assert_true(prom_get(&d, "netpath_status", NULL) <= 1);
	assert_true(prom_get(&d, "netpath_worst_severity", NULL) <= 1);
	check_every_check(t, &d);
	prom_free(&d);
	free(buf);
}

/* 5.4: conntrack nearly full, tcp_mem typed in bytes, an offline CPU with no series. */
static void test_old_kernel(void **state)
{
	struct tree_run *t = tree_run(state, "old-kernel-5.4", "eth0", true);
	struct prom_doc d;
	size_t len;
	char *buf = render_prom(t, false, &len);

	prom_parse(buf, len, &d);
	/* The host's conntrack count and limit are node_exporter's (node_nf_conntrack_*). */
	check_no_node_exporter(buf);
	assert_null(prom_family(&d, "netpath_conntrack_entries"));
	assert_near(prom_get(&d, "netpath_tcp_mem_pages", "threshold", "max", NULL), 16777216);
	assert_near(prom_get(&d, "netpath_check_severity", "check", "ingress.conntrack-full",
			     NULL), 3);
	/* No netdev_budget_usecs on 5.4: absent, not a made-up default. */
	assert_null(prom_family(&d, "netpath_netdev_budget_seconds"));
	check_every_check(t, &d);
	prom_free(&d);
	free(buf);

	/* Under --netns the count is the namespace's, which node_exporter (in the host's
	 * namespace) cannot see: written, with netns. The limit is the host's: never. */
	t->v.netns = "ctr1";
	buf = render_prom(t, false, &len);
	prom_parse(buf, len, &d);
	assert_near(prom_get(&d, "netpath_conntrack_entries", "netns", "ctr1", NULL), 65000);
	check_no_node_exporter(buf);
	prom_free(&d);
	free(buf);
}

/* --netns: the run's, the namespace's and the devices' samples name the namespace, so eth0 of
 * two containers never collide; the host-wide families are left to the host's own run. */
static void test_netns_label(void **state)
{
	struct tree_run *t = tree_run(state, "vm-virtio", "eth0", true);
	struct prom_doc d;
	size_t len;
	char *buf;

	t->v.netns = "ctr\"1";
	buf = render_prom(t, false, &len);
	prom_parse(buf, len, &d);
	assert_true(d.ns > 50);
	check_scopes(&d, "eth0", "ctr\"1");
	assert_null(prom_family(&d, "netpath_netdev_max_backlog_packets"));
	assert_int_equal(prom_count(&d, "netpath_stage_packets_total", "scope", "host", NULL), 0);
	assert_int_equal(prom_count(&d, "netpath_tcp_rmem_bytes", "netns", "ctr\"1", NULL), 3);
	assert_contains(buf, "{interface=\"eth0\",netns=\"ctr\\\"1\"");
	prom_free(&d);
	free(buf);
}

/*
 * --all on a host with two interfaces: each device's own series carry its name, the host-wide
 * ones appear once and carry none (sum() cannot count them twice), and each family is declared
 * once with all its samples together (prom_parse fails a split family).
 */
static void test_two_devices(void **state)
{
	struct tree_run *t = tree_run(state, "x710-server", "eth0", true);
	struct np_snapshot *eth1 = malloc(sizeof(*eth1));
	const struct np_snapshot *devs[2];
	struct prom_doc d;
	size_t len;
	char *buf;

	assert_non_null(eth1);
	/* A shallow copy renamed, with an MTU of its own: read-only here, never freed deeply. */
	memcpy(eth1, &t->cur, sizeof(*eth1));
	snprintf(eth1->ifname, sizeof(eth1->ifname), "eth1");
	eth1->dev.mtu = 9000;
	eth1->rtnl.mtu = 9000;
	devs[0] = &t->cur;
	devs[1] = eth1;
	t->v.devs = devs;
	t->v.ndevs = 2;
	buf = render_prom(t, false, &len);
	prom_parse(buf, len, &d);
	check_scopes(&d, NULL, NULL);
	assert_int_equal(prom_count(&d, "netpath_stack_device_info", "interface", "eth1", NULL),
			 0);	/* the stack is the run's device's */
	assert_int_equal(prom_count(&d, "netpath_stage_packets_total", "interface", "eth0",
				    "stage", "nic", NULL), 1);
	/* Host-wide: once, whatever the number of devices. */
	assert_int_equal(prom_count(&d, "netpath_tcp_mem_pages", NULL), 3);
	assert_int_equal(prom_count(&d, "netpath_netdev_max_backlog_packets", NULL), 1);
	assert_int_equal(prom_count(&d, "netpath_status", NULL), 1);
	prom_free(&d);
	free(buf);
	free(eth1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_x710, tree_teardown),
		cmocka_unit_test_teardown(test_injected_nic, tree_teardown),
		cmocka_unit_test_teardown(test_vm_virtio_unsampled, tree_teardown),
		cmocka_unit_test_teardown(test_old_kernel, tree_teardown),
		cmocka_unit_test_teardown(test_netns_label, tree_teardown),
		cmocka_unit_test_teardown(test_two_devices, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
