// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath plan's rules beyond the field reports: what the kernel ships (bbr), tcp_mem typed in
 * bytes, the attached qdisc, the sysctl file against the checks, a real capture, --all, JSON;
 * and doctor's sender-side table.
 */
#include "plan_fixture.h"
#include "sender.h"

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
	e = (struct np_sysctl *)np_sysctl_find(&fx->g->cur, NP_SYSCTL_TCP_MEM);
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
	cc = (struct np_sysctl *)np_sysctl_find(&fx->g->cur, NP_SYSCTL_TCP_CONGESTION_CONTROL);
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
		assert_non_null(np_sysctl_find_key(&fx->g->prev, key));
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

/* The sender-side table the lossy-backbone report compared between its two POPs: POP-A on
 * the kernel's defaults, POP-B tuned; the same path (30 ms, 500 Mbit/s) gives the same BDP. */
static void test_sender_table_pops(void **state)
{
	struct np_kmods km = { .tcp_bbr = NP_KMOD_MODULE };
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct np_sender a, b;
	struct golden *gb = NULL;

	/* doctor's analysis alone: no plan applied to these snapshots. */
	assert_non_null(fx);
	*state = fx;
	fx->g = golden_run_path((void **)&fx->g, "pop-a", "eth0", 30, 500e6);
	np_sender_build(&fx->g->a, NULL, &a);
	assert_string_equal(a.cc, "cubic");
	assert_string_equal(a.bbr, "not-loaded");
	assert_string_equal(a.default_qdisc, "pfifo_fast");
	assert_null(a.qdisc);			/* a tree: rtnetlink not read */
	assert_false(a.cc_live_known);
	assert_int_equal(a.rmem_max, 212992);
	assert_int_equal(a.tcp_rmem_max, 6291456);
	assert_int_equal(a.mtu_probing, 0);
	assert_near(a.bdp, 500e6 / 8 * 0.030);
	np_sender_build(&fx->g->a, &km, &a);
	assert_string_equal(a.bbr, "module");
	gb = golden_run_path((void **)&gb, "pop-b", "eth0", 30, 500e6);
	np_sender_build(&gb->a, NULL, &b);
	assert_string_equal(b.cc, "bbr");
	assert_string_equal(b.bbr, "loaded");
	assert_string_equal(b.default_qdisc, "fq");
	assert_int_equal(b.rmem_max, 33554432);
	assert_int_equal(b.wmem_max, 16777216);
	assert_int_equal(b.tcp_wmem_max, 16777216);
	assert_int_equal(b.mtu_probing, 1);
	assert_near(b.bdp, a.bdp);
	golden_teardown((void **)&gb);
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
		cmocka_unit_test_teardown(test_bbr_by_kernel, teardown),
		cmocka_unit_test_teardown(test_tcp_mem_pages_from_ram, teardown),
		cmocka_unit_test_teardown(test_qdisc_mq_replaced, teardown),
		cmocka_unit_test_teardown(test_qdisc_shaper_kept, teardown),
		cmocka_unit_test_teardown(test_sysctl_file_keys_are_checked, teardown),
		cmocka_unit_test_teardown(test_real_capture_plans_nothing_unread, teardown),
		cmocka_unit_test_teardown(test_all_adds_device, teardown),
		cmocka_unit_test_teardown(test_sender_table_pops, teardown),
		cmocka_unit_test_teardown(test_json_outline, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
