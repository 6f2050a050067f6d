// SPDX-License-Identifier: GPL-2.0-only
/* Read enum skb_drop_reason (and its subsystems) from BTF with libbpf. */
#include "trace_names.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "log.h"

static int cmp_value(const void *a, const void *b)
{
	const struct np_reason_name *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* The enum's members with `prefix` stripped, sorted by value. A 64-bit enum (BTF_KIND_ENUM64,
 * never used for this enum so far) is read through its low 32 bits. */
static int read_enum(const struct btf *btf, const char *ename, const char *prefix,
		     struct np_reason_name **out, size_t *nout)
{
	const struct btf_type *t;
	struct np_reason_name *e;
	size_t plen = strlen(prefix);
	int id;

	id = btf__find_by_name_kind(btf, ename, BTF_KIND_ENUM);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	if (!t || btf_vlen(t) == 0)
		return -ENOENT;
	e = calloc(btf_vlen(t), sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (unsigned int i = 0; i < btf_vlen(t); i++) {
		const struct btf_enum *m = &btf_enum(t)[i];
		const char *name = btf__name_by_offset(btf, m->name_off);

		if (!name)
			name = "?";
		if (strncmp(name, prefix, plen) == 0)
			name += plen;
		else if (strncmp(name, "SKB_", 4) == 0)	/* SKB_NOT_DROPPED_YET, SKB_CONSUMED */
			name += 4;
		e[i].value = (uint32_t)m->val;
		snprintf(e[i].name, sizeof(e[i].name), "%s", name);
	}
	qsort(e, btf_vlen(t), sizeof(*e), cmp_value);
	*out = e;
	*nout = btf_vlen(t);
	return 0;
}

int np_reason_names_from_btf(const struct btf *btf, struct np_reason_names *n)
{
	int64_t mask;
	int r;

	memset(n, 0, sizeof(*n));
	r = read_enum(btf, "skb_drop_reason", "SKB_DROP_REASON_", &n->e, &n->n);
	if (r < 0)
		return r;
	/* SUBSYS_MASK (6.4+) covers the subsystem bits: its lowest set bit is the shift. */
	mask = np_reason_value(n, "SUBSYS_MASK");
	if (mask > 0) {
		n->subsys_shift = (unsigned int)__builtin_ctz((uint32_t)mask);
		r = read_enum(btf, "skb_drop_reason_subsys", "SKB_DROP_REASON_SUBSYS_", &n->subsys,
			      &n->nsubsys);
		if (r == -ENOMEM) {
			np_reason_names_free(n);
			return r;
		}
	}
	return 0;
}

int np_reason_names_load_vmlinux(struct np_reason_names *n)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int r;

	memset(n, 0, sizeof(*n));
	if (!btf) {
		np_dbg("trace: no kernel BTF: %s", strerror(errno));
		return -ENODATA;
	}
	r = np_reason_names_from_btf(btf, n);
	btf__free(btf);
	return r;
}
