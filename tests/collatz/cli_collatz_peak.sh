#!/bin/sh
# CLI tests of `bulk collatz records --kind path` on the pre-drop engine: the path records from 1
# (OEIS A006884/A006885, tests/data/collatz) on 1 and 2 threads, windows around record holders
# above 2^60 with --above printing exactly the record, a peak beyond 2^128, a checkpointed run
# equal to a plain one, and bad input (exit 2). Usage: sh cli_collatz_peak.sh BULK DATA_DIR SCRATCH
set -u
. "$(dirname "$0")/cz_cli_setup.sh"
if [ "${BULK_SANITIZED:-0}" != 0 ]; then TOP=24; else TOP=32; fi
# every path record up to 2^TOP
grep -v '^#' "$DATA/path_records.txt" | awk -v e="$TOP" '$1 <= 2 ^ e' >"$T/want.txt"
for t in 1 2; do
    "$BULK" collatz records --kind path --from 1 --to "2^$TOP+1" --threads $t >"$T/got.txt" ||
        fail "records 1..2^$TOP, $t threads: exit $?"
    cmp -s "$T/want.txt" "$T/got.txt" || fail "path records 1..2^$TOP on $t threads differ from A006884/A006885"
done
# windows around record holders above 2^60: with the previous record's peak, exactly the record
R0=1038743969413717663
R=1980976057694848447
P0=$("$BULK" collatz delay $R0 | awk '{print $4}')
P=$("$BULK" collatz delay $R | awk '{print $4}')
[ "$P" = 64024667322193133530165877294264738020 ] || fail "peak of $R: $P"
"$BULK" collatz records --kind path --from "$R-2^20" --to "$R+2^20" --above "$P0" >"$T/got.txt" ||
    fail "window around $R: exit $?"
[ "$(cat "$T/got.txt")" = "$R $P" ] || fail "window around $R: $(cat "$T/got.txt")"
"$BULK" collatz records --kind path --from "$R0-5000" --to "$R0+5000" --above "$P0-1" >"$T/got.txt"
[ "$(cat "$T/got.txt")" = "$R0 $P0" ] || fail "window around $R0: $(cat "$T/got.txt")"
"$BULK" collatz records --kind path --from "$R-1000" --to "$R+1000" --above "$P" >"$T/got.txt"
[ -s "$T/got.txt" ] && fail "window around $R above its own peak: $(cat "$T/got.txt")"
# a peak beyond 2^128 (3n + 1 of n = 2^127 + 1), as `delay` computes it
N=170141183460469231731687303715884105729
PW=$("$BULK" collatz delay $N | awk '{print $4}')
"$BULK" collatz records --kind path --from "2^127+1" --to "2^127+2" >"$T/got.txt" || fail "records at 2^127+1: exit $?"
[ "$(cat "$T/got.txt")" = "$N $PW" ] || fail "records at 2^127+1: $(cat "$T/got.txt") (want $N $PW)"
# a checkpointed run (in pieces) equals the plain one; the finished checkpoint gives it again
"$BULK" collatz records --kind path --from "2^40" --to "2^40+2^24" --above 0 >"$T/plain.txt"
for pass in 1 2; do
    "$BULK" collatz records --kind path --from "2^40" --to "2^40+2^24" --above 0 --checkpoint "$T/ck" \
        --checkpoint-every 0 >"$T/ck.txt" || fail "checkpointed run, pass $pass: exit $?"
    cmp -s "$T/plain.txt" "$T/ck.txt" || fail "checkpointed run, pass $pass, differs"
