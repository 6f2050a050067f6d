// SPDX-License-Identifier: GPL-2.0-only
/*
 * The netfilter drop-rule collector: an nftables rule dump over NETLINK_NETFILTER and the
 * existing iptables-legacy tables over getsockopt, in the current network namespace. Read-only:
 * nothing here creates a table or loads a module on purpose (legacy tables are read only when
 * /proc/net lists them; nftables only when nf_tables is loaded or built in).
 */
#include "nfrules.h"

#include "clock.h"
#include "log.h"
#include "nl_transport.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter_ipv6/ip6_tables.h>

#define CHUNK (64u * 1024)	/* one recv(): dump skbs are at most 32 KiB */
#define MAX_TABLES 32		/* legacy tables per family: there are five kinds */
#define GET_RETRIES 3		/* a legacy table replaced between its two reads */

/* nf_tables absent from a kernel with modules: a dump would make it load, so do not ask. */
static bool nf_tables_present(void)
{
	struct stat st;
	char line[256];
	bool found = false;
	FILE *f;

	if (stat("/sys/module/nf_tables", &st) == 0)
		return true;
	f = fopen("/proc/modules", "re");
	if (!f)
		return true;	/* no module support: whatever exists is built in */
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "nf_tables ", 10);
	fclose(f);
	return found;
}

/* Whether n bytes end the dump of seq (NLMSG_DONE or an error). */
static bool dump_ends(const void *buf, size_t n, uint32_t seq)
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)n;

	/* Lengths compared unsigned: mnl_nlmsg_ok() lets one past 2 GiB through. */
	for (; rem >= (int)sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       nlh->nlmsg_len <= (uint32_t)rem; nlh = mnl_nlmsg_next(nlh, &rem))
		if (nlh->nlmsg_seq == seq &&
		    (nlh->nlmsg_type == NLMSG_DONE || nlh->nlmsg_type == NLMSG_ERROR))
			return true;
	return false;
}

/* The nftables rule dump: trace reads it live, at the start and end of its window. */
static const struct np_nl_bus nft_bus = {
	.name = "nftables", .protocol = NETLINK_NETFILTER, .tape_bus = NP_KT_NFNETLINK,
	.bufsize = CHUNK, .timeout_ms = NP_NFT_TIMEOUT_MS, .deadline_s = NP_NFT_DEADLINE_S,
};

struct dump_acc {
	char *out;
	size_t used;
	uint32_t seq;
};

/* Keep every received buffer whole; the parser walks them afterwards. -EFBIG at the cap. */
static int keep(void *arg, const void *buf, size_t len)
{
	struct dump_acc *a = arg;
	char *grown;

	if (a->used + len > NP_NFT_MAX_BYTES)
		return -EFBIG;
	grown = realloc(a->out, a->used + len);
	if (!grown)
		return -ENOMEM;
	a->out = grown;
	memcpy(a->out + a->used, buf, len);
	a->used += len;
	return dump_ends(buf, len, a->seq) ? 0 : 1;
}

/* The dump is asked again (np_nl_dump): the broken one's buffers go. */
static void restart(void *arg, const struct nlmsghdr *req)
{
	struct dump_acc *a = arg;

	free(a->out);
	a->out = NULL;
	a->used = 0;
	a->seq = req->nlmsg_seq;
}

int np_nft_rules_dump(void **buf, size_t *len, uint32_t *seq, bool *truncated)
{
	struct dump_acc a = { 0 };
	struct nlmsghdr *nlh;
	struct nfgenmsg *g;
	struct np_nl nl;
	int r;

	*buf = NULL;
	*len = 0;
	*truncated = false;
	if (!nf_tables_present())
		return -ENOENT;
	r = np_nl_open(&nl, &nft_bus, NULL);
	if (r < 0)
		return r;
	nlh = np_nl_request(&nl, NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_GETRULE, NLM_F_DUMP);
	*seq = a.seq = nlh->nlmsg_seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->nfgen_family = NFPROTO_UNSPEC;	/* every family */
	g->version = NFNETLINK_V0;
	/* A ruleset changed during the dump (nf_tables flags it NLM_F_DUMP_INTR) is dumped
	 * again: a rule seen twice or missed would be a wrong drop count. */
	r = np_nl_dump(&nl, nlh, keep, restart, &a);
	*seq = a.seq;
	np_nl_close(&nl);
	/* Past the deadline or the cap: what arrived is parsed; the rest is not waited for. */
	if (r == -ETIMEDOUT || r == -EFBIG) {
		*truncated = true;
		r = 0;
	}
	if (r < 0) {
		free(a.out);
		return r;
	}
	*buf = a.out;
	*len = a.used;
	return 0;
}

