#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn an strace log of one netpath run into the operation table of the floor program.

  record.py STRACE_LOG OPS_H

The log comes from `strace -f -xx -s 1048576 -e write=all -o LOG netpath ...` (see
bench/doctor_vs_floor.sh). Every system call netpath makes to learn about the machine is kept,
in order, with its arguments: opens (with their directory fd and flags), reads and preads with
the sizes asked for, directory reads, stats, readlinks, sockets and their options, binds,
netlink requests byte for byte (strace's hex dump of what was sent) and the receive buffers
offered, ioctls, writes of the output. What is left out is what any C program pays anyway
(the dynamic loader's opens before main, the C library's set-up) and netpath's own memory
management (mmap, munmap, brk, mprotect): those are the overhead the floor is there to show.

A system call this script does not know stops it: the floor must not silently drop work.
"""
import os
import re
import sys

# Calls of the loader and the C library's start-up, and of memory management: not I/O.
SKIP = {"execve", "brk", "mmap", "munmap", "mprotect", "arch_prctl", "set_tid_address",
        "set_robust_list", "rseq", "prlimit64", "getrandom", "exit_group", "madvise",
        "rt_sigaction", "rt_sigprocmask", "clock_nanosleep", "nanosleep", "getpid", "gettid",
        "clock_gettime", "futex"}

OPEN_FLAGS = {name: getattr(os, name) for name in dir(os) if name.startswith("O_")}
SOCK = {"AF_NETLINK": 16, "AF_INET": 2, "AF_INET6": 10, "AF_UNIX": 1, "AF_PACKET": 17,
        "SOCK_RAW": 3, "SOCK_DGRAM": 2, "SOCK_STREAM": 1, "SOCK_CLOEXEC": 0o2000000,
        "SOCK_NONBLOCK": 0o4000, "NETLINK_ROUTE": 0, "NETLINK_GENERIC": 16,
        "NETLINK_SOCK_DIAG": 4, "NETLINK_NETFILTER": 12, "IPPROTO_IP": 0, "0": 0}
SOCKOPT = {"SOL_NETLINK": 270, "SOL_SOCKET": 1, "NETLINK_EXT_ACK": 11, "NETLINK_CAP_ACK": 10,
           "NETLINK_GET_STRICT_CHK": 12, "SO_RCVTIMEO_OLD": 20, "SO_RCVTIMEO": 20,
           "SO_RCVBUF": 8, "SO_SNDBUF": 7, "SO_RCVBUFFORCE": 33}
IOCTL = {"SIOCETHTOOL": 0x8946, "SIOCGIFINDEX": 0x8933, "TCGETS": 0x5401}

LINE = re.compile(r"^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\w+)")
# strace's dump: " | 00010  03 01 00 00 0c 00 02 00  65 74 68 74 6f 6f 6c 00  ........ethtool. |":
# sixteen bytes in two groups of eight, then their ASCII.
HEX = re.compile(r"^ \| [0-9a-f]{5}  (.{49})")


def cstr(s):
    return '"' + "".join(c if c.isalnum() or c in "/._-:+ " else "\\x%02x" % ord(c)
                         for c in s) + '"'


def unescape(s):
    """strace -xx prints every byte of a string as \\xNN."""
    return bytes(int(h, 16) for h in re.findall(r"\\x([0-9a-f]{2})", s)).decode("latin-1")


def flags(expr, table):
    v = 0
    for part in expr.split("|"):
        part = part.strip()
        if part not in table:
            raise SystemExit("record.py: unknown flag %s" % part)
        v |= table[part]
    return v


def fd_arg(s):
    return -100 if s == "AT_FDCWD" else int(s)


def path_arg(args):
    m = re.match(r'\s*"((?:\\x[0-9a-f]{2})*)"', args)
    if not m:
        raise SystemExit("record.py: no path in %r" % args[:80])
    return unescape(m.group(1)), args[m.end():]


def main(log, out):
    ops = []
    pending = None          # a sendto/sendmsg whose bytes follow as hex dump lines
    in_main = False         # the loader's opens come before the first file netpath opens
    for raw in open(log, encoding="latin-1"):
        h = HEX.match(raw)
        if h:
            if pending is not None:
                pending["data"] += bytes.fromhex(h.group(1).replace(" ", ""))
            continue
        if pending is not None:
            ops.append(pending)
            pending = None
        m = LINE.match(raw)
        if not m:
            if "+++" in raw or "---" in raw or "resumed" in raw or "unfinished" in raw:
                if "unfinished" in raw or "resumed" in raw:
                    raise SystemExit("record.py: interleaved threads are not supported")
                continue
            continue
        _, call, args, ret = m.groups()
        if call in SKIP:
            continue
        a = [x.strip() for x in args.split(",")]
        if call == "openat":
            path, rest = path_arg(args.split(",", 1)[1])
            if not in_main:
                if path.startswith(("/etc/ld.so", "/lib", "/usr/lib")):
                    continue
                in_main = True
            fl = flags(rest.split(",")[1], OPEN_FLAGS)
            ops.append({"op": "OPEN", "fd": fd_arg(a[0]), "path": path, "a": fl,
                        "ret": int(ret)})
        elif not in_main:
            continue            # the loader's reads, stats and closes
        elif call in ("read", "pread64", "getdents64"):
            size = int(re.search(r",\s*(\d+)(?:,\s*\d+)?\)?$", args).group(1))
            op = {"read": "READ", "pread64": "PREAD", "getdents64": "GETDENTS"}[call]
            off = int(a[-1]) if call == "pread64" else 0
            if call == "pread64":
                size = int(a[-2])
            ops.append({"op": op, "fd": int(a[0]), "a": size, "b": off})
        elif call == "close":
            ops.append({"op": "CLOSE", "fd": int(a[0])})
        elif call == "newfstatat":
            path, _ = path_arg(args.split(",", 1)[1])
            ops.append({"op": "STAT", "fd": fd_arg(a[0]), "path": path,
                        "a": 0x1000 if "AT_EMPTY_PATH" in args else 0})
        elif call == "readlinkat":
            path, _ = path_arg(args.split(",", 1)[1])
            ops.append({"op": "READLINK", "fd": fd_arg(a[0]), "path": path,
                        "a": int(a[-1])})
        elif call == "access":
            path, _ = path_arg(args)
            ops.append({"op": "ACCESS", "fd": -100, "path": path, "a": os.R_OK})
        elif call == "socket":
            ops.append({"op": "SOCKET", "a": flags(a[0], SOCK), "b": flags(a[1], SOCK),
                        "c": flags(a[2], SOCK), "ret": int(ret)})
        elif call == "setsockopt":
            ops.append({"op": "SETSOCKOPT", "fd": int(a[0]), "a": SOCKOPT[a[1]],
                        "b": SOCKOPT[a[2]], "c": int(a[-1])})
        elif call == "bind":
            ops.append({"op": "BIND", "fd": int(a[0])})
        elif call == "getsockname":
            ops.append({"op": "GETSOCKNAME", "fd": int(a[0])})
        elif call in ("sendto", "sendmsg"):
            pending = {"op": "SEND", "fd": int(a[0]), "data": b""}
        elif call in ("recvmsg", "recvfrom"):
            size = re.search(r"iov_len=(\d+)", args) if call == "recvmsg" else None
            size = int(size.group(1)) if size else int(a[2])
            ops.append({"op": "RECV", "fd": int(a[0]), "a": size})
        elif call == "ioctl":
            req = IOCTL[a[1]]
            name = re.search(r'ifr_name="([^"]*)"', args)
            ops.append({"op": "IOCTL", "fd": int(a[0]), "a": req,
                        "path": unescape(name.group(1)) if name and "\\x" in name.group(1)
                        else (name.group(1) if name else "")})
        elif call == "fcntl":
            ops.append({"op": "FCNTL", "fd": int(a[0]), "a": 1 if "F_GETFL" in a[1] else 2})
        elif call == "write":
            ops.append({"op": "WRITE", "fd": int(a[0]), "a": int(a[-1])})
        elif call == "sysinfo":
            ops.append({"op": "SYSINFO"})
        elif call in ("geteuid", "getuid", "getegid", "getgid"):
            ops.append({"op": "GETID", "a": ("geteuid", "getuid", "getegid", "getgid").index(call)})
        elif call == "lseek":
            ops.append({"op": "LSEEK", "fd": int(a[0]), "a": int(a[1])})
        else:
            raise SystemExit("record.py: system call %s is not replayed yet: teach me it" % call)
    if pending is not None:
        ops.append(pending)

    with open(out, "w") as f:
        f.write("/* Generated by bench/floor/record.py from an strace log: do not edit. */\n")
        f.write("static const struct floor_op floor_ops[] = {\n")
        for o in ops:
            data = o.get("data", b"")
            path = o.get("path", "")
            f.write("\t{ OP_%s, %d, %d, %d, %d, %d, %s, %s, %d },\n" % (
                o["op"], o.get("fd", -1), o.get("a", 0), o.get("b", 0), o.get("c", 0),
                o.get("ret", -1), cstr(path),
                '"' + "".join("\\x%02x" % c for c in data) + '"', len(data)))
        f.write("};\n")
    counts = {}
    for o in ops:
        counts[o["op"]] = counts.get(o["op"], 0) + 1
    print(" ".join("%s:%d" % kv for kv in sorted(counts.items())))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
