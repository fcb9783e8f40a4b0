#!/bin/sh
# CLI tests of `bulk collatz`: records reproduced from 1 (tests/data/collatz), delay of known
# numbers, delays output formats and --stats/--png, verify --json, --part + merge equal to one
# run, kill -9 + rerun resuming to the uninterrupted result (verify, delays --stats, delays --out,
# records), and bad input (exit 2, no partial
# output files). Usage: sh cli_collatz.sh BULK DATA_DIR SCRATCH_DIR
set -u
. "$(dirname "$0")/cz_cli_setup.sh"
# the JSON fields that must agree between runs (everything but timing and "iterated")
fields() {
    tr ',' '\n' <"$1" | grep -E '"(covered|overflows|overflow_values|max_glide|max_glide_n|checksum)"'
}
if [ "${BULK_SANITIZED:-0}" != 0 ]; then
    RB=20; PB=18; KILLR=28; SMALL=1
else
    RB=25; PB=23; KILLR=31; SMALL=0
fi

# ---- records from 1 equal the OEIS data ----------------------------------------------------
for kind in delay glide path; do
    bound=$RB
    [ $kind = path ] && bound=$PB
    "$BULK" collatz records --kind $kind --from 1 --to "2^$bound" >"$T/rec_$kind.txt" ||
        fail "records --kind $kind exited $?"
    awk -v b="$bound" '!/^#/ && $1 < 2^b { print $1, $2 }' "$DATA/${kind}_records.txt" >"$T/want_$kind.txt"
    cmp -s "$T/rec_$kind.txt" "$T/want_$kind.txt" || fail "$kind records below 2^$bound differ from $DATA"
done
# the same records on one thread
"$BULK" collatz records --kind path --from 1 --to "2^20" --threads 1 >"$T/rec1.txt"
"$BULK" collatz records --kind path --from 1 --to "2^20" --threads 3 >"$T/rec3.txt"
cmp -s "$T/rec1.txt" "$T/rec3.txt" || fail "path records differ between 1 and 3 threads"
# glide and delay records (their fast engines) on unaligned windows, 1 and 3 threads
for kind in glide delay; do
    "$BULK" collatz records --kind $kind --from "2^40+12345" --to "2^40+2^25+77" --threads 1 >"$T/rec1.txt"
    "$BULK" collatz records --kind $kind --from "2^40+12345" --to "2^40+2^25+77" --threads 3 >"$T/rec3.txt"
    cmp -s "$T/rec1.txt" "$T/rec3.txt" || fail "$kind records differ between 1 and 3 threads"
    [ "$(head -1 "$T/rec1.txt" | cut -d' ' -f1)" = 1099511640121 ] || fail "$kind records: first $(head -1 "$T/rec1.txt")"
done
# a range not starting at 1: the first number is always a record of its range
"$BULK" collatz records --kind delay --from 1000 --to 1010 >"$T/r.txt"
[ "$(head -1 "$T/r.txt")" = "1000 111" ] || fail "records from 1000: $(head -1 "$T/r.txt")"

