/* SPDX-License-Identifier: GPL-2.0-only */
/* The top dropped flows a `record --drops` recording kept (recflows.h): doctor --at, history. */
#ifndef NP_RENDER_RECFLOWS_H
#define NP_RENDER_RECFLOWS_H

#include <stdio.h>

#include "json_writer.h"
#include "recflows.h"

/* One line per flow, each starting with indent: "     1234 drops  vb  FLOW  SOCKET_RCVBUFF". */
void np_render_recflows_text(FILE *out, const struct np_rec_flows *f, const char *indent);
/* The same into a renderer's buffer (outbuf.h). */
struct np_ob;
void np_render_recflows_ob(struct np_ob *out, const struct np_rec_flows *f, const char *indent);
/* An array of {"interface", "reason", "flow", "protocol", "src", "dst", "sport", "dport",
 * "drops"}. */
void np_render_recflows_json(struct np_json *j, const struct np_rec_flows *f);

#endif
