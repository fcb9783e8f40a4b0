/* Tests of the multiplication side of bulk integer arithmetic: the mpn layer (int/mpn.h:
 * add/sub/shift/cmp/mul_1 family, every multiplication method, squaring, mullo, unbalanced
 * mul) and the public wrappers of int_api.c, with GMP's mpn functions as the oracle.
 *
 *  1. exhaustive small: every 1..3-limb operand over a limb alphabet, every op;
 *  2. widths W = 64 .. 65536 bits with random and structured operands, every op and method;
 *  3. sizes 1..MAXN around the thresholds, every method; then again with tiny thresholds so
 *     the recursions nest (Toom-8 over Toom-6 over ... over Karatsuba) at small sizes;
 *  4. the public API: several instances, threads 1, 2, 3, forced methods, aliasing, carries,
 *     argument errors;
 *  5. AUTO mul/sqr/unbalanced mul around BULK_MUL_FFT_THRESHOLD (the NTT hook) and at 40000 limbs.
 * Where the processor has MULX/ADX (bulk_mpn_adx), 1-3 run again with the column basecases.
 * Replay: --seed S (or BULK_TEST_SEED). BULK_SANITIZED=1 shrinks the largest loops. */
#include <gmp.h>

#include "bulk/bulk.h"
#include "bulk/int.h"
#include "int/cpu/mpn_mul_internal.h"
#include "int/mpn.h"
#include "int/mul_fft.h"
#include "test_util.h"

static uint64_t rng;
static int sanitized;

static const bulk_mul_method all_methods[] = { BULK_MUL_AUTO,      BULK_MUL_SCHOOLBOOK,
                                               BULK_MUL_COMBA,     BULK_MUL_KARATSUBA,
                                               BULK_MUL_TOOM3,     BULK_MUL_TOOM4,
                                               BULK_MUL_TOOM6,     BULK_MUL_TOOM8 };
#define NMETHODS (sizeof all_methods / sizeof all_methods[0])
static const char *method_name(bulk_mul_method m)
{
    static const char *names[] = { "auto", "schoolbook", "comba", "karatsuba",
                                   "toom3", "toom4", "toom6", "toom8" };
    return (unsigned)m < 8 ? names[m] : "?";
}

/* ---- operands ------------------------------------------------------------------------------ */

#define NKINDS 11
static const char *kind_name(int k)
{
    static const char *names[NKINDS] = { "random", "zero", "one", "all-ones", "single-bit",
                                         "B^k-1", "runs", "limb-mix", "top-heavy", "2^j-1",
                                         "sparse" };
    return names[k % NKINDS];
}

/* x (n limbs) = a value of the given kind. */
static void fill(bulk_limb_t *x, size_t n, int kind)
{
    kind %= NKINDS;
    memset(x, 0, n * sizeof *x);
    switch (kind) {
    case 0:
        for (size_t i = 0; i < n; i++) x[i] = test_rand(&rng);
        break;
    case 1: break;
    case 2: x[0] = 1; break;
    case 3: memset(x, 0xff, n * sizeof *x); break;
    case 4: {
        size_t bit = test_rand(&rng) % (64 * n);
        x[bit / 64] = 1ull << (bit % 64);
        break;
    }
    case 5: {
        size_t k = 1 + test_rand(&rng) % n;
        memset(x, 0xff, k * sizeof *x);
        break;
    }
    case 6: { /* long runs of 0s and 1s, random lengths up to ~3 limbs */
        size_t bit = 0, total = 64 * n;
        int one = (int)(test_rand(&rng) & 1);
        while (bit < total) {
            size_t len = 1 + test_rand(&rng) % 200;
            for (size_t b = bit; b < bit + len && b < total; b++)
                if (one) x[b / 64] |= 1ull << (b % 64);
            bit += len;
            one = !one;
        }
        break;
    }
    case 7:
        for (size_t i = 0; i < n; i++) x[i] = test_structured_limb(&rng, (int)(test_rand(&rng) % 8));
        break;
    case 8:
        for (size_t i = 0; i < n; i++) x[i] = test_rand(&rng);
        x[n - 1] = ~0ull;
        break;
    case 9: {
        size_t j = test_rand(&rng) % (64 * n + 1);
        for (size_t b = 0; b < j; b++) x[b / 64] |= 1ull << (b % 64);
        break;
    }
    default: /* a few random limbs among zeros */
        for (int t = 0; t < 3; t++) x[test_rand(&rng) % n] = test_rand(&rng);
        break;
    }
}

