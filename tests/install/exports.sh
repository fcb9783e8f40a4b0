#!/bin/sh
# Exports equal the public API: the functions libbulk.so exports (nm -D --defined-only) are
# exactly the functions declared with BULK_API in include/bulk/*.h (bulk/export.h; the library
# is compiled with hidden visibility). Also fails on a function declared in a public header
# without BULK_API, which the shared library would then not export.
# Usage: exports.sh LIBBULK_SO INCLUDE_BULK_DIR
set -u
LIB=$1
INC=$2
command -v nm >/dev/null || { echo "SKIP: nm (binutils) is not installed"; exit 77; }
[ -f "$LIB" ] || { echo "FAIL: no shared library $LIB"; exit 1; }
S=$(mktemp -d) || exit 1
trap 'rm -rf "$S"' EXIT
rc=0

# Declarations: one per line that starts with BULK_API (the name is the identifier before the
# first '('); a line at column 0 that declares a bulk_ function without BULK_API is an error.
for h in "$INC"/*.h; do
    sed -n 's/^BULK_API[^(]*[^a-zA-Z0-9_(]\([a-zA-Z_][a-zA-Z0-9_]*\)(.*/\1/p' "$h" |
        sed "s|\$| $(basename "$h")|"
done | sort >"$S/declared.txt"
grep -nE '^[a-z][a-z0-9_ ]*[ *]bulk_[a-z0-9_]+\(' "$INC"/*.h |
    grep -vE ':[0-9]+:(typedef|static|return) ' >"$S/plain.txt"
while IFS= read -r line; do
    echo "FAIL: ${line%%(*}(...) is declared without BULK_API, so libbulk.so does not export it:" \
         "a public function needs BULK_API on its declaration in include/bulk/"
    rc=1
done <"$S/plain.txt"

# Exports, without the symbols the linker itself defines in every shared object
nm -D --defined-only "$LIB" >"$S/nm.txt" || { echo "FAIL: nm -D $LIB"; exit 1; }
awk 'NF >= 3 { print $3 }' "$S/nm.txt" | sed 's/@.*//' |
    grep -vxE '_init|_fini|_edata|_end|__bss_start|_ITM_.*|__gmon_start__' | sort -u >"$S/exported.txt"
cut -d' ' -f1 "$S/declared.txt" | sort -u >"$S/names.txt"

comm -23 "$S/exported.txt" "$S/names.txt" >"$S/extra.txt"
while IFS= read -r name; do
    echo "FAIL: libbulk.so exports $name, which no include/bulk/*.h declares with BULK_API:" \
         "an internal function must not be exported (hidden visibility: check that its file is" \
         "compiled as part of bulk_obj and that no BULK_API or visibility attribute is on it)"
    rc=1
done <"$S/extra.txt"
comm -13 "$S/exported.txt" "$S/names.txt" >"$S/missing.txt"
while IFS= read -r name; do
    echo "FAIL: $name is declared with BULK_API in include/bulk/$(grep "^$name " "$S/declared.txt" |
        cut -d' ' -f2 | head -1) but libbulk.so does not export it: define it in src/ (its file" \
         "must include that header)"
    rc=1
done <"$S/missing.txt"

echo "$(wc -l <"$S/names.txt") public functions declared with BULK_API, $(wc -l <"$S/exported.txt") exported"
[ $rc -eq 0 ] && echo "OK: the exports of $(basename "$LIB") equal the public API"
exit $rc
