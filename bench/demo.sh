#!/bin/sh
# The main job of `make demo`: bulk multiplication against GMP at 1024 and 4096 bits on the best
# backend present (`--backend auto`: the GPU when one is there, else every CPU core), a short
# timed run each (replaced by a Collatz verification run once that lands). Should the GPU run
# fail, the CPU run is shown instead, after the GPU's error message.
set -e
B=${1:-build}
"$B/bulk" info
echo
for w in 1024 4096; do
    "$B/bulk" int bench mul --bits "$w" --count 65536 --backend auto --time 0.5 ||
        "$B/bulk" int bench mul --bits "$w" --count 65536 --backend cpu --time 0.5
    echo
done
# Collatz (appended by the Collatz engine, issue 3): a few seconds of convergence verification
# near 2^64 on every CPU core, with the sieve of 2^30 residues; the checksum (sum of glides) is
# the same for any thread count, table size or sieve size.
echo "Collatz: verify every n in [2^64, 2^64 + 2^34)"
"$B/bulk" collatz verify --from 2^64 --to 2^64+2^34 --k 30
