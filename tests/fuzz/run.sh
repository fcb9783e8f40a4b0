#!/bin/sh
# Builds the libFuzzer targets of tests/fuzz with clang in a build directory of their own and
# runs each one for a bounded time on a copy of its seed corpus (tests/fuzz/corpus/<target>).
#
#   tests/fuzz/run.sh [SECONDS [TARGET...]]     (make fuzz; SECONDS also from BULK_FUZZ_SECONDS)
#
# Defaults: 30 s per target, every target built. Exit 0 when every target ran its time without a
# finding; 1 when any crashed, broke a property, reported undefined behaviour, leaked, ran out
# of its memory limits (-rss_limit_mb, -malloc_limit_mb: one allocation above the limit is a
# finding, which catches sizes taken from a header) or took longer than -timeout on one input;
# 2 on bad usage or a failed build. Reproducers are saved to $BULK_FUZZ_DIR/findings/<target>/
# (crash-*, leak-*, oom-*, timeout-*) and the log of each run to $BULK_FUZZ_DIR/<target>.log;
# replay one with: $BULK_FUZZ_DIR/tests/fuzz/fuzz_<target> FILE
#
# Environment: BULK_FUZZ_CC (default clang), BULK_FUZZ_DIR (build directory, default build-fuzz),
# BULK_FUZZ_SECONDS, BULK_FUZZ_MALLOC_MB (default 512), BULK_FUZZ_JOBS (build jobs, default nproc).
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=${1:-${BULK_FUZZ_SECONDS:-30}}
[ $# -gt 0 ] && shift
case $secs in
'' | *[!0-9]*) echo "bulk: fuzz: SECONDS must be a whole number of seconds, got '$secs'" >&2; exit 2 ;;
esac
dir=${BULK_FUZZ_DIR:-build-fuzz}
malloc_mb=${BULK_FUZZ_MALLOC_MB:-512}
jobs=${BULK_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}

mkdir -p "$dir" || exit 2
cmake -S . -B "$dir" -DCMAKE_C_COMPILER="${BULK_FUZZ_CC:-clang}" -DCMAKE_BUILD_TYPE=Debug -DBULK_FUZZ=ON \
    -DBULK_CUDA=OFF -DBULK_MPI=OFF >"$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log" >&2; echo "bulk: fuzz: configure failed" >&2; exit 2; }
cmake --build "$dir" -j "$jobs" --target fuzz_targets || { echo "bulk: fuzz: build failed" >&2; exit 2; }

targets="$*"
if [ -z "$targets" ]; then
    for t in "$dir"/tests/fuzz/fuzz_*; do
        [ -x "$t" ] && targets="$targets ${t##*/fuzz_}"
    done
fi
failed=""
for t in $targets; do
    bin=$dir/tests/fuzz/fuzz_$t
    [ -x "$bin" ] || { echo "bulk: fuzz: no target '$t' (built: $(ls "$dir/tests/fuzz" | grep '^fuzz_' | tr '\n' ' '))" >&2; exit 2; }
    # the seeds stay as they are; what the fuzzer adds goes to a working copy
    work=$dir/corpus/$t findings=$dir/findings/$t
    rm -rf "$work" "$findings"
    mkdir -p "$work" "$findings"
    [ -d "tests/fuzz/corpus/$t" ] && cp tests/fuzz/corpus/"$t"/* "$work"/ 2>/dev/null
    log=$dir/$t.log
    echo "fuzz $t: ${secs} s"
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb="$malloc_mb" \
        -max_len=8192 -artifact_prefix="$findings/" -print_final_stats=1 \
        "$work" >"$log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || ls "$findings" | grep -q .; then
        failed="$failed $t"
        echo "fuzz $t: FAILED (exit $rc); log $log, reproducer(s):" >&2
        ls "$findings"/* >&2 2>/dev/null
        grep -E "ERROR|runtime error|property broken|SUMMARY|out-of-memory|malloc\(|Test unit written" "$log" | head -20 >&2
    else
        grep -E "^stat::number_of_executed_units|^#[0-9]+.*DONE" "$log" | tail -2
    fi
done
if [ -n "$failed" ]; then
    echo "bulk: fuzz: findings in:$failed" >&2
    exit 1
fi
echo "fuzz: no findings"
