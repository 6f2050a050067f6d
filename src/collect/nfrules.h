/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The netfilter rules that drop, with their counters, read-only: nftables rules over
 * NETLINK_NETFILTER (iptables-nft's rules are among them) and iptables-legacy / ip6tables-legacy
 * tables over getsockopt. Only rules whose verdict drops (drop, reject, a legacy chain's DROP
 * policy) are kept: the candidates behind the kernel's NETFILTER_DROP reason. The parsers are
 * pure and take the kernel's raw replies, so unit tests and fuzzers feed them recorded ones.
 */
#ifndef NP_NFRULES_H
#define NP_NFRULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NP_NFRULES_MAX 4096		/* drop rules kept; the rest are counted in over_cap */
#define NP_NFRULE_NAME 64		/* table and chain names (longer ones are cut) */
#define NP_NFRULE_MATCH 160		/* the rendering of a rule's match */
/* Bounds of one read: a ruleset bigger than this is cut, never waited for. */
#define NP_NFT_TIMEOUT_MS 1000		/* per recv() */
#define NP_NFT_DEADLINE_S 3.0		/* per dump */
#define NP_NFT_MAX_BYTES (16u << 20)	/* per dump */
#define NP_IPT_MAX_BYTES (16u << 20)	/* per legacy table */

enum np_nfrule_source {
	NP_NFRULE_NFT,		/* nftables (nft, iptables-nft) */
	NP_NFRULE_LEGACY,	/* iptables-legacy / ip6tables-legacy (x_tables) */
};

enum np_nfrule_verdict {
	NP_NFRULE_DROP,
	NP_NFRULE_REJECT,
	NP_NFRULE_POLICY_DROP,	/* a legacy built-in chain's policy */
};

struct np_nfrule {
	enum np_nfrule_source source;
	enum np_nfrule_verdict verdict;
	uint8_t family;			/* NFPROTO_*: 1 inet, 2 ip, 3 arp, 5 netdev, 7 bridge, 10 ip6 */
	char table[NP_NFRULE_NAME];
	char chain[NP_NFRULE_NAME];
	uint64_t handle;		/* nftables' rule handle; 0 for legacy rules */
	uint32_t position;		/* 1-based within its chain */
	bool has_counter;		/* nft: a counter expression; legacy: always */
	uint64_t packets, bytes;
	char match[NP_NFRULE_MATCH];	/* e.g. "ip protocol udp th dport 9001"; "" matches all */
};

struct np_nfrules {
	size_t n, cap;
	struct np_nfrule *r;
	size_t over_cap;		/* drop rules beyond NP_NFRULES_MAX */
	size_t nft_rules;		/* nftables rules seen (any verdict) */
	size_t legacy_tables;		/* legacy tables read */
	int nft_status;			/* 0 read, or -errno (-ENOENT: nf_tables not loaded) */
	int legacy_status;		/* 0 read (or none exist), or -errno */
	bool nft_truncated;		/* a bound (bytes, time) cut the dump */
	/* The chain the nft dump is in, to number its rules (a dump streams chain by chain). */
	struct np_nft_cursor {
		uint8_t family;
		char table[NP_NFRULE_NAME], chain[NP_NFRULE_NAME];
		uint32_t pos;
	} nft_cursor;
};

/* A legacy table as the kernel returns it: IPT_SO_GET_INFO's struct ipt_getinfo (84 bytes;
 * ip6t_getinfo is the same) followed by IPT_SO_GET_ENTRIES' struct ipt_get_entries (name,
 * size, then size bytes of entries). One buffer, so fixtures and fuzzers feed it whole. */
#define NP_IPT_INFO_LEN 84u

/*
 * Walk len bytes of an NFT_MSG_GETRULE dump reply (every recv() concatenated): messages of
 * other sequence numbers are skipped, each NEWRULE with a drop or reject verdict is added to
 * out (family, table, chain, handle, position, counter, match). Returns 1 when more is to come,
 * 0 at NLMSG_DONE, -errno for an NLMSG_ERROR, -EBADMSG when nothing parsable was found, -ENOMEM.
 * A message that does not parse is skipped; out keeps what did.
 */
int np_nft_rules_parse(const void *buf, size_t len, uint32_t seq, struct np_nfrules *out);

/* Parse a legacy table (family NFPROTO_IPV4 or NFPROTO_IPV6) in the form above into out: its
 * rules whose standard verdict is DROP, REJECT targets and built-in chains whose policy is
 * DROP. Returns 0, -EBADMSG (out keeps what parsed before the damage) or -ENOMEM. */
int np_ipt_rules_parse(uint8_t family, const void *buf, size_t len, struct np_nfrules *out);

/* Read both in the current network namespace; never changes anything. The statuses in out say
 * what could be read. Returns 0, or -ENOMEM. */
int np_nfrules_collect(struct np_nfrules *out);
/* The raw replies, for fixture recorders: the nft dump (every recv() concatenated; *seq is
 * the request's) and a legacy table as np_ipt_rules_parse takes it. Free *buf. */
int np_nft_rules_dump(void **buf, size_t *len, uint32_t *seq, bool *truncated);
int np_ipt_table_read(uint8_t family, const char *table, void **buf, size_t *len);

/* Append a copy of rule: 0 (counted in over_cap past NP_NFRULES_MAX) or -ENOMEM. */
int np_nfrules_add(struct np_nfrules *r, const struct np_nfrule *rule);
void np_nfrules_free(struct np_nfrules *r);
const char *np_nfrule_family_name(uint8_t family);
const char *np_nfrule_verdict_name(enum np_nfrule_verdict v);

#endif
