// SPDX-License-Identifier: GPL-2.0-only
/* Netfilter drop rules over the trace window: what grew, and how it is shown. Pure. */
#include "trace_nfrule.h"

#include <errno.h>
#include <string.h>

#include "render.h"

/* The same rule at both ends: nftables rules by handle (unique in their table), legacy rules
 * by place and content (they have no identity; a rule inserted above shifts the rest). */
static bool same_rule(const struct np_nfrule *a, const struct np_nfrule *b)
{
	if (a->source != b->source || a->family != b->family || strcmp(a->table, b->table) ||
	    strcmp(a->chain, b->chain))
		return false;
	if (a->source == NP_NFRULE_NFT)
		return a->handle == b->handle;
	return a->position == b->position && a->verdict == b->verdict &&
	       !strcmp(a->match, b->match);
}

static const struct np_nfrule *find(const struct np_nfrules *s, const struct np_nfrule *r,
				    size_t hint)
{
	if (hint < s->n && same_rule(&s->r[hint], r))	/* the usual case: nothing moved */
		return &s->r[hint];
	for (size_t i = 0; i < s->n; i++)
		if (same_rule(&s->r[i], r))
			return &s->r[i];
	return NULL;
}

/* Keep the NP_NFRULE_SHOW biggest in order; what falls out is summed. */
static void keep(struct np_nfrule_report *out, const struct np_nfrule_hit *h)
{
	size_t i = out->n;

	if (out->n == NP_NFRULE_SHOW) {
		const struct np_nfrule_hit *last = &out->hits[NP_NFRULE_SHOW - 1];

		if (last->packets >= h->packets) {
			out->others++;
			out->others_packets += h->packets;
			return;
		}
		out->others++;
		out->others_packets += last->packets;
		i = NP_NFRULE_SHOW - 1;
	} else {
		out->n++;
	}
	while (i > 0 && out->hits[i - 1].packets < h->packets) {
		out->hits[i] = out->hits[i - 1];
		i--;
	}
	out->hits[i] = *h;
}

void np_nfrule_compare(const struct np_nfrules *start, const struct np_nfrules *end,
		       struct np_nfrule_report *out)
{
	memset(out, 0, sizeof(*out));
	out->nft_status = end->nft_status ? end->nft_status : start->nft_status;
	out->legacy_status = end->legacy_status ? end->legacy_status : start->legacy_status;
	out->legacy_tables = end->legacy_tables;
	out->truncated = start->nft_truncated || end->nft_truncated || start->over_cap ||
			 end->over_cap;
	out->drop_rules = end->n;
	for (size_t i = 0; i < end->n; i++) {
		const struct np_nfrule *e = &end->r[i], *s;
		struct np_nfrule_hit h = { .rule = *e };

		if (!e->has_counter) {
			if (!out->uncounted++)
				out->uncounted_example = *e;
			continue;
		}
		s = find(start, e, i);
		h.packets = e->packets;
		h.bytes = e->bytes;
		if (s && s->packets <= e->packets) {
			h.packets -= s->packets;
			h.bytes = e->bytes >= s->bytes ? e->bytes - s->bytes : 0;
		}
		if (!h.packets)
			continue;
		out->packets += h.packets;
		keep(out, &h);
	}
}

static const char *source_name(enum np_nfrule_source s)
{
	return s == NP_NFRULE_NFT ? "nftables" : "iptables-legacy";
}

/* "nftables ip filter INPUT rule 1 (handle 2): udp dport 9001 drop" */
static void describe(const struct np_nfrule *r, char *buf, size_t size)
{
	char handle[32] = "";

	if (r->verdict == NP_NFRULE_POLICY_DROP) {
		snprintf(buf, size, "%s %s %s %s policy DROP", source_name(r->source),
			 np_nfrule_family_name(r->family), r->table, r->chain);
		return;
	}
	if (r->source == NP_NFRULE_NFT)
		snprintf(handle, sizeof(handle), " (handle %llu)", (unsigned long long)r->handle);
	snprintf(buf, size, "%s %s %s %s rule %u%s: %s%s%s", source_name(r->source),
		 np_nfrule_family_name(r->family), r->table, r->chain, r->position, handle,
		 r->match, r->match[0] ? " " : "", np_nfrule_verdict_name(r->verdict));
}

static const char *status_text(int status, char *buf, size_t size)
{
	if (status == 0)
		return "read";
	if (status == -ENOENT)
		return "not loaded";
	snprintf(buf, size, "not read: %s", strerror(-status));
	return buf;
}

