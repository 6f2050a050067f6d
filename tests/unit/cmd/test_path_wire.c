// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath path/serve's control text (path_wire.c) and key file (path_key.c): a report written
 * and read back whole; hostile reports (terminal escapes, overlong lines, one note too many,
 * counts out of range, a line before REPORT); the test request parsed and capped at serve's
 * limits; key files refused for their mode, size, type.
 */
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "path_key.h"
#include "path_udp.h"
#include "path_wire.h"

static struct np_path_result res;

/* Feed text (lines split at '\n') to a reader: its last return. */
static int feed(struct np_wire_rx *rx, char *text, char *err, size_t errlen)
{
	int r = 0;

	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		r = np_wire_rx_line(rx, l, err, errlen);
		if (r != 0)
			return r;
	}
	return r;
}

static void round_trip(void **state)
{
	struct np_path_end e = { 0 }, back;
	struct np_path_sample s[2] = {
		{ .t_s = 0.1, .rtt_ms = 30.5, .min_rtt_ms = 30, .cwnd_bytes = 1e6,
		  .delivery_rate_bps = 5e7, .pacing_rate_bps = 6e7, .snd_wnd_bytes = NAN,
		  .sndbuf_bytes = 4e6, .notsent_bytes = 0, .bytes_acked = 123456789,
		  .segs_out = 1000, .total_retrans = 3, .busy_us = 100000, .rwnd_limited_us = 5,
		  .sndbuf_limited_us = 60000, .have_chrono = true, .app_limited_streams = 1 },
		{ .t_s = 0.2, .rtt_ms = 31 },
	};
	struct np_path_step st = { 1e7, 9e6, 0.1 };
	struct np_wire_rx rx;
	char *buf = NULL, err[200];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	snprintf(e.host, sizeof(e.host), "rx-host");
	snprintf(e.ifname, sizeof(e.ifname), "eth0");
	snprintf(e.cc, sizeof(e.cc), "cubic");
	snprintf(e.qdisc, sizeof(e.qdisc), "fq_codel");
	e.tcp_rmem[0] = 4096, e.tcp_rmem[1] = 131072, e.tcp_rmem[2] = 6291456;
	e.tcp_wmem[0] = 4096, e.tcp_wmem[1] = 16384, e.tcp_wmem[2] = 131072;
	e.rmem_max = 212992, e.wmem_max = -1;
	e.cpu_busiest_share = 0.5, e.softirq_busiest_share = 0.25, e.rx_drops = 7;
	e.bytes_counted = 987654321;
	e.nnotes = 1;
	e.notes[0] = (struct np_path_note){ .severity = 2, .stage = "socket",
					    .id = "socket.rmem-max" };
	snprintf(e.notes[0].summary, sizeof(e.notes[0].summary), "rmem_max is small");
	snprintf(e.notes[0].remedy, sizeof(e.notes[0].remedy), "sysctl -w a=b\nsysctl -w c=d");
	np_wire_report_write(f, &(struct np_wire_report){ .end = &e, .duration_s = 10.25,
		.sender_bytes = 5e9, .samples = s, .nsamples = 2, .steps = &st, .nsteps = 1 });
	fclose(f);
	memset(&res, 0, sizeof(res));
	np_wire_rx_init(&rx, &back, &res);
	assert_int_equal(feed(&rx, buf, err, sizeof(err)), 1);
	free(buf);
	assert_true(back.present);
	assert_string_equal(back.host, "rx-host");
	assert_string_equal(back.qdisc, "fq_codel");
	assert_int_equal(back.tcp_wmem[2], 131072);
	assert_int_equal(back.rmem_max, 212992);
	assert_int_equal(back.wmem_max, -1);
	assert_true(back.cpu_busiest_share == 0.5 && back.rx_drops == 7);
	assert_int_equal(back.bytes_counted, 987654321);
	assert_int_equal(back.nnotes, 1);
	assert_int_equal(back.notes[0].severity, 2);
	assert_string_equal(back.notes[0].id, "socket.rmem-max");
	assert_string_equal(back.notes[0].remedy, "sysctl -w a=b sysctl -w c=d");
	assert_true(res.duration_s == 10.25);
	assert_int_equal(res.sender_bytes, 5000000000ULL);
	assert_int_equal(res.nsamples, 2);
	assert_int_equal(res.samples[0].sndbuf_limited_us, 60000);
	assert_true(res.samples[0].have_chrono);
	assert_true(isnan(res.samples[0].snd_wnd_bytes));
	assert_int_equal(res.samples[0].app_limited_streams, 1);
	assert_int_equal(res.nsteps, 1);
	assert_true(res.steps[0].delivered_bps == 9e6);
}

