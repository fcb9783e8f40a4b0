#!/bin/sh
# bench_int_ops (bench/int): a smoke run of every op with a tiny count (a benchmark is never
# timed in a test: this checks that it runs, verifies against GMP and prints what it promises),
# --json output with the expected keys, --out, usage errors, --help.
# Usage: bench_int_ops.sh BENCH_INT_OPS SCRATCH
set -- "$1" "" "$2"
. "$(dirname "$0")/../cli/int_lib.sh"

for op in add sub mul sqr div mod divmod gcd powmod cmp; do
    run_ok "bench $op" "$op" --bits 256 --count 17 --time 0 --seed 3
    grep -q 'ratio bulk/GMP' "$S/out" || fail "bench $op: no ratio line"
    grep -q 'verified' "$S/out" || fail "bench $op: not verified"
    run_ok "bench $op --json" "$op" --bits 128 --count 9 --time 0 --threads 2 --json
    j=$(cat "$S/out")
    case $j in
    \{*\}) ;;
    *) fail "bench $op --json: not one JSON object: $j" ;;
    esac
    [ "$(wc -l <"$S/out")" -eq 1 ] || fail "bench $op --json: more than one line"
    for key in op bits count seed backend threads bulk_ops_per_s gmp_ops_per_s gmp_function \
               gmp_threads ratio verified; do
        echo "$j" | grep -q "\"$key\":" || fail "bench $op --json: no key $key"
    done
    echo "$j" | grep -q "\"op\":\"$op\"" || fail "bench $op --json: wrong op"
    echo "$j" | grep -q '"threads":2,' || fail "bench $op --json: threads not 2"
done
# a wrong result is caught: exit 1 and no speed printed (BULK_BENCH_FAULT=1 flips one bit)
for op in add mul div divmod gcd powmod cmp; do
    checks=$((checks + 1))
    BULK_BENCH_FAULT=1 "$BULK" "$op" --bits 128 --count 5 --time 0 >"$S/out" 2>"$S/err"
    rc=$?
    [ $rc -eq 1 ] || fail "bench $op with a wrong result: exit $rc, expected 1"
    grep -q 'instance 4 .*differs' "$S/err" || fail "bench $op with a wrong result: not reported"
    grep -q 'ops/s' "$S/out" && fail "bench $op with a wrong result: a speed was printed"
done
run_ok "bench 64-bit, one thread" mul --bits 64 --count 1 --time 0 --threads 1
run_ok "bench --help" --help
grep -q 'usage: bench_int_ops' "$S/out" || fail "bench --help: no usage line"

run_ok "bench --out" mul --bits 128 --count 9 --time 0 --json --out "$S/res.json"
cmp -s "$S/out" "$S/res.json" || fail "bench --out: the file differs from what was printed"
for args in "" "nosuch" "mul --bits 100" "mul --count 0" "mul --frob" "mul --backend gpu" "mul add"; do
    checks=$((checks + 1))
    # shellcheck disable=SC2086
    "$BULK" $args >"$S/out" 2>"$S/err"
    rc=$?
    [ $rc -eq 2 ] || fail "bench_int_ops $args: exit $rc, expected 2"
    grep -q '^bench_int_ops: ' "$S/err" || fail "bench_int_ops $args: no message: $(cat "$S/err")"
done

finish
