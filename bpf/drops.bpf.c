// SPDX-License-Identifier: GPL-2.0-only
/* Count skb:kfree_skb drops by reason (or location) and arrivals by rx queue, per CPU, for one
 * device of one network namespace. Tracepoints only: nothing here can change a packet's fate. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "netpath_bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load (frozen .rodata: the verifier prunes the branches they
 * disable, which is what lets one object load on kernels with and without the reason). */
const volatile __u32 targ_ifindex = 0;
const volatile __u32 targ_netns = 0;	/* ns.inum of the target's namespace (/proc/self/ns/net) */
const volatile bool has_reason = false;	/* kfree_skb has a third argument (5.17+) */
/* Attribution: count each drop's flow (top flows per reason), keyed as --by says. */
const volatile bool flows_on = false;
const volatile __u32 flow_by = NP_BY_FLOW;
/* NOT_SPECIFIED: mostly normal frees, reported per function without flows; keeping their
 * flows out leaves the map's keys to real drops. */
const volatile __u32 noflow_reason = 0xffffffff;
/* Filters (--host, --port, --proto): a drop that does not match is not counted at all. */
const volatile bool filt_host = false;
const volatile __u8 filt_family = 0;		/* NP_FLOW_IPV4 or NP_FLOW_IPV6 */
const volatile __u8 filt_addr[16] = {};		/* network order, already masked */
const volatile __u8 filt_mask[16] = {};		/* the prefix as a byte mask */
const volatile bool filt_port_on = false;
const volatile __u16 filt_port = 0;		/* source or destination port */
const volatile bool filt_proto_on = false;
const volatile __u8 filt_proto = 0;
/* --stack: record the kernel stack of every counted drop. */
const volatile bool stacks_on = false;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, NP_BPF_MAX_DROP_KEYS);
	__type(key, struct np_drop_key);
	__type(value, __u64);
} drops SEC(".maps");

/* The drops map's fast path: per CPU, one (location, count) slot per reason, taken by the
 * first location that drops for that reason on that CPU (a reason is nearly always dropped at
 * one place). An inlined array lookup and an add instead of hashing a key in the per-CPU hash;
 * a drop at another location of the same reason goes to the hash as before. The reader adds
 * both. A program does not run nested on its own CPU, so the slot needs no atomics. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NP_BPF_MAX_REASONS);
	__type(key, __u32);
	__type(value, struct np_drop_slot);
} drop_fast SEC(".maps");

/* Indexed by skb->queue_mapping: an array lookup is a few inlined instructions, a hash
 * lookup a helper call and a hash, on every packet of the device. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NP_BPF_MAX_QUEUES);
	__type(key, __u32);
	__type(value, struct np_arrival_val);
} arrivals SEC(".maps");

/* Shared between CPUs (atomic adds): a per-CPU hash of this size would cost ncpu times the
 * memory for keys that are mostly seen on one CPU. Preallocated, so an update in the
 * tracepoint never allocates; full is full (see flow_other). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NP_BPF_MAX_FLOWS);
	__type(key, struct np_flow_key);
	__type(value, __u64);
} flows SEC(".maps");

/* The flows map's fast path, as drop_fast is the drops map's: per CPU, one (flow, count) slot
 * per reason, taken by the first flow dropped for the reason on that CPU. A flood, or any
 * drop burst, is mostly one flow per reason per CPU: its drops then cost a compare and an add
 * on this CPU's cache line instead of hashing a 48-byte key and an atomic add on a value all
 * CPUs share. The slot's key never changes, so the reader adds its count to the flow's row
 * (exact, with no flush to race with); other flows go to the hash as before. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NP_BPF_MAX_REASONS);
	__type(key, __u32);
	__type(value, struct np_flow_slot);
} flow_fast SEC(".maps");

/* Per reason: drops whose flow found the flows map full ("other", reported with the cap). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NP_BPF_MAX_REASONS);
	__type(key, __u32);
	__type(value, __u64);
} flow_other SEC(".maps");

/* --stack (the loader shrinks both to 1 entry without it). */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, NP_BPF_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, NP_BPF_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NP_BPF_MAX_STACK_KEYS);
	__type(key, struct np_stack_key);
	__type(value, __u64);
} stack_counts SEC(".maps");

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
 * dev_scratch (UDP reuses it once queued): the reads (CO-RE, or direct BTF loads in tp_btf,
 * which the verifier makes fault-safe) never fault, and a bogus
 * pointer reads as 0, which matches no device and no namespace.
 */
