#!/bin/sh
# The main job of `make demo`: a Collatz convergence verification run on the best backend present
# (`--backend auto`: the GPU when one is there, else every CPU core). It verifies that every n of
# a range starting at 2^68 drops below itself, and prints the numbers covered, the numbers
# iterated individually, the overflows resolved exactly and the checksum (the sum of glides,
# identical on every backend, thread count, table size and sieve size). The range is larger on a
# GPU so that both runs last a few seconds.
set -e
B=${1:-build}
"$B/bulk" info
echo
if "$B/bulk" info --json | grep -q '"cuda_devices":[1-9]'; then
    range="2^68 .. 2^68+2^46"
    set -- --from 2^68 --to 2^68+2^46
else
    range="2^68 .. 2^68+2^34"
    set -- --from 2^68 --to 2^68+2^34
fi
echo "Collatz: verify every n in [$range) on the best backend present"
"$B/bulk" collatz verify "$@" --backend auto
