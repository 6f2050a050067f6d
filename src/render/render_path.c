// SPDX-License-Identifier: GPL-2.0-only
/*
 * `netpath path` output (render_path.h). The peer's text (host names, findings) came over the
 * wire already made printable, but it is printed through the same filter again here: a byte
 * outside printable ASCII/UTF-8 text becomes '?', so a hostile peer cannot move the cursor.
 */
#include "render_path.h"

#include <math.h>
#include <string.h>

#include "finding.h"
#include "json_writer.h"
#include "path_fix.h"
#include "path_verdict.h"
#include "text_wrap.h"

/* The length of the well-formed UTF-8 sequence at s[0..n) (1..4), 0 if there is none (a stray
 * continuation byte, a truncated or overlong sequence, a surrogate, past U+10FFFF). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
		   : (s[0] & 0xf0) == 0xe0 ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;

	if (!len || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return len;
}

/* Printable copy of at most n bytes of s: control characters, DEL and bytes that are not
 * well-formed UTF-8 become '?'. */
static const char *clean(const char *s, size_t n, char *buf, size_t size)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k = 0, i = 0;

	while (i < n && u[i] && k + 1 < size) {
		size_t len = utf8_len(u + i, strnlen(s + i, n - i));

		if (!len || u[i] < 0x20 || u[i] == 0x7f || k + len >= size) {
			buf[k++] = '?';
			i += len ? len : 1;
			continue;
		}
		memcpy(buf + k, u + i, len);
		k += len;
		i += len;
	}
	buf[k] = '\0';
	return buf;
}

#define CLEAN(field, buf) clean((field), sizeof(field), (buf), sizeof(buf))

static void pct(FILE *out, const char *label, double share)
{
	if (isfinite(share))
		fprintf(out, "  %s %.0f%%", label, 100 * share);
	else
		fprintf(out, "  %s -", label);
}

static void end_text(FILE *out, const char *side, const struct np_path_end *e)
{
	char host[80], txt[600];

	if (!e->present) {
		fprintf(out, "\n%s: no report\n", side);
		return;
	}
	fprintf(out, "\n%s %s", side, CLEAN(e->host, host));
	if (e->ifname[0])
		fprintf(out, " (%s", CLEAN(e->ifname, txt));
	if (e->ifname[0] && e->cc[0])
		fprintf(out, ", %s", CLEAN(e->cc, txt));
	if (e->ifname[0] && e->qdisc[0])
		fprintf(out, ", qdisc %s", CLEAN(e->qdisc, txt));
	fprintf(out, "%s:\n", e->ifname[0] ? ")" : "");
	if (!e->nnotes) {
		fprintf(out, "  no findings\n");
		return;
	}
	/* In receive-path order: the stage vocabulary's order, then as reported. */
	for (int st = -1; st < NP_STAGE__COUNT; st++)
		for (size_t i = 0; i < e->nnotes && i < NP_PATH_MAX_NOTES; i++) {
			const struct np_path_note *n = &e->notes[i];
			char stage[20], id[64], rem[600];
			int k = np_stage_from_name(CLEAN(n->stage, stage));

			if (k != st && !(st == -1 && k < 0))
				continue;
			fprintf(out, "  %-8s %-8s %s: %s\n",
				np_severity_name(n->severity >= NP_SEV_OK && n->severity <= NP_SEV_CRITICAL
						 ? (enum np_severity)n->severity : NP_SEV_INFO),
				stage, CLEAN(n->id, id), CLEAN(n->summary, txt));
			if (n->remedy[0])
				fprintf(out, "    fix: %s\n", CLEAN(n->remedy, rem));
		}
}

static const char *ms(double v, char *buf, size_t size)
{
	if (isfinite(v))
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "-");
	return buf;
}