static bulk_limb_t *alloc_limbs(size_t n)
{
    bulk_limb_t *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- the mpn checks on one operand pair ------------------------------------------------------ */

/* Every linear op on a, b (n limbs), against GMP, with aliasing. */
static void check_linear(const bulk_limb_t *a, const bulk_limb_t *b, size_t n, const char *what)
{
    bulk_limb_t *r = alloc_limbs(n + 1), *g = alloc_limbs(n + 1), *t = alloc_limbs(n);
    bulk_limb_t c, gc;

    c = bulk_mpn_add_n(r, a, b, n);
    gc = mpn_add_n(g, a, b, n);
    CHECK(c == gc && !memcmp(r, g, n * 8), "add_n %s n=%zu", what, n);
    memcpy(t, a, n * 8);
    c = bulk_mpn_add_n(t, t, b, n); /* r == a */
    CHECK(c == gc && !memcmp(t, g, n * 8), "add_n r==a %s n=%zu", what, n);
    memcpy(t, b, n * 8);
    c = bulk_mpn_add_n(t, a, t, n); /* r == b */
    CHECK(c == gc && !memcmp(t, g, n * 8), "add_n r==b %s n=%zu", what, n);

    c = bulk_mpn_sub_n(r, a, b, n);
    gc = mpn_sub_n(g, a, b, n);
    CHECK(c == gc && !memcmp(r, g, n * 8), "sub_n %s n=%zu", what, n);
    memcpy(t, a, n * 8);
    c = bulk_mpn_sub_n(t, t, b, n);
    CHECK(c == gc && !memcmp(t, g, n * 8), "sub_n r==a %s n=%zu", what, n);
    memcpy(t, b, n * 8);
    c = bulk_mpn_sub_n(t, a, t, n);
    CHECK(c == gc && !memcmp(t, g, n * 8), "sub_n r==b %s n=%zu", what, n);

    bulk_limb_t l = b[0];
    c = bulk_mpn_add_1(r, a, n, l);
    gc = mpn_add_1(g, a, n, l);
    CHECK(c == gc && !memcmp(r, g, n * 8), "add_1 %s n=%zu", what, n);
    memcpy(t, a, n * 8);
    c = bulk_mpn_add_1(t, t, n, l);
    CHECK(c == gc && !memcmp(t, g, n * 8), "add_1 r==a %s n=%zu", what, n);
    c = bulk_mpn_sub_1(r, a, n, l);
    gc = mpn_sub_1(g, a, n, l);
    CHECK(c == gc && !memcmp(r, g, n * 8), "sub_1 %s n=%zu", what, n);
    memcpy(t, a, n * 8);
    c = bulk_mpn_sub_1(t, t, n, l);
    CHECK(c == gc && !memcmp(t, g, n * 8), "sub_1 r==a %s n=%zu", what, n);

    unsigned cnts[] = { 1, 2, 31, 32, 33, 62, 63, (unsigned)(1 + b[0] % 63) };
    for (size_t k = 0; k < sizeof cnts / sizeof cnts[0]; k++) {
        unsigned s = cnts[k];
        c = bulk_mpn_lshift(r, a, n, s);
        gc = mpn_lshift(g, a, n, s);
        CHECK(c == gc && !memcmp(r, g, n * 8), "lshift %u %s n=%zu", s, what, n);
        memcpy(t, a, n * 8);
        c = bulk_mpn_lshift(t, t, n, s);
        CHECK(c == gc && !memcmp(t, g, n * 8), "lshift r==a %u %s n=%zu", s, what, n);
        c = bulk_mpn_rshift(r, a, n, s);
        gc = mpn_rshift(g, a, n, s);
        CHECK(c == gc && !memcmp(r, g, n * 8), "rshift %u %s n=%zu", s, what, n);
        memcpy(t, a, n * 8);
        c = bulk_mpn_rshift(t, t, n, s);
        CHECK(c == gc && !memcmp(t, g, n * 8), "rshift r==a %u %s n=%zu", s, what, n);
    }

    bulk_limb_t ls[] = { 0, 1, ~0ull, b[0], b[n - 1] };
    for (size_t k = 0; k < sizeof ls / sizeof ls[0]; k++) {
        l = ls[k];
        c = bulk_mpn_mul_1(r, a, n, l);
        gc = mpn_mul_1(g, a, n, l);
        CHECK(c == gc && !memcmp(r, g, n * 8), "mul_1 %s n=%zu", what, n);
        memcpy(t, a, n * 8);
        c = bulk_mpn_mul_1(t, t, n, l);
        CHECK(c == gc && !memcmp(t, g, n * 8), "mul_1 r==a %s n=%zu", what, n);
        memcpy(r, b, n * 8);
        memcpy(g, b, n * 8);
        c = bulk_mpn_addmul_1(r, a, n, l);
        gc = mpn_addmul_1(g, a, n, l);
        CHECK(c == gc && !memcmp(r, g, n * 8), "addmul_1 %s n=%zu", what, n);
        memcpy(r, b, n * 8);
        memcpy(g, b, n * 8);
        c = bulk_mpn_submul_1(r, a, n, l);
        gc = mpn_submul_1(g, a, n, l);
        CHECK(c == gc && !memcmp(r, g, n * 8), "submul_1 %s n=%zu", what, n);
    }

    int cm = bulk_mpn_cmp(a, b, n), gm = mpn_cmp(a, b, n);
    CHECK(cm == (gm > 0) - (gm < 0), "cmp %s n=%zu", what, n);
    CHECK(bulk_mpn_cmp(a, a, n) == 0, "cmp equal %s n=%zu", what, n);

    c = bulk_mpn_neg(r, a, n);
    gc = mpn_neg(g, a, n);
    CHECK(c == gc && !memcmp(r, g, n * 8), "neg %s n=%zu", what, n);

    /* divexact_1 by small divisors of a known multiple: (a mod 2^(64n - 8)) * d / d */
    bulk_limb_t ds[] = { 1, 2, 3, 6, 7, 30, 45, 96 };
    for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
        memcpy(t, a, n * 8);
        t[n - 1] &= 0x00ffffffffffffffull;
        r[n] = 0;
        bulk_limb_t top = bulk_mpn_mul_1(r, t, n, ds[k]);
        CHECK(top == 0, "divexact setup");
        bulk_mpn_divexact_1(r, n, ds[k]);
        CHECK(!memcmp(r, t, n * 8), "divexact_1 d=%llu %s n=%zu", (unsigned long long)ds[k],
              what, n);
    }
    free(r);
    free(g);
    free(t);
}