# ---- delay N ---------------------------------------------------------------------------------
[ "$("$BULK" collatz delay 27)" = "27 111 96 9232" ] || fail "delay 27"
[ "$("$BULK" collatz delay 0x1b 1)" = "27 111 96 9232
1 0 0 1" ] || fail "delay 0x1b 1"
# the peak of 12327829503 passes 2^64 (the smallest such n)
"$BULK" collatz delay 12327829503 | awk '{ if ($4 != "20722398914405051728") exit 1 }' ||
    fail "peak of 12327829503"
# a 200-digit number (exact path only) runs and gives 4 fields
n200=$(printf '9%.0s' $(seq 1 200))
[ "$("$BULK" collatz delay "$n200" | wc -w)" = 4 ] || fail "delay of a 200-digit number"

# ---- delays: formats, stats, png ------------------------------------------------------------
"$BULK" collatz delays --from 1 --to 4097 >"$T/d.txt" || fail "delays text"
[ "$(sed -n 27p "$T/d.txt")" = "27 111" ] || fail "delays line 27: $(sed -n 27p "$T/d.txt")"
"$BULK" collatz delays --from 1 --to 4097 --format u32 --out "$T/d32.bin" 2>/dev/null || fail "delays u32"
"$BULK" collatz delays --from 1 --to 4097 --format u16 --out "$T/d16.bin" 2>/dev/null || fail "delays u16"
[ "$(wc -c <"$T/d32.bin")" = 16384 ] || fail "u32 file size"
[ "$(wc -c <"$T/d16.bin")" = 8192 ] || fail "u16 file size"
od -An -v -tu4 -w4 "$T/d32.bin" | awk '{ print NR, $1 }' | cmp -s - "$T/d.txt" || fail "u32 values differ from text"
od -An -v -tu2 -w2 "$T/d16.bin" | awk '{ print NR, $1 }' | cmp -s - "$T/d.txt" || fail "u16 values differ from text"
"$BULK" collatz delays --from 1 --to 4097 --stats 64 --png "$T/s.png" --out "$T/s.txt" 2>/dev/null || fail "delays --stats"
awk '{ b = int(($1 - 1) / 64); s[b] += $2; if (!(b in mn) || $2 < mn[b]) mn[b] = $2; if ($2 > mx[b]) mx[b] = $2 }
     END { for (i = 0; i < 64; i++) printf "%d %.6f %d %d\n", i * 64 + 1, s[i] / 64, mn[i], mx[i] }' "$T/d.txt" |
    cmp -s - "$T/s.txt" || fail "stats differ from the delays"
[ "$(head -c 4 "$T/s.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] || fail "--png is not a PNG"
# near 2^64, with a delay path through the A table and the exact path above 2^128
"$BULK" collatz delays --from "2^64" --to "2^64+3" >"$T/d64.txt" || fail "delays near 2^64"
"$BULK" collatz delay 18446744073709551616 | awk '{ print $1, $2 }' | cmp -s - "$(printf '%s' "$T/d64.txt")" 2>/dev/null ||
    [ "$(head -1 "$T/d64.txt")" = "$("$BULK" collatz delay 18446744073709551616 | awk '{ print $1, $2 }')" ] ||
    fail "delays 2^64 vs delay 2^64"
[ "$("$BULK" collatz delays --from "2^90-1" --to "2^90")" = "$("$BULK" collatz delay "2^90-1" | awk '{ print $1, $2 }')" ] ||
    fail "delay of 2^90-1 (passes 2^128)"

# ---- verify ----------------------------------------------------------------------------------
"$BULK" collatz verify --from 1 --to "2^20" --json >"$T/v1.json" || fail "verify from 1"
grep -q '"covered":"1048575"' "$T/v1.json" || fail "verify covered: $(cat "$T/v1.json")"
# sum of glides over [1, 2^20) from the naive definition, by awk (exact below 2^53)
want=$(awk 'BEGIN { s = 0; for (n = 2; n < 2^20; n++) { x = n; g = 0; while (x >= n) { x = (x % 2) ? 3 * x + 1 : x / 2; g++ } s += g } printf "%d", s }')
grep -q "\"checksum\":\"$want\"" "$T/v1.json" || fail "verify checksum, want $want: $(cat "$T/v1.json")"
"$BULK" collatz verify --from 2^64 --to "2^64+2^24" --k 12 --d 8 --threads 1 --json >"$T/a.json" || fail "verify a"
"$BULK" collatz verify --from 2^64 --to "2^64+2^24" --k 18 --d 14 --threads 2 --json >"$T/b.json" || fail "verify b"
fields "$T/a.json" >"$T/a.f"
fields "$T/b.json" >"$T/b.f"
cmp -s "$T/a.f" "$T/b.f" || fail "verify results differ between d/k/threads"
# a sieve of --k bits with only --k-stored of them in memory (the rest generated on the fly):
# the totals and, on whole blocks of 2^K, the iterated count of the stored sieve of --k bits
# (ragged ends run their blocks of levels k..K-1 through the stored k bits: other counts there)
"$BULK" collatz verify --from 2^64+5 --to "2^64+2^23" --k 20 --k-stored 20 --d 10 --threads 1 --json >"$T/r20.json" || fail "verify --k-stored 20 (ragged)"
"$BULK" collatz verify --from 2^64+5 --to "2^64+2^23" --k 20 --k-stored 11 --d 10 --threads 2 --json >"$T/rx20.json" || fail "verify --k-stored 11 (ragged)"
fields "$T/r20.json" >"$T/r20.f"
fields "$T/rx20.json" >"$T/rx20.f"
cmp -s "$T/r20.f" "$T/rx20.f" || fail "--k-stored 11 totals differ from a stored sieve of 20 bits on a ragged range"
"$BULK" collatz verify --from 2^64 --to "2^64+2^23" --k 20 --k-stored 20 --d 10 --threads 1 --json >"$T/s20.json" || fail "verify --k-stored 20"
"$BULK" collatz verify --from 2^64 --to "2^64+2^23" --k 20 --k-stored 11 --d 10 --threads 2 --json >"$T/x20.json" || fail "verify --k-stored 11"
tr ',' '\n' <"$T/s20.json" | grep -E '"(iterated|k)"' >>"$T/s20.f"
tr ',' '\n' <"$T/x20.json" | grep -E '"(iterated|k)"' >>"$T/x20.f"
fields "$T/s20.json" >>"$T/s20.f"
fields "$T/x20.json" >>"$T/x20.f"
cmp -s "$T/s20.f" "$T/x20.f" || fail "--k-stored 11 differs from a stored sieve of 20 bits"
# the most generated levels (16) on a 4-bit stored sieve: the same again
"$BULK" collatz verify --from 2^64 --to "2^64+2^23" --k 20 --k-stored 4 --d 10 --threads 2 --json >"$T/y20.json" || fail "verify --k-stored 4"
tr ',' '\n' <"$T/y20.json" | grep -E '"(iterated|k)"' >"$T/y20.f"
fields "$T/y20.json" >>"$T/y20.f"
cmp -s "$T/s20.f" "$T/y20.f" || fail "--k 20 --k-stored 4 differs from a stored sieve of 20 bits"
# K = 40 (the largest generated sieve) on a small range: the same totals as k = 10
"$BULK" collatz verify --from 2^64+5 --to "2^64+2^16" --k 40 --k-stored 24 --d 10 --json >"$T/k40.json" || fail "verify --k 40"
"$BULK" collatz verify --from 2^64+5 --to "2^64+2^16" --k 10 --d 10 --json >"$T/k10.json" || fail "verify --k 10"
grep -q '"k":40' "$T/k40.json" || fail "--k 40 not reported: $(cat "$T/k40.json")"
fields "$T/k40.json" >"$T/k40.f"
fields "$T/k10.json" >"$T/k10.f"
cmp -s "$T/k40.f" "$T/k10.f" || fail "--k 40 totals differ from --k 10"
cmp -s "$T/a.f" "$(fields "$T/s20.json" >"$T/s20.g"; echo "$T/s20.g")" && fail "different ranges gave equal totals"
expect_exit 2 "$BULK" collatz verify --from 2^64 --to "2^64+2^23" --k 20 --k-stored 21
expect_exit 2 "$BULK" collatz verify --from 2^64 --to "2^64+2^23" --k 30 --k-stored 10
expect_exit 2 "$BULK" collatz verify --from 2^64 --to "2^64+2^23" --k 40 --k-stored 40
"$BULK" collatz verify --from 2^64 --to "2^64+2^24" >"$T/v.txt" || fail "verify text"
grep -q "^checksum *$(tr ',' '\n' <"$T/a.json" | sed -n 's/"checksum":"\(.*\)"/\1/p')\$" "$T/v.txt" || fail "text checksum"

# ---- --part + merge equal one run (including overflows past 2^128) ------------------------------
for range in "2^64+17 2^64+2^22+5" "2^90-2000 2^90+2000"; do
    set -- $range
    "$BULK" collatz verify --from "$1" --to "$2" --k 10 --json >"$T/one.json" || fail "one run $range"
    for i in 1 2 3; do
        "$BULK" collatz verify --from "$1" --to "$2" --k 10 --part $i/3 --json >"$T/p$i.json" || fail "part $i"
    done
    "$BULK" collatz merge --json "$T/p3.json" "$T/p1.json" "$T/p2.json" >"$T/m.json" || fail "merge"
    fields "$T/one.json" >"$T/one.f"
    fields "$T/m.json" >"$T/m.f"
    cmp -s "$T/one.f" "$T/m.f" || fail "merge of 3 parts differs from one run on $range"
done
grep -q '"overflows":0' "$T/one.json" && fail "no overflow reported around 2^90 (2^90-1 passes 2^128)"
tr ',' '\n' <"$T/one.json" | grep -q '"1237940039285380274899124223"' || fail "2^90-1 not among the overflow values"
expect_exit 2 "$BULK" collatz merge "$T/p1.json" "$T/p2.json"
expect_exit 2 "$BULK" collatz merge "$T/p1.json" "$T/p1.json" "$T/p2.json" "$T/p3.json"

# ---- --converge: fewer numbers iterated, same covered; parts at multiples of 2^K merge exactly;
# a full-glide part does not merge with convergence-mode parts; no sieve (k = 0) is refused ----
"$BULK" collatz verify --from 2^64 --to 2^64+2^22 --k 16 --json >"$T/g.json" || fail "glides run"
"$BULK" collatz verify --from 2^64 --to 2^64+2^22 --k 16 --converge --json >"$T/c.json" || fail "converge run"
grep -q '"mode":"converge"' "$T/c.json" || fail "converge result without its mode"
grep -q '"mode":"glides"' "$T/g.json" || fail "full-glide result without its mode"
covg=$(tr ',' '\n' <"$T/g.json" | grep '"covered"')
covc=$(tr ',' '\n' <"$T/c.json" | grep '"covered"')
[ "$covg" = "$covc" ] || fail "converge covered $covc, full glides $covg"
itg=$(tr ',' '\n' <"$T/g.json" | sed -n 's/"iterated":"\([0-9]*\)"/\1/p')
itc=$(tr ',' '\n' <"$T/c.json" | sed -n 's/"iterated":"\([0-9]*\)"/\1/p')
[ -n "$itc" ] && [ -n "$itg" ] && [ $((itc * 2)) -lt "$itg" ] || fail "converge iterated $itc not below half of $itg"
# 2^22 numbers in 4 parts of 2^20 = 16 blocks of 2^16 each: the same numbers skipped as one run
for i in 1 2 3 4; do
    "$BULK" collatz verify --from 2^64 --to 2^64+2^22 --k 16 --converge --part $i/4 --json >"$T/c$i.json" || fail "converge part $i"
done
"$BULK" collatz merge --json "$T/c1.json" "$T/c2.json" "$T/c3.json" "$T/c4.json" >"$T/cm.json" || fail "converge merge"
fields "$T/c.json" >"$T/c.f"
fields "$T/cm.json" >"$T/cm.f"
cmp -s "$T/c.f" "$T/cm.f" || fail "converge: merge of aligned parts differs from one run"
"$BULK" collatz verify --from 2^64 --to 2^64+2^22 --k 16 --part 4/4 --json >"$T/g4.json" || fail "glides part 4"
expect_exit 2 "$BULK" collatz merge "$T/c1.json" "$T/c2.json" "$T/c3.json" "$T/g4.json"
grep -q "mixes" "$T/err.txt" || fail "merge of mixed modes: no mention of the mix"
expect_exit 2 "$BULK" collatz verify --from 2^40 --to 2^40+100 --k 0 --converge

# ---- kill -9 and resume ----------------------------------------------------------------------
CK="$T/ck.txt"
KARGS="--from 2^64+3 --to 2^64+2^$KILLR --k 16 --d 12 --threads 2"
"$BULK" collatz verify $KARGS --json >"$T/full.json" || fail "uninterrupted run"
"$BULK" collatz verify $KARGS --json --checkpoint "$CK" --checkpoint-every 0 >"$T/killed.json" 2>/dev/null &
pid=$!
sleep 1
if kill -9 $pid 2>/dev/null; then
    wait $pid 2>/dev/null
    [ -s "$T/killed.json" ] && fail "the killed run printed a result"
    grep -q '^next ' "$CK" || fail "no checkpoint after the kill"
    echo "killed after 1 s at $(grep '^next ' "$CK")"
else
    wait $pid
    echo "note: the run finished within 1 s; resuming from its final checkpoint"
fi
ls "$T"/.ck.txt.bulk-tmp-* >/dev/null 2>&1 && echo "note: the kill left a temporary checkpoint (the rerun removes it)"
"$BULK" collatz verify $KARGS --json --checkpoint "$CK" >"$T/resumed.json" || fail "resumed run"
ls "$T"/.ck.txt.bulk-tmp-* >/dev/null 2>&1 && fail "the killed run's temporary checkpoint is still there after the rerun"
fields "$T/full.json" >"$T/full.f"
fields "$T/resumed.json" >"$T/resumed.f"
cmp -s "$T/full.f" "$T/resumed.f" || fail "resumed run differs from the uninterrupted one"
# another run's checkpoint is refused
expect_exit 2 "$BULK" collatz verify --from 2^64 --to 2^64+2^20 --checkpoint "$CK"
grep -q "another run" "$T/err.txt" || fail "refusal message: $(cat "$T/err.txt")"

# ---- kill -9 and resume: delays (--stats and raw --out) and records ------------------------------
# kill_resume NAME ARGS...: the uninterrupted run into NAME.full, a run with --checkpoint killed
# after 1 s, then the resumed run; for delays the outputs are the --out files (ARGS end with
# --out and the path is added), for records stdout.
kill_resume() {
    name=$1
    shift
    ck="$T/$name.ck"
    case "$1" in
    delays)
        "$BULK" collatz "$@" --out "$T/$name.full" 2>/dev/null || fail "$name: uninterrupted run"
        [ -e "$T/$name.png" ] && mv "$T/$name.png" "$T/$name.full.png"
        "$BULK" collatz "$@" --out "$T/$name.out" --checkpoint "$ck" --checkpoint-every 0 2>/dev/null &
        ;;
    *)
        "$BULK" collatz "$@" >"$T/$name.full" || fail "$name: uninterrupted run"
        "$BULK" collatz "$@" --checkpoint "$ck" --checkpoint-every 0 >"$T/$name.out" &
        ;;
    esac
    pid=$!
    sleep 1
    if kill -9 $pid 2>/dev/null; then
        wait $pid 2>/dev/null
        grep -q '^next ' "$ck" || fail "$name: no checkpoint after the kill"
        [ "$1" = delays ] && [ -e "$T/$name.out" ] && fail "$name: the killed run left its --out file"
        echo "$name: killed after 1 s at $(grep '^next ' "$ck")"
    else
        wait $pid
        echo "note: $name finished within 1 s; resuming from its final checkpoint"
    fi
    if [ "$1" = delays ]; then
        "$BULK" collatz "$@" --out "$T/$name.out" --checkpoint "$ck" 2>/dev/null || fail "$name: resumed run"
    else
        "$BULK" collatz "$@" --checkpoint "$ck" >"$T/$name.out" || fail "$name: resumed run"
    fi
    cmp -s "$T/$name.full" "$T/$name.out" || fail "$name: the resumed output differs from the uninterrupted one"
    if [ -e "$T/$name.full.png" ]; then
        cmp -s "$T/$name.full.png" "$T/$name.png" || fail "$name: the resumed --png differs from the uninterrupted one"
    fi
    [ -e "$T/$name.out.partial" ] && fail "$name: $T/$name.out.partial left behind"
    # a different run with this checkpoint is refused
    set -- "$@" --from 1 --to 4097
    if [ "$1" = delays ]; then
        expect_exit 2 "$BULK" collatz "$@" --out "$T/$name.other" --checkpoint "$ck"
        [ -e "$T/$name.other" ] && fail "$name: a refused run wrote its --out file"
    else
        expect_exit 2 "$BULK" collatz "$@" --checkpoint "$ck"
    fi
    grep -q "another run" "$T/err.txt" || fail "$name: refusal message: $(cat "$T/err.txt")"
}
if [ "$SMALL" = 1 ]; then KD=24; KRN=24; KRG=26; else KD=27; KRN=28; KRG=31; fi
kill_resume dstats delays --from "2^64+1" --to "2^64+2^$KD+1" --stats 4096 --threads 2 --png "$T/dstats.png"
kill_resume draw delays --from "2^64" --to "2^64+2^$KD" --format u32 --threads 2
kill_resume recs records --kind delay --from 1 --to "2^$KRN" --threads 2
kill_resume grecs records --kind glide --from "2^40+7" --to "2^40+2^$KRG" --threads 2
expect_exit 2 "$BULK" collatz delays --from 1 --to 100 --checkpoint "$T/nock"
[ -e "$T/dstats.full.png" ] || fail "dstats: no --png from the uninterrupted run"

