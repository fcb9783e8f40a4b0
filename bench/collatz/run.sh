#!/bin/sh
# `make bench` part for the Collatz engine: rate against d and k (verify) and d and a (delays)
# near 2^64 on one core, like seed 004 Table 4/5 and Figures 6/8. Writes
# bench/results/<date>-cpu-collatz.txt and two PNG plots next to it.
set -e
B=${1:-build}
"$B/bench/collatz/bench_collatz" --out-dir bench/results