/* Products of a, b (n limbs) with the given methods (NULL = all), squares, mullo. */
static void check_products(const bulk_limb_t *a, const bulk_limb_t *b, size_t n, const char *what,
                           int all)
{
    bulk_limb_t *r = alloc_limbs(2 * n), *g = alloc_limbs(2 * n), *gs = alloc_limbs(2 * n);
    mpn_mul_n(g, a, b, n);
    mpn_sqr(gs, a, n);
    for (size_t k = 0; k < NMETHODS; k++) {
        bulk_mul_method m = all_methods[k];
        if (!all && k > 0 && n < bulk_mpn_method_min_n(m)) continue;
        memset(r, 0xa5, 2 * n * 8);
        bulk_mpn_mul_n_method(r, a, b, n, m);
        CHECK(!memcmp(r, g, 2 * n * 8), "mul_n %s n=%zu %s", method_name(m), n, what);
        memset(r, 0xa5, 2 * n * 8);
        bulk_mpn_sqr_method(r, a, n, m);
        CHECK(!memcmp(r, gs, 2 * n * 8), "sqr %s n=%zu %s", method_name(m), n, what);
        bulk_mpn_mul_n_method(r, a, a, n, m); /* a == b through the general entry */
        CHECK(!memcmp(r, gs, 2 * n * 8), "mul_n a==b %s n=%zu %s", method_name(m), n, what);
    }
    bulk_mpn_mul_n(r, a, b, n);
    CHECK(!memcmp(r, g, 2 * n * 8), "mul_n auto n=%zu %s", n, what);
    bulk_mpn_sqr(r, a, n);
    CHECK(!memcmp(r, gs, 2 * n * 8), "sqr auto n=%zu %s", n, what);
    memset(r, 0xa5, 2 * n * 8);
    bulk_mpn_mullo_n(r, a, b, n);
    CHECK(!memcmp(r, g, n * 8), "mullo n=%zu %s", n, what);
    CHECK(r[n] == 0xa5a5a5a5a5a5a5a5ull, "mullo wrote past n limbs, n=%zu", n);
    free(r);
    free(g);
    free(gs);
}

/* Unbalanced a (an) x b (bn), an >= bn. */
static void check_unbalanced(const bulk_limb_t *a, size_t an, const bulk_limb_t *b, size_t bn,
                             const char *what)
{
    bulk_limb_t *r = alloc_limbs(an + bn + 1), *g = alloc_limbs(an + bn);
    r[an + bn] = 0x5a5a;
    mpn_mul(g, a, an, b, bn);
    bulk_mpn_mul(r, a, an, b, bn);
    CHECK(!memcmp(r, g, (an + bn) * 8), "mul %zux%zu %s", an, bn, what);
    CHECK(r[an + bn] == 0x5a5a, "mul %zux%zu wrote past the product", an, bn);
    bulk_mpn_mul(r, b, bn, a, an); /* swapped order, accepted */
    CHECK(!memcmp(r, g, (an + bn) * 8), "mul swapped %zux%zu %s", bn, an, what);
    free(r);
    free(g);
}

/* ---- 1. exhaustive small ------------------------------------------------------------------ */

