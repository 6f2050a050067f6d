// SPDX-License-Identifier: GPL-2.0-only
/* /proc/net/dev: each interface's rx_packets (the loss ledger's "who else feeds IP"). */
#include "parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * Two header lines, then "  eth0: rx_bytes rx_packets rx_errs ..." (the name is padded and, in
 * kernels before 2.6.33 or so, "eth0:123" had no space after the colon). Only the second
 * number is kept. Lines that do not parse are skipped; none at all is -EINVAL.
 */
/* What the kernel lets a name hold (dev_valid_name): no space, NUL or other control byte; a
 * damaged file's line that breaks this is skipped, not kept as an interface. */
static bool ifname_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			return false;
	return true;
}

int np_parse_proc_net_dev(const char *buf, size_t len, struct np_ifrx *out)
{
	const char *p = buf, *end = buf + len;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *colon = memchr(p, ':', (size_t)(le - p));
		char line[512], *q, *e;
		unsigned long long bytes, pkts;
		size_t n;

		if (colon && (size_t)(le - p) < sizeof(line)) {
			const char *nb = p;

			while (nb < colon && (*nb == ' ' || *nb == '\t'))
				nb++;
			n = (size_t)(colon - nb);
			memcpy(line, colon + 1, (size_t)(le - colon - 1));
			line[le - colon - 1] = '\0';
			errno = 0;
			bytes = strtoull(line, &q, 10);
			pkts = strtoull(q, &e, 10);
			(void)bytes;
			if (n && n < sizeof(out->e[0].name) && q != line && e != q && !errno &&
			    ifname_ok(nb, n)) {
				if (out->n < NP_IFRX_MAX) {
					memcpy(out->e[out->n].name, nb, n);
					out->e[out->n].name[n] = '\0';
					out->e[out->n++].rx_packets = pkts;
				} else {
					out->more++;
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (!out->n && !out->more)
		return -EINVAL;
	out->read = true;
	return 0;
}
