#!/bin/sh
# Session 5: `collatz verify --converge` on the GPU against the sieve depth K and table bits d
# (2^68 .. 2^68 + 2^48 and + 2^46; the default K = 40 from 28 stored bits). Builds like
# converge-gpu.sh (incremental when build-gpu is there). Results: $OUT/scan/cli.jsonl
set -u
B=build-gpu
R=${OUT:-/tmp}/scan
mkdir -p "$R"
t0=$(date +%s)
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON ${GMP_PREFIX:+-DCMAKE_PREFIX_PATH=$GMP_PREFIX} \
    >"$R/build.log" 2>&1
cmake --build "$B" -j "$(nproc)" --target bulk >>"$R/build.log" 2>&1 || { tail -40 "$R/build.log"; exit 1; }
echo "build $(($(date +%s) - t0)) s"
run() {
    echo "## $*" >>"$R/cli.jsonl"
    timeout 100 "$B/bulk" collatz verify --json --backend cuda --converge --from 2^68 "$@" >>"$R/cli.jsonl" 2>>"$R/cli.err"
    echo "rc=$? $* ($(($(date +%s) - t0)) s) $(tail -1 "$R/cli.jsonl" | grep -o '"seconds":[^}]*')"
}
for kd in "40 10" "43 10" "44 10" "46 10" "43 12" "43 14" "40 14" "44 14"; do
    set -- $kd
    run --to 2^68+2^48 --k "$1" --d "$2"
done
for kd in "42 10" "43 10" "43 14"; do
    set -- $kd
    run --to 2^68+2^46 --k "$1" --d "$2"
done
