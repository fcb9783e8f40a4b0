# Sourced by the session-5 device scripts (converge-gpu.sh, converge-scan.sh, converge-long.sh):
# configures build-gpu (Release, CUDA, the carried GMP when GMP_PREFIX is set) and builds the
# targets in $TARGETS, logging to $R/build.log; on failure prints the log's tail and exits 1.
# Sets B (the build dir) and t0 (the start time).
B=build-gpu
t0=$(date +%s)
mkdir -p "$R"
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON ${GMP_PREFIX:+-DCMAKE_PREFIX_PATH=$GMP_PREFIX} \
    >"$R/build.log" 2>&1
# shellcheck disable=SC2086
if ! cmake --build "$B" -j "$(nproc)" --target $TARGETS >>"$R/build.log" 2>&1; then
    tail -40 "$R/build.log"
    exit 1
fi
echo "build $(($(date +%s) - t0)) s"