static void clean(void **state)
{
	char out[64];

	(void)state;
	/* CSI colour, OSC title (BEL and ST ends), a bare ESC, C0, DEL, C1 as UTF-8 (U+009B, a
	 * CSI on some terminals), malformed UTF-8: none reaches the output. */
	assert_string_equal(np_wire_clean(out, sizeof(out), "a\x1b[31mred\x1b[0m"), "ared");
	assert_string_equal(np_wire_clean(out, sizeof(out), "\x1b]0;pwned\x07ok"), "ok");
	assert_string_equal(np_wire_clean(out, sizeof(out), "\x1b]0;x\x1b\\ok"), "ok");
	assert_string_equal(np_wire_clean(out, sizeof(out), "a\x1b" "cb\x01\x7f" "c\r"), "abc");
	assert_string_equal(np_wire_clean(out, sizeof(out), "x\xc2\x9b" "1m"), "x?1m");
	assert_string_equal(np_wire_clean(out, sizeof(out), "\xff\xc3"), "??");
	assert_string_equal(np_wire_clean(out, sizeof(out), "caf\xc3\xa9 \xe2\x86\x92"),
			    "caf\xc3\xa9 \xe2\x86\x92");
	assert_string_equal(np_wire_clean(out, sizeof(out), "a\tb\nc"), "a b c");
	/* A cut never splits a character. */
	assert_string_equal(np_wire_clean(out, 5, "abc\xc3\xa9"), "abc");
	assert_string_equal(np_wire_clean(out, 1, "abc"), "");
	/* An unterminated escape swallows the rest, never more than the string. */
	assert_string_equal(np_wire_clean(out, sizeof(out), "ok\x1b[12;"), "ok");
}

static void hostile(void **state)
{
	struct np_path_end e;
	struct np_wire_rx rx;
	char err[200], line[NP_WIRE_LINE_MAX + 10];

	(void)state;
	memset(&res, 0, sizeof(res));
	np_wire_rx_init(&rx, &e, &res);
	assert_int_equal(np_wire_rx_line(&rx, "host x", err, sizeof(err)), -1);	/* no REPORT */
	np_wire_rx_init(&rx, &e, &res);
	assert_int_equal(np_wire_rx_line(&rx, "REPORT", err, sizeof(err)), 0);
	assert_int_equal(np_wire_rx_line(&rx, "host \x1b[2J\x1b]0;t\x07" "evil\x1b[31m", err,
					 sizeof(err)), 0);
	assert_string_equal(e.host, "evil");
	assert_int_equal(np_wire_rx_line(&rx, "note 2\tsock\x1b[1met\tid\tsum\x9b" "1\trem", err,
					 sizeof(err)), 0);
	assert_string_equal(e.notes[0].stage, "socket");
	assert_string_equal(e.notes[0].summary, "sum?1");
	/* One note too many. */
	for (int i = 1; i < NP_PATH_MAX_NOTES; i++)
		assert_int_equal(np_wire_rx_line(&rx, "note 1\ta\tb\tc\td", err, sizeof(err)), 0);
	assert_int_equal(np_wire_rx_line(&rx, "note 1\ta\tb\tc\td", err, sizeof(err)), -1);
	assert_int_equal(e.nnotes, NP_PATH_MAX_NOTES);
	/* Malformed notes, counts, numbers. */
	np_wire_rx_init(&rx, &e, NULL);
	assert_int_equal(np_wire_rx_line(&rx, "REPORT", err, sizeof(err)), 0);
	assert_int_equal(np_wire_rx_line(&rx, "note 9\ta\tb\tc\td", err, sizeof(err)), -1);
	assert_int_equal(np_wire_rx_line(&rx, "note 1\ta\tb", err, sizeof(err)), -1);
	assert_int_equal(np_wire_rx_line(&rx, "tcp_rmem 1 2", err, sizeof(err)), -1);
	assert_int_equal(np_wire_rx_line(&rx, "tcp_rmem 1 2 3 4", err, sizeof(err)), -1);
	assert_int_equal(np_wire_rx_line(&rx, "cpu 7", err, sizeof(err)), 0);
	assert_true(isnan(e.cpu_busiest_share));	/* a share is 0..1 */
	assert_int_equal(np_wire_rx_line(&rx, "bytes -5", err, sizeof(err)), 0);
	assert_int_equal(e.bytes_counted, 0);
	/* Without a result, samples are not taken (the receiving end's report has none). */
	assert_int_equal(np_wire_rx_line(&rx, "sample 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 1 1",
					 err, sizeof(err)), -1);
	assert_int_equal(np_wire_rx_line(&rx, "\x1b[31mwhat", err, sizeof(err)), -1);
	assert_null(strchr(err, '\x1b'));
	/* An overlong line. */
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	memcpy(line, "host ", 5);
	assert_int_equal(np_wire_rx_line(&rx, line, err, sizeof(err)), -1);
	/* Too many lines, however well formed. */
	np_wire_rx_init(&rx, &e, &res);
	res.nsamples = 0;
	assert_int_equal(np_wire_rx_line(&rx, "REPORT", err, sizeof(err)), 0);
	for (int i = 1; i < NP_WIRE_REPORT_LINES; i++)
		if (np_wire_rx_line(&rx, "cc bbr", err, sizeof(err)) != 0)
			fail_msg("line %d refused", i);
	assert_int_equal(np_wire_rx_line(&rx, "cc bbr", err, sizeof(err)), -1);
}

