#!/bin/sh
# For the lead, on the device machine with several GPUs (nvidia-h200-x4; -x2 gives 1..2):
#   here:    sh bench/mpi/fetch-debs.sh            (Open MPI .debs into build-mpi-debs/, 11 MB)
#   device:  run with carry ["build-mpi-debs"]:  sh bench/mpi/gpu-run.sh
# Installs Open MPI from build-mpi-debs/ when mpirun is missing (the device has no network),
# builds bulk with CUDA and MPI, checks that 1, 2, 4 (8) ranks — one GPU per rank, chosen by
# local rank — give the checksum of the one-process `bulk collatz verify`, and measures the
# scaling efficiency T(1) / (g * T(g)) near 2^68 (issue 9 target: >= 0.9), both for the chunk
# phase (the program's own time) and for the whole mpirun (start-up and table building
# included). Writes bench/results/mpi-gpu-scaling.txt ($OUT/ too when set).
# Usage: sh bench/mpi/gpu-run.sh [FROM] [TO] [CHUNK]
set -eu
FROM=${1:-2^68}
TO=${2:-2^68+2^45}
CHUNK=${3:-2^37}
if ! command -v mpirun >/dev/null; then
    if [ -d build-mpi-debs ]; then
        dpkg -i build-mpi-debs/*.deb >/tmp/dpkg.log 2>&1 || { echo "dpkg failed:"; tail -20 /tmp/dpkg.log; }
    else
        echo "no mpirun and no build-mpi-debs/ (run bench/mpi/fetch-debs.sh here first)"
    fi
fi
B=build-mpi-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON ${GMP_PREFIX:+-DCMAKE_PREFIX_PATH=$GMP_PREFIX} >/dev/null
cmake --build $B -j"$(nproc)" --target bulk >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
G=$(nvidia-smi -L | wc -l)
if [ "${MPI_ONLY:-0}" = 0 ]; then
    # issue 4: one process, the range split over the visible GPUs by the CUDA backend itself
    sh bench/collatz_gpu/multi-gpu.sh "$B" "$G"
fi
command -v mpirun >/dev/null || { echo "no MPI: the MPI scaling part is skipped"; exit 2; }
RES=bench/results/mpi-gpu-scaling.txt
mkdir -p bench/results
export OMPI_MCA_btl_vader_single_copy_mechanism=none  # gVisor: no CMA between processes
MPI="mpirun --allow-run-as-root --bind-to none"
export BULK_PROGRESS=0
now() { date +%s.%N; }
{
    echo "# bulk dist collatz verify --from $FROM --to $TO --chunk $CHUNK, CUDA backend, one GPU per rank"
    echo "# $(nvidia-smi -L | head -1) (x$G), $(nproc) CPUs  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
    printf "%-5s %-9s %-12s %-8s %-9s %-8s %-20s %s\n" gpus run_s numbers/s eff_run wall_s eff_wall checksum "chunks per rank"
} >"$RES"
cat "$RES"
CUDA_VISIBLE_DEVICES=0 $B/bulk collatz verify --from "$FROM" --to "$TO" --backend cuda >/tmp/one.txt
ONE=$(sed -n 's/^checksum *//p' /tmp/one.txt)
echo "# one-process bulk collatz verify on one GPU: checksum $ONE, $(grep '^time' /tmp/one.txt)" | tee -a "$RES"
r1=; w1=
for g in 1 2 4 8; do
    [ $g -le "$G" ] || break
    vis=$(seq -s, 0 $((g - 1)))
    a=$(now)
    CUDA_VISIBLE_DEVICES=$vis $MPI -np $g "$B/bulk" dist collatz verify --from "$FROM" --to "$TO" --chunk "$CHUNK" --backend cuda >/tmp/gpu.txt 2>/tmp/gpu.err
    b=$(now)
    sum=$(sed -n 's/^checksum *//p' /tmp/gpu.txt)
    cov=$(sed -n 's/^covered *//p' /tmp/gpu.txt)
    run=$(sed -n 's/^time *\([0-9.]*\) s.*/\1/p' /tmp/gpu.txt)
    per=$(sed -n 's/.*(per rank:\([0-9 ]*\)).*/\1/p' /tmp/gpu.err)
    wall=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b - a }')
    [ -z "$r1" ] && r1=$run && w1=$wall
    awk -v g=$g -v run="$run" -v wall="$wall" -v r1="$r1" -v w1="$w1" -v cov="$cov" -v sum="$sum" -v per="$per" -v one="$ONE" 'BEGIN {
        printf "%-5d %-9.3f %-12.4g %-8.3f %-9.3f %-8.3f %-20s %s%s\n", g, run, cov / run, r1 / (g * run),
               wall, w1 / (g * wall), sum, per, sum == one ? "" : "   CHECKSUM DIFFERS" }' | tee -a "$RES"
done
[ -n "${OUT:-}" ] && cp "$RES" "$OUT/"
echo "every row must show the one-process checksum; target efficiency >= 0.9 (results in $RES)"
