// SPDX-License-Identifier: GPL-2.0-only
/* Count skb:kfree_skb drops by reason (or location) and arrivals by rx queue, per CPU, for one
 * device of one network namespace. Tracepoints only: nothing here can change a packet's fate. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "netpath_bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load (frozen .rodata: the verifier prunes the branches they
 * disable, which is what lets one object load on kernels with and without the reason). */
const volatile __u32 targ_ifindex = 0;
const volatile __u32 targ_netns = 0;	/* ns.inum of the target's namespace (/proc/self/ns/net) */
const volatile bool has_reason = false;	/* kfree_skb has a third argument (5.17+) */
const volatile bool by_location = false;	/* key every drop by its freeing location too */
/* The one reason also keyed by location: NOT_SPECIFIED, where the location is the only clue. */
const volatile __u32 loc_reason = 0xffffffff;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, NP_BPF_MAX_DROP_KEYS);
	__type(key, struct np_drop_key);
	__type(value, __u64);
} drops SEC(".maps");

/* Indexed by skb->queue_mapping: an array lookup is a few inlined instructions, a hash
 * lookup a helper call and a hash, on every packet of the device. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NP_BPF_MAX_QUEUES);
	__type(key, __u32);
	__type(value, struct np_arrival_val);
} arrivals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NP_BPF_STAT__COUNT);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void stat_inc(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &slot);

	if (v)
		*v += 1;
}

/*
 * Field reads. BTF-typed tracepoints may load kernel memory directly (the verifier makes each
 * load fault-safe: a bad pointer reads as 0); raw tracepoints must go through
 * bpf_probe_read_kernel(), a helper call per field. `direct` is a constant at every call
 * site, so each program keeps only its own kind of read.
 */
#define RD(direct, base, field) ((direct) ? (base)->field : BPF_CORE_READ(base, field))

/* The namespace by its proc inode: stable since 3.19, the number `ls -l /proc/PID/ns/net`
 * shows, and readable through CO-RE on every kernel this program loads on. */
static __always_inline bool dev_is_target(const struct net_device *dev, bool direct)
{
	if (!dev || RD(direct, dev, ifindex) != (int)targ_ifindex)
		return false;
	if (direct)
		return dev->nd_net.net->ns.inum == targ_netns;
	return BPF_CORE_READ(dev, nd_net.net, ns.inum) == targ_netns;
}

/*
 * Did this skb arrive on the target device? skb->dev while it is still on the device;
 * afterwards skb->skb_iif (set by __netif_receive_skb_core), with the namespace taken from
 * the socket it was charged to or from the device it is on now. skb->dev shares a union with
 * dev_scratch (UDP reuses it once queued): the CO-RE reads are fault-tolerant, and a bogus
 * pointer reads as 0, which matches no device and no namespace.
 */
static __always_inline bool skb_is_target(const struct sk_buff *skb)
{
	struct net_device *dev = BPF_CORE_READ(skb, dev);
	struct sock *sk;

	if (dev_is_target(dev, false))
		return true;
	if (BPF_CORE_READ(skb, skb_iif) != (int)targ_ifindex)
		return false;
	sk = BPF_CORE_READ(skb, sk);
	if (sk)
		return BPF_CORE_READ(sk, __sk_common.skc_net.net, ns.inum) == targ_netns;
	return dev && BPF_CORE_READ(dev, nd_net.net, ns.inum) == targ_netns;
}

static __always_inline void count_drop(const struct sk_buff *skb, __u64 location, __u32 reason)
{
	struct np_drop_key key = { .reason = reason };
	__u64 *v, one = 1;

	if (!skb || !skb_is_target(skb))
		return;
	if (by_location || reason == loc_reason)
		key.location = location;
	v = bpf_map_lookup_elem(&drops, &key);
	if (v) {
		*v += 1;
		return;
	}
	/* -EEXIST: another CPU created the key; this CPU's slot is then 0, so look again. */
	if (bpf_map_update_elem(&drops, &key, &one, BPF_NOEXIST) == 0)
		return;
	v = bpf_map_lookup_elem(&drops, &key);
	if (v)
		*v += 1;
	else
		stat_inc(NP_BPF_STAT_LOST);
}

static __always_inline void count_arrival(const struct sk_buff *skb, bool gro, bool direct)
{
	struct np_arrival_val *v;
	__u32 q;

	if (!skb || !dev_is_target(RD(direct, skb, dev), direct))
		return;
	q = RD(direct, skb, queue_mapping);
	v = bpf_map_lookup_elem(&arrivals, &q);
	if (!v) {
		stat_inc(NP_BPF_STAT_LOST);	/* a queue beyond NP_BPF_MAX_QUEUES */
		return;
	}
	if (gro)
		v->gro += 1;
	else
		v->packets += 1;
}

/* BTF-typed tracepoints (5.5+). The reason is read only when the loader says the tracepoint
 * has it: an access past the last argument would fail verification on 5.5-5.16. */
SEC("tp_btf/kfree_skb")
int np_drop_btf(__u64 *ctx)
{
	__u32 reason = 0;

	if (has_reason)
		reason = (__u32)ctx[2];
	count_drop((const struct sk_buff *)ctx[0], ctx[1], reason);
	return 0;
}

SEC("tp_btf/netif_receive_skb")
int np_rx_btf(__u64 *ctx)
{
	count_arrival((const struct sk_buff *)ctx[0], false, true);
	return 0;
}

SEC("tp_btf/napi_gro_receive_entry")
int np_gro_btf(__u64 *ctx)
{
	count_arrival((const struct sk_buff *)ctx[0], true, true);
	return 0;
}

/* Raw tracepoints: the fallback where tp_btf does not load (5.4: BTF but no tp_btf). */
SEC("raw_tp/kfree_skb")
int np_drop_raw(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 reason = 0;

	if (has_reason)
		reason = (__u32)ctx->args[2];
	count_drop((const struct sk_buff *)ctx->args[0], ctx->args[1], reason);
	return 0;
}

SEC("raw_tp/netif_receive_skb")
int np_rx_raw(struct bpf_raw_tracepoint_args *ctx)
{
	count_arrival((const struct sk_buff *)ctx->args[0], false, false);
	return 0;
}

SEC("raw_tp/napi_gro_receive_entry")
int np_gro_raw(struct bpf_raw_tracepoint_args *ctx)
{
	count_arrival((const struct sk_buff *)ctx->args[0], true, false);
	return 0;
}
