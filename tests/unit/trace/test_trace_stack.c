// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace --stack: symbolising a recorded stack with a kallsyms fixture (the tracing frames
 * above the drop left out), ranking the (reason, stack) counts, and the text and JSON output
 * (the JSON as the golden tests/fixtures/trace/stacks.json, which tests/docs/schemas.sh
 * validates; NP_UPDATE_FIXTURES=1 rewrites it).
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
#include "trace_stack.h"
#include "../fits_width.h"

static struct np_ksyms ks;

static char *slurp(const char *path, size_t *len)
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
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static int setup(void **state)
{
	size_t len;
	char *text = slurp(NP_FIXTURES "/kallsyms/stack", &len);

	(void)state;
	if (!text || np_ksyms_parse(text, len, &ks))
		return -1;
	free(text);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	np_ksyms_free(&ks);
	return 0;
}

/* A NO_SOCKET drop as --stack recorded it (tp_btf on 6.18): the program, the tracepoint's
 * dispatch, then the kernel's own frames, and one address kallsyms does not know. */
static const uint64_t no_socket_ips[] = {
	0xffffffffc0030000ull + 0x4a,	/* bpf_prog_..._np_drop_btf [bpf] */
	0xffffffff814ca300ull + 0x52,	/* bpf_trace_run3 */
	0xffffffff81f13f20ull + 0x9,	/* __bpf_trace_kfree_skb */
	0xffffffff81f0dcd0ull + 0x3c,	/* __traceiter_kfree_skb */
	0xffffffff81e94f20ull + 0x90,	/* sk_skb_reason_drop */
	0xffffffff820a7a70ull + 0x4bc,	/* __udp4_lib_rcv */
	0xffffffff82055390ull + 0xb3,	/* ip_protocol_deliver_rcu */
	0xffffffff82055520ull + 0x81,	/* ip_local_deliver_finish */
	0x1000,				/* below every symbol */
};

static void test_symbolize(void **state)
{
	char frames[NP_BPF_STACK_DEPTH][NP_TRACE_FRAME_LEN];
	size_t n;

	(void)state;
	n = np_trace_stack_symbolize(no_socket_ips, 9, &ks, frames);
	assert_int_equal(n, 5);
	assert_string_equal(frames[0], "sk_skb_reason_drop+0x90");
	assert_string_equal(frames[1], "__udp4_lib_rcv+0x4bc");
	assert_string_equal(frames[2], "ip_protocol_deliver_rcu+0xb3");
	assert_string_equal(frames[3], "ip_local_deliver_finish+0x81");
	assert_string_equal(frames[4], "0x1000");
	/* Only tracing frames: shown rather than nothing. */
	n = np_trace_stack_symbolize(no_socket_ips, 4, &ks, frames);
	assert_int_equal(n, 4);
	assert_string_equal(frames[1], "bpf_trace_run3+0x52");
	/* Without kallsyms (kptr_restrict): every frame, in hex. */
	n = np_trace_stack_symbolize(no_socket_ips, 9, NULL, frames);
	assert_int_equal(n, 9);
	assert_string_equal(frames[4], "0xffffffff81e94fb0");
	/* More than the depth is cut at the depth. */
	{
		uint64_t many[NP_BPF_STACK_DEPTH + 4];

		for (size_t i = 0; i < NP_BPF_STACK_DEPTH + 4; i++)
			many[i] = 0xffffffff820a7a70ull + i;
		assert_int_equal(np_trace_stack_symbolize(many, NP_BPF_STACK_DEPTH + 4, &ks,
							  frames), NP_BPF_STACK_DEPTH);
	}
}

static struct np_reason_name reason_tab[] = { { 3, "NO_SOCKET" }, { 6, "SOCKET_RCVBUFF" } };
static const struct np_reason_names names = { .n = 2, .e = reason_tab };

/* Four recorded stacks (two reasons), one drop whose stack was not recorded. */
static void raw_stacks(struct np_trace_raw *raw, struct np_trace_raw_stack *st)
{
	memset(raw, 0, sizeof(*raw));
	memset(st, 0, 5 * sizeof(*st));
	raw->has_reason = true;
	raw->stacks_on = true;
	raw->stacks = st;
	raw->nstacks = 5;
	raw->stacks_unkeyed = 2;
	st[0] = (struct np_trace_raw_stack){ .reason = 6, .count = 40, .nips = 2,
					     .ips = { 0xffffffff81e94f20ull + 0x90,
						      0xffffffff82055390ull + 0x10 } };
	st[1] = (struct np_trace_raw_stack){ .reason = 3, .count = 1999 };
	memcpy(st[1].ips, no_socket_ips, sizeof(no_socket_ips));
	st[1].nips = 9;
	st[2] = (struct np_trace_raw_stack){ .reason = 3, .count = 1, .nips = 1,
					     .ips = { 0xffffffff820a7a70ull } };
	st[3] = (struct np_trace_raw_stack){ .reason = 3, .count = 7 };	/* not recorded */
	st[4] = (struct np_trace_raw_stack){ .reason = 6, .count = 3, .nips = 1,
					     .ips = { 0xffffffff82055520ull } };
}

