#!/bin/sh
# bulk int: every op on small known values (worked out by hand or with an independent big-integer
# tool when this file was written), hex input and output, --in/--out, automatic and fixed width.
. "$(dirname "$0")/int_lib.sh"

INPUT='1 2
18446744073709551615 1
0xffffffffffffffffffffffffffffffff 1
0 0'
EXPECT='3
18446744073709551616
340282366920938463463374607431768211456
0'
expect_text "add: carries out of 64 and 128 bits are printed" add
expect_text "add --bits 128: carry out of W" add --bits 128

INPUT='255 1
1 0xFF'
EXPECT='0x100
0x100'
expect_text "add --hex" add --hex

INPUT='3 8
8 3
5 5
0 18446744073709551616
340282366920938463463374607431768211456 1'
EXPECT='-5
5
0
-18446744073709551616
340282366920938463463374607431768211455'
expect_text "sub: exact signed difference" sub

INPUT='1 2
0x10 0x1'
EXPECT='-0x1
0xf'
expect_text "sub --hex" sub --hex

INPUT='18446744073709551615 18446744073709551615
0 12345
1606938044258990275541962092341162602522202993782792835313721 1267650600228229401496703205383'
EXPECT='340282366920938463426481119284349108225
0
2037035976334486086268445688420626727361281325594729985298177734231854212681293057100960143'
expect_text "mul: full products" mul

INPUT='12345678901234567890
0
0xffffffffffffffff'
EXPECT='152415787532388367501905199875019052100
0
340282366920938463426481119284349108225'
expect_text "sqr" sqr

INPUT='100 7
7 100
1606938044258990275541962092341162602522202993782792835313721 1267650600228229401496703205383'
EXPECT='14
0
1267650600228229401496703205369'
expect_text "div" div
EXPECT='2
7
12394'
expect_text "mod" mod
EXPECT='14 2
0 7
1267650600228229401496703205369 12394'
expect_text "divmod prints q r" divmod
EXPECT='0xe 0x2
0x0 0x7
0xffffffffffffffffffffffff9 0x306a'
expect_text "divmod --hex" divmod --hex

INPUT='12 18
0 0
0 5
276701161105643274240 150323855360
7 7'
EXPECT='6
0
5
21474836480
7'
expect_text "gcd" gcd

INPUT='4 13 497
2 10 1
0 0 7
3 18446744073709551621 170141183460469231731687303715884105727
1000 1 7'
EXPECT='445
0
1
50640037454620006180326215849247135864
6'
expect_text "powmod" powmod

INPUT='1 2
2 2
0x10 15
18446744073709551616 18446744073709551615
0 0'
EXPECT='-1
0
1
1
0'
expect_text "cmp" cmp

# the same instances with the width fixed wider than needed give the same output
INPUT='100 7
7 100'
EXPECT='14 2
0 7'
expect_text "divmod --bits 256" divmod --bits 256
expect_text "divmod --bits=1024" divmod --bits=1024

# --in / --out, and '-' for stdin
printf '6 7\n0x10 0x10\n' >"$S/mul.in"
run_ok "--in/--out" int mul --in "$S/mul.in" --out "$S/mul.out"
printf '42\n256\n' >"$S/mul.expect"
same "--in/--out: file contents" "$S/mul.expect" "$S/mul.out"
checks=$((checks + 1))
[ -s "$S/out" ] && fail "--out: nothing may go to stdout"
no_tmp "--out"
run_ok "--in -" int mul --in - <"$S/mul.in"
same "--in -: stdout" "$S/mul.expect" "$S/out"
# --out over an existing file replaces it
printf 'old\n' >"$S/mul.out"
run_ok "--out replaces" int mul --in "$S/mul.in" --out "$S/mul.out" --threads 1 --backend cpu
same "--out replaces the old file" "$S/mul.expect" "$S/mul.out"

# --backend cuda: the same answers on a GPU; without one, a usage error (exit 2)
checks=$((checks + 1))
"$BULK" int mul --backend cuda --in "$S/mul.in" >"$S/out" 2>"$S/err"
rc=$?
if "$BULK" info | grep -q '^CUDA devices: 0'; then
    [ $rc -eq 2 ] || fail "--backend cuda without a device: exit $rc, expected 2"
else
    [ $rc -eq 0 ] || fail "--backend cuda: exit $rc"
    same "--backend cuda" "$S/mul.expect" "$S/out"
fi

# empty input: no lines out
: >"$S/empty.in"
run_ok "empty input" int add --in "$S/empty.in"
checks=$((checks + 1))
[ -s "$S/out" ] && fail "empty input printed something"

# no final newline; CRLF line ends; blanks around operands
printf ' 1\t 2 \r\n3 4' >"$S/ws.in"
run_ok "white space" int add --in "$S/ws.in"
printf '3\n7\n' >"$S/ws.expect"
same "white space, CRLF, no final newline" "$S/ws.expect" "$S/out"

# automatic width: a 65-bit operand needs 128 bits, chosen without --bits
printf '36893488147419103232 1\n1 1\n' >"$S/wide.in"
run_ok "auto width" int add --in "$S/wide.in"
printf '36893488147419103233\n2\n' >"$S/wide.expect"
same "auto width holds a 66-bit operand" "$S/wide.expect" "$S/out"

# help texts
run_ok "int --help" int --help
grep -q 'usage: bulk int' "$S/out" || fail "int --help: no usage line"
for op in add sub mul sqr div mod divmod gcd powmod cmp; do
    grep -q "  $op " "$S/out" || fail "int --help does not describe $op"
done
run_ok "bulk --help lists int" --help
grep -q '^  int ' "$S/out" || fail "bulk --help does not list int"

finish
