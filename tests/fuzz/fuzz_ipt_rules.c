// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the iptables-legacy table walker (getinfo + entries blob: hook offsets, entry and
 * target offsets, matches, user chains), IPv4 and IPv6 layouts over the same bytes. */
#include <linux/netfilter.h>

#include "fuzz.h"
#include "nfrules.h"

static void run(uint8_t family, const unsigned char *buf, size_t size)
{
	struct np_nfrules r = { 0 };
	int err = np_ipt_rules_parse(family, buf, size, &r);

	FUZZ_CHECK(err == 0 || err == -EBADMSG || err == -ENOMEM);
	for (size_t i = 0; i < r.n; i++) {
		FUZZ_CHECK(r.r[i].family == family && r.r[i].source == NP_NFRULE_LEGACY);
		FUZZ_CHECK(strnlen(r.r[i].chain, sizeof(r.r[i].chain)) < sizeof(r.r[i].chain));
		FUZZ_CHECK(strnlen(r.r[i].match, sizeof(r.r[i].match)) < sizeof(r.r[i].match));
		FUZZ_CHECK(r.r[i].position >= 1);
	}
	np_nfrules_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf = fuzz_copy(data, size);

	run(NFPROTO_IPV4, buf, size);
	run(NFPROTO_IPV6, buf, size);
	free(buf);
	return 0;
}
