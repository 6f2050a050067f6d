// SPDX-License-Identifier: GPL-2.0-only
/* trace --xdp when netpath was built without BPF: every call says why (NP_BPF_MISSING). */
#include "xdp_attach.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

struct np_xdp_session {
	struct np_xdp_info info;
};

int np_xdp_start(const char *ifname, int ifindex, const struct np_xdp_opts *o,
		 struct np_xdp_session **out, char *err, size_t errlen)
{
	(void)ifname;
	(void)ifindex;
	(void)o;
	*out = NULL;
	snprintf(err, errlen, "--xdp is unavailable: netpath was built without BPF support (%s)",
		 NP_BPF_MISSING);
	return -ENOTSUP;
}

const struct np_xdp_info *np_xdp_session_info(const struct np_xdp_session *x)
{
	return &x->info;
}

int np_xdp_read(struct np_xdp_session *x, struct np_xdp_counts *out)
{
	(void)x;
	memset(out, 0, sizeof(*out));
	return -ENOTSUP;
}

void np_xdp_stop(struct np_xdp_session *x)
{
	(void)x;
}
