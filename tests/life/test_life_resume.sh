#!/bin/sh
# bulk life run --checkpoint: a run killed with kill -9 after its first checkpoints, then run
# again with the same arguments, prints exactly what an uninterrupted run prints (the RLE and
# the --every lines), on a torus and on the plane; a checkpoint of other arguments (input,
# rule, torus, --every, fewer steps than its generation) or a damaged one is refused with
# exit 2; --checkpoint with --torus and --max-memory is refused; a checkpoint that cannot be
# written stops the run with exit 1.
# usage: sh test_life_resume.sh BULK DATA_DIR SCRATCH_DIR
BULK=$1
DATA=$2/life
S=$3
rm -rf "$S"
mkdir -p "$S" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }
seed=${BULK_TEST_SEED:-$(date +%s)}
echo "seed $seed (replay with BULK_TEST_SEED=$seed)"
# a 256 x 256 random soup (35% alive)
awk -v seed="$seed" 'BEGIN { srand(seed); for (y = 0; y < 256; y++) { s = "";
    for (x = 0; x < 256; x++) s = s (rand() < 0.35 ? "O" : "."); print s } }' > "$S/soup.cells"

# killed: NAME CKPT LAST ARGS... runs bulk life run ARGS --checkpoint CKPT in the background,
# kills it with -9 once CKPT exists, and checks that it was stopped before generation LAST
killed() {
    name=$1 ck=$2 last=$3
    shift 3
    rm -f "$ck"
    "$BULK" life run "$@" --checkpoint "$ck" --checkpoint-every 0 > "$S/killed.out" 2>&1 &
    pid=$!
    i=0
    while [ ! -s "$ck" ] && [ $i -lt 3000 ] && kill -0 $pid 2>/dev/null; do sleep 0.01; i=$((i + 1)); done
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    [ -s "$ck" ] || { no "$name: no checkpoint appeared"; return; }
    gen=$(sed -n 's/^generation //p' "$ck" | head -1)
    echo "$name: killed with a checkpoint at generation $gen"
    [ "$gen" -gt 0 ] && [ "$gen" -lt "$last" ] || no "$name: checkpoint generation $gen not inside (0, $last)"
}

# resumed NAME CKPT REF ARGS...: the rerun resumes and prints REF
resumed() {
    name=$1 ck=$2 ref=$3
    shift 3
    "$BULK" life run "$@" --checkpoint "$ck" > "$S/resumed.out" 2> "$S/resumed.err" || { no "$name: rerun failed"; cat "$S/resumed.err"; }
    grep -q "resuming from" "$S/resumed.err" || no "$name: the rerun did not resume"
    cmp -s "$S/resumed.out" "$ref" || no "$name: the resumed run differs from an uninterrupted one"
}

T="--in $S/soup.cells --torus 256x256 --steps 20000 --every 2500"
"$BULK" life run $T > "$S/torus.ref" || no "torus reference run"
killed torus "$S/t.ck" 20000 $T
resumed torus "$S/t.ck" "$S/torus.ref" $T
# a finished checkpoint: the rerun prints the result at once
resumed "torus finished" "$S/t.ck" "$S/torus.ref" $T

P="--in $DATA/acorn.rle --steps 3000 --every 500"
"$BULK" life run $P > "$S/plane.ref" || no "plane reference run"
killed plane "$S/p.ck" 3000 $P
resumed plane "$S/p.ck" "$S/plane.ref" $P
# the plane out of core (a small --max-memory streams the grid from files)
PO="--in $DATA/acorn.rle --steps 2000 --every 500"
"$BULK" life run $PO > "$S/po.ref" || no "plane 2000 reference run"
killed "plane out of core" "$S/po.ck" 2000 $PO --max-memory 64K --tmp-dir "$S"
resumed "plane out of core" "$S/po.ck" "$S/po.ref" $PO --max-memory 64K --tmp-dir "$S"
# a longer run goes on from a finished checkpoint
"$BULK" life run --in "$DATA/acorn.rle" --steps 2200 --every 500 > "$S/po22.ref" || no "plane 2200"
resumed "plane longer" "$S/po.ck" "$S/po22.ref" --in "$DATA/acorn.rle" --steps 2200 --every 500

# refused: exit 2 and a message naming what differs
refused() {
    name=$1 ck=$2 want=$3
    shift 3
    "$BULK" life run "$@" --checkpoint "$ck" > "$S/ref.out" 2> "$S/ref.err"
    rc=$?
    [ $rc -eq 2 ] || no "$name: exit $rc, want 2"
    grep -q "$want" "$S/ref.err" || { no "$name: message"; cat "$S/ref.err"; }
    [ -s "$S/ref.out" ] && no "$name: printed something on stdout"
}
refused "other input" "$S/t.ck" "input pattern differs" --in "$DATA/acorn.rle" --torus 256x256 --steps 20000 --every 2500
refused "other rule" "$S/t.ck" "rule differs" $T --rule B36/S23
refused "other torus" "$S/t.ck" "topology" --in "$S/soup.cells" --torus 256x512 --steps 20000 --every 2500
refused "plane vs torus" "$S/t.ck" "topology" --in "$S/soup.cells" --steps 20000 --every 2500
refused "other every" "$S/t.ck" "every differs" --in "$S/soup.cells" --torus 256x256 --steps 20000 --every 100
refused "fewer steps" "$S/t.ck" "beyond this run" --in "$S/soup.cells" --torus 256x256 --steps 100 --every 2500
head -c 200 "$S/t.ck" > "$S/short.ck"
refused "damaged" "$S/short.ck" "short.ck:" $T
printf 'hello\n' > "$S/bad.ck"
refused "not a checkpoint" "$S/bad.ck" "bad.ck:1:" $T
refused "torus out of core" "$S/none.ck" "not available for a --torus with --max-memory" $T --max-memory 1M
[ -e "$S/none.ck" ] && no "a refused run wrote a checkpoint"
# a checkpoint that cannot be written: exit 1 with the path and the cause, no RLE
"$BULK" life run --in "$DATA/glider.rle" --steps 10 --checkpoint "$S/nope/x.ck" > "$S/nope.out" 2> "$S/nope.err"
rc=$?
[ $rc -eq 1 ] || no "unwritable checkpoint: exit $rc, want 1"
grep -q "cannot write the checkpoint .*nope/x.ck: " "$S/nope.err" || { no "unwritable checkpoint: message"; cat "$S/nope.err"; }
[ -s "$S/nope.out" ] && no "unwritable checkpoint: printed the RLE"

[ $fail -eq 0 ] && echo "life resume: all passed"
exit $fail
