#!/bin/sh
# No allocation is sized by a header alone: files whose headers claim gigabytes (an RLE frame of
# 3 x 900000000 around three cells, AIGER headers declaring 10^9 inputs or gates) are read in
# seconds under a 2 GiB address-space limit: the RLE runs (its header is a bound, not a size) or
# is refused on a torus it does not fit, the AIGER files are refused with exit 2 and file:line.
# Builds whose runtime needs more address space than the limit (the sanitizers) run the same
# checks without it. usage: sh header_bounds.sh BULK DATA_DIR SCRATCH_DIR
BULK=$1
D=$2/bounds
S=$3
rm -rf "$S" && mkdir -p "$S"
fails=0
no() { echo "FAIL: $*"; fails=$((fails + 1)); }
LIMIT=2097152 # KiB: 2 GiB
if (ulimit -v $LIMIT && "$BULK" --help >/dev/null 2>&1); then
    lim() { (ulimit -v $LIMIT && exec timeout 60 "$@"); }
else
    echo "note: $BULK does not start under a 2 GiB address-space limit (sanitizer build?); checking without it"
    lim() { timeout 60 "$@"; }
fi
# run CODE PATTERN -- command...: exit code CODE within 60 s, stderr containing PATTERN
run() {
    code=$1 pat=$2
    shift 2
    t0=$(date +%s)
    lim "$@" >"$S/out" 2>"$S/err"
    rc=$?
    t=$(($(date +%s) - t0))
    [ "$rc" = "$code" ] || no "'$*' exited $rc in ${t}s, expected $code: $(cat "$S/err")"
    [ -z "$pat" ] || grep -q -- "$pat" "$S/err" || no "'$*': stderr lacks '$pat': $(cat "$S/err")"
    [ "$t" -le 10 ] || no "'$*' took ${t}s"
}

# ---- RLE: the header is the frame, the memory follows the live cells -----------------------
run 0 "" "$BULK" life run --in "$D/huge-frame.rle" --steps 1
printf '#CXRLE Pos=1,-1 Gen=1\nx = 1, y = 3, rule = B3/S23\no$o$o!\n' | cmp -s - "$S/out" || no "huge frame result: $(cat "$S/out")"
run 2 "huge-frame.rle:1:1: the pattern (3 x 900000000) does not fit the torus 10 x 10" \
    "$BULK" life run --in "$D/huge-frame.rle" --steps 1 --torus 10x10
# a frame larger than its cells runs as before: on the plane and on a torus of the frame's size
# (where the cells' place in the frame decides what wraps); outputs of the reader that stored
# the whole frame
run 0 "" "$BULK" life run --in "$D/framed.rle" --steps 4
printf '#CXRLE Pos=11,6 Gen=4\nx = 17, y = 14, rule = B3/S23\nbo$2bo$3o11$14b3o!\n' | cmp -s - "$S/out" ||
    no "framed plane: $(cat "$S/out")"
run 0 "" "$BULK" life run --in "$D/framed.rle" --steps 7 --torus 30x20
printf '#CXRLE Pos=12,0 Gen=7\nx = 15, y = 20, rule = B3/S23\n14bo7$o$b2o$2o9$14bo$14bo!\n' | cmp -s - "$S/out" ||
    no "framed torus: $(cat "$S/out")"

# ---- AIGER: counts the file cannot hold fail where it ends ---------------------------------
printf '01\n' >"$S/in.txt"
run 2 "huge-header.aag:3: the file ends before input 1 of the 1000000000" \
    "$BULK" circuit eval --circuit "$D/huge-header.aag" --in "$S/in.txt"
run 2 "huge-header.aig:3: the file ends before output 1 of the 100000000" \
    "$BULK" circuit eval --circuit "$D/huge-header.aig" --in "$S/in.txt"
# a binary circuit of 2^31 - 2 implicit inputs is valid: nothing is sized by them until vectors come
printf 'aig 2147483646 2147483646 0 0 0\n' >"$S/wide.aig"
: >"$S/empty.txt"
run 0 "" "$BULK" circuit eval --circuit "$S/wide.aig" --in "$S/empty.txt"
run 2 "in.txt:1: 2 characters, but the circuit has 2147483646 inputs" \
    "$BULK" circuit eval --circuit "$S/wide.aig" --in "$S/in.txt"
# ASCII variables numbered near 2^31 among few definitions: no table indexed by M
printf 'aag 2147483646 1 0 1 0\n4294967292\n4294967293\n' >"$S/far.aag"
printf '0\n1\n' >"$S/in1.txt"
run 0 "" "$BULK" circuit eval --circuit "$S/far.aag" --in "$S/in1.txt"
printf '1\n0\n' | cmp -s - "$S/out" || no "far.aag outputs: $(cat "$S/out")"
[ $fails -eq 0 ] && echo "header bounds: all passed"
exit $fails
