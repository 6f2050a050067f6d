// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath path's output (src/render/render_path.c) for one hand-built test, a sender limited by
 * a 128 KiB tcp_wmem over 60 ms: the text at 80 columns and the JSON document against the golden
 * files tests/fixtures/path/sender-buffer.{txt,json} (NP_UPDATE_FIXTURES=1 rewrites them;
 * tests/docs/schemas.sh validates the JSON one against doc/netpath-path.schema.json). A peer's
 * text with control characters is printed without them.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "path_verdict.h"
#include "render_path.h"

static struct np_path_result R;
static struct np_path_verdict V;

static void end_init(struct np_path_end *e, const char *host, long long wmem_max)
{
	memset(e, 0, sizeof(*e));
	e->present = true;
	snprintf(e->host, sizeof(e->host), "%s", host);
	snprintf(e->ifname, sizeof(e->ifname), "eth0");
	snprintf(e->cc, sizeof(e->cc), "cubic");
	snprintf(e->qdisc, sizeof(e->qdisc), "fq_codel");
	e->tcp_rmem[0] = 4096, e->tcp_rmem[1] = 131072, e->tcp_rmem[2] = 6291456;
	e->tcp_wmem[0] = 4096, e->tcp_wmem[1] = 16384, e->tcp_wmem[2] = wmem_max;
	e->rmem_max = e->wmem_max = 212992;
	e->cpu_busiest_share = 0.25;
	e->softirq_busiest_share = 0.04;
}

static void build(void)
{
	struct np_path_note *n;

	memset(&R, 0, sizeof(R));
	snprintf(R.peer, sizeof(R.peer), "10.0.0.2");
	R.duration_s = 4;
	R.streams = 1;
	R.throughput_bps = 16e6;
	R.sender_bytes = 8000000;
	end_init(&R.sender, "alpha", 131072);
	end_init(&R.receiver, "beta\x1b[2J", 6291456);
	R.receiver.bytes_counted = 8000000;
	R.receiver.rx_drops = 0;
	R.receiver.nnotes = 1;
	n = &R.receiver.notes[0];
	n->severity = 1;
	snprintf(n->stage, sizeof(n->stage), "socket");
	snprintf(n->id, sizeof(n->id), "socket.rcvbuf");
	snprintf(n->summary, sizeof(n->summary), "tcp_rmem max 6 MiB covers the path\x07");
	R.nsamples = 8;
	for (size_t i = 0; i < R.nsamples; i++) {
		struct np_path_sample *s = &R.samples[i];
		double t = 0.5 * (double)(i + 1);

		s->t_s = t;
		s->rtt_ms = 61 + (double)(i % 2);
		s->min_rtt_ms = 60;
		s->cwnd_bytes = 120000;
		s->delivery_rate_bps = 16e6;
		s->pacing_rate_bps = 32e6;
		s->snd_wnd_bytes = 3145728;
		s->sndbuf_bytes = 131072;
		s->notsent_bytes = 0;
		s->bytes_acked = (uint64_t)(2e6 * t);
		s->segs_out = (uint64_t)(1400 * t);
		s->total_retrans = 0;
		s->have_chrono = true;
		s->busy_us = (uint64_t)(t * 1e6);
		s->sndbuf_limited_us = (uint64_t)(t * 0.8e6);
		s->rwnd_limited_us = 0;
	}
	np_path_judge(&R, &V);
}

static char *render(bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json)
		np_render_path_json(f, &R, &V);
	else
		np_render_path_text(f, &R, &V, 80);
	fclose(f);
	return buf;
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
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void golden(const char *out, const char *path)
{
	char *want;

	if (getenv("NP_UPDATE_FIXTURES")) {
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs(out, f);
		fclose(f);
	}
	want = slurp(path);
	assert_non_null(want);
	assert_string_equal(out, want);
	free(want);
}

static void test_text(void **st)
{
	char *out;

	(void)st;
	build();
	out = render(false);
	if (getenv("NP_SHOW"))
		fputs(out, stderr);
	assert_true(strncmp(out, "limited by: sender-buffer (sender)\n", 35) == 0);
	assert_non_null(strstr(out, "net.ipv4.tcp_wmem=\"4096 16384 1048576\""));
	assert_null(strchr(out, '\x1b'));
	assert_null(strchr(out, '\x07'));
	for (char *l = out; *l; l = strchr(l, '\n') + 1)
		assert_true(strchr(l, '\n') - l <= 80);
	golden(out, NP_FIXTURES "/path/sender-buffer.txt");
	free(out);
}

static void test_json(void **st)
{
	char *out;

	(void)st;
	build();
	out = render(true);
	if (getenv("NP_SHOW"))
		fputs(out, stderr);
	assert_non_null(strstr(out, "\"schema\": \"netpath/path\""));
	assert_non_null(strstr(out, "\"limited_by\": \"sender-buffer\""));
	assert_non_null(strstr(out, "\"side\": \"sender\""));
	assert_null(strchr(out, '\x1b'));
	golden(out, NP_FIXTURES "/path/sender-buffer.json");
	free(out);
}

/* Nothing measured: every number null, still a valid document and a first line. */
static void test_unknown(void **st)
{
	char *out;

	(void)st;
	memset(&R, 0, sizeof(R));
	np_path_judge(&R, &V);
	out = render(false);
	assert_true(strncmp(out, "limited by: unknown (unknown)\n", 30) == 0);
	assert_non_null(strstr(out, "rtt: - ms (median)  min rtt: - ms  bdp: -\n"));
	assert_null(strstr(out, "nan"));
	free(out);
	out = render(true);
	assert_non_null(strstr(out, "\"rtt_ms\": null"));
	assert_non_null(strstr(out, "\"samples\": []"));
	free(out);
}

/* Valid UTF-8 without control characters (but newlines). */
static void assert_clean_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2
			: (*p & 0xf8) == 0xf0 ? 3 : -1;

		assert_true(n >= 0);
		assert_true(*p >= 0x20 || *p == '\n');
		assert_true(*p != 0x7f);
		for (p++; n > 0; n--, p++)
			assert_true((*p & 0xc0) == 0x80);
	}
}

/* A peer's text of random bytes: printed as valid UTF-8 without control characters, in the
 * text and in the JSON document; a doctor summary's own UTF-8 (an arrow) kept. */
static void test_hostile_text(void **st)
{
	unsigned seed = 7;
	char *out;

	(void)st;
	for (int round = 0; round < 50; round++) {
		struct np_path_end *e = round % 2 ? &R.sender : &R.receiver;

		build();
		for (size_t i = 0; i + 1 < sizeof(e->host); i++)
			e->host[i] = (char)(rand_r(&seed) % 255 + 1);
		for (size_t i = 0; i + 1 < sizeof(e->notes[0].summary); i++)
			e->notes[0].summary[i] = (char)(rand_r(&seed) % 255 + 1);
		e->nnotes = 1;
		np_path_judge(&R, &V);	/* the fix names the host */
		out = render(false);
		assert_clean_utf8(out);
		free(out);
		out = render(true);
		assert_clean_utf8(out);
		free(out);
	}
	build();
	snprintf(R.receiver.notes[0].summary, sizeof(R.receiver.notes[0].summary),
		 "rx \xe2\x86\x92 socket");
	out = render(false);
	assert_non_null(strstr(out, "rx \xe2\x86\x92 socket"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_hostile_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
