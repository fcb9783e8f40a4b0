#!/bin/sh
# `bulk int bench` is no longer in the CLI (the benchmark against GMP is the bench program
# bench/int/bench_int_ops, so that the CLI does not link GMP): it fails like a usage error,
# exit 2, with one line that names the program; `bulk int --help` no longer offers it.
. "$(dirname "$0")/int_lib.sh"

for args in "bench" "bench mul --bits 256 --count 17" "bench --help"; do
    checks=$((checks + 1))
    # shellcheck disable=SC2086
    "$BULK" int $args >"$S/out" 2>"$S/err"
    rc=$?
    [ $rc -eq 2 ] || fail "int $args: exit $rc, expected 2"
    [ "$(wc -l <"$S/err")" -eq 1 ] || fail "int $args: not one line on stderr: $(cat "$S/err")"
    grep -q '^bulk: .*bench/int/bench_int_ops' "$S/err" || fail "int $args: the message does not name bench/int/bench_int_ops: $(cat "$S/err")"
    [ -s "$S/out" ] && fail "int $args: printed on stdout"
done
run_ok "int --help" int --help
grep -q 'bench' "$S/out" && fail "int --help still mentions bench"

finish
