// SPDX-License-Identifier: GPL-2.0-only
/*
 * The check table: every check, in receive-path order, which is the order of `netpath checks`,
 * the man page and the report. A check is one `const struct np_check np_check_<id>`, its id with
 * '.' and '-' turned into '_' (softnet.backlog-drops: np_check_softnet_backlog_drops), defined
 * in the file named beside it below. Adding a check: its entry in a file and one line here.
 */
#include "check.h"

#include <string.h>

#define NP_CHECKS(X) \
	/* link */ \
	X(link_down)                            /* link_state.c */ \
	X(link_duplex)                          /* link.c */ \
	X(link_carrier_flaps)                   /* link.c */ \
	X(link_mtu_jumbo)                       /* link.c */ \
	X(link_rx_errors)                       /* link.c */ \
	X(link_speed_below_best)                /* link_modes.c */ \
	X(link_phy_errors)                      /* link_modes.c */ \
	X(link_mtu_mismatch)                    /* link_mtu.c */ \
	X(link_member_mismatch)                 /* link_members.c */ \
	X(link_member_imbalance)                /* link_members.c */ \
	X(link_tunnel_mtu)                      /* link_tunnel.c */ \
	/* pcie */ \
	X(pcie_link_degraded)                   /* pcie.c */ \
	X(pcie_mps)                             /* pcie.c */ \
	/* nic */ \
	X(nic_missed)                           /* nic.c */ \
	X(nic_rx_dropped)                       /* nic.c */ \
	X(nic_ring_size)                        /* nic_driver.c */ \
	X(nic_port_discards)                    /* nic_driver.c */ \
	X(nic_cloud_allowance)                  /* nic_driver.c */ \
	X(nic_alloc_failures)                   /* nic_driver.c */ \
	X(nic_queue_drops)                      /* nic_flow.c */ \
	X(nic_pause_frames)                     /* nic_flow.c */ \
	X(nic_xdp_drops)                        /* nic_flow.c */ \
	/* irq */ \
	X(irq_affinity)                         /* irq.c */ \
	X(irq_cpu_rate)                         /* irq_cpu_rate.c */ \
	X(irq_numa)                             /* irq.c */ \
	X(irq_irqbalance)                       /* irq.c */ \
	X(irq_rss_channels)                     /* irq_rss.c */ \
	X(irq_rss_indirection)                  /* irq_rss.c */ \
	X(irq_coalescing)                       /* irq_coalescing.c */ \
	X(irq_gro)                              /* irq_gro.c */ \
	/* softnet */ \
	X(softnet_backlog_drops)                /* softnet.c */ \
	X(softnet_time_squeeze)                 /* softnet_cpu.c */ \
	X(softnet_flow_limit)                   /* softnet.c */ \
	X(softnet_single_cpu)                   /* softnet_cpu.c */ \
	X(softnet_max_backlog)                  /* softnet.c */ \
	/* ingress */ \
	X(ingress_xdp_attached)                 /* ingress_hooks.c */ \
	X(ingress_tc_drops)                     /* ingress_hooks.c */ \
	X(ingress_conntrack_full)               /* conntrack.c */ \
	X(ingress_conntrack_insert_failed)      /* conntrack.c */ \
	X(ingress_netfilter_drops)              /* ingress_netfilter.c */ \
	/* ip */ \
	X(ip_rp_filter)                         /* ip.c */ \
	X(ip_no_route)                          /* ip.c */ \
	X(ip_header_errors)                     /* ip.c */ \
	X(ip_addr_errors)                       /* ip.c */ \
	X(ip_in_discards)                       /* ip.c */ \
	X(ip_reassembly)                        /* ip.c */ \
	/* transport */ \
	X(transport_udp_no_ports)               /* transport.c */ \
	X(transport_checksum)                   /* transport.c */ \
	X(transport_tcp_backlog_drop)           /* transport.c */ \
	X(transport_tcp_prune)                  /* transport.c */ \
	X(transport_tcp_zero_window)            /* transport.c */ \
	/* socket */ \
	X(socket_udp_rcvbuf)                    /* socket.c */ \
	X(socket_udp_mem)                       /* socket_mem.c */ \
	X(socket_listen_overflow)               /* socket.c */ \
	X(socket_tcp_mem)                       /* socket_mem.c */ \
	X(socket_tcp_rmem_bdp)                  /* socket_bdp.c */ \
	X(socket_tcp_wmem_bdp)                  /* socket_bdp.c */ \
	X(socket_rcvbuf_autotuning)             /* socket_bdp.c */ \
	X(socket_rmem_max)                      /* socket_bdp.c */ \
	X(socket_buffer_limits)                 /* socket_bdp.c */ \
	X(socket_listen_queue)                  /* socket_live.c */ \
	X(socket_udp_socket_drops)              /* socket_live.c */ \
	X(socket_tcp_buffer_ceiling)            /* socket_live_buf.c */ \
	X(socket_tcp_buffer_pinned)             /* socket_live_buf.c */ \
	/* congestion */ \
	X(congestion_qdisc_drops)               /* congestion_qdisc.c */ \
	X(congestion_cc)                        /* congestion.c */ \
	X(congestion_pacing)                    /* congestion.c */ \
	X(congestion_bbr_without_fq)            /* congestion_qdisc.c */ \
	X(congestion_slow_start_after_idle)     /* congestion.c */ \
	X(congestion_mtu_probing)               /* congestion.c */ \
	X(congestion_txqueuelen)                /* congestion_qdisc.c */ \
	X(congestion_keepalive)                 /* congestion.c */ \
	X(congestion_lossy_long_flows)          /* congestion_live.c */ \
	X(congestion_cc_in_use)                 /* congestion_live.c */

#define DECLARE(name) extern const struct np_check np_check_##name;
NP_CHECKS(DECLARE)

#define ENTRY(name) &np_check_##name,
static const struct np_check *const table[] = { NP_CHECKS(ENTRY) };

#define NTABLE (sizeof(table) / sizeof(table[0]))
_Static_assert(NTABLE <= NP_MAX_CHECKS, "raise NP_MAX_CHECKS: threshold overrides index by it");

const struct np_check *const *np_check_table(size_t *n)
{
	if (n)
		*n = NTABLE;
	return table;
}

const struct np_check *np_check_find(const char *id)
{
	for (size_t i = 0; i < NTABLE; i++)
		if (strcmp(table[i]->id, id) == 0)
			return table[i];
	return NULL;
}

int np_check_index(const struct np_check *c)
{
	for (size_t i = 0; i < NTABLE; i++)
		if (table[i] == c)
			return (int)i;
	return -1;
}
