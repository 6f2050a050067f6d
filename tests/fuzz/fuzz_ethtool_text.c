// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the ethtool text parsers (-i, -g, -l, -c, -k, -a, -S, settings) over the same input:
 * each stays within it, keeps its documented errors, and leaves "not reported" as NP_NA. */
#include "fuzz.h"
#include "sos_text.h"

static bool known(int e)
{
	return fuzz_known(e) || e == -EOPNOTSUPP || e == -ENODEV || e == -ENODATA || e == -EPERM;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct np_ethtool e;
	int link;

	np_ethtool_init(&e);
	FUZZ_CHECK(known(np_parse_ethtool_i(buf, size, &e)));
	FUZZ_CHECK(strnlen(e.driver, sizeof(e.driver)) < sizeof(e.driver));
	FUZZ_CHECK(known(np_parse_ethtool_g(buf, size, &e.rings)));
	/* A current value without its maximum is never kept. */
	FUZZ_CHECK(np_has(e.rings.rx_max) || !np_has(e.rings.rx));
	FUZZ_CHECK(known(np_parse_ethtool_l(buf, size, &e.channels)));
	FUZZ_CHECK(np_has(e.channels.combined_max) || !np_has(e.channels.combined));
	FUZZ_CHECK(known(np_parse_ethtool_c(buf, size, &e.coalesce)));
	FUZZ_CHECK(e.coalesce.adaptive_rx >= -1 && e.coalesce.adaptive_rx <= 1);
	FUZZ_CHECK(known(np_parse_ethtool_k(buf, size, &e.features)));
	FUZZ_CHECK(known(np_parse_ethtool_a(buf, size, &e.pause)));
	FUZZ_CHECK(known(np_parse_ethtool_S(buf, size, &e.drv_stats)));
	for (size_t i = 0; i < e.drv_stats.n; i++)
		FUZZ_CHECK(strnlen(e.drv_stats.e[i].name, NP_COUNTER_NAME_MAX) < NP_COUNTER_NAME_MAX);
	FUZZ_CHECK(known(np_parse_ethtool_settings(buf, size, &e.link, &link)));
	FUZZ_CHECK(link >= -1 && link <= 1);
	np_ethtool_free(&e);
	return 0;
}