static void test_exhaustive_small(void)
{
    const bulk_limb_t alphabet[] = { 0, 1, 2, 0x8000000000000000ull, ~0ull, ~0ull - 1,
                                     0x7fffffffffffffffull, 0x100000000ull, 3 };
    size_t A = sanitized ? 6 : sizeof alphabet / sizeof alphabet[0];
    size_t count = 0;
    for (size_t n = 1; n <= 3; n++) {
        size_t total = 1;
        for (size_t i = 0; i < n; i++) total *= A;
        bulk_limb_t a[3], b[3], r[6], g[6];
        for (size_t x = 0; x < total; x++) {
            for (size_t i = 0, v = x; i < n; i++, v /= A) a[i] = alphabet[v % A];
            for (size_t y = 0; y < total; y++) {
                for (size_t i = 0, v = y; i < n; i++, v /= A) b[i] = alphabet[v % A];
                bulk_limb_t c = bulk_mpn_add_n(r, a, b, n), gc = mpn_add_n(g, a, b, n);
                CHECK(c == gc && !memcmp(r, g, n * 8), "small add n=%zu x=%zu y=%zu", n, x, y);
                c = bulk_mpn_sub_n(r, a, b, n);
                gc = mpn_sub_n(g, a, b, n);
                CHECK(c == gc && !memcmp(r, g, n * 8), "small sub n=%zu x=%zu y=%zu", n, x, y);
                int cm = bulk_mpn_cmp(a, b, n), gm = mpn_cmp(a, b, n);
                CHECK(cm == (gm > 0) - (gm < 0), "small cmp n=%zu x=%zu y=%zu", n, x, y);
                mpn_mul_n(g, a, b, n);
                for (size_t k = 1; k < NMETHODS; k++) {
                    if (n < bulk_mpn_method_min_n(all_methods[k])) continue;
                    bulk_mpn_mul_n_method(r, a, b, n, all_methods[k]);
                    CHECK(!memcmp(r, g, 2 * n * 8), "small mul %s n=%zu x=%zu y=%zu",
                          method_name(all_methods[k]), n, x, y);
                }
                bulk_mpn_mul_n(r, a, b, n);
                CHECK(!memcmp(r, g, 2 * n * 8), "small mul auto n=%zu x=%zu y=%zu", n, x, y);
                bulk_mpn_mullo_n(r, a, b, n);
                CHECK(!memcmp(r, g, n * 8), "small mullo n=%zu x=%zu y=%zu", n, x, y);
                /* unbalanced: a (n limbs) times the low bn limbs of b */
                for (size_t bn = 1; bn < n; bn++) {
                    mpn_mul(g, a, n, b, bn);
                    bulk_mpn_mul(r, a, n, b, bn);
                    CHECK(!memcmp(r, g, (n + bn) * 8), "small mul %zux%zu x=%zu y=%zu", n, bn,
                          x, y);
                }
                bulk_mpn_addmul_1(memcpy(r, a, n * 8), b, n, a[0]);
                memcpy(g, a, n * 8);
                mpn_addmul_1(g, b, n, a[0]);
                CHECK(!memcmp(r, g, n * 8), "small addmul_1 n=%zu x=%zu y=%zu", n, x, y);
                count++;
            }
            /* one-operand ops on a */
            mpn_sqr(g, a, n);
            for (size_t k = 0; k < NMETHODS; k++) {
                if (k > 0 && n < bulk_mpn_method_min_n(all_methods[k])) continue;
                bulk_mpn_sqr_method(r, a, n, all_methods[k]);
                CHECK(!memcmp(r, g, 2 * n * 8), "small sqr %s n=%zu x=%zu",
                      method_name(all_methods[k]), n, x);
            }
            for (unsigned s = 1; s < 64; s += 7) {
                bulk_limb_t c = bulk_mpn_lshift(r, a, n, s), gc = mpn_lshift(g, a, n, s);
                CHECK(c == gc && !memcmp(r, g, n * 8), "small lshift %u n=%zu x=%zu", s, n, x);
                c = bulk_mpn_rshift(r, a, n, s);
                gc = mpn_rshift(g, a, n, s);
                CHECK(c == gc && !memcmp(r, g, n * 8), "small rshift %u n=%zu x=%zu", s, n, x);
            }
        }
    }
    printf("exhaustive small: %zu operand pairs over a %zu-limb alphabet\n", count, A);
}

/* ---- 2. widths ------------------------------------------------------------------------------ */

