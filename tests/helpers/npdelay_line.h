/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shaping model of npdelay (tests/helpers/npdelay.c), one direction of the line, kept
 * apart from the TAP I/O so that its arithmetic can be unit tested. All times are
 * CLOCK_MONOTONIC nanoseconds.
 *
 * A frame arriving at time t either drops or gets a release time:
 *   - serialising bottleneck (rate > 0): it waits behind the bytes still being serialised
 *     (a FIFO of at most queue_bytes, tail drop), then takes len*8/rate to serialise;
 *   - policer (police > 0): a token bucket of `burst` bytes refilled at the rate; a frame
 *     finding too few tokens drops at once, nothing queues;
 *   - then it travels `delay` ns.
 * Release times never decrease, so each direction is one FIFO ring.
 */
#ifndef NPDELAY_LINE_H
#define NPDELAY_LINE_H

#include <stdint.h>

struct np_line {
	uint64_t delay_ns;
	double rate_bps;	/* serialising rate, 0: none */
	uint64_t queue_bytes;	/* tail-drop limit of the serialising queue */
	double police_bps;	/* policer rate, 0: none */
	double burst_bytes;	/* policer bucket depth */
	/* state */
	uint64_t ser_end;	/* when the serialiser is free again */
	double tokens;
	uint64_t tokens_at;
	/* counters (forwarded and drop_ring are npdelay.c's to count) */
	uint64_t forwarded, drop_queue, drop_police, drop_ring;
};

void np_line_init(struct np_line *l, uint64_t delay_ns, double rate_bps, uint64_t queue_bytes,
		  double police_bps, double burst_bytes);
/* The release time of a frame of len bytes arriving at now, or 0 if it drops (counted). */
uint64_t np_line_admit(struct np_line *l, uint64_t now, unsigned int len);

#endif
