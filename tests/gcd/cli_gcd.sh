#!/bin/sh
# bulk gcd end to end: pairs and batch on text, PEM and DER input against gcd_oracle's
# GMP-computed expectations (duplicates, planted shared primes); spilled batch (any --max-memory),
# tiles and thread counts give the same output; bad input exits 2 naming FILE:LINE with no
# --out file left; a failed spill (file size limit as a full disk, missing directory) exits 1
# with a clear message, no output and no file left.
BULK=$1 S=$3
ORACLE=${BULK_GCD_ORACLE:?BULK_GCD_ORACLE not set}
rm -rf "$S" && mkdir -p "$S" || exit 1
fails=0 checks=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
seed=${BULK_TEST_SEED:-$(date +%s)}
echo "seed $seed (replay with BULK_TEST_SEED=$seed)"

# same NAME EXPECT CMD...: CMD's stdout must equal EXPECT, exit 0
same() {
    name=$1 expect=$2
    shift 2
    checks=$((checks + 1))
    "$@" >"$S/got" 2>"$S/err"
    rc=$?
    [ $rc -eq 0 ] || { fail "$name: exit $rc"; cat "$S/err" >&2; return; }
    cmp -s "$S/got" "$expect" || { fail "$name: output differs"; diff "$expect" "$S/got" | head -5 >&2; }
}

for bits in 1024 2048; do
    D=$S/set$bits && mkdir -p "$D"
    n=40; [ $bits = 2048 ] && n=24
    "$ORACLE" $seed $n $bits "$D" || { fail "oracle"; continue; }
    [ $(grep -c . "$D/pairs.expect") -ge 5 ] || fail "$bits: the oracle planted too few shares"
    grep -q duplicate "$D/pairs.expect" || fail "$bits: no duplicate planted"
    same "pairs $bits text" "$D/pairs.expect" "$BULK" gcd pairs "$D/set.txt"
    same "pairs $bits tile 3, 1 thread" "$D/pairs.expect" "$BULK" gcd pairs "$D/set.txt" --tile 3 --threads 1
    same "pairs $bits pem" "$D/pairs.expect" "$BULK" gcd pairs "$D/set.pem" --format pem
    same "batch $bits text" "$D/batch.expect" "$BULK" gcd batch "$D/set.txt"
    same "batch $bits pem, 2 threads" "$D/batch.expect" "$BULK" gcd batch --format pem "$D/set.pem" --threads 2
    same "batch $bits spilled" "$D/batch.expect" "$BULK" gcd batch "$D/set.txt" --max-memory 1k --tmp-dir "$D"
    grep -q "spilled to disk" "$S/err" || fail "batch $bits --max-memory 1k did not spill"
    ls "$D"/bulk-gcd-* >/dev/null 2>&1 && fail "spill files left behind"
    mkdir -p "$D/spill"
    same "batch $bits --max-memory 1 --tmp-dir" "$D/batch.expect" "$BULK" gcd batch "$D/set.txt" --max-memory 1 --tmp-dir "$D/spill"
    grep -q "levels spilled to disk" "$S/err" || fail "batch $bits --max-memory 1 did not spill"
    grep -q "below the estimated floor even with [0-9]* groups" "$S/err" || fail "batch $bits --max-memory 1: no note about the floor"
    grep -q "in [0-9]* groups" "$S/err" || fail "batch $bits --max-memory 1: not grouped"
    [ -z "$(ls -A "$D/spill")" ] || fail "batch $bits: files left in the spill directory"
    same "batch $bits --max-memory 25%" "$D/batch.expect" "$BULK" gcd batch "$D/set.txt" --max-memory 25%
    grep -q "spilled" "$S/err" && fail "batch $bits --max-memory 25% spilled a tiny set"
    same "batch $bits stdin" "$D/batch.expect" sh -c "\"$BULK\" gcd batch - <\"$D/set.txt\""
    checks=$((checks + 1))
    "$BULK" gcd batch "$D/set.txt" --out "$D/b.out" --hex 2>/dev/null || fail "batch --out"
    [ "$(wc -l <"$D/b.out")" = "$(wc -l <"$D/batch.expect")" ] || fail "batch --out --hex: line count"
done
# DER: one key per file; the same key twice is a duplicate
D=$S/set1024
printf '0 1 duplicate\n' >"$S/der.expect"
same "der" "$S/der.expect" "$BULK" gcd pairs --format der "$D/k0.der" "$D/k0.der"
checks=$((checks + 1))
"$BULK" gcd batch --format pem "$D/gen.pem" >"$S/got" 2>"$S/err" || fail "EVP_RSA_gen key"
grep -q "1 moduli (0 duplicates), 1024 bits" "$S/err" || fail "EVP_RSA_gen key not read as 1024 bits"

