// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath plan over the field reports' machines (tests/fixtures/trees, see their gen_*.py):
 * the values a careful engineer would install, sized by doctor's own rules, each checked by
 * judging the same data again with the plan applied (np_plan_verify).
 */
#include "golden.h"
#include "parse.h"
#include "plan.h"
#include "render_plan.h"
#include "sizing.h"

#include <stdlib.h>
#include <string.h>

struct fixture {
	struct golden *g;
	struct np_plan p;
	bool built;
};

static int teardown(void **state)
{
	struct fixture *fx = *state;

	if (fx) {
		if (fx->built)
			np_plan_free(&fx->p);
		golden_teardown((void **)&fx->g);
		free(fx);
	}
	*state = NULL;
	return 0;
}

/* doctor --root TREE/after --before TREE/before IFACE --rtt --bandwidth, then the plan of
 * profile over that analysis, verified. km NULL: the modules are unknown (a tree). */
static struct np_plan *plan_for(void **state, const char *tree, const char *ifname,
				enum np_profile prof, double rtt, double bw,
				const struct np_kmods *km)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	*state = fx;
	fx->g = golden_run_path((void **)&fx->g, tree, ifname, rtt, bw);
	assert_int_equal(np_plan_build(&fx->g->a, &fx->g->rep, prof, km, &fx->p), 0);
	fx->built = true;
	assert_int_equal(np_plan_verify(&fx->p, &fx->g->a, &fx->g->rep, &fx->g->cur), 0);
	return &fx->p;
}

static const struct np_plan_line *line(const struct np_plan *p, enum np_plan_kind k,
				       const char *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->l[i].kind == k && !strcmp(p->l[i].key, key))
			return &p->l[i];
	return NULL;
}

static const struct np_plan_line *need(const struct np_plan *p, enum np_plan_kind k,
				       const char *key)
{
	const struct np_plan_line *l = line(p, k, key);

	if (!l)
		fail_msg("no %s line for %s", np_plan_kind_name(k), key);
	return l;
}

static bool listed(const char *const *ids, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ids[i], id))
			return true;
	return false;
}

#define assert_resolved(p, id) do { \
	if (!listed((p)->resolved, (p)->nresolved, (id))) \
		fail_msg("%s not resolved by the plan", (id)); \
} while (0)

/* Every line that installs something names a current value that differs from the planned
 * one, says why and what it costs, and answers a check of the table. */
static void assert_lines_sound(const struct np_plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct np_plan_line *l = &p->l[i];

		assert_true(l->why[0]);
		if (l->kind == NP_PLAN_NOTE)
			continue;
		assert_true(l->cost[0]);
		assert_non_null(l->checks[0]);
		for (size_t j = 0; j < NP_PLAN_CHECKS && l->checks[j]; j++)
			assert_non_null(np_check_find(l->checks[j]));
		if (l->kind == NP_PLAN_SYSCTL || l->kind == NP_PLAN_LINK)
			assert_string_not_equal(l->current, l->planned);
	}
}

static char *render(const struct np_plan *p, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json)
		np_render_plan_json(f, p);
	else
		np_render_plan_text(f, p);
	assert_int_equal(fclose(f), 0);
	if (json)
		assert_json(buf, len);
	return buf;
}

/* POP-A, kernel defaults, run as the lossy-backbone report compared it (30 ms, 500 Mbit/s):
 * the plan installs what POP-B was tuned to where the path needs it, and says why it needs
 * less than POP-B's 32 MiB ceilings. bbr is not loaded and the tree cannot say whether the
 * kernel ships it: planned with the modules-load.d step and the caveat. */
