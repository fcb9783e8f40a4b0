#!/usr/bin/env python3
"""Predicts the per-level and total time of bulk_gcd_batch on N 1024-bit moduli from a measured
per-level profile of a smaller run on the same machine (bench_gcd --levels output), to decide
whether a large run fits a time cap before making it (issue 6).

    python3 bench/gcd/predict_levels.py PROFILE.txt [N] [--threads T]

PROFILE.txt holds one run's "level P of Q at T s" lines and its "batch ... moduli n ..." line
(the first run in the file when there are several: use --skip K to take the K-th, from 0).
Levels: a tree over n leaves of 16 limbs has levels k = 0 .. top, node size about 16 2^k
limbs, c_k = ceil(n / 2^k) nodes. Progress P = k for product level k (P = 1 .. top), P =
2 top - k for remainder level k (P = top + 1 .. 2 top), P = 2 top + 1 the final divmod and gcd.

Scaling, per level of the large run:
  - a level whose node size the profile has (same k): its time times c_N / c_n, corrected for
    parallelism: a level runs on min(c, T) of T threads' worth (min(c * 3, T) near the top,
    where one product's NTT uses up to 3 threads), so
    t_N = t_n * (c_N / c_n) * par(c_n) / par(c_N), par(c) = min(3 c, T) / T;
  - a level above the profile's top (larger nodes): the profile level with the same node
    count c (or the closest), times M(s_N) / M(s_n) with M(s) ~ s log s (the NTT), and the
    same parallelism;
  - the final step (divmod + gcd of all leaves): times N / n.
The product tree's levels and the remainder tree's are scaled separately.
"""
import math
import re
import sys


def parse(path, skip):
    runs, cur = [], []
    for line in open(path):
        m = re.match(r"level (\d+) of (\d+) at ([0-9.]+) s", line)
        if m:
            cur.append((int(m.group(1)), int(m.group(2)), float(m.group(3))))
            continue
        m = re.search(r"^batch .* moduli (\d+) wall_s ([0-9.]+)", line)
        if m and cur:
            runs.append((int(m.group(1)), float(m.group(2)), cur))
            cur = []
    if skip >= len(runs):
        sys.exit("no complete run %d in %s (%d found)" % (skip, path, len(runs)))
    return runs[skip]


def tree(n):
    counts = [n]
    while counts[-1] > 1:
        counts.append((counts[-1] + 1) // 2)
    return counts  # counts[k] = nodes of level k, top = len - 1


def main():
    args = sys.argv[1:]
    threads, skip = 16, 0
    if "--threads" in args:
        i = args.index("--threads")
        threads = int(args[i + 1])
        del args[i:i + 2]
    if "--skip" in args:
        i = args.index("--skip")
        skip = int(args[i + 1])
        del args[i:i + 2]
    if not args:
        sys.exit(__doc__)
    n, wall, prof = parse(args[0], skip)
    big = int(float(args[1])) if len(args) > 1 else 1000000
    cn, cN = tree(n), tree(big)
    topn, topN = len(cn) - 1, len(cN) - 1
    t_prev, dt = 0.0, {}
    for p, _, t in prof:
        dt[p] = t - t_prev
        t_prev = t

    def par(c):
        return min(3 * c, threads) / threads

    def lev_time(kind, k):  # kind 0 product level k (built), 1 remainder level k
        p = k if kind == 0 else 2 * topn - k
        return dt.get(p)

    def msize(k):
        s = 16 * 2 ** k
        return s * math.log(s)

    total, rows = 0.0, []
    for kind in (0, 1):
        ks = range(1, topN + 1) if kind == 0 else range(topN - 1, -1, -1)
        for k in ks:
            if k <= (topn if kind == 0 else topn - 1) and lev_time(kind, k) is not None:
                src = k
                t = lev_time(kind, k) * (cN[k] / cn[k]) * par(cn[k]) / par(cN[k])
            else:  # same node count in the profile, larger nodes
                cands = [j for j in (range(1, topn + 1) if kind == 0 else range(0, topn))
                         if lev_time(kind, j) is not None]
                src = min(cands, key=lambda j: (abs(math.log(cn[j] / cN[k])), -j))
                t = lev_time(kind, src) * (msize(k) / msize(src)) * (cN[k] / cn[src]) * par(cn[src]) / par(cN[k])
            rows.append(("product" if kind == 0 else "remainder", k, cN[k], 16 * 2 ** k, src, t))
            total += t
    fin = dt.get(2 * topn + 1, 0.0) * big / n
    total += fin
    print("# predicted from %s (run %d: %d moduli, %.2f s measured), %d threads" % (args[0], skip, n, wall, threads))
    print("# tree   level  nodes   node_limbs  from_level  predicted_s")
    for r in rows:
        print("%-9s %5d %8d %10d %8d %12.2f" % r)
    print("final    %d moduli %.2f s" % (big, fin))
    print("predicted total for %d moduli: %.1f s (product tree %.1f s, remainder tree %.1f s)"
          % (big, total, sum(r[5] for r in rows if r[0] == "product"),
             sum(r[5] for r in rows if r[0] == "remainder")))


if __name__ == "__main__":
    main()