done
# verify: the pre-drop peak of 1..2^TOP is the last record's, and --peak-above 0 lists them all
# (both modes, 2 threads); --part + merge equal to one run; bad --peak-above
if [ "${BULK_SANITIZED:-0}" != 0 ]; then VT=20; else VT=26; fi
grep -v '^#' "$DATA/path_records.txt" | awk -v e="$VT" '$1 <= 2 ^ e' >"$T/vwant.txt"
for mode in "" --converge; do
    "$BULK" collatz verify --from 1 --to "2^$VT+1" --peak-above 0 --threads 2 $mode --json >"$T/v.json" ||
        fail "verify $mode: exit $?"
    tr '[' '\n' <"$T/v.json" | sed -n 's/^"\([0-9]*\)","\([0-9]*\)"].*/\1 \2/p' >"$T/vgot.txt"
    cmp -s "$T/vwant.txt" "$T/vgot.txt" || fail "verify $mode --peak-above 0: hits differ from the path records"
    last=$(tail -1 "$T/vwant.txt")
    grep -q "\"peak\":\"${last#* }\",\"peak_n\":\"${last% *}\"" "$T/v.json" || fail "verify $mode: peak is not the last record's ($last)"
done
"$BULK" collatz verify --from "2^64" --to "2^64+2^22" --json >"$T/whole.json"
for i in 1 2 3; do "$BULK" collatz verify --from "2^64" --to "2^64+2^22" --part $i/3 --json >"$T/p$i.json"; done
"$BULK" collatz merge --json "$T/p1.json" "$T/p2.json" "$T/p3.json" >"$T/merged.json" || fail "merge: exit $?"
pk() { tr ',' '\n' <"$1" | grep -E '"(peak|peak_n)"'; }
[ -n "$(pk "$T/whole.json")" ] && [ "$(pk "$T/whole.json")" = "$(pk "$T/merged.json")" ] || fail "verify --part + merge: peaks differ"
grep -q '"peak":null' "$T/whole.json" && fail "verify: no peak"
"$BULK" collatz verify --from "2^64" --to "2^64+2^20" --no-peaks --json | grep -q '"peak":null' || fail "--no-peaks: a peak"
# a checkpoint of format 1 (before peaks): refused with peaks (exit 2, a message), resumed by
# --no-peaks; a --no-peaks checkpoint likewise refused by a run with peaks
printf 'bulk-collatz-checkpoint 1\nidentity collatz verify from=1 to=2^20 part=1/1 d=10 k=8\nnext 1\ncovered 0\niterated 0\nchecksum 0\noverflows 0\nmax_glide 0 0\nend\n' >"$T/v1.ck"
expect_exit 2 "$BULK" collatz verify --from 1 --to 2^20 --d 10 --k 8 --checkpoint "$T/v1.ck"
grep -q "without pre-drop peaks" "$T/err.txt" || fail "format-1 checkpoint: message: $(cat "$T/err.txt")"
expect_exit 0 "$BULK" collatz verify --from 1 --to 2^20 --d 10 --k 8 --checkpoint "$T/v1.ck" --no-peaks
head -n 1 "$T/v1.ck" | grep -q "checkpoint 2" || fail "format-1 checkpoint: not rewritten as format 2"
expect_exit 2 "$BULK" collatz verify --from 1 --to 2^20 --d 10 --k 8 --checkpoint "$T/v1.ck"
expect_exit 2 "$BULK" collatz verify --from 1 --to 100 --peak-above x
expect_exit 2 "$BULK" collatz verify --from 1 --to 100 --peak-above 2^256
expect_exit 2 "$BULK" collatz verify --from 1 --to 100 --peak-above 5 --no-peaks
# bad input
expect_exit 2 "$BULK" collatz records --kind path --from 1 --to 100 --above abc
expect_exit 2 "$BULK" collatz records --kind path --from 1 --to 100 --above 2^256
expect_exit 2 "$BULK" collatz records --kind path --from 1 --to 100 --above 5-7
expect_exit 2 "$BULK" collatz records --kind delay --from 1 --to 100 --above 5
expect_exit 2 "$BULK" collatz records --kind path --from 2^128 --to 2^128+5
expect_exit 2 "$BULK" collatz records --kind path --from 1 --to 2^128+1
expect_exit 2 "$BULK" collatz records --kind path --from 1 --to 100 --k 31
[ "$fails" = 0 ] || { echo "$fails failures" >&2; exit 1; }
echo "cli_collatz_peak: ok"
