// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the nftables rule dump walker: NEWRULE messages with any expressions (the match
 * rendering follows loads, compares, ranges, masks and sets), errors and DONE. */
#include <linux/netlink.h>

#include "fuzz.h"
#include "nfrules.h"

static void check(const struct np_nfrules *r)
{
	FUZZ_CHECK(r->n <= NP_NFRULES_MAX && r->n <= r->nft_rules);
	for (size_t i = 0; i < r->n; i++) {
		const struct np_nfrule *x = &r->r[i];

		FUZZ_CHECK(strnlen(x->table, sizeof(x->table)) < sizeof(x->table));
		FUZZ_CHECK(strnlen(x->chain, sizeof(x->chain)) < sizeof(x->chain));
		FUZZ_CHECK(strnlen(x->match, sizeof(x->match)) < sizeof(x->match));
		FUZZ_CHECK(x->position >= 1 && x->source == NP_NFRULE_NFT);
		FUZZ_CHECK(x->verdict == NP_NFRULE_DROP || x->verdict == NP_NFRULE_REJECT);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf = fuzz_copy(data, size);
	struct np_nfrules r = { 0 };
	uint32_t seq = 0;
	int err;

	if (size >= sizeof(struct nlmsghdr))
		seq = ((const struct nlmsghdr *)(const void *)buf)->nlmsg_seq;
	err = np_nft_rules_parse(buf, size, seq, &r);
	FUZZ_CHECK(err <= 1 && err >= -4095);
	check(&r);
	np_nfrules_free(&r);
	free(buf);
	return 0;
}
