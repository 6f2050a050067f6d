// SPDX-License-Identifier: GPL-2.0-only
/*
 * iproute2's `nstat` text ("nstat -zas", "nstat -az", sosreport's
 * sos_commands/networking/nstat_-zas) into the counter table /proc/net/{snmp,netstat}
 * fill: nstat already prints the names the checks read ("UdpRcvbufErrors 1953207 0.0").
 *
 * Layout (iproute2 misc/nstat.c, every version since 2.6.x): an optional "#kernel" line,
 * then one counter per line: name, absolute value, and a rate column ("0.0") that we ignore.
 * Without -z zero counters are absent (absent reads as 0 to the checks, which is what they
 * were). "nstat -j" (JSON) is not supported: sos does not collect it.
 */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool is_name(const char *t, size_t tl)
{
	if (!tl || !((t[0] >= 'A' && t[0] <= 'Z') || (t[0] >= 'a' && t[0] <= 'z')))
		return false;
	for (size_t i = 0; i < tl; i++)
		if (!((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= 'a' && t[i] <= 'z') ||
		      (t[i] >= '0' && t[i] <= '9') || t[i] == '_'))
			return false;
	return true;
}

/* The rate column: digits and at most one dot ("0.0", "12"). */
static bool is_rate(const char *t, size_t tl)
{
	int dots = 0;

	if (!tl)
		return false;
	for (size_t i = 0; i < tl; i++) {
		if (t[i] == '.')
			dots++;
		else if (t[i] < '0' || t[i] > '9')
			return false;
	}
	return dots <= 1;
}

int np_parse_nstat_text(const char *buf, size_t len, struct np_counters *out)
{
	const char *l;
	size_t ll, pos = 0, added = 0;
	int ret = 0;

	while (np_line_next(buf, len, &pos, &l, &ll)) {
		const char *name, *val, *rate, *extra;
		size_t nl, vl, rl, xl, i = 0;
		char key[NP_COUNTER_NAME_MAX];
		uint64_t v;

		if (!np_tok_next(l, ll, &i, &name, &nl))
			continue;
		if (name[0] == '#')	/* "#kernel", "#24350,sampling" header lines */
			continue;
		if (!np_tok_next(l, ll, &i, &val, &vl) || !np_tok_u64(val, vl, &v) ||
		    !is_name(name, nl) || nl >= NP_COUNTER_NAME_MAX) {
			ret = -EBADMSG;
			continue;
		}
		if (np_tok_next(l, ll, &i, &rate, &rl) &&
		    (!is_rate(rate, rl) || np_tok_next(l, ll, &i, &extra, &xl))) {
			ret = -EBADMSG;
			continue;
		}
		memcpy(key, name, nl);
		key[nl] = '\0';
		if (np_counters_append(out, key, v))
			return -ENOMEM;
		added++;
	}
	if (!added)
		return -EINVAL;
	return ret;
}
