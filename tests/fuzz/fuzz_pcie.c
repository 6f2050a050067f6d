// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz PCI config space (capability walk to PCI Express: MPS, MRRS) and the link speed text. */
#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *cfg = fuzz_copy(data, size);
	char *str = fuzz_str(data, size);
	struct np_pcie p;
	uint64_t mts;

	memset(&p, 0, sizeof(p));
	FUZZ_CHECK(fuzz_known(np_parse_pci_config(cfg, size, &p)));
	FUZZ_CHECK(fuzz_known(np_parse_pcie_speed(str, &mts)));
	free(cfg);
	free(str);
	return 0;
}
