// SPDX-License-Identifier: GPL-2.0-only
/* The bandwidth-delay product: the bandwidth and RTT the buffer checks judge by, and where each
 * comes from. */
#include "check.h"

double np_bdp_bytes(double bw_bps, double rtt_ms)
{
	if (isnan(bw_bps) || isnan(rtt_ms) || bw_bps <= 0 || rtt_ms <= 0)
		return NAN;
	return bw_bps / 8.0 * rtt_ms / 1000.0;
}

double np_rtt_covered_ms(double bytes, double bw_bps)
{
	if (isnan(bw_bps) || bw_bps <= 0)
		return NAN;
	return bytes * 8.0 / bw_bps * 1000.0;
}

void np_analysis_derive(struct np_analysis *a)
{
	const struct np_snapshot *s = a->cur;

	a->bw_bps = NAN;
	a->bw_source = "unknown";
	if (a->opt && !isnan(a->opt->bandwidth_bps) && a->opt->bandwidth_bps > 0) {
		a->bw_bps = a->opt->bandwidth_bps;
		a->bw_source = "--bandwidth";
	} else if (np_has(s->dev.speed_mbps) && s->dev.speed_mbps > 0) {
		a->bw_bps = (double)s->dev.speed_mbps * 1e6;
		a->bw_source = np_dev_is_virtual(s) ? "link speed beneath" : "link speed";
	}
	a->rtt_ms = NAN;
	a->rtt_source = "unknown";
	if (a->opt && !isnan(a->opt->rtt_ms) && a->opt->rtt_ms > 0) {
		a->rtt_ms = a->opt->rtt_ms;
		a->rtt_source = "--rtt";
	} else if (np_src_ok(s, NP_SRC_SOCK_DIAG) &&
		   s->socks.min_rtt_n >= NP_SOCK_RTT_MIN_SAMPLES && s->socks.min_rtt_p90_ms > 0) {
		/* Live sockets (loopback excluded): their min RTT is the path's, without the
		 * queueing and delayed-ACK inflation of the smoothed RTT. */
		a->rtt_ms = s->socks.min_rtt_p90_ms;
		a->rtt_source = s->socks.rtt_source;
	}
}
