// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz a capture's kernel.tape: load it, then replay every exchange as the transports would
 * (netlink restamping into a bounded buffer, ioctl copies of the recorded size). */
#include "fuzz.h"
#include "ktape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[NP_KTAPE_MAX_CHUNK];
	struct np_ktape t;
	int err = np_ktape_load(&t, data, size);

	FUZZ_CHECK(err == 0 || err == -EBADMSG || err == -ENOMEM);
	if (err) {
		FUZZ_CHECK(t.n == 0 && !t.x);
		return 0;
	}
	for (size_t i = 0; i < t.n; i++) {
		struct np_ktape_xchg *x = &t.x[i];
		struct np_ktape_play p;
		uint8_t *req = fuzz_copy(x->req, x->req_len);
		size_t small = x->req_len % 64;

		FUZZ_CHECK(x->bus >= 1 && x->bus <= NP_KT__MAX && x->err <= 0);
		if (np_ktape_find(&t, (enum np_ktape_bus)x->bus, req, x->req_len, &p) == 0) {
			if (x->bus == NP_KT_ETHTOOL_IOCTL) {
				np_ktape_ioctl(&p, buf, small);
			} else {
				ssize_t n;

				/* A small buffer first, then whole chunks: never beyond either. */
				n = np_ktape_next(&p, buf, small, 7);
				FUZZ_CHECK(n <= (ssize_t)small);
				while ((n = np_ktape_next(&p, buf, sizeof(buf), 7)) > 0)
					FUZZ_CHECK((size_t)n <= sizeof(buf));
			}
		}
		free(req);
	}
	np_ktape_free(&t);
	return 0;
}
