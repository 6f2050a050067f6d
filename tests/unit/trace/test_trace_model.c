// SPDX-License-Identifier: GPL-2.0-only
/*
 * From synthetic BPF counts to rows (names, stages, rates, severities, benign rows hidden,
 * locations merged per function) and their text and JSON renderings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "trace_model.h"
#include "trace_render.h"

static struct np_reason_name reason_tab[] = {
	{ 1, "CONSUMED" }, { 2, "NOT_SPECIFIED" }, { 6, "SOCKET_RCVBUFF" },
	{ 12, "NETFILTER_DROP" }, { 70, "CPU_BACKLOG" },
};
static const struct np_reason_names names = { .n = 5, .e = reason_tab };

static struct np_ksym ksym_tab[] = {
	{ 0xffffffff81e5e970ull, (char *)"enqueue_to_backlog" },
	{ 0xffffffff81ff5e10ull, (char *)"ip_rcv_core" },
	{ 0xffffffff820339c0ull, (char *)"tcp_v4_rcv" },
	{ 0xffffffff82034db0ull, (char *)"__pfx_tcp4_proc_exit" },
};
static const struct np_ksyms ksyms = { .n = 4, .s = ksym_tab };

static uint64_t pc[5][2] = { { 1000, 500 }, { 3, 0 }, { 4, 4 }, { 0, 20 }, { 7, 0 } };

static void raw_reasons(struct np_trace_raw *raw, struct np_trace_raw_drop *d)
{
	memset(raw, 0, sizeof(*raw));
	raw->ncpu = 2;
	raw->has_reason = true;
	raw->attach = "tp_btf";
	d[0] = (struct np_trace_raw_drop){ 6, 0, 1500, pc[0] };
	d[1] = (struct np_trace_raw_drop){ 70, 0, 3, pc[1] };
	/* NOT_SPECIFIED keyed by location, inside tcp_v4_rcv. */
	d[2] = (struct np_trace_raw_drop){ 2, 0xffffffff820339c0ull + 5, 8, pc[2] };
	d[3] = (struct np_trace_raw_drop){ 12, 0, 20, pc[3] };
	d[4] = (struct np_trace_raw_drop){ 99, 0, 7, pc[4] };	/* unknown to this enum */
	raw->drops = d;
	raw->ndrops = 5;
}

static void test_reasons(void **state)
{
	struct np_trace_raw_drop d[5];
	struct np_trace_raw raw;
	struct np_trace_summary s;

	(void)state;
	raw_reasons(&raw, d);
	assert_int_equal(np_trace_summarize(&raw, &names, &ksyms, 10.0, false, &s), 0);
	/* NOT_SPECIFIED is benign: hidden, but counted. */
	assert_int_equal(s.nhidden, 1);
	assert_int_equal(s.hidden_benign, 8);
	assert_int_equal(s.n, 4);
	/* Along the path: softnet, ingress, ip (the unknown reason's default), socket. */
	assert_string_equal(s.rows[0].name, "CPU_BACKLOG");
	assert_int_equal(s.rows[0].stage, NP_STAGE_SOFTNET);
	assert_int_equal(s.rows[0].severity, NP_SEV_INFO);	/* 0.3/s */
	assert_string_equal(s.rows[1].name, "NETFILTER_DROP");
	assert_int_equal(s.rows[1].severity, NP_SEV_WARNING);	/* 2/s */
	assert_int_equal(s.rows[1].per_cpu[1], 20);
	assert_string_equal(s.rows[2].name, "reason-99");
	assert_string_equal(s.rows[3].name, "SOCKET_RCVBUFF");
	assert_int_equal(s.rows[3].stage, NP_STAGE_SOCKET);
	assert_int_equal(s.rows[3].count, 1500);
	assert_true(s.rows[3].per_second > 149.9 && s.rows[3].per_second < 150.1);
	assert_int_equal(s.rows[3].severity, NP_SEV_CRITICAL);
	assert_int_equal(s.rows[3].per_cpu[0], 1000);
	assert_int_equal(np_trace_worst(&s), NP_SEV_CRITICAL);
	np_trace_summary_free(&s);

	/* --all: the NOT_SPECIFIED row appears with its function and that function's stage. */
	assert_int_equal(np_trace_summarize(&raw, &names, &ksyms, 10.0, true, &s), 0);
	assert_int_equal(s.nhidden, 0);
	assert_int_equal(s.n, 5);
	for (size_t i = 0; i < s.n; i++) {
		if (strcmp(s.rows[i].name, "NOT_SPECIFIED") != 0)
			continue;
		assert_string_equal(s.rows[i].location, "tcp_v4_rcv");
		assert_int_equal(s.rows[i].stage, NP_STAGE_TRANSPORT);
		assert_true(s.rows[i].benign);
		assert_int_equal(s.rows[i].severity, NP_SEV_OK);
	}
	np_trace_summary_free(&s);
}

