#!/bin/sh
# A bulk built without libpng/cairo refuses every --png at once (exit 2, naming the packages)
# and writes nothing. Usage: pictures_absent.sh BULK DATA_DIR SCRATCH_DIR
BULK=$1
DATA=$2
T=$3
mkdir -p "$T"
rm -f "$T"/*.png
fails=0
refused() {
    "$@" >/dev/null 2>"$T/err.txt"
    st=$?
    if [ $st -ne 2 ]; then echo "FAIL: exit $st (want 2): $*"; fails=$((fails + 1)); fi
    grep -q "libpng-dev and libcairo2-dev" "$T/err.txt" || { echo "FAIL: message: $(cat "$T/err.txt")"; fails=$((fails + 1)); }
}
refused "$BULK" collatz delays --from 1 --to 65 --stats 64 --png "$T/d.png"
refused "$BULK" life run --in "$DATA/life/glider.rle" --steps 1 --png "$T/g.png"
ls "$T"/*.png >/dev/null 2>&1 && { echo "FAIL: a PNG was written"; fails=$((fails + 1)); }
[ $fails -eq 0 ] && echo "--png refused as it should be (built without pictures)"
[ $fails -eq 0 ]
