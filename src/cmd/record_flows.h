/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading back the top dropped flows that `record --drops` keeps a minute (record_drops.h). */
#ifndef NP_RECORD_FLOWS_H
#define NP_RECORD_FLOWS_H

#include <stdint.h>

#include "recflows.h"

/* The top flows of the minutes that start in [from, to) (unix seconds), summed by interface
 * and flow over them, the NP_REC_FLOWS_MAX with the most drops. out->recorded is false when
 * the recording holds no top flows for any of them (made without --drops, a gap). 0 or
 * -errno. */
int np_rec_flows_read(const char *dir, int64_t from, int64_t to, struct np_rec_flows *out);

#endif
