#!/bin/sh
# CLI tests of `bulk circuit` and `bulk cky`: usage, results on small known cases, the adder
# against awk's integer addition, and bad input (exit 2, file:line in the message, no output
# file left behind). Called as: sh test_bpbc_cli.sh BULK TESTDATA SCRATCH
set -u
BULK=$1
DATA=$2
S=$3
rm -rf "$S" && mkdir -p "$S"
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
# expect CODE PATTERN -- command...: exit code CODE and stderr containing PATTERN
expect() {
    code=$1 pat=$2
    shift 2
    "$@" >"$S/out" 2>"$S/err"
    rc=$?
    [ "$rc" = "$code" ] || fail "'$*' exited $rc, expected $code: $(cat "$S/err")"
    [ -z "$pat" ] || grep -q -- "$pat" "$S/err" || fail "'$*': stderr lacks '$pat': $(cat "$S/err")"
}

expect 0 "" "$BULK" circuit --help
grep -q "bulk circuit eval" "$S/out" || fail "circuit --help text"
expect 0 "" "$BULK" cky --help
grep -q "grammar" "$S/out" || fail "cky --help text"
expect 2 "" "$BULK" circuit
expect 2 "unknown subcommand" "$BULK" circuit frobnicate
expect 2 "needs --bits" "$BULK" circuit adder

# ---- the adder for K = 4 on all 256 inputs against awk -------------------------------------
"$BULK" circuit adder --bits 4 --out "$S/add4.aag" || fail "adder --out"
head -1 "$S/add4.aag" | grep -q "^aag 32 8 0 5 24$" || fail "adder header: $(head -1 "$S/add4.aag")"
awk 'BEGIN { for (a = 0; a < 16; a++) for (b = 0; b < 16; b++) {
        s = ""; for (i = 0; i < 4; i++) s = s int(a / 2^i) % 2; for (i = 0; i < 4; i++) s = s int(b / 2^i) % 2
        print s } }' >"$S/in.txt"
awk 'BEGIN { for (a = 0; a < 16; a++) for (b = 0; b < 16; b++) {
        c = a + b; s = ""; for (i = 0; i < 5; i++) s = s int(c / 2^i) % 2; print s } }' >"$S/want.txt"
"$BULK" circuit eval --circuit "$S/add4.aag" --in "$S/in.txt" --out "$S/got.txt" || fail "eval adder"
cmp -s "$S/got.txt" "$S/want.txt" || fail "adder outputs differ from integer addition"
"$BULK" circuit eval --circuit "$S/add4.aag" --in "$S/in.txt" --threads 1 --backend cpu >"$S/got1.txt" || fail "eval stdout"
cmp -s "$S/got1.txt" "$S/want.txt" || fail "adder outputs (stdout, 1 thread)"
# binary AIGER of the same adder gives the same results
"$BULK" circuit adder --bits 4 --binary >"$S/add4.aig" || fail "adder --binary"
head -c 3 "$S/add4.aig" | grep -q aig || fail "aig header"
"$BULK" circuit eval --circuit "$S/add4.aig" --in "$S/in.txt" >"$S/got2.txt" || fail "eval aig"
cmp -s "$S/got2.txt" "$S/want.txt" || fail "aig adder outputs"

# ---- the Table 5.1 timing is a benchmark program (bench/bpbc), not a subcommand ---------------
expect 2 "unknown subcommand 'bench'" "$BULK" circuit bench

# ---- packed binary vectors: an AND gate and an inverter ------------------------------------
printf 'aag 3 2 0 2 1\n2\n4\n6\n3\n6 2 4\n' >"$S/and.aag"
printf '\000\001\002\003' >"$S/in.bin"
"$BULK" circuit eval --circuit "$S/and.aag" --in "$S/in.bin" --binary --out "$S/out.bin" || fail "eval --binary"
printf '\002\000\002\001' >"$S/want.bin"  # o0 = in0 AND in1, o1 = NOT in0
cmp -s "$S/out.bin" "$S/want.bin" || fail "binary outputs: $(od -An -tu1 "$S/out.bin")"
printf '00\n01\n10\n11\n' >"$S/and_in.txt"
"$BULK" circuit eval --circuit "$S/and.aag" --in "$S/and_in.txt" >"$S/and_out.txt"
printf '01\n01\n00\n10\n' | cmp -s - "$S/and_out.txt" || fail "AND/NOT text outputs: $(cat "$S/and_out.txt")"

# ---- bad circuit input ----------------------------------------------------------------------
printf '00\n011\n' >"$S/bad_len.txt"
expect 2 "bad_len.txt:2" "$BULK" circuit eval --circuit "$S/and.aag" --in "$S/bad_len.txt" --out "$S/never.txt"
[ ! -e "$S/never.txt" ] || fail "an output file was left after bad input"
printf '00\n0x\n' >"$S/bad_chr.txt"
expect 2 "bad_chr.txt:2" "$BULK" circuit eval --circuit "$S/and.aag" --in "$S/bad_chr.txt"
printf 'aag 3 2 0 1 1\n2\n4\n6\n6 2 8\n' >"$S/bad.aag"
expect 2 "bad.aag:5" "$BULK" circuit eval --circuit "$S/bad.aag" --in "$S/and_in.txt"
printf 'aag 3 2 0 1 1\n2\n4\n' >"$S/trunc.aag"
expect 2 "trunc.aag:4" "$BULK" circuit eval --circuit "$S/trunc.aag" --in "$S/and_in.txt"
printf 'hello\n' >"$S/notaig.aag"
expect 2 "notaig.aag:1" "$BULK" circuit eval --circuit "$S/notaig.aag" --in "$S/and_in.txt"
printf 'aag 1 0 1 1 0\n2 3\n2\n' >"$S/latch.aag"
expect 2 "latch" "$BULK" circuit eval --circuit "$S/latch.aag" --in "$S/and_in.txt"
printf '\000\001\002' >"$S/odd.bin"
printf 'aag 16 9 0 1 0\n2\n4\n6\n8\n10\n12\n14\n16\n18\n2\n' >"$S/nine.aag"
expect 2 "multiple of 2 bytes" "$BULK" circuit eval --circuit "$S/nine.aag" --in "$S/odd.bin" --binary
expect 2 "" "$BULK" circuit eval --circuit "$S/missing.aag" --in "$S/and_in.txt"

