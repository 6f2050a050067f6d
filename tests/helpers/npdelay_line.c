// SPDX-License-Identifier: GPL-2.0-only
/* The shaping model of one direction of npdelay; see npdelay_line.h. */
#include "npdelay_line.h"

void np_line_init(struct np_line *l, uint64_t delay_ns, double rate_bps, uint64_t queue_bytes,
		  double police_bps, double burst_bytes)
{
	*l = (struct np_line){ .delay_ns = delay_ns, .rate_bps = rate_bps,
			       .queue_bytes = queue_bytes, .police_bps = police_bps,
			       .burst_bytes = burst_bytes, .tokens = burst_bytes };
}

uint64_t np_line_admit(struct np_line *l, uint64_t now, unsigned int len)
{
	uint64_t t = now;

	if (l->police_bps > 0) {
		if (l->tokens_at == 0)
			l->tokens_at = now;
		l->tokens += (double)(now - l->tokens_at) * l->police_bps / 8e9;
		if (l->tokens > l->burst_bytes)
			l->tokens = l->burst_bytes;
		l->tokens_at = now;
		if (l->tokens < len) {
			l->drop_police++;
			return 0;
		}
		l->tokens -= len;
	}
	if (l->rate_bps > 0) {
		/* Bytes still waiting: what the serialiser has yet to send at this rate. */
		uint64_t start = l->ser_end > now ? l->ser_end : now;
		double backlog = (double)(start - now) * l->rate_bps / 8e9;

		if (backlog + len > (double)l->queue_bytes) {
			l->drop_queue++;
			return 0;
		}
		l->ser_end = start + (uint64_t)((double)len * 8e9 / l->rate_bps);
		t = l->ser_end;
	}
	return t + l->delay_ns;
}
