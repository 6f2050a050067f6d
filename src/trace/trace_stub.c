// SPDX-License-Identifier: GPL-2.0-only
/* The tracer when netpath was built without BPF: every call says why (NP_BPF_MISSING). */
#include "trace.h"

#include <errno.h>
#include <stdio.h>

#include "config.h"

int np_trace_start(const char *ifname, const struct np_trace_opts *opt, struct np_tracer **out,
		   char *err, size_t errlen)
{
	(void)ifname;
	(void)opt;
	*out = NULL;
	snprintf(err, errlen, "built without BPF support: %s", NP_BPF_MISSING);
	return -ENOTSUP;
}

int np_trace_read(struct np_tracer *t, struct np_trace_raw *out)
{
	(void)t;
	(void)out;
	return -ENOTSUP;
}

int np_trace_peek(struct np_tracer *t, struct np_trace_raw *out)
{
	(void)t;
	(void)out;
	return -ENOTSUP;
}

int np_trace_take_flows(struct np_tracer *t, struct np_trace_raw_flow **out, size_t *n)
{
	(void)t;
	*out = NULL;
	*n = 0;
	return -ENOTSUP;
}

int np_trace_ifindex(const struct np_tracer *t)
{
	(void)t;
	return 0;
}

const struct np_reason_names *np_trace_names(const struct np_tracer *t)
{
	(void)t;
	return NULL;
}

uint32_t np_trace_netns_inum(const struct np_tracer *t)
{
	(void)t;
	return 0;
}

void np_trace_stop(struct np_tracer *t)
{
	(void)t;
}
