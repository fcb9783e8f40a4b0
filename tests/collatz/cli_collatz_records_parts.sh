#!/bin/sh
# CLI tests of `bulk collatz records --part I/N --json` and `bulk collatz merge` of records: for
# every kind the parts merged (given in any order) equal one run and, from 1, the OEIS lists
# (tests/data/collatz); windows near 2^40, 2^64 and 2^127 (peaks beyond 2^128), and around a
# path record above 2^60 with --above; a part far from 1 runs on pre-drop peaks (its list is that of its window with
# --above 0); a part killed with SIGKILL and resumed from its --checkpoint prints what an
# uninterrupted part prints; bad merges (kinds, ranges, --above, splits, parts missing, given
# twice or overlapping, verify results among records) exit 2 with a message.
# Usage: sh cli_collatz_records_parts.sh BULK DATA_DIR SCRATCH
set -u
. "$(dirname "$0")/cz_cli_setup.sh"
# (smaller under the sanitizers, where each of the ~40 runs builds its tables far slower)
if [ "${BULK_SANITIZED:-0}" != 0 ]; then TOP=20; KILL=24; W=18; NS=3; else TOP=25; KILL=30; W=23; NS="3 5"; fi

# parts NAME N ARGS...: records ARGS --part i/N --json into NAME.i.json for i = 1..N, merged
# (parts given last to first) into NAME.merged; one run into NAME.whole
parts() {
    name=$1 n=$2
    shift 2
    "$BULK" collatz records "$@" >"$T/$name.whole" || fail "$name: one run: exit $?"
    files=
    i=1
    while [ $i -le "$n" ]; do
        "$BULK" collatz records "$@" --part $i/"$n" --json >"$T/$name.$i.json" || fail "$name: part $i/$n: exit $?"
        files="$T/$name.$i.json $files"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    "$BULK" collatz merge $files >"$T/$name.merged" || fail "$name: merge: exit $?"
    cmp -s "$T/$name.whole" "$T/$name.merged" || fail "$name: $n parts merged differ from one run"
}

# ---- from 1: parts merged equal one run and the OEIS lists ------------------------------------
for kind in delay glide path; do
    for n in $NS; do
        parts "one-$kind-$n" $n --kind $kind --from 1 --to "2^$TOP"
    done
    grep -v '^#' "$DATA/${kind}_records.txt" | awk -v b="$TOP" '$1 < 2 ^ b { print $1, $2 }' >"$T/want-$kind.txt"
    cmp -s "$T/want-$kind.txt" "$T/one-$kind-$n.merged" || fail "$kind records below 2^$TOP from $n parts differ from $DATA"
done
# merge --json: one result of the whole range (part 1/1), which merge takes again
"$BULK" collatz merge --json "$T"/one-path-3.*.json >"$T/m.json" || fail "merge --json: exit $?"
grep -q '"part":"1/1","first":"1",' "$T/m.json" || fail "merge --json: $(head -c 200 "$T/m.json")"
"$BULK" collatz merge "$T/m.json" >"$T/m.txt" && cmp -s "$T/m.txt" "$T/one-path-3.whole" || fail "merge of a merged result"
# records --json without --part is part 1/1 of its range
"$BULK" collatz records --kind glide --from 1 --to 2^16 --json >"$T/g.json" || fail "records --json"
grep -q '^{"command":"collatz records","kind":"glide","from":"1","to":"2^16","part":"1/1",' "$T/g.json" || fail "records --json: $(head -c 200 "$T/g.json")"
grep -q '"records":\[\["2",1\],\["3",6\],\["7",11\],' "$T/g.json" || fail "records --json: glides are numbers: $(head -c 300 "$T/g.json")"

# ---- windows ------------------------------------------------------------------------------------
for kind in delay glide; do
    parts "w40-$kind" 4 --kind $kind --from "2^40+12345" --to "2^40+2^$W+77"
done
# path records near 2^40: whole-trajectory peaks below 2A (the whole window)
parts w40-path 3 --kind path --from "2^40" --to "2^40+2^$((W - 4))"
# path records near 2^64 (whole-trajectory peaks) and at 2^127 (peaks beyond 2^128)
parts w64-path 3 --kind path --from "2^64" --to "2^64+2^$((W - 6))"
parts w127-path 2 --kind path --from "2^127+1" --to "2^127+9"
# around the path record R above 2^60 with --above the previous record's peak (a bound on every
# peak below the window, as --above requires): the pre-drop engine with the convergence-mode
# sieve; the parts merged print exactly R
R0=1038743969413717663
R=1980976057694848447
P0=$("$BULK" collatz delay $R0 | awk '{print $4}')
parts r61-path 4 --kind path --from "$R-2^$W" --to "$R+2^$W" --above "$P0"
[ "$(cat "$T/r61-path.merged")" = "$R 64024667322193133530165877294264738020" ] || fail "parts around $R: $(cat "$T/r61-path.merged")"
[ "$(head -1 "$T/w127-path.merged")" = "170141183460469231731687303715884105729 $("$BULK" collatz delay 2^127+1 | awk '{print $4}')" ] ||
    fail "records at 2^127+1: $(head -1 "$T/w127-path.merged")"