static void test_widths(void)
{
    const size_t bits[] = { 64, 128, 192, 256, 512, 1024, 2048, 4096, 8192, 16384, 65536 };
    for (size_t w = 0; w < sizeof bits / sizeof bits[0]; w++) {
        size_t n = bits[w] / 64;
        int big = n >= 1024;
        int pairs = big ? (sanitized ? 3 : 6) : (n >= 256 ? 14 : 30);
        bulk_limb_t *a = alloc_limbs(n), *b = alloc_limbs(n);
        for (int p = 0; p < pairs; p++) {
            int ka = p % NKINDS, kb = (p / NKINDS + p * 7 + 3) % NKINDS;
            if (big) ka = p == 0 ? 0 : (int)(test_rand(&rng) % NKINDS), kb = p % 2 ? 0 : 6;
            fill(a, n, ka);
            fill(b, n, kb);
            char what[96];
            snprintf(what, sizeof what, "W=%zu a=%s b=%s", bits[w], kind_name(ka), kind_name(kb));
            if (p % 5 == 4) { /* equal operands */
                memcpy(b, a, n * 8);
                snprintf(what, sizeof what, "W=%zu a=b=%s", bits[w], kind_name(ka));
            } else if (p % 5 == 3 && mpn_cmp(a, b, n) > 0) { /* a < b */
                bulk_limb_t *t = a;
                a = b;
                b = t;
            }
            check_linear(a, b, n, what);
            check_products(a, b, n, what, 1);
            size_t bns[] = { 1, 2, n / 3 + 1, n / 2 + 1, n - 1 };
            for (size_t k = 0; k < sizeof bns / sizeof bns[0]; k++)
                if (bns[k] >= 1 && bns[k] < n && (!big || k >= 2)) check_unbalanced(a, n, b, bns[k], what);
        }
        free(a);
        free(b);
    }
    printf("widths 64..65536 bits: done\n");
}

/* ---- 3. sizes around the thresholds, and nested recursions ------------------------------------ */

static void test_sizes(const char *label, size_t maxn, size_t step)
{
    bulk_limb_t *a = alloc_limbs(maxn + 40), *b = alloc_limbs(maxn + 40);
    for (size_t n = 1; n <= maxn; n += step + (n > 64 ? n / 16 : 0)) {
        int ka = (int)(n % NKINDS), kb = (int)((n / 3) % NKINDS);
        if (n % 2) ka = kb = 0;
        fill(a, n, ka);
        fill(b, n, kb);
        char what[80];
        snprintf(what, sizeof what, "%s a=%s b=%s", label, kind_name(ka), kind_name(kb));
        check_products(a, b, n, what, 0);
        size_t bn = 1 + test_rand(&rng) % n;
        check_unbalanced(a, n, b, bn, what);
    }
    /* the exact thresholds and their neighbours */
    for (int i = 0; i < 5; i++)
        for (int d = -1; d <= 1; d++) {
            size_t ts[2] = { bulk_mul_tuning.mul_thr[i], bulk_mul_tuning.sqr_thr[i] };
            for (int t = 0; t < 2; t++) {
                size_t n = ts[t] + (size_t)d;
                if (n < 1 || n > maxn + 32) continue;
                fill(a, n, 0);
                fill(b, n, 3);
                check_products(a, b, n, "at threshold", 0);
            }
        }
    free(a);
    free(b);
    printf("sizes (%s) up to %zu limbs: done\n", label, maxn);
}

/* AUTO just above the largest finite thresholds (Toom-4/6/8 at the top of AUTO), one operand
 * pair each: these sizes are beyond the sweeps above. */
static void test_large_auto(void)
{
    size_t cands[10];
    int k = 0;
    for (int i = 2; i < 5; i++) {
        cands[k++] = bulk_mul_tuning.mul_thr[i];
        cands[k++] = bulk_mul_tuning.sqr_thr[i];
    }
    size_t limit = sanitized ? 4000 : 16384;
    for (int i = 0; i < k; i++) {
        size_t n = cands[i] == SIZE_MAX ? 0 : cands[i] + 1;
        if (n < 2 || n > limit) continue;
        bulk_limb_t *a = alloc_limbs(n), *b = alloc_limbs(n);
        bulk_limb_t *r = alloc_limbs(2 * n), *g = alloc_limbs(2 * n);
        fill(a, n, 0);
        fill(b, n, i % 2 ? 6 : 3);
        mpn_mul_n(g, a, b, n);
        bulk_mpn_mul_n(r, a, b, n);
        CHECK(!memcmp(r, g, 2 * n * 8), "large auto mul n=%zu", n);
        mpn_sqr(g, a, n);
        bulk_mpn_sqr(r, a, n);
        CHECK(!memcmp(r, g, 2 * n * 8), "large auto sqr n=%zu", n);
        bulk_mpn_mullo_n(r, a, b, n);
        mpn_mul_n(g, a, b, n);
        CHECK(!memcmp(r, g, n * 8), "large auto mullo n=%zu", n);
        /* from BULK_MUL_FFT_THRESHOLD AUTO is the NTT: force Toom-8 so it stays tested here */
        bulk_mpn_mul_n_method(r, a, b, n, BULK_MUL_TOOM8);
        CHECK(!memcmp(r, g, 2 * n * 8), "large forced toom8 n=%zu", n);
        free(a), free(b), free(r), free(g);
    }
    printf("AUTO above the Toom-4/6/8 thresholds: done\n");
}

