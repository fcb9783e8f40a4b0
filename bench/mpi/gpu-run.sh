#!/bin/sh
# For the lead, on the device machine with several GPUs (nvidia-h200-x4, or -x2 for 1..2):
# builds bulk with CUDA and MPI, checks that 1, 2 and 4 ranks (one GPU per rank, picked by local
# rank) give the same checksum, and measures the scaling efficiency T(1) / (g * T(g)) of
# `bulk collatz verify` near 2^64 (issue 9 target: >= 0.9). Writes
# bench/results/mpi-gpu-scaling.txt. Needs Open MPI (apt-get install -y openmpi-bin
# libopenmpi-dev) on that machine; the machine has no network, so install it from a local .deb
# cache or an image that has it.
# Usage: sh bench/mpi/gpu-run.sh [FROM] [TO]
set -eu
FROM=${1:-2^64}
TO=${2:-2^64+2^40}
B=build-mpi-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON >/dev/null
cmake --build $B -j"$(nproc)" --target bulk
G=$(nvidia-smi -L | wc -l)
OUT=bench/results/mpi-gpu-scaling.txt
mkdir -p bench/results
MPI="mpirun --allow-run-as-root --bind-to none"
export BULK_PROGRESS=0
now() { date +%s.%N; }
{
    echo "# bulk collatz verify --from $FROM --to $TO, CUDA backend, one GPU per rank"
    echo "# $(nvidia-smi -L | head -1) (x$G)  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
    printf "%-6s %-10s %-14s %-10s %s\n" gpus seconds numbers/s efficiency checksum
} >"$OUT"
cat "$OUT"
t1=
for g in 1 2 4 8; do
    [ $g -le "$G" ] || break
    a=$(now)
    $MPI -np $g "$B/bulk" dist collatz verify --from "$FROM" --to "$TO" --backend cuda >/tmp/gpu-bench.txt 2>/tmp/gpu-bench.err
    b=$(now)
    cat /tmp/gpu-bench.err >&2
    sum=$(sed -n 's/^checksum *//p' /tmp/gpu-bench.txt)
    cov=$(sed -n 's/^covered *//p' /tmp/gpu-bench.txt)
    line=$(awk -v a="$a" -v b="$b" -v r=$g -v t1="${t1:-0}" -v cov="$cov" -v sum="$sum" 'BEGIN {
        t = b - a; if (t1 == 0) t1 = t;
        printf "%-6d %-10.3f %-14.4g %-10.3f %s", r, t, cov / t, t1 / (r * t), sum }')
    [ -z "$t1" ] && t1=$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')
    echo "$line" | tee -a "$OUT"
done
echo "every row must show the same checksum; efficiency target >= 0.9 (results in $OUT)"
