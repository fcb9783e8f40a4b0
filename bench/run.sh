#!/bin/sh
# The one benchmark driver: builds what an area needs, runs its benchmark programs, prints a table
# and writes the latest result of this machine to bench/results/<area>-<machine>.txt (overwritten;
# git keeps the earlier ones). Run it from anywhere; it works in the repository root.
#
#   sh bench/run.sh AREA [--gpu] [MODE] [ARGS...]
#
# AREA  int | gcd | collatz | life | bpbc | mpi | all      (all = every CPU area, `make bench`;
#       with --gpu: every GPU test and a short benchmark of each area in one call)
# --gpu configure and build BUILD (default build-gpu) with CUDA, then run the area's GPU tests and
#       GPU benchmarks. Without --gpu the CPU benchmarks run on BUILD (default build), which must
#       be built already (`make build`).
# MODE  (optional, one) picks a narrower measurement of the area, listed below.
#
# CPU measurements (no --gpu)
#   int                  bench/int/bench_int_ops for every op at several widths, 1 thread and
#                        all, each against GMP in the same run (BENCH_TIME seconds per side,
#                        default 1)
#   int --tune           tune_mul, tune_div and bench_radix tables (the tuned thresholds' source)
#   gcd                  tune_fft's crossover line, bench_gcd on 10^4 and 10^6 random 1024-bit
#                        moduli (all pairs extrapolated after PAIRS_S s; the 10^6 batch capped at
#                        CAP_S s, default 2400)
#   gcd --spill          the batch GCD under memory budgets: none, floor + half the spillable
#                        levels, the floor, half the floor (grouped); N moduli (default 100000)
#   collatz              bench_collatz: rate against d and k (verify) and d and a (delays) near
#                        2^64 on one core (seed 004 Tables 4/5, Figures 6/8), table and PNG;
#                        bench_collatz_records: glide and delay records against verify and delays;
#                        bench_collatz_path: path records against verify --converge with peaks
#   life                 bench_life (ARGS are passed on: --quick, --cpu-only, ...)
#   bpbc                 bench_bpbc: circuit and CKY tables (ARGS passed on)
#   mpi [RANKS [FROM [TO]]]  `bulk dist collatz verify` on 1..RANKS MPI ranks of this host, one
#                        thread each: time, rate, efficiency T(1) / (r T(r)), checksums
#   mpi --fetch-debs     download the Open MPI .debs into build-mpi-debs/ (for a device machine
#                        without network; carry that directory there)
#
# GPU measurements (--gpu; OUT=DIR keeps every log under DIR/<area>[-MODE]/, default
# /tmp/bulk-bench; GMP_PREFIX=DIR points CMake at a GMP install; CAP=SECONDS bounds a MODE run)
#   collatz --gpu        ctest -L gpu, bench_collatz_gpu --layouts (LAYOUTS=0 skips), then
#                        bench_collatz_gpu (BENCH_ARGS, default --kmax 38; BENCH_LIMIT s, default
#                        330) with its PNG, and a summary
#   collatz --gpu verify   the GPU test's verify cases; the CLI verify 2^68 + 2^44 with the
#                        defaults and with BULK_TUNE=cz.layout=batch, + 2^46 with the defaults and
#                        --k 37; bench_collatz_gpu --kscan --short (CLI=0 / KSCAN=0 skip those;
#                        NCU=1: ncu of k_uni and its SASS; NCU_GEN=1: ncu of k_uni over a generated
#                        K = 40 slice; VERIFY_ONLY=0 adds the delay benchmark)
#   collatz --gpu delays   the GPU test's delay cases and test_collatz_gpu_delays; the CLI delays
#                        2^64 + 2^34 --stats 2^20 on the default path, without classes and with
#                        V4X2 (outputs compared); the quick delay-loop benchmark and ncu metrics of
#                        the class path (FINAL=0: also other d and a, 2^37 numbers, the full loop
#                        benchmark, per-loop metrics and stall reasons)
#   collatz --gpu converge  the verify test cases; the CLI on 2^68 + 2^44 and + 2^46 with and
#                        without --converge, --converge on + 2^48 and + 2^50; the CPU backend on
#                        + 2^36 in both modes
#   collatz --gpu converge-long   --converge over 2^68 + 2^50 (defaults and --d 14), full glide
#                        over + 2^48
#   collatz --gpu converge-scan FROM:BITS:K:D ...   --converge on FROM .. FROM + 2^BITS with
#                        --k K --d D ("-": the CLI default), e.g. 2^68:48:43:14
#   collatz --gpu profile  the SASS of the verify and delay kernels, ctest -R collatz_gpu,
#                        bench_collatz_gpu (BENCH_ARGS, default --seconds 0.3 --kmax 37), ncu of
#                        k_flat and k_delays (SASS=0, NCU=0 skip)
#   collatz --gpu multi  verify and delays --stats with 1, 2, 4, 8 visible GPUs in one process:
#                        rate, efficiency, checksums equal; then the Collatz GPU tests
#   int --gpu            ctest -L gpu -R int_gpu (GPU_TESTS=all: every gpu test),
#                        test_int_gpu_core, bench_int_gpu (QUICK=1: --quick) and a summary
#   int --gpu div        test_int_gpu(_core), bench_int_gpu --only divmod, ncu of the staged
#                        divmod kernel (NCU=0 skips), its SASS opcode mix
#   int --gpu ntt        test_int_gpu_ntt(_core), bench_int_gpu_ntt --quick --only batch,big,
#                        ncu of the batched and big-product kernels (CAP <= 60 skips it)
#   int --gpu powmod     test_int_gpu_powmod and test_int_gpu_mont_core, then
#                        bench_int_gpu_powmod --sweep (powmod and invmod rows, lanes sweep)
#   gcd --gpu            ctest -R 'gcd|fft'; bench_gcd --backend cuda on 10^4 and (capped at
#                        1200 s) 10^6 moduli, --backend cpu on 10^4 for the ratio
#   gcd --gpu batch      the 10^6 batch on the GPU context with --levels, test_gcd_gpu, 10^5
#   life --gpu           ctest -L gpu and -R life, the CLI on both backends compared on every
#                        tests/data/life pattern (plane and torus), bench_life --gpu-only
#   bpbc --gpu           ctest -L gpu, bench_bpbc --gpu (seed 001 Tables 5.1, 7.1, 7.2), summary
#   bpbc --gpu cky       ctest -R bpbc, bench_bpbc --gpu --skip-circuit (QUICK=1, FULL_MAX,
#                        BENCH_ARGS), ncu of the CKY block kernels (SASS=1: their SASS)
#   mpi --gpu [FROM [TO [CHUNK]]]  installs Open MPI from build-mpi-debs/ when mpirun is missing,
#                        runs `collatz --gpu multi` (MPI_ONLY=1 skips), then `bulk dist collatz
#                        verify` on 1, 2, 4, 8 ranks with one GPU each: efficiency, checksums
#   all --gpu            one call: build, ctest -L gpu, a short benchmark of every area
#   series SECONDS AREA:MODE[:SECS]...   --gpu: build once, then each AREA MODE (e.g. int:ntt,
#                        collatz:delays:110) under its own time cap, logs under OUT
#
# Results: bench/results/<area>[-MODE]-<machine>.txt (BULK_BENCH_MACHINE, default the short host
# name); the GPU test log of a GPU run: tests/gpu/<area>.log. Commit both with the change.
set -u
cd "$(dirname "$0")/.." || exit 1

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
die() { echo "bulk bench: $*" >&2; exit 2; }

