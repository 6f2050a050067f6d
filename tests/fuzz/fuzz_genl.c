// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the generic netlink reply walker (np_nl_run: framing, sequence numbers, NLMSG_ERROR
 * and NLMSG_DONE with extended ack TLVs) and the family parser (CTRL_CMD_NEWFAMILY ops list).
 */
#include "fuzz.h"
#include "genl.h"

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct np_genl_family fam;
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	int err = np_genl_parse_family(nlh, &fam);

	(void)data;
	FUZZ_CHECK(err == 0 || err == -EBADMSG);
	FUZZ_CHECK(fam.nops <= NP_GENL_MAX_OPS);
	np_genl_has_op(&fam, 38);
	err = np_genl_attrs(nlh, tb, CTRL_ATTR_MAX);
	FUZZ_CHECK(err == 0 || err == -EBADMSG);
	for (unsigned t = 0; t <= CTRL_ATTR_MAX; t++) {
		const struct nlattr *n[8];
		uint64_t v;
		uint32_t v32;
		uint8_t v8;

		if (!tb[t])
			continue;
		np_attr_str(tb[t]);
		np_attr_u8(tb[t], &v8);
		np_attr_u32(tb[t], &v32);
		np_attr_u64(tb[t], &v);
		np_attr_uint(tb[t], &v);
		if (np_nest_check(tb[t]) == 0)
			np_nest_attrs(tb[t], n, 7);
	}
	return MNL_CB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	char errmsg[NP_NL_ERRMSG], tiny[1];
	uint32_t seq = 0;
	int ret;

	if (size >= sizeof(struct nlmsghdr))
		seq = ((const struct nlmsghdr *)(const void *)buf)->nlmsg_seq;
	errmsg[0] = '\0';
	ret = np_nl_run(buf, size, seq, family_cb, NULL, errmsg, sizeof(errmsg));
	FUZZ_CHECK(ret <= 1 && ret >= -4095);	/* an errno strerror(-ret) can print */
	FUZZ_CHECK(strnlen(errmsg, sizeof(errmsg)) < sizeof(errmsg));
	/* No callback, and an error buffer of one byte (only room for the NUL). */
	tiny[0] = 'x';
	ret = np_nl_run(buf, size, seq, NULL, NULL, tiny, sizeof(tiny));
	FUZZ_CHECK(ret <= 1);
	free(buf);
	return 0;
}
