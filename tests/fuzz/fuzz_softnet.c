// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz /proc/net/softnet_stat (every layout), with CPU ids from the row and from cpu/online. */
#include "fuzz.h"
#include "parse.h"

static void one(const char *buf, size_t len, const struct np_cpuset *online)
{
	struct np_softnet sn;
	int err = np_parse_softnet(buf, len, online, &sn);

	FUZZ_CHECK(fuzz_known(err));
	if (err)
		FUZZ_CHECK(!sn.rows && !sn.n);
	for (size_t i = 0; i < sn.n; i++)
		FUZZ_CHECK(sn.rows[i].cpu >= 0 && sn.rows[i].cpu < NP_MAX_CPUS);
	free(sn.rows);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_cpuset online;

	one(buf, size, NULL);
	/* A sparse online set: row i is the i-th online CPU of an 11-column file. */
	np_cpuset_zero(&online);
	for (unsigned cpu = 0; cpu < NP_MAX_CPUS; cpu += 3)
		np_cpuset_set(&online, cpu);
	one(buf, size, &online);
	free(buf);
	return 0;
}
