/* SPDX-License-Identifier: GPL-2.0-only */
/* What the counters' encoder and apply share (snapshot_counters*.c): the fixed-field tables. */
#ifndef NP_SNAPSHOT_COUNTERS_PRIV_H
#define NP_SNAPSHOT_COUNTERS_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "snapshot.h"

/* One u64 member of a struct and its name in the frame; tables end with a NULL name. */
struct np_snapcnt_field {
	const char *name;
	size_t off;
};

extern const struct np_snapcnt_field np_snapcnt_softnet[], np_snapcnt_sockstat[],
	np_snapcnt_mem[], np_snapcnt_carrier[], np_snapcnt_qstat[], np_snapcnt_qdisc[],
	np_snapcnt_pause[], np_snapcnt_aer[], np_snapcnt_socks[];

static inline uint64_t np_snapcnt_field_get(const void *base, const struct np_snapcnt_field *f)
{
	uint64_t v;

	memcpy(&v, (const char *)base + f->off, sizeof(v));
	return v;
}

static inline void np_snapcnt_field_set(void *base, const struct np_snapcnt_field *f, uint64_t v)
{
	memcpy((char *)base + f->off, &v, sizeof(v));
}

/* The one sysctl that is a gauge, not a setting (the conntrack table's fill): in the frames
 * ("sysctl/KEY"), left out of the configuration's digest. */
#define NP_SNAPCNT_SYSCTL_GAUGE "net.netfilter.nf_conntrack_count"

/* The device prefix of the names: s->dev.name, else s->ifname. */
const char *np_snapcnt_devname(const struct np_snapshot *s);

/* Who the configuration's summary listed (apply keeps their identity: addresses, owner). */
struct np_snapcnt_sock_ids {
	uint32_t nudp, nlisten;
	struct np_sock_id udp[NP_SOCK_TOP], listen[NP_SOCK_TOP];
};

/* One "IF/sk/..." name (rest: after "sk/") into k, whose lists apply emptied. 0. */
int np_snapcnt_apply_sock(struct np_sockets *k, const struct np_snapcnt_sock_ids *old,
			  const char *rest, uint64_t v);

/* The IRQ part of apply (snapshot_counters_irq.c); zero-initialised. */
struct np_snapcnt_irq_cell;
struct np_snapcnt_irq {
	int32_t *col;			/* column -> CPU id as the frame names them, -1 none */
	size_t ncol;			/* columns named (highest + 1) */
	struct np_snapcnt_irq_cell *cell;
	size_t ncell, cap, last_line;
};

/* One "IF/irq/..." name (rest: after "irq/"). 0 or -ENOMEM. */
int np_snapcnt_irq_name(struct np_snapcnt_irq *st, struct np_interrupts *it, const char *rest,
			uint64_t v);
/* Columns and counts into it, whose columns were cleared (col_cpu NULL, ncols 0). */
int np_snapcnt_irq_finish(struct np_snapcnt_irq *st, struct np_interrupts *it);
void np_snapcnt_irq_free(struct np_snapcnt_irq *st);

/* A decimal id of a name (no sign, no leading junk) at most max, followed by stop ('\0' or
 * '/', then skipped): *p moves past it. False, *p unmoved, otherwise. Inline: apply and the
 * IRQ part both parse names, and neither file should call into the other. */
static inline bool np_snapcnt_parse_id(const char **p, unsigned long long max, char stop,
				       unsigned long long *out)
{
	const char *q = *p;
	unsigned long long x = 0;

	if (*q < '0' || *q > '9')
		return false;
	for (; *q >= '0' && *q <= '9'; q++) {
		x = x * 10 + (unsigned)(*q - '0');
		if (x > max)
			return false;
	}
	if (*q != stop)
		return false;
	*out = x;
	*p = q + (stop ? 1 : 0);
	return true;
}

#endif
