/* SPDX-License-Identifier: GPL-2.0-only */
/* trace --stack: the top kernel stacks of drops, symbolised with kallsyms. Pure. */
#ifndef NP_TRACE_STACK_H
#define NP_TRACE_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json_writer.h"
#include "trace.h"
#include "trace_ksyms.h"

/* Stacks shown: the busiest, whatever their reason. */
#define NP_TRACE_STACKS_SHOWN 5
#define NP_TRACE_FRAME_LEN 112

struct np_trace_stack {
	char reason[64];	/* "" on kernels without drop reasons */
	uint64_t count;
	size_t nframes;
	/* Innermost first ("sk_skb_reason_drop+0x4e", "udp_queue_rcv_one_skb+0x2f1", ...),
	 * the tracing machinery above the drop (the BPF program, the tracepoint) left out. */
	char frames[NP_BPF_STACK_DEPTH][NP_TRACE_FRAME_LEN];
};

struct np_trace_stacks {
	bool on;		/* --stack was given (and the rest is empty when not) */
	size_t depth, cap;	/* frames kept per stack; distinct stacks the kernel can hold */
	size_t n;
	struct np_trace_stack *top;	/* the busiest recorded stacks */
	uint64_t total;		/* drops counted with --stack (every stack and the rest) */
	uint64_t other;		/* drops of recorded stacks beyond the top */
	uint64_t unrecorded;	/* drops whose stack the stack map could not take */
	uint64_t unkeyed;	/* drops the (reason, stack) counts map could not take */
};

/*
 * Symbolise IPS (innermost first) into FRAMES: "function+0xoff", or the address in hex when
 * kallsyms does not know it (ks may be NULL). The leading frames of the tracing machinery
 * (bpf_*, __bpf_*, __traceiter_*, perf_*: the program and the tracepoint that called it) are
 * skipped, unless nothing else is left. Returns the number of frames written.
 */
size_t np_trace_stack_symbolize(const uint64_t *ips, size_t n, const struct np_ksyms *ks,
				char frames[][NP_TRACE_FRAME_LEN]);
/* The TOP busiest stacks of raw->stacks (names: reason names; NULL or empty on kernels
 * without reasons). Returns 0 or -ENOMEM (out emptied). */
int np_trace_stacks_build(const struct np_trace_raw *raw, const struct np_reason_names *names,
			  const struct np_ksyms *ks, size_t top, struct np_trace_stacks *out);
void np_trace_stacks_free(struct np_trace_stacks *s);

/* The "stacks" member of trace's JSON (null when s is NULL or off):
 * {"depth", "cap", "total", "other", "unrecorded", "unkeyed",
 *  "top": [{"reason" (null without reasons), "count", "frames": [...]}]}. */
void np_trace_stacks_json(struct np_json *j, const struct np_trace_stacks *s);
/* "Top kernel stacks of drops" and each stack's frames (nothing when off). */
void np_trace_stacks_text(FILE *out, const struct np_trace_stacks *s);

#endif
