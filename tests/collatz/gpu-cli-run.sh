#!/bin/sh
# On a machine with an NVIDIA GPU, from the repository root: builds bulk with CUDA and runs the
# CLI test that compares `bulk collatz verify|delays|records --backend cuda` with
# `--backend cpu` (tests/collatz/cli_collatz_gpu.sh, label gpu; a few minutes). The log goes to
# tests/gpu/collatz-cli.log (and to "$OUT/" when OUT is set).
set -eu
B=${BUILD:-build-gpu-collatz-cli}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON >/dev/null
cmake --build "$B" -j"$(nproc)" --target bulk
mkdir -p tests/gpu
log=tests/gpu/collatz-cli.log
{
    echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
    "$B/bulk" info
    (cd "$B" && ctest -R '^cli_collatz_gpu$' -V)
} >"$log" 2>&1 && st=0 || st=$?
tail -5 "$log"
[ -n "${OUT:-}" ] && cp "$log" "$OUT/" || true
exit $st
