// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control connection's text of netpath path/serve (the protocol: path_proto.h): the test
 * request and its cap, and one end's report written and read back. Pure: no I/O beyond the
 * FILE the report is written to, so a unit test and the fuzzer drive it with any bytes.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path_udp.h"
#include "path_wire.h"

int np_path_req_format(const struct np_path_req *r, char *buf, size_t len)
{
	int n = snprintf(buf, len, "TEST duration=%.3f streams=%u reverse=%d udp=%d", r->duration,
			 r->streams, r->reverse, r->udp);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* "name=" followed by a number that ends at a space or the end: 0 and *v, or -1. */
static int field(const char *line, const char *name, double *v)
{
	char key[32], *end;
	const char *p;

	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(line, key);
	if (!p)
		return -1;
	p += strlen(key);
	*v = strtod(p, &end);
	if (end == p || (*end != ' ' && *end != '\0') || !isfinite(*v))
		return -1;
	return 0;
}

int np_path_req_parse(const char *line, struct np_path_req *r)
{
	double d, s, rev, udp;

	if (strncmp(line, "TEST ", 5) != 0 || field(line, "duration", &d) < 0 ||
	    field(line, "streams", &s) < 0 || field(line, "reverse", &rev) < 0 ||
	    field(line, "udp", &udp) < 0)
		return -1;
	if ((rev != 0 && rev != 1) || (udp != 0 && udp != 1) || s < 0 || s > 1e6 || d < 0)
		return -1;
	r->duration = d;
	r->streams = (unsigned)s;
	r->reverse = rev == 1;
	r->udp = udp == 1;
	return 0;
}

void np_path_req_cap(struct np_path_req *r, double max_duration)
{
	if (!(max_duration >= 1) || max_duration > NP_PATH_MAX_SECONDS)
		max_duration = max_duration < 1 ? 1 : NP_PATH_MAX_SECONDS;
	if (!(r->duration >= 1))
		r->duration = 1;
	if (r->duration > max_duration)
		r->duration = max_duration;
	if (r->streams < 1)
		r->streams = 1;
	if (r->streams > NP_PATH_MAX_STREAMS)
		r->streams = NP_PATH_MAX_STREAMS;
}

/* The length of the UTF-8 character at p if it is well formed and not a C1 control, else 0. */
static size_t utf8_ok(const unsigned char *p)
{
	size_t n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	uint32_t cp;

	if (n == 0 || p[0] > 0xf4)
		return 0;
	cp = p[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < 0xa0 || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

char *np_wire_clean(char *dst, size_t cap, const char *src)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t o = 0;

	if (cap == 0)
		return dst;
	while (*p) {
		size_t n = 1;

		if (*p == 0x1b) {
			/* CSI: parameters up to a final byte; OSC/DCS: up to BEL or ESC \. */
			p++;
			if (*p == '[') {
				for (p++; *p && !(*p >= 0x40 && *p <= 0x7e); p++)
					;
				if (*p)
					p++;
			} else if (*p == ']' || *p == 'P' || *p == '_' || *p == '^') {
				for (p++; *p && *p != 0x07 && *p != 0x1b; p++)
					;
				if (*p == 0x07)
					p++;
				else if (*p == 0x1b && p[1] == '\\')
					p += 2;
			} else if (*p) {
				p++;
			}
			continue;
		}
		if (*p == '\n' || *p == '\t') {
			if (o + 1 < cap)
				dst[o++] = ' ';	/* a remedy's lines, side by side */
			p++;
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			p++;
			continue;
		}
		if (*p >= 0x80) {
			n = utf8_ok(p);
			if (n == 0) {
				/* One '?' for a well-formed but refused character (a C1
				 * control), or for each stray byte. */
				size_t skip = 1;

				while (skip < 4 && (p[skip] & 0xc0) == 0x80 && *p >= 0xc2)
					skip++;
				if (o + 1 < cap)
					dst[o++] = '?';
				p += skip;
				continue;
			}
		}
		if (o + n >= cap)
			break;
		memcpy(dst + o, p, n);
		o += n;
		p += n;
	}
	dst[o] = '\0';
	return dst;
}

/* Free text onto one line: what would end the line or the field goes. */
static void put_text(FILE *out, const char *s, size_t max)
{
	char buf[NP_WIRE_LINE_MAX / 2];

	np_wire_clean(buf, max < sizeof(buf) ? max : sizeof(buf), s);
	for (char *c = buf; *c; c++)
		if (*c == '\t')
			*c = ' ';
	fputs(buf, out);
}

void np_wire_report_write(FILE *out, const struct np_wire_report *w)
{
	const struct np_path_end *e = w->end;

	fputs("REPORT\nhost ", out);
	put_text(out, e->host, sizeof(e->host));
	fputs("\nifname ", out);
	put_text(out, e->ifname, sizeof(e->ifname));
	fputs("\ncc ", out);
	put_text(out, e->cc, sizeof(e->cc));
	fputs("\nqdisc ", out);
	put_text(out, e->qdisc, sizeof(e->qdisc));
	fprintf(out, "\ntcp_rmem %lld %lld %lld\ntcp_wmem %lld %lld %lld\nrmem_max %lld\n"
		"wmem_max %lld\ncpu %.6g\nsoftirq %.6g\nrx_drops %.17g\nbytes %" PRIu64 "\n",
		e->tcp_rmem[0], e->tcp_rmem[1], e->tcp_rmem[2], e->tcp_wmem[0], e->tcp_wmem[1],
		e->tcp_wmem[2], e->rmem_max, e->wmem_max, e->cpu_busiest_share,
		e->softirq_busiest_share, e->rx_drops, e->bytes_counted);
	if (!isnan(w->duration_s))
		fprintf(out, "duration %.9g\n", w->duration_s);
	if (!isnan(w->sender_bytes))
		fprintf(out, "sender_bytes %.17g\n", w->sender_bytes);
	for (size_t i = 0; i < e->nnotes && i < NP_PATH_MAX_NOTES; i++) {
		const struct np_path_note *n = &e->notes[i];

		fprintf(out, "note %d\t", n->severity);
		put_text(out, n->stage, sizeof(n->stage));
		fputc('\t', out);
		put_text(out, n->id, sizeof(n->id));
		fputc('\t', out);
		put_text(out, n->summary, sizeof(n->summary));
		fputc('\t', out);
		put_text(out, n->remedy, sizeof(n->remedy));
		fputc('\n', out);
	}
	for (size_t i = 0; i < w->nsamples && i < NP_PATH_MAX_SAMPLES; i++) {
		const struct np_path_sample *s = &w->samples[i];

		fprintf(out, "sample %.6f %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %" PRIu64 " %"
			PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %d %u\n", s->t_s,
			s->rtt_ms, s->min_rtt_ms, s->cwnd_bytes, s->delivery_rate_bps,
			s->pacing_rate_bps, s->snd_wnd_bytes, s->sndbuf_bytes, s->notsent_bytes,
			s->bytes_acked, s->segs_out, s->total_retrans, s->busy_us,
			s->rwnd_limited_us, s->sndbuf_limited_us, s->have_chrono,
			s->app_limited_streams);
	}
	for (size_t i = 0; i < w->nsteps && i < NP_PATH_MAX_STEPS; i++)
		fprintf(out, "step %.9g %.9g %.9g\n", w->steps[i].offered_bps,
			w->steps[i].delivered_bps, w->steps[i].loss);
	fputs("END\n", out);
}

void np_wire_rx_init(struct np_wire_rx *rx, struct np_path_end *end, struct np_path_result *r)
{
	memset(rx, 0, sizeof(*rx));
	rx->end = end;
	rx->r = r;
	memset(end, 0, sizeof(*end));
	end->tcp_rmem[0] = end->tcp_rmem[1] = end->tcp_rmem[2] = -1;
	end->tcp_wmem[0] = end->tcp_wmem[1] = end->tcp_wmem[2] = -1;
	end->rmem_max = end->wmem_max = -1;
	end->cpu_busiest_share = end->softirq_busiest_share = end->rx_drops = NAN;
}

/* Exactly n whitespace-separated numbers after the keyword: 0, or -1. "nan" is a number. */
static int nums(const char *p, double *v, int n)
{
	char *end;

	for (int i = 0; i < n; i++) {
		v[i] = strtod(p, &end);
		if (end == p)
			return -1;
		p = end;
	}
	while (*p == ' ')
		p++;
	return *p ? -1 : 0;
}

static long long as_ll(double v)
{
	return isfinite(v) && v >= -1 && v < 9.2e18 ? (long long)v : -1;
}

static uint64_t as_u64(double v)
{
	return isfinite(v) && v > 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

/* A share is 0..1 or unknown. */
static double share(double v)
{
	return v >= 0 && v <= 1 ? v : NAN;
}

static int note_line(struct np_path_end *e, const char *p)
{
	struct np_path_note *n;
	const char *f[5];
	char *end;
	long sev;

	if (e->nnotes >= NP_PATH_MAX_NOTES)
		return -1;
	f[0] = p;
	for (int i = 1; i < 5; i++) {
		f[i] = strchr(f[i - 1], '\t');
		if (!f[i])
			return -1;
		f[i]++;
	}
	sev = strtol(f[0], &end, 10);
	if (end == f[0] || *end != '\t' || sev < 0 || sev > 3)
		return -1;
	n = &e->notes[e->nnotes++];
	n->severity = (int)sev;
#define CUT(dst, from, to) do { \
		char tmp_[NP_WIRE_LINE_MAX]; size_t l_ = (size_t)((to) - (from)); \
		memcpy(tmp_, from, l_); tmp_[l_] = '\0'; np_wire_clean(dst, sizeof(dst), tmp_); \
	} while (0)
	CUT(n->stage, f[1], f[2] - 1);
	CUT(n->id, f[2], f[3] - 1);
	CUT(n->summary, f[3], f[4] - 1);
#undef CUT
	np_wire_clean(n->remedy, sizeof(n->remedy), f[4]);
	return 0;
}

int np_wire_rx_line(struct np_wire_rx *rx, const char *line, char *err, size_t errlen)
{
	struct np_path_end *e = rx->end;
	const char *sp = strchr(line, ' ');
	const char *arg = sp ? sp + 1 : "";
	size_t kl = sp ? (size_t)(sp - line) : strlen(line);
	double v[17];

#define IS(k) (kl == strlen(k) && strncmp(line, k, kl) == 0)
	if (strlen(line) >= NP_WIRE_LINE_MAX || ++rx->nlines > NP_WIRE_REPORT_LINES) {
		snprintf(err, errlen, "report too long");
		return -1;
	}
	if (!rx->begun) {
		if (strcmp(line, "REPORT") != 0) {
			snprintf(err, errlen, "expected a report");
			return -1;
		}
		rx->begun = true;
		return 0;
	}
	if (strcmp(line, "END") == 0) {
		e->present = true;
		return 1;
	}
	if (IS("host"))
		np_wire_clean(e->host, sizeof(e->host), arg);
	else if (IS("ifname"))
		np_wire_clean(e->ifname, sizeof(e->ifname), arg);
	else if (IS("cc"))
		np_wire_clean(e->cc, sizeof(e->cc), arg);
	else if (IS("qdisc"))
		np_wire_clean(e->qdisc, sizeof(e->qdisc), arg);
	else if ((IS("tcp_rmem") || IS("tcp_wmem")) && nums(arg, v, 3) == 0) {
		long long *t = IS("tcp_rmem") ? e->tcp_rmem : e->tcp_wmem;

		for (int i = 0; i < 3; i++)
			t[i] = as_ll(v[i]);
	} else if (IS("rmem_max") && nums(arg, v, 1) == 0)
		e->rmem_max = as_ll(v[0]);
	else if (IS("wmem_max") && nums(arg, v, 1) == 0)
		e->wmem_max = as_ll(v[0]);
	else if (IS("cpu") && nums(arg, v, 1) == 0)
		e->cpu_busiest_share = share(v[0]);
	else if (IS("softirq") && nums(arg, v, 1) == 0)
		e->softirq_busiest_share = share(v[0]);
	else if (IS("rx_drops") && nums(arg, v, 1) == 0)
		e->rx_drops = v[0] >= 0 && isfinite(v[0]) ? v[0] : NAN;
	else if (IS("bytes") && nums(arg, v, 1) == 0)
		e->bytes_counted = as_u64(v[0]);
	else if (IS("duration") && nums(arg, v, 1) == 0 && rx->r)
		rx->r->duration_s = v[0] > 0 && v[0] <= 2 * NP_PATH_MAX_SECONDS ? v[0] : NAN;
	else if (IS("sender_bytes") && nums(arg, v, 1) == 0 && rx->r)
		rx->r->sender_bytes = as_u64(v[0]);
	else if (IS("note")) {
		if (note_line(e, arg) < 0) {
			snprintf(err, errlen, "malformed or one note too many");
			return -1;
		}
	} else if (IS("sample") && rx->r && rx->r->nsamples < NP_PATH_MAX_SAMPLES &&
		   nums(arg, v, 17) == 0) {
		struct np_path_sample *s = &rx->r->samples[rx->r->nsamples++];

		*s = (struct np_path_sample){
			.t_s = v[0], .rtt_ms = v[1], .min_rtt_ms = v[2], .cwnd_bytes = v[3],
			.delivery_rate_bps = v[4], .pacing_rate_bps = v[5], .snd_wnd_bytes = v[6],
			.sndbuf_bytes = v[7], .notsent_bytes = v[8], .bytes_acked = as_u64(v[9]),
			.segs_out = as_u64(v[10]), .total_retrans = as_u64(v[11]),
			.busy_us = as_u64(v[12]), .rwnd_limited_us = as_u64(v[13]),
			.sndbuf_limited_us = as_u64(v[14]), .have_chrono = v[15] == 1,
			.app_limited_streams = v[16] >= 0 && v[16] <= NP_PATH_MAX_STREAMS ?
					       (uint32_t)v[16] : 0,
		};
	} else if (IS("step") && rx->r && rx->r->nsteps < NP_PATH_MAX_STEPS &&
		   nums(arg, v, 3) == 0) {
		rx->r->steps[rx->r->nsteps++] = (struct np_path_step){
			.offered_bps = v[0], .delivered_bps = v[1],
			.loss = v[2] >= 0 && v[2] <= 1 ? v[2] : NAN,
		};
	} else {
		char what[40];

		snprintf(err, errlen, "unexpected report line '%s'",
			 np_wire_clean(what, sizeof(what), line));
		return -1;
	}
#undef IS
	return 0;
}

/* The UDP steps' rates (path_udp.h): pure arithmetic, here so that a unit test can reach it. */
size_t np_udp_ladder(double tcp_bps, double *rates)
{
	/* From a quarter of the TCP rate to four times it, x1.5 a step (7 steps): TCP through a
	 * policer gets most of its rate, so at least two steps land past the plateau, 1.5x apart,
	 * which is what the verdict needs to see one. */
	double base = isfinite(tcp_bps) && tcp_bps > 0 ? tcp_bps : 4 * NP_UDP_FIRST_BPS;
	double r = base / 4, top = base * 4;
	size_t n = 0;

	if (top > NP_UDP_MAX_BPS)
		top = NP_UDP_MAX_BPS;
	if (r < 1e6)
		r = 1e6;
	for (; n < NP_PATH_MAX_STEPS && (r <= top * 1.0001 || n < 2); r *= 1.5)
		rates[n++] = r;
	return n;
}