/* The NTT hook of the dispatch (mul_fft.h): AUTO mul, sqr and unbalanced mul just below, at
 * and above BULK_MUL_FFT_THRESHOLD (random and all-ones operands: the largest convolution
 * coefficients), and one large size, against GMP. */
static void test_fft_hook(void)
{
    const size_t T = BULK_MUL_FFT_THRESHOLD;
    const size_t sizes[] = { T - 1, T, T + 1, 40000 };
    const size_t nsizes = sanitized ? 3 : 4;
    for (size_t si = 0; si < nsizes; si++) {
        size_t n = sizes[si];
        bulk_limb_t *a = alloc_limbs(n), *b = alloc_limbs(n);
        bulk_limb_t *r = alloc_limbs(2 * n), *g = alloc_limbs(2 * n);
        int kind = si == 1 ? 3 : 0; /* all-ones at exactly the threshold */
        fill(a, n, kind);
        fill(b, n, kind);
        mpn_mul_n(g, a, b, n);
        bulk_mpn_mul_n(r, a, b, n);
        CHECK(!memcmp(r, g, 2 * n * 8), "fft hook auto mul n=%zu kind=%d", n, kind);
        mpn_sqr(g, a, n);
        bulk_mpn_sqr(r, a, n);
        CHECK(!memcmp(r, g, 2 * n * 8), "fft hook auto sqr n=%zu kind=%d", n, kind);
        bulk_mpn_mul_n(r, a, a, n); /* a == b goes through the squaring */
        CHECK(!memcmp(r, g, 2 * n * 8), "fft hook auto mul a==a n=%zu kind=%d", n, kind);
        free(a), free(b), free(r), free(g);
    }
    /* unbalanced: the smaller operand below, at and above the threshold */
    const size_t un[][2] = { { 2 * T + 5, T - 1 }, { T + 7, T }, { 3 * T + 1, T + 1 } };
    const size_t nun = sanitized ? 2 : 3;
    for (size_t ui = 0; ui < nun; ui++) {
        size_t an = un[ui][0], bn = un[ui][1];
        bulk_limb_t *a = alloc_limbs(an), *b = alloc_limbs(bn);
        bulk_limb_t *r = alloc_limbs(an + bn), *g = alloc_limbs(an + bn);
        fill(a, an, ui == 1 ? 3 : 0);
        fill(b, bn, ui == 1 ? 3 : 0);
        mpn_mul(g, a, an, b, bn);
        bulk_mpn_mul(r, a, an, b, bn);
        CHECK(!memcmp(r, g, (an + bn) * 8), "fft hook unbalanced %zu x %zu", an, bn);
        bulk_mpn_mul(r, b, bn, a, an); /* swapped operands (accepted outside the contract) */
        CHECK(!memcmp(r, g, (an + bn) * 8), "fft hook unbalanced swapped %zu x %zu", bn, an);
        free(a), free(b), free(r), free(g);
    }
    printf("AUTO around the NTT threshold %zu (and %s): done\n", T,
           sanitized ? "no large size under the sanitizers" : "40000 limbs");
}

/* ---- 4. the public API ---------------------------------------------------------------------- */