static void test_pop_a_long_haul(void **state)
{
	struct np_plan *p = plan_for(state, "pop-a", "eth0", NP_PROFILE_LONG_HAUL, 30, 500e6,
				     NULL);
	double bdp = 500e6 / 8 * 0.030;
	const struct np_plan_line *l;
	char *txt;

	assert_lines_sound(p);
	assert_near(p->bdp, bdp);
	l = need(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_congestion_control");
	assert_string_equal(l->current, "cubic");
	assert_string_equal(l->planned, "bbr");
	l = need(p, NP_PLAN_MODULE, "tcp_bbr");
	assert_string_equal(l->current, "unknown");
	assert_contains(l->why, "must exist");
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.core.default_qdisc")->planned, "fq");
	assert_true(need(p, NP_PLAN_SYSCTL, "net.core.default_qdisc")->host_wide);
	assert_string_equal(need(p, NP_PLAN_QDISC, "eth0")->command,
			    "tc qdisc replace dev eth0 root fq");
	/* 2 x BDP = 3.75 MB is within the default 6 MiB tcp_rmem[2]: not touched. */
	assert_null(line(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_rmem"));
	/* tcp_wmem[2] 4 MiB >= 2 x BDP rounded up (4 MiB): not touched either. */
	assert_int_equal(np_size_tcp_buf_max(bdp), 4 << 20);
	assert_null(line(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_wmem"));
	/* The SO_RCVBUF ceiling follows tcp_rmem[2] (6 MiB), the SO_SNDBUF one tcp_wmem[2]. */
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.core.rmem_max")->planned, "6291456");
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.core.wmem_max")->planned, "4194304");
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_mtu_probing")->planned, "1");
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_slow_start_after_idle")->planned,
			    "0");
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_keepalive_time")->planned,
			    "600");
	/* Internet-facing: MTU stays, and says why. */
	assert_contains(need(p, NP_PLAN_NOTE, "MTUBytes")->why, "1500");
	/* Applied, each of POP-A's findings of these checks passes. */
	assert_resolved(p, "congestion.cc");
	assert_resolved(p, "congestion.pacing");
	assert_resolved(p, "congestion.mtu-probing");
	assert_resolved(p, "congestion.slow-start-after-idle");
	assert_resolved(p, "socket.rmem-max");
	assert_int_equal(p->nremaining, 0);
	txt = render(p, false);
	assert_contains(txt, "==> /etc/sysctl.d/90-netpath.conf <==");
	assert_contains(txt, "\nnet.ipv4.tcp_congestion_control = bbr\n");
	assert_contains(txt, "# Now: cubic\n");
	assert_contains(txt, "==> /etc/modules-load.d/netpath.conf <==");
	assert_contains(txt, "\ntcp_bbr\n");
	free(txt);
	free(render(p, true));
}

/* POP-B, the tuned twin: nothing of its TCP tuning is planned again; its 32 MiB ceilings are
 * kept and called what they are at 30 ms and 500 Mbit/s: insurance. */
static void test_pop_b_keeps_tuning(void **state)
{
	struct np_plan *p = plan_for(state, "pop-b", "eth0", NP_PROFILE_LONG_HAUL, 30, 500e6,
				     NULL);

	assert_lines_sound(p);
	assert_null(line(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_congestion_control"));
	assert_null(line(p, NP_PLAN_MODULE, "tcp_bbr"));
	assert_null(line(p, NP_PLAN_SYSCTL, "net.core.default_qdisc"));
	assert_null(line(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_rmem"));
	assert_null(line(p, NP_PLAN_SYSCTL, "net.core.rmem_max"));
	assert_null(line(p, NP_PLAN_SYSCTL, "net.core.wmem_max"));
	assert_null(line(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_mtu_probing"));
	assert_contains(need(p, NP_PLAN_NOTE, "net.ipv4.tcp_rmem")->why, "insurance");
}

/* The X710 server: backlog drops with netdev_max_backlog 1000 on a 10G link. The plan
 * doubles it within the 10G floor (16384), not the 250000 tuning guides copy, and says why;
 * the drops themselves are counters that moved: to confirm after applying, not "resolved".
 * Four RSS queues on 16 CPUs (8 on the NIC's NUMA node) with their IRQs pinned to CPUs 0-3:
 * one queue per NUMA-local CPU, with the irqbalance caveat. The NIC's missed packets: ring sizes are not in a tree, said so. */
static void test_x710_busy_server(void **state)
{
	struct np_plan *p = plan_for(state, "x710-server", "eth0", NP_PROFILE_BUSY_SERVER, 20,
				     NAN, NULL);
	const struct np_plan_line *l;

	assert_lines_sound(p);
	l = need(p, NP_PLAN_SYSCTL, "net.core.netdev_max_backlog");
	assert_string_equal(l->current, "1000");
	assert_string_equal(l->planned, "16384");
	assert_true(l->host_wide);
	assert_contains(l->why, "250000");
	assert_true(listed(p->remaining, p->nremaining, "softnet.backlog-drops"));
	assert_resolved(p, "softnet.max-backlog");
	/* time_squeeze during the sample (warning): both budgets doubled. */
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.core.netdev_budget")->planned, "600");
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.core.netdev_budget_usecs")->planned,
			    "4000");
	l = need(p, NP_PLAN_LINK, "CombinedChannels");
	assert_string_equal(l->current, "4");
	assert_string_equal(l->planned, "8");
	assert_contains(l->why, "8 of them on the NIC's NUMA node");
	assert_contains(l->why, "hardware maximum is not in this data");
	assert_string_equal(l->command, "/usr/sbin/ethtool -L $name combined 8");
	assert_contains(need(p, NP_PLAN_NOTE, "IRQ affinity")->why, "irqbalance");
	assert_contains(need(p, NP_PLAN_NOTE, "RxBufferSize")->why, "ethtool -g eth0");
	/* A busy server gets keepalive and the listen backlog it wants. */
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_keepalive_time")->planned,
			    "600");
}

/* The 10G LAN host that already carries the full recommended set: nothing to change, and
 * its 64 MiB ceilings are called insurance on a 1 ms LAN (2 x BDP = 3 MiB). */
static void test_lan_10g_nothing_to_change(void **state)
{
	struct np_plan *p = plan_for(state, "lan-10g", "enp1s0f0", NP_PROFILE_LAN,
				     np_profile_rtt_ms(NP_PROFILE_LAN), NAN, NULL);
	const struct np_plan_line *l;
	char *txt;

	assert_int_equal(np_plan_count(p, NP_PLAN_SYSCTL), 0);
	assert_int_equal(np_plan_count(p, NP_PLAN_LINK), 0);
	assert_int_equal(np_plan_count(p, NP_PLAN_MODULE), 0);
	assert_int_equal(np_plan_count(p, NP_PLAN_QDISC), 0);
	l = need(p, NP_PLAN_NOTE, "net.ipv4.tcp_rmem");
	assert_contains(l->why, "64 MiB");
	assert_contains(l->why, "2 × BDP = 3 MiB");
	assert_contains(l->why, "insurance");
	txt = render(p, false);
	assert_lacks(txt, "==> /etc/sysctl.d");
	assert_contains(txt, "nothing to change");
	free(txt);
}

/* The ARM board on a LAN: jumbo frames through the .link file (matched by PCI path, naming
 * policies kept) and the udev alternative; the backlog for 10G; the SO_RCVBUF ceiling up to
 * tcp_rmem[2]. The same board on a long-haul profile keeps MTU 1500. */
static void test_arm_board_lan(void **state)
{
	struct np_plan *p = plan_for(state, "arm-board", "enp1s0", NP_PROFILE_LAN,
				     np_profile_rtt_ms(NP_PROFILE_LAN), NAN, NULL);
	const struct np_plan_line *l;
	char *txt;

	assert_lines_sound(p);
	l = need(p, NP_PLAN_LINK, "MTUBytes");
	assert_string_equal(l->current, "1500");
	assert_string_equal(l->planned, "9000");
	assert_contains(l->moot, "every hop");
	assert_resolved(p, "link.mtu-jumbo");
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.core.netdev_max_backlog")->planned,
			    "16384");
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.core.rmem_max")->planned, "6291456");
	assert_resolved(p, "socket.rmem-max");
	assert_null(line(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_congestion_control"));
	txt = render(p, false);
	assert_contains(txt, "==> /etc/systemd/network/10-netpath-enp1s0.link <==");
	assert_contains(txt, "[Match]\nPath=pci-0000:01:00.0\n");
	assert_contains(txt, "NamePolicy=keep kernel database onboard slot path\n");
	assert_contains(txt, "\nMTUBytes=9000\n");
	assert_contains(txt, "ACTION==\"add\", SUBSYSTEM==\"net\", KERNELS==\"0000:01:00.0\", "
			"RUN+=\"/usr/sbin/ip link set dev $name mtu 9000\"\n");
	assert_contains(txt, "ip link set dev enp1s0 mtu 9000\n");	/* apply-now */
	free(txt);
}

static void test_arm_board_long_haul_keeps_mtu(void **state)
{
	struct np_plan *p = plan_for(state, "arm-board", "enp1s0", NP_PROFILE_LONG_HAUL, 40,
				     NAN, NULL);

	assert_null(line(p, NP_PLAN_LINK, "MTUBytes"));
	need(p, NP_PLAN_NOTE, "MTUBytes");
	/* 10 Gbit/s x 40 ms: 2 x BDP = 100 MB, rounded up to 96 MiB. */
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_rmem")->planned,
			    "4096 131072 100663296");
	assert_resolved(p, "socket.tcp-rmem-bdp");
	assert_resolved(p, "socket.tcp-wmem-bdp");
}

/* What the kernel ships decides the congestion control lines: built in (no module line),
 * a module (modules-load.d), absent (cubic kept, said plainly, fq still planned). */
static void test_bbr_by_kernel(void **state)
{
	struct np_kmods km = { .release = "6.8.0-45-generic", .tcp_bbr = NP_KMOD_ABSENT,
			       .sch_fq = NP_KMOD_BUILTIN, .from = "modules.builtin" };
	struct np_plan *p = plan_for(state, "pop-a", "eth0", NP_PROFILE_LONG_HAUL, 30, 500e6, &km);

	assert_null(line(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_congestion_control"));
	assert_null(line(p, NP_PLAN_MODULE, "tcp_bbr"));
	assert_null(line(p, NP_PLAN_MODULE, "sch_fq"));
	assert_contains(need(p, NP_PLAN_NOTE, "net.ipv4.tcp_congestion_control")->why,
			"has no tcp_bbr");
	need(p, NP_PLAN_SYSCTL, "net.core.default_qdisc");
	teardown(state);

	km.tcp_bbr = NP_KMOD_MODULE;
	p = plan_for(state, "pop-a", "eth0", NP_PROFILE_LONG_HAUL, 30, 500e6, &km);
	assert_contains(need(p, NP_PLAN_MODULE, "tcp_bbr")->why, "is a module of this kernel");
	need(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_congestion_control");
	teardown(state);

	km.tcp_bbr = NP_KMOD_BUILTIN;
	p = plan_for(state, "pop-a", "eth0", NP_PROFILE_LONG_HAUL, 30, 500e6, &km);
	assert_null(line(p, NP_PLAN_MODULE, "tcp_bbr"));
	assert_string_equal(need(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_congestion_control")->planned,
			    "bbr");
	assert_resolved(p, "congestion.cc");
}

/* tcp_mem typed in bytes (12 GiB "pages" on a 64 GiB host): planned back to the kernel's
 * own default for this RAM, in pages (RAM / 4096 / 16 at pressure). */
static void test_tcp_mem_pages_from_ram(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct np_sysctl *e;
	double lim;
	char want[96];

	assert_non_null(fx);
	*state = fx;
	fx->g = golden_run_path((void **)&fx->g, "x710-server", "eth0", 20, NAN);
	e = (struct np_sysctl *)np_sysctl_find(&fx->g->cur, "net.ipv4.tcp_mem");
	assert_non_null(e);
	assert_int_equal(np_parse_sysctl_value("12884901888 12884901888 12884901888", e), 0);
	np_report_free(&fx->g->rep);
	memset(&fx->g->rep, 0, sizeof(fx->g->rep));
	assert_int_equal(np_analyze(&fx->g->a, &fx->g->rep, NULL, NULL), 0);
	finding(fx->g, "socket.tcp-mem");
	assert_int_equal(np_plan_build(&fx->g->a, &fx->g->rep, NP_PROFILE_BUSY_SERVER, NULL,
				       &fx->p), 0);
	fx->built = true;
	lim = 65794548.0 * 1024 / 4096 / 16;
	snprintf(want, sizeof(want), "%lld %lld %lld", (long long)(lim / 4 * 3), (long long)lim,
		 (long long)(lim / 4 * 3) * 2);
	assert_string_equal(need(&fx->p, NP_PLAN_SYSCTL, "net.ipv4.tcp_mem")->planned, want);
	assert_contains(need(&fx->p, NP_PLAN_SYSCTL, "net.ipv4.tcp_mem")->why, "pages");
	assert_int_equal(np_plan_verify(&fx->p, &fx->g->a, &fx->g->rep, &fx->g->cur), 0);
	assert_resolved(&fx->p, "socket.tcp-mem");
}

/* pop-a already on bbr, as if rtnetlink had been read (live): the attached root qdisc decides
 * the tc line. */
static struct np_plan *plan_with_qdiscs(void **state, const struct np_qdisc *q, size_t n)
{
	struct np_sysctl *cc;
	struct np_kmods km = { .tcp_bbr = NP_KMOD_BUILTIN, .sch_fq = NP_KMOD_BUILTIN };
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	*state = fx;
	fx->g = golden_run_path((void **)&fx->g, "pop-a", "eth0", 30, 500e6);
	fx->g->cur.rtnl.qdiscs = calloc(n, sizeof(*q));
	assert_non_null(fx->g->cur.rtnl.qdiscs);
	memcpy(fx->g->cur.rtnl.qdiscs, q, n * sizeof(*q));
	fx->g->cur.rtnl.nqdisc = n;
	np_src_set(&fx->g->cur, NP_SRC_RTNL_QDISC, 0, NULL);
	cc = (struct np_sysctl *)np_sysctl_find(&fx->g->cur, "net.ipv4.tcp_congestion_control");
	assert_non_null(cc);
	assert_int_equal(np_parse_sysctl_value("bbr", cc), 0);
	np_report_free(&fx->g->rep);
	memset(&fx->g->rep, 0, sizeof(fx->g->rep));
	assert_int_equal(np_analyze(&fx->g->a, &fx->g->rep, NULL, NULL), 0);
	assert_int_equal(np_plan_build(&fx->g->a, &fx->g->rep, NP_PROFILE_LONG_HAUL, &km, &fx->p),
			 0);
	fx->built = true;
	assert_int_equal(np_plan_verify(&fx->p, &fx->g->a, &fx->g->rep, &fx->g->cur), 0);
	return &fx->p;
}

/* mq with pfifo_fast on each queue: replaced by fq now (the tree goes with its root), and
 * default_qdisc persists it; bbr without fq is resolved once applied. */
static void test_qdisc_mq_replaced(void **state)
{
	const struct np_qdisc q[] = {
		{ .kind = "mq", .handle = 0x10000, .parent = 0xffffffff, .root = true },
		{ .kind = "pfifo_fast", .parent = 0x10001 },
		{ .kind = "pfifo_fast", .parent = 0x10002 },
	};
	struct np_plan *p = plan_with_qdiscs(state, q, 3);
	const struct np_plan_line *l = need(p, NP_PLAN_QDISC, "eth0");

	assert_null(line(p, NP_PLAN_SYSCTL, "net.ipv4.tcp_congestion_control"));

	assert_string_equal(l->current, "mq");
	assert_string_equal(l->command, "tc qdisc replace dev eth0 root fq");
	need(p, NP_PLAN_SYSCTL, "net.core.default_qdisc");
	assert_resolved(p, "congestion.bbr-without-fq");
}

/* A shaper someone configured (tbf) is never replaced: a note says how to pace beneath it.
 * fq on every leaf of mq already paces: no tc line at all. */
static void test_qdisc_shaper_kept(void **state)
{
	const struct np_qdisc tbf[] = {
		{ .kind = "tbf", .handle = 0x10000, .parent = 0xffffffff, .root = true },
	};
	const struct np_qdisc fq[] = {
		{ .kind = "mq", .handle = 0x10000, .parent = 0xffffffff, .root = true },
		{ .kind = "fq", .parent = 0x10001 },
		{ .kind = "fq", .parent = 0x10002 },
	};
	struct np_plan *p = plan_with_qdiscs(state, tbf, 1);

	assert_null(line(p, NP_PLAN_QDISC, "eth0"));
	assert_contains(need(p, NP_PLAN_NOTE, "root qdisc")->why, "tbf");
	teardown(state);
	p = plan_with_qdiscs(state, fq, 3);
	assert_null(line(p, NP_PLAN_QDISC, "eth0"));
	assert_null(line(p, NP_PLAN_NOTE, "root qdisc"));
}

/* The sysctl file's keys are the ones the checks read: each "key = value" line names a key
 * the collector read from the tree, listed by a check it answers (its related settings or
 * what it looks at), and its value is the line's planned one. */
static void test_sysctl_file_keys_are_checked(void **state)
{
	struct np_plan *p = plan_for(state, "x710-server", "eth0", NP_PROFILE_LONG_HAUL, 40,
				     NAN, NULL);
	struct fixture *fx = *state;
	char *buf = NULL, *save = NULL;
	size_t len = 0, nkeys = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	np_render_plan_file(f, p, NP_PLAN_FILE_SYSCTL, 0);
	assert_int_equal(fclose(f), 0);
	for (char *ln = strtok_r(buf, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
		char key[96], val[128];
		const struct np_plan_line *l;
		bool read_by_check = false;

		if (ln[0] == '#' || sscanf(ln, "%95s = %127[^\n]", key, val) != 2)
			continue;
		nkeys++;
		assert_non_null(np_sysctl_find(&fx->g->prev, key));
		l = need(p, NP_PLAN_SYSCTL, key);
		assert_string_equal(val, l->planned);
		for (size_t j = 0; j < NP_PLAN_CHECKS && l->checks[j]; j++) {
			const struct np_check *c = np_check_find(l->checks[j]);
			const char *leaf = strrchr(key, '.') + 1;

			read_by_check |= (c->related && strstr(c->related, leaf)) ||
					 (c->looks_at && strstr(c->looks_at, leaf));
		}
		if (!read_by_check)
			fail_msg("%s: none of the checks it answers reads it", key);
	}
	assert_int_equal(nkeys, np_plan_count(p, NP_PLAN_SYSCTL));
	assert_true(nkeys >= 8);
	free(buf);
}

/* A real capture (tests/fixtures/real: /proc/interrupts and a device link published by
 * others, no sysctls, no link speed): the plan invents nothing it did not read, and says
 * why the buffers are not sized. */
static void test_real_capture_plans_nothing_unread(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	*state = fx;
	fx->g = golden_run_single((void **)&fx->g, "real/mlx5-12cpu-pinned", "enp1s0f0np0");
	np_plan_path(&fx->g->a, NP_PROFILE_BUSY_SERVER, &(bool){ false });
	assert_int_equal(np_plan_build(&fx->g->a, &fx->g->rep, NP_PROFILE_BUSY_SERVER, NULL,
				       &fx->p), 0);
	fx->built = true;
	assert_int_equal(np_plan_count(&fx->p, NP_PLAN_SYSCTL), 0);
	assert_int_equal(np_plan_count(&fx->p, NP_PLAN_MODULE), 0);
	assert_int_equal(np_plan_count(&fx->p, NP_PLAN_QDISC), 0);
	for (size_t i = 0; i < fx->p.n; i++)
		if (fx->p.l[i].kind == NP_PLAN_LINK)
			fail_msg("%s planned without its current value", fx->p.l[i].key);
	assert_contains(need(&fx->p, NP_PLAN_NOTE, "socket buffers")->why, "no bandwidth");
	free(render(&fx->p, true));
}

/* --all: one more device's NIC settings into the plan (here the ARM board's NIC beside the
 * 10G LAN host, two trees standing for two devices): its own .link file and udev rule, the
 * primary's sysctls untouched, its findings verified on its own snapshot. */
static void test_all_adds_device(void **state)
{
	struct np_plan *p = plan_for(state, "lan-10g", "enp1s0f0", NP_PROFILE_LAN,
				     np_profile_rtt_ms(NP_PROFILE_LAN), NAN, NULL);
	struct golden *g2 = NULL;
	size_t nsys = np_plan_count(p, NP_PLAN_SYSCTL);
	char path[96], *txt;

	g2 = golden_run_path((void **)&g2, "arm-board", "enp1s0", np_profile_rtt_ms(NP_PROFILE_LAN),
			     NAN);
	assert_int_equal(np_plan_add_device(p, &g2->a, &g2->rep), 0);
	assert_int_equal(np_plan_verify(p, &g2->a, &g2->rep, &g2->cur), 0);
	assert_int_equal(p->ndev, 2);
	assert_int_equal(np_plan_count(p, NP_PLAN_SYSCTL), nsys);
	assert_string_equal(need(p, NP_PLAN_LINK, "MTUBytes")->dev, "enp1s0");
	assert_resolved(p, "link.mtu-jumbo");
	assert_null(np_plan_file_path(p, NP_PLAN_FILE_LINK, 0, path, sizeof(path)));
	assert_string_equal(np_plan_file_path(p, NP_PLAN_FILE_LINK, 1, path, sizeof(path)),
			    "etc/systemd/network/10-netpath-enp1s0.link");
	txt = render(p, false);
	assert_contains(txt, "Plan for enp1s0f0 (and enp1s0), profile lan:");
	assert_contains(txt, "link    enp1s0 MTUBytes: 1500 -> 9000");
	free(txt);
	txt = render(p, true);
	assert_contains(txt, "\"devices\": [");
	free(txt);
	golden_teardown((void **)&g2);
}

/* The plan as JSON: the schema's outline, each line with its checks. */
static void test_json_outline(void **state)
{
	struct np_plan *p = plan_for(state, "pop-a", "eth0", NP_PROFILE_LONG_HAUL, 30, 500e6,
				     NULL);
	char *js = render(p, true);

	assert_contains(js, "\"schema\": \"netpath/plan\"");
	assert_contains(js, "\"profile\": \"long-haul\"");
	assert_contains(js, "\"rtt_ms\": 30");
	assert_contains(js, "\"tcp_bbr\": \"unknown\"");
	assert_contains(js, "\"key\": \"net.ipv4.tcp_congestion_control\"");
	assert_contains(js, "\"etc/sysctl.d/90-netpath.conf\"");
	assert_contains(js, "\"resolved\": [");
	free(js);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pop_a_long_haul, teardown),
		cmocka_unit_test_teardown(test_pop_b_keeps_tuning, teardown),
		cmocka_unit_test_teardown(test_x710_busy_server, teardown),
		cmocka_unit_test_teardown(test_lan_10g_nothing_to_change, teardown),
		cmocka_unit_test_teardown(test_arm_board_lan, teardown),
		cmocka_unit_test_teardown(test_arm_board_long_haul_keeps_mtu, teardown),
		cmocka_unit_test_teardown(test_bbr_by_kernel, teardown),
		cmocka_unit_test_teardown(test_tcp_mem_pages_from_ram, teardown),
		cmocka_unit_test_teardown(test_qdisc_mq_replaced, teardown),
		cmocka_unit_test_teardown(test_qdisc_shaper_kept, teardown),
		cmocka_unit_test_teardown(test_sysctl_file_keys_are_checked, teardown),
		cmocka_unit_test_teardown(test_real_capture_plans_nothing_unread, teardown),
		cmocka_unit_test_teardown(test_all_adds_device, teardown),
		cmocka_unit_test_teardown(test_json_outline, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
