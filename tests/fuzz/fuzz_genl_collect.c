// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the ethtool netlink and netdev qstats collectors end to end over the replay transport:
 * the input is the kernel's side of the conversation, one record per receive, in the order the
 * collectors ask (family lookups, then one request per source). A record is a little-endian
 * u16 length and that many bytes; length 0 is a receive error (the next byte picks which).
 * The messages of a record that carry its first message's sequence number get the request's
 * (as the kernel would send them); others stay stale replies to skip.
 */
#include "fuzz.h"
#include "ethtool_nl.h"
#include "netdev_qstats.h"
#include "snapshot.h"

struct feed {
	const uint8_t *p;
	size_t left;
};

static ssize_t replay(void *arg, const struct nlmsghdr *req, void *buf, size_t size)
{
	static const int errs[] = { -ENOBUFS, -EAGAIN, -EMSGSIZE, -EINTR, -ENOMEM };
	struct feed *f = arg;
	uint16_t n;
	uint32_t own = 0;
	size_t off = 0;

	if (f->left < 2)
		return 0;	/* silence: the collector sees a receive timeout */
	n = (uint16_t)(f->p[0] | f->p[1] << 8);
	f->p += 2;
	f->left -= 2;
	if (n == 0) {
		int e = f->left ? errs[f->p[0] % 5] : -ENOBUFS;

		if (f->left) {
			f->p++;
			f->left--;
		}
		return e;
	}
	if (n > f->left)
		n = (uint16_t)f->left;
	if (n > size)
		n = (uint16_t)size;
	memcpy(buf, f->p, n);
	f->p += n;
	f->left -= n;
	while (off + sizeof(struct nlmsghdr) <= n) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)buf + off);

		if (off == 0)
			own = nlh->nlmsg_seq;
		if (nlh->nlmsg_seq == own)
			nlh->nlmsg_seq = req->nlmsg_seq;
		/* NLMSG_ALIGN() of a length near 4 GiB wraps to 0: stop at what cannot fit. */
		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > n - off)
			break;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct feed f = { data, size };
	struct np_snapshot *s = malloc(sizeof(*s));
	struct np_nl g;

	FUZZ_CHECK(s);
	np_snapshot_init(s);
	snprintf(s->ifname, sizeof(s->ifname), "eth9");
	FUZZ_CHECK(np_genl_open_replay(&g, replay, &f) == 0);
	np_ethtool_nl_collect(&g, s);
	np_qstats_collect(&g, s, 9);
	np_nl_close(&g);
	for (int i = 0; i < NP_SRC__COUNT; i++)
		FUZZ_CHECK(strnlen(np_srcp(s, i)->detail, sizeof(np_srcp(s, i)->detail)) <
			   sizeof(np_srcp(s, i)->detail));
	np_snapshot_free(s);
	free(s);
	return 0;
}