# ---- cky ------------------------------------------------------------------------------------
printf '()\n(()())\n)(\n\n(()\n(a)\n()()\n' >"$S/dyck.txt"
"$BULK" cky --grammar "$DATA/cky/dyck.cfg" --in "$S/dyck.txt" --out "$S/dyck.out" || fail "cky dyck"
printf '1\n1\n0\n0\n0\n0\n1\n' | cmp -s - "$S/dyck.out" || fail "dyck answers: $(tr '\n' ' ' <"$S/dyck.out")"
printf 'x+x*(x)\nx+\n(x*x)+x\n' >"$S/arith.txt"
"$BULK" cky --grammar "$DATA/cky/arith.cfg" --in "$S/arith.txt" >"$S/arith.out" || fail "cky arith"
printf '1\n0\n1\n' | cmp -s - "$S/arith.out" || fail "arith answers: $(tr '\n' ' ' <"$S/arith.out")"
printf "S -> 'if' C 'then' S | 'go'  # tokens\nC -> 'x' | 'not' C\n" >"$S/tok.cfg"
printf 'if not x then go\n  go  \nif x then\nif y then go\n' >"$S/tok.txt"
"$BULK" cky --grammar "$S/tok.cfg" --in "$S/tok.txt" --tokens >"$S/tok.out" || fail "cky --tokens"
printf '1\n1\n0\n0\n' | cmp -s - "$S/tok.out" || fail "token answers: $(tr '\n' ' ' <"$S/tok.out")"
printf "S -> 'a' S 'b' |\n" >"$S/eps.cfg"
printf '\nab\naabb\naab\n' >"$S/eps.txt"
"$BULK" cky --grammar "$S/eps.cfg" --in "$S/eps.txt" >"$S/eps.out" || fail "cky epsilon"
printf '1\n1\n1\n0\n' | cmp -s - "$S/eps.out" || fail "epsilon answers: $(tr '\n' ' ' <"$S/eps.out")"
printf "S -> A 'b'\n" >"$S/undef.cfg"
expect 2 "undef.cfg:1" "$BULK" cky --grammar "$S/undef.cfg" --in "$S/eps.txt" --out "$S/never2.txt"
[ ! -e "$S/never2.txt" ] || fail "cky left an output file after a grammar error"
printf "S -> 'a'\nS 'b'\n" >"$S/noarrow.cfg"
expect 2 "noarrow.cfg:2" "$BULK" cky --grammar "$S/noarrow.cfg" --in "$S/eps.txt"
printf "# nothing\n" >"$S/empty.cfg"
expect 2 "empty grammar" "$BULK" cky --grammar "$S/empty.cfg" --in "$S/eps.txt"
expect 2 "" "$BULK" cky --grammar "$S/missing.cfg" --in "$S/eps.txt"
expect 2 "" "$BULK" cky --grammar "$DATA/cky/dyck.cfg"

# ---- cky --max-length: a string of N terminals is parsed, N + 1 is refused with file:line ----
expect 0 "" "$BULK" cky --grammar "$DATA/cky/dyck.cfg" --in "$S/dyck.txt" --max-length 6
printf '1\n1\n0\n0\n0\n0\n1\n' | cmp -s - "$S/out" || fail "--max-length 6 answers: $(tr '\n' ' ' <"$S/out")"
expect 2 "dyck.txt:2: the string has 6 terminals, more than --max-length 5" \
    "$BULK" cky --grammar "$DATA/cky/dyck.cfg" --in "$S/dyck.txt" --max-length 5 --out "$S/never3.txt"
[ ! -e "$S/never3.txt" ] || fail "cky left an output file after a too long string"
expect 2 "tok.txt:1: the string has 5 tokens, more than --max-length 4" \
    "$BULK" cky --grammar "$S/tok.cfg" --in "$S/tok.txt" --tokens --max-length 4
expect 2 "max-length" "$BULK" cky --grammar "$DATA/cky/dyck.cfg" --in "$S/dyck.txt" --max-length 0
"$BULK" cky --help | grep -q -- "--max-length N" || fail "cky --help lacks --max-length"
# the default, 2048: symbols the grammar lacks make the 2048-byte line 0 without a table; one
# more byte is refused before any parsing
awk 'BEGIN { s = ""; for (i = 0; i < 2048; i++) s = s "z"; print s; print s "z" }' >"$S/long.txt"
head -1 "$S/long.txt" >"$S/long2048.txt"
expect 0 "" "$BULK" cky --grammar "$DATA/cky/dyck.cfg" --in "$S/long2048.txt"
printf '0\n' | cmp -s - "$S/out" || fail "2048-byte line: $(cat "$S/out")"
expect 2 "long.txt:2: the string has 2049 terminals, more than --max-length 2048" \
    "$BULK" cky --grammar "$DATA/cky/dyck.cfg" --in "$S/long.txt"

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "all CLI checks passed"
