#!/bin/sh
# Checks the CUDA Life kernel and its host code without a GPU: compiles the real
# src/life/cuda/life_cuda.cu as C++ against emu_cuda.h (a warp = 32 threads that meet at a
# barrier at every shuffle; cudaMalloc = malloc, ...) and compares it with the CPU backend on 160
# random grids (tori and dead boundaries, widths 1..2100, 5 rules, 1..32 generations per pass).
# Not a CTest test: it needs g++ and takes minutes (a thread per lane).
#   sh tests/life/cuda_emu/run.sh BUILD_DIR [SEED]     (BUILD_DIR: any build with libbulk.a)
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../../.." && pwd)
B=$(cd "${1:?usage: run.sh BUILD_DIR [SEED]}" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
sed -e 's|#include <cuda_runtime.h>|#include "emu_cuda.h"|' \
    -e 's|fn<<<(unsigned)blocks, 128>>>(\*a, \*b, g);|emu_launch(fn, (unsigned)blocks, 128, *a, *b, g);|' \
    "$SRC/src/life/cuda/life_cuda.cu" > "$W/emu_life_cuda.cpp"
grep -q emu_launch "$W/emu_life_cuda.cpp" || { echo "the kernel launch line has changed: update run.sh"; exit 1; }
DEFS="-Dlife_cuda_step=emu_life_cuda_step -Dlife_cuda_step_timed=emu_life_cuda_step_timed -Dlife_cuda_info=emu_life_cuda_info"
g++ -std=c++17 -O1 -I"$HERE" -I"$SRC/include" -I"$SRC/src" $DEFS -Wno-unknown-pragmas -c "$W/emu_life_cuda.cpp" -o "$W/k.o"
g++ -std=c++17 -O1 -I"$HERE" -I"$SRC/include" -I"$SRC/src" "$HERE/driver.cpp" "$W/k.o" "$B/libbulk.a" -lpthread -o "$W/driver"
"$W/driver" ${2:-42}