# ---- bad input: exit 2, a message, no partial files -----------------------------------------------
expect_exit 2 "$BULK" collatz verify --from 5 --to 3
expect_exit 2 "$BULK" collatz verify --from 5 --to 5
expect_exit 2 "$BULK" collatz verify --from 0 --to 5
expect_exit 2 "$BULK" collatz verify --from "2^" --to 5
expect_exit 2 "$BULK" collatz verify --from 1 --to "2^128+1"
expect_exit 2 "$BULK" collatz verify --from 1 --to 0x1g
expect_exit 2 "$BULK" collatz verify --from 1 --to 100 --d 25
expect_exit 2 "$BULK" collatz verify --from 1 --to 100 --d 0
expect_exit 2 "$BULK" collatz verify --from 1 --to 100 --k 47
expect_exit 2 "$BULK" collatz verify --from 1 --to 100 --part 4/3
expect_exit 1 "$BULK" collatz verify --from 1 --to 100 --checkpoint "$T/no/such/dir/ck" # an I/O failure
expect_exit 2 "$BULK" collatz verify --to 100
expect_exit 2 "$BULK" collatz verify --from 1 --to 100 --bogus
expect_exit 2 "$BULK" collatz frobnicate
expect_exit 2 "$BULK" collatz records --kind foo --from 1 --to 10
expect_exit 2 "$BULK" collatz delays --from 1 --to 100 --stats 7 --out "$T/bad.txt"
[ -e "$T/bad.txt" ] && fail "a failed delays left $T/bad.txt"
expect_exit 2 "$BULK" collatz delays --from 9 --to 3 --out "$T/bad.txt"
[ -e "$T/bad.txt" ] && fail "a failed delays left $T/bad.txt"
expect_exit 2 "$BULK" collatz delays --from 1 --to 100 --format u8
expect_exit 2 "$BULK" collatz delays --from 1 --to 100 --d 12 --a 10
expect_exit 2 "$BULK" collatz delay 12x
expect_exit 2 "$BULK" collatz delay 0
echo "garbage" >"$T/garbage.json"
expect_exit 2 "$BULK" collatz merge "$T/garbage.json"
printf 'bulk-collatz-checkpoint 1\nidentity x\n' >"$T/badck.txt"
expect_exit 2 "$BULK" collatz verify --from 1 --to 100 --checkpoint "$T/badck.txt"
for sub in verify merge delay delays records sieve; do
    expect_exit 0 "$BULK" collatz $sub --help
done

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "all collatz CLI checks passed"
