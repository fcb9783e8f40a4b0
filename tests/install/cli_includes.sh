#!/bin/sh
# The CLI uses the public API only: src/ (the library's private modules) is not on the include
# path of the bulk target, and no file under programs/ includes a header of a module of src/
# ("collatz/...", "common/...", ...). util/ and programs/ are allowed.
# Usage: cli_includes.sh INCLUDE_DIRS_FILE SOURCE_DIR   (the file: the bulk target's
# INCLUDE_DIRECTORIES, one a line, written by CMake)
set -u
DIRS=$1
SRC=$2
rc=0
if grep -qx "$SRC/src/*" "$DIRS"; then
    echo "FAIL: $SRC/src is on the include path of the bulk target (CMakeLists.txt): the CLI must use" \
         "only include/bulk/, util/ and programs/"
    rc=1
fi
modules=$(cd "$SRC/src" && for d in */; do printf '%s|' "${d%/}"; done)
modules=${modules%|}
hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]+\"($modules)/" "$SRC/programs" --include='*.c' --include='*.h')
if [ -n "$hits" ]; then
    echo "$hits" | sed "s|^$SRC/||"
    echo "FAIL: the files above include headers of src/ (the library's private modules):" \
         "promote what they need to include/bulk/"
    rc=1
fi
[ $rc -eq 0 ] && echo "OK: the CLI includes only the public API, util/ and its own headers"
exit $rc