static void test_public(void)
{
    const size_t widths[] = { 1, 3, 16, 64, 150 };
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        size_t L = widths[wi];
        size_t n = L <= 16 ? 1200 : (L <= 64 ? 120 : 24); /* enough work to use several threads */
        if (sanitized) n /= 4;
        bulk_limb_t *a = alloc_limbs(n * L), *b = alloc_limbs(n * L);
        for (size_t i = 0; i < n; i++) {
            fill(a + i * L, L, (int)(i % NKINDS));
            fill(b + i * L, L, (int)((i / NKINDS) % NKINDS));
            if (i % 13 == 5) memcpy(b + i * L, a + i * L, L * 8);
        }
        /* GMP results */
        bulk_limb_t *gadd = alloc_limbs(n * L), *gsub = alloc_limbs(n * L);
        bulk_limb_t *gmul = alloc_limbs(2 * n * L), *gsqr = alloc_limbs(2 * n * L);
        uint8_t *gc = malloc(n), *gb = malloc(n);
        int8_t *gcmp = malloc(n);
        for (size_t i = 0; i < n; i++) {
            const bulk_limb_t *x = a + i * L, *y = b + i * L;
            gc[i] = (uint8_t)mpn_add_n(gadd + i * L, x, y, L);
            gb[i] = (uint8_t)mpn_sub_n(gsub + i * L, x, y, L);
            mpn_mul_n(gmul + 2 * i * L, x, y, L);
            mpn_sqr(gsqr + 2 * i * L, x, L);
            int c = mpn_cmp(x, y, L);
            gcmp[i] = (int8_t)((c > 0) - (c < 0));
        }
        bulk_limb_t *r = alloc_limbs(2 * n * L), *t = alloc_limbs(n * L), *g = alloc_limbs(n * L);
        uint8_t *flag = malloc(n);
        int8_t *cmp = malloc(n);
        for (int threads = 1; threads <= 3; threads++) {
            bulk_ctx *ctx;
            int st = bulk_ctx_open(&ctx, BULK_BACKEND_CPU, threads);
            CHECK(st == BULK_OK, "ctx open");
            if (st != BULK_OK) continue;
            char what[64];
            snprintf(what, sizeof what, "limbs=%zu n=%zu threads=%d", L, n, threads);

            CHECK(bulk_int_add(ctx, r, flag, a, b, n, L) == BULK_OK, "add %s", what);
            CHECK(!memcmp(r, gadd, n * L * 8) && !memcmp(flag, gc, n), "add %s", what);
            memcpy(t, a, n * L * 8);
            CHECK(bulk_int_add(ctx, t, NULL, t, b, n, L) == BULK_OK, "add r==a %s", what);
            CHECK(!memcmp(t, gadd, n * L * 8), "add r==a %s", what);
            memcpy(t, b, n * L * 8);
            CHECK(bulk_int_add(ctx, t, NULL, a, t, n, L) == BULK_OK, "add r==b %s", what);
            CHECK(!memcmp(t, gadd, n * L * 8), "add r==b %s", what);

            CHECK(bulk_int_sub(ctx, r, flag, a, b, n, L) == BULK_OK, "sub %s", what);
            CHECK(!memcmp(r, gsub, n * L * 8) && !memcmp(flag, gb, n), "sub %s", what);
            memcpy(t, a, n * L * 8);
            CHECK(bulk_int_sub(ctx, t, flag, t, b, n, L) == BULK_OK, "sub r==a %s", what);
            CHECK(!memcmp(t, gsub, n * L * 8) && !memcmp(flag, gb, n), "sub r==a %s", what);

            CHECK(bulk_int_cmp(ctx, cmp, a, b, n, L) == BULK_OK, "cmp %s", what);
            CHECK(!memcmp(cmp, gcmp, n), "cmp %s", what);

            for (size_t k = 0; k < NMETHODS; k++) {
                bulk_mul_method m = all_methods[k];
                if (L > 64 && (m == BULK_MUL_SCHOOLBOOK || m == BULK_MUL_COMBA) && threads > 1)
                    continue;
                CHECK(bulk_int_set_methods(ctx, m, BULK_DIV_AUTO, BULK_GCD_AUTO) == BULK_OK,
                      "set_methods");
                CHECK(bulk_int_mul(ctx, r, a, b, n, L) == BULK_OK, "mul %s", what);
                CHECK(!memcmp(r, gmul, 2 * n * L * 8), "mul %s %s", method_name(m), what);
                CHECK(bulk_int_sqr(ctx, r, a, n, L) == BULK_OK, "sqr %s", what);
                CHECK(!memcmp(r, gsqr, 2 * n * L * 8), "sqr %s %s", method_name(m), what);
                CHECK(bulk_int_mul_lo(ctx, r, a, b, n, L) == BULK_OK, "mul_lo %s", what);
                int ok = 1;
                for (size_t i = 0; i < n; i++) ok &= !memcmp(r + i * L, gmul + 2 * i * L, L * 8);
                CHECK(ok, "mul_lo %s %s", method_name(m), what);
            }
            bulk_int_set_methods(ctx, BULK_MUL_AUTO, BULK_DIV_AUTO, BULK_GCD_AUTO);

            size_t W = 64 * L;
            size_t shifts[] = { 0, 1, 63, 64, 65, W - 1, W, W + 5, 64 * (L / 2) + 17 };
            for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; k++) {
                size_t s = shifts[k];
                /* oracle: mpz-free, through mpn on a zero-extended copy */
                for (int dir = 0; dir < 2; dir++) {
                    for (size_t i = 0; i < n; i++) {
                        bulk_limb_t *gi = g + i * L;
                        const bulk_limb_t *x = a + i * L;
                        memset(gi, 0, L * 8);
                        if (s >= W) continue;
                        size_t q = s / 64;
                        unsigned bs = (unsigned)(s % 64);
                        if (dir == 0) {
                            if (bs) mpn_lshift(gi + q, x, L - q, bs);
                            else memcpy(gi + q, x, (L - q) * 8);
                        } else {
                            if (bs) mpn_rshift(gi, x + q, L - q, bs);
                            else memcpy(gi, x + q, (L - q) * 8);
                        }
                    }
                    st = dir == 0 ? bulk_int_shl(ctx, r, a, s, n, L) : bulk_int_shr(ctx, r, a, s, n, L);
                    CHECK(st == BULK_OK && !memcmp(r, g, n * L * 8), "%s %zu %s",
                          dir ? "shr" : "shl", s, what);
                    memcpy(t, a, n * L * 8);
                    st = dir == 0 ? bulk_int_shl(ctx, t, t, s, n, L) : bulk_int_shr(ctx, t, t, s, n, L);
                    CHECK(st == BULK_OK && !memcmp(t, g, n * L * 8), "%s r==a %zu %s",
                          dir ? "shr" : "shl", s, what);
                }
            }

            /* argument errors */
            CHECK(bulk_int_add(NULL, r, NULL, a, b, n, L) == BULK_ERR_ARG, "add NULL ctx");
            CHECK(bulk_int_add(ctx, r, NULL, a, b, n, 0) == BULK_ERR_ARG, "add limbs=0");
            CHECK(bulk_int_add(ctx, NULL, NULL, a, b, n, L) == BULK_ERR_ARG, "add r=NULL");
            CHECK(bulk_int_add(ctx, r, NULL, a, b, 0, L) == BULK_OK, "add n=0");
            CHECK(bulk_int_mul(ctx, r, r, b, n, L) == BULK_ERR_ARG, "mul r==a must be refused");
            CHECK(bulk_int_mul(ctx, r + 1, r, b, n, L) == BULK_ERR_ARG, "mul overlap");
            CHECK(bulk_int_sqr(ctx, r, r + L, n, L) == BULK_ERR_ARG, "sqr overlap");
            CHECK(bulk_int_mul_lo(ctx, t, a, t, n, L) == BULK_ERR_ARG, "mul_lo r==b");
            memcpy(t, a, n * L * 8);
            CHECK(n < 2 || bulk_int_add(ctx, t + 1, NULL, t, b, n - 1, L) == BULK_ERR_ARG,
                  "add partial overlap");
            CHECK(bulk_int_shl(ctx, r, a, 3, n, (size_t)1 << 21) == BULK_ERR_ARG, "limbs too big");
            CHECK(bulk_int_cmp(ctx, NULL, a, b, n, L) == BULK_ERR_ARG, "cmp r=NULL");
            CHECK(bulk_int_set_methods(ctx, (bulk_mul_method)99, BULK_DIV_AUTO, BULK_GCD_AUTO) ==
                      BULK_ERR_ARG, "set_methods bad mul");
            CHECK(bulk_int_set_methods(ctx, BULK_MUL_AUTO, (bulk_div_method)7, BULK_GCD_AUTO) ==
                      BULK_ERR_ARG, "set_methods bad div");
            CHECK(bulk_int_set_methods(ctx, BULK_MUL_AUTO, BULK_DIV_AUTO, (bulk_gcd_method)-1) ==
                      BULK_ERR_ARG, "set_methods bad gcd");
            bulk_ctx_close(ctx);
        }
        free(a), free(b), free(gadd), free(gsub), free(gmul), free(gsqr), free(gc), free(gb);
        free(gcmp), free(r), free(t), free(g), free(flag), free(cmp);
    }
    printf("public API (threads 1..3, all methods): done\n");
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    const char *s = getenv("BULK_SANITIZED");
    sanitized = s && *s && strcmp(s, "0") != 0;

    test_exhaustive_small();
    test_widths();
    test_sizes("tuned thresholds", sanitized ? 300 : 700, sanitized ? 7 : 3);
    /* the column basecases too where the processor has the MULX/ADX rows (mpn_mul_adx.c) */
    int adx = bulk_mpn_adx;
    if (adx) {
        bulk_mpn_adx = 0;
        test_exhaustive_small();
        test_widths();
        test_sizes("tuned thresholds, columns", sanitized ? 100 : 200, sanitized ? 7 : 3);
        bulk_mpn_adx = adx;
    }

    /* tiny thresholds: every recursion nests several methods at small sizes */
    struct bulk_mul_tuning saved = bulk_mul_tuning;
    struct bulk_mul_tuning tiny = { 4, { 4, 9, 16, 30, 64 }, { 3, 10, 18, 36, 72 }, 6 };
    bulk_mul_tuning = tiny;
    test_sizes("tiny thresholds", sanitized ? 300 : 600, sanitized ? 9 : 5);
    bulk_mul_tuning = saved;

    test_large_auto();
    test_fft_hook();
    test_public();
    return test_finish();
}
