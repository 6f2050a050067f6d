/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NP_TRACE_DROPFAST_H
#define NP_TRACE_DROPFAST_H

#include "trace.h"

/* Add the per-CPU (reason -> location, count) slots of the drop_fast map (fd) to out->drops,
 * merged with the rows of the same (reason, location). out->ncpu set. 0 or -errno. */
int np_trace_read_drop_fast(int fd, struct np_trace_raw *out);
/* A per-CPU array keyed by drop reason (NP_BPF_MAX_REASONS keys, val_size bytes a CPU) into
 * vals, reason-major. 0 or -errno. */
int np_trace_read_reason_array(int fd, unsigned int ncpu, void *vals, size_t val_size);

#endif
