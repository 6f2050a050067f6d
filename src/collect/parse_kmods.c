// SPDX-License-Identifier: GPL-2.0-only
/* depmod's lists (modules.builtin, modules.dep): is a module named in them? */
#include <errno.h>
#include <string.h>

#include "parse.h"

/* "kernel/net/ipv4/tcp_bbr.ko", with the compressed forms depmod lists (.ko.xz, .ko.zst,
 * .ko.gz), as the first field of a line (modules.dep: "PATH: DEPS"). */
static bool field_is(const char *p, size_t len, const char *relpath)
{
	static const char *const suffixes[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	size_t n = strlen(relpath);

	if (len <= n || memcmp(p, relpath, n) != 0)
		return false;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (len - n == strlen(suffixes[i]) && !memcmp(p + n, suffixes[i], len - n))
			return true;
	return false;
}

int np_parse_kmod_listed(const char *buf, size_t len, const char *relpath)
{
	const char *p = buf, *end = buf + len;

	if (!relpath || !relpath[0])
		return -EINVAL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *colon = memchr(p, ':', (size_t)(eol - p));
		const char *fend = colon ? colon : eol;

		/* A NUL inside the text ends nothing: the field just does not match. */
		if (field_is(p, (size_t)(fend - p), relpath))
			return 1;
		p = eol + 1;
	}
	return 0;
}
