// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz np_parse_ss_s: iproute2 `ss -s` text (sos ss_-s, pasted outputs). */
#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_sockstat st;
	int err = np_parse_ss_s(buf, size, &st);

	FUZZ_CHECK(fuzz_known(err));
	/* ss never prints memory pages: nothing may invent them. */
	FUZZ_CHECK(st.tcp_mem == NP_NA && st.udp_mem == NP_NA && st.frag_memory == NP_NA);
	/* alloc is derived by subtraction: it never exceeds what the line's total allows. */
	FUZZ_CHECK(err != -EINVAL || (st.sockets_used == NP_NA && st.tcp_orphan == NP_NA));
	free(buf);
	return 0;
}
