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
#include "../fits_width.h"

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

static char *render_at(const struct np_trace_view *v, bool json, int width)
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
		np_render_trace_text(f, v, 0, width);
	fclose(f);
	return buf;
}

/* The text as the assertions below were written, with no width limit; and at 60 and 80
 * columns, where it must fit. */
static char *render(const struct np_trace_view *v, bool json)
{
	for (int w = 60; !json && w <= 80; w += 20) {
		char *narrow = render_at(v, false, w);

		np_assert_fits(narrow, w);
		free(narrow);
	}
	return render_at(v, json, 0);
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
	raw.arrivals_bpf = true;	/* --arrivals */
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
	assert_non_null(strstr(out, "\"packets\": 1493,\n    \"from\": \"netif_receive_skb\""));
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

/* Without --arrivals: rx_packets' growth, no rows (unread: attribution.json's nulls). */
static void test_arrivals_counter(void **state)
{
	struct np_trace_raw_drop d[5];
	struct np_trace_raw raw;
	struct np_trace_summary s;
	struct np_trace_view v = { .ifname = "vb", .attach = "tp_btf", .has_reason = true,
				   .sum = &s, .raw = &raw };
	char *out;

	(void)state;
	raw_reasons(&raw, d);
	raw.rx_packets = 123456;
	raw.rx_counted = true;
	assert_int_equal(np_trace_summarize(&raw, &names, &ksyms, 10.0, false, &s), 0);
	assert_int_equal(s.arrivals, 123456);
	out = render(&v, true);
	assert_non_null(strstr(out, "\"packets\": 123456,\n    \"from\": \"rx_packets\""));
	assert_non_null(strstr(out, "\"arrivals\": []"));
	free(out);
	out = render(&v, false);
	assert_non_null(strstr(out, "Arrivals on vb (its rx_packets counter): 123,456 packets"));
	free(out);
	np_trace_summary_free(&s);
}

/* ---- attribution, locations, the shared severity rule, one accounting per stage ---- */

static struct np_flow_key fkey(uint32_t reason, uint8_t last_src, uint16_t dport)
{
	struct np_flow_key k = { .reason = reason, .family = NP_FLOW_IPV4, .proto = 17,
				 .sport = 40000, .dport = dport };

	k.src[0] = 198, k.src[1] = 18, k.src[3] = last_src;
	k.dst[0] = 198, k.dst[1] = 18, k.dst[3] = 2;
	return k;
}

/* SOCKET_RCVBUFF from 4 flows (one of them only in the kernel's "other" bucket) and
 * NETFILTER_DROP from one; keys of a reason no row has are ignored. */
static void raw_flows(struct np_trace_raw *raw, struct np_trace_raw_flow *fl,
		      struct np_trace_raw_other *ot)
{
	fl[0] = (struct np_trace_raw_flow){ fkey(6, 3, 9002), 900 };
	fl[1] = (struct np_trace_raw_flow){ fkey(6, 4, 9002), 300 };
	fl[2] = (struct np_trace_raw_flow){ fkey(12, 1, 9001), 20 };
	fl[3] = (struct np_trace_raw_flow){ fkey(6, 5, 9002), 200 };
	fl[4] = (struct np_trace_raw_flow){ fkey(77, 9, 1), 5 };
	ot[0] = (struct np_trace_raw_other){ 6, 100 };
	raw->flows = fl;
	raw->nflows = 5;
	raw->other = ot;
	raw->nother = 1;
	raw->flows_on = true;
	raw->flow_cap = 4096;
	raw->by = NP_BY_FLOW;
}

static const struct np_trace_row *row_named(const struct np_trace_summary *s, const char *n)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->rows[i].name, n) == 0)
			return &s->rows[i];
	fail_msg("no row %s", n);
	return NULL;
}