[ $# -ge 1 ] || usage
AREA=$1
shift
GPU=0
[ "${1:-}" = --gpu ] && { GPU=1; shift; }
MODE=${1:-}
MODE=${MODE#--}
MACHINE=${BULK_BENCH_MACHINE:-$(hostname -s 2>/dev/null || uname -n)}
if [ $GPU = 1 ]; then B=${BUILD_DIR:-build-gpu}; else B=${BUILD_DIR:-build}; fi
OUTROOT=${OUT:-/tmp/bulk-bench}
mkdir -p bench/results
t0=$(date +%s)
el() { echo $(($(date +%s) - t0)); }
res() { echo "bench/results/$1-$MACHINE.txt"; } # res NAME: the results file of NAME here
cpuinfo() { echo "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"; }
# device NAME: the GPUs and the compiler, to NAME
device() { { nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1; nvcc --version 2>&1 | tail -1; git log --oneline -1 2>/dev/null; } >"$1"; }
need() { [ -x "$B/$1" ] || die "no $B/$1: build first (make build, or BUILD_DIR=...)"; }

# gpu_build LOGDIR [TARGET...]: configure B with CUDA and build the targets (all of them, -k,
# when none is named); the log goes to LOGDIR/build.log
gpu_build() {
    L=$1
    shift
    mkdir -p "$L"
    device "$L/device.txt"
    [ "${NO_BUILD:-0}" = 1 ] && return 0
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON ${GMP_PREFIX:+-DCMAKE_PREFIX_PATH=$GMP_PREFIX} \
        >"$L/build.log" 2>&1 || { tail -30 "$L/build.log"; die "configure failed: $L/build.log"; }
    if [ $# -eq 0 ]; then
        cmake --build "$B" -j "$(nproc)" -- -k >>"$L/build.log" 2>&1 || echo "build: some targets failed (see $L/build.log)"
    else
        cmake --build "$B" -j "$(nproc)" --target "$@" >>"$L/build.log" 2>&1 ||
            { tail -30 "$L/build.log"; die "build failed: $L/build.log"; }
    fi
    echo "build $(el) s"
}
# keep_log FILE AREA: FILE becomes the latest GPU test log of AREA
keep_log() { mkdir -p tests/gpu && cp "$1" "tests/gpu/$2.log" && echo "test log: tests/gpu/$2.log"; }
# ncu_grep FILE: the lines of an Nsight Compute report worth reading
ncu_grep() {
    grep -E "_kernel|k_[a-z0-9_]*|Duration|Issued Warp|No Eligible|Eligible Warps|Active Warps Per|Warp Cycles Per Issued|Avg. Active Threads|Achieved Occupancy|Registers Per|Executed Instructions  |Theoretical Occ|L1/TEX Hit|L2 Hit|Mem Busy|Throughput|smsp__|Stall|stall" "$1" |
        grep -v "^==" | head -"${2:-40}"
}
# trim DIR: keep the error logs of DIR small (progress lines)
trim() { for f in "$1"/*.err; do [ -f "$f" ] && [ "$(wc -c <"$f")" -gt 20000 ] && tail -c 20000 "$f" >"$f.t" && mv "$f.t" "$f"; done; }

# ---------------------------------------------------------------- CPU measurements

cpu_int() {
    need bulk
    need bench/int/bench_int_ops
    T=${BENCH_TIME:-1}
    ALL=$(nproc 2>/dev/null || echo 1)
    out=$(res int)
    raw=$(mktemp)
    {
        echo "# bench_int_ops: libbulk vs GMP, same instances, same run, same threads"
        echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')  machine: $MACHINE  cpu: $(cpuinfo)"
        echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) (above $ALL: shared"
        echo "# cores, so the scale column says little; the ratios, timed in alternation, hold better)"
        echo "# $("$B/bulk" --version); backend: $("$B/bulk" info | grep 'auto backend' | sed 's/.*: //')"
        echo "# command per row: $B/bench/int/bench_int_ops OP --bits W --count N --threads T --time $T --json"
        echo "# GMP runs over the instances on T threads through bulk_parallel_for;"
        echo "# ratio = bulk ops/s / GMP ops/s (above 1: bulk faster); every result checked against GMP"
        echo "# scale = bulk ops/s on T threads / bulk ops/s on 1 thread (same op, width and count)"
        printf '%-7s %6s %6s %3s %14s %14s %8s %6s  %s\n' op bits count thr "bulk ops/s" "GMP ops/s" ratio scale "GMP function"
    } | tee "$out"
    threads=1
    [ "$ALL" -gt 1 ] && threads="1 $ALL"
    for op in mul sqr add sub cmp div mod divmod gcd powmod; do
        case $op in # widths, and counts of about the same work per call (at most 2^16 instances)
        powmod) ws="256:4096 1024:512 2048:64" ;;
        gcd | div | mod | divmod) ws="256:65536 1024:65536 4096:8192 16384:512" ;;
        *) ws="256:65536 1024:65536 4096:65536 16384:4096 65536:256" ;;
        esac
        for wn in $ws; do
            w=${wn%:*} n=${wn#*:}
            for t in $threads; do
                j=$("$B/bench/int/bench_int_ops" "$op" --bits "$w" --count "$n" --threads "$t" --time "$T" --json)
                echo "$j" >>"$raw"
                f() { echo "$j" | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
                rate=$(f bulk_ops_per_s)
                [ "$t" = 1 ] && one=$rate
                printf '%-7s %6s %6s %3s %14.4g %14.4g %8.3f %6s  %s\n' "$op" "$w" "$n" "$t" "$rate" \
                    "$(f gmp_ops_per_s)" "$(f ratio)" "$(awk -v a="$rate" -v b="$one" 'BEGIN { printf "%.2f", a / b }')" \
                    "$(f gmp_function)" | tee -a "$out"
            done
        done
    done
    { echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"; echo "# raw JSON, one run per line"; cat "$raw"; } >>"$out"
    rm -f "$raw"
    echo "written: $out"
}

cpu_int_tune() {
    for p in tune_mul tune_div bench_radix; do need bench/int/$p; done
    "$B/bench/int/tune_mul" --out "$(res int-tune-mul)" "$@"
    "$B/bench/int/tune_div" --out "$(res int-tune-div)" "$@"
    "$B/bench/int/bench_radix" --out "$(res int-radix)" "$@"
}

cpu_gcd() {
    need bench/gcd/bench_gcd
    out=$(res gcd)
    {
        echo "# bench/run.sh gcd on $MACHINE, $(cpuinfo), $(date -u)"
        echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
        "$B/bench/gcd/tune_fft" --max 1048576 | tail -1
        "$B/bench/gcd/bench_gcd" --n 10000 --pairs-seconds "${PAIRS_S:-20}"
        timeout "${CAP_S:-2400}" "$B/bench/gcd/bench_gcd" --n 1000000 --pairs-seconds "${PAIRS_S:-20}" --no-gmp ||
            echo "1e6 run: stopped by the ${CAP_S:-2400} s cap (exit $?)"
    } 2>&1 | tee "$out.tmp.$$"
    mv "$out.tmp.$$" "$out"
}

cpu_gcd_spill() {
    need bench/gcd/bench_gcd
    N=${N:-100000}
    out=$(res gcd-spill)
    row() { "$B/bench/gcd/bench_gcd" --n "$N" --no-pairs --no-gmp --backend cpu "$@" | grep '^batch '; }
    {
        echo "# bench/run.sh gcd --spill on $MACHINE, $(cpuinfo), $(date -u)"
        echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)  (wall times on a shared machine mean little: compare cpu_s)"
        echo "# N $N random 1024-bit moduli; spill dir ${TMPDIR:-/tmp}; each row a separate process (its own peak_rss_mb)"
        first=$(row --memory 18446744073709551615)
        echo "$first  # no limit"
        floor=$(echo "$first" | sed 's/.*floor_est \([0-9]*\).*/\1/')
        need_b=$(echo "$first" | sed 's/.*need_est \([0-9]*\).*/\1/')
        echo "$(row --memory $((floor + (need_b - floor) / 2)))  # floor + half the spillable levels"
        echo "$(row --memory "$floor")  # the floor: every spillable level spilled"
        echo "$(row --memory $((floor / 2)))  # half the floor: grouped method"
    } 2>&1 | tee "$out.tmp.$$"
    mv "$out.tmp.$$" "$out"
}

cpu_collatz() {
    need bench/collatz/bench_collatz
    d=$(mktemp -d)
    "$B/bench/collatz/bench_collatz" --out-dir "$d" "$@" || { rm -rf "$d"; return 1; }
    for e in txt png; do for f in "$d"/*-cpu-collatz.$e; do [ -f "$f" ] && mv "$f" "bench/results/collatz-$MACHINE.$e"; done; done
    need bench/collatz/bench_collatz_records
    "$B/bench/collatz/bench_collatz_records" --out-dir "$d" || { rm -rf "$d"; return 1; }
    mv "$d/collatz-records-vm.txt" "bench/results/collatz-records-$MACHINE.txt"
    need bench/collatz/bench_collatz_path
    "$B/bench/collatz/bench_collatz_path" --out-dir "$d" || { rm -rf "$d"; return 1; }
    mv "$d/collatz-path-records-vm.txt" "bench/results/collatz-path-records-$MACHINE.txt"
    rm -rf "$d"
    echo "written: bench/results/collatz-$MACHINE.txt, .png, collatz-records-$MACHINE.txt, collatz-path-records-$MACHINE.txt"
}

cpu_life() {
    need bench/life/bench_life
    d=$(mktemp -d)
    "$B/bench/life/bench_life" --machine "$MACHINE" --results "$d" "$@" || { rm -rf "$d"; return 1; }
    for f in "$d"/*-life.txt; do [ -f "$f" ] && mv "$f" "$(res life)"; done
    rm -rf "$d"
    echo "written: $(res life)"
}

cpu_bpbc() {
    need bench/bpbc/bench_bpbc
    "$B/bench/bpbc/bench_bpbc" --out "$(res bpbc)" "$@" && echo "written: $(res bpbc)"
}

cpu_mpi() {
    need bulk
    MAXR=${1:-$(nproc)} FROM=${2:-2^60} TO=${3:-2^60+2^32}
    out=$(res mpi)
    tmp=$(mktemp)
    MPI="mpirun --allow-run-as-root --oversubscribe --bind-to none"
    {
        echo "# bulk dist collatz verify --from $FROM --to $TO, CPU backend, 1 thread per rank"
        echo "# host: $(cpuinfo)"
        echo "# date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
        printf "%-6s %-10s %-14s %-10s %s\n" ranks seconds numbers/s efficiency checksum
    } | tee "$out"
    t1=
    r=1
    while [ $r -le "$MAXR" ]; do
        a=$(date +%s.%N)
        BULK_PROGRESS=0 BULK_THREADS=1 $MPI -np $r "$B/bulk" dist collatz verify --from "$FROM" --to "$TO" >"$tmp" 2>/dev/null
        b=$(date +%s.%N)
        awk -v a="$a" -v b="$b" -v r=$r -v t1="${t1:-0}" -v cov="$(sed -n 's/^covered *//p' "$tmp")" \
            -v sum="$(sed -n 's/^checksum *//p' "$tmp")" 'BEGIN { t = b - a; if (t1 == 0) t1 = t;
            printf "%-6d %-10.3f %-14.4g %-10.3f %s\n", r, t, cov / t, t1 / (r * t), sum }' | tee -a "$out"
        [ -z "$t1" ] && t1=$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')
        r=$((r + 1))
    done
    rm -f "$tmp"
    echo "(wall time of mpirun, start-up and table building included; results in $out)"
}

cpu_mpi_fetch_debs() { # Open MPI and what it pulls in on this image, about 14 MB
    mkdir -p build-mpi-debs && cd build-mpi-debs || exit 1
    apt-get download openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libpmix-dev \
        libhwloc15 libhwloc-dev libhwloc-plugins libevent-2.1-7 libevent-core-2.1-7 \
        libevent-extra-2.1-7 libevent-openssl-2.1-7 libevent-pthreads-2.1-7 libevent-dev \
        libfabric1 libucx0 libibverbs1 libibverbs-dev ibverbs-providers librdmacm1 libpsm2-2 \
        libpsm-infinipath1 libnl-3-200 libnl-3-dev libnl-route-3-200 libnl-route-3-dev libmunge2 \
        libxnvctrl0 ocl-icd-libopencl1 libnuma-dev libltdl7 libltdl-dev libcaf-openmpi-3 \
        libcoarrays-dev libcoarrays-openmpi-dev
    echo "$(ls | wc -l) packages, $(du -sh . | cut -f1) in build-mpi-debs/"
}

# ---------------------------------------------------------------- GPU measurements
# Each runs after `gpu_build` into B; R is its log directory ($OUT/<area>[-MODE]).

gpu_collatz() {
    R=$OUTROOT/collatz
    gpu_build "$R"
    BG=$B/bench/collatz_gpu/bench_collatz_gpu
    (cd "$B" && ctest -L gpu --output-on-failure -V) >"$R/tests.log" 2>&1
    trc=$?
    keep_log "$R/tests.log" all
    lres=$(res collatz-gpu-layouts) lrc=skipped
    if [ "${LAYOUTS:-1}" = 1 ] && [ -x "$BG" ]; then timeout 150 "$BG" --layouts --out "$lres"; lrc=$?; fi
    out=$(res collatz-gpu)
    t2=$(date +%s)
    # shellcheck disable=SC2086
    timeout "${BENCH_LIMIT:-330}" "$BG" --out "$out" --png "${out%.txt}.png" ${BENCH_ARGS:---kmax 38}
    rrc=$?
    echo
    echo "==== collatz on the GPU: summary ===="
    printf '%-26s %s\n' "ctest -L gpu (all areas)" "$([ $trc -eq 0 ] && echo passed || echo FAILED): $(grep -c ' same ' "$R/tests.log") Collatz comparisons same, $(grep -c DIFFERENT "$R/tests.log") different"
    printf '%-26s %s\n' "layouts (flat vs batch)" "rc=$lrc: $lres"
    printf '%-26s %s\n' benchmark "rc=$rrc ($(($(date +%s) - t2)) s; 124: stopped at ${BENCH_LIMIT:-330} s, partial table kept): $out"
    [ -f "$out" ] && grep -E '^# best:|speed-up|escapes, host exact path|^near 2\^120|^1 GPU:|^# summary' "$out" | sed 's/^/  /'
    [ $trc -eq 0 ] && [ $rrc -eq 0 ]
}

gpu_collatz_verify() {
    R=$OUTROOT/collatz-verify
    gpu_build "$R" bulk test_collatz_gpu bench_collatz_gpu
    BG=$B/bench/collatz_gpu/bench_collatz_gpu
    (cd "$B" && BULK_CZ_GPU_TEST=verify ctest -R '^test_collatz_gpu$' --output-on-failure -V) >"$R/tests.log" 2>&1
    echo "tests rc=$? ($(el) s): $(grep -c ' same' "$R/tests.log") same, $(grep -c DIFFERENT "$R/tests.log") different"
    grep -E "tests passed|tests failed|FAIL|deep sieve|  gen |  unsorted " "$R/tests.log" | tail -14
    cli() { # TAG TO [ARGS...]: the CLI verify from 2^68, wall time and rate (CLIENV: environment)
        tag=$1 to=$2
        shift 2
        s0=$(date +%s.%N)
        env ${CLIENV:-} "$B/bulk" collatz verify --from 2^68 --to "$to" --backend cuda --json "$@" >"$R/cli-verify$tag.json" 2>"$R/cli-verify$tag.err"
        rc=$?
        echo "cli verify$tag --to $to $* rc=$rc: $(awk -v a="$s0" -v b="$(date +%s.%N)" -v n="$(echo "$to" | sed 's/.*\^//')" 'BEGIN { printf "%.3f s wall, %.4g numbers/s", b - a, 2^n / (b - a) }') ($(el) s)"
        cat "$R/cli-verify$tag.json"
    }
    if [ "${CLI:-1}" != 0 ]; then
        cli "" 2^68+2^44
        CLIENV=BULK_TUNE=cz.layout=batch
        cli -batch 2^68+2^44
        CLIENV=
        cli -46 2^68+2^46
        cli -46-k37 2^68+2^46 --k 37
        cat "$R"/cli-verify*.json >"$(res collatz-gpu-verify | sed 's/txt$/json/')"
    fi
    if [ "${KSCAN:-1}" != 0 ]; then
        timeout 40 "$BG" --kscan --short --seconds 0.3 --out "$(res collatz-gpu-kscan)" >/dev/null 2>"$R/kscan.err"
        echo "kscan rc=$? ($(el) s)"
        cat "$(res collatz-gpu-kscan)"
    fi
    if [ "${NCU:-0}" = 1 ] && command -v ncu >/dev/null 2>&1; then
        timeout 30 ncu --clock-control none --section WarpStateStats --section Occupancy --section SchedulerStats \
            --section LaunchStats --section InstructionStats --section SpeedOfLight --section MemoryWorkloadAnalysis \
            -k regex:k_uni --launch-skip 2 -c 1 "$BG" --ncu-verify >"$R/ncu-uni.txt" 2>&1
        echo "ncu k_uni rc=$?"
        ncu_grep "$R/ncu-uni.txt" 24
        cuobjdump -sass "$B/CMakeFiles/bulk_obj.dir/src/collatz/cuda/cg_verify.cu.o" 2>/dev/null |
            awk '/Function :/ { keep = ($0 ~ /k_uniILi12ELb[01]E/) } keep' | gzip >"$R/sass.txt.gz"
    fi
    if [ "${NCU_GEN:-0}" = 1 ] && command -v ncu >/dev/null 2>&1; then # k_uni over a generated K = 40 slice
        timeout 40 ncu --clock-control none --section WarpStateStats --section Occupancy --section SchedulerStats \
            --section LaunchStats --section InstructionStats --section SpeedOfLight -k regex:k_uni --launch-skip 3 -c 1 \
            "$B/bulk" collatz verify --from 2^68 --to 2^68+2^41 --k 40 --backend cuda --json >"$R/ncu-gen40.txt" 2>&1
        echo "ncu gen K=40 rc=$?"
        ncu_grep "$R/ncu-gen40.txt" 24
    fi
    if [ "${VERIFY_ONLY:-1}" = 0 ]; then
        timeout 60 "$BG" --delays --seconds 0.25 --out "$R/delays.txt" >/dev/null 2>"$R/delays.err"
        cat "$R/delays.txt"
    fi
    trim "$R"
    echo "total $(el) s"
}

gpu_collatz_delays() {
    R=$OUTROOT/collatz-delays
    gpu_build "$R" bulk test_collatz_gpu test_collatz_gpu_delays bench_collatz_gpu_delays
    BD=$B/bench/collatz_gpu_delays/bench_collatz_gpu_delays
    (cd "$B" && BULK_CZ_GPU_TEST=delays ctest -R '^test_collatz_gpu$' --output-on-failure -V) >"$R/tests.log" 2>&1
    echo "tests (delay cases) rc=$? ($(el) s): $(grep -c ' same' "$R/tests.log") same, $(grep -c DIFFERENT "$R/tests.log") different"
    (cd "$B" && ctest -R '^test_collatz_gpu_delays$' --output-on-failure -V) >"$R/tests-paths.log" 2>&1
    echo "test_collatz_gpu_delays rc=$? ($(el) s): $(grep -c ' same' "$R/tests-paths.log") same, $(grep -c DIFFERENT "$R/tests-paths.log") different"
    cli() { # NAME TO D A ENV...: the CLI delays from 2^64 with --stats 2^20
        name=$1 to=$2 dd=$3 aa=$4
        shift 4
        s0=$(date +%s.%N)
        env "$@" "$B/bulk" collatz delays --from 2^64 --to "2^64+2^$to" --stats 1048576 --backend cuda \
            ${dd:+--d $dd} ${aa:+--a $aa} >"$R/cli-$name.out" 2>>"$R/cli.err"
        echo "cli delays 2^$to numbers ($name${dd:+, d $dd a $aa}) rc=$?: $(awk -v a="$s0" -v b="$(date +%s.%N)" -v n="$to" 'BEGIN { printf "%.3f s, %.4g numbers/s", b - a, 2^n / (b - a) }')$([ "$name" != default ] && [ "$to" = 34 ] && { cmp -s "$R/cli-default.out" "$R/cli-$name.out" && echo ", output same" || echo ", output DIFFERENT"; })"
    }
    cli default 34 "" "" BULK_TUNE=
    cli lean 34 "" "" BULK_TUNE=cz.classes=0
    cli v4x2 34 "" "" BULK_TUNE=cz.delay=v4x2
    out=$(res collatz-gpu-delays)
    if [ "${FINAL:-1}" = 1 ]; then
        timeout 35 "$BD" --quick --seconds 0.2 --out "$out" >/dev/null 2>"$R/delays.err"
    else
        cli d15a22 34 15 22
        cli d15a20 34 15 20
        cli d13a20 34 13 20
        cli long-14-20 37 14 20
        cli long-15-22 37 15 22
        echo "long outputs: $(cmp -s "$R/cli-long-14-20.out" "$R/cli-long-15-22.out" && echo same || echo DIFFERENT)"
        timeout 45 "$BD" --seconds 0.2 --out "$out" >/dev/null 2>"$R/delays.err"
    fi
    echo "delays bench rc=$? ($(el) s)"
    cat "$out"
    rm -f "$R"/cli-[!d]*.out "$R"/cli-d1*.out
    if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null 2>&1; then
        timeout 25 ncu --clock-control none --metrics smsp__inst_executed.sum,smsp__cycles_active.avg,smsp__warps_active.avg.per_cycle_active,smsp__issue_active.avg.per_cycle_active \
            -k regex:'k_classes|k_members' -c 2 "$BD" --ncu auto >"$R/ncu-metrics.txt" 2>&1
        ncu_grep "$R/ncu-metrics.txt" 20
        if [ "${FINAL:-1}" != 1 ]; then # per-loop metrics and stall reasons
            timeout 25 ncu --clock-control none --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fmaheavy.sum,smsp__inst_executed_pipe_lsu.sum,smsp__cycles_active.avg,smsp__warps_active.avg.per_cycle_active,smsp__issue_active.avg.per_cycle_active,smsp__pcsamp_warps_issue_stalled_no_instructions.sum \
                -k regex:'k_delays5|k_classes|k_members' --launch-skip 1 -c 5 "$BD" --ncu lean,auto >"$R/ncu-loops.txt" 2>&1
            ncu_grep "$R/ncu-loops.txt" 40
            timeout 25 ncu --clock-control none --section WarpStateStats --section SchedulerStats --section Occupancy \
                -k regex:'k_classes|k_members' -c 2 "$BD" --ncu auto >"$R/ncu-stalls.txt" 2>&1
            ncu_grep "$R/ncu-stalls.txt" 40
        fi
    fi
    gzip -f "$R/cli-default.out"
    trim "$R"
    echo "total $(el) s"
}

gpu_collatz_converge() {
    R=$OUTROOT/collatz-converge
    gpu_build "$R" bulk test_collatz_gpu
    BULK_CZ_GPU_TEST=verify "$B/tests/collatz_gpu/test_collatz_gpu" >"$R/test-verify.log" 2>&1
    echo "test_collatz_gpu (verify cases) rc=$?: $(grep -c ' same ' "$R/test-verify.log") same"
    grep -E "DIFFERENT|FAIL" "$R/test-verify.log" | head -20
    for e in 44 46; do
        converge_run 120 --from 2^68 --to 2^68+2^$e --backend cuda
        converge_run 120 --from 2^68 --to 2^68+2^$e --backend cuda --converge
    done
    converge_run 120 --from 2^68 --to 2^68+2^48 --backend cuda --converge
    converge_run 120 --from 2^68 --to 2^68+2^50 --backend cuda --converge
    converge_run 120 --from 2^68 --to 2^68+2^36 --backend cpu
    converge_run 120 --from 2^68 --to 2^68+2^36 --backend cpu --converge
    converge_keep
}
# converge_run SECONDS ARGS...: one `collatz verify --json` into R/cli.jsonl
converge_run() {
    s=$1
    shift
    echo "## $*" >>"$R/cli.jsonl"
    timeout "$s" "$B/bulk" collatz verify --json "$@" >>"$R/cli.jsonl" 2>>"$R/cli.err"
    echo "rc=$? $* ($(el) s) $(tail -1 "$R/cli.jsonl" | grep -o '"iterated[^,]*\|"seconds":[^}]*' | tr '\n' ' ')"
}
converge_keep() { cp "$R/cli.jsonl" "$(res collatz-gpu-converge)"; trim "$R"; echo "written: $(res collatz-gpu-converge)"; }

