// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz depmod's lists (modules.builtin, modules.dep): the lookup netpath plan makes of tcp_bbr
 * and sch_fq in whatever a --root tree's lib/modules holds. */
#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const mods[] = { "kernel/net/ipv4/tcp_bbr", "kernel/net/sched/sch_fq",
					     "k" };
	char *buf = fuzz_copy(data, size);

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		int r = np_parse_kmod_listed(buf, size, mods[i]);

		FUZZ_CHECK(r == 0 || r == 1);
		/* Listed means the text holds the name. */
		FUZZ_CHECK(!r || memmem(buf, size, mods[i], strlen(mods[i])));
	}
	FUZZ_CHECK(np_parse_kmod_listed(buf, size, "") == -EINVAL);
	free(buf);
	return 0;
}
