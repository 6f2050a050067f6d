// SPDX-License-Identifier: GPL-2.0-only
/*
 * lscpu text: the CPU count and the online list. Tested against util-linux 2.38.1 (Debian 12),
 * the 2.37+ indented layout ("  On-line CPU(s) list:   0,1") and the older flat one with an
 * "Off-line CPU(s) list:" line (insights-core's LSCPU_1/2/3).
 */
#include "sos_text.h"
#include "parse.h"
#include "parse_util.h"
#include "text_util.h"

#include <errno.h>
#include <string.h>

int np_parse_lscpu(const char *buf, size_t len, unsigned *ncpu, struct np_cpuset *online)
{
	size_t pos = 0, ll;
	const char *l;
	bool have_list = false;
	unsigned bad = 0, total = 0;

	*ncpu = 0;
	memset(online, 0, sizeof(*online));
	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice k, v;
		uint64_t x;

		if (!np_kv_split(l, ll, false, &k, &v))
			continue;
		if (np_slice_eq(k, "CPU(s)")) {
			if (np_slice_u64(v, &x) > 0 && x > 0 && x <= NP_MAX_CPUS)
				total = (unsigned)x;
			else
				bad++;
		} else if (np_slice_eq(k, "On-line CPU(s) list")) {
			char list[512];

			np_slice_copy(list, sizeof(list), v);
			if (v.n < sizeof(list) && np_parse_cpulist(list, online) == 0)
				have_list = true;
			else
				bad++;
		}
	}
	if (have_list)
		*ncpu = np_cpuset_count(online);
	else if (total)
		*ncpu = total;	/* no list: the count alone (all CPUs, online or not) */
	if (!*ncpu)
		return len ? (bad ? -EBADMSG : -EINVAL) : -ENODATA;
	return bad ? -EBADMSG : 0;
}
