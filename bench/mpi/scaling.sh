#!/bin/sh
# Scaling of `bulk collatz verify` over MPI ranks on the CPU backend of one host: the same range
# on 1..R ranks, one thread per rank (BULK_THREADS=1), wall time, rate, and efficiency =
# T(1) / (r * T(r)). Prints a table and writes bench/results/mpi-cpu-scaling.txt.
# Usage: sh bench/mpi/scaling.sh BUILD_DIR [MAX_RANKS (default: online CPUs)] [FROM] [TO]
set -eu
BUILD=${1:-build}
MAXR=${2:-$(nproc)}
FROM=${3:-2^60}
TO=${4:-2^60+2^32}
BULK="$BUILD/bulk"
OUT=bench/results/mpi-cpu-scaling.txt
mkdir -p bench/results
MPI="mpirun --allow-run-as-root --oversubscribe --bind-to none"
export BULK_PROGRESS=0 BULK_THREADS=1
now() { date +%s.%N; }
{
    echo "# bulk collatz verify --from $FROM --to $TO, CPU backend, 1 thread per rank"
    echo "# host: $(nproc) online CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "# date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
    printf "%-6s %-10s %-14s %-10s %s\n" ranks seconds numbers/s efficiency checksum
} >"$OUT"
cat "$OUT"
t1=
r=1
while [ $r -le "$MAXR" ]; do
    a=$(now)
    $MPI -np $r "$BULK" dist collatz verify --from "$FROM" --to "$TO" >/tmp/bulk-mpi-bench.$$ 2>/dev/null
    b=$(now)
    sum=$(sed -n 's/^checksum *//p' /tmp/bulk-mpi-bench.$$)
    cov=$(sed -n 's/^covered *//p' /tmp/bulk-mpi-bench.$$)
    line=$(awk -v a="$a" -v b="$b" -v r=$r -v t1="${t1:-0}" -v cov="$cov" -v sum="$sum" 'BEGIN {
        t = b - a; if (t1 == 0) t1 = t;
        printf "%-6d %-10.3f %-14.4g %-10.3f %s", r, t, cov / t, t1 / (r * t), sum }')
    [ -z "$t1" ] && t1=$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')
    echo "$line" | tee -a "$OUT"
    r=$((r + 1))
done
rm -f /tmp/bulk-mpi-bench.$$
echo "(wall time of mpirun, start-up and table building included; results in $OUT)"
