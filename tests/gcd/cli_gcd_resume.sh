#!/bin/sh
# bulk gcd batch --checkpoint DIR: runs killed with kill -9 once a product level and once a
# remainder level is in DIR, then run again with the same moduli and DIR, print exactly what an
# uninterrupted run prints and say that they took levels from DIR; the files of a killed run's
# half-written level are cleaned up; a DIR of other moduli, the grouped method (a tiny
# --max-memory) and pairs with --checkpoint are refused with exit 2; a checkpoint that cannot be
# written stops the run with exit 1.
# usage: sh cli_gcd_resume.sh BULK DATA_DIR SCRATCH_DIR
BULK=$1 S=$3
rm -rf "$S" && mkdir -p "$S" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }
seed=${BULK_TEST_SEED:-$(date +%s)}
echo "seed $seed (replay with BULK_TEST_SEED=$seed)"
# N random 301-digit numbers (many share small factors)
gen() { awk -v n="$1" -v seed="$2" 'BEGIN { srand(seed); for (i = 0; i < n; i++) {
    s = int(1 + rand() * 9); for (j = 0; j < 300; j++) s = s int(rand() * 10); print s } }'; }
gen 3000 "$seed" > "$S/m.txt"
"$BULK" gcd batch "$S/m.txt" --threads 1 > "$S/ref.out" 2>/dev/null || no "reference run"
[ -s "$S/ref.out" ] || no "the reference run printed nothing"

# killed_at NAME PATTERN: a run killed once DIR holds a file named PATTERN (a shell glob)
killed_at() {
    name=$1 pat=$2
    rm -rf "$S/ck"
    "$BULK" gcd batch "$S/m.txt" --threads 1 --checkpoint "$S/ck" > /dev/null 2>&1 &
    pid=$!
    i=0
    while [ $i -lt 6000 ] && kill -0 $pid 2>/dev/null; do
        set -- "$S"/ck/$pat
        [ -e "$1" ] && break
        sleep 0.01
        i=$((i + 1))
    done
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    set -- "$S"/ck/$pat
    [ -e "$1" ] || { no "$name: no $pat appeared"; return; }
    [ -e "$S/ck/value-0" ] && no "$name: the run had finished before the kill"
    echo "$name: killed with $(ls "$S/ck" | tr '\n' ' ')"
    "$BULK" gcd batch "$S/m.txt" --threads 1 --checkpoint "$S/ck" > "$S/res.out" 2> "$S/res.err" ||
        { no "$name: rerun failed"; cat "$S/res.err"; }
    grep -q "levels from the checkpoint" "$S/res.err" || { no "$name: the rerun did not resume"; cat "$S/res.err"; }
    cmp -s "$S/res.out" "$S/ref.out" || no "$name: the resumed run differs from an uninterrupted one"
    [ "$(ls "$S/ck" | sort | tr '\n' ' ')" = "manifest value-0 " ] || no "$name: left $(ls "$S/ck" | tr '\n' ' ')"
}
killed_at "product tree" "product-2"
killed_at "remainder tree" "value-[1-9]*"

# the rerun of a finished run takes value-0 and prints the same
"$BULK" gcd batch "$S/m.txt" --checkpoint "$S/ck" --out "$S/again.out" 2> "$S/again.err" || no "finished rerun"
cmp -s "$S/again.out" "$S/ref.out" || no "the rerun of a finished run differs"
grep -q "1 levels from the checkpoint" "$S/again.err" || no "the finished rerun did not take value-0"

# refused: exit 2, a message, no output
refused() {
    name=$1 want=$2
    shift 2
    "$BULK" "$@" > "$S/ref2.out" 2> "$S/ref2.err"
    rc=$?
    [ $rc -eq 2 ] || no "$name: exit $rc, want 2"
    grep -q "$want" "$S/ref2.err" || { no "$name: message"; cat "$S/ref2.err"; }
    [ -s "$S/ref2.out" ] && no "$name: printed something on stdout"
}
gen 50 "$((seed + 1))" > "$S/other.txt"
refused "other moduli" "checkpoint of other moduli" gcd batch "$S/other.txt" --checkpoint "$S/ck"
refused "grouped method" "below its floor" gcd batch "$S/m.txt" --max-memory 1 --checkpoint "$S/ck2"
refused "pairs" "batch options" gcd pairs "$S/m.txt" --checkpoint "$S/ck"
[ -e "$S/ck/value-0" ] || no "a refused run removed value-0"
# a checkpoint that cannot be written (its parent directory is missing): exit 1, no output
"$BULK" gcd batch "$S/m.txt" --checkpoint "$S/nope/ck" > "$S/nope.out" 2> "$S/nope.err"
rc=$?
[ $rc -eq 1 ] || no "unwritable checkpoint: exit $rc, want 1"
grep -q "writing the checkpoint in .*nope/ck failed: " "$S/nope.err" || { no "unwritable checkpoint: message"; cat "$S/nope.err"; }
[ -s "$S/nope.out" ] && no "unwritable checkpoint: printed something on stdout"

[ $fail -eq 0 ] && echo "gcd resume: all passed"
exit $fail
