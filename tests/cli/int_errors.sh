#!/bin/sh
# bulk int: bad input and bad usage. Every case must exit 2, name the input (file or stdin)
# and the line in its message, and leave no output file behind: neither a new one, nor a
# temporary one, nor a changed old one.
. "$(dirname "$0")/int_lib.sh"

# bad NAME OP "INPUT" LINE [options...]: input written with printf '%b'
bad() {
    name=$1 op=$2 input=$3 line=$4
    shift 4
    printf '%b' "$input" >"$S/bad.in"
    rm -f "$S/bad.out"
    checks=$((checks + 1))
    "$BULK" int "$op" --in "$S/bad.in" --out "$S/bad.out" "$@" >"$S/so" 2>"$S/se"
    rc=$?
    [ $rc -eq 2 ] || fail "$name: exit code $rc, expected 2"
    grep -q "bad.in:$line: line $line:" "$S/se" || { fail "$name: the message does not name bad.in:$line"; cat "$S/se" >&2; }
    [ -e "$S/bad.out" ] && fail "$name: an output file was left behind"
    no_tmp "$name"
    [ -s "$S/so" ] && fail "$name: something went to stdout"
    # the same on stdin
    "$BULK" int "$op" "$@" <"$S/bad.in" >"$S/so" 2>"$S/se"
    rc=$?
    [ $rc -eq 2 ] || fail "$name (stdin): exit code $rc, expected 2"
    grep -q "stdin:$line:" "$S/se" || { fail "$name (stdin): the message does not name stdin:$line"; cat "$S/se" >&2; }
}

bad "non-digit" add '1 2\n3 4x\n5 6\n' 2
bad "non-digit names the operand" add '1 2\n3 4x\n' 2
grep -q "operand 2 '4x'" "$S/se" || fail "non-digit: operand 2 '4x' not named"
bad "bad hex digit" mul '0x1g 2\n' 1
bad "0x without digits" mul '0x 2\n' 1
bad "sign" sub '-1 2\n' 1
bad "plus sign" sub '+1 2\n' 1
bad "decimal point" mul '1.5 2\n' 1
bad "comma" mul '1,5 2\n' 1
bad "wider than --bits" add '1 2\n3 18446744073709551616\n' 2 --bits 64
grep -q "wider than 64 bits" "$S/se" || fail "wider: the message does not say 'wider than 64 bits'"
bad "hex wider than --bits" add '0x1ffffffffffffffffffffffffffffffff 1\n' 1 --bits 128
bad "missing operand" mul '1 2\n3\n' 2
grep -q "missing operand" "$S/se" || fail "missing operand: not said"
bad "missing powmod modulus" powmod '2 3 5\n2 3\n' 2
bad "extra operand" mul '1 2 3\n' 1
grep -q "extra operand" "$S/se" || fail "extra operand: not said"
bad "extra operand sqr" sqr '4\n4 4\n' 2
bad "empty line" add '1 2\n\n3 4\n' 2
bad "empty first line" add '\n1 2\n' 1
bad "empty only line" sqr '\n' 1
bad "blank line" add '1 2\n \t \n3 4\n' 2
bad "div by zero" div '7 1\n7 0\n' 2
grep -q "division by zero" "$S/se" || fail "div by zero: not said"
bad "mod by zero" mod '7 0x0\n' 1
bad "divmod by zero" divmod '1 1\n2 1\n3 000\n' 3
bad "even modulus" powmod '2 3 5\n2 3 10\n' 2
grep -q "even" "$S/se" || fail "even modulus: not said"
bad "zero modulus" powmod '2 3 0\n' 1
bad "control character" add '1 2\n1\001 3\n' 2

# the first bad line is reported, also past the first batch of 65536 lines
awk 'BEGIN { for (i = 1; i <= 70000; i++) print i, i + 1; print "1 x"; print "y 2" }' >"$S/long.in"
checks=$((checks + 1))
"$BULK" int add --in "$S/long.in" --out "$S/long.out" 2>"$S/se" >/dev/null
rc=$?
[ $rc -eq 2 ] || fail "bad line 70001: exit $rc"
grep -q "long.in:70001:" "$S/se" || { fail "bad line 70001 not named"; cat "$S/se" >&2; }
[ -e "$S/long.out" ] && fail "bad line 70001: output file left behind"

# isprime / nextprime: a negative number is a number (0 and 2), text is not
bad "isprime non-digit" isprime '7\n-12\nseven\n' 3
grep -q "operand 1 'seven' is not an integer" "$S/se" || fail "isprime: 'seven' not named"
bad "isprime lone minus" isprime '7\n-\n' 2
bad "nextprime minus twice" nextprime '--5\n' 1
bad "isprime two operands" isprime '7 9\n' 1
bad "nextprime empty line" nextprime '7\n\n' 2
bad "isprime wider than --bits" isprime '18446744073709551616\n' 1 --bits 64

# an existing output file stays as it was
printf 'keep me\n' >"$S/keep.out"
printf '1 2\n3 z\n' >"$S/k.in"
checks=$((checks + 1))
"$BULK" int add --in "$S/k.in" --out "$S/keep.out" 2>/dev/null
[ $? -eq 2 ] || fail "keep: exit code"
printf 'keep me\n' >"$S/keep.expect"
same "a failed run leaves an existing output file alone" "$S/keep.expect" "$S/keep.out"

# usage errors: exit 2
usage() {
    name=$1
    shift
    checks=$((checks + 1))
    printf '1 2\n' | "$BULK" int "$@" >"$S/so" 2>"$S/se"
    rc=$?
    [ $rc -eq 2 ] || fail "$name: exit code $rc, expected 2"
    [ -s "$S/se" ] || fail "$name: no message"
}
usage "--bits 100" add --bits 100
usage "--bits 32" add --bits 32
usage "--bits 0" add --bits 0
usage "--bits -64" add --bits -64
usage "--bits abc" add --bits abc
usage "--bits without value" add --bits
usage "unknown option" add --frobnicate
usage "unknown op" pow
usage "no op"
usage "two ops" add mul
usage "--threads abc" add --threads abc
usage "--backend gpu" add --backend gpu
usage "--in missing file" add --in "$S/does-not-exist"
usage "--rounds for add" add --rounds 2
usage "--rounds 1025" isprime --rounds 1025
usage "--rounds -1" isprime --rounds -1
usage "bench unknown op" bench frob --count 4
usage "bench --bits 100" bench mul --bits 100 --count 4
usage "bench unknown option" bench mul --count 4 --frob

finish
