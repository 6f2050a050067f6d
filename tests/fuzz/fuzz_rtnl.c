// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the rtnetlink stream walker (links, qdisc dumps, nsid replies, errors with extended
 * ack, DONE) and, message by message, the RTM_NEWLINK, RTM_NEWQDISC and RTM_NEWNSID parsers
 * with the bytes really left.
 */
#include "fuzz.h"
#include "rtnl.h"
#include "nic.h"

static void check(const struct np_rtnl *r)
{
	FUZZ_CHECK(r->nqdisc <= NP_RTNL_MAX_QDISCS);
	FUZZ_CHECK(strnlen(r->operstate, sizeof(r->operstate)) < sizeof(r->operstate));
	FUZZ_CHECK(strnlen(r->ifname, sizeof(r->ifname)) < sizeof(r->ifname));
	FUZZ_CHECK(r->link_netnsid >= -1);
	for (size_t i = 0; i < r->nqdisc; i++)
		FUZZ_CHECK(strnlen(r->qdiscs[i].kind, sizeof(r->qdiscs[i].kind)) <
			   sizeof(r->qdiscs[i].kind));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf = fuzz_copy(data, size);
	struct np_rtnl_stream st = { 0 };
	struct np_rtnl r;
	size_t off = 0;
	int err;

	if (size >= sizeof(struct nlmsghdr)) {
		st.seq = ((const struct nlmsghdr *)(const void *)buf)->nlmsg_seq;
		st.portid = ((const struct nlmsghdr *)(const void *)buf)->nlmsg_pid;
	}
	np_rtnl_init(&r);
	err = np_rtnl_parse_stream(buf, size, &st, &r);
	/* An errno the callers can print: strerror(-err). */
	FUZZ_CHECK(err <= 0 && err >= -4095 && st.err >= -4095);
	FUZZ_CHECK(strnlen(st.msg, sizeof(st.msg)) < sizeof(st.msg));
	FUZZ_CHECK(!st.got_nsid || st.nsid >= -1);
	check(&r);
	np_rtnl_free(&r);

	/* Each message on its own, told how many bytes follow it. */
	np_rtnl_init(&r);
	while (size - off >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const void *)(buf + off);
		int ifindex, nsid;

		err = np_rtnl_parse_link(nlh, size - off, &r, &ifindex);
		FUZZ_CHECK(err == 0 || err == -EINVAL || err == -EBADMSG);
		err = np_rtnl_parse_qdisc(nlh, size - off, &r, 0);
		FUZZ_CHECK(err <= 1);
		nsid = 7;
		err = np_rtnl_parse_nsid(nlh, size - off, &nsid);
		FUZZ_CHECK(err == 0 || err == -EINVAL || err == -EBADMSG);
		FUZZ_CHECK(err == -EINVAL ? nsid == 7 : nsid >= -1);
		/* (NLMSG_ALIGN() of a length near 4 GiB wraps to 0: compare the length first.) */
		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len >= size - off ||
		    NLMSG_ALIGN(nlh->nlmsg_len) >= size - off)
			break;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	check(&r);
	np_rtnl_free(&r);
	free(buf);
	return 0;
}