# a part of [1, 2^40) just below 2^40 decides by pre-drop peaks (from 2 on) with the
# convergence-mode sieve (valid from 1) and starts at threshold 0: the same engine run as its
# window with --above 0 (the same sieve, threshold and pieces), so the same list; the window's
# own run (whole-trajectory peaks below twice its start) lists other values
"$BULK" collatz records --kind path --from 1 --to 2^40 --part 65536/65536 --json >"$T/far.json" || fail "far part: exit $?"
F=$(sed 's/.*"first":"\([0-9]*\)".*/\1/' "$T/far.json")
"$BULK" collatz merge "$T/far.json" >/dev/null 2>&1 && fail "merge of one part of 65536 accepted"
"$BULK" collatz records --kind path --from 1 --to 2^40 --part 65536/65536 >"$T/far.txt"
"$BULK" collatz records --kind path --from "$F" --to 2^40 --above 0 >"$T/far-above.txt"
[ -s "$T/far.txt" ] && cmp -s "$T/far.txt" "$T/far-above.txt" || fail "far part: not the pre-drop list of its window"
"$BULK" collatz records --kind path --from "$F" --to "$F+2^12" >"$T/far-own.txt"
awk -v e="$F" '$1 < e + 4096' "$T/far.txt" | cmp -s - "$T/far-own.txt" && fail "far part: the window's whole-trajectory list"

# ---- a part killed and resumed from its checkpoint --------------------------------------------
CK="$T/part.ck"
set -- --kind delay --from 1 --to "2^$KILL" --part 2/3 --threads 2
"$BULK" collatz records "$@" --json >"$T/kfull.json" || fail "kill: uninterrupted part"
"$BULK" collatz records "$@" --json --checkpoint "$CK" --checkpoint-every 0 >"$T/kout.json" 2>/dev/null &
pid=$!
sleep 1
if kill -9 $pid 2>/dev/null; then
    wait $pid 2>/dev/null
    grep -q '^next ' "$CK" || fail "kill: no checkpoint after the kill"
    echo "killed after 1 s at $(grep '^next ' "$CK")"
else
    wait $pid
    echo "note: the part finished within 1 s; resuming from its final checkpoint"
fi
"$BULK" collatz records "$@" --json --checkpoint "$CK" >"$T/kout.json" || fail "kill: resumed part: exit $?"
sed 's/"seconds":[0-9.]*//' "$T/kfull.json" >"$T/a"
sed 's/"seconds":[0-9.]*//' "$T/kout.json" >"$T/b"
cmp -s "$T/a" "$T/b" || fail "kill: the resumed part differs from the uninterrupted one"
# the checkpoint of part 2/3 is another run for part 1/3 and for the whole range
expect_exit_msg 2 "another run" -- "$BULK" collatz records --kind delay --from 1 --to "2^$KILL" --part 1/3 --checkpoint "$CK"
expect_exit_msg 2 "another run" -- "$BULK" collatz records --kind delay --from 1 --to "2^$KILL" --checkpoint "$CK"

# ---- bad merges: exit 2 with a message -----------------------------------------------------------
P=$T/one-path-3
D=$T/one-delay-3
expect_exit_msg 2 "kind" -- "$BULK" collatz merge "$P.1.json" "$D.2.json" "$P.3.json"
expect_exit_msg 2 "missing" -- "$BULK" collatz merge "$P.1.json" "$P.3.json"
expect_exit_msg 2 "twice" -- "$BULK" collatz merge "$P.1.json" "$P.2.json" "$P.2.json" "$P.3.json"
"$BULK" collatz records --kind path --from 1 --to "2^$TOP" --part 2/4 --json >"$T/four.json"
expect_exit_msg 2 "split into" -- "$BULK" collatz merge "$P.1.json" "$T/four.json" "$P.3.json"
"$BULK" collatz records --kind path --from 1 --to "2^$TOP+1" --part 2/3 --json >"$T/other.json"
expect_exit_msg 2 "differs" -- "$BULK" collatz merge "$P.1.json" "$T/other.json" "$P.3.json"
"$BULK" collatz records --kind path --from 1 --to "2^$TOP" --part 2/3 --json --above 0 >"$T/above.json"
expect_exit_msg 2 "above" -- "$BULK" collatz merge "$P.1.json" "$T/above.json" "$P.3.json"
# a part whose bounds are not its slice (overlapping its neighbour)
sed 's/"first":"\([0-9]*\)"/"first":"1\1"/' "$P.2.json" >"$T/bounds.json"
expect_exit_msg 2 "is not part 2/3" -- "$BULK" collatz merge "$P.1.json" "$T/bounds.json" "$P.3.json"
sed 's/"records":\[\["/"records":[["x/' "$P.2.json" >"$T/entry.json"
expect_exit_msg 2 "bad records" -- "$BULK" collatz merge "$P.1.json" "$T/entry.json" "$P.3.json"
"$BULK" collatz verify --from 1 --to 2^20 --part 2/3 --json >"$T/v2.json"
expect_exit_msg 2 "different commands" -- "$BULK" collatz merge "$P.1.json" "$T/v2.json" "$P.3.json"
expect_exit_msg 2 "records result among verify" -- "$BULK" collatz merge "$T/v2.json" "$P.1.json"
expect_exit_msg 2 "--part" -- "$BULK" collatz records --kind delay --from 1 --to 10 --part 2/20
expect_exit_msg 0 "" -- "$BULK" collatz records --help
grep -q -- '--part I/N' "$T/out.txt" || fail "records --help does not name --part"

[ $fails = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "records parts and merge: all checks passed"
