#!/bin/sh
# `make install` contract: installing the build tree into a fresh prefix (cmake --install
# --prefix, what `make install PREFIX=...` runs) gives headers, libbulk and a bulk.pc with which
# a program compiles, links and runs — located through pkg-config alone.
# Usage: install_pkgconfig.sh BUILD_DIR SCRATCH   (USER_CFLAGS: extra flags for the user program)
set -u
B=$1
S=$2
rm -rf "$S"
mkdir -p "$S"
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config is not installed"; exit 77; }
cmake --install "$B" --prefix "$S/prefix" >"$S/install.log" 2>&1 || { cat "$S/install.log"; echo "FAIL: install"; exit 1; }
for f in bin/bulk include/bulk/bulk.h include/bulk/int.h; do
    [ -e "$S/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
pc=$(find "$S/prefix" -name bulk.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: no bulk.pc installed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
cat >"$S/use.c" <<'C'
#include <bulk/bulk.h>
#include <bulk/int.h>
#include <stdio.h>
int main(void)
{
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1) != BULK_OK) return 1;
    bulk_limb_t a[2] = { ~(bulk_limb_t)0, 1 }, b[2] = { 3, 0 }, r[4];
    int st = bulk_int_mul(ctx, r, a, b, 1, 2); /* one instance of 2 limbs */
    bulk_ctx_close(ctx);
    /* (2^65 - 1) * 3 = 3 * 2^65 - 3 */
    printf("%d %llx %llx %llx\n", st, (unsigned long long)r[0], (unsigned long long)r[1], (unsigned long long)r[2]);
    return st;
}
C
cc -std=c11 -Wall -Werror ${USER_CFLAGS:-} "$S/use.c" $(pkg-config --cflags --libs bulk) -o "$S/use" >"$S/cc.log" 2>&1 ||
    { cat "$S/cc.log"; echo "FAIL: compiling against the installed bulk via pkg-config"; exit 1; }
libdir=$(pkg-config --variable=libdir bulk)
got=$(LD_LIBRARY_PATH=$libdir "$S/use") || { echo "FAIL: the program failed: $got"; exit 1; }
[ "$got" = "0 fffffffffffffffd 5 0" ] || { echo "FAIL: got '$got'"; exit 1; }
"$S/prefix/bin/bulk" --help >/dev/null 2>&1 || { echo "FAIL: installed bulk --help"; exit 1; }
echo "install + pkg-config: ok"
