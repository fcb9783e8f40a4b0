#!/bin/sh
# One GPU round of the delay loops (/work/notes/gpu-rounds.md): run from the repository root by
# the lead as `B=build-gpu R=<results dir> CAP=<s> timeout <cap> sh bench/collatz_gpu_delays/iter-gpu.sh`
# after a full CUDA build into $B. Everything it keeps goes to $R (small text files). In order of
# importance (the cap may cut the last ones):
#   1. the GPU test, delay cases only (BULK_CZ_GPU_TEST=delays): every loop == the CPU backend,
#      with the lean round end (the default; OLDTESTS=1: also with V5's own, BULK_CZ_CUDA_V5RE=old);
#   1b. test_collatz_gpu_delays (the class path and the lean round end on large ranges);
#   2. the CLI: delays 2^64..2^64+2^34 --stats 2^20, the default (the class path), the lean loop
#      without classes, V5's own round end and V4X2 (outputs compared), other (d, a), 2^37 numbers;
#   3. bench_collatz_gpu_delays: the loops side by side (call and kernel rates, results checked);
#   4. ncu metrics of the lean loop's full launch (d = 14, a = 24, batch 1024) and of the class
#      path's two kernels: warp instructions, lanes, issue, pipes.
# FINAL=1 (the default since the last round of session 4): 1, 2, the quick benchmark and the
# class path's metrics; FINAL=0: everything.
set -u
B=${B:-build-gpu}
R=${R:-iter-out}
mkdir -p "$R"
BENCH="$B/bench/collatz_gpu_delays/bench_collatz_gpu_delays"
CLI="$B/bulk"
t0=$(date +%s)
el() { echo $(($(date +%s) - t0)); }
{ nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1; nvcc --version 2>&1 | tail -1; git log --oneline -1 2>/dev/null; } >"$R/env.txt"

# 1. the GPU test, delay cases, both round ends
(cd "$B" && BULK_CZ_GPU_TEST=delays ctest -R '^test_collatz_gpu$' --output-on-failure -V) >"$R/tests.log" 2>&1
echo "tests (lean round end) rc=$? ($(el) s): $(grep -c ' same' "$R/tests.log") same, $(grep -c DIFFERENT "$R/tests.log") different"
grep -E "tests passed|tests failed|FAIL" "$R/tests.log" | tail -6
(cd "$B" && ctest -R '^test_collatz_gpu_delays$' --output-on-failure -V) >"$R/tests-paths.log" 2>&1
echo "test_collatz_gpu_delays (class path, lean round end) rc=$? ($(el) s): $(grep -c ' same' "$R/tests-paths.log") same, $(grep -c DIFFERENT "$R/tests-paths.log") different"
grep -E "tests passed|tests failed|FAIL" "$R/tests-paths.log" | tail -6
if [ "${OLDTESTS:-0}" = 1 ]; then
    (cd "$B" && BULK_CZ_CUDA_V5RE=old BULK_CZ_GPU_TEST=delays ctest -R '^test_collatz_gpu$' --output-on-failure -V) >"$R/tests-old.log" 2>&1
    echo "tests (V5's own round end) rc=$? ($(el) s): $(grep -c ' same' "$R/tests-old.log") same, $(grep -c DIFFERENT "$R/tests-old.log") different"
fi

# 2. the CLI (d = 14, a = 20: its defaults)
cli() { # name env...
    name=$1
    shift
    s0=$(date +%s.%N)
    env "$@" "$CLI" collatz delays --from 2^64 --to 2^64+2^34 --stats 1048576 --backend cuda >"$R/cli-$name.out" 2>>"$R/cli.err"
    rc=$?
    s1=$(date +%s.%N)
    echo "cli delays ($name) rc=$rc: $(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.3f s, %.4g numbers/s", b - a, 2^34 / (b - a) }') ($(wc -l <"$R/cli-$name.out") lines)"
}
cli default BULK_CZ_CUDA_DELAY=
cli lean BULK_CZ_CUDA_CLASSES=0
cli v5old BULK_CZ_CUDA_V5RE=old
cli v4x2 BULK_CZ_CUDA_DELAY=v4x2
for c in lean v5old v4x2; do echo "cli outputs: $c $(cmp -s "$R/cli-default.out" "$R/cli-$c.out" && echo same || echo DIFFERENT) as the default's"; done
head -2 "$R/cli-default.out"
rm -f "$R/cli-v4x2.out" "$R/cli-v5old.out" "$R/cli-lean.out"
if [ "${FINAL:-1}" != 1 ]; then
# the CLI's default d and a by measurement (the same statistics whatever d and a)
clida() { # d a env...
    dd=$1
    aa=$2
    shift 2
    s0=$(date +%s.%N)
    env "$@" "$CLI" collatz delays --from 2^64 --to 2^64+2^34 --stats 1048576 --backend cuda --d "$dd" --a "$aa" >"$R/cli-da.out" 2>>"$R/cli.err"
    rc=$?
    s1=$(date +%s.%N)
    echo "cli delays --d $dd --a $aa $* rc=$rc: $(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.3f s, %.4g numbers/s", b - a, 2^34 / (b - a) }'), output $(cmp -s "$R/cli-default.out" "$R/cli-da.out" && echo same || echo DIFFERENT)"
}
clida 15 22 BULK_CZ_CUDA_DELAY=
clida 15 20 BULK_CZ_CUDA_DELAY=
clida 13 20 BULK_CZ_CUDA_DELAY=
# a long range (2^37 numbers): where a larger table pays for its build
for da in "14 20" "15 22"; do
    set -- $da
    s0=$(date +%s.%N)
    "$CLI" collatz delays --from 2^64 --to 2^64+2^37 --stats 1048576 --backend cuda --d "$1" --a "$2" >"$R/cli-long-$1-$2.out" 2>>"$R/cli.err"
    rc=$?
    s1=$(date +%s.%N)
    echo "cli delays 2^37 numbers --d $1 --a $2 rc=$rc: $(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.3f s, %.4g numbers/s", b - a, 2^37 / (b - a) }')"
