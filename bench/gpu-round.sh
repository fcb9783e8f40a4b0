#!/bin/sh
# One device call shared by several engineers' GPU iterations ("rounds"): build the whole tree
# once with CUDA (-k: a broken area does not stop the others), then run each named area's
# bench/<area>/iter-gpu.sh in turn with a time cap, and pack every area's output into one file.
#
#   GMP_PREFIX=$PWD/.deps/gmp sh bench/gpu-round.sh SECONDS AREA[:SECS]...   (on the device machine)
#
# SECONDS is the default cap per area; AREA:SECS gives one area its own cap.
# Each iter-gpu.sh runs from the repository root with B (the built CUDA build dir) and R (its own
# empty results dir) in the environment; it may rebuild its own targets (cmake --build "$B"
# --target ...). Everything under $OUT/round/ comes back packed as $OUT/round.tgz.
set -u
SECS=$1
shift
B=build-gpu
O=${OUT:-/tmp/gpu-round}/round
mkdir -p "$O"
t0=$(date +%s)
pack() { [ -n "${OUT:-}" ] && tar czf "$OUT/round.tgz.part" -C "$(dirname "$O")" round && mv "$OUT/round.tgz.part" "$OUT/round.tgz"; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader >"$O/device.txt" 2>&1
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON ${GMP_PREFIX:+-DCMAKE_PREFIX_PATH=$GMP_PREFIX} \
    >"$O/build.log" 2>&1
cmake --build "$B" -j "$(nproc)" -- -k >>"$O/build.log" 2>&1
echo "build rc=$? ($(($(date +%s) - t0)) s)" >"$O/summary.txt"
for spec in "$@"; do
    a=${spec%%:*}
    cap=$SECS
    [ "$a" != "$spec" ] && cap=${spec#*:}
    mkdir -p "$O/$a"
    t1=$(date +%s)
    CAP=$cap B=$B R=$O/$a timeout "$cap" sh "bench/$a/iter-gpu.sh" >"$O/$a/stdout.txt" 2>&1
    echo "$a rc=$? ($(($(date +%s) - t1)) s)" >>"$O/summary.txt"
    pack # after every area: a call cut off by its wall-clock limit still brings back what is done
done
if [ -n "${EXTRA_TESTS:-}" ]; then # GPU tests of areas that did not take part (e.g. life)
    t1=$(date +%s)
    (cd "$B" && ctest -L gpu -R "$EXTRA_TESTS" --output-on-failure -V) >"$O/extra-gpu-tests.log" 2>&1
    echo "ctest -L gpu -R $EXTRA_TESTS rc=$? ($(($(date +%s) - t1)) s)" >>"$O/summary.txt"
fi
cat "$O/summary.txt"
pack
exit 0
