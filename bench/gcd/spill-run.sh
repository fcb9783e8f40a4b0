#!/bin/sh
# CPU benchmark of the batch GCD's memory budget (issue 6), from the repository root after
# building BUILD_DIR (default build): bench_gcd on N (default 100000) random 1024-bit moduli
# with no budget limit, a budget that keeps about half of the spillable product levels, a
# budget equal to the estimated floor (every spillable level spilled), and half the floor (the
# grouped method: k groups, about k times the work). Each row is a separate process, so its
# peak_rss_mb is that run's peak (generated moduli included). Writes
# bench/results/DATE-cpu-gcd-spill$SUFFIX.txt (atomically: a temporary file, then mv).
B=${BUILD_DIR:-build}
N=${N:-100000}
out=bench/results/$(date -u +%Y-%m-%d)-cpu-gcd-spill${SUFFIX:-}.txt
tmp=$out.tmp.$$
BG="$B/bench/gcd/bench_gcd"
row() { "$BG" --n "$N" --no-pairs --no-gmp --backend cpu "$@" | grep '^batch '; }
{
    echo "# bench/gcd/spill-run.sh on $(uname -n), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(date -u)"
    echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)  (wall times on this shared machine mean little: compare cpu_s)"
    echo "# N $N random 1024-bit moduli; spill dir ${TMPDIR:-/tmp}"
    first=$(row --memory 18446744073709551615)
    echo "$first  # no limit"
    floor=$(echo "$first" | sed 's/.*floor_est \([0-9]*\).*/\1/')
    need=$(echo "$first" | sed 's/.*need_est \([0-9]*\).*/\1/')
    half=$(( floor + (need - floor) / 2 ))
    echo "$(row --memory "$half")  # floor + half the spillable levels"
    echo "$(row --memory "$floor")  # the floor: every spillable level spilled"
    echo "$(row --memory $((floor / 2)))  # half the floor: grouped method"
} 2>&1 | tee "$tmp"
mv "$tmp" "$out"