static void test_build(void **state)
{
	struct np_trace_raw_stack st[5];
	struct np_trace_raw raw;
	struct np_trace_stacks s;

	(void)state;
	raw_stacks(&raw, st);
	assert_int_equal(np_trace_stacks_build(&raw, &names, &ks, 2, &s), 0);
	assert_true(s.on);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.top[0].reason, "NO_SOCKET");
	assert_int_equal(s.top[0].count, 1999);
	assert_int_equal(s.top[0].nframes, 5);
	assert_string_equal(s.top[0].frames[0], "sk_skb_reason_drop+0x90");
	assert_string_equal(s.top[1].reason, "SOCKET_RCVBUFF");
	assert_int_equal(s.top[1].count, 40);
	assert_int_equal(s.other, 3 + 1);
	assert_int_equal(s.unrecorded, 7);
	assert_int_equal(s.unkeyed, 2);
	assert_int_equal(s.total, 40 + 1999 + 1 + 7 + 3 + 2);
	np_trace_stacks_free(&s);

	/* Kernels without reasons: no reason names. */
	raw.has_reason = false;
	assert_int_equal(np_trace_stacks_build(&raw, &names, &ks, 5, &s), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.top[0].reason, "");
	assert_int_equal(s.other, 0);
	np_trace_stacks_free(&s);

	/* Without --stack: off, nothing. */
	raw.stacks_on = false;
	assert_int_equal(np_trace_stacks_build(&raw, &names, &ks, 5, &s), 0);
	assert_false(s.on);
	assert_int_equal(s.n, 0);
}

static char *render_at(const struct np_trace_view *v, bool json, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json)
		np_render_trace_json(f, v);
	else
		np_render_trace_text(f, v, 0, width);
	fclose(f);
	/* A copy: gcc -O3 otherwise takes pointers into the result for pointers to the local
	 * `buf` that open_memstream() was given, and warns of a dangling pointer (-Werror). */
	{
		char *out = strdup(buf);

		free(buf);
		assert_non_null(out);
		return out;
	}
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
	const char *golden = NP_FIXTURES "/trace/stacks.json";
	struct np_trace_raw_stack st[5];
	struct np_trace_raw raw;
	struct np_trace_summary sum;
	struct np_trace_stacks s;
	struct np_trace_view v = { .ifname = "lo", .netns_inum = 4026532386u,
				   .attach = "tp_btf", .has_reason = true };
	char *out, *ver, *end, *want;

	(void)state;
	raw_stacks(&raw, st);
	raw.ncpu = 2;
	raw.attach = "tp_btf";
	raw.flow_cap = NP_BPF_MAX_FLOWS;
	assert_int_equal(np_trace_stacks_build(&raw, &names, &ks, 2, &s), 0);
	assert_int_equal(np_trace_summarize(&raw, &names, &ks, 2.0, false, &sum), 0);
	assert_int_equal(np_trace_attribute(&sum, &raw, 0), 0);
	v.sum = &sum;
	v.raw = &raw;
	v.stacks = &s;

	out = render(&v, false);
	if (getenv("NP_SHOW"))
		fputs(out, stderr);
	assert_non_null(strstr(out, "\nTop kernel stacks of drops (--stack; 2,052 drops, "
				    "innermost frame first):\n"
				    "  1,999 drops NO_SOCKET\n"
				    "      sk_skb_reason_drop+0x90\n"
				    "      __udp4_lib_rcv+0x4bc\n"));
	assert_non_null(strstr(out, "  40 drops SOCKET_RCVBUFF\n      sk_skb_reason_drop+0x90\n"
				    "      ip_protocol_deliver_rcu+0x10\n"));
	assert_non_null(strstr(out, "  4 drops with other stacks\n"));
	assert_non_null(strstr(out, "  7 drops without a stack (the stack map of 1024 stacks was "
				    "full or two stacks collided), 2 not counted"));
	assert_null(strstr(out, "bpf_trace_run3"));
	free(out);

	out = render(&v, true);
	ver = strstr(out, "\"netpath_version\": \"");
	assert_non_null(ver);
	ver += strlen("\"netpath_version\": \"");
	end = strchr(ver, '"');
	assert_non_null(end);
	memmove(ver + 1, end, strlen(end) + 1);
	ver[0] = 'X';
	assert_non_null(strstr(out, "\"frames\": [\n"));
	if (getenv("NP_UPDATE_FIXTURES")) {
		FILE *f = fopen(golden, "w");

		assert_non_null(f);
		fputs(out, f);
		fclose(f);
	}
	want = slurp(golden, NULL);
	assert_non_null(want);
	assert_string_equal(out, want);
	free(want);
	free(out);

	/* Without --stack the member is null and the text has no such section. */
	v.stacks = NULL;
	out = render(&v, true);
	assert_non_null(strstr(out, "\"stacks\": null"));
	free(out);
	out = render(&v, false);
	assert_null(strstr(out, "kernel stacks"));
	free(out);
	np_trace_summary_free(&sum);
	np_trace_stacks_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbolize),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_render),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
