// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz np_parse_ss_list: iproute2 ss socket lists (sos ss_-peaonmi, pasted ss -tmi/-uampi). */
#include "fuzz.h"
#include "parse_ss.h"

#include <netinet/in.h>

struct seen {
	uint64_t n;
};

static void check_rec(const struct np_sock_rec *r, void *arg)
{
	struct seen *s = arg;

	s->n++;
	FUZZ_CHECK(r->protocol == IPPROTO_TCP || r->protocol == IPPROTO_UDP);
	FUZZ_CHECK(r->family == AF_INET || r->family == AF_INET6);
	FUZZ_CHECK(r->state < NP_SOCK_TCP_STATES);
	/* skmem has 7 to 9 fields or none; no tcp_info fields on UDP. */
	FUZZ_CHECK(r->has_mem ? r->nmem >= 7 && r->nmem <= NP_SKMEM__COUNT : r->nmem == 0);
	FUZZ_CHECK(r->protocol == IPPROTO_TCP || !r->has_info);
	FUZZ_CHECK(r->cc[sizeof(r->cc) - 1] == '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_ss_list_stats st;
	struct seen s = { 0 };
	int err = np_parse_ss_list(buf, size, size && (data[0] & 1) ? IPPROTO_UDP : 0, 3,
				   check_rec, &s, &st);

	FUZZ_CHECK(err == 0 || err == -EINVAL);
	/* The cap holds, and every socket handed over was counted. */
	FUZZ_CHECK(s.n <= 3 && s.n <= st.tcp + st.udp);
	FUZZ_CHECK(err == 0 || st.tcp + st.udp == 0);
	FUZZ_CHECK(st.no_mem <= st.tcp + st.udp && st.old_mem <= st.no_mem);
	free(buf);
	return 0;
}