done
echo "cli long outputs: $(cmp -s "$R/cli-long-14-20.out" "$R/cli-long-15-22.out" && echo same || echo DIFFERENT)"
rm -f "$R"/cli-long-*.out
rm -f "$R/cli-da.out"
fi
gzip -f "$R/cli-default.out"

if [ "${FINAL:-1}" = 1 ]; then
    # the last round: the final state at five points (V4X2, the default = class path, the lean
    # loop), then the metrics of the class path's two kernels
    timeout 35 "$BENCH" --quick --seconds 0.2 --out "$R/delays.txt" >/dev/null 2>"$R/delays.err"
    echo "delays bench (quick) rc=$? ($(el) s)"
    cat "$R/delays.txt"
    if command -v ncu >/dev/null 2>&1 && [ "${NCU:-1}" = 1 ]; then
        timeout 25 ncu --clock-control none \
            --metrics smsp__inst_executed.sum,smsp__cycles_active.avg,smsp__warps_active.avg.per_cycle_active,smsp__issue_active.avg.per_cycle_active \
            -k regex:'k_classes|k_members' -c 2 "$BENCH" --ncu auto >"$R/ncu-metrics.txt" 2>&1
        echo "ncu metrics rc=$? ($(el) s)"
        grep -E "k_classes|k_members|smsp__|ncu point" "$R/ncu-metrics.txt" | grep -v "^==" | head -20
    fi
    echo "total $(el) s"
    exit 0
fi

# 3. the loops side by side
timeout 45 "$BENCH" --seconds 0.2 --out "$R/delays.txt" >/dev/null 2>"$R/delays.err"
echo "delays bench rc=$? ($(el) s)"
cat "$R/delays.txt"

# 4. raw metrics of the default (lean) and V5's own round end: instructions, lanes, pipes, issue
if command -v ncu >/dev/null 2>&1 && [ "${NCU:-1}" = 1 ]; then
    timeout 25 ncu --clock-control none \
        --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fmaheavy.sum,smsp__inst_executed_pipe_lsu.sum,smsp__cycles_active.avg,smsp__warps_active.avg.per_cycle_active,smsp__issue_active.avg.per_cycle_active,smsp__pcsamp_warps_issue_stalled_no_instructions.sum \
        -k regex:'k_delays5|k_classes|k_members' --launch-skip 1 -c 5 "$BENCH" --ncu lean,auto >"$R/ncu-metrics.txt" 2>&1
    echo "ncu metrics rc=$? ($(el) s)"
    grep -E "k_delays|ncu point|smsp__|l1tex__" "$R/ncu-metrics.txt" | grep -v "^==" | head -40
fi
# 5. stall reasons of the class path's phase 1 and phase 2 (the default's main launch)
if command -v ncu >/dev/null 2>&1 && [ "${NCU:-1}" = 1 ]; then
    timeout 25 ncu --clock-control none --section WarpStateStats --section SchedulerStats --section Occupancy \
        -k regex:'k_classes|k_members' -c 2 "$BENCH" --ncu auto >"$R/ncu-stalls.txt" 2>&1
    echo "ncu stalls rc=$? ($(el) s)"
    grep -E "k_classes|k_members|Issued Warp|No Eligible|Active Warps Per|Warp Cycles Per Issued|Stall|stall" "$R/ncu-stalls.txt" | grep -v "^==" | head -40
fi
for f in "$R"/*.err; do
    [ -f "$f" ] && [ "$(wc -c <"$f")" -gt 20000 ] && { tail -c 20000 "$f" >"$f.tail" && mv "$f.tail" "$f"; }
done
echo "total $(el) s"
