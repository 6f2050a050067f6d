// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz /proc/net/dev (each interface's rx_packets, for the loss ledger). */
#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_ifrx x;
	int r = np_parse_proc_net_dev(buf, size, &x);

	FUZZ_CHECK(fuzz_known(r));
	FUZZ_CHECK(x.n <= NP_IFRX_MAX);
	FUZZ_CHECK(r < 0 || x.read);
	for (size_t i = 0; i < x.n; i++)
		FUZZ_CHECK(x.e[i].name[0] && strlen(x.e[i].name) < sizeof(x.e[i].name));
	free(buf);
	return 0;
}
