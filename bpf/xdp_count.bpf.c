// SPDX-License-Identifier: GPL-2.0-only
/* netpath trace --xdp: count packets and bytes per rx queue and CPU at the driver; always pass. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "xdp_count.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NP_XDP_SLOTS);
	__type(key, __u32);
	__type(value, struct np_xdp_slot);
} np_xdp_counts SEC(".maps");

/*
 * The program name is what `bpftool prog/link show` lists, so an admin can tell whose program
 * is attached. It only reads the frame's bounds and never touches its data, and every path
 * ends in XDP_PASS: attached, it changes nothing about where packets go.
 */
SEC("xdp")
int np_xdp_count(struct xdp_md *ctx)
{
	__u32 slot = ctx->rx_queue_index;
	struct np_xdp_slot *v;

	if (slot >= NP_XDP_MAX_QUEUES)
		slot = NP_XDP_MAX_QUEUES;
	v = bpf_map_lookup_elem(&np_xdp_counts, &slot);
	if (v) {
		v->packets++;
		/* Without the xdp.frags flag the kernel only hands this program single-buffer
		 * frames (generic mode linearizes), so data_end - data is the whole frame. */
		v->bytes += ctx->data_end - ctx->data;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
