#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""A sosreport-shaped tree whose eth0 `ethtool -S` output is LINES counters long.

  gen_sos_ethtool.py SHAPE LINES DIR

DIR is a copy of tests/fixtures/sos/sos4.0-debian12-virtio (sos 4.0, Debian 12, virtio_net)
with sos_commands/networking/ethtool_-S_eth0 replaced by "NIC statistics:" and LINES lines of
"     NAME: VALUE", as ethtool prints them. SHAPE:
  distinct   every name different: rx_queue_<i>_packets (a driver with very many queues);
  repeated   one name on every line: rx_dropped (each repeat is kept as "rx_dropped#N").
Prints "lines=N bytes=B" for the benchmark's table.
"""
import os
import shutil
import sys

shape, lines, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
shutil.copytree(os.path.join(repo, "tests/fixtures/sos/sos4.0-debian12-virtio"), out)
path = os.path.join(out, "sos_commands/networking/ethtool_-S_eth0")
if shape == "distinct":
    name = lambda i: "rx_queue_%d_packets" % i
elif shape == "repeated":
    name = lambda i: "rx_dropped"
else:
    sys.exit("shape: distinct or repeated")
with open(path, "w") as f:
    f.write("NIC statistics:\n")
    chunk = []
    for i in range(lines):
        chunk.append("     %s: %d\n" % (name(i), i))
        if len(chunk) == 65536:
            f.write("".join(chunk))
            chunk = []
    f.write("".join(chunk))
print("lines=%d bytes=%d" % (lines, os.path.getsize(path)))
