// SPDX-License-Identifier: GPL-2.0-only
/*
 * STUB, deleted at the merge (with the rest of src/cmd/stub/): stands in for p34-verdict's
 * np_path_judge() and renderers so that serve and path can be built and tested on their own.
 * It judges nothing (limited_by "unknown") and prints the few fields the wire's tests read.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "path_verdict.h"
#include "render_path.h"

void np_path_judge(const struct np_path_result *r, struct np_path_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->rtt_ms = v->min_rtt_ms = v->bdp_bytes = v->loss_rate = NAN;
	v->share_rwnd = v->share_sndbuf = v->share_app_limited = v->policer_bps = NAN;
	if (r->nsamples > 0) {
		v->rtt_ms = r->samples[r->nsamples / 2].rtt_ms;
		v->min_rtt_ms = r->samples[r->nsamples - 1].min_rtt_ms;
	}
}

const char *np_path_limit_name(enum np_path_limit l)
{
	return l == NP_LIMIT_UNKNOWN ? "unknown" : "stub";
}

const char *np_path_side_name(enum np_path_side s)
{
	return s == NP_SIDE_UNKNOWN ? "unknown" : "stub";
}

static double throughput(const struct np_path_result *r)
{
	return r->throughput_bps;
}

void np_render_path_text(FILE *out, const struct np_path_result *r,
			 const struct np_path_verdict *v, int width)
{
	(void)width;
	fprintf(out, "limited by: %s (%s)\nthroughput: %.0f bit/s over %.1f s, %u stream(s)\n",
		np_path_limit_name(v->limited_by), np_path_side_name(v->side), throughput(r),
		r->duration_s, r->streams);
	for (size_t i = 0; i < r->receiver.nnotes; i++)
		fprintf(out, "receiver: %s: %s\n", r->receiver.notes[i].id,
			r->receiver.notes[i].summary);
	for (size_t i = 0; i < r->sender.nnotes; i++)
		fprintf(out, "sender: %s: %s\n", r->sender.notes[i].id, r->sender.notes[i].summary);
	for (size_t i = 0; i < r->nsteps; i++)
		fprintf(out, "udp step: offered %.0f delivered %.0f loss %.3f\n",
			r->steps[i].offered_bps, r->steps[i].delivered_bps, r->steps[i].loss);
}

void np_render_path_json(FILE *out, const struct np_path_result *r,
			 const struct np_path_verdict *v)
{
	fprintf(out, "{\"schema\": \"netpath-path/1\", \"limited_by\": \"%s\", "
		"\"throughput_bps\": %.0f, \"duration_s\": %.3f, \"streams\": %u, "
		"\"reverse\": %s, \"sender_bytes\": %" PRIu64 ", \"receiver_bytes\": %" PRIu64
		", \"nsamples\": %zu, \"nsteps\": %zu, \"sender_notes\": %zu, "
		"\"receiver_notes\": %zu, \"receiver_host\": \"%s\", \"receiver_ifname\": \"%s\"}\n",
		np_path_limit_name(v->limited_by), throughput(r), r->duration_s, r->streams,
		r->reverse ? "true" : "false", r->sender_bytes, r->receiver.bytes_counted,
		r->nsamples, r->nsteps, r->sender.nnotes, r->receiver.nnotes, r->receiver.host,
		r->receiver.ifname);
}