# bad input: exit 2, FILE:LINE named, nothing on stdout, no --out file
bad() {
    name=$1 content=$2 line=$3
    shift 3
    checks=$((checks + 1))
    printf '%b' "$content" >"$S/bad.in"
    rm -f "$S/bad.out"
    "$BULK" gcd "$@" "$S/bad.in" --out "$S/bad.out" >"$S/so" 2>"$S/se"
    rc=$?
    [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2"
    grep -q "bad.in:$line: line $line:" "$S/se" || { fail "$name: no bad.in:$line in the message"; cat "$S/se" >&2; }
    [ -e "$S/bad.out" ] && fail "$name: --out file left behind"
    ls "$S"/bad.out.tmp* >/dev/null 2>&1 && fail "$name: temporary file left behind"
    [ -s "$S/so" ] && fail "$name: stdout not empty"
}
bad "letter" '15\n21\n3x5\n' 3 pairs
bad "letter batch" '15\n21\n35\n0xfg\n' 4 batch
bad "empty line" '15\n\n21\n' 2 batch
bad "one" '15\n1\n' 2 pairs
bad "zero" '0\n15\n' 1 batch
bad "minus" '15\n-21\n' 2 pairs
bad "pem garbage" '# x\n-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----\n' 2 batch --format pem
bad "pem no END" '-----BEGIN PUBLIC KEY-----\nMAA=\n' 1 pairs --format pem
bad "pem nothing" 'hello\n' 1 pairs --format pem
bad "der garbage" 'hello' 1 pairs --format der
checks=$((checks + 1))
"$BULK" gcd frob x >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown mode: exit not 2"
"$BULK" gcd pairs "$S/set1024/set.txt" --max-memory 5 >/dev/null 2>&1; [ $? -eq 2 ] || fail "pairs --max-memory: exit not 2"
for m in 0 -5 12Q 0% 101% x%; do
    "$BULK" gcd batch "$S/set1024/set.txt" --max-memory "$m" >/dev/null 2>&1; [ $? -eq 2 ] || fail "--max-memory $m: exit not 2"
done

# spill failures: exit 1, a message naming the spill directory and the cause, nothing on
# stdout, no --out file, no file left. A file size limit of 0 makes the first spill write fail
# (EFBIG) exactly where a full disk would (ENOSPC); a missing directory fails at the first spill.
# limited CMD...: CMD under `ulimit -f 0` (SIGXFSZ ignored), its stdout and stderr through pipes
# (a limited process cannot write files) into $S/so and $S/se; returns CMD's exit code.
limited() {
    { { sh -c "trap '' XFSZ; ulimit -f 0 && exec \"\$0\" \"\$@\"" "$@" 2>&1 1>&3; echo $? >"$S/rc"; } |
        cat >"$S/se"; } 3>&1 | cat >"$S/so"
    return "$(cat "$S/rc")"
}
spill_fail() {
    name=$1 dir=$2 cause=$3 how=$4
    shift 4
    checks=$((checks + 1))
    rm -f "$S/f.out"
    if [ "$how" = limited ]; then limited "$@"; else "$@" >"$S/so" 2>"$S/se"; fi
    rc=$?
    [ $rc -eq 1 ] || fail "$name: exit $rc, expected 1"
    grep -q "spilling tree levels to $dir failed: $cause" "$S/se" || { fail "$name: message"; cat "$S/se" >&2; }
    [ -s "$S/so" ] && fail "$name: stdout not empty"
    [ -e "$S/f.out" ] && fail "$name: --out file left behind"
    ls "$S"/f.out.tmp* >/dev/null 2>&1 && fail "$name: temporary file left behind"
    [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] && fail "$name: files left in $dir"
}
mkdir -p "$S/small"
spill_fail "file size limit, --out" "$S/small" "File too large" limited "$BULK" gcd batch \
    "$S/set1024/set.txt" --max-memory 1 --tmp-dir "$S/small" --out "$S/f.out"
spill_fail "file size limit, stdout" "$S/small" "File too large" limited "$BULK" gcd batch \
    "$S/set1024/set.txt" --max-memory 1 --tmp-dir "$S/small"
spill_fail "missing spill directory" "$S/none" "No such file" plain "$BULK" gcd batch \
    "$S/set1024/set.txt" --max-memory 1 --tmp-dir "$S/none" --out "$S/f.out"
"$BULK" gcd --help | grep -q "0-based" || fail "--help"

echo "$((checks - fails)) passed, $fails failed"
[ $fails -eq 0 ]
