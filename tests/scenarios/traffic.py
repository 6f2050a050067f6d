#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Traffic for the scenario suite: every mode is bounded in time and only ever talks to the
address it is given (the scenarios pass addresses inside their own namespaces, 198.18.0.0/15).

  traffic.py udp-sink ADDR PORT SECONDS [--rcvbuf B] [--drain]
      bind a UDP socket; never read it (default) or read everything (--drain)
  traffic.py udp-flood ADDR PORT SECONDS [--size N] [--burst N --gap-ms MS]
      send datagrams as fast as possible, or in bursts of N with a pause between bursts
  traffic.py tcp-sink ADDR PORT SECONDS [--rcvbuf B] [--slow]
      accept connections and read them (--slow: a short read every 10 ms)
  traffic.py tcp-send ADDR PORT SECONDS [--conns N]
      N connections sending as fast as they can; prints the bytes sent
  traffic.py listen ADDR PORT BACKLOG SECONDS
      a listener with that listen() backlog that never accepts
  traffic.py connect-burst ADDR PORT COUNT SECONDS
      COUNT non-blocking connects at once, held open (SYNs are retried while unanswered)
"""
import argparse
import select
import socket
import sys
import threading
import time


def udp_sink(a):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if a.rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, a.rcvbuf)
    s.bind((a.addr, a.port))
    end = time.monotonic() + a.seconds
    if not a.drain:
        time.sleep(a.seconds)
        return
    s.setblocking(False)
    got = 0
    while time.monotonic() < end:
        select.select([s], [], [], 0.2)
        try:
            while True:
                s.recv(65536)
                got += 1
        except BlockingIOError:
            pass
    print(got)


def udp_flood(a):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if a.src:
        s.bind((a.src, 0))
    payload = b"x" * a.size
    dst = (a.addr, a.port)
    end = time.monotonic() + a.seconds
    sent = 0
    burst = a.burst or 256
    while time.monotonic() < end:
        for _ in range(burst):
            try:
                s.sendto(payload, dst)
                sent += 1
            except OSError:
                pass
        if a.gap_ms:
            time.sleep(a.gap_ms / 1000.0)
    print(sent)


def tcp_sink(a):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if a.rcvbuf:
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, a.rcvbuf)
    srv.bind((a.addr, a.port))
    srv.listen(64)
    srv.settimeout(0.2)
    end = time.monotonic() + a.seconds
    conns = []

    def reader(c):
        c.settimeout(0.2)
        while time.monotonic() < end:
            try:
                if not c.recv(4096 if a.slow else 1 << 20):
                    return
            except (socket.timeout, OSError):
                pass
            if a.slow:
                time.sleep(0.01)

    while time.monotonic() < end:
        try:
            c, _ = srv.accept()
        except socket.timeout:
            continue
        t = threading.Thread(target=reader, args=(c,), daemon=True)
        t.start()
        conns.append((c, t))
    for c, t in conns:
        t.join(0.5)


def tcp_send(a):
    end = time.monotonic() + a.seconds
    total = [0]
    lock = threading.Lock()

    def one():
        c = socket.create_connection((a.addr, a.port), timeout=2)
        c.settimeout(0.5)
        buf = b"y" * (1 << 16)
        n = 0
        while time.monotonic() < end:
            try:
                n += c.send(buf)
            except socket.timeout:
                pass
            except OSError:
                break
        with lock:
            total[0] += n
        c.close()

    threads = [threading.Thread(target=one, daemon=True) for _ in range(a.conns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(a.seconds + 3)
    print(total[0])


def listen(a):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((a.addr, a.port))
    srv.listen(a.backlog)
    time.sleep(a.seconds)


def connect_burst(a):
    keep = []
    for _ in range(a.count):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        c.setblocking(False)
        try:
            c.connect((a.addr, a.port))
        except (BlockingIOError, OSError):
            pass
        keep.append(c)
    time.sleep(a.seconds)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="mode", required=True)
    for name in ("udp-sink", "udp-flood", "tcp-sink", "tcp-send"):
        q = sub.add_parser(name)
        q.add_argument("addr")
        q.add_argument("port", type=int)
        q.add_argument("seconds", type=float)
        q.add_argument("--rcvbuf", type=int, default=0)
        q.add_argument("--drain", action="store_true")
        q.add_argument("--slow", action="store_true")
        q.add_argument("--size", type=int, default=200)
        q.add_argument("--burst", type=int, default=0)
        q.add_argument("--gap-ms", type=float, default=0)
        q.add_argument("--conns", type=int, default=1)
        q.add_argument("--src", default="")
    q = sub.add_parser("listen")
    q.add_argument("addr")
    q.add_argument("port", type=int)
    q.add_argument("backlog", type=int)
    q.add_argument("seconds", type=float)
    q = sub.add_parser("connect-burst")
    q.add_argument("addr")
    q.add_argument("port", type=int)
    q.add_argument("count", type=int)
    q.add_argument("seconds", type=float)
    a = p.parse_args()
    {"udp-sink": udp_sink, "udp-flood": udp_flood, "tcp-sink": tcp_sink,
     "tcp-send": tcp_send, "listen": listen, "connect-burst": connect_burst}[a.mode](a)


if __name__ == "__main__":
    sys.exit(main())