/* The advice for drop rules without a counter, in nft's own command. */
static void advice(const struct np_nfrule_report *r, char *buf, size_t size)
{
	const struct np_nfrule *x = &r->uncounted_example;
	const char *fam = np_nfrule_family_name(x->family);

	snprintf(buf, size, "%zu nftables drop rule%s without a counter, e.g. %s %s %s handle "
		 "%llu (%s): counting it takes 'nft replace rule %s %s %s handle %llu %s%scounter "
		 "%s' (netpath never changes the ruleset)", r->uncounted,
		 r->uncounted == 1 ? "" : "s", fam, x->table, x->chain,
		 (unsigned long long)x->handle, x->match[0] ? x->match : "all packets", fam,
		 x->table, x->chain, (unsigned long long)x->handle, x->match,
		 x->match[0] ? " " : "", np_nfrule_verdict_name(x->verdict));
}

void np_nfrule_render_text(FILE *out, const struct np_nfrule_report *r, const char *indent)
{
	char d[1200], a[32], e[96];

	for (size_t i = 0; i < r->n; i++) {
		describe(&r->hits[i].rule, d, sizeof(d));
		fprintf(out, "%srule %-51s %12s\n", indent, d,
			np_fmt_count((double)r->hits[i].packets, a, sizeof(a)));
	}
	if (r->others)
		fprintf(out, "%srule %-51s %12s\n", indent, "(other rules)",
			np_fmt_count((double)r->others_packets, a, sizeof(a)));
	if (!r->n)
		fprintf(out, "%s(no drop rule's counter grew during the window: %zu drop rules "
			"read; nftables chain policies and conntrack refusals have no rule "
			"counter)\n", indent, r->drop_rules);
	if (r->uncounted) {
		advice(r, d, sizeof(d));
		fprintf(out, "%s(%s)\n", indent, d);
	}
	if (r->nft_status && r->nft_status != -ENOENT)
		fprintf(out, "%s(nftables rules %s)\n", indent,
			status_text(r->nft_status, e, sizeof(e)));
	if (r->legacy_status)
		fprintf(out, "%s(iptables-legacy tables %s)\n", indent,
			status_text(r->legacy_status, e, sizeof(e)));
	if (r->truncated)
		fprintf(out, "%s(the rule read was cut at its bounds: rules may be missing)\n",
			indent);
}

static void rule_json(struct np_json *j, const struct np_nfrule_hit *h)
{
	const struct np_nfrule *r = &h->rule;

	np_json_obj_open(j);
	np_json_kv_str(j, "source", source_name(r->source));
	np_json_kv_str(j, "family", np_nfrule_family_name(r->family));
	np_json_kv_str(j, "table", r->table);
	np_json_kv_str(j, "chain", r->chain);
	np_json_key(j, "handle");
	if (r->source == NP_NFRULE_NFT)
		np_json_u64(j, r->handle);
	else
		np_json_null(j);
	np_json_kv_u64(j, "position", r->position);
	np_json_kv_str(j, "verdict", np_nfrule_verdict_name(r->verdict));
	np_json_kv_str(j, "match", r->match);
	np_json_kv_u64(j, "packets", h->packets);
	np_json_kv_u64(j, "bytes", h->bytes);
	np_json_obj_close(j);
}

void np_nfrule_render_json(struct np_json *j, const struct np_nfrule_report *r)
{
	char buf[1200];

	np_json_key(j, "rule");
	if (!r) {
		np_json_null(j);
		np_json_kv_null(j, "rule_note");
		return;
	}
	np_json_arr_open(j);
	for (size_t i = 0; i < r->n; i++)
		rule_json(j, &r->hits[i]);
	np_json_arr_close(j);
	np_json_key(j, "rule_note");
	np_json_obj_open(j);
	np_json_kv_u64(j, "packets", r->packets);
	np_json_kv_u64(j, "rules_other", r->others);
	np_json_kv_u64(j, "packets_other", r->others_packets);
	np_json_kv_u64(j, "drop_rules", r->drop_rules);
	np_json_kv_u64(j, "uncounted_drop_rules", r->uncounted);
	np_json_key(j, "advice");
	if (r->uncounted) {
		advice(r, buf, sizeof(buf));
		np_json_str(j, buf);
	} else {
		np_json_null(j);
	}
	np_json_kv_str(j, "nftables", status_text(r->nft_status, buf, sizeof(buf)));
	np_json_kv_str(j, "iptables_legacy", status_text(r->legacy_status, buf, sizeof(buf)));
	np_json_kv_bool(j, "truncated", r->truncated);
	np_json_obj_close(j);
}