static void test_locations(void **state)
{
	static uint64_t p[3][1] = { { 5 }, { 2 }, { 3 } };
	struct np_trace_raw_drop d[3] = {
		{ 0, 0xffffffff81e5e970ull + 0x40, 5, p[0] },
		{ 0, 0xffffffff81ff5e10ull + 0x10, 2, p[1] },
		{ 0, 0xffffffff81ff5e10ull + 0x20, 3, p[2] },
	};
	struct np_trace_raw raw = { .ncpu = 1, .ndrops = 3, .drops = d, .by_location = true };
	struct np_trace_summary s;

	(void)state;
	/* A kernel without reasons: one row per freeing function, offsets merged. */
	assert_int_equal(np_trace_summarize(&raw, NULL, &ksyms, 1.0, false, &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.rows[0].name, "enqueue_to_backlog");
	assert_int_equal(s.rows[0].stage, NP_STAGE_SOFTNET);
	assert_string_equal(s.rows[1].name, "ip_rcv_core");
	assert_int_equal(s.rows[1].stage, NP_STAGE_IP);
	assert_int_equal(s.rows[1].count, 5);
	np_trace_summary_free(&s);
	/* Without kallsyms (kptr_restrict): hex addresses, still counted. */
	assert_int_equal(np_trace_summarize(&raw, NULL, NULL, 1.0, false, &s), 0);
	assert_int_equal(s.n, 3);
	assert_non_null(strstr(s.rows[0].name, "0xffffffff8"));
	np_trace_summary_free(&s);
}

static char *render(const struct np_trace_view *v, bool json)
{
	/* static: GCC 12 takes the stream's pointer to a local buffer for a dangling one. */
	static char *buf;
	static size_t len;
	FILE *f;

	buf = NULL;
	len = 0;
	f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json)
		np_render_trace_json(f, v);
	else
		np_render_trace_text(f, v, 0);
	fclose(f);
	return buf;
}

static void test_render(void **state)
{
	struct np_trace_raw_drop d[5];
	struct np_trace_raw_arrival arr[2] = { { 0, 1, 1490, 1500 }, { -1, 0, 3, 0 } };
	struct np_trace_raw raw;
	struct np_trace_summary s;
	struct np_funnel fn = { 0 };
	struct np_trace_view v = { .ifname = "vb", .netns_inum = 4026532386u,
				   .attach = "tp_btf", .has_reason = true,
				   .gro_attached = true, .exit_code = 2 };
	char *out, *a, *b;

	(void)state;
	raw_reasons(&raw, d);
	raw.arrivals = arr;
	raw.narrivals = 2;
	assert_int_equal(np_trace_summarize(&raw, &names, &ksyms, 10.0, false, &s), 0);
	fn.n = 1;
	fn.rows[0].stage = NP_STAGE_SOCKET;
	fn.rows[0].scope = NP_SCOPE_NETNS;
	fn.rows[0].in_what = "TcpInSegs + UdpInDatagrams";
	fn.rows[0].drop_what = "UdpRcvbufErrors";
	fn.rows[0].in = (struct np_counter_view){ true, 100, 0, 0, true };
	fn.rows[0].drop = (struct np_counter_view){ true, 99999, 1500, 150, true };
	v.sum = &s;
	v.raw = &raw;
	v.funnel = &fn;

	out = render(&v, true);
	assert_non_null(strstr(out, "\"schema\": \"netpath/trace\""));
	assert_non_null(strstr(out, "\"interface\": \"vb\""));
	assert_non_null(strstr(out, "\"inode\": 4026532386"));
	assert_non_null(strstr(out, "\"status\": \"critical\""));
	assert_non_null(strstr(out, "\"hidden_benign\": 8"));
	assert_non_null(strstr(out, "\"lost_events\": 0"));
	assert_non_null(strstr(out, "\"queue\": null"));
	assert_non_null(strstr(out, "\"gro_packets\": 1500"));
	assert_non_null(strstr(out, "\"counts\": \"UdpRcvbufErrors\""));
	a = strstr(out, "\"reason\": \"CPU_BACKLOG\"");
	b = strstr(out, "\"reason\": \"SOCKET_RCVBUFF\"");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b);	/* along the path */
	assert_non_null(strstr(b, "\"stage\": \"socket\""));
	assert_non_null(strstr(b, "\"count\": 1500"));
	assert_non_null(strstr(b, "\"per_second\": 150"));
	assert_null(strstr(out, "NOT_SPECIFIED"));
	assert_null(strstr(out, "\"findings\": [\n    {"));	/* none without a report */
	free(out);

	out = render(&v, false);
	assert_non_null(strstr(out, "Top: critical SOCKET_RCVBUFF, 1,500 drops (150/s) in stage "
				    "socket"));
	a = strstr(out, "\nsocket ");
	assert_non_null(a);
	assert_non_null(strstr(a, "SOCKET_RCVBUFF"));
	assert_non_null(strstr(out, "8 benign frees in 1 rows hidden"));
	assert_non_null(strstr(out, "queue 0    cpu 1"));
	free(out);
	np_trace_summary_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_locations),
		cmocka_unit_test(test_render),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
