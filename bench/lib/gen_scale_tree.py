#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a `netpath doctor --root` tree of a machine with NCPU CPUs, for the parser-scale benchmark.

  gen_scale_tree.py NCPU DIR [NIFACES] [NQUEUES]

The per-CPU files grow with NCPU in the layouts the kernel prints (6.8, x86): /proc/interrupts
(one column per CPU; min(NCPU, 256) queue IRQs of an i40e NIC "eth0", 16 NVMe IRQs and the 14
per-CPU architecture rows, then ERR/MIS), /proc/net/softnet_stat (one 15-column row per CPU),
/proc/softirqs (one column per CPU), cpu/online, and per queue rps_cpus/xps_cpus masks NCPU
bits wide and IRQ affinity files. NIFACES (default 1) interfaces in all: eth0 and NIFACES - 1
veth peers of containers ("vethN", up, carrying traffic, with the sysfs files a veth has, a
/proc/net/dev row and a /32 route each), the interface dimension of a container host. Everything
else is a small fixed host. NQUEUES sets eth0's queues (default min(NCPU, 256)). Prints one line:
"cpus=N ifaces=I irq_rows=R cells=C interrupts_bytes=B softnet_bytes=S".
"""
import os
import sys

IFC = "eth0"
BDF = "0000:3b:00.0"
PCI_PATH = f"devices/pci0000:3a/0000:3a:00.0/{BDF}"
ARCH_ROWS = [("NMI", "Non-maskable interrupts"), ("LOC", "Local timer interrupts"),
             ("SPU", "Spurious interrupts"), ("PMI", "Performance monitoring interrupts"),
             ("IWI", "IRQ work interrupts"), ("RTR", "APIC ICR read retries"),
             ("RES", "Rescheduling interrupts"), ("CAL", "Function call interrupts"),
             ("TLB", "TLB shootdowns"), ("TRM", "Thermal event interrupts"),
             ("THR", "Threshold APIC interrupts"), ("DFR", "Deferred Error APIC interrupts"),
             ("MCE", "Machine check exceptions"), ("MCP", "Machine check polls")]
SYSCTL = {
    "net/core/netdev_max_backlog": "1000", "net/core/netdev_budget": "300",
    "net/core/netdev_budget_usecs": "2000", "net/core/dev_weight": "64",
    "net/core/flow_limit_cpu_bitmap": "0", "net/core/flow_limit_table_len": "4096",
    "net/core/rps_sock_flow_entries": "0", "net/core/rmem_max": "212992",
    "net/core/wmem_max": "212992", "net/core/rmem_default": "212992",
    "net/core/wmem_default": "212992", "net/core/optmem_max": "131072",
    "net/core/somaxconn": "4096", "net/core/default_qdisc": "fq_codel",
    "net/core/busy_poll": "0", "net/core/busy_read": "0", "net/core/gro_normal_batch": "8",
    "net/ipv4/tcp_rmem": "4096\t131072\t6291456", "net/ipv4/tcp_wmem": "4096\t16384\t4194304",
    "net/ipv4/tcp_mem": "6169152\t8225536\t12338304",
    "net/ipv4/udp_mem": "12338304\t16451072\t24676608", "net/ipv4/udp_rmem_min": "4096",
    "net/ipv4/udp_wmem_min": "4096", "net/ipv4/tcp_moderate_rcvbuf": "1",
    "net/ipv4/tcp_adv_win_scale": "1", "net/ipv4/tcp_window_scaling": "1",
    "net/ipv4/tcp_timestamps": "1", "net/ipv4/tcp_sack": "1",
    "net/ipv4/tcp_congestion_control": "cubic",
    "net/ipv4/tcp_available_congestion_control": "reno cubic",
    "net/ipv4/tcp_allowed_congestion_control": "reno cubic",
    "net/ipv4/tcp_slow_start_after_idle": "1", "net/ipv4/tcp_mtu_probing": "0",
    "net/ipv4/tcp_notsent_lowat": "4294967295", "net/ipv4/tcp_ecn": "2",
    "net/ipv4/tcp_keepalive_time": "7200", "net/ipv4/tcp_max_syn_backlog": "4096",
    "net/ipv4/tcp_syncookies": "1", "net/ipv4/tcp_no_metrics_save": "0",
    "net/ipv4/ip_forward": "0", "net/ipv4/ipfrag_high_thresh": "4194304",
    "net/ipv4/ipfrag_low_thresh": "3145728", "net/ipv4/ipfrag_time": "30",
    "net/ipv4/conf/all/rp_filter": "2", "net/ipv4/conf/default/rp_filter": "2",
    f"net/ipv4/conf/{IFC}/rp_filter": "2", "vm/min_free_kbytes": "90112",
}
SNMP = """Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors ForwDatagrams InUnknownProtos InDiscards InDelivers OutRequests OutDiscards OutNoRoutes ReasmTimeout ReasmReqds ReasmOKs ReasmFails FragOKs FragFails FragCreates OutTransmits
Ip: 2 64 3000000000 0 0 0 0 0 3000000000 2000000000 0 0 0 0 0 0 0 0 0 2000000000
Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors
Tcp: 1 200 120000 -1 1000 50000 0 0 900 2500000000 2000000000 2000000 0 0 0
Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
Udp: 400000000 0 0 400000000 0 0 0 0 0
"""
NETSTAT = """TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed ListenOverflows ListenDrops TCPBacklogDrop PruneCalled RcvPruned OfoPruned TCPOFODrop TCPRcvQDrop TCPZeroWindowDrop TCPMemoryPressures TCPAbortOnMemory IPReversePathFilter
TcpExt: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
IpExt: InNoRoutes InTruncatedPkts InMcastPkts OutMcastPkts InBcastPkts OutBcastPkts InOctets OutOctets InCsumErrors InNoECTPkts
IpExt: 0 0 0 0 0 0 0 0 0 3000000000
"""


def put(root, path, data):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def mask(ncpu, cpus):
    """A cpumask as sysfs prints it: 32-bit hex groups, most significant first."""
    v = 0
    for c in cpus:
        v |= 1 << c
    groups = (ncpu + 31) // 32
    words = [(v >> (32 * g)) & 0xffffffff for g in reversed(range(groups))]
    text = ",".join(f"{w:08x}" for w in words)
    # The kernel prints only as many hex digits as nr_cpu_ids needs in the top group.
    top = (ncpu % 32 + 3) // 4 if ncpu % 32 else 8
    return text[8 - top:]


def pci_config():
    """4096 bytes: header with a capability list, PCI Express capability at 0x40 (MPS 256 of
    512 supported, MRRS 512)."""
    cfg = bytearray(4096)
    cfg[0:4] = (0x8086 | 0x1572 << 16).to_bytes(4, "little")
    cfg[0x06] = 0x10
    cfg[0x34] = 0x40
    cfg[0x40], cfg[0x41] = 0x10, 0x00
    cfg[0x44:0x48] = (2).to_bytes(4, "little")
    cfg[0x48:0x4a] = (1 << 5 | 2 << 12).to_bytes(2, "little")
    return bytes(cfg)


def interrupts(ncpu, nic_irqs, other_irqs):
    cells = 0
    out = [" " * 6 + "".join(f"{'CPU%d' % c:>11}" for c in range(ncpu))]
    for irq, name, hot in nic_irqs + other_irqs:
        counts = [1_000_000 if c == hot else 0 for c in range(ncpu)]
        out.append(f"{irq:>4}:" + "".join(f"{v:>11}" for v in counts) +
                   f"  IR-PCI-MSI-{BDF} {irq}-edge      {name}")
        cells += ncpu
    for key, what in ARCH_ROWS:
        out.append(f"{key:>4}:" + "".join(f"{5000:>11}" for _ in range(ncpu)) + f"   {what}")
        cells += ncpu
    out.append(" ERR:          0")
    out.append(" MIS:          0")
    return "\n".join(out) + "\n", len(out) - 1, cells


def softnet(ncpu):
    rows = []
    for c in range(ncpu):
        vals = [400_000_000 + c, 0, 20] + [0] * 5 + [0, 0, 0] + [0, c, 0, 0]
        rows.append(" ".join(f"{v & 0xffffffff:08x}" for v in vals))
    return "\n".join(rows) + "\n"


def softirqs(ncpu):
    out = " " * 10 + "".join(f" {'CPU%d' % c:>10}" for c in range(ncpu)) + "\n"
    for name in ("HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
                 "HRTIMER", "RCU"):
        out += f"{name + ':':>10}" + "".join(f" {1000:>10}" for _ in range(ncpu)) + "\n"
    return out


def netdev_row(name, k):
    """One /proc/net/dev row as dev_seq_printf_stats prints it."""
    rx, tx = 1000 * (k + 1), 900 * (k + 1)
    return (f"{name:>6}: {rx * 100:>8} {rx:>7}    0    0    0     0          0         0 "
            f"{tx * 100:>8} {tx:>7}    0    0    0     0       0          0\n")


def veths(sysd, n):
    """n - 1 veth peers of containers: what sysfs shows of each (no device/ link)."""
    for k in range(n - 1):
        dev = f"class/net/veth{k}"
        for f, v in {"ifindex": 3 + k, "iflink": 100003 + k, "mtu": 1500,
                     "tx_queue_len": 1000, "operstate": "up", "carrier": 1,
                     "carrier_changes": 1, "carrier_up_count": 1, "carrier_down_count": 0,
                     "type": 1, "flags": "0x1003", "addr_len": 6,
                     "address": f"ee:ee:ee:{k >> 16 & 255:02x}:{k >> 8 & 255:02x}:{k & 255:02x}",
                     "threaded": 0, "gro_flush_timeout": 0, "napi_defer_hard_irqs": 0,
                     "speed": 10000, "duplex": "full"}.items():
            put(sysd, f"{dev}/{f}", f"{v}\n")
        for f in ("rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_dropped",
                  "tx_dropped", "rx_errors", "tx_errors"):
            put(sysd, f"{dev}/statistics/{f}",
                f"{1000 * (k + 1) if 'packets' in f or 'bytes' in f else 0}\n")
        put(sysd, f"{dev}/queues/rx-0/rps_cpus", "0\n")
        put(sysd, f"{dev}/queues/tx-0/xps_cpus", "0\n")


def main():
    ncpu, root = int(sys.argv[1]), sys.argv[2]
    nif = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    proc, sysd = os.path.join(root, "proc"), os.path.join(root, "sys")
    nq = int(sys.argv[4]) if len(sys.argv) > 4 else min(ncpu, 256)
    nic = [(100 + q, f"i40e-{IFC}-TxRx-{q}", q % ncpu) for q in range(nq)]
    nic.insert(0, (99, f"i40e-{BDF}:misc", 0))
    other = [(100 + nq + k, f"nvme0q{k}", k % ncpu) for k in range(16)]
    text, rows, cells = interrupts(ncpu, nic, other)
    put(proc, "interrupts", text)
    sn = softnet(ncpu)
    put(proc, "net/softnet_stat", sn)
    put(proc, "softirqs", softirqs(ncpu))
    put(proc, "uptime", "864000.00 1000.00\n")
    put(proc, "sys/kernel/osrelease", "6.8.0-45-generic\n")
    put(proc, "net/snmp", SNMP)
    put(proc, "net/netstat", NETSTAT)
    put(proc, "net/sockstat", "sockets: used 1412\nTCP: inuse 900 orphan 0 tw 340 alloc 950 "
        "mem 3000\nUDP: inuse 12 mem 4\nUDPLITE: inuse 0\nRAW: inuse 0\nFRAG: inuse 0 memory 0\n")
    put(proc, "meminfo", "MemTotal:       1056964608 kB\nMemFree:        528482304 kB\n"
        "MemAvailable:   792723456 kB\n")
    put(proc, "net/route", "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask"
        "\t\tMTU\tWindow\tIRTT\n"
        f"{IFC}\t00000000\t0101A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n" +
        "".join(f"veth{k}\t{(10 | k >> 8 << 16 | (k & 255) << 24):08X}\t00000000\t0005\t0"
                f"\t0\t0\tFFFFFFFF\t0\t0\t0\n" for k in range(nif - 1)))
    put(proc, "net/dev", "Inter-|   Receive                                                |  "
        "Transmit\n face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
        "packets errs drop fifo colls carrier compressed\n" + netdev_row("lo", 0) +
        netdev_row(IFC, 1000) + "".join(netdev_row(f"veth{k}", k) for k in range(nif - 1)))
    for key, val in SYSCTL.items():
        put(proc, "sys/" + key, val + "\n")
    for irq, _, hot in nic:
        put(proc, f"irq/{irq}/smp_affinity_list", f"{hot}\n")
        put(proc, f"irq/{irq}/effective_affinity_list", f"{hot}\n")
    put(sysd, "devices/system/cpu/online", f"0-{ncpu - 1}\n")
    dev = f"class/net/{IFC}"
    for f, v in {"ifindex": 2, "mtu": 1500, "tx_queue_len": 1000, "speed": 40000,
                 "duplex": "full", "operstate": "up", "carrier_changes": 2,
                 "carrier_up_count": 1, "carrier_down_count": 1, "threaded": 0,
                 "gro_flush_timeout": 0, "napi_defer_hard_irqs": 0}.items():
        put(sysd, f"{dev}/{f}", f"{v}\n")
    for f in ("rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_errors", "tx_errors",
              "rx_dropped", "tx_dropped", "multicast", "collisions", "rx_length_errors",
              "rx_over_errors", "rx_crc_errors", "rx_frame_errors", "rx_fifo_errors",
              "rx_missed_errors", "rx_nohandler"):
        put(sysd, f"{dev}/statistics/{f}", "1000000\n" if "packets" in f or "bytes" in f
            else "0\n")
    for q in range(nq):
        put(sysd, f"{dev}/queues/rx-{q}/rps_cpus", mask(ncpu, []) + "\n")
        put(sysd, f"{dev}/queues/rx-{q}/rps_flow_cnt", "0\n")
        put(sysd, f"{dev}/queues/tx-{q}/xps_cpus", mask(ncpu, [q % ncpu]) + "\n")
    os.makedirs(os.path.join(sysd, "class/net", IFC), exist_ok=True)
    os.symlink("../../../" + PCI_PATH, os.path.join(sysd, dev, "device"))
    depth = PCI_PATH.count("/") + 1
    os.makedirs(os.path.join(sysd, PCI_PATH), exist_ok=True)
    os.symlink("../" * depth + "bus/pci/drivers/i40e", os.path.join(sysd, PCI_PATH, "driver"))
    put(sysd, f"{PCI_PATH}/uevent", f"DRIVER=i40e\nPCI_CLASS=20000\nPCI_SLOT_NAME={BDF}\n")
    for f, v in {"numa_node": "0", "local_cpulist": f"0-{max(ncpu // 2 - 1, 0)}",
                 "vendor": "0x8086", "device": "0x1572", "subsystem_vendor": "0x8086",
                 "current_link_speed": "8.0 GT/s PCIe", "max_link_speed": "8.0 GT/s PCIe",
                 "current_link_width": "8", "max_link_width": "8"}.items():
        put(sysd, f"{PCI_PATH}/{f}", v + "\n")
    for irq, *_ in nic:
        put(sysd, f"{PCI_PATH}/msi_irqs/{irq}", "msix\n")
    put(sysd, f"{PCI_PATH}/config", pci_config())
    veths(sysd, nif)
    print(f"cpus={ncpu} ifaces={nif} irq_rows={rows} cells={cells} interrupts_bytes={len(text)} "
          f"softnet_bytes={len(sn)}")


main()
