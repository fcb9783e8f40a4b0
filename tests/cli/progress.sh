#!/bin/sh
# Progress lines of the long-running commands (collatz records, life run, cky, circuit eval):
# BULK_PROGRESS=1 makes each print a progress line (label, percentage, done/total) on stderr
# and nothing more on stdout than without it; BULK_PROGRESS=0 prints nothing on stderr. (The
# default, a line only when stderr is a terminal, is what BULK_PROGRESS=0 gives in a test.)
# usage: sh progress.sh BULK DATA_DIR SCRATCH_DIR
BULK=$1 DATA=$2 S=$3
rm -rf "$S" && mkdir -p "$S" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }

# check NAME LABEL CMD...: runs CMD with BULK_PROGRESS=1 and =0
check() {
    name=$1 label=$2
    shift 2
    BULK_PROGRESS=1 "$@" > "$S/on.out" 2> "$S/on.err" || no "$name: failed with BULK_PROGRESS=1"
    BULK_PROGRESS=0 "$@" > "$S/off.out" 2> "$S/off.err" || no "$name: failed with BULK_PROGRESS=0"
    tr '\r' '\n' < "$S/on.err" | grep -q "^$label: *[0-9.]*%  [0-9]*/[0-9]* " ||
        { no "$name: no progress line with BULK_PROGRESS=1"; cat "$S/on.err"; }
    tr '\r' '\n' < "$S/on.err" | grep -q "^$label: 100.0%" || no "$name: the last progress line is not at 100%"
    cmp -s "$S/on.out" "$S/off.out" || no "$name: stdout differs with progress on"
    [ -s "$S/off.out" ] || no "$name: printed nothing"
    [ -s "$S/off.err" ] && { no "$name: stderr not empty with BULK_PROGRESS=0"; cat "$S/off.err"; }
}

check "collatz records" "collatz records" "$BULK" collatz records --kind delay --from 1 --to 100000
check "life run" "life run" "$BULK" life run --in "$DATA/life/glider.rle" --steps 200 --torus 16x16
BULK_PROGRESS=1 "$BULK" life run --in "$DATA/life/glider.rle" --steps 200 2>&1 >/dev/null | tr '\r' '\n' |
    grep -q "200/200 generations .* cell updates/s" || no "life run: no cell update rate"
awk 'BEGIN { for (i = 0; i < 3000; i++) { n = i % 9; s = ""; for (j = 0; j < n; j++) s = s "a";
    for (j = 0; j < n - i % 2; j++) s = s "b"; print s } }' > "$S/ab.txt"
check "cky" "cky" "$BULK" cky --grammar "$DATA/cky/anbn.cfg" --in "$S/ab.txt"
"$BULK" circuit adder --bits 4 --out "$S/add.aag" || no "circuit adder"
awk 'BEGIN { for (i = 0; i < 5000; i++) { s = ""; v = i % 256; for (j = 0; j < 8; j++) { s = s (v % 2); v = int(v / 2) }
    print s } }' > "$S/vec.txt"
check "circuit eval" "circuit eval" "$BULK" circuit eval --circuit "$S/add.aag" --in "$S/vec.txt"

[ $fail -eq 0 ] && echo "progress: all passed"
exit $fail
