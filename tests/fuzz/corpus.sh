#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Assemble the fuzzers' seed corpora from the test fixtures into OUTDIR/<target>/ (one
# directory per tests/fuzz/fuzz_<target>.c). Nothing here is committed: the fixtures are the
# single source, and libFuzzer adds what it finds to the same directories.
# Usage: corpus.sh OUTDIR
set -eu
out=${1:?usage: corpus.sh OUTDIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
fx=$src/tests/fixtures
mkdir -p "$out"

# put TARGET FILE...: copy each regular file under a unique name (its path, flattened).
put() {
	t=$1
	shift
	mkdir -p "$out/$t"
	for f in "$@"; do
		[ -f "$f" ] || continue
		name=$(printf '%s' "${f#"$fx"/}" | tr '/:' '__')
		cp "$f" "$out/$t/$name"
	done
}

# Text parsers: the parser fixtures and the same files of every captured --root tree.
put softnet "$fx"/parsers/softnet_*.txt "$fx"/trees/*/*/proc/net/softnet_stat
put softirqs "$fx"/parsers/softirqs*.txt "$fx"/trees/*/*/proc/softirqs
put interrupts "$fx"/parsers/interrupts*.txt "$fx"/trees/*/*/proc/interrupts
put mib "$fx"/parsers/snmp*.txt "$fx"/parsers/netstat*.txt \
	"$fx"/trees/*/*/proc/net/snmp "$fx"/trees/*/*/proc/net/snmp6 "$fx"/trees/*/*/proc/net/netstat
put nstat_text "$fx"/sos/*/sos_commands/networking/nstat_-zas "$fx"/parsers/nstat*.txt
put netstat_s "$fx"/sos/*/sos_commands/networking/netstat_-s* "$fx"/parsers/nettools_netstat_*.txt
put ss_s "$fx"/sos/*/sos_commands/networking/ss_-s "$fx"/parsers/ss_s_*.txt
put ss_list "$fx"/sos/*/sos_commands/networking/ss_-peaonmi "$fx"/parsers/ss_[!s]*.txt
put sockstat "$fx"/parsers/sockstat*.txt "$fx"/trees/*/*/proc/net/sockstat*
put conntrack "$fx"/parsers/conntrack_*.txt "$fx"/parsers/stat_nf_conntrack*.txt \
	"$fx"/trees/*/*/proc/net/stat/nf_conntrack
put meminfo "$fx"/parsers/meminfo*.txt "$fx"/trees/*/*/proc/meminfo
put proc_net_dev "$fx"/sos/*/proc/net/dev
put route "$fx"/parsers/route*.txt "$fx"/parsers/ipv6_route*.txt \
	"$fx"/trees/*/*/proc/net/route "$fx"/trees/*/*/proc/net/ipv6_route
# shellcheck disable=SC2046 # file names in the fixtures have no blanks
put sysctl $(find "$fx"/trees -path '*/proc/sys/*' -type f)
# shellcheck disable=SC2046
put cpuset $(find "$fx"/trees -type f \( -name online -o -name possible -o -name '*affinity*' \
	-o -name rps_cpus -o -name xps_cpus -o -name 'local_cpu*' -o -name '*cpu_bitmap' \))
# shellcheck disable=SC2046
put pcie $(find "$fx"/trees -type f \( -name config -o -name '*link_speed' \))

# depmod's lists for netpath plan's module lookup: written here, as the kernel's build writes
# them (no tree of the fixtures holds a lib/modules).
mkdir -p "$out/kmods"
printf 'kernel/net/ipv4/tcp_cubic.ko\nkernel/net/ipv4/tcp_bbr.ko\n' > "$out/kmods/modules.builtin"
printf 'kernel/net/sched/sch_fq.ko.zst:\nkernel/net/ipv4/tcp_bbr.ko.xz: kernel/lib/x.ko\n' \
	> "$out/kmods/modules.dep"

# The --root resolver: a path, then the targets of four planted links (fuzz_beneath.c).
mkdir -p "$out/beneath"
i=0
for seed in 'a/b/f' 'l0\nf' 'l0/f\na' 'a/l1\n\n../b/l2\nup/f' 'a/b/l3\n\n\n\nl3' \
	'l0\nl0/..' 'a/out/secret' 'a/abs/tree/f' 'fifo' 'a/b/up/a/../f' 'l0\n/etc' \
	'a/l1/secret\n\n../../out'; do
	printf "$seed" > "$out/beneath/seed$i"
	i=$((i + 1))
done
# Command outputs kept in sosreports (sos_text.h).
put ethtool_text "$fx"/parsers/ethtool_*.txt "$fx"/sos/*/sos_commands/networking/ethtool_*
put ip_text "$fx"/parsers/ip_*.txt "$fx"/sos/*/sos_commands/networking/ip_*
put tc_text "$fx"/sos/*/sos_commands/networking/tc_*
put sos_misc "$fx"/parsers/lscpu*.txt "$fx"/sos/*/sos_commands/processor/lscpu \
	"$fx"/sos/*/sos_commands/pci/lspci* "$fx"/sos/*/sos_commands/kernel/sysctl_-a

# Netlink: the recorded replies as recv() returned them.
put genl "$fx"/netlink/genl_*.bin
put ethtool_nl "$fx"/netlink/genl_*.bin
put qstats "$fx"/netlink/genl_*_qstats.bin
put rtnl "$fx"/netlink/rtnl_*.bin
put sock_diag "$fx"/netlink/sockdiag_*.bin
put nft_rules "$fx"/netfilter/nft_*.bin
put ipt_rules "$fx"/netfilter/ipt_*.bin

# Archives: GNU tar's and Python's (gzip, xz, plain, bzip2 to be refused).
put tar "$fx"/archives/*.tar*
# A real capture's members: kernel answers, META, errors (tests/fixtures/capture/README.md).
mkdir -p "$out/ktape" "$out/capture_meta"
for cap in "$fx"/capture/*.cap; do
	[ -f "$cap" ] || continue
	name=$(basename "$cap" .cap)
	for s in s1 s2; do
		tar -xzOf "$cap" "$s/kernel.tape" > "$out/ktape/$name-$s" 2>/dev/null
		tar -xzOf "$cap" "$s/errors" > "$out/capture_meta/$name-$s-errors" 2>/dev/null
	done
	tar -xzOf "$cap" META > "$out/capture_meta/$name-META" 2>/dev/null
done

python3 - "$fx" "$out" <<'PY'
import glob, os, struct, sys

fx, out = sys.argv[1], sys.argv[2]

def write(target, name, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, name), 'wb') as f:
        f.write(data)

def read(path):
    with open(path, 'rb') as f:
        return f.read()

# genl_collect: one record (u16 length + bytes) per receive, in the collectors' order:
# ethtool family, linkmodes, rings, channels, coalesce, features, pause, stats, rss; then the
# netdev family and the qstats dump (fuzz_genl_collect.c).
order = ['linkmodes', 'rings', 'channels', 'coalesce', 'features', 'pause', 'stats', 'rss']
def rec(b):
    return struct.pack('<H', len(b)) + b
for dev in ('eth0', 'lo', 'veth'):
    blob = rec(read(f'{fx}/netlink/genl_ctrl_ethtool.bin'))
    for o in order:
        blob += rec(read(f'{fx}/netlink/genl_{dev}_{o}.bin'))
    blob += rec(read(f'{fx}/netlink/genl_ctrl_netdev.bin'))
    blob += rec(read(f'{fx}/netlink/genl_{dev}_qstats.bin'))
    write('genl_collect', f'{dev}.rec', blob)
write('genl_collect', 'ctrl_only.rec', rec(read(f'{fx}/netlink/genl_ctrl_ethtool.bin')))

# ethtool_ioctl: the driver counter name lists as a GSTRINGS/GSTATS pair (u16 count, names
# of 32 bytes, u64 values), then the legacy structs filled with a plausible pattern.
for path in sorted(glob.glob(f'{fx}/driver_counters/*.txt')):
    names = [l.strip() for l in open(path, encoding='utf-8', errors='replace')
             if l.strip() and not l.startswith('#')]
    names = names[:2047]
    blob = struct.pack('<H', len(names))
    blob += b''.join(n.encode()[:31].ljust(32, b'\0') for n in names)
    blob += b''.join(struct.pack('<Q', 1000 + i) for i in range(len(names)))
    blob += b'virtio_net'.ljust(36, b'\0') + bytes(range(256)) * 4
    write('ethtool_ioctl', os.path.basename(path) + '.bin', blob)

# tar: small archives built to get past the extraction caps (fuzz_tar.c sets small ones:
# 256 directories, 512 members, 1 MiB of disk, 8 MiB of stream): parents of deep members,
# many FIFOs, one-byte files, and a vendor-type member inflated from a few KiB of zeros.
import gzip, io, tarfile
def tar_gz(members, fmt=tarfile.PAX_FORMAT):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w', format=fmt) as t:
        for ti, data in members:
            t.addfile(ti, io.BytesIO(data) if data else None)
    return gzip.compress(buf.getvalue(), 9)
def member(name, data=b'', kind=tarfile.REGTYPE):
    ti = tarfile.TarInfo(name)
    ti.type, ti.size = kind, len(data)
    return ti, data
write('tar', 'caps-deep-parents.tar.gz',
      tar_gz([member(f'i{i}/' + 'd/' * 40 + 'f') for i in range(20)]))
write('tar', 'caps-many-fifos.tar.gz',
      tar_gz([member(f'p{i}', kind=tarfile.FIFOTYPE) for i in range(600)]))
write('tar', 'caps-one-byte-files.tar.gz', tar_gz([member(f'f{i}', b'x') for i in range(300)]))
vendor = tarfile.TarInfo('vendor')
vendor.type, vendor.size = b'Z', 9 << 20
write('tar', 'caps-vendor-bomb.tar.gz',
      gzip.compress(vendor.tobuf(format=tarfile.USTAR_FORMAT) + bytes((9 << 20) + 1024), 9))

# The shapes that were quadratic (#29), each under 200 KB: an ethtool -S of thousands of
# distinct names, one name repeated thousands of times (each repeat numbered "#N"), a few names
# repeated in turn; a conntrack stat file whose header is thousands of columns wide; a tc text
# of thousands of qdiscs.
write('ethtool_text', 'S-distinct-5000', ('NIC statistics:\n' + ''.join(
    f'     rx_queue_{i}_packets: {i}\n' for i in range(5000))).encode())
write('ethtool_text', 'S-repeated-8000', ('NIC statistics:\n' + ''.join(
    f'     rx_dropped: {i}\n' for i in range(8000))).encode())
write('ethtool_text', 'S-cycled-8000', ('NIC statistics:\n' + ''.join(
    f'     q{i % 8}: {i}\n' for i in range(8000))).encode())
cols = 5000
write('conntrack', 'wide-header-5000', (' '.join(f'n{i}' for i in range(cols)) + '\n' +
    ' '.join(f'{i:08x}' for i in range(cols)) + '\n').encode())
write('tc_text', 'qdiscs-1000', ''.join(
    f'qdisc fq_codel 0: dev eth0 parent :{i + 1:x} limit 10240p flows 1024\n'
    f' Sent {i} bytes {i} pkt (dropped 0, overlimits 0 requeues 0)\n'
    f' backlog 0b 0p requeues 0\n' for i in range(1000)).encode())

# conffile: the documented example (conffile.h's comment) and lines of each kind.
hdr = open(os.path.join(fx, '..', '..', 'src', 'core', 'conffile.h')).read().splitlines()
example = '\n'.join(l[5:] for l in hdr if l.startswith(' *   ')) + '\n'
write('conffile', 'example.conf', example.encode())
for i, text in enumerate([
        'threshold softnet.backlog-drops warn=10 crit=1000\n',
        'threshold irq.cpu-rate:warn=75,crit=95\n',
        'check softnet.*, socket.tcp-*\nskip softnet.flow-limit\n',
        'check nic,irq\nskip congestion.keepalive\ninterval 0.5\nrtt 30\nbandwidth 10G\n',
        '# only a comment\n\n\t\n']):
    write('conffile', f'lines{i}.conf', text.encode())
PY
put rec "$fx"/rec/*.nprec
put snapcnt "$fx"/snapcnt/*.txt
