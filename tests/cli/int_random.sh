#!/bin/sh
# bulk int: every op on random and structured operands at many widths, checked line by line
# against the GMP oracle (int_oracle, which shares no code with libbulk or the CLI). Inputs mix
# decimal and 0x/0X hex, runs of blanks and CRLF. Also: --bits W against the automatic width,
# --hex, one thread against all, inputs longer than one batch, and widths that differ wildly
# within one batch. The seed is printed; BULK_TEST_SEED=S replays a run.
. "$(dirname "$0")/int_lib.sh"
[ -x "$ORACLE" ] || { echo "BULK_INT_ORACLE does not name the oracle program" >&2; exit 1; }

SEED=${BULK_TEST_SEED:-$(date +%s)}
echo "seed $SEED (replay with BULK_TEST_SEED=$SEED)"
SCALE=1
[ "${BULK_SANITIZED:-0}" = 1 ] && SCALE=4

# check NAME OP BITS COUNT SEED [bulk options...]: generated input, oracle vs bulk
check() {
    name=$1 op=$2 bits=$3 count=$(($4 / SCALE + 1)) seed=$5
    shift 5
    "$ORACLE" gen "$op" "$bits" "$count" "$seed" >"$S/r.in" || { fail "$name: oracle gen"; return; }
    hex=
    for a in "$@"; do [ "$a" = --hex ] && hex=--hex; done
    "$ORACLE" eval "$op" $hex <"$S/r.in" >"$S/r.expect" || { fail "$name: oracle eval"; return; }
    checks=$((checks + 1))
    if ! "$BULK" int "$op" --in "$S/r.in" --out "$S/r.out" "$@" 2>"$S/r.err"; then
        fail "$name: bulk int $op $* exited $? (seed $seed)"
        head -n 3 "$S/r.err" >&2
        return
    fi
    if ! cmp -s "$S/r.expect" "$S/r.out"; then
        fail "$name: bulk int $op $* differs from GMP (bits $bits, gen seed $seed)"
        diff "$S/r.expect" "$S/r.out" | head -n 6 >&2
    fi
}

s=$SEED
for op in add sub mul sqr div mod divmod gcd powmod cmp; do
    for bits in 64 128 192 256 512 1024 2048 4096; do
        count=200
        [ $bits -ge 1024 ] && count=60
        [ "$op" = powmod ] && [ $bits -ge 1024 ] && count=12
        [ "$op" = powmod ] && [ $bits -ge 4096 ] && continue
        s=$((s + 1))
        check "$op $bits auto width" "$op" $bits $count $s
        check "$op $bits --bits $bits" "$op" $bits $count $s --bits $bits
        check "$op $bits --hex --threads 1" "$op" $bits $count $s --hex --threads 1
    done
    # wider than the operands need
    s=$((s + 1))
    check "$op 192 in --bits 512" "$op" 192 100 $s --bits 512
done

# more threads than cores, forced CPU backend: the same answers
s=$((s + 1))
check "divmod 1024 --threads 3 --backend cpu" divmod 1024 300 $s --threads 3 --backend cpu
check "powmod 256 --threads 3 --backend cpu" powmod 256 100 $s --threads 3 --backend cpu

# very wide operands, a few instances
for op in add sub mul sqr divmod gcd cmp; do
    s=$((s + 1))
    check "$op 65536" "$op" 65536 4 $s
done
s=$((s + 1))
check "powmod 8192" powmod 8192 2 $s

# more lines than one batch (65536): batch boundaries and line order
s=$((s + 1))
check "add over several batches" add 64 $((140000 * SCALE)) $s
check "cmp over several batches, 1 thread" cmp 64 $((70000 * SCALE)) $s --threads 1

# one wide line among narrow ones in the same batch (the width is per batch)
{
    "$ORACLE" gen mul 64 500 $((s + 1))
    "$ORACLE" gen mul 4096 1 $((s + 2))
    "$ORACLE" gen mul 128 500 $((s + 3))
} >"$S/mix.in"
"$ORACLE" eval mul <"$S/mix.in" >"$S/mix.expect"
run_ok "mixed widths" int mul --in "$S/mix.in"
same "mixed widths in one batch" "$S/mix.expect" "$S/out"

# stdin and stdout give the same as files
"$ORACLE" gen divmod 256 300 $((s + 4)) >"$S/p.in"
"$ORACLE" eval divmod <"$S/p.in" >"$S/p.expect"
checks=$((checks + 1))
"$BULK" int divmod <"$S/p.in" >"$S/p.out" 2>"$S/p.err" || fail "divmod on stdin exited $?"
same "divmod stdin -> stdout" "$S/p.expect" "$S/p.out"

finish