static void path_text(FILE *out, const struct np_path_result *r, const struct np_path_verdict *v)
{
	char a[32], b[32], peer[160], txt[sizeof(v->fix) + 1];

	fprintf(out, "limited by: %s (%s)\n", np_path_limit_name(v->limited_by),
		np_path_side_name(v->side));
	fprintf(out, "peer: %s%s, %u stream%s, %.1f s\n", CLEAN(r->peer, peer),
		r->reverse ? " (reverse: the peer sent)" : "", r->streams,
		r->streams == 1 ? "" : "s", r->duration_s);
	fprintf(out, "throughput: %s", np_path_fmt_bps(r->throughput_bps, a, sizeof(a)));
	fprintf(out, "\nbytes: %llu acked at the sender, %llu counted by the receiver",
		(unsigned long long)r->sender_bytes, (unsigned long long)r->receiver.bytes_counted);
	fprintf(out, "\nrtt: %s ms (median)", ms(v->rtt_ms, a, sizeof(a)));
	fprintf(out, "  min rtt: %s ms  bdp: %s\n", ms(v->min_rtt_ms, a, sizeof(a)),
		np_path_fmt_bytes(v->bdp_bytes, b, sizeof(b)));
	fprintf(out, "loss: %s", isfinite(v->loss_rate) ? "" : "-");
	if (isfinite(v->loss_rate))
		fprintf(out, "%.3f%% of segments retransmitted", 100 * v->loss_rate);
	fprintf(out, "\nlimited time:");
	pct(out, "sndbuf", v->share_sndbuf);
	pct(out, "rwnd", v->share_rwnd);
	pct(out, "app-limited samples", v->share_app_limited);
	fprintf(out, "\n");
	if (isfinite(v->policer_bps))
		fprintf(out, "policer: about %s\n", np_path_fmt_bps(v->policer_bps, a, sizeof(a)));
	for (size_t i = 0; i < r->nsteps && i < NP_PATH_MAX_STEPS; i++)
		fprintf(out, "udp step: offered %s  delivered %s  loss %.1f%%\n",
			np_path_fmt_bps(r->steps[i].offered_bps, a, sizeof(a)),
			np_path_fmt_bps(r->steps[i].delivered_bps, b, sizeof(b)),
			100 * r->steps[i].loss);
	/* The fix names a host the peer reported: through the filter too. */
	if (v->why[0])
		fprintf(out, "why: %s\n", CLEAN(v->why, txt));
	if (v->fix[0])
		fprintf(out, "fix: %s\n", CLEAN(v->fix, txt));
	if (v->cost[0])
		fprintf(out, "cost: %s\n", CLEAN(v->cost, txt));
	end_text(out, "sender", &r->sender);
	end_text(out, "receiver", &r->receiver);
}

void np_render_path_text(FILE *out, const struct np_path_result *r,
			 const struct np_path_verdict *v, int width)
{
	struct np_wrap_stream w;

	path_text(np_wrap_open(&w, out, width), r, v);
	np_wrap_close(&w);
}

static void kv_ll_or_null(struct np_json *j, const char *key, long long v)
{
	if (v < 0)
		np_json_kv_null(j, key);
	else
		np_json_kv_int(j, key, v);
}

static void triple(struct np_json *j, const char *key, const long long v[3])
{
	if (v[0] < 0 || v[1] < 0 || v[2] < 0) {
		np_json_kv_null(j, key);
		return;
	}
	np_json_key_arr_open(j, key);
	for (int i = 0; i < 3; i++)
		np_json_int(j, v[i]);
	np_json_arr_close(j);
}

static void end_facts(struct np_json *j, const char *key, const struct np_path_end *e)
{
	char buf[80];

	np_json_key_obj_open(j, key);
	np_json_kv_bool(j, "present", e->present);
	np_json_kv_str(j, "host", CLEAN(e->host, buf));
	np_json_kv_str(j, "ifname", CLEAN(e->ifname, buf));
	np_json_kv_str(j, "cc", CLEAN(e->cc, buf));
	np_json_kv_str(j, "qdisc", CLEAN(e->qdisc, buf));
	triple(j, "tcp_rmem", e->tcp_rmem);
	triple(j, "tcp_wmem", e->tcp_wmem);
	kv_ll_or_null(j, "rmem_max", e->rmem_max);
	kv_ll_or_null(j, "wmem_max", e->wmem_max);
	np_json_kv_double(j, "cpu_busiest_share", e->cpu_busiest_share);
	np_json_kv_double(j, "softirq_busiest_share", e->softirq_busiest_share);
	np_json_kv_double(j, "rx_drops", e->rx_drops);
	np_json_kv_u64(j, "bytes_counted", e->bytes_counted);
	np_json_obj_close(j);
}

