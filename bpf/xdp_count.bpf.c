// SPDX-License-Identifier: GPL-2.0-only
/* netpath trace --xdp: count packets and bytes per rx queue and CPU, and per source address,
 * at the driver; always pass. */
#include "vmlinux.h"
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "xdp_count.h"

/* Set by the loader before load: --top 0 leaves the per-source count out (the verifier then
 * prunes the header parsing; only the per-queue counters remain). */
const volatile bool sources_on = true;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NP_XDP_SLOTS);
	__type(key, __u32);
	__type(value, struct np_xdp_slot);
} np_xdp_counts SEC(".maps");

/* Per CPU, so the hot path has no atomics and no cache line bouncing between CPUs; summed in
 * user space. Preallocated (the default): an update never allocates in the driver's poll, and
 * full is full (NP_XDP_SRC_UNKEYED), never an eviction. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, NP_XDP_MAX_SOURCES);
	__type(key, struct np_xdp_src_key);
	__type(value, struct np_xdp_slot);
} np_xdp_sources SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NP_XDP_SRC__COUNT);
	__type(key, __u32);
	__type(value, struct np_xdp_slot);
} np_xdp_src_misc SEC(".maps");

#define NP_ETH_HLEN	14
#define NP_ETH_P_IP	0x0800
#define NP_ETH_P_IPV6	0x86DD
#define NP_ETH_P_8021Q	0x8100
#define NP_ETH_P_8021AD	0x88A8

static __always_inline void add(struct np_xdp_slot *v, __u64 bytes)
{
	v->packets++;
	v->bytes += bytes;
}

static __always_inline void count_misc(__u32 slot, __u64 bytes)
{
	struct np_xdp_slot *v = bpf_map_lookup_elem(&np_xdp_src_misc, &slot);

	if (v)
		add(v, bytes);
}

/*
 * The source address from the frame's headers: Ethernet, at most one VLAN tag, then IPv4
 * (saddr) or IPv6 (saddr). Every read is checked against data_end (the verifier insists);
 * nothing is written. 0 when a source was found, -1 when the frame has none.
 */
static __always_inline int frame_source(void *data, void *data_end, struct np_xdp_src_key *k)
{
	__u8 *p = data;
	__u16 proto;
	__u32 off = NP_ETH_HLEN;

	if (p + NP_ETH_HLEN > (__u8 *)data_end)
		return -1;
	proto = (__u16)(p[12] << 8 | p[13]);
	if (proto == NP_ETH_P_8021Q || proto == NP_ETH_P_8021AD) {
		if (p + NP_ETH_HLEN + 4 > (__u8 *)data_end)
			return -1;
		proto = (__u16)(p[16] << 8 | p[17]);
		off += 4;
	}
	if (proto == NP_ETH_P_IP) {
		struct iphdr *ip = (void *)(p + off);

		if ((void *)(ip + 1) > data_end || ip->version != 4)
			return -1;
		k->family = 4;
		__builtin_memcpy(k->addr, &ip->saddr, 4);
		return 0;
	}
	if (proto == NP_ETH_P_IPV6) {
		struct ipv6hdr *ip6 = (void *)(p + off);

		if ((void *)(ip6 + 1) > data_end || ip6->version != 6)
			return -1;
		k->family = 6;
		__builtin_memcpy(k->addr, &ip6->saddr, 16);
		return 0;
	}
	return -1;
}

static __always_inline void count_source(void *data, void *data_end, __u64 bytes)
{
	struct np_xdp_src_key k = {};
	struct np_xdp_slot *v, zero = {};

	if (frame_source(data, data_end, &k)) {
		count_misc(NP_XDP_SRC_NON_IP, bytes);
		return;
	}
	v = bpf_map_lookup_elem(&np_xdp_sources, &k);
	if (!v) {
		/* Created with this CPU's slot zeroed (the other CPUs' too); -EEXIST: another
		 * CPU created it meanwhile, and this CPU's slot is still there to take the add. */
		bpf_map_update_elem(&np_xdp_sources, &k, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&np_xdp_sources, &k);
	}
	if (v)
		add(v, bytes);
	else
		count_misc(NP_XDP_SRC_UNKEYED, bytes);	/* full: counted, never silent */
}

/*
 * The program name is what `bpftool prog/link show` lists, so an admin can tell whose program
 * is attached. It reads the frame's headers (bounds-checked, read-only) and never changes a
 * byte, and every path ends in XDP_PASS: attached, it changes nothing about where packets go.
 */
SEC("xdp")
int np_xdp_count(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	/* Without the xdp.frags flag the kernel only hands this program single-buffer frames
	 * (generic mode linearizes), so data_end - data is the whole frame. */
	__u64 bytes = (__u64)(data_end - data);
	__u32 slot = ctx->rx_queue_index;
	struct np_xdp_slot *v;

	if (slot >= NP_XDP_MAX_QUEUES)
		slot = NP_XDP_MAX_QUEUES;
	v = bpf_map_lookup_elem(&np_xdp_counts, &slot);
	if (v)
		add(v, bytes);
	if (sources_on)
		count_source(data, data_end, bytes);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
