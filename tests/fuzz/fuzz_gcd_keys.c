/* libFuzzer target: the moduli readers of `bulk gcd` through bulk_gcd_input_add, built once per
 * format: FUZZ_GCD_FORMAT is BULK_GCD_FORMAT_TEXT, _PEM or _DER (PEM and DER need OpenSSL).
 * The bytes are added twice to one input (the second time to a non-empty list, which may be
 * repacked). A refusal must leave the list as it was and name a line; a success must give
 * moduli of at least 2 with their lines. */
#include <string.h>

#include "bulk/gcd.h"
#include "fuzz_util.h"
#include "int/mpn.h"

#ifndef FUZZ_GCD_FORMAT
#error "FUZZ_GCD_FORMAT must name a bulk_gcd_format"
#endif

static void check_list(const bulk_gcd_input *in)
{
    for (size_t i = 0; i < in->n; i++) {
        const bulk_limb_t *m = in->x + i * in->limbs;
        size_t mn = bulk_mpn_normalized_size(m, in->limbs);
        FUZZ_REQUIRE(mn > 1 || (mn == 1 && m[0] >= 2), "modulus %zu is below 2", i);
        FUZZ_REQUIRE(in->line[i] >= 1, "modulus %zu without a line", i);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bulk_gcd_input in;
    memset(&in, 0, sizeof in);
    for (int round = 0; round < 2; round++) {
        size_t n0 = in.n;
        uint64_t line = 0;
        char msg[256];
        int st = bulk_gcd_input_add(&in, (const char *)data, size, FUZZ_GCD_FORMAT, &line, msg,
                                    sizeof msg);
        if (st == BULK_ERR_UNSUPPORTED) break; /* PEM/DER in a build without OpenSSL */
        if (st == BULK_ERR_PARSE) {
            FUZZ_REQUIRE(in.n == n0, "a refused input changed the list (%zu -> %zu)", n0, in.n);
            FUZZ_REQUIRE(line >= 1 && msg[0], "a refusal without a line (%llu) or message",
                         (unsigned long long)line);
            break;
        }
        FUZZ_REQUIRE(st == BULK_OK, "status %d", st);
        check_list(&in);
    }
    bulk_gcd_input_free(&in);
    return 0;
}