static __always_inline bool skb_is_target(const struct sk_buff *skb, bool direct)
{
	struct net_device *dev = RD(direct, skb, dev);
	struct sock *sk;

	if (dev_is_target(dev, direct))
		return true;
	if (RD(direct, skb, skb_iif) != (int)targ_ifindex)
		return false;
	sk = RD(direct, skb, sk);
	if (sk && direct)
		return sk->__sk_common.skc_net.net->ns.inum == targ_netns;
	if (sk)
		return BPF_CORE_READ(sk, __sk_common.skc_net.net, ns.inum) == targ_netns;
	if (!dev)
		return false;
	if (direct)
		return dev->nd_net.net->ns.inum == targ_netns;
	return BPF_CORE_READ(dev, nd_net.net, ns.inum) == targ_netns;
}

#define NP_ETH_P_IP	0x0800
#define NP_ETH_P_IPV6	0x86DD
#define NP_ETH_P_8021Q	0x8100
#define NP_ETH_P_8021AD	0x88A8

/* Ports (TCP, UDP, UDP-Lite, SCTP: the first four bytes) or ICMP type and code, from the first
 * four bytes of the transport header. */
static __always_inline void l4_fields(const __u8 *b, struct np_flow_key *k)
{
	if (k->proto == 6 || k->proto == 17 || k->proto == 136 || k->proto == 132) {
		k->sport = (__u16)(b[0] << 8 | b[1]);
		k->dport = (__u16)(b[2] << 8 | b[3]);
	} else if (k->proto == 1 || k->proto == 58) {
		k->sport = b[0];
		k->dport = b[1];
	}
}

/*
 * The dropped packet's flow, from skb->head and the header offsets, which stay valid wherever
 * skb->data points at the moment of the drop (an skb freed in UDP has data at the payload).
 * A VLAN tag is either already taken out (skb->vlan_all/vlan_tci) or still in the frame (a drop
 * before __netif_receive_skb_core untags it): one tag is followed, not QinQ stacks. IPv6
 * extension headers are not walked: the first next header is the protocol. Non-first IPv4
 * fragments carry no ports. Anything unreadable leaves family NP_FLOW_NONE.
 */