gpu_collatz_converge_long() {
    R=$OUTROOT/collatz-converge-long
    gpu_build "$R" bulk
    converge_run 150 --backend cuda --from 2^68 --to 2^68+2^50 --converge
    converge_run 150 --backend cuda --from 2^68 --to 2^68+2^50 --converge --d 14
    converge_run 150 --backend cuda --from 2^68 --to 2^68+2^48
    converge_keep
}

gpu_collatz_converge_scan() {
    [ $# -ge 1 ] || die "collatz --gpu converge-scan FROM:BITS:K:D ..."
    R=$OUTROOT/collatz-converge-scan
    gpu_build "$R" bulk
    for spec in "$@"; do
        from=${spec%%:*} rest=${spec#*:}
        bits=${rest%%:*} rest=${rest#*:}
        k=${rest%%:*} d=${rest#*:}
        set -- --backend cuda --converge --from "$from" --to "$from+2^$bits"
        [ "$k" != - ] && set -- "$@" --k "$k"
        [ "$d" != - ] && set -- "$@" --d "$d"
        converge_run 150 "$@"
    done
    converge_keep
}

gpu_collatz_profile() {
    R=$OUTROOT/collatz-profile
    gpu_build "$R" bench_collatz_gpu test_collatz_gpu test_collatz_gpu_twin
    BG=$B/bench/collatz_gpu/bench_collatz_gpu
    if [ "${SASS:-1}" = 1 ]; then
        for f in cg_verify cg_delays; do cuobjdump -sass "$B/CMakeFiles/bulk_obj.dir/src/collatz/cuda/$f.cu.o" 2>&1 | gzip >"$R/sass-$f.txt.gz"; done
    fi
    (cd "$B" && ctest -R collatz_gpu --output-on-failure -V) >"$R/test.log" 2>&1 && echo "TESTS PASSED" || echo "TESTS FAILED"
    echo "$(grep -c ' same ' "$R/test.log") same, $(grep -c DIFFERENT "$R/test.log") different"
    # shellcheck disable=SC2086
    timeout "${BENCH_LIMIT:-200}" "$BG" --out "$R/bench.txt" --png "$R/bench.png" ${BENCH_ARGS:---seconds 0.3 --kmax 37} >/dev/null 2>"$R/bench.err"
    echo "bench rc=$?"
    if [ "${NCU:-1}" = 1 ]; then # a FLAT verify launch and a delay launch of a quick run (whole rows)
        for kn in k_flat k_delays; do
            timeout 75 ncu --clock-control none -k "regex:$kn" --launch-skip 20 -c 1 --section SpeedOfLight \
                --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats \
                --section InstructionStats "$BG" --quick --seconds 0.05 --kmax 24 >"$R/ncu-$kn.txt" 2>&1
        done
    fi
    grep -E "^(8|12|16|20) |best|speed-up|^3[0-9] |layout|ragged|fast/|core/" "$R/bench.txt" | tail -40
    echo "total $(el) s; logs in $R"
}

# Multi-GPU in one process: verify and delays --stats with 1, 2, 4, 8 visible GPUs (equal totals
# and checksums required; efficiency T(1) / (g T(g))), then the Collatz GPU tests with all GPUs.
gpu_collatz_multi() {
    R=$OUTROOT/collatz-multi
    gpu_build "$R" bulk test_collatz_gpu
    G=${GPUS:-$(nvidia-smi -L | wc -l)}
    out=$(res collatz-multi-gpu)
    FROM=2^68 TO=2^68+2^45 DFROM=2^64 DTO=2^64+2^36
    {
        echo "# one process, CUDA backend, the range split over the visible GPUs"
        echo "# $(nvidia-smi -L | head -1) (x$G)  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
        echo "# verify --from $FROM --to $TO ; delays --from $DFROM --to $DTO --stats 2^20"
        printf "%-5s %-8s %-12s %-7s %-20s %-8s %-12s %-7s %s\n" gpus v_s verify/s v_eff checksum d_s delays/s d_eff "stats sha256"
    } >"$out"
    v1=
    for g in 1 2 4 8; do
        [ $g -le "$G" ] || break
        vis=$(seq -s, 0 $((g - 1)))
        CUDA_VISIBLE_DEVICES=$vis BULK_PROGRESS=0 "$B/bulk" collatz verify --from "$FROM" --to "$TO" --backend cuda >"$R/v.txt" 2>&1
        CUDA_VISIBLE_DEVICES=$vis BULK_PROGRESS=0 "$B/bulk" collatz delays --from "$DFROM" --to "$DTO" --stats 1048576 \
            --backend cuda --out "$R/s.txt" >"$R/d.txt" 2>&1
        vs=$(sed -n 's/^time *\([0-9.]*\) s.*/\1/p' "$R/v.txt")
        sum=$(sed -n 's/^checksum *//p' "$R/v.txt")
        ds=$(sed -n "s/.* numbers in \([0-9.]*\) s.*/\1/p" "$R/d.txt")
        sh=$(sha256sum "$R/s.txt" | cut -c1-16)
        [ -z "$vs" ] && { echo "run failed:"; cat "$R/v.txt" "$R/d.txt"; continue; }
        [ -z "$v1" ] && v1=$vs d1=$ds c1=$sum s1=$sh
        awk -v g=$g -v vs="$vs" -v cov="$(sed -n 's/^covered *//p' "$R/v.txt")" -v v1="$v1" -v sum="$sum" -v ds="$ds" \
            -v d1="$d1" -v sh="$sh" -v c1="$c1" -v s1="$s1" 'BEGIN {
            printf "%-5d %-8.3f %-12.4g %-7.3f %-20s %-8.3f %-12.4g %-7.3f %s%s%s\n", g, vs, cov / vs, v1 / (g * vs),
                   sum, ds, 2^36 / ds, d1 / (g * ds), sh, sum == c1 ? "" : "  CHECKSUM DIFFERS", sh == s1 ? "" : "  STATS DIFFER" }' | tee -a "$out"
    done
    (cd "$B" && ctest -L gpu -R collatz_gpu --output-on-failure -V) >"$R/tests.log" 2>&1
    echo "ctest -L gpu -R collatz_gpu with $G GPUs visible: rc=$?"
    tail -3 "$R/tests.log"
    [ "$G" -gt 1 ] && keep_log "$R/tests.log" collatz-multi-gpu
    return 0
}

gpu_int() {
    R=$OUTROOT/int
    gpu_build "$R" test_int_gpu test_int_gpu_core bench_int_gpu
    [ "${GPU_TESTS:-}" = all ] && { cmake --build "$B" -j "$(nproc)" >>"$R/build.log" 2>&1 || echo "(full build failed: $R/build.log)"; }
    sel="-R int_gpu"
    [ "${GPU_TESTS:-}" = all ] && sel=
    # shellcheck disable=SC2086
    (cd "$B" && ctest -L gpu $sel -V --output-on-failure --timeout 600) >"$R/ctest.log" 2>&1
    trc=$?
    "$B/tests/int_gpu/test_int_gpu_core" >>"$R/ctest.log" 2>&1
    crc=$?
    grep -E "SKIP|Passed|Failed|FAIL|tests passed|seed" "$R/ctest.log" | head -40
    [ -z "$sel" ] && keep_log "$R/ctest.log" all || keep_log "$R/ctest.log" int-gpu
    out=$(res int-gpu)
    q=
    [ "${QUICK:-0}" = 1 ] && q=--quick
    "$B/bench/int_gpu/bench_int_gpu" $q --out "$out" >"$R/bench.log" 2>&1
    brc=$?
    cat "$R/bench.log"
    echo "== summary: tests rc=$trc, test_int_gpu_core rc=$crc, bench_int_gpu rc=$brc ($(el) s)"
    [ -f "$out" ] && grep -E '^(op|mul|sqr|mul_lo|add|divmod|gcd|powmod|kara[123]|gcdapprox) |^# divmod 2048/1024 check' "$out"
    [ $trc -eq 0 ] && [ $crc -eq 0 ]
}

gpu_int_div() {
    R=$OUTROOT/int-div
    gpu_build "$R" test_int_gpu test_int_gpu_core bench_int_gpu
    BI=$B/bench/int_gpu/bench_int_gpu
    (cd "$B" && timeout 45 ctest -R '^test_int_gpu(_core)?$' --output-on-failure -V) >"$R/ctest.log" 2>&1
    status=$?
    grep -E "SKIP|Passed|Failed|FAIL|tests passed|seed|divmod .*done|Test time" "$R/ctest.log" | head -60
    keep_log "$R/ctest.log" int-gpu
    # divmod 2048/1024 by default, checked against GMP
    timeout 30 "$BI" --only divmod --out "$(res int-gpu-div)" >"$R/divmod.log" 2>&1
    echo "divmod rc $? ($(el) s)"
    sed -n '/^op /,$p' "$(res int-gpu-div)"
    if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null 2>&1; then
        timeout 30 ncu --clock-control none -k regex:divmod_stage_kernel --section SpeedOfLight --section WarpStateStats \
            --section InstructionStats --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
            --section SchedulerStats "$BI" --only prof --out "$R/prof-bench.txt" >"$R/ncu.txt" 2>&1
        ncu_grep "$R/ncu.txt" 60
        timeout 20 ncu --clock-control none -k regex:divmod_stage_kernel \
            --metrics regex:'smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
            "$BI" --only prof --out "$R/prof-bench2.txt" >"$R/ncu-stalls.txt" 2>&1
    fi
    if command -v cuobjdump >/dev/null 2>&1; then # static opcode mix of the staged kernel at 32 words
        cuobjdump -sass "$B/CMakeFiles/bulk_obj.dir/src/int/cuda/int_cuda_num.cu.o" 2>/dev/null | awk '
            /Function :/ { fn = $3; keep = (fn ~ /divmod_stage_kernelILi32E/) }
            keep && /^ +\/\*[0-9a-f]+\*\// { op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); c[fn " " op]++; n[fn]++ }
            END { for (k in c) print k, c[k]; for (f in n) print f, "TOTAL", n[f] }' | sort -k1,1 -k3,3nr >"$R/sass-div.txt"
    fi
    echo "done ($(el) s); logs in $R"
    return $status
}

gpu_int_ntt() {
    R=$OUTROOT/int-ntt
    gpu_build "$R" test_int_gpu_ntt test_int_gpu_ntt_core bench_int_gpu_ntt
    BN=$B/bench/int_gpu_ntt/bench_int_gpu_ntt
    (cd "$B" && timeout 28 ctest -R int_gpu_ntt --output-on-failure -V) >"$R/ctest.log" 2>&1
    status=$?
    grep -E "SKIP|Passed|Failed|FAIL|passed|seed|batch|big|Test time" "$R/ctest.log" | head -80
    # crossover widths, batched products 8192 .. 524288 bits (auto, without the NTT, NTT forced,
    # Karatsuba over NTT, GMP on all cores), single large products
    timeout 38 "$BN" --quick --only batch,big --out "$(res int-gpu-ntt)" >"$R/bench.log" 2>&1
    echo "bench rc $? ($(el) s)"
    cat "$(res int-gpu-ntt)"
    if [ "${CAP:-80}" -gt 60 ] && command -v ncu >/dev/null 2>&1; then
        for k in ntt_batch_kernel 'big_pass_kernel|big_block_kernel'; do
            timeout 9 ncu --clock-control none -k regex:"$k" --launch-count 2 --section SpeedOfLight --section WarpStateStats \
                --section InstructionStats --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
                --section MemoryWorkloadAnalysis "$BN" --only prof >>"$R/ncu.txt" 2>&1
        done
        timeout 9 ncu --clock-control none -k regex:ntt_batch_kernel --launch-count 1 \
            --metrics regex:'smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' "$BN" --only prof >"$R/ncu-stalls.txt" 2>&1
    fi
    echo "done ($(el) s); logs in $R"
    return $status
}

gpu_int_powmod() {
    R=$OUTROOT/int-powmod
    gpu_build "$R" test_int_gpu_powmod test_int_gpu_mont_core bench_int_gpu_powmod
    (cd "$B" && timeout 300 ctest -R 'test_int_gpu_(powmod|mont_core)$' --output-on-failure -V) >"$R/ctest.log" 2>&1
    status=$?
    grep -E "SKIP|Passed|Failed|FAIL|passed|seed|done|Test time" "$R/ctest.log" | head -60
    keep_log "$R/ctest.log" int-gpu-powmod
    # powmod 1024/2048/4096 (512-bit and full exponents), invmod 1024/2048/4096, the lanes sweeps
    timeout 240 "$B/bench/int_gpu_powmod/bench_int_gpu_powmod" --sweep --out "$(res int-gpu-powmod)" >"$R/bench.log" 2>&1
    echo "bench rc $? ($(el) s)"
    cat "$R/bench.log"
    echo "done ($(el) s); logs in $R"
    return $status
}

gpu_gcd() {
    R=$OUTROOT/gcd
    gpu_build "$R" test_gcd test_gcd_gpu test_mul_fft bench_gcd bulk gcd_oracle
    (cd "$B" && ctest -R 'gcd|fft' --output-on-failure) >"$R/ctest.log" 2>&1
    tail -5 "$R/ctest.log"
    BG=$B/bench/gcd/bench_gcd
    {
        echo "# bench/run.sh gcd --gpu, $(sed -n 2p "$R/device.txt"), $(nproc) cores, $(date -u)"
        "$BG" --backend cuda --n 10000 --pairs-seconds 10
        "$BG" --backend cpu --n 10000 --pairs-seconds 10 --no-gmp --no-batch
        timeout 1200 "$BG" --backend cuda --n 1000000 --pairs-seconds 20 --no-gmp || echo "1e6 run stopped by the 1200 s cap"
    } 2>&1 | tee "$(res gcd)"
}

gpu_gcd_batch() {
    R=$OUTROOT/gcd-batch
    gpu_build "$R" test_gcd_gpu bench_gcd
    CAP=${CAP:-600}
    left() { echo $((CAP - 3 - $(el))); }
    out=$(res gcd-batch)
    {
        echo "# bench/run.sh gcd --gpu batch: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores, $(date -u), cap ${CAP} s"
        echo "# 1e6 random odd 1024-bit numbers with 2000 planted shared factors (planted_ok), GPU context, defaults"
        timeout "$(left)" "$B/bench/gcd/bench_gcd" --backend cuda --n 1000000 --random --no-pairs --no-gmp --levels ||
            echo "# 1e6: stopped (exit $?) after $(el) s"
    } >"$out" 2>&1
    grep -v "^level" "$out"
    [ "$(left)" -gt 5 ] && (cd "$B" && BULK_PROGRESS=0 timeout "$(left)" ctest -R test_gcd_gpu -V) >"$R/ctest.log" 2>&1
    grep -E "identical|SKIP|FAIL|Passed|Failed|Timeout|tests passed" "$R/ctest.log"
    if [ "$(left)" -gt 8 ]; then
        echo "# 1e5, defaults" >>"$out"
        timeout "$(left)" "$B/bench/gcd/bench_gcd" --backend cuda --n 100000 --random --no-pairs --no-gmp --levels >>"$out" 2>&1
    fi
    grep -v "^level" "$out" | tail -5
}

gpu_life() {
    R=$OUTROOT/life
    gpu_build "$R"
    (cd "$B" && ctest -L gpu --output-on-failure) >"$R/tests.log" 2>&1
    grc=$?
    (cd "$B" && ctest -R life --output-on-failure) >>"$R/tests.log" 2>&1
    lrc=$?
    tail -n 15 "$R/tests.log"
    cli_ok=yes
    for f in tests/data/life/*.rle; do
        for t in "--steps 500" "--steps 300 --torus 640x512"; do
            # shellcheck disable=SC2086
            "$B/bulk" life run --in "$f" $t --backend cpu --out "$R/cpu.rle" &&
                "$B/bulk" life run --in "$f" $t --backend cuda --out "$R/gpu.rle" &&
                cmp -s "$R/cpu.rle" "$R/gpu.rle" || { echo "differs: $f $t"; cli_ok=no; }
        done
    done
    d=$(mktemp -d)
    "$B/bench/life/bench_life" --gpu-only --machine "$MACHINE" --results "$d" | tee "$R/bench.txt"
    for f in "$d"/*-life.txt; do [ -f "$f" ] && mv "$f" "$(res life)"; done
    rm -rf "$d"
    echo "==== life on the GPU: ctest -L gpu rc=$grc, ctest -R life rc=$lrc, CLI cuda == cpu: $cli_ok"
    grep '^gpu  *16384' "$R/bench.txt" | grep B3/S23 | sort -g -k7 | tail -1 |
        awk '{ print "best 16K^2 x 1K: " $7 " updates/s at " $4 " generations/pass (0 = default), " $9 " of the integer limit" }'
    grep '^ooc' "$R/bench.txt" | sed 's/^/out of core: /'
    [ $grc -eq 0 ] && [ $lrc -eq 0 ] && [ $cli_ok = yes ]
}

gpu_bpbc() {
    R=$OUTROOT/bpbc
    gpu_build "$R"
    (cd "$B" && ctest -L gpu --output-on-failure) >"$R/tests.log" 2>&1
    trc=$?
    tail -5 "$R/tests.log"
    out=$(res bpbc)
    "$B/bench/bpbc/bench_bpbc" --gpu --out "$out"
    brc=$?
    echo "==== bpbc on the GPU: ctest -L gpu rc=$trc, benchmark rc=$brc: $out"
    [ $brc -eq 0 ] && awk '/Table 5.1/ { t = 51 } /Table 7.2/ { t = 72 } /Table 7.1/ { t = 71 }
         t == 51 && ($1 == 1 || $1 == 16 || $1 == 32) && $1 ~ /^[0-9]+$/ { printf "%-36s naive %s ms, bitwise %s ms\n", "pairwise sums, k = " $1, $2, $3 }
         t == 72 && $1 == 64 && $2 == 8192 { printf "%-36s %s us/string wall, %s kernel, %s without early exit\n", "CKY 64 nt, 8192 rules, length 32", $5, $7, $12 }
         t == 72 && $1 == 512 && $2 == 131072 { printf "%-36s %s us/string wall, %s kernel\n", "CKY 512 nt, 131072 rules", $5, $7 }
         t == 71 && $1 == 2097152 { printf "%-36s %s us/string (32 nt), %s (64 nt)\n", "CKY M = 2^21, 8192 rules", $3, $5 }' "$out"
    [ $trc -eq 0 ] && [ $brc -eq 0 ]
}

gpu_bpbc_cky() {
    R=$OUTROOT/bpbc-cky
    gpu_build "$R" test_bpbc_cky test_bpbc_gpu test_bpbc_circuit bench_bpbc bulk
    CAP=${CAP:-150}
    (cd "$B" && BULK_PROGRESS=0 ctest -R bpbc -j4 --output-on-failure) >"$R/ctest.log" 2>&1
    tail -8 "$R/ctest.log"
    BB=$B/bench/bpbc/bench_bpbc
    if [ "${SASS:-0}" = 1 ] && command -v cuobjdump >/dev/null 2>&1; then
        o=$(find "$B/CMakeFiles/bulk_obj.dir" -name 'cky_block.cu.o' | head -1)
        [ -n "$o" ] && cuobjdump -sass "$o" >"$R/sass.txt" 2>&1
    fi
    q=
    [ "${QUICK:-0}" = 1 ] && q=--quick
    # seed 001 Table 7.2 on the GPU (default kernel, no early exit, first kernel, CPU, LOP3/LDS
    # limits) and Table 7.1; kernels without early exit on rows of at most FULL_MAX rules
    # shellcheck disable=SC2086
    timeout $((CAP - 8 - $(el))) "$BB" --gpu --skip-circuit $q --gpu-full-max "${FULL_MAX:-16384}" ${BENCH_ARGS:-} \
        --out "$(res bpbc-cky)" || echo "# bench_bpbc stopped (exit $?)"
    s=$((CAP - 8 - $(el)))
    if [ "$s" -gt 20 ] && command -v ncu >/dev/null 2>&1; then
        # block-kernel launches of one row: warm-up, then default, kblk, kbyb, full, fullb, full2
        timeout "$s" ncu --clock-control none -k regex:cky_block_kernel --launch-skip 1 --launch-count 6 \
            --section SpeedOfLight --section WarpStateStats --section Occupancy \
            "$BB" --gpu --skip-circuit --gpu-row 64:8192 >"$R/ncu.txt" 2>&1
        ncu_grep "$R/ncu.txt" 60
    fi
    echo "done after $(el) s"
}

gpu_mpi() {
    FROM=${1:-2^68} TO=${2:-2^68+2^45} CHUNK=${3:-2^37}
    if ! command -v mpirun >/dev/null; then
        if [ -d build-mpi-debs ]; then
            dpkg -i build-mpi-debs/*.deb >/tmp/dpkg.log 2>&1 || { echo "dpkg failed:"; tail -20 /tmp/dpkg.log; }
        else
            echo "no mpirun and no build-mpi-debs/ (sh bench/run.sh mpi --fetch-debs on a machine with network)"
        fi
    fi
    B=${BUILD_DIR:-build-mpi-gpu}
    [ "${MPI_ONLY:-0}" = 0 ] && gpu_collatz_multi
    R=$OUTROOT/mpi
    gpu_build "$R" bulk
    command -v mpirun >/dev/null || { echo "no MPI: the MPI scaling part is skipped"; return 2; }
    G=$(nvidia-smi -L | wc -l)
    out=$(res mpi-gpu)
    MPI="mpirun --allow-run-as-root --bind-to none"
    export OMPI_MCA_btl_vader_single_copy_mechanism=none # gVisor: no CMA between processes
    {
        echo "# bulk dist collatz verify --from $FROM --to $TO --chunk $CHUNK, CUDA backend, one GPU per rank"
        echo "# $(nvidia-smi -L | head -1) (x$G), $(nproc) CPUs  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
        printf "%-5s %-9s %-12s %-8s %-9s %-8s %-20s %s\n" gpus run_s numbers/s eff_run wall_s eff_wall checksum "chunks per rank"
    } | tee "$out"
    CUDA_VISIBLE_DEVICES=0 BULK_PROGRESS=0 "$B/bulk" collatz verify --from "$FROM" --to "$TO" --backend cuda >"$R/one.txt"
    ONE=$(sed -n 's/^checksum *//p' "$R/one.txt")
    echo "# one-process bulk collatz verify on one GPU: checksum $ONE, $(grep '^time' "$R/one.txt")" | tee -a "$out"
    r1=
    for g in 1 2 4 8; do
        [ $g -le "$G" ] || break
        a=$(date +%s.%N)
        CUDA_VISIBLE_DEVICES=$(seq -s, 0 $((g - 1))) BULK_PROGRESS=0 $MPI -np $g "$B/bulk" dist collatz verify \
            --from "$FROM" --to "$TO" --chunk "$CHUNK" --backend cuda >"$R/gpu.txt" 2>"$R/gpu.err"
        b=$(date +%s.%N)
        run=$(sed -n 's/^time *\([0-9.]*\) s.*/\1/p' "$R/gpu.txt")
        wall=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b - a }')
        [ -z "$r1" ] && r1=$run w1=$wall
        awk -v g=$g -v run="$run" -v wall="$wall" -v r1="$r1" -v w1="$w1" -v cov="$(sed -n 's/^covered *//p' "$R/gpu.txt")" \
            -v sum="$(sed -n 's/^checksum *//p' "$R/gpu.txt")" -v per="$(sed -n 's/.*(per rank:\([0-9 ]*\)).*/\1/p' "$R/gpu.err")" \
            -v one="$ONE" 'BEGIN { printf "%-5d %-9.3f %-12.4g %-8.3f %-9.3f %-8.3f %-20s %s%s\n", g, run, cov / run,
                r1 / (g * run), wall, w1 / (g * wall), sum, per, sum == one ? "" : "   CHECKSUM DIFFERS" }' | tee -a "$out"
    done
    echo "every row must show the one-process checksum (results in $out)"
}

# Everything that needs a GPU in one call: build once, every GPU test, a short benchmark of each area.
gpu_all() {
    R=$OUTROOT/all
    gpu_build "$R"
    (cd "$B" && timeout 240 ctest -L gpu --output-on-failure -V) >"$R/gpu-tests.log" 2>&1
    trc=$?
    keep_log "$R/gpu-tests.log" all
    run() { n=$1 s=$2; shift 2; timeout "$s" "$@" >"$R/$n.txt" 2>&1; echo "$n rc=$?" >>"$R/rcs.txt"; }
    : >"$R/rcs.txt"
    run int-gpu 90 "$B/bench/int_gpu/bench_int_gpu"
    run collatz-layouts 90 "$B/bench/collatz_gpu/bench_collatz_gpu" --layouts
    run collatz-cli-verify 60 "$B/bulk" collatz verify --from 2^68 --to 2^68+2^44 --backend cuda --json
    run collatz-cli-delays 60 "$B/bulk" collatz delays --from 2^64 --to 2^64+2^34 --stats 1048576 --backend cuda --out "$R/delay-stats.txt"
    run bpbc-gpu 120 "$B/bench/bpbc/bench_bpbc" --gpu --quick
    run gcd-gpu 90 "$B/bench/gcd/bench_gcd" --backend cuda --n 10000 --pairs-seconds 10 --no-gmp
    {
        echo "== summary ($(sed -n 2p "$R/device.txt"))"
        echo "ctest -L gpu rc=$trc; $(el) s in all"
        grep -E "^ *[0-9]+/[0-9]+ Test|tests passed|tests failed" "$R/gpu-tests.log"
        cat "$R/rcs.txt"
    } | tee "$(res gpu-all)"
    [ $trc -eq 0 ]
}

# Several measurements in one device call: build once, then each AREA:MODE[:SECS] under a cap.
gpu_series() {
    secs=$1
    shift
    R=$OUTROOT/series
    gpu_build "$R"
    for spec in "$@"; do
        a=${spec%%:*} rest=${spec#*:} m='' cap=$secs
        [ "$rest" != "$spec" ] && m=${rest%%:*} && [ "$rest" != "$m" ] && cap=${rest#*:}
        echo "== $a $m (cap $cap s)"
        t1=$(date +%s)
        # shellcheck disable=SC2086
        NO_BUILD=1 CAP=$cap timeout "$cap" sh "$0" "$a" --gpu $m >"$R/$a${m:+-$m}.txt" 2>&1
        echo "$a $m rc=$? ($(($(date +%s) - t1)) s)" | tee -a "$R/summary.txt"
    done
}

case $AREA in
int | gcd | collatz | life | bpbc | mpi) ;;
all) [ $GPU = 1 ] && { gpu_all "$@"; exit; }
    for a in bpbc collatz gcd int life; do echo "== $a"; sh "$0" "$a" || exit; done
    exit 0 ;;
series) [ $# -ge 2 ] || usage; GPU=1; gpu_series "$@"; exit ;;
demo) exec sh bench/demo.sh "$B" ;;
-h | --help | help) usage ;;
*) die "unknown area '$AREA' (int, gcd, collatz, life, bpbc, mpi, all, series)" ;;
esac
# the MODE word (with or without --) when it names a measurement; other words go to the program
[ $GPU = 1 ] && fn=gpu_$AREA || fn=cpu_$AREA
m=$(echo "$MODE" | tr - _)
if [ -n "$m" ] && command -v "${fn}_$m" >/dev/null 2>&1; then
    fn=${fn}_$m
    shift
fi
command -v "$fn" >/dev/null 2>&1 || die "no measurement '$AREA'$([ $GPU = 1 ] && echo ' with --gpu') (sh bench/run.sh --help)"
"$fn" "$@"