static void test_attribute(void **state)
{
	struct np_trace_raw_drop d[5];
	struct np_trace_raw_flow fl[5];
	struct np_trace_raw_other ot[1];
	struct np_trace_raw raw;
	struct np_trace_summary s;
	const struct np_trace_row *r;

	(void)state;
	raw_reasons(&raw, d);
	raw_flows(&raw, fl, ot);
	assert_int_equal(np_trace_summarize(&raw, &names, &ksyms, 10.0, false, &s), 0);
	assert_int_equal(np_trace_attribute(&s, &raw, 2), 0);
	assert_true(s.flows_on);
	assert_int_equal(s.flow_keys, 5);
	assert_int_equal(s.flows_full, 100);
	/* Top 2 by count; the third flow and the kernel's "other" bucket are merged. */
	r = row_named(&s, "SOCKET_RCVBUFF");
	assert_int_equal(r->nflows, 2);
	assert_int_equal(r->flows[0].count, 900);
	assert_int_equal(r->flows[0].key.src[3], 3);
	assert_int_equal(r->flows[1].count, 300);
	assert_int_equal(r->flows_other, 200 + 100);
	assert_int_equal(r->flows_full, 100);
	assert_int_equal(r->flows[0].count + r->flows[1].count + r->flows_other, r->count);
	r = row_named(&s, "NETFILTER_DROP");
	assert_int_equal(r->nflows, 1);
	assert_int_equal(r->flows[0].key.src[3], 1);
	assert_int_equal(r->flows_other, 0);
	/* A reason with no flows keeps none. */
	assert_int_equal(row_named(&s, "CPU_BACKLOG")->nflows, 0);
	np_trace_summary_free(&s);

	/* --top 0 kept nothing in the kernel: attribution off, rows without flows. */
	raw.flows_on = false;
	assert_int_equal(np_trace_summarize(&raw, &names, &ksyms, 10.0, false, &s), 0);
	assert_int_equal(np_trace_attribute(&s, &raw, 5), 0);
	assert_false(s.flows_on);
	assert_int_equal(row_named(&s, "SOCKET_RCVBUFF")->nflows, 0);
	np_trace_summary_free(&s);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Every reason says where it was freed: function+offset from a kallsyms fixture, the busiest
 * address first, at most NP_TRACE_MAX_LOCS of them and the rest summed. */
static void test_reason_locations(void **state)
{
	static uint64_t p[5][1] = { { 10 }, { 30 }, { 1 }, { 2 }, { 3 } };
	struct np_trace_raw_drop d[5] = {
		{ 6, 0xffffffff820454f0ull + 0x1a, 10, p[0] },	/* udp_queue_rcv_one_skb */
		{ 6, 0xffffffff820454f0ull + 0x40, 30, p[1] },
		{ 6, 0xffffffff81e5e970ull + 0x8, 1, p[2] },	/* enqueue_to_backlog */
		{ 6, 0xffffffff81e5e970ull + 0x9, 2, p[3] },
		{ 6, 0xffffffff81e5e970ull + 0xa, 3, p[4] },
	};
	struct np_trace_raw raw = { .ncpu = 1, .ndrops = 5, .drops = d, .has_reason = true };
	struct np_trace_summary s;
	struct np_ksyms k;
	char *text = slurp(NP_FIXTURES "/kallsyms/kallsyms");

	(void)state;
	assert_non_null(text);
	assert_int_equal(np_ksyms_parse(text, strlen(text), &k), 0);
	free(text);
	assert_int_equal(np_trace_summarize(&raw, &names, &k, 1.0, false, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rows[0].count, 46);
	assert_int_equal(s.rows[0].nlocs, 3);
	assert_string_equal(s.rows[0].locs[0].text, "udp_queue_rcv_one_skb+0x40");
	assert_int_equal(s.rows[0].locs[0].count, 30);
	assert_string_equal(s.rows[0].locs[1].text, "udp_queue_rcv_one_skb+0x1a");
	assert_string_equal(s.rows[0].locs[2].text, "enqueue_to_backlog+0xa");
	assert_int_equal(s.rows[0].locs_other, 3);
	np_trace_summary_free(&s);
	/* kallsyms unreadable: the address in hex. */
	assert_int_equal(np_trace_summarize(&raw, &names, NULL, 1.0, false, &s), 0);
	assert_string_equal(s.rows[0].locs[0].text, "0xffffffff8204553" "0");
	np_trace_summary_free(&s);
	np_ksyms_free(&k);
}

/* One rule with doctor: a reason whose counter a check judges takes that check's thresholds;
 * NO_SOCKET (transport.udp-no-ports has none: not a loss) is info at any rate. */
static void test_shared_severity(void **state)
{
	static struct np_reason_name tab[] = { { 3, "NO_SOCKET" }, { 6, "SOCKET_RCVBUFF" } };
	static const struct np_reason_names nm = { .n = 2, .e = tab };
	static uint64_t p[2][1] = { { 837510 }, { 837510 } };
	struct np_trace_raw_drop d[2] = { { 3, 0, 837510, p[0] }, { 6, 0, 837510, p[1] } };
	struct np_trace_raw raw = { .ncpu = 1, .ndrops = 2, .drops = d, .has_reason = true };
	struct np_trace_summary s;

	(void)state;
	assert_int_equal(np_trace_summarize(&raw, &nm, NULL, 10.0, false, &s), 0);
	assert_string_equal(row_named(&s, "NO_SOCKET")->check, "transport.udp-no-ports");
	assert_int_equal(row_named(&s, "NO_SOCKET")->severity, NP_SEV_INFO);
	assert_string_equal(row_named(&s, "SOCKET_RCVBUFF")->check, "socket.udp-rcvbuf");
	assert_int_equal(row_named(&s, "SOCKET_RCVBUFF")->severity, NP_SEV_CRITICAL);
	/* One accounting: each stage's traced drops are the non-benign rows under it. */
	assert_int_equal(s.stage_drops[NP_STAGE_TRANSPORT], 837510);
	assert_int_equal(s.stage_drops[NP_STAGE_SOCKET], 837510);
	assert_int_equal(s.stage_drops[NP_STAGE_INGRESS], 0);
	np_trace_summary_free(&s);
	/* The rule itself: a check's thresholds, or trace's own without a check. */
	assert_int_equal(np_trace_severity("transport.udp-no-ports", false, 1, 1e6), NP_SEV_INFO);
	assert_int_equal(np_trace_severity("socket.udp-rcvbuf", false, 5, 0.5), NP_SEV_INFO);
	assert_int_equal(np_trace_severity("socket.udp-rcvbuf", false, 5, 2), NP_SEV_WARNING);
	assert_int_equal(np_trace_severity(NULL, false, 5, 100), NP_SEV_CRITICAL);
	assert_int_equal(np_trace_severity(NULL, true, 5, 100), NP_SEV_OK);
	assert_int_equal(np_trace_severity(NULL, false, 0, 0), NP_SEV_OK);
}

/* The netpath version in rendered JSON replaced by "fixture", so the golden file outlives
 * releases. Frees out; returns a new string. */
static char *unversion(char *out)
{
	static const char key[] = "\"netpath_version\": \"";
	char *v = strstr(out, key), *e, *res;
	size_t head;

	assert_non_null(v);
	v += strlen(key);
	e = strchr(v, '"');
	assert_non_null(e);
	head = (size_t)(v - out);
	res = malloc(head + strlen("fixture") + strlen(e) + 1);
	assert_non_null(res);
	memcpy(res, out, head);
	strcpy(res + head, "fixture");
	strcat(res, e);
	free(out);
	return res;
}

/*
 * Text: the ingress row takes the traced drops when the counters saw none ("from reasons"),
 * flows and locations under their reasons. JSON: compared with the golden document
 * tests/fixtures/trace/attribution.json, which tests/docs/schemas.sh validates against the
 * schema (NP_UPDATE_FIXTURES=1 rewrites it).
 */
static void test_render_attribution(void **state)
{
	struct np_trace_raw_drop d[5];
	struct np_trace_raw_flow fl[5];
	struct np_trace_raw_other ot[1];
	struct np_trace_raw raw;
	struct np_trace_summary s;
	struct np_trace_filter filt = { 0 };
	struct np_funnel fn = { 0 };
	struct np_trace_view v = { .ifname = "vb", .netns_inum = 4026532386u,
				   .attach = "tp_btf", .has_reason = true,
				   .gro_attached = true, .exit_code = 2 };
	const char *golden = NP_FIXTURES "/trace/attribution.json";
	char *out, *a, *want;

	(void)state;
	raw_reasons(&raw, d);
	d[3].location = 0xffffffff81ff5e10ull + 0x46f;	/* NETFILTER_DROP in ip_rcv_core */
	raw_flows(&raw, fl, ot);
	raw.filtered = 12;
	assert_int_equal(np_trace_filter_host("198.18.0.0/16", &filt), 0);
	assert_int_equal(np_trace_filter_proto("udp", &filt), 0);
	assert_int_equal(np_trace_summarize(&raw, &names, &ksyms, 10.0, false, &s), 0);
	assert_int_equal(np_trace_attribute(&s, &raw, 2), 0);
	fn.n = 1;
	fn.rows[0].stage = NP_STAGE_INGRESS;
	fn.rows[0].scope = NP_SCOPE_NETNS;
	fn.rows[0].drop_what = "conntrack drop (table full)";
	fn.rows[0].drop = (struct np_counter_view){ true, 0, 0, 0, true };
	v.sum = &s;
	v.raw = &raw;
	v.funnel = &fn;
	v.filter = &filt;
	/* The port 9001 rule behind the 20 NETFILTER_DROP drops, as iptables-nft makes it. */
	{
		static struct np_nfrule_report nf = { .n = 1, .packets = 20, .drop_rules = 2 };

		nf.hits[0] = (struct np_nfrule_hit){
			.rule = { .source = NP_NFRULE_NFT, .family = 2, .table = "filter",
				  .chain = "INPUT", .handle = 2, .position = 1,
				  .has_counter = true, .match = "meta l4proto udp udp dport 9001" },
			.packets = 20, .bytes = 580 };
		v.nfrules = &nf;
	}

	out = render(&v, false);
	if (getenv("NP_SHOW"))
		fputs(out, stderr);
	a = strstr(out, "\ningress ");
	assert_non_null(a);
	/* 20 drops in 10 s from the reasons, not the conntrack counter's 0. */
	assert_non_null(strstr(a, "netns                  -            2           20  reasons"));
	assert_non_null(strstr(a, "        at ip_rcv_core+0x46f\n"));
	assert_non_null(strstr(out, "Filter (in the kernel): host 198.18.0.0/16 proto udp; 12 drops"));
	assert_non_null(strstr(out, "Top 2 flows per reason by flow (5 of 4096 kernel keys used)"));
	a = strstr(out, "    SOCKET_RCVBUFF");
	assert_non_null(a);
	assert_non_null(strstr(a, "198.18.0.3:40000 > 198.18.0.2:9002 udp"));
	assert_non_null(strstr(a, "(other flows)"));
	assert_non_null(strstr(a, "(100 of them not keyed: the kernel's flow map was full at "
				  "4096 keys)"));
	assert_non_null(strstr(out, "198.18.0.1:40000 > 198.18.0.2:9001 udp"));
	a = strstr(out, "    NETFILTER_DROP");
	assert_non_null(a);
	assert_non_null(strstr(a, "        rule nftables ip filter INPUT rule 1 (handle 2): meta "
				  "l4proto udp udp dport 9001 drop"));
	free(out);

	out = unversion(render(&v, true));
	assert_non_null(strstr(out, "\"src\": \"198.18.0.3\""));
	assert_non_null(strstr(out, "\"top_unkeyed\": 100"));
	assert_non_null(strstr(out, "\"host\": \"198.18.0.0/16\""));
	assert_non_null(strstr(out, "\"match\": \"meta l4proto udp udp dport 9001\""));
	if (getenv("NP_UPDATE_FIXTURES")) {
		FILE *f = fopen(golden, "w");

		assert_non_null(f);
		fputs(out, f);
		fclose(f);
	}
	want = slurp(golden);
	assert_non_null(want);
	assert_string_equal(out, want);
	free(want);
	free(out);
	np_trace_summary_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_locations),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_attribute),
		cmocka_unit_test(test_reason_locations),
		cmocka_unit_test(test_shared_severity),
		cmocka_unit_test(test_arrivals_counter),
		cmocka_unit_test(test_render_attribution),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
