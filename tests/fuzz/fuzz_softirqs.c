// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz /proc/softirqs: the CPU header and the NET_RX / NET_TX rows. */
#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_softirqs si;
	int err = np_parse_softirqs(buf, size, &si);

	FUZZ_CHECK(fuzz_known(err));
	if (err)
		FUZZ_CHECK(!si.cpu && !si.net_rx && !si.net_tx && !si.n);
	for (size_t i = 0; i < si.n; i++)
		FUZZ_CHECK(si.cpu[i] >= 0 && si.cpu[i] < NP_MAX_CPUS);
	free(si.cpu);
	free(si.net_rx);
	free(si.net_tx);
	free(buf);
	return 0;
}
