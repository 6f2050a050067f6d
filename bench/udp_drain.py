# SPDX-License-Identifier: GPL-2.0-only
"""Receive UDP datagrams as fast as possible for a bounded time; print how many arrived."""
import socket
import sys
import time

addr, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
s.bind((addr, port))
s.settimeout(0.2)
end = time.monotonic() + seconds
n = 0
while time.monotonic() < end:
    try:
        while True:
            s.recv(2048)
            n += 1
    except socket.timeout:
        pass
print(n)
