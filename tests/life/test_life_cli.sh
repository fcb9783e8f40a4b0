#!/bin/sh
# bulk life run: outputs compared with known results; bad input exits 2 with file:line:column.
# usage: sh test_life_cli.sh BULK DATA_DIR SCRATCH_DIR
BULK=$1
DATA=$2/life
S=$3
rm -rf "$S"
mkdir -p "$S"
fail=0
no() { echo "FAIL: $*"; fail=1; }

# the glider after 4 generations: the same shape one cell down and right
"$BULK" life run --in "$DATA/glider.rle" --steps 4 --out "$S/g4.rle" || no "glider run"
printf '#CXRLE Pos=1,1 Gen=4\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n' > "$S/g4.want"
cmp -s "$S/g4.rle" "$S/g4.want" || { no "glider output"; cat "$S/g4.rle"; }
# stdout when no --out; same text
"$BULK" life run --in "$DATA/glider.rle" --steps 4 > "$S/g4.stdout" || no "glider stdout"
cmp -s "$S/g4.stdout" "$S/g4.want" || no "glider stdout output"
# positions carry over: continuing from the written file equals one longer run
"$BULK" life run --in "$S/g4.rle" --steps 6 --out "$S/g10a.rle" || no "continue"
"$BULK" life run --in "$DATA/glider.rle" --steps 10 --out "$S/g10b.rle" || no "glider 10"
cmp -s "$S/g10a.rle" "$S/g10b.rle" || no "continued run differs"
grep -q "Gen=10" "$S/g10a.rle" || no "generation not carried"
# torus: the glider wraps around a 8x8 torus and is back after 32 generations
"$BULK" life run --in "$DATA/glider.rle" --steps 32 --torus 8x8 --out "$S/gt.rle" || no "torus"
printf '#CXRLE Pos=0,0 Gen=32\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n' > "$S/gt.want"
cmp -s "$S/gt.rle" "$S/gt.want" || { no "torus output"; cat "$S/gt.rle"; }
# --every: generation population lines
"$BULK" life run --in "$DATA/gosper-gun.rle" --steps 120 --every 30 --out "$S/gun.rle" > "$S/every.txt" || no "every"
printf '0 36\n30 41\n60 46\n90 51\n120 56\n' > "$S/every.want"
cmp -s "$S/every.txt" "$S/every.want" || { no "every output"; cat "$S/every.txt"; }
# --rule overrides; HighLife on the blinker is still a blinker
"$BULK" life run --in "$DATA/blinker.rle" --steps 1 --rule B36/S23 --out "$S/bl.rle" || no "rule"
grep -q "rule = B36/S23" "$S/bl.rle" || no "rule not written"
grep -q "Pos=1,-1" "$S/bl.rle" || no "blinker position"
# plain text input, cuda/cpu/auto backends that exist, out of core, png
printf '.O.\n..O\nOOO\n' > "$S/glider.cells"
"$BULK" life run --in "$S/glider.cells" --steps 4 --backend cpu --out "$S/gp.rle" || no "plain"
cmp -s "$S/gp.rle" "$S/g4.want" || no "plain output"
"$BULK" life run --in "$DATA/r-pentomino.rle" --steps 300 --torus 300x300 --out "$S/rm.rle" || no "r mem"
"$BULK" life run --in "$DATA/r-pentomino.rle" --steps 300 --torus 300x300 --max-memory 4000 --tmp-dir "$S" --out "$S/rd.rle" || no "r disk"
cmp -s "$S/rm.rle" "$S/rd.rle" || no "out of core differs"
"$BULK" life run --in "$DATA/acorn.rle" --steps 100 --png "$S/a.png" --out "$S/a.rle" || no "png"
[ -s "$S/a.png" ] || no "png missing"
"$BULK" life --help > /dev/null || no "help"

# bad input: exit 2, message with line and column, no output file
bad() {
    name=$1; shift
    "$BULK" life run "$@" --out "$S/bad.rle" 2> "$S/err.txt" > /dev/null
    rc=$?
    [ $rc -eq 2 ] || no "$name: exit $rc, want 2"
    [ -e "$S/bad.rle" ] && no "$name: output file written"
    cat "$S/err.txt"
}
printf 'x = 3, y = 3\nbo$2bo$3o\n' > "$S/nobang.rle"
bad "missing !" --in "$S/nobang.rle" --steps 1
grep -q "nobang.rle:2:10" "$S/err.txt" || no "missing ! position"
printf 'x = 3, y = 3\nbo$2bo$3q!\n' > "$S/char.rle"
bad "unknown character" --in "$S/char.rle" --steps 1
grep -q "char.rle:2:9" "$S/err.txt" || no "unknown character position"
printf 'x = 3, y = 3\nbo$2bo$4o!\n' > "$S/wide.rle"
bad "past width" --in "$S/wide.rle" --steps 1
grep -q "wide.rle:2:8" "$S/err.txt" || no "width position"
printf 'x = 3, y = 3, rule = B3/S2x\nbo!\n' > "$S/rule.rle"
bad "rule in file" --in "$S/rule.rle" --steps 1
grep -q "rule.rle:1:" "$S/err.txt" || no "rule position"
bad "rule option" --in "$DATA/glider.rle" --steps 1 --rule B3/Q23
grep -q "column" "$S/err.txt" || no "rule option column"
bad "small torus" --in "$DATA/gosper-gun.rle" --steps 1 --torus 20x20
bad "bad torus" --in "$DATA/glider.rle" --steps 1 --torus 20
bad "no steps" --in "$DATA/glider.rle"
bad "no file" --in "$S/does-not-exist.rle" --steps 1
bad "B0 plane" --in "$DATA/glider.rle" --steps 1 --rule B0/S
exit $fail
