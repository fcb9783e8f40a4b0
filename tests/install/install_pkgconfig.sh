#!/bin/sh
# `make install` contract: installing the build tree into a fresh prefix (cmake --install
# --prefix, what `make install PREFIX=...` runs) gives headers, libbulk and a bulk.pc with which
# a program compiles, links and runs — located through pkg-config alone — and a bin/bulk that
# runs without LD_LIBRARY_PATH (its RUNPATH, CMakeLists.txt).
# Then use_api.c, which calls every public function of the library, is built and run the same
# way: against the installed headers and library only.
# Usage: install_pkgconfig.sh BUILD_DIR SCRATCH SOURCE_DIR   (USER_CFLAGS: extra flags for the
# user programs)
set -u
B=$1
S=$2
SRC=$3
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
    if (st != BULK_OK) return 1;
    /* text conversion: 2^128 - 1 parsed from decimal, printed in hex and back in decimal */
    char text[64];
    size_t len;
    if (bulk_int_from_str(r, "340282366920938463463374607431768211455", 2, 10, NULL) != BULK_OK) return 1;
    if (bulk_int_to_str(text, sizeof text, r, 2, 16, &len) != BULK_OK) return 1;
    printf("%s\n", text);
    if (bulk_int_from_str(r, "340282366920938463463374607431768211456", 2, 0, NULL) != BULK_ERR_OVERFLOW) return 1;
    return 0;
}
C
cc -std=c11 -Wall -Werror ${USER_CFLAGS:-} "$S/use.c" $(pkg-config --cflags --libs bulk) -o "$S/use" >"$S/cc.log" 2>&1 ||
    { cat "$S/cc.log"; echo "FAIL: compiling against the installed bulk via pkg-config"; exit 1; }
libdir=$(pkg-config --variable=libdir bulk)
got=$(LD_LIBRARY_PATH=$libdir "$S/use") || { echo "FAIL: the program failed: $got"; exit 1; }
want="0 fffffffffffffffd 5 0
0xffffffffffffffffffffffffffffffff"
[ "$got" = "$want" ] || { echo "FAIL: got '$got'"; exit 1; }
# every public function, from the installed headers and library alone
cc -std=gnu11 -Wall -Werror ${USER_CFLAGS:-} "$SRC/tests/install/use_api.c" $(pkg-config --cflags --libs bulk) \
    -o "$S/use_api" >"$S/cc_api.log" 2>&1 ||
    { cat "$S/cc_api.log"; echo "FAIL: compiling use_api.c against the installed bulk via pkg-config"; exit 1; }
mkdir -p "$S/api"
LD_LIBRARY_PATH=$libdir BULK_PROGRESS=0 "$S/use_api" "$S/api" >"$S/api.out" 2>&1 ||
    { cat "$S/api.out"; echo "FAIL: use_api (the public API as installed)"; exit 1; }
cat "$S/api.out"
# the installed bulk runs as installed: no LD_LIBRARY_PATH (its RUNPATH finds what it needs)
printf '7 5\n' >"$S/in.txt"
out=$(env -u LD_LIBRARY_PATH "$S/prefix/bin/bulk" int add --in "$S/in.txt" 2>"$S/run.err") ||
    { cat "$S/run.err"; echo "FAIL: installed bulk without LD_LIBRARY_PATH"; exit 1; }
[ "$out" = "12" ] || { echo "FAIL: installed bulk int add: '$out'"; exit 1; }
env -u LD_LIBRARY_PATH "$S/prefix/bin/bulk" --help >/dev/null 2>&1 || { echo "FAIL: installed bulk --help"; exit 1; }
if command -v ldd >/dev/null; then
    env -u LD_LIBRARY_PATH ldd "$S/prefix/bin/bulk" >"$S/ldd.txt" 2>&1
    ! grep -q "not found" "$S/ldd.txt" || { cat "$S/ldd.txt"; echo "FAIL: installed bulk misses a library"; exit 1; }
fi
if command -v readelf >/dev/null; then
    readelf -d "$S/prefix/bin/bulk" | grep -q 'R.*PATH.*\$ORIGIN/' ||
        { echo "FAIL: installed bulk has no \$ORIGIN RUNPATH"; exit 1; }
fi
echo "install + pkg-config: ok"
