# SPDX-License-Identifier: GPL-2.0-only
"""Measures the delay line of the path scenarios (lib_delay.sh) without netpath:
  path_probe.py sink ADDR PORT READY_FILE  -> after the sender closes: "BYTES SECONDS" (first
                                              byte to last byte) on stdout
  path_probe.py send ADDR PORT SECONDS     -> sends as fast as TCP lets it, then closes
  path_probe.py udp-sink ADDR PORT READY_FILE -> after 2 s of silence: "BYTES SECONDS" received
  path_probe.py udp-send ADDR PORT MBIT SECONDS -> 1200-byte datagrams paced at MBIT
  path_probe.py rtt ADDR PORT N            -> the median TCP handshake time in ms over N connects
                                              (a SYN and its SYN-ACK: one round trip)
"""
import socket
import statistics
import sys
import time


def sink(addr, port, ready):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(16)
    open(ready, "w").close()
    c, _ = ls.accept()
    got, first, last = 0, None, None
    while True:
        b = c.recv(1 << 20)
        if not b:
            break
        last = time.monotonic()
        if first is None:
            first = last
        got += len(b)
    print(got, (last - first) if first else 0)


def send(addr, port, secs):
    s = socket.create_connection((addr, port), timeout=30)
    buf = b"y" * (1 << 20)
    end = time.monotonic() + secs
    while time.monotonic() < end:
        s.sendall(buf)
    s.close()


def udp_sink(addr, port, ready):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind((addr, port))
    open(ready, "w").close()
    s.settimeout(30)
    got, first, last = 0, None, None
    while True:
        try:
            b = s.recv(65536)
        except socket.timeout:
            break
        last = time.monotonic()
        if first is None:
            first = last
            s.settimeout(2)
        got += len(b)
    print(got, (last - first) if first else 0)


def udp_send(addr, port, mbit, secs):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    buf = b"u" * 1200
    gap = 1200 * 8 / (mbit * 1e6)
    start = time.monotonic()
    n = 0
    while True:
        now = time.monotonic()
        if now - start >= secs:
            break
        due = start + n * gap
        if due > now:
            time.sleep(due - now)
        s.sendto(buf, (addr, port))
        n += 1


def rtt(addr, port, n):
    times = []
    for _ in range(n):
        t = time.monotonic()
        s = socket.create_connection((addr, port), timeout=10)
        times.append((time.monotonic() - t) * 1000)
        s.close()
    print("%.1f" % statistics.median(times))


if __name__ == "__main__":
    mode, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "sink":
        sink(addr, port, sys.argv[4])
    elif mode == "send":
        send(addr, port, float(sys.argv[4]))
    elif mode == "udp-sink":
        udp_sink(addr, port, sys.argv[4])
    elif mode == "udp-send":
        udp_send(addr, port, float(sys.argv[4]), float(sys.argv[5]))
    else:
        rtt(addr, port, int(sys.argv[4]))
