// SPDX-License-Identifier: GPL-2.0-only
/* Netlink messages as bytes: the reply walker, NLMSG_ERROR/DONE with extack, attributes. */
#include "nl_msg.h"

#include <errno.h>
#include <string.h>
#include <linux/netlink.h>

int np_nl_attrs(const void *payload, size_t len, const struct nlattr **tb, unsigned maxtype)
{
	const char *p = payload;

	memset(tb, 0, (maxtype + 1) * sizeof(*tb));
	while (len >= sizeof(struct nlattr)) {
		const struct nlattr *a = (const struct nlattr *)p;
		unsigned type = a->nla_type & NLA_TYPE_MASK;
		size_t step;

		if (a->nla_len < sizeof(struct nlattr) || a->nla_len > len)
			return -EBADMSG;
		if (type <= maxtype)
			tb[type] = a;
		step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return 0;
		p += step;
		len -= step;
	}
	return len ? -EBADMSG : 0;
}

int np_nest_attrs(const struct nlattr *nest, const struct nlattr **tb, unsigned maxtype)
{
	return np_nl_attrs(mnl_attr_get_payload(nest), mnl_attr_get_payload_len(nest), tb, maxtype);
}

int np_nest_check(const struct nlattr *nest)
{
	const struct nlattr *tb[1];

	return np_nest_attrs(nest, tb, 0);
}

const char *np_attr_str(const struct nlattr *a)
{
	const char *p = mnl_attr_get_payload(a);
	size_t n = mnl_attr_get_payload_len(a);

	return n && strnlen(p, n) < n ? p : NULL;
}

int np_attr_u8(const struct nlattr *a, uint8_t *v)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EBADMSG;
	*v = *(const uint8_t *)mnl_attr_get_payload(a);
	return 0;
}

int np_attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EBADMSG;
	memcpy(v, mnl_attr_get_payload(a), sizeof(*v));
	return 0;
}

int np_attr_u64(const struct nlattr *a, uint64_t *v)
{
	/* memcpy: 64-bit attributes are only 4-byte aligned in the message. */
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EBADMSG;
	memcpy(v, mnl_attr_get_payload(a), sizeof(*v));
	return 0;
}

int np_attr_uint(const struct nlattr *a, uint64_t *v)
{
	const void *p = mnl_attr_get_payload(a);
	uint32_t u32;
	uint16_t u16;

	switch (mnl_attr_get_payload_len(a)) {
	case 1: *v = *(const uint8_t *)p; return 0;
	case 2: memcpy(&u16, p, 2); *v = u16; return 0;
	case 4: memcpy(&u32, p, 4); *v = u32; return 0;
	case 8: memcpy(v, p, 8); return 0;
	}
	return -EBADMSG;
}

/* Copy NLMSGERR_ATTR_MSG from the TLVs that follow an error or a DONE payload. */
static void extack_msg(const char *tlv, size_t len, char *errmsg, size_t errlen)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MSG + 1];
	size_t n;

	np_nl_attrs(tlv, len, tb, NLMSGERR_ATTR_MSG);	/* a damaged tail keeps what parsed */
	if (!tb[NLMSGERR_ATTR_MSG] || !errmsg || !errlen)
		return;
	n = mnl_attr_get_payload_len(tb[NLMSGERR_ATTR_MSG]);
	n = strnlen(mnl_attr_get_payload(tb[NLMSGERR_ATTR_MSG]), n);
	if (n >= errlen)
		n = errlen - 1;
	memcpy(errmsg, mnl_attr_get_payload(tb[NLMSGERR_ATTR_MSG]), n);
	errmsg[n] = '\0';
}

/* The kernel's errors are -1..-4095 (MAX_ERRNO); anything else (INT_MIN cannot even be
 * negated) is a damaged message, not an errno to hand to strerror(). */
static int kernel_errno(int e)
{
	if (e < 0)
		return e >= -4095 ? e : -EPROTO;
	return e <= 4095 ? -e : -EPROTO;
}

int np_nl_error(const struct nlmsghdr *nlh, char *errmsg, size_t errlen)
{
	const char *pl = mnl_nlmsg_get_payload(nlh);
	size_t plen = nlh->nlmsg_len - NLMSG_HDRLEN, off;
	struct nlmsgerr e;

	if (plen < sizeof(int))
		return -EBADMSG;
	memset(&e, 0, sizeof(e));
	memcpy(&e, pl, plen < sizeof(e) ? plen : sizeof(e));
	if (e.error == 0)
		return 0;	/* an ACK; a warning in its extack is not our business */
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && plen >= sizeof(e)) {
		/* Without NETLINK_CAP_ACK the kernel echoes our whole request first. */
		off = sizeof(e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && e.msg.nlmsg_len > NLMSG_HDRLEN)
			off += e.msg.nlmsg_len - NLMSG_HDRLEN;
		off = NLMSG_ALIGN(off);
		if (off < plen)
			extack_msg(pl + off, plen - off, errmsg, errlen);
	}
	return kernel_errno(e.error);
}

static int run_done(const struct nlmsghdr *nlh, char *errmsg, size_t errlen)
{
	const char *pl = mnl_nlmsg_get_payload(nlh);
	size_t plen = nlh->nlmsg_len - NLMSG_HDRLEN;
	int err;

	if (plen < sizeof(int))
		return 0;	/* pre-4.x kernels sent an empty DONE */
	memcpy(&err, pl, sizeof(err));
	if (err && (nlh->nlmsg_flags & NLM_F_ACK_TLVS) && plen > NLMSG_ALIGN(sizeof(int)))
		extack_msg(pl + NLMSG_ALIGN(sizeof(int)), plen - NLMSG_ALIGN(sizeof(int)), errmsg,
			   errlen);
	return kernel_errno(err);
}

int np_nl_run(const void *buf, size_t len, uint32_t seq, np_nl_cb cb, void *data, char *errmsg,
	      size_t errlen)
{
	const char *p = buf;

	while (len >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;
		size_t step;
		int ret;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len)
			return -EBADMSG;	/* truncated: the rest cannot be framed */
		if (nlh->nlmsg_seq != seq)
			goto next;	/* a late reply to an earlier request */
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			break;
		case NLMSG_ERROR:
			return np_nl_error(nlh, errmsg, errlen);
		case NLMSG_DONE:
			return run_done(nlh, errmsg, errlen);
		case NLMSG_OVERRUN:
			return -ENOBUFS;
		default:
			if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
				break;
			ret = cb ? cb(nlh, data) : MNL_CB_OK;
			if (ret < 0)
				return ret;
			if (ret == MNL_CB_STOP)
				return 0;
		}
next:
		step = NLMSG_ALIGN(nlh->nlmsg_len);
		if (step >= len)
			return 1;
		p += step;
		len -= step;
	}
	return len ? -EBADMSG : 1;
}

