/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NP_TRACE_FLOWFAST_H
#define NP_TRACE_FLOWFAST_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* Add the per-CPU (reason -> flow, count) slots of the flow_fast map (fd) to *flows (*n of
 * them, realloc'd), merged with the row of the same key. With taken (the caller's, NULL at
 * first, malloc'd here, the caller frees it), only what was counted since the last call is
 * added: np_trace_take_flows()'s periods. 0 or -errno. */
int np_trace_read_flow_fast(int fd, uint64_t **taken, struct np_trace_raw_flow **flows,
			    size_t *n);

/* The flow_other map (fd): per reason, the drops whose flow found the flows map full, summed
 * over CPUs into out->other (out->ncpu set). 0 or -errno. */
int np_trace_read_flow_other(int fd, struct np_trace_raw *out);

#endif
