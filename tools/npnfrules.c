// SPDX-License-Identifier: GPL-2.0-only
/*
 * The netfilter drop-rule collector from the command line, and the recorder of its fixtures
 * (tests/fixtures/netfilter/). Read-only, like the collector.
 *
 *   npnfrules show                      the drop rules, one per line
 *   npnfrules record-nft FILE           the raw NFT_MSG_GETRULE dump reply
 *   npnfrules record-ipt 4|6 TABLE FILE a legacy table as np_ipt_rules_parse takes it
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>

#include "nfrules.h"

static int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "we");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "npnfrules: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int show(void)
{
	struct np_nfrules r;

	if (np_nfrules_collect(&r) < 0) {
		fputs("npnfrules: out of memory\n", stderr);
		return 1;
	}
	printf("nft_status=%d nft_rules=%zu truncated=%d legacy_status=%d legacy_tables=%zu\n",
	       r.nft_status, r.nft_rules, r.nft_truncated, r.legacy_status, r.legacy_tables);
	for (size_t i = 0; i < r.n; i++) {
		const struct np_nfrule *x = &r.r[i];

		printf("%s %s %s %s handle=%" PRIu64 " pos=%u verdict=%s counter=%d packets=%"
		       PRIu64 " bytes=%" PRIu64 " match=%s\n",
		       x->source == NP_NFRULE_NFT ? "nft" : "legacy",
		       np_nfrule_family_name(x->family), x->table, x->chain, x->handle,
		       x->position, np_nfrule_verdict_name(x->verdict), x->has_counter,
		       x->packets, x->bytes, x->match);
	}
	np_nfrules_free(&r);
	return 0;
}

int main(int argc, char **argv)
{
	void *buf;
	size_t len;
	int r;

	if (argc == 2 && !strcmp(argv[1], "show"))
		return show();
	if (argc == 3 && !strcmp(argv[1], "record-nft")) {
		uint32_t seq;
		bool cut;

		r = np_nft_rules_dump(&buf, &len, &seq, &cut);
		if (r < 0 || cut) {
			fprintf(stderr, "npnfrules: nft dump: %s\n", cut ? "cut" : strerror(-r));
			return 1;
		}
		r = write_file(argv[2], buf, len);
		free(buf);
		return r;
	}
	if (argc == 5 && !strcmp(argv[1], "record-ipt")) {
		uint8_t fam = !strcmp(argv[2], "6") ? NFPROTO_IPV6 : NFPROTO_IPV4;

		r = np_ipt_table_read(fam, argv[3], &buf, &len);
		if (r < 0) {
			fprintf(stderr, "npnfrules: %s: %s\n", argv[3], strerror(-r));
			return 1;
		}
		r = write_file(argv[4], buf, len);
		free(buf);
		return r;
	}
	fputs("usage: npnfrules show | record-nft FILE | record-ipt 4|6 TABLE FILE\n", stderr);
	return 2;
}
