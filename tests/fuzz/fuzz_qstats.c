// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the netdev QSTATS_GET dump parser (per-queue "uint" counters of 4 or 8 bytes). */
#include "fuzz.h"
#include "netdev_qstats.h"
#include "nic.h"

static int qstats_cb(const struct nlmsghdr *nlh, void *data)
{
	int err = np_qstats_parse(nlh, data);

	FUZZ_CHECK(err == 0 || err == -EINVAL || err == -EBADMSG || err == -ENOMEM);
	return MNL_CB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	char errmsg[NP_NL_ERRMSG];
	struct np_ethtool e;
	uint32_t seq = 0;

	if (size >= sizeof(struct nlmsghdr))
		seq = ((const struct nlmsghdr *)(const void *)buf)->nlmsg_seq;
	np_ethtool_init(&e);
	FUZZ_CHECK(np_nl_run(buf, size, seq, qstats_cb, &e, errmsg, sizeof(errmsg)) <= 1);
	for (size_t i = 0; i < e.nqstats; i++)
		FUZZ_CHECK(e.qstats[i].queue >= 0);
	np_ethtool_free(&e);
	free(buf);
	return 0;
}
