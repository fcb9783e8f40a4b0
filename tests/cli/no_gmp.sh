#!/bin/sh
# The bulk binary and libbulk.so do not need GMP: libgmp is among neither's NEEDED entries
# (readelf -d) nor in what the dynamic loader resolves for them (ldd). GMP is only the oracle of
# the tests and the peer of the benchmarks.
# Usage: no_gmp.sh BULK LIBBULK_SO
set -u
command -v readelf >/dev/null || { echo "SKIP: readelf (binutils) is not installed"; exit 77; }
rc=0
for f in "$@"; do
    [ -f "$f" ] || { echo "FAIL: no file $f"; rc=1; continue; }
    if readelf -d "$f" | grep -i 'NEEDED.*libgmp'; then
        echo "FAIL: $f needs libgmp (readelf -d): nothing in libbulk or the CLI may use GMP"
        rc=1
    fi
    if command -v ldd >/dev/null && ldd "$f" | grep -i 'libgmp'; then
        echo "FAIL: $f loads libgmp (ldd): nothing in libbulk or the CLI may use GMP"
        rc=1
    fi
done
[ $rc -eq 0 ] && echo "OK: no libgmp in $*"
exit $rc
