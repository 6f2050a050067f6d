#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Issue #31's disk line: how many bits a day the moving counters of bench/record_store_cost.c's
# synthetic 16-CPU host need under candidate coders, before any of them is written in C.
# Only the 142 counters that move every second are modelled (the rest cost ~1.9 MB/day of
# fixed overhead in the real store: key blocks, headers, width rows; see record_store_cost.md).
# Per column and per 5-frame block (the store's block), it counts the bits of:
#   d2    the change in rate since the previous frame (format 2's predictor),
#   mean  the rate minus a running mean of the column (1/16 weight),
#   best  whichever of the two is smaller, plus 1 bit to say which,
# each coded either bit-packed (one width per column per block, format 2's code) or Rice
# (parameter k chosen per column per block, zigzag signs). Width and k fields are NOT counted.
# Models:
#   white  the bench's: each second the rate +-NZ/2 % uniform, independent (default NZ=10).
#   drift  rates on a slow daily curve (+-30%) plus Gaussian noise of SD % of the rate per
#          second (default 1%: collectl's published per-second samples of a busy NIC,
#          https://collectl.sourceforge.net/NetworkStats.html, vary by about 1% between
#          seconds; Poisson arrivals at 79,000 packets/s would give 0.36%).
# Usage: bench/record_coder_estimate.py white [NZ] | drift [SD_PERCENT]   (one hour, scaled)
import math
import random
import sys

RATES = [20000] * 16 + [3000] * 16 + \
    [5000 if i % 2 else 4500000 for i in range(80)] + [40000] * 30
T, B = 3600, 5


def zz(x):
    return 2 * x if x >= 0 else -2 * x - 1


def packed(vals):
    return max(zz(v) for v in vals).bit_length() * len(vals)


def rice(vals):
    return min(sum((zz(v) >> k) + 1 + k for v in vals) for k in range(40))


def series(model, arg, r):
    if model == "white":
        rng = r * int(arg) // 100 + 1
        return [r - r * int(arg) // 200 + random.randrange(rng) for _ in range(T)]
    sd = float(arg) / 100
    return [max(0, int(r * (1 + 0.3 * math.sin(2 * math.pi * t / 86400))
                       + random.gauss(0, sd * r))) for t in range(T)]


def main():
    model = sys.argv[1] if len(sys.argv) > 1 else "white"
    arg = sys.argv[2] if len(sys.argv) > 2 else ("10" if model == "white" else "1")
    random.seed(1)
    tot = dict.fromkeys(["d2 packed", "d2 rice", "mean packed", "mean rice",
                         "best packed", "best rice"], 0)
    ideal = 0.0
    for r in RATES:
        xs = series(model, arg, r)
        if model == "white":
            ideal += T * math.log2(r * int(arg) // 100 + 1)
        mean, prev = float(xs[0]), xs[0]
        for b0 in range(1, T - B, B):
            blk = xs[b0:b0 + B]
            d2 = [blk[0] - prev] + [blk[i] - blk[i - 1] for i in range(1, B)]
            dm = [x - round(mean) for x in blk]
            p, q, a, c = packed(d2), packed(dm), rice(d2), rice(dm)
            tot["d2 packed"] += p
            tot["mean packed"] += q
            tot["best packed"] += min(p, q) + 1
            tot["d2 rice"] += a
            tot["mean rice"] += c
            tot["best rice"] += min(a, c) + 1
            for x in blk:
                mean += (x - mean) / 16
            prev = blk[-1]
    scale = 86400 / (T - B) / 8 / 1e6
    for k, v in tot.items():
        print(f"{model} {arg}: {k:12s} {v * scale:6.2f} MB/day")
    if ideal:
        print(f"{model} {arg}: {'entropy':12s} {ideal / T * 86400 / 8 / 1e6:6.2f} MB/day")


if __name__ == "__main__":
    main()
