# SPDX-License-Identifier: GPL-2.0-only
"""Measures the delay line of the path scenarios (lib_delay.sh) without netpath:
  path_probe.py sink ADDR PORT READY_FILE  -> after the sender closes: "BYTES SECONDS" (first
                                              byte to last byte) on stdout
  path_probe.py send ADDR PORT SECONDS     -> sends as fast as TCP lets it, then closes
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
    else:
        rtt(addr, port, int(sys.argv[4]))
