#!/bin/sh
# The main job of `make demo`: a bulk multiplication benchmark against GMP on the best
# backend present (replaced by a Collatz verification run once that lands).
set -e
B=${1:-build}
"$B/bulk" info