int np_ipt_table_read(uint8_t family, const char *table, void **buf, size_t *len)
{
	const int level = family == NFPROTO_IPV4 ? IPPROTO_IP : IPPROTO_IPV6;
	const int get_info = family == NFPROTO_IPV4 ? IPT_SO_GET_INFO : IP6T_SO_GET_INFO;
	const int get_entries = family == NFPROTO_IPV4 ? IPT_SO_GET_ENTRIES : IP6T_SO_GET_ENTRIES;
	const size_t head = offsetof(struct ipt_get_entries, entrytable);
	int fd, r = -EAGAIN;

	*buf = NULL;
	*len = 0;
	fd = socket(family == NFPROTO_IPV4 ? AF_INET : AF_INET6, SOCK_RAW | SOCK_CLOEXEC,
		    IPPROTO_RAW);
	if (fd < 0)
		return -errno;
	for (int attempt = 0; r == -EAGAIN && attempt < GET_RETRIES; attempt++) {
		struct ipt_getinfo info = { 0 };
		socklen_t sl = sizeof(info);
		struct ipt_get_entries *ge;
		uint8_t *b;

		snprintf(info.name, sizeof(info.name), "%s", table);
		if (getsockopt(fd, level, get_info, &info, &sl) < 0) {
			r = -errno;
			break;
		}
		if (info.size > NP_IPT_MAX_BYTES) {
			r = -EFBIG;
			break;
		}
		b = calloc(1, NP_IPT_INFO_LEN + head + info.size);
		if (!b) {
			r = -ENOMEM;
			break;
		}
		memcpy(b, &info, NP_IPT_INFO_LEN);
		/* The kernel's answer in a buffer of its own: struct ipt_get_entries needs 8-byte
		 * alignment, which b + NP_IPT_INFO_LEN does not have (UBSan). */
		ge = calloc(1, head + info.size);
		if (!ge) {
			free(b);
			r = -ENOMEM;
			break;
		}
		memcpy(ge->name, info.name, sizeof(ge->name));
		ge->size = info.size;
		sl = (socklen_t)(head + info.size);
		/* EAGAIN: the table was replaced between the two reads (its size changed). */
		if (getsockopt(fd, level, get_entries, ge, &sl) < 0) {
			r = -errno;
			free(ge);
			free(b);
			continue;
		}
		memcpy(b + NP_IPT_INFO_LEN, ge, head + info.size);
		free(ge);
		*buf = b;
		*len = NP_IPT_INFO_LEN + head + info.size;
		r = 0;
	}
	close(fd);
	return r;
}

/* The legacy tables of one family that exist in this namespace: reading only those never
 * creates one (asking for a table by name would instantiate it). */
static int read_legacy(uint8_t family, struct np_nfrules *out)
{
	const char *names = family == NFPROTO_IPV4 ? "/proc/net/ip_tables_names"
						   : "/proc/net/ip6_tables_names";
	char name[XT_TABLE_MAXNAMELEN + 2];
	int r = 0, n = 0;
	FILE *f = fopen(names, "re");

	if (!f)
		return errno == ENOENT ? 0 : -errno;	/* x_tables not loaded: no table */
	while (n++ < MAX_TABLES && fgets(name, sizeof(name), f)) {
		void *buf;
		size_t len;
		int e;

		name[strcspn(name, "\n")] = '\0';
		if (!name[0])
			continue;
		e = np_ipt_table_read(family, name, &buf, &len);
		if (e < 0) {
			np_dbg("nfrules: %s table %s: %s", np_nfrule_family_name(family), name,
			       strerror(-e));
			r = e;
			continue;
		}
		e = np_ipt_rules_parse(family, buf, len, out);
		free(buf);
		if (e == -ENOMEM) {
			fclose(f);
			return e;
		}
		if (e < 0)
			np_dbg("nfrules: %s table %s does not parse", np_nfrule_family_name(family),
			       name);
		out->legacy_tables++;
	}
	fclose(f);
	return r;
}

int np_nfrules_collect(struct np_nfrules *out)
{
	uint32_t seq;
	size_t len;
	void *buf;
	int r;

	memset(out, 0, sizeof(*out));
	r = np_nft_rules_dump(&buf, &len, &seq, &out->nft_truncated);
	if (r == 0) {
		r = np_nft_rules_parse(buf, len, seq, out);
		free(buf);
		if (r == -ENOMEM)
			return r;
		/* 1: the dump was cut by a bound; what arrived counts (nft_truncated says so). */
		out->nft_status = r > 0 ? 0 : r == -EBADMSG && len == 0 ? -ETIMEDOUT : r;
	} else {
		out->nft_status = r;
	}
	if (out->nft_status < 0)
		np_dbg("nfrules: nftables: %s", strerror(-out->nft_status));
	r = read_legacy(NFPROTO_IPV4, out);
	if (r == -ENOMEM)
		return r;
	out->legacy_status = r;
	r = read_legacy(NFPROTO_IPV6, out);
	if (r == -ENOMEM)
		return r;
	if (!out->legacy_status)
		out->legacy_status = r;
	return 0;
}
