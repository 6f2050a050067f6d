# SPDX-License-Identifier: GPL-2.0-only
"""Send UDP datagrams to one address of a test namespace as fast as possible, for a bounded time."""
import socket
import sys
import time

addr, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
size = int(sys.argv[4]) if len(sys.argv) > 4 else 200
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
payload = b"x" * size
end = time.monotonic() + seconds
sent = 0
while time.monotonic() < end:
    for _ in range(256):
        try:
            s.sendto(payload, (addr, port))
            sent += 1
        except OSError:
            pass
print(sent)
