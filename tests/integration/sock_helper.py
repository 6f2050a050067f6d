# SPDX-License-Identifier: GPL-2.0-only
"""Socket populations for the sockets-* integration tests, bounded in time (loopback only).

  sock_helper.py listen ADDR PORT BACKLOG CONNECTS SECONDS
      a listener that never accepts, and a burst of non-blocking connects to it
  sock_helper.py pairs ADDR PORT COUNT SECONDS READY_FILE
      COUNT established connections (both ends in this process) to a listener on PORT;
      raises its own open-file limit within the hard limit; touches READY_FILE when done
  sock_helper.py validate SCHEMA_FRAGMENT FILE
      validate a "sockets" object (npsock output) against sockets.schema.json
"""
import json
import os
import resource
import socket
import sys
import time


def listen(addr, port, backlog, connects, seconds):
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    srv = socket.socket(fam, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, port))
    srv.listen(backlog)
    keep = []
    for _ in range(connects):
        c = socket.socket(fam, socket.SOCK_STREAM)
        c.setblocking(False)
        try:
            c.connect((addr, port))
        except BlockingIOError:
            pass
        keep.append(c)
    time.sleep(seconds)


def pairs(addr, port, count, seconds, ready):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 2 * count + 64
    if want > hard:
        sys.exit(f"need {want} open files, hard limit {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, port))
    srv.listen(4096)
    keep = []
    while len(keep) < 2 * count:
        batch = []
        for _ in range(min(512, count - len(keep) // 2)):
            c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            c.connect((addr, port))
            batch.append(c)
        for _ in batch:
            conn, _ = srv.accept()
            keep.append(conn)
        keep.extend(batch)
    open(ready, "w").close()
    time.sleep(seconds)


def validate(fragment, path):
    import jsonschema
    frag = json.load(open(fragment))
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$defs": frag["$defs"], **frag["sockets"]}
    jsonschema.validate(json.load(open(path)), schema)


cmd = sys.argv[1]
if cmd == "validate":
    validate(sys.argv[2], sys.argv[3])
elif cmd == "listen":
    listen(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]),
           float(sys.argv[6]))
elif cmd == "pairs":
    pairs(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6])
else:
    sys.exit(__doc__)