static __always_inline void parse_flow(const struct sk_buff *skb, struct np_flow_key *k,
				       bool direct)
{
	const unsigned char *head = RD(direct, skb, head);
	__u16 proto = bpf_ntohs(RD(direct, skb, protocol));
	__u16 nh = RD(direct, skb, network_header);
	__u16 mh = RD(direct, skb, mac_header);
	__u16 tci = RD(direct, skb, vlan_tci);
	union {
		struct iphdr ip;
		struct ipv6hdr ip6;
		__u8 raw[44];	/* IPv6 header + 4 bytes of transport header */
	} h;
	bool tagged;

	if (bpf_core_field_exists(skb->vlan_all))
		tagged = RD(direct, skb, vlan_all) != 0;
	else
		tagged = tci != 0;
	if (tagged)
		k->vlan = NP_FLOW_VLAN | (tci & 0x0fff);
	if ((proto == NP_ETH_P_8021Q || proto == NP_ETH_P_8021AD) && mh != 0xffff) {
		__u8 tag[4];

		if (bpf_probe_read_kernel(tag, 4, head + mh + 14))
			return;
		k->vlan = NP_FLOW_VLAN | ((tag[0] & 0x0f) << 8 | tag[1]);
		proto = (__u16)(tag[2] << 8 | tag[3]);
		nh = mh + 18;
	}
	if (nh == 0xffff)
		return;
	if (proto != NP_ETH_P_IP && proto != NP_ETH_P_IPV6)
		return;
	/* One read for the network header and the transport header's first four bytes (IPv6, or
	 * IPv4 without options): a helper call is a good part of the cost per drop. Reading 44
	 * bytes past a short IPv4 packet stays inside the skb's head buffer, which
	 * skb_shared_info follows. */
	if (bpf_probe_read_kernel(&h, sizeof(h), head + nh))
		return;
	if (proto == NP_ETH_P_IP) {
		if (h.ip.version != 4)
			return;
		k->family = NP_FLOW_IPV4;
		k->proto = h.ip.protocol;
		__builtin_memcpy(k->src, &h.ip.saddr, 4);
		__builtin_memcpy(k->dst, &h.ip.daddr, 4);
		if (bpf_ntohs(h.ip.frag_off) & 0x1fff)
			return;
		if (h.ip.ihl == 5) {
			l4_fields(h.raw + 20, k);
		} else {
			__u8 b[4];

			if (bpf_probe_read_kernel(b, 4, head + nh + h.ip.ihl * 4) == 0)
				l4_fields(b, k);
		}
	} else {
		if (h.ip6.version != 6)
			return;
		k->family = NP_FLOW_IPV6;
		k->proto = h.ip6.nexthdr;
		__builtin_memcpy(k->src, &h.ip6.saddr, 16);
		__builtin_memcpy(k->dst, &h.ip6.daddr, 16);
		l4_fields(h.raw + 40, k);
	}
}

static __always_inline bool addr_matches(const __u8 *a)
{
	for (int i = 0; i < 16; i++)
		if ((a[i] & filt_mask[i]) != filt_addr[i])
			return false;
	return true;
}

/* --host, --port, --proto: all that are given must match. Non-IP packets match none. */
static __always_inline bool flow_wanted(const struct np_flow_key *k)
{
	if (filt_host && (k->family != filt_family ||
			  (!addr_matches(k->src) && !addr_matches(k->dst))))
		return false;
	if (filt_proto_on && (k->family == NP_FLOW_NONE || k->proto != filt_proto))
		return false;
	if (filt_port_on && (k->family == NP_FLOW_NONE ||
			     (k->sport != filt_port && k->dport != filt_port)))
		return false;
	return true;
}

/* Zero what --by leaves out: fewer distinct keys, so the cap is reached later. */
static __always_inline void flow_mask(struct np_flow_key *k)
{
	if (flow_by == NP_BY_SRC || flow_by == NP_BY_PORT)
		__builtin_memset(k->dst, 0, 16);
	if (flow_by == NP_BY_DST || flow_by == NP_BY_PORT)
		__builtin_memset(k->src, 0, 16);
	if (flow_by == NP_BY_SRC || flow_by == NP_BY_DST) {
		k->proto = 0;
		k->sport = 0;
		k->dport = 0;
	}
	if (flow_by == NP_BY_PORT && k->proto != 1 && k->proto != 58)
		k->sport = 0;	/* the service port; ICMP keeps type and code */
}

static __always_inline bool same_flow(const struct np_flow_key *a, const struct np_flow_key *b)
{
	const __u32 *x = (const __u32 *)a, *y = (const __u32 *)b;
	__u32 diff = 0;

	/* Branch-free over the 12 words: one test at the end. */
	for (int i = 0; i < (int)(sizeof(*a) / 4); i++)
		diff |= x[i] ^ y[i];
	return diff == 0;
}

