// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the other sosreport text parsers over one input: lscpu, lspci -vv (device 00:03.0 and
 * 0000:3b:00.0), sysctl -a lookups. */
#include "fuzz.h"
#include "sos_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	static struct np_cpuset set;
	struct np_pcie p;
	unsigned n;
	char v[128];
	int e;

	e = np_parse_lscpu(buf, size, &n, &set);
	FUZZ_CHECK(fuzz_known(e) || e == -ENODATA);
	FUZZ_CHECK(n <= NP_MAX_CPUS);
	memset(&p, 0xff, sizeof(p));
	e = np_parse_lspci_link(buf, size, "00:03.0", &p);
	FUZZ_CHECK(fuzz_known(e) || e == -ENODATA);
	e = np_parse_lspci_link(buf, size, "0000:3b:00.0", &p);
	FUZZ_CHECK(fuzz_known(e) || e == -ENODATA);
	e = np_parse_sysctl_a_find(buf, size, "net.ipv4.tcp_rmem", v, sizeof(v));
	FUZZ_CHECK(fuzz_known(e) || e == -ENODATA);
	FUZZ_CHECK(strnlen(v, sizeof(v)) < sizeof(v));
	return 0;
}
