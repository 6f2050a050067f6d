// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz /proc/net/route and /proc/net/ipv6_route: the default route's interface. */
#include <net/if.h>

#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	char ifname[IF_NAMESIZE];
	int err;

	err = np_parse_route_default(buf, size, ifname, sizeof(ifname));
	FUZZ_CHECK(fuzz_known(err) || err == -ENOSPC);	/* ENOSPC: name too long */
	if (!err)
		FUZZ_CHECK(ifname[0] && strnlen(ifname, sizeof(ifname)) < sizeof(ifname));
	err = np_parse_ipv6_route_default(buf, size, ifname, sizeof(ifname));
	FUZZ_CHECK(fuzz_known(err) || err == -ENOSPC);	/* ENOSPC: name too long */
	if (!err)
		FUZZ_CHECK(ifname[0] && strnlen(ifname, sizeof(ifname)) < sizeof(ifname));
	free(buf);
	return 0;
}