static void request(void **state)
{
	struct np_path_req r = { .duration = 10, .streams = 4, .reverse = true }, back;
	char line[200];

	(void)state;
	assert_int_equal(np_path_req_format(&r, line, sizeof(line)), 0);
	assert_int_equal(np_path_req_parse(line, &back), 0);
	assert_true(back.duration == 10 && back.streams == 4 && back.reverse && !back.udp);
	assert_int_equal(np_path_req_parse("TEST duration=10 streams=1 reverse=2 udp=0", &back), -1);
	assert_int_equal(np_path_req_parse("TEST duration=x streams=1 reverse=0 udp=0", &back), -1);
	assert_int_equal(np_path_req_parse("TEST duration=inf streams=1 reverse=0 udp=0", &back),
			 -1);
	assert_int_equal(np_path_req_parse("TEST streams=1 reverse=0 udp=0", &back), -1);
	assert_int_equal(np_path_req_parse("HELLO", &back), -1);
	/* serve's caps: its --max-duration, 16 streams, at least 1 s and 1 stream. */
	assert_int_equal(np_path_req_parse("TEST duration=1e9 streams=999 reverse=0 udp=1", &back),
			 0);
	np_path_req_cap(&back, 30);
	assert_true(back.duration == 30 && back.streams == 16 && back.udp);
	back.duration = 0, back.streams = 0;
	np_path_req_cap(&back, 30);
	assert_true(back.duration == 1 && back.streams == 1);
	back.duration = 500;
	np_path_req_cap(&back, 1000);	/* never above NP_PATH_MAX_SECONDS */
	assert_true(back.duration == NP_PATH_MAX_SECONDS);
}

static void key_file(void **state)
{
	char dir[] = "/tmp/np-key-XXXXXX", path[64], err[400], want[300];
	struct np_path_key k;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/key", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0123456789abcdefXYZ", 19), 19);
	close(fd);
	assert_int_equal(np_path_key_load(path, &k, err, sizeof(err)), 0);
	assert_int_equal(k.len, 19);
	assert_memory_equal(k.b, "0123456789abcdefXYZ", 19);
	chmod(path, 0400);
	assert_int_equal(np_path_key_load(path, &k, err, sizeof(err)), 0);
	chmod(path, 0644);
	assert_int_equal(np_path_key_load(path, &k, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "key file %s is readable by others (mode 0644): chmod 600 %s",
		 path, path);
	assert_string_equal(err, want);
	assert_int_equal(k.len, 0);
	chmod(path, 0640);
	assert_int_equal(np_path_key_load(path, &k, err, sizeof(err)), -1);
	chmod(path, 0620);
	assert_int_equal(np_path_key_load(path, &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "writable by others (mode 0620)"));
	chmod(path, 0600);
	assert_int_equal(truncate(path, 15), 0);	/* too short */
	assert_int_equal(np_path_key_load(path, &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "holds 15 bytes"));
	assert_int_equal(truncate(path, 4097), 0);	/* too long */
	assert_int_equal(np_path_key_load(path, &k, err, sizeof(err)), -1);
	/* A link to a good key is not followed; a directory is not a key. */
	snprintf(want, sizeof(want), "%s/link", dir);
	assert_int_equal(truncate(path, 32), 0);
	assert_int_equal(symlink(path, want), 0);
	assert_int_equal(np_path_key_load(want, &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "symbolic link"));
	assert_int_equal(np_path_key_load(dir, &k, err, sizeof(err)), -1);
	assert_int_equal(np_path_key_load("/nonexistent/key", &k, err, sizeof(err)), -1);
	unlink(want);
	unlink(path);
	rmdir(dir);
}

/* The UDP ladder goes past the TCP rate far enough that a policer near it shows as a plateau:
 * at least two steps 20% and more above it, each 1.5x the one before, within the step cap. */
static void udp_ladder(void **state)
{
	static const double tcp[] = { 18e6, 1e6, 9.4e9, NAN, 0 };
	double r[NP_PATH_MAX_STEPS];

	(void)state;
	for (size_t k = 0; k < sizeof(tcp) / sizeof(tcp[0]); k++) {
		double base = isfinite(tcp[k]) && tcp[k] > 0 ? tcp[k] : 40e6;
		size_t n = np_udp_ladder(tcp[k], r), above = 0;

		assert_true(n >= 2 && n <= NP_PATH_MAX_STEPS);
		assert_true(r[0] <= fmax(base / 2, 1e6));
		for (size_t i = 0; i < n; i++) {
			assert_true(r[i] <= NP_UDP_MAX_BPS * 1.0001);
			if (i)
				assert_true(fabs(r[i] / r[i - 1] - 1.5) < 1e-9);
			above += r[i] >= 1.2 * base;
		}
		if (base * 4 <= NP_UDP_MAX_BPS)
			assert_true(above >= 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(udp_ladder),
		cmocka_unit_test(clean),
		cmocka_unit_test(hostile),
		cmocka_unit_test(request),
		cmocka_unit_test(key_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
