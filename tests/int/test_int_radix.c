/* Decimal text <-> limbs (int/numtext.c dispatching to the divide-and-conquer int/radix.c
 * above BULK_RADIX_DC_LIMBS limbs) against GMP's mpz_get_str / mpz_set_str: random values of
 * 1..3000 limbs, and the structured ones where the split goes wrong first (powers of ten and
 * their neighbours at and around every split power 10^(19*2^i), long runs of zero digits inside,
 * leading zeros in the text, all-ones limbs). Also the overflow contract of parsing. */
#include <gmp.h>

#include "bulk/bulk.h"
#include "int/numtext.h"
#include "int/radix.h"
#include "test_util.h"

static uint64_t rng;

static void check_value(const mpz_t v, const char *what)
{
    size_t n = mpz_size(v) ? mpz_size(v) : 1;
    uint64_t *a = calloc(n, sizeof *a);
    mpz_export(a, NULL, -1, sizeof *a, 0, 0, v);
    char *want = mpz_get_str(NULL, 10, v);
    char *got = malloc(bulk_format_uint_size(n, 0) + 1);
    size_t len = bulk_format_uint(got, a, n, 0);
    CHECK(len == strlen(want) && !strcmp(got, want), "%s: format of %zu limbs differs (len %zu vs %zu)",
          what, n, len, strlen(want));
    /* parse back, exact capacity and one limb short */
    size_t cap = bulk_parse_uint_limbs_bound(strlen(want));
    uint64_t *b = malloc(cap * sizeof *b);
    int used = bulk_parse_uint(want, strlen(want), b, cap, NULL);
    size_t sig = mpz_size(v);
    CHECK(used == (int)sig && !memcmp(a, b, sig * sizeof *a), "%s: parse of %zu digits differs (%d limbs vs %zu)",
          what, strlen(want), used, sig);
    for (size_t i = sig; i < cap; i++) CHECK(b[i] == 0, "%s: parse left limb %zu nonzero", what, i);
    if (sig >= 1) {
        int st = bulk_parse_uint(want, strlen(want), b, sig - 1, NULL);
        CHECK(st == BULK_ERR_OVERFLOW, "%s: parse into %zu limbs gave %d, not overflow", what, sig - 1, st);
    }
    free(a);
    free(b);
    free(got);
    free(want);
}

static void random_limbs(mpz_t v, size_t n)
{
    uint64_t *a = malloc(n * sizeof *a);
    for (size_t i = 0; i < n; i++) a[i] = test_rand(&rng);
    mpz_import(v, n, -1, sizeof *a, 0, 0, a);
    free(a);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    int quick = getenv("BULK_SANITIZED") != NULL;
    mpz_t v, p;
    mpz_inits(v, p, NULL);
    char what[96];

    /* random sizes across the threshold and several split levels */
    for (size_t n = 1; n <= 3000; n += n < 100 ? 1 : (n < 600 ? 37 : 401)) {
        random_limbs(v, n);
        snprintf(what, sizeof what, "random %zu limbs", n);
        check_value(v, what);
    }
    /* 10^e - 1, 10^e, 10^e + 1 around every split power 10^(19*2^i) and at odd exponents */
    size_t emax = quick ? 20000 : 60000;
    for (size_t e = 19; e <= emax; e = e * 2 + (e % 7)) {
        size_t es[] = { e, 19 * (e / 19), 19 * (e / 19) * 2 };
        for (int t = 0; t < 3; t++) {
            mpz_ui_pow_ui(p, 10, es[t]);
            for (int d = -1; d <= 1; d++) {
                if (d < 0) mpz_sub_ui(v, p, 1);
                else if (d > 0) mpz_add_ui(v, p, 1);
                else mpz_set(v, p);
                snprintf(what, sizeof what, "10^%zu%+d", es[t], d);
                check_value(v, what);
            }
            /* a long run of zero digits inside: 7 * 10^e + 3 (the low half's padding) */
            mpz_mul_ui(v, p, 7);
            mpz_add_ui(v, v, 3);
            snprintf(what, sizeof what, "7*10^%zu+3", es[t]);
            check_value(v, what);
        }
    }
    /* the basecase's own split a = q 10^(19 g) + r, g = n / 2 (numtext.c): r = 0, 1, 10^(19 g) - 1
     * and a run of zero digits across the split, for every basecase size; and the basecase
     * called directly beyond its table of powers (g capped) */
    for (size_t n = 2; n <= BULK_RADIX_DC_LIMBS + 2; n++) {
        mpz_t q;
        mpz_init(q);
        mpz_ui_pow_ui(p, 10, 19 * (n / 2));
        random_limbs(v, n);
        mpz_fdiv_q(q, v, p);
        for (int t = 0; t < 4; t++) {
            mpz_mul(v, q, p);
            if (t == 1) mpz_add_ui(v, v, 1);
            if (t == 2) mpz_add(v, v, p), mpz_sub_ui(v, v, 1);
            if (t == 3) mpz_add_ui(v, v, 7), mpz_mul_ui(q, q, 10); /* q ends in a zero digit */
            snprintf(what, sizeof what, "split of %zu limbs, case %d", n, t);
            check_value(v, what);
        }
        mpz_clear(q);
    }
    for (size_t n = 129; n <= 400; n += 271) {
        random_limbs(v, n);
        uint64_t *a = calloc(n, sizeof *a);
        mpz_export(a, NULL, -1, sizeof *a, 0, 0, v);
        char *got = malloc(bulk_format_uint_size(n, 0) + 1), *want = mpz_get_str(NULL, 10, v);
        size_t len = bulk_format_dec_basecase(got, a, n);
        CHECK(len == strlen(want) && !strcmp(got, want), "basecase of %zu limbs differs", n);
        free(a), free(got), free(want);
    }
    /* all-ones limbs 2^(64n) - 1 */
    for (size_t n = 38; n <= 700; n += 83) {
        mpz_set_ui(v, 1);
        mpz_mul_2exp(v, v, 64 * n);
        mpz_sub_ui(v, v, 1);
        snprintf(what, sizeof what, "2^%zu-1", 64 * n);
        check_value(v, what);
    }
    /* text with leading zeros and zero itself */
    {
        random_limbs(v, 300);
        char *s = mpz_get_str(NULL, 10, v);
        size_t L = strlen(s);
        char *z = malloc(L + 2001);
        memset(z, '0', 2000);
        memcpy(z + 2000, s, L + 1);
        size_t cap = bulk_parse_uint_limbs_bound(L + 2000);
        uint64_t *b = malloc(cap * sizeof *b), *a = calloc(300, sizeof *a);
        mpz_export(a, NULL, -1, sizeof *a, 0, 0, v);
        int used = bulk_parse_uint(z, L + 2000, b, cap, NULL);
        CHECK(used == (int)mpz_size(v) && !memcmp(a, b, mpz_size(v) * sizeof *a), "leading zeros: parse differs");
        memset(z, '0', L);
        used = bulk_parse_uint(z, L, b, cap, NULL);
        CHECK(used == 0, "%zu zero digits parsed to %d limbs", L, used);
        uint64_t zero[50] = { 0 };
        char out[8];
        CHECK(bulk_format_uint(out, zero, 50, 0) == 1 && !strcmp(out, "0"), "zero of 50 limbs: '%s'", out);
        free(z);
        free(s);
        free(a);
        free(b);
    }
    mpz_clears(v, p, NULL);
    return test_finish();
}
