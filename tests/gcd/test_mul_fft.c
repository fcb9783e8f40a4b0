/* bulk_mpn_mul_fft and bulk_mpn_mul_big against GMP's mpz_mul: every size 1..200 (balanced and
 * unbalanced), structured limbs (all-ones operands give the largest convolution coefficients,
 * the case that needs all three primes), squaring (a == b), and a few sizes up to several
 * million limbs, one and three threads (smaller under the sanitizers: BULK_SANITIZED=1). */
#include <gmp.h>

#include "int/mpn.h"
#include "int/mul_fft.h"
#include "test_util.h"

static uint64_t rng;

static void fill(bulk_limb_t *a, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) a[i] = kind < 0 ? test_rand(&rng) : test_structured_limb(&rng, kind);
    if (kind == 1 || kind == -2) /* all ones: maximal coefficients */
        for (size_t i = 0; i < n; i++) a[i] = ~0ull;
}

static void check(size_t an, size_t bn, int kind, int square, int big)
{
    if (square) bn = an;
    bulk_limb_t *a = malloc(an * 8), *b = square ? a : malloc(bn * 8);
    bulk_limb_t *r = malloc((an + bn) * 8), *e = malloc((an + bn) * 8);
    fill(a, an, kind);
    if (!square) fill(b, bn, kind);
    int st = BULK_OK;
    if (big == 1) bulk_mpn_mul_big(r, a, an, b, bn);
    else if (big == 2) st = bulk_mpn_mul_fft_threads(r, a, an, b, bn, 2); /* primes on threads */
    else st = bulk_mpn_mul_fft(r, a, an, b, bn);
    CHECK(st == BULK_OK, "status %d at %zu x %zu", st, an, bn);
    mpz_t A, B, E;
    mpz_init(A); mpz_init(B); mpz_init(E);
    mpz_import(A, an, -1, 8, 0, 0, a);
    mpz_import(B, bn, -1, 8, 0, 0, b);
    mpz_mul(E, A, B);
    memset(e, 0, (an + bn) * 8);
    mpz_export(e, NULL, -1, 8, 0, 0, E);
    CHECK(memcmp(r, e, (an + bn) * 8) == 0, "product differs at %zu x %zu kind %d square %d big %d",
          an, bn, kind, square, big);
    mpz_clear(A); mpz_clear(B); mpz_clear(E);
    free(a); if (!square) free(b); free(r); free(e);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    int sanitized = test_sanitized();
    for (size_t n = 1; n <= 200; n++) {
        check(n, n, -1, 0, 0);
        check(n, 1 + test_rand(&rng) % n, (int)(n % 9) - 2, 0, 0);
        check(n, n, -2, 1, 0);
    }
    for (int kind = -2; kind < 8; kind++) check(1000 + kind, 777, kind, 0, kind % 2 ? 2 : 0);
    /* bulk_mpn_mul_big on both sides of its threshold */
    check(BULK_MUL_FFT_THRESHOLD - 1, BULK_MUL_FFT_THRESHOLD - 1, -1, 0, 1);
    check(BULK_MUL_FFT_THRESHOLD, BULK_MUL_FFT_THRESHOLD, -1, 0, 1);
    check(3 * BULK_MUL_FFT_THRESHOLD, 10, -1, 0, 1);
    size_t big[] = { 65536, 100003, 1 << 20, 3000000 };
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        size_t n = big[i];
        if (sanitized && n > 100003) break;
        check(n, n, i == 2 ? -2 : -1, 0, i % 2 ? 2 : 0);
        if (n <= 100003) {
            check(n, n - n / 3, -1, 0, 0);
            check(n, n, -1, 1, 0);
        }
    }
    CHECK(bulk_mpn_mul_fft(NULL, NULL, 0, NULL, 0) == BULK_ERR_ARG, "bad arguments accepted");
    return test_finish();
}
