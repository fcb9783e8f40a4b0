#!/bin/sh
# CPU benchmark of bulk gcd (issue 6), from the repository root after building BUILD_DIR
# (default build): 10,000 and 1,000,000 random 1024-bit moduli; all-pairs measured on a growing
# prefix until one run takes PAIRS_S seconds and extrapolated; batch on all moduli (the 1e6 run
# under a time cap of CAP_S seconds). Writes bench/results/DATE-cpu-gcd.txt.
B=${BUILD_DIR:-build}
PAIRS_S=${PAIRS_S:-20}
CAP_S=${CAP_S:-2400}
out=bench/results/$(date -u +%Y-%m-%d)-cpu-gcd.txt
tmp=$out.tmp.$$
{
    echo "# bench/gcd/run.sh on $(uname -n), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(date -u)"
    echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    "$B/bench/gcd/tune_fft" --max 1048576 | tail -1
    "$B/bench/gcd/bench_gcd" --n 10000 --pairs-seconds "$PAIRS_S"
    timeout "$CAP_S" "$B/bench/gcd/bench_gcd" --n 1000000 --pairs-seconds "$PAIRS_S" --no-gmp ||
        echo "1e6 run: stopped by the ${CAP_S} s cap (exit $?)"
} 2>&1 | tee "$tmp"
mv "$tmp" "$out"
