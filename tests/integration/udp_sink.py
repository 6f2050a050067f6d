# SPDX-License-Identifier: GPL-2.0-only
"""A UDP receiver that never reads: binds with a small SO_RCVBUF and sleeps. Bounded in time."""
import socket
import sys
import time

addr, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.bind((addr, port))
time.sleep(seconds)
