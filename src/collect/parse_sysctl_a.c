// SPDX-License-Identifier: GPL-2.0-only
/*
 * `sysctl -a` text ("net.core.rmem_max = 212992", "net.ipv4.tcp_rmem = 4096\t131072\t6291456"),
 * as sos keeps it in sos_commands/kernel/sysctl_-a: one key's value. procps-ng prints a key
 * whose name holds a '.' (an interface eth0.100) with '/' in its place; the caller asks for
 * that spelling.
 */
#include "sos_text.h"
#include "parse_util.h"
#include "text_util.h"

#include <errno.h>
#include <string.h>

int np_parse_sysctl_a_find(const char *buf, size_t len, const char *key, char *val, size_t size)
{
	size_t pos = 0, ll, kl = strlen(key);
	const char *l;

	if (!size)
		return -EINVAL;
	val[0] = '\0';
	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice s;
		const char *eq;

		/* "key = value": the key never holds " = ". */
		if (ll < kl + 2 || memcmp(l, key, kl) != 0)
			continue;
		s = np_trim((struct np_slice){ l + kl, ll - kl });
		if (!s.n || s.p[0] != '=')
			continue;
		eq = s.p;
		s = np_trim((struct np_slice){ eq + 1, (size_t)(l + ll - eq - 1) });
		if (s.n >= size)
			return -ERANGE;
		/* Tabs separate the values of a vector; keep them, defang the rest. */
		for (size_t i = 0; i < s.n; i++) {
			unsigned char c = (unsigned char)s.p[i];

			val[i] = (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c;
		}
		val[s.n] = '\0';
		return 0;
	}
	return len ? -ENOENT : -ENODATA;
}