static void end_findings(struct np_json *j, const char *key, const struct np_path_end *e)
{
	np_json_key_arr_open(j, key);
	for (size_t i = 0; i < e->nnotes && i < NP_PATH_MAX_NOTES; i++) {
		const struct np_path_note *n = &e->notes[i];
		char stage[20], id[64], sum[340], rem[530];
		int sev = n->severity >= NP_SEV_OK && n->severity <= NP_SEV_CRITICAL ? n->severity
										      : NP_SEV_INFO;

		np_json_obj_open(j);
		np_json_kv_str(j, "severity", np_severity_name((enum np_severity)sev));
		np_json_kv_str(j, "stage", CLEAN(n->stage, stage));
		np_json_kv_str(j, "id", CLEAN(n->id, id));
		np_json_kv_str(j, "summary", CLEAN(n->summary, sum));
		np_json_kv_str(j, "remedy", CLEAN(n->remedy, rem));
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

static void samples_json(struct np_json *j, const struct np_path_result *r)
{
	np_json_key_arr_open(j, "samples");
	for (size_t i = 0; i < r->nsamples && i < NP_PATH_MAX_SAMPLES; i++) {
		const struct np_path_sample *s = &r->samples[i];

		np_json_obj_open(j);
		np_json_kv_fixed(j, "t_s", s->t_s, 3);
		np_json_kv_double(j, "rtt_ms", s->rtt_ms);
		np_json_kv_double(j, "min_rtt_ms", s->min_rtt_ms);
		np_json_kv_double(j, "cwnd_bytes", s->cwnd_bytes);
		np_json_kv_double(j, "delivery_rate_bps", s->delivery_rate_bps);
		np_json_kv_double(j, "pacing_rate_bps", s->pacing_rate_bps);
		np_json_kv_double(j, "snd_wnd_bytes", s->snd_wnd_bytes);
		np_json_kv_double(j, "sndbuf_bytes", s->sndbuf_bytes);
		np_json_kv_double(j, "notsent_bytes", s->notsent_bytes);
		np_json_kv_u64(j, "bytes_acked", s->bytes_acked);
		np_json_kv_u64(j, "segs_out", s->segs_out);
		np_json_kv_u64(j, "total_retrans", s->total_retrans);
		if (s->have_chrono) {
			np_json_kv_u64(j, "busy_us", s->busy_us);
			np_json_kv_u64(j, "rwnd_limited_us", s->rwnd_limited_us);
			np_json_kv_u64(j, "sndbuf_limited_us", s->sndbuf_limited_us);
		} else {
			np_json_kv_null(j, "busy_us");
			np_json_kv_null(j, "rwnd_limited_us");
			np_json_kv_null(j, "sndbuf_limited_us");
		}
		np_json_kv_u64(j, "app_limited_streams", s->app_limited_streams);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

void np_render_path_json(FILE *out, const struct np_path_result *r,
			 const struct np_path_verdict *v)
{
	struct np_json j;
	char peer[160], txt[sizeof(v->fix) + 1];

	np_json_init(&j, out, true);
	np_json_obj_open(&j);
	np_json_kv_str(&j, "schema", NP_PATH_JSON_SCHEMA);
	np_json_kv_int(&j, "version", NP_PATH_JSON_VERSION);
	np_json_kv_str(&j, "peer", CLEAN(r->peer, peer));
	np_json_kv_str(&j, "limited_by", np_path_limit_name(v->limited_by));
	np_json_kv_str(&j, "side", np_path_side_name(v->side));
	np_json_kv_double(&j, "throughput_bps", r->throughput_bps);
	np_json_kv_double(&j, "rtt_ms", v->rtt_ms);
	np_json_kv_double(&j, "min_rtt_ms", v->min_rtt_ms);
	np_json_kv_double(&j, "bdp_bytes", v->bdp_bytes);
	np_json_kv_double(&j, "loss_rate", v->loss_rate);
	np_json_kv_double(&j, "duration_s", r->duration_s);
	np_json_kv_u64(&j, "streams", r->streams);
	np_json_kv_bool(&j, "reverse", r->reverse);
	np_json_kv_u64(&j, "sender_bytes", r->sender_bytes);
	np_json_kv_u64(&j, "receiver_bytes", r->receiver.bytes_counted);
	np_json_key_obj_open(&j, "evidence");
	np_json_kv_double(&j, "share_rwnd_limited", v->share_rwnd);
	np_json_kv_double(&j, "share_sndbuf_limited", v->share_sndbuf);
	np_json_kv_double(&j, "share_app_limited", v->share_app_limited);
	np_json_kv_double(&j, "policer_bps", v->policer_bps);
	np_json_obj_close(&j);
	np_json_key_obj_open(&j, "fix");
	np_json_kv_str(&j, "text", CLEAN(v->fix, txt));
	np_json_kv_str(&j, "cost", CLEAN(v->cost, txt));
	np_json_obj_close(&j);
	np_json_kv_str(&j, "why", CLEAN(v->why, txt));
	np_json_key_arr_open(&j, "udp_steps");
	for (size_t i = 0; i < r->nsteps && i < NP_PATH_MAX_STEPS; i++) {
		np_json_obj_open(&j);
		np_json_kv_double(&j, "offered_bps", r->steps[i].offered_bps);
		np_json_kv_double(&j, "delivered_bps", r->steps[i].delivered_bps);
		np_json_kv_double(&j, "loss", r->steps[i].loss);
		np_json_obj_close(&j);
	}
	np_json_arr_close(&j);
	samples_json(&j, r);
	np_json_key_obj_open(&j, "findings");
	end_findings(&j, "sender", &r->sender);
	end_findings(&j, "receiver", &r->receiver);
	np_json_obj_close(&j);
	np_json_key_obj_open(&j, "hosts");
	end_facts(&j, "sender", &r->sender);
	end_facts(&j, "receiver", &r->receiver);
	np_json_obj_close(&j);
	np_json_obj_close(&j);
	np_json_end(&j);
}