static __always_inline void count_flow(struct np_flow_key *k)
{
	struct np_flow_slot *s;
	__u64 *v, one = 1;
	__u32 r = k->reason;
	long e;

	flow_mask(k);
	s = bpf_map_lookup_elem(&flow_fast, &r);
	if (s && s->count) {
		if (same_flow(&s->key, k)) {
			s->count += 1;	/* no atomics: a program does not nest on its CPU */
			return;
		}
	} else if (s) {
		s->key = *k;
		/* The key before the count: a reader that sees a count sees its flow. */
		asm volatile("" ::: "memory");
		s->count = 1;
		return;
	}
	v = bpf_map_lookup_elem(&flows, k);
	if (v) {
		__sync_fetch_and_add(v, 1);
		return;
	}
	e = bpf_map_update_elem(&flows, k, &one, BPF_NOEXIST);
	if (e == 0)
		return;
	if (e == -17) {	/* -EEXIST: another CPU created it meanwhile */
		v = bpf_map_lookup_elem(&flows, k);
		if (v) {
			__sync_fetch_and_add(v, 1);
			return;
		}
	}
	/* Full: the reason's "other" bucket, never silence. */
	v = bpf_map_lookup_elem(&flow_other, &r);
	if (v)
		*v += 1;
	else
		stat_inc(NP_BPF_STAT_LOST);
}

/*
 * --stack: the stack of this drop, by the kernel's unwinder (ORC or frame pointers on x86),
 * the costly part of --stack, paid only for drops of the target device that passed the
 * filters. bpf_get_stackid() hashes the frames and stores each distinct stack once; without
 * BPF_F_REUSE_STACKID a different stack with the same hash is refused (-EEXIST), never
 * overwritten, so a stack id always means one stack.
 */
static __always_inline void count_stack(void *ctx, __u32 reason)
{
	struct np_stack_key k = { .reason = reason };
	__u64 *v, one = 1;
	long id = bpf_get_stackid(ctx, &stacks, 0);

	k.stackid = id < 0 ? -1 : (__s32)id;
	v = bpf_map_lookup_elem(&stack_counts, &k);
	if (v) {
		__sync_fetch_and_add(v, 1);
		return;
	}
	if (bpf_map_update_elem(&stack_counts, &k, &one, BPF_NOEXIST) == 0)
		return;
	v = bpf_map_lookup_elem(&stack_counts, &k);	/* -EEXIST: another CPU made it */
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		stat_inc(NP_BPF_STAT_STACK_UNKEYED);
}

/* Everything below runs only for skbs being dropped: the tracepoint fires on frees alone. */
static __always_inline void count_drop(void *ctx, const struct sk_buff *skb, __u64 location,
				       __u32 reason, bool direct)
{
	struct np_drop_key key = { .reason = reason, .location = location };
	struct np_flow_key fk = { .reason = reason };
	bool filtering = filt_host || filt_port_on || filt_proto_on;
	struct np_drop_slot *slot;
	__u64 *v, one = 1;

	if (!skb || !skb_is_target(skb, direct))
		return;
	if (flows_on || filtering)
		parse_flow(skb, &fk, direct);
	if (filtering && !flow_wanted(&fk)) {
		stat_inc(NP_BPF_STAT_FILTERED);
		return;
	}
	if (flows_on && reason != noflow_reason)
		count_flow(&fk);
	if (stacks_on)
		count_stack(ctx, reason);
	slot = bpf_map_lookup_elem(&drop_fast, &reason);
	if (slot && slot->location == location) {
		slot->count += 1;
		return;
	}
	if (slot && slot->location == 0) {
		slot->location = location;
		/* The location before the count: a reader that sees a count sees its place. */
		asm volatile("" ::: "memory");
		slot->count = 1;
		return;
	}
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
	count_drop(ctx, (const struct sk_buff *)ctx[0], ctx[1], reason, true);
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
	count_drop(ctx, (const struct sk_buff *)ctx->args[0], ctx->args[1], reason, false);
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
