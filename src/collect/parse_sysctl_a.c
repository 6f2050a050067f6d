// SPDX-License-Identifier: GPL-2.0-only
/*
 * `sysctl -a` text ("net.core.rmem_max = 212992", "net.ipv4.tcp_rmem = 4096\t131072\t6291456"),
 * as sos keeps it in sos_commands/kernel/sysctl_-a: every line once, or one key's value.
 * procps-ng prints a key whose name holds a '.' (an interface eth0.100) with '/' in its place;
 * callers match that spelling.
 */
#include "sos_text.h"
#include "parse_util.h"
#include "text_util.h"

#include <errno.h>
#include <string.h>

int np_parse_sysctl_a_each(const char *buf, size_t len, np_sysctl_a_fn fn, void *arg)
{
	size_t pos = 0, ll;
	const char *l;

	len = np_text_len(buf, len);
	if (!len)
		return -ENODATA;
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		/* "key = value": the key starts the line and never holds a '='. */
		const char *eq = memchr(l, '=', ll);
		struct np_slice k, v;
		int r;

		if (!eq)
			continue;
		k = np_trim((struct np_slice){ l, (size_t)(eq - l) });
		if (!k.n || k.p != l || ll < k.n + 2)
			continue;
		v = np_trim((struct np_slice){ eq + 1, (size_t)(l + ll - eq - 1) });
		r = fn(k.p, k.n, v.p, v.n, arg);
		if (r)
			return r;
	}
	return 0;
}

int np_parse_sysctl_a_value(const char *v, size_t n, char *val, size_t size)
{
	if (!size)
		return -EINVAL;
	val[0] = '\0';
	if (n >= size)
		return -ERANGE;
	/* Tabs separate the values of a vector; keep them, defang the rest. */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];

		val[i] = (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c;
	}
	val[n] = '\0';
	return 0;
}

struct find {
	const char *key;
	size_t kl;
	char *val;
	size_t size;
	int r;
};

static int find_one(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	struct find *f = arg;

	if (kl != f->kl || memcmp(k, f->key, kl) != 0)
		return 0;
	f->r = np_parse_sysctl_a_value(v, vl, f->val, f->size);
	return 1;	/* the first line of a key counts */
}

int np_parse_sysctl_a_find(const char *buf, size_t len, const char *key, char *val, size_t size)
{
	struct find f = { key, strlen(key), val, size, -ENOENT };
	int r;

	if (!size)
		return -EINVAL;
	val[0] = '\0';
	r = np_parse_sysctl_a_each(buf, len, find_one, &f);
	return r < 0 ? r : f.r;
}
