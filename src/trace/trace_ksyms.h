/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel addresses to function names through /proc/kallsyms text (kernels without reasons). */
#ifndef NP_TRACE_KSYMS_H
#define NP_TRACE_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct np_ksym {
	uint64_t addr;
	char *name;		/* "udp_queue_rcv_one_skb", "foo [module]" */
};

struct np_ksyms {
	size_t n;
	struct np_ksym *s;	/* text symbols, sorted by address */
};

/* Parse kallsyms text ("ffffffff81000000 T _stext"); only text symbols (t/T) are kept.
 * Returns 0, -ENOMEM, or -ENOENT when no line carried an address (unprivileged readers see
 * zeros: kptr_restrict). */
int np_ksyms_parse(const char *text, size_t len, struct np_ksyms *k);
/* The function containing addr, and the offset into it; NULL below the first symbol. */
const struct np_ksym *np_ksyms_find(const struct np_ksyms *k, uint64_t addr, uint64_t *off);
/* "func+0x1a" into buf, or "0xffff..." when unresolved. Returns buf. */
const char *np_ksyms_format(const struct np_ksyms *k, uint64_t addr, char *buf, size_t size);
void np_ksyms_free(struct np_ksyms *k);

#endif
