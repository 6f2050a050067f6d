// SPDX-License-Identifier: GPL-2.0-only
/*
 * lspci -vv text (sos: lspci_-nnvv, lspci_-nvv on sos 3.0-3.2): the PCI Express link of one
 * device. Tested against pciutils 3.9.0 (Debian 12; a VM whose virtio NIC has no Express
 * capability) and lspci's documented line formats, which have been stable since pciutils 3.x:
 *   "00:03.0 Ethernet controller [0200]: ..."        (a device's first line, no indent)
 *   "\t\tDevCap:\tMaxPayload 512 bytes, PhantFunc 0, Latency L0s ..."
 *   "\t\tDevCtl:\tCorrErr- ...\n\t\t\tRlxdOrd+ ExtTag+ ... \n\t\t\tMaxPayload 256 bytes, MaxReadReq 512 bytes"
 *   "\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x8, ASPM L1, ..."
 *   "\t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x4 (downgraded)"
 * A device without an Express capability (emulated PCI, virtio) gives -ENOENT with *p untouched.
 */
#include "sos_text.h"
#include "parse.h"
#include "parse_util.h"
#include "text_util.h"

#include <errno.h>
#include <string.h>

/* "0000:06:00.0" and "06:00.0" name the same device (lspci leaves domain 0 out without -D). */
static bool same_bdf(struct np_slice line_bdf, const char *want)
{
	size_t wl = strlen(want);

	if (np_slice_eq(line_bdf, want))
		return true;
	if (wl > 5 && memcmp(want, "0000:", 5) == 0 &&
	    np_slice_eq(line_bdf, want + 5))
		return true;
	return line_bdf.n > 5 && memcmp(line_bdf.p, "0000:", 5) == 0 && wl == line_bdf.n - 5 &&
	       memcmp(line_bdf.p + 5, want, wl) == 0;
}

/* After "Speed": "8GT/s" or "2.5GT/s" (also "16GT/s,"), as MT/s. */
static bool speed_after(struct np_slice s, uint64_t *out)
{
	char num[16];
	size_t i = 0, k;
	const char *p = NULL;

	for (k = 0; k + 6 <= s.n; k++)
		if (memcmp(s.p + k, "Speed ", 6) == 0) {
			p = s.p + k + 6;
			break;
		}
	if (!p)
		return false;
	while (p + i < s.p + s.n && i < sizeof(num) - 1 &&
	       ((p[i] >= '0' && p[i] <= '9') || p[i] == '.'))
		num[i] = p[i], i++;
	num[i] = '\0';
	if (!i || p + i + 4 > s.p + s.n || memcmp(p + i, "GT/s", 4) != 0)
		return false;
	return np_parse_pcie_speed(num, out) == 0;
}

/* After "Width x": the lane count. */
static bool width_after(struct np_slice s, uint64_t *out)
{
	for (size_t k = 0; k + 7 <= s.n; k++)
		if (memcmp(s.p + k, "Width x", 7) == 0) {
			uint64_t w = 0;
			size_t i = k + 7;

			if (i >= s.n || s.p[i] < '0' || s.p[i] > '9')
				return false;
			for (; i < s.n && s.p[i] >= '0' && s.p[i] <= '9' && w < 1000; i++)
				w = w * 10 + (uint64_t)(s.p[i] - '0');
			*out = w;
			return true;
		}
	return false;
}

/* "MaxPayload 256 bytes" / "MaxReadReq 512 bytes" anywhere in s. */
static bool bytes_after(struct np_slice s, const char *word, uint64_t *out)
{
	size_t wl = strlen(word);

	for (size_t k = 0; k + wl + 1 < s.n; k++)
		if (memcmp(s.p + k, word, wl) == 0 && s.p[k + wl] == ' ') {
			uint64_t v = 0;
			size_t i = k + wl + 1;

			if (s.p[i] < '0' || s.p[i] > '9')
				return false;
			for (; i < s.n && s.p[i] >= '0' && s.p[i] <= '9' && v < 1000000; i++)
				v = v * 10 + (uint64_t)(s.p[i] - '0');
			*out = v;
			return true;
		}
	return false;
}

int np_parse_lspci_link(const char *buf, size_t len, const char *bdf, struct np_pcie *p)
{
	size_t pos = 0, ll;
	const char *l;
	bool in = false, found_dev = false, express = false, in_devctl = false;
	unsigned bad = 0;

	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice s = { l, ll };

		if (ll && l[0] != '\t' && l[0] != ' ') {
			/* A device's first line: "06:00.0 Ethernet controller ...". */
			const char *sp = memchr(l, ' ', ll);

			if (in)
				break;
			if (sp && same_bdf((struct np_slice){ l, (size_t)(sp - l) }, bdf)) {
				in = found_dev = true;
			}
			continue;
		}
		if (!in)
			continue;
		s = np_trim(s);
		if (np_slice_starts(s, "Capabilities:") && np_slice_starts(np_trim((struct np_slice){
				s.p + 13, s.n - 13 }), "[")) {
			in_devctl = false;
			continue;
		}
		if (np_slice_starts(s, "DevCap:")) {
			express = true;
			in_devctl = false;
			if (!bytes_after(s, "MaxPayload", &p->mps_supported))
				bad++;
		} else if (np_slice_starts(s, "DevCtl:")) {
			in_devctl = true;
			bytes_after(s, "MaxPayload", &p->mps);
			bytes_after(s, "MaxReadReq", &p->mrrs);
		} else if (np_slice_starts(s, "LnkCap:")) {
			in_devctl = false;
			express = true;
			/* Both are tried: a damaged speed still leaves the width. */
			bool sp = speed_after(s, &p->max_speed), wd = width_after(s, &p->max_width);

			if (!sp || !wd)
				bad++;
		} else if (np_slice_starts(s, "LnkSta:")) {
			in_devctl = false;
			bool sp = speed_after(s, &p->cur_speed), wd = width_after(s, &p->cur_width);

			if (!sp || !wd)
				bad++;
		} else if (in_devctl && !memchr(s.p, ':', s.n)) {
			/* DevCtl's continuation lines: "MaxPayload 256 bytes, MaxReadReq 512 bytes". */
			bytes_after(s, "MaxPayload", &p->mps);
			bytes_after(s, "MaxReadReq", &p->mrrs);
		} else {
			in_devctl = false;
		}
	}
	if (!found_dev)
		return len ? -ENOENT : -ENODATA;
	if (!express)
		return -ENOENT;
	return bad ? -EBADMSG : 0;
}
