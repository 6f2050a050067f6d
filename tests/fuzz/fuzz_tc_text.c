// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the `tc -s qdisc show` parser: qdiscs of eth0 appended, flags agreeing with parents. */
#include "fuzz.h"
#include "sos_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct np_rtnl r;
	int e;

	np_rtnl_init(&r);
	e = np_parse_tc_qdisc((const char *)data, size, "eth0", &r);
	FUZZ_CHECK(fuzz_known(e) || e == -ENODATA || e == -E2BIG);
	for (size_t i = 0; i < r.nqdisc; i++) {
		FUZZ_CHECK(strnlen(r.qdiscs[i].kind, sizeof(r.qdiscs[i].kind)) <
			   sizeof(r.qdiscs[i].kind));
		FUZZ_CHECK(!(r.qdiscs[i].root && r.qdiscs[i].ingress));
	}
	np_rtnl_free(&r);
	return 0;
}
