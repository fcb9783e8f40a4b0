#!/bin/sh
# CLI test of the CUDA hooks of `bulk collatz`: with a CUDA device, `--backend cuda` must print
# exactly what `--backend cpu` prints for verify (near 2^64, near 2^68, a range around 2^90 with
# numbers whose trajectories pass 2^128), delays (raw u32 and --stats) and records (delay, and
# glide, which runs on the GPU verify once its first slice on the CPU has a maximum). Without a device it prints a SKIP line and passes.
# Convergence mode (--converge, d given: the GPU's default d differs) is compared the same way.
# Usage: sh cli_collatz_gpu.sh BULK DATA_DIR SCRATCH_DIR
set -u
. "$(dirname "$0")/cz_cli_setup.sh"
devs=$("$BULK" info --json | tr ',' '\n' | sed -n 's/.*"cuda_devices":\([0-9]*\).*/\1/p')
if [ -z "$devs" ]; then
    echo "FAIL: bulk info --json gives no cuda_devices" >&2
    exit 1
fi
if [ "$devs" -eq 0 ]; then
    echo "SKIP: no CUDA device (bulk info: cuda_devices 0); --backend cuda vs cpu not compared"
    exit 0
fi
# the verify JSON without the timing fields
vfields() {
    tr ',' '\n' <"$1" | grep -E '"(first|last|d|k|mode|covered|iterated|overflows|overflow_values|max_glide|max_glide_n|checksum)"'
}
# same NAME ARGS...: runs `bulk collatz ARGS --backend B` for cpu and cuda into NAME.B
same() {
    name=$1
    shift
    for b in cpu cuda; do
        "$BULK" collatz "$@" --backend $b >"$T/$name.$b" 2>"$T/$name.$b.err" || fail "$name --backend $b exited $?: $(cat "$T/$name.$b.err")"
    done
}
# (the 2^90 range last: the overflow check below reads its output)
for range in "2^64 2^64+2^28 --k 20" "2^64+12345 2^64+2^26+777 --k 16 --d 12" \
             "2^64+99 2^64+2^28+5 --k 20 --d 12 --converge" \
             "2^68+5 2^68+2^30 --k 26 --k-stored 18 --d 14 --converge" \
             "2^68+5 2^68+2^26 --k 18" "2^90-2^16 2^90+2^16 --k 10"; do
    set -- $range
    from=$1 to=$2
    shift 2
    same v verify --from "$from" --to "$to" "$@" --json
    vfields "$T/v.cpu" >"$T/v.cpu.f"
    vfields "$T/v.cuda" >"$T/v.cuda.f"
    [ -s "$T/v.cpu.f" ] && cmp -s "$T/v.cpu.f" "$T/v.cuda.f" || fail "verify $range: cuda differs from cpu"
    # pre-drop peaks (computed by default on both): equal in full-glide mode (in convergence
    # mode over the numbers not proved by smaller ones, a set that depends on the blocks)
    case "$*" in *--converge*) ;; *)
        for b in cpu cuda; do tr ',' '\n' <"$T/v.$b" | grep -E '"peak(_n)?"' >"$T/v.$b.p"; done
        grep -q '"peak":"[0-9]' "$T/v.cpu.p" && cmp -s "$T/v.cpu.p" "$T/v.cuda.p" || fail "verify $range: cuda peak differs from cpu" ;;
    esac
done
grep -q '"overflows":0' "$T/v.cpu" && fail "no overflow in the 2^90 range (the test lost its point)"
# verify with a checkpoint on the GPU resumes like on the CPU (a finished checkpoint is reused)
# (--k given: the defaults differ, K = log2(range) - 4 on a GPU and - 6 on the CPU)
"$BULK" collatz verify --from 2^64 --to 2^64+2^24 --k 18 --json --backend cuda --checkpoint "$T/ck" >"$T/c1" || fail "verify cuda --checkpoint"
"$BULK" collatz verify --from 2^64 --to 2^64+2^24 --k 18 --json --backend cpu >"$T/c0" || fail "verify cpu"
vfields "$T/c0" >"$T/c0.f"
vfields "$T/c1" >"$T/c1.f"
cmp -s "$T/c0.f" "$T/c1.f" || fail "verify cuda with a checkpoint differs from cpu"

for b in cpu cuda; do
    "$BULK" collatz delays --from 2^64 --to 2^64+2^24 --format u32 --out "$T/d64.$b.bin" --backend $b 2>/dev/null ||
        fail "delays u32 --backend $b exited $?"
done
cmp -s "$T/d64.cpu.bin" "$T/d64.cuda.bin" || fail "delays u32 near 2^64: cuda differs from cpu"
same d90 delays --from 2^90-3000 --to 2^90+3000
cmp -s "$T/d90.cpu" "$T/d90.cuda" || fail "delays near 2^90 (past 2^128): cuda differs from cpu"
same st delays --from 2^64+1 --to 2^64+2^25+1 --stats 4096
cmp -s "$T/st.cpu" "$T/st.cuda" || fail "delays --stats near 2^64: cuda differs from cpu"
same st1 delays --from 1 --to 2^24+1 --stats 1024
cmp -s "$T/st1.cpu" "$T/st1.cuda" || fail "delays --stats from 1: cuda differs from cpu"

same rd records --kind delay --from 1 --to 2^24
cmp -s "$T/rd.cpu" "$T/rd.cuda" || fail "delay records from 1: cuda differs from cpu"
same rd64 records --kind delay --from 2^64 --to 2^64+2^22
cmp -s "$T/rd64.cpu" "$T/rd64.cuda" || fail "delay records near 2^64: cuda differs from cpu"
same rg records --kind glide --from 1 --to 2^20
cmp -s "$T/rg.cpu" "$T/rg.cuda" || fail "glide records (CPU path under a cuda context) differ"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "collatz GPU CLI: --backend cuda equals --backend cpu on $devs device(s)"
