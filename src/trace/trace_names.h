/* SPDX-License-Identifier: GPL-2.0-only */
/* Drop-reason names as the running kernel defines them (enum skb_drop_reason in its BTF). */
#ifndef NP_TRACE_NAMES_H
#define NP_TRACE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct np_reason_name {
	uint32_t value;
	char name[64];		/* without the SKB_DROP_REASON_ (or SKB_) prefix */
};

/*
 * The enum as read from BTF. Values are never hard-coded: they move between kernels
 * (TCP_LISTEN_OVERFLOW was inserted mid-enum). Since 6.4 the high bits of a reason name a
 * subsystem (mac80211, openvswitch) whose own enum owns the low bits.
 */
struct np_reason_names {
	size_t n;
	struct np_reason_name *e;	/* sorted by value */
	unsigned int subsys_shift;	/* 0: the kernel has no subsystem reasons */
	size_t nsubsys;
	struct np_reason_name *subsys;	/* enum skb_drop_reason_subsys, by value */
};

/* Name of a reason value into buf: "SOCKET_RCVBUFF", "OPENVSWITCH:3" for a subsystem's
 * reason, "reason-1234" for a value the enum does not have. Returns buf. */
const char *np_reason_name(const struct np_reason_names *n, uint32_t value, char *buf,
			   size_t size);
/* Value of a name (without prefix); -1 when the enum has no such name. */
int64_t np_reason_value(const struct np_reason_names *n, const char *name);
/* Sentinels of the enum that never reach the tracepoint (MAX, SUBSYS_MASK). */
bool np_reason_is_sentinel(const char *name);
void np_reason_names_free(struct np_reason_names *n);

struct btf;
/* Fill from a BTF object (any: the kernel's or one built by a test). -ENOENT when it has no
 * enum skb_drop_reason (kernels before 5.17), -ENOMEM. Needs libbpf (trace_btf.c). */
int np_reason_names_from_btf(const struct btf *btf, struct np_reason_names *n);
/* The same from the running kernel's BTF (/sys/kernel/btf/vmlinux). -ENOENT as above;
 * -ENODATA when the kernel has no BTF at all. */
int np_reason_names_load_vmlinux(struct np_reason_names *n);

#endif
