/* Division, GCD, modular inverse and powmod against GMP (mpz_tdiv_qr, mpz_gcd, mpz_invert,
 * mpz_powm): every method forced at every width of the matrix, random and structured operands,
 * the public per-instance error contract, and identical results for 1, 2 and 3 threads.
 *
 * Options: --seed S (replay), BULK_SANITIZED=1 shrinks the counts (sanitizer builds). */
#include <gmp.h>

#include "bulk/int.h"
#include "int/cpu/mpn_mul_internal.h"
#include "int/mpn_div.h"
#include "test_util.h"

static const size_t widths[] = { 64, 128, 192, 256, 512, 1024, 1216, 1984, 2048, 4096, 8192, 16384, 65536 };
#define NW (sizeof widths / sizeof widths[0])
static int sanitized;

/* ---- operands ------------------------------------------------------------------------------- */

#define NKINDS 12
/* kind: 0 zero, 1 one, 2 all ones, 3 one bit, 4 B^k - 1, 5 runs of 0s and 1s, 6 random,
 * 7 random of random length, 8 top limb 1, 9 top limb all-ones, 10 structured limbs,
 * 11 small (one limb). */
static void gen(bulk_limb_t *a, size_t n, uint64_t *st, int kind)
{
    memset(a, 0, n * sizeof *a);
    switch (kind % NKINDS) {
    case 0: break;
    case 1: a[0] = 1; break;
    case 2: memset(a, 0xff, n * sizeof *a); break;
    case 3: {
        size_t b = test_rand(st) % (64 * n);
        a[b / 64] = 1ull << (b % 64);
        break;
    }
    case 4: {
        size_t k = 1 + test_rand(st) % n;
        memset(a, 0xff, k * sizeof *a);
        break;
    }
    case 5: {
        size_t bit = 0, total = 64 * n;
        int one = (int)(test_rand(st) & 1);
        while (bit < total) {
            size_t len = 1 + test_rand(st) % 200;
            for (size_t j = bit; j < bit + len && j < total; j++)
                if (one) a[j / 64] |= 1ull << (j % 64);
            bit += len;
            one ^= 1;
        }
        break;
    }
    case 6:
        for (size_t i = 0; i < n; i++) a[i] = test_rand(st);
        break;
    case 7: {
        size_t len = 1 + test_rand(st) % n;
        for (size_t i = 0; i < len; i++) a[i] = test_rand(st);
        break;
    }
    case 8:
        for (size_t i = 0; i + 1 < n; i++) a[i] = test_rand(st);
        a[n - 1] = 1;
        break;
    case 9:
        for (size_t i = 0; i + 1 < n; i++) a[i] = test_rand(st);
        a[n - 1] = ~0ull;
        break;
    case 10: {
        int k = (int)(test_rand(st) % 8);
        for (size_t i = 0; i < n; i++) a[i] = test_structured_limb(st, k);
        break;
    }
    case 11: a[0] = test_rand(st) >> (test_rand(st) % 64); break;
    }
}

static void to_mpz(mpz_t z, const bulk_limb_t *a, size_t n) { mpz_import(z, n, -1, 8, 0, 0, a); }

/* Does a (n limbs) equal z? */
static int eq_mpz(const bulk_limb_t *a, size_t n, const mpz_t z)
{
    size_t zn = (mpz_sizeinbase(z, 2) + 63) / 64;
    if (mpz_sgn(z) < 0 || zn > n) return 0;
    bulk_limb_t *t = calloc(n, sizeof *t);
    size_t cnt = 0;
    mpz_export(t, &cnt, -1, 8, 0, 0, z);
    int ok = memcmp(t, a, n * sizeof *a) == 0;
    free(t);
    return ok;
}

/* The operand kind of case c of `cases`: every kind in turn (and in varying pairs, by salt)
 * when there are enough cases, else mostly random kinds (the wide widths have few cases). */
static int pick_kind(size_t c, size_t cases, uint64_t *st, int salt)
{
    if (cases >= 2 * NKINDS && c < 2 * NKINDS)
        return (int)((c * (size_t)(2 * salt + 1) + (c / NKINDS) * (size_t)salt) % NKINDS);
    if (c % 3 == 1) return 6; /* full-width random: the general case, at every width */
    return c % 3 == 0 ? (int)(test_rand(st) % NKINDS) : 6 + (int)(test_rand(st) % 6);
}

/* How many random cases per width (fewer for the wide ones, to bound the run time). */
static size_t cases_for(size_t limbs, size_t base)
{
    size_t c = base;
    if (limbs >= 16) c = base / 2;
    if (limbs >= 64) c = base / 6;
    if (limbs >= 256) c = base / 20;
    if (limbs >= 1024) c = 6;
    if (sanitized) c = c / 4 + 1;
    return c ? c : 1;
}

/* ---- division ------------------------------------------------------------------------------- */

/* One mpn-level division against mpz_tdiv_qr. */
static void check_div_one(const bulk_limb_t *a, size_t an, const bulk_limb_t *d, size_t dn,
                          bulk_div_method m, const char *what)
{
    bulk_limb_t *q = test_xmalloc(an * 8), *r = test_xmalloc(dn * 8);
    bulk_limb_t *tp = test_xmalloc(bulk_mpn_divmod_scratch(an, dn) * 8);
    bulk_mpn_divmod(q, r, a, an, d, dn, m, tp);
    mpz_t A, D, Q, R;
    mpz_inits(A, D, Q, R, NULL);
    to_mpz(A, a, an);
    to_mpz(D, d, dn);
    mpz_tdiv_qr(Q, R, A, D);
    CHECK(eq_mpz(q, an, Q) && eq_mpz(r, dn, R), "divmod %s method %d an %zu dn %zu: wrong", what,
          (int)m, an, dn);
    /* also with q or r omitted */
    bulk_limb_t *q2 = test_xmalloc(an * 8), *r2 = test_xmalloc(dn * 8);
    bulk_mpn_divmod(q2, NULL, a, an, d, dn, m, tp);
    bulk_mpn_divmod(NULL, r2, a, an, d, dn, m, tp);
    CHECK(memcmp(q, q2, an * 8) == 0 && memcmp(r, r2, dn * 8) == 0,
          "divmod %s: results differ with q or r omitted", what);
    mpz_clears(A, D, Q, R, NULL);
    free(q), free(r), free(tp), free(q2), free(r2);
}

static void test_div_matrix(uint64_t seed)
{
    uint64_t st = seed ^ 0x1111;
    for (size_t wi = 0; wi < NW; wi++) {
        size_t L = widths[wi] / 64, cases = cases_for(L, 300);
        bulk_limb_t *a = test_xmalloc(2 * L * 8), *d = test_xmalloc(L * 8);
        for (size_t c = 0; c < cases; c++) {
            size_t an = (c & 1) ? 2 * L : L;
            int ka = pick_kind(c, cases, &st, 0), kd = pick_kind(c, cases, &st, 1);
            gen(a, an, &st, ka);
            gen(d, L, &st, kd);
            if (bulk_mpn_is_zero(d, L)) d[0] = 1 + (test_rand(&st) & 7);
            if (c % 7 == 3) memcpy(d, a, L * 8), d[0] |= 1; /* equal-ish operands */
            if (bulk_mpn_is_zero(d, L)) d[0] = 1;
            for (int m = BULK_DIV_KNUTH; m <= BULK_DIV_DC; m++)
                check_div_one(a, an, d, L, (bulk_div_method)m, "matrix");
            check_div_one(a, an, d, L, BULK_DIV_AUTO, "matrix");
        }
        free(a), free(d);
    }
}

/* Arbitrary shapes (an, dn) for the mpn layer: the special cases of SHINV (h - k <= 2, k = 1,
 * v = B^k, 2v > B^h) and of Algorithm D (dn = 1, 2). */
static void test_div_shapes(uint64_t seed)
{
    uint64_t st = seed ^ 0x2222;
    size_t rounds = sanitized ? 1000 : 10000;
    for (size_t c = 0; c < rounds; c++) {
        size_t an = 1 + test_rand(&st) % (c < rounds / 2 ? 12 : 200);
        size_t dn = 1 + test_rand(&st) % an;
        bulk_limb_t *a = test_xmalloc(an * 8), *d = test_xmalloc(dn * 8);
        gen(a, an, &st, (int)(test_rand(&st) % NKINDS));
        gen(d, dn, &st, (int)(test_rand(&st) % NKINDS));
        if (c % 5 == 0) { /* d = B^k or 2^j B^k */
            memset(d, 0, dn * 8);
            d[dn - 1] = 1ull << (test_rand(&st) % 64);
        }
        if (bulk_mpn_is_zero(d, dn)) d[dn - 1] = 1;
        for (int m = BULK_DIV_KNUTH; m <= BULK_DIV_DC; m++)
            check_div_one(a, an, d, dn, (bulk_div_method)m, "shapes");
        free(a), free(d);
    }
}

/* Quotient digits that need Algorithm D's add-back (step D6), built on purpose: d has random top
 * limbs (d1 d0, top bit set) and all-ones below; a = qhat (d1 d0) B^(dn-2). The 3-by-2 estimate
 * of the digit is qhat, but qhat * d exceeds a by qhat * (d mod B^(dn-2)) > 0, so the true digit
 * is qhat - 1 and the remainder has to be added back. */
static void test_div_addback(uint64_t seed)
{
    uint64_t st = seed ^ 0x3333;
    bulk_div_stats s0, s1;
    bulk_div_stats_get(&s0);
    size_t built = 0;
    for (size_t wi = 0; wi < NW; wi++) {
        size_t L = widths[wi] / 64;
        if (L < 3) continue;
        bulk_limb_t *a = test_xmalloc(2 * L * 8), *d = test_xmalloc(L * 8);
        for (int c = 0; c < 4; c++) {
            memset(d, 0xff, L * 8);
            d[L - 1] = test_rand(&st) | (1ull << 63);
            d[L - 2] = test_rand(&st);
            bulk_limb_t qhat = test_rand(&st) | 2;
            memset(a, 0, 2 * L * 8);
            bulk_limb_t top[2] = { d[L - 2], d[L - 1] };
            a[L] = bulk_mpn_mul_1(a + L - 2, top, 2, qhat);
            if (c & 1) a[0] = test_rand(&st); /* a lower limb too, below the window */
            check_div_one(a, 2 * L, d, L, BULK_DIV_KNUTH, "add-back");
            check_div_one(a, 2 * L, d, L, BULK_DIV_NEWTON, "add-back");
            built++;
        }
        free(a), free(d);
    }
    bulk_div_stats_get(&s1);
    CHECK(s1.knuth_addbacks - s0.knuth_addbacks >= built,
          "add-back step ran %llu times for %zu constructed cases",
          s1.knuth_addbacks - s0.knuth_addbacks, built);
}

/* Watt's SHINV alone: floor(B^h / v), and whether the iteration itself was exact. */
static void test_shinv(uint64_t seed)
{
    uint64_t st = seed ^ 0x4444;
    size_t rounds = sanitized ? 1000 : 5000, inexact = 0;
    for (size_t c = 0; c < rounds; c++) {
        size_t vn = 1 + test_rand(&st) % (c < rounds / 2 ? 10 : 150);
        size_t h = vn - 1 + test_rand(&st) % (2 * vn + 6);
        if (h == 0) h = 1;
        bulk_limb_t *v = test_xmalloc(vn * 8), *w = test_xmalloc((h + 2) * 8);
        bulk_limb_t *tp = test_xmalloc(bulk_mpn_shinv_scratch(h, vn) * 8);
        gen(v, vn, &st, 6 + (int)(test_rand(&st) % 6));
        v[vn - 1] |= c % 3 == 0 ? 1 : test_rand(&st) | 1;
        long corr = bulk_mpn_shinv(w, h, v, vn, tp);
        if (corr != 0) inexact++;
        CHECK(corr >= -1 && corr <= 1, "shinv h %zu vn %zu: Watt's value off by %ld", h, vn, corr);
        mpz_t V, P;
        mpz_inits(V, P, NULL);
        to_mpz(V, v, vn);
        mpz_ui_pow_ui(P, 2, 64 * h);
        mpz_fdiv_q(P, P, V);
        CHECK(eq_mpz(w, h + 2, P), "shinv h %zu vn %zu wrong", h, vn);
        mpz_clears(V, P, NULL);
        free(v), free(w), free(tp);
    }
    printf("shinv: Watt's value was off by one in %zu of %zu cases\n", inexact, rounds);
}

/* A scratch area of exactly `limbs` limbs followed by a canary: under the sanitizers the area
 * is malloc'd at exactly its size (ASan reports the first byte written past it); in the normal
 * build GUARD limbs of a pattern follow it and guard_ok() checks that none was written. */
#define GUARD_LIMBS 2048
#define GUARD_PATTERN 0xC0FFEE0DDF00D5A5ull
static bulk_limb_t *guarded(size_t limbs)
{
    size_t g = sanitized ? 0 : GUARD_LIMBS;
    bulk_limb_t *p = test_xmalloc((limbs + g) * 8);
    for (size_t i = 0; i < g; i++) p[limbs + i] = GUARD_PATTERN ^ i;
    return p;
}
static int guard_ok(const bulk_limb_t *p, size_t limbs)
{
    size_t g = sanitized ? 0 : GUARD_LIMBS;
    for (size_t i = 0; i < g; i++)
        if (p[limbs + i] != (GUARD_PATTERN ^ i)) return 0;
    return 1;
}

/* Scratch sizes against actual use, the way the wrappers size them: bulk_mpn_divmod with the
 * area of bulk_mpn_divmod_scratch_method(an, dn, method), exactly that many limbs, on operands
 * whose NORMALIZED sizes differ from (an, dn). The method is chosen on the normalized sizes, so
 * a W/W division (an = dn: Algorithm D's small area by its declared shape) reaches Newton when
 * the divisor has high zero limbs: the heap overflow of "bulk int divmod" at 65536 bits, which
 * this test catches (ASan, or the canary in the normal build). Every divisor length from 1 limb
 * to dn is reached at the widths where AUTO can pick Newton; also the exported shinv, divmod,
 * gcd, invmod and powmod areas on operands with high zero limbs. */
static void test_scratch_exact(uint64_t seed)
{
    uint64_t st = seed ^ 0x9999;
    /* AUTO's Newton threshold may be out of reach ("never won", divmod.c); the sizing logic is
     * tested with it at 256 limbs, where it was until divide-and-conquer division came */
    const size_t keep_thr = bulk_div_newton_threshold, thr = 256;
    bulk_div_newton_threshold = thr;
    bulk_div_stats s0, s1;
    bulk_div_stats_get(&s0);
    /* (an, dn) shapes around 2 thr - 1 (where Newton first becomes reachable) and the public
     * 2W/W and W/W shapes at 65536 bits */
    const size_t shapes[][2] = { { 2 * thr - 2, 2 * thr - 2 }, { 2 * thr - 1, 2 * thr - 1 },
                                 { 2 * thr - 1, thr },         { 2 * thr, thr + 3 },
                                 { 1024, 1024 },               { 2048, 1024 },
                                 { 3 * thr, 2 * thr } };
    const size_t nshapes = sizeof shapes / sizeof shapes[0];
    mpz_t A, D, Q, R;
    mpz_inits(A, D, Q, R, NULL);
    for (size_t si = 0; si < nshapes; si++) {
        size_t an = shapes[si][0], dn = shapes[si][1];
        bulk_limb_t *a = test_xmalloc(an * 8), *d = test_xmalloc(dn * 8), *q = test_xmalloc(an * 8),
                    *r = test_xmalloc(dn * 8);
        /* divisor lengths: full, thr (Newton's smallest), the largest that still leaves a
         * quotient of thr limbs, one between, and short ones (Algorithm D) */
        size_t dls[6] = { dn, thr, an + 1 >= thr ? an + 1 - thr : 1, (thr + dn) / 2, 2, 1 };
        for (size_t k = 0; k < 6; k++) {
            size_t dl = dls[k] > dn ? dn : dls[k] < 1 ? 1 : dls[k];
            gen(a, an, &st, 6);
            memset(d, 0, dn * 8);
            for (size_t i = 0; i < dl; i++) d[i] = test_rand(&st);
            d[dl - 1] |= 1ull << (test_rand(&st) % 64);
            if (k == 2) a[an - 1] = 0; /* a one limb shorter too */
            to_mpz(A, a, an);
            to_mpz(D, d, dn);
            mpz_tdiv_qr(Q, R, A, D);
            for (int m = BULK_DIV_AUTO; m <= BULK_DIV_DC; m++) {
                size_t sl = bulk_mpn_divmod_scratch_method(an, dn, (bulk_div_method)m);
                bulk_limb_t *tp = guarded(sl);
                bulk_mpn_divmod(q, r, a, an, d, dn, (bulk_div_method)m, tp);
                CHECK(guard_ok(tp, sl), "divmod an %zu dn %zu (divisor %zu limbs) method %d: "
                      "wrote past its %zu-limb scratch area", an, dn, dl, m, sl);
                CHECK(eq_mpz(q, an, Q) && eq_mpz(r, dn, R),
                      "divmod an %zu dn %zu (divisor %zu limbs) method %d: wrong", an, dn, dl, m);
                free(tp);
            }
        }
        free(a), free(d), free(q), free(r);
    }
    bulk_div_stats_get(&s1);
    unsigned long long newton = 0;
    for (int i = 0; i < 6; i++) newton += s1.newton_adjust[i] - s0.newton_adjust[i];
    CHECK(newton > 0, "scratch test: no division went through Newton");
    bulk_div_newton_threshold = keep_thr;
    mpz_clears(A, D, Q, R, NULL);

    /* shinv, gcd, invmod, powmod at widths on both sides of the Newton threshold, moduli and
     * operands with high zero limbs, exact areas */
    const size_t Ls[] = { thr - 1, thr, 2 * thr, 1024 };
    for (size_t li = 0; li < sizeof Ls / sizeof Ls[0]; li++) {
        size_t L = Ls[li];
        /* modulus limbs: full, or high zero limbs (a third of the way above thr) */
        size_t ml = (li & 1) || L <= thr ? L : thr + (L - thr) / 3;
        bulk_limb_t *a = test_xmalloc(L * 8), *b = test_xmalloc(L * 8), *m = test_xmalloc(L * 8),
                    *r = test_xmalloc(L * 8), *e = test_xmalloc(L * 8);
        gen(a, L, &st, 6);
        gen(b, L, &st, 7);
        memset(m, 0, L * 8);
        for (size_t i = 0; i < ml; i++) m[i] = test_rand(&st);
        m[0] |= 1;
        m[ml - 1] |= 1ull << 63;
        memset(e, 0, L * 8);
        e[0] = test_rand(&st) >> 40; /* short exponent: the cost is the REDC, not the test */
        size_t sl = bulk_mpn_shinv_scratch(2 * L, ml);
        bulk_limb_t *tp = guarded(sl), *w = test_xmalloc((2 * L + 2) * 8);
        bulk_mpn_shinv(w, 2 * L, m, ml, tp);
        CHECK(guard_ok(tp, sl), "shinv h %zu vn %zu: wrote past its scratch", 2 * L, ml);
        free(tp), free(w);
        mpz_t X, Y, Z, M;
        mpz_inits(X, Y, Z, M, NULL);
        to_mpz(X, a, L);
        to_mpz(Y, b, L);
        to_mpz(M, m, L);
        sl = bulk_mpn_gcd_scratch(L);
        tp = guarded(sl);
        bulk_mpn_gcd(r, a, b, L, BULK_GCD_AUTO, tp);
        mpz_gcd(Z, X, Y);
        CHECK(guard_ok(tp, sl) && eq_mpz(r, L, Z), "gcd L %zu: scratch or result", L);
        bulk_mpn_gcd(r, a, b, L, BULK_GCD_BINARY, tp);
        CHECK(guard_ok(tp, sl) && eq_mpz(r, L, Z), "binary gcd L %zu: scratch or result", L);
        free(tp);
        sl = bulk_mpn_invmod_scratch(L);
        tp = guarded(sl);
        int rc = bulk_mpn_invmod(r, a, m, L, tp);
        int inv = mpz_invert(Z, X, M);
        CHECK(guard_ok(tp, sl), "invmod L %zu modulus %zu limbs: wrote past its scratch", L, ml);
        CHECK(inv ? rc == BULK_OK && eq_mpz(r, L, Z) : rc == BULK_ERR_NOT_INVERTIBLE,
              "invmod L %zu modulus %zu limbs: wrong", L, ml);
        free(tp);
        sl = bulk_mpn_powmod_scratch(L);
        tp = guarded(sl);
        rc = bulk_mpn_powmod(r, a, e, m, L, tp);
        to_mpz(Y, e, L);
        mpz_powm(Z, X, Y, M);
        CHECK(guard_ok(tp, sl), "powmod L %zu modulus %zu limbs: wrote past its scratch", L, ml);
        CHECK(rc == BULK_OK && eq_mpz(r, L, Z), "powmod L %zu modulus %zu limbs: wrong", L, ml);
        free(tp);
        mpz_clears(X, Y, Z, M, NULL);
        free(a), free(b), free(m), free(r), free(e);
    }
}

/* The public divmod at 65536 bits (1024 limbs), 2W/W and W/W, AUTO and Newton, on divisors of
 * every length class: the wrapper sizes its per-worker area with
 * bulk_mpn_divmod_scratch_method and (under ASan) allocates exactly that, so this is the
 * reproducer of the "double free or corruption" of cli_int_random at the API level. */
static void test_public_wide(uint64_t seed)
{
    uint64_t st = seed ^ 0xaaaa;
    const size_t L = 1024, thr = bulk_div_newton_threshold, tc = bulk_div_dc_threshold;
    /* divisor lengths: full; Newton's smallest (thr) and the largest that leaves a quotient of
     * thr limbs in W/W (both need thr <= L, else their Algorithm D neighbours); short ones; the
     * same two and one below for divide-and-conquer's threshold tc */
    const size_t dls[] = { L,  thr <= L ? thr : L / 2, thr <= L ? L + 1 - thr : L / 3, 700, 40, 1,
                           tc, L + 1 - tc,             tc > 1 ? tc - 1 : 1 };
    const size_t n = sizeof dls / sizeof dls[0];
    bulk_limb_t *a = test_xmalloc(n * 2 * L * 8), *d = test_xmalloc(n * L * 8), *q = test_xmalloc(n * 2 * L * 8),
                *r = test_xmalloc(n * L * 8);
    int8_t err[sizeof dls / sizeof dls[0]];
    for (size_t i = 0; i < n; i++) {
        gen(a + i * 2 * L, 2 * L, &st, 6);
        memset(d + i * L, 0, L * 8);
        for (size_t j = 0; j < dls[i]; j++) d[i * L + j] = test_rand(&st);
        d[i * L + dls[i] - 1] |= 1;
    }
    bulk_ctx *ctx;
    CHECK(bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) == BULK_OK, "ctx open");
    mpz_t A, D, Q, R;
    mpz_inits(A, D, Q, R, NULL);
    const bulk_div_method methods[] = { BULK_DIV_AUTO, BULK_DIV_NEWTON, BULK_DIV_DC };
    for (int mi = 0; mi < 3; mi++) {
        const int dm = (int)methods[mi];
        bulk_int_set_methods(ctx, BULK_MUL_AUTO, methods[mi], BULK_GCD_AUTO);
        for (size_t an = L; an <= 2 * L; an += L) {
            bulk_limb_t *ac = test_xmalloc(n * an * 8);
            for (size_t i = 0; i < n; i++) memcpy(ac + i * an, a + i * 2 * L, an * 8);
            int rc = bulk_int_divmod(ctx, q, r, ac, an, d, n, L, err);
            CHECK(rc == BULK_OK, "public divmod 65536 bits a_limbs %zu method %d: rc %d", an, dm, rc);
            for (size_t i = 0; i < n; i++) {
                to_mpz(A, ac + i * an, an);
                to_mpz(D, d + i * L, L);
                mpz_tdiv_qr(Q, R, A, D);
                CHECK(err[i] == 0 && eq_mpz(q + i * an, an, Q) && eq_mpz(r + i * L, L, R),
                      "public divmod 65536 bits a_limbs %zu method %d divisor %zu limbs: wrong",
                      an, dm, dls[i]);
            }
            free(ac);
        }
    }
    mpz_clears(A, D, Q, R, NULL);
    bulk_ctx_close(ctx);
    free(a), free(d), free(q), free(r);
}

/* ---- divide-and-conquer division (div_dc.c) ------------------------------------------------- */

/* bulk_mpn_div_dc on a (an limbs) by d (dn limbs), both with high zero limbs stripped first (its
 * contract: d's top limb nonzero, an >= dn), with the recursion threshold thr, in scratch, q and
 * r areas of exactly their sizes (ASan; a canary after the scratch in the normal build), with q
 * or r omitted too; against mpz_tdiv_qr. Returns 1 when the shape was a real division. */
static int dc_check(const bulk_limb_t *a, size_t an, const bulk_limb_t *d, size_t dn, size_t thr,
                    const char *what)
{
    an = bulk_mpn_normalized_size(a, an);
    dn = bulk_mpn_normalized_size(d, dn);
    if (dn == 0 || an < dn) return 0;
    size_t keep = bulk_div_dc_threshold, qn = an - dn + 1, sl = bulk_mpn_div_dc_scratch(an, dn);
    bulk_div_dc_threshold = thr;
    bulk_limb_t *q = test_xmalloc(qn * 8), *r = test_xmalloc(dn * 8), *tp = guarded(sl);
    bulk_limb_t *q2 = test_xmalloc(qn * 8), *r2 = test_xmalloc(dn * 8);
    bulk_mpn_div_dc(q, r, a, an, d, dn, tp);
    CHECK(guard_ok(tp, sl), "dc %s an %zu dn %zu thr %zu: wrote past its scratch", what, an, dn, thr);
    bulk_mpn_div_dc(q2, NULL, a, an, d, dn, tp);
    bulk_mpn_div_dc(NULL, r2, a, an, d, dn, tp);
    CHECK(guard_ok(tp, sl), "dc %s an %zu dn %zu thr %zu: wrote past its scratch (q or r NULL)",
          what, an, dn, thr);
    bulk_div_dc_threshold = keep;
    mpz_t A, D, Q, R;
    mpz_inits(A, D, Q, R, NULL);
    to_mpz(A, a, an);
    to_mpz(D, d, dn);
    mpz_tdiv_qr(Q, R, A, D);
    CHECK(eq_mpz(q, qn, Q) && eq_mpz(r, dn, R), "dc %s an %zu dn %zu thr %zu: wrong", what, an,
          dn, thr);
    CHECK(memcmp(q, q2, qn * 8) == 0 && memcmp(r, r2, dn * 8) == 0,
          "dc %s an %zu dn %zu thr %zu: results differ with q or r omitted", what, an, dn, thr);
    mpz_clears(A, D, Q, R, NULL);
    free(q), free(r), free(tp), free(q2), free(r2);
    return 1;
}

/* Recursion thresholds: the smallest the code allows (blocks of 4 limbs split into 2 + 2), odd
 * ones (uneven halves at every level), and the tuned one. */
static size_t dc_thresholds(size_t i)
{
    static const size_t t[] = { 1, 4, 5, 7, 11, 16, 0 };
    return t[i] ? t[i] : bulk_div_dc_threshold;
}
#define DC_NTHR 7

/* Random and structured operands of random shapes around the thresholds: divisors from 1 to
 * ~6 thr limbs, quotients from 1 to ~4 dn + 3 thr limbs (short quotient blocks, several full
 * blocks, a partial top block). */
static void test_dc_shapes(uint64_t seed)
{
    uint64_t st = seed ^ 0xdc01;
    size_t rounds = sanitized ? 100 : 1000, real = 0;
    for (size_t ti = 0; ti < DC_NTHR; ti++) {
        size_t thr = dc_thresholds(ti), T = thr < 4 ? 4 : thr;
        for (size_t c = 0; c < rounds; c++) {
            size_t dn = 1 + test_rand(&st) % (6 * T);
            size_t qn = 1 + test_rand(&st) % (c & 1 ? 3 * T : 4 * dn + 3 * T);
            size_t an = dn + qn - 1;
            bulk_limb_t *a = test_xmalloc(an * 8), *d = test_xmalloc(dn * 8);
            gen(a, an, &st, c % 4 == 0 ? (int)(test_rand(&st) % NKINDS) : 6);
            gen(d, dn, &st, c % 3 == 0 ? (int)(test_rand(&st) % NKINDS) : 6);
            if (c % 5 == 1) d[dn - 1] |= 1ull << 63; /* normalized already: no shift */
            if (c % 5 == 2) d[dn - 1] = 1;           /* shift by 63 */
            if (bulk_mpn_is_zero(d, dn)) d[dn - 1] = 1;
            real += (size_t)dc_check(a, an, d, dn, thr, "shapes");
            free(a), free(d);
        }
    }
    CHECK(real > rounds, "dc shapes: only %zu real divisions", real);
}

/* a = q d + r with chosen q and r < d: quotient limbs near B - 1 (all ones, B^k - 1), the largest
 * remainder d - 1, zero remainders, d a power of two or all ones, d with high bit set or clear.
 * Then the cases where a divide-and-conquer estimate is too large on purpose: d with a random top
 * half and all-ones (or random) lower half, a = qe * (d's top half) * B^k, whose estimate from the
 * top halves is qe while the true quotient is below it (qe * d > a): the correction loops of
 * div_dc.c must run (the dc_adjust counter). */
static void test_dc_structured(uint64_t seed)
{
    uint64_t st = seed ^ 0xdc02;
    bulk_div_stats s0, s1;
    bulk_div_stats_get(&s0);
    size_t rounds = sanitized ? 40 : 240;
    for (size_t c = 0; c < rounds; c++) {
        size_t thr = dc_thresholds(c % DC_NTHR), T = thr < 4 ? 4 : thr;
        size_t dn = T + test_rand(&st) % (4 * T), qn = T + test_rand(&st) % (3 * dn);
        size_t an = dn + qn;
        bulk_limb_t *d = test_xmalloc(dn * 8), *q = test_xmalloc(qn * 8), *r = test_xmalloc(dn * 8),
                    *a = test_xmalloc(an * 8);
        int dk = (int)(c % 5), qk = (int)((c / 5) % 4), rk = (int)((c / 20) % 3);
        switch (dk) { /* divisor */
        case 0: gen(d, dn, &st, 6), d[dn - 1] |= 1ull << 63; break;
        case 1: gen(d, dn, &st, 6), d[dn - 1] = 1 + (test_rand(&st) >> 40); break;
        case 2: memset(d, 0xff, dn * 8); break;
        case 3: memset(d, 0, dn * 8), d[dn - 1] = 1ull << (test_rand(&st) % 64); break;
        default: gen(d, dn, &st, 10); if (!d[dn - 1]) d[dn - 1] = 1; break;
        }
        switch (qk) { /* quotient */
        case 0: memset(q, 0xff, qn * 8); break;
        case 1: gen(q, qn, &st, 4); break; /* B^k - 1 */
        case 2: gen(q, qn, &st, 6); break;
        default: gen(q, qn, &st, 10); break;
        }
        memset(r, 0, dn * 8); /* remainder: 0, d - 1 or random below d */
        if (rk == 1) bulk_mpn_sub_1(r, d, dn, 1);
        if (rk == 2) gen(r, dn, &st, 6), r[dn - 1] = d[dn - 1] ? test_rand(&st) % d[dn - 1] : 0;
        bulk_mpn_mul(a, q, qn, d, dn);
        bulk_mpn_add(a, a, an, r, dn);
        dc_check(a, an, d, dn, thr, "a = q d + r");
        free(d), free(q), free(r), free(a);
    }
    bulk_div_stats_get(&s1);
    unsigned long long before = s1.dc_adjust;
    /* too-large estimates: qe * D1 * B^k with D = D1 B^k + D0, D0 large */
    for (size_t c = 0; c < rounds; c++) {
        size_t thr = dc_thresholds(c % DC_NTHR), T = thr < 4 ? 4 : thr;
        size_t dn = 2 * T + test_rand(&st) % (4 * T), k = dn / 2 + test_rand(&st) % (dn / 2);
        size_t qn = T + test_rand(&st) % (2 * dn), an = dn + qn;
        bulk_limb_t *d = test_xmalloc(dn * 8), *qe = test_xmalloc(qn * 8), *a = test_xmalloc(an * 8);
        if (c & 1) memset(d, 0xff, k * 8);
        else gen(d, k, &st, 6), d[k - 1] |= 1ull << 63;
        gen(d + k, dn - k, &st, 6);
        d[dn - 1] |= 1ull << 63; /* a normalized divisor: the shift does not move the split */
        gen(qe, qn, &st, c % 3 == 0 ? 2 : 6);
        memset(a, 0, an * 8);
        bulk_mpn_mul(a + k, qe, qn, d + k, dn - k);
        if (c % 4 == 1) a[0] = test_rand(&st);
        dc_check(a, an, d, dn, thr, "estimate too large");
        free(d), free(qe), free(a);
    }
    bulk_div_stats_get(&s1);
    printf("dc: %llu divisions, %llu corrections (%llu in the too-large cases)\n",
           s1.dc_calls - s0.dc_calls, s1.dc_adjust - s0.dc_adjust, s1.dc_adjust - before);
    CHECK(s1.dc_adjust - before >= rounds / 2,
          "dc: the estimate corrections ran only %llu times in %zu too-large cases",
          s1.dc_adjust - before, rounds);
    CHECK(s1.dc_calls - s0.dc_calls >= rounds, "dc: only %llu divisions reached the recursion",
          s1.dc_calls - s0.dc_calls);
}

/* The AUTO choice and its scratch area around the divide-and-conquer threshold tc, the way the
 * wrappers size it (bulk_mpn_divmod_scratch_method(an, dn, AUTO), exactly that many limbs) on
 * operands whose normalized sizes differ from the declared ones (as test_scratch_exact for
 * Newton); and that AUTO really takes D&C there: with the Newton threshold out of reach, every
 * division with divisor and quotient of >= tc limbs must reach the recursion. */
static void test_dc_auto(uint64_t seed)
{
    uint64_t st = seed ^ 0xdc03;
    size_t keep_n = bulk_div_newton_threshold, keep_c = bulk_div_dc_threshold;
    const size_t tcs[] = { 6, 13, keep_c };
    mpz_t A, D, Q, R;
    mpz_inits(A, D, Q, R, NULL);
    for (size_t ti = 0; ti < sizeof tcs / sizeof tcs[0]; ti++) {
        size_t tc = tcs[ti];
        bulk_div_dc_threshold = tc;
        bulk_div_newton_threshold = (size_t)1 << 40;
        const size_t shapes[][2] = { { 2 * tc - 2, 2 * tc - 2 }, { 2 * tc - 1, 2 * tc - 1 },
                                     { 2 * tc - 1, tc },         { 2 * tc, tc + 3 },
                                     { 3 * tc, 2 * tc },         { 7 * tc + 5, 2 * tc + 1 } };
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
            size_t an = shapes[si][0], dn = shapes[si][1];
            bulk_limb_t *a = test_xmalloc(an * 8), *d = test_xmalloc(dn * 8),
                        *q = test_xmalloc(an * 8), *r = test_xmalloc(dn * 8);
            size_t dls[5] = { dn, tc, an + 1 >= tc ? an + 1 - tc : 1, tc - 1, 1 };
            for (size_t k = 0; k < 5; k++) {
                size_t dl = dls[k] > dn ? dn : dls[k] < 1 ? 1 : dls[k];
                gen(a, an, &st, 6);
                memset(d, 0, dn * 8);
                for (size_t i = 0; i < dl; i++) d[i] = test_rand(&st);
                d[dl - 1] |= 1ull << (test_rand(&st) % 64);
                if (k == 2) a[an - 1] = 0;
                size_t ann = bulk_mpn_normalized_size(a, an);
                int want_dc = dl >= tc && ann >= dl && ann - dl + 1 >= tc;
                to_mpz(A, a, an);
                to_mpz(D, d, dn);
                mpz_tdiv_qr(Q, R, A, D);
                size_t sl = bulk_mpn_divmod_scratch_method(an, dn, BULK_DIV_AUTO);
                bulk_limb_t *tp = guarded(sl);
                bulk_div_stats s0, s1;
                bulk_div_stats_get(&s0);
                bulk_mpn_divmod(q, r, a, an, d, dn, BULK_DIV_AUTO, tp);
                bulk_div_stats_get(&s1);
                CHECK(guard_ok(tp, sl), "dc auto tc %zu an %zu dn %zu (divisor %zu limbs): wrote "
                      "past its %zu-limb scratch area", tc, an, dn, dl, sl);
                CHECK(eq_mpz(q, an, Q) && eq_mpz(r, dn, R),
                      "dc auto tc %zu an %zu dn %zu (divisor %zu limbs): wrong", tc, an, dn, dl);
                CHECK((s1.dc_calls > s0.dc_calls) == want_dc,
                      "dc auto tc %zu an %zu dn %zu (divisor %zu limbs): D&C %s", tc, an, dn, dl,
                      want_dc ? "not taken" : "taken below its threshold");
                free(tp);
            }
            free(a), free(d), free(q), free(r);
        }
    }
    bulk_div_dc_threshold = keep_c;
    bulk_div_newton_threshold = keep_n;
    mpz_clears(A, D, Q, R, NULL);
}

/* ---- gcd, invmod, powmod at the mpn level -------------------------------------------------- */

static void test_gcd_matrix(uint64_t seed)
{
    uint64_t st = seed ^ 0x5555;
    for (size_t wi = 0; wi < NW; wi++) {
        size_t L = widths[wi] / 64, cases = cases_for(L, 300);
        bulk_limb_t *a = test_xmalloc(L * 8), *b = test_xmalloc(L * 8), *g = test_xmalloc(L * 8),
                    *g2 = test_xmalloc(L * 8), *tp = test_xmalloc(bulk_mpn_gcd_scratch(L) * 8);
        mpz_t A, B, G, X;
        mpz_inits(A, B, G, X, NULL);
        for (size_t c = 0; c < cases; c++) {
            gen(a, L, &st, pick_kind(c, cases, &st, 0));
            gen(b, L, &st, pick_kind(c, cases, &st, 3));
            if (c % 9 == 4) memcpy(b, a, L * 8); /* equal operands */
            if (c % 9 == 5 && L > 1) {           /* a large common factor g: a = g x, b = g y */
                size_t gl = L / 2;
                bulk_limb_t *gg = test_xmalloc(L * 8), *x = test_xmalloc(L * 8);
                gen(gg, gl, &st, 6);
                gen(x, L - gl, &st, 6);
                memset(a, 0, L * 8);
                bulk_mpn_mul(a, x, L - gl, gg, gl);
                gen(x, L - gl, &st, 6);
                memset(b, 0, L * 8);
                bulk_mpn_mul(b, x, L - gl, gg, gl);
                free(gg), free(x);
            }
            if (c % 9 == 6) { /* common powers of two */
                unsigned s = (unsigned)(test_rand(&st) % 64);
                if (s) bulk_mpn_lshift(a, a, L, s), bulk_mpn_lshift(b, b, L, s);
                a[0] &= ~0ull << s, b[0] &= ~0ull << s;
            }
            to_mpz(A, a, L);
            to_mpz(B, b, L);
            mpz_gcd(G, A, B);
            size_t gn = bulk_mpn_gcd_binary(g, a, b, L, tp);
            CHECK(eq_mpz(g, L, G) && gn == bulk_mpn_normalized_size(g, L),
                  "gcd binary W %zu case %zu wrong", widths[wi], c);
            bulk_mpn_gcd_approx(g2, a, b, L, tp);
            CHECK(eq_mpz(g2, L, G), "gcd approx W %zu case %zu wrong", widths[wi], c);
            bulk_mpn_gcd_approx(g2, b, a, L, tp);
            CHECK(eq_mpz(g2, L, G), "gcd approx (swapped) W %zu case %zu wrong", widths[wi], c);
        }
        mpz_clears(A, B, G, X, NULL);
        free(a), free(b), free(g), free(g2), free(tp);
    }
}

static void test_invmod_matrix(uint64_t seed)
{
    uint64_t st = seed ^ 0x6666;
    for (size_t wi = 0; wi < NW; wi++) {
        size_t L = widths[wi] / 64, cases = cases_for(L, 240);
        bulk_limb_t *a = test_xmalloc(L * 8), *m = test_xmalloc(L * 8), *r = test_xmalloc(L * 8),
                    *tp = test_xmalloc(bulk_mpn_invmod_scratch(L) * 8);
        mpz_t A, M, R;
        mpz_inits(A, M, R, NULL);
        for (size_t c = 0; c < cases; c++) {
            gen(a, L, &st, pick_kind(c, cases, &st, 0));
            gen(m, L, &st, pick_kind(c, cases, &st, 2));
            if (c % 4 == 1) m[0] |= 1; /* odd moduli make inverses common */
            if (c == 7) memset(m, 0, L * 8), m[0] = 1;
            to_mpz(A, a, L);
            to_mpz(M, m, L);
            int st_ = bulk_mpn_invmod(r, a, m, L, tp);
            if (mpz_sgn(M) == 0) {
                CHECK(st_ == BULK_ERR_DIVZERO && bulk_mpn_is_zero(r, L), "invmod m = 0");
            } else if (mpz_cmp_ui(M, 1) == 0) {
                CHECK(st_ == BULK_OK && bulk_mpn_is_zero(r, L), "invmod m = 1");
            } else if (mpz_invert(R, A, M)) {
                CHECK(st_ == BULK_OK && eq_mpz(r, L, R), "invmod W %zu case %zu wrong (st %d)",
                      widths[wi], c, st_);
            } else {
                CHECK(st_ == BULK_ERR_NOT_INVERTIBLE && bulk_mpn_is_zero(r, L),
                      "invmod W %zu case %zu: expected NOT_INVERTIBLE, got %d", widths[wi], c, st_);
            }
        }
        mpz_clears(A, M, R, NULL);
        free(a), free(m), free(r), free(tp);
    }
}

static void test_powmod_matrix(uint64_t seed)
{
    uint64_t st = seed ^ 0x7777;
    for (size_t wi = 0; wi < NW; wi++) {
        size_t L = widths[wi] / 64;
        size_t cases = L >= 1024 ? 2 : L >= 256 ? 4 : L >= 64 ? 10 : L >= 16 ? 40 : 150;
        if (sanitized) cases = cases / 3 + 1;
        /* exponent limbs: full at small widths; short where a full one costs too much */
        size_t el = L >= 1024 ? 1 : L >= 128 ? 2 : L >= 32 ? 4 : L;
        bulk_limb_t *b = test_xmalloc(L * 8), *e = test_xmalloc(L * 8), *m = test_xmalloc(L * 8),
                    *r = test_xmalloc(L * 8), *tp = test_xmalloc(bulk_mpn_powmod_scratch(L) * 8);
        mpz_t B, E, M, R;
        mpz_inits(B, E, M, R, NULL);
        for (size_t c = 0; c < cases; c++) {
            gen(b, L, &st, pick_kind(c, cases, &st, 0));
            gen(e, L, &st, pick_kind(c, cases, &st, 1));
            if (el < L) memset(e + el, 0, (L - el) * 8);
            gen(m, L, &st, pick_kind(c, cases, &st, 2));
            if (c % 5 != 4) m[0] |= 1; /* every fifth: possibly even */
            if (c == 3) memset(m, 0, L * 8), m[0] = 1;
            to_mpz(B, b, L);
            to_mpz(E, e, L);
            to_mpz(M, m, L);
            int s = bulk_mpn_powmod(r, b, e, m, L, tp);
            if (mpz_even_p(M)) {
                CHECK(s == BULK_ERR_EVEN_MODULUS && bulk_mpn_is_zero(r, L), "powmod even m");
            } else {
                mpz_powm(R, B, E, M);
                CHECK(s == BULK_OK && eq_mpz(r, L, R), "powmod W %zu case %zu wrong", widths[wi], c);
            }
        }
        mpz_clears(B, E, M, R, NULL);
        free(b), free(e), free(m), free(r), free(tp);
    }
}

/* The powmod matrix again with the column basecases and REDC where the processor has the
 * MULX/ADX rows (mpn_mul_adx.c), so that both forms are checked there. */
static void test_powmod_columns(uint64_t seed)
{
    int adx = bulk_mpn_adx;
    if (!adx) return; /* the matrix above ran them */
    bulk_mpn_adx = 0;
    test_powmod_matrix(seed ^ 0x55);
    bulk_mpn_adx = adx;
}

/* Every pair of 1- and 2-limb numbers over a limb alphabet of edge values, for every operation
 * and method: the carries, borrows and register tails of the small cases. */
static void test_small_exhaustive(uint64_t seed)
{
    (void)seed;
    static const bulk_limb_t alpha[] = { 0, 1, 2, 3, 1ull << 32, (1ull << 63) - 1, 1ull << 63,
                                         ~0ull - 1, ~0ull };
    const size_t na = sizeof alpha / sizeof alpha[0], nv = na * na;
    bulk_limb_t tp[4096];
    if (bulk_mpn_powmod_scratch(2) > 4096 || bulk_mpn_invmod_scratch(2) > 4096 ||
        bulk_mpn_divmod_scratch(2, 2) > 4096 || bulk_mpn_gcd_scratch(2) > 4096) {
        CHECK(0, "small cases: the scratch area of the test is too small");
        return;
    }
    mpz_t A, B, Q, R, E;
    mpz_inits(A, B, Q, R, E, NULL);
    for (size_t i = 0; i < nv; i++) {
        bulk_limb_t a[2] = { alpha[i % na], alpha[i / na] };
        for (size_t j = 0; j < nv; j++) {
            bulk_limb_t b[2] = { alpha[j % na], alpha[j / na] }, g[2], q[2], r[2];
            to_mpz(A, a, 2);
            to_mpz(B, b, 2);
            mpz_gcd(Q, A, B);
            bulk_mpn_gcd_binary(g, a, b, 2, tp);
            CHECK(eq_mpz(g, 2, Q), "small gcd binary %zu %zu", i, j);
            bulk_mpn_gcd_approx(g, a, b, 2, tp);
            CHECK(eq_mpz(g, 2, Q), "small gcd approx %zu %zu", i, j);
            if (mpz_sgn(B) != 0) {
                mpz_tdiv_qr(Q, R, A, B);
                for (int m = BULK_DIV_KNUTH; m <= BULK_DIV_DC; m++) {
                    bulk_mpn_divmod(q, r, a, 2, b, 2, (bulk_div_method)m, tp);
                    CHECK(eq_mpz(q, 2, Q) && eq_mpz(r, 2, R), "small divmod %zu %zu method %d", i, j, m);
                }
            }
            int st = bulk_mpn_invmod(r, a, b, 2, tp);
            if (mpz_sgn(B) == 0) CHECK(st == BULK_ERR_DIVZERO, "small invmod m = 0");
            else if (mpz_cmp_ui(B, 1) == 0) CHECK(st == 0 && r[0] == 0 && r[1] == 0, "small invmod m = 1");
            else if (mpz_invert(R, A, B)) CHECK(st == 0 && eq_mpz(r, 2, R), "small invmod %zu %zu", i, j);
            else CHECK(st == BULK_ERR_NOT_INVERTIBLE, "small invmod %zu %zu: not invertible", i, j);
            bulk_limb_t e[2] = { alpha[(i + j) % na], 0 };
            st = bulk_mpn_powmod(r, a, e, b, 2, tp);
            if (mpz_even_p(B)) {
                CHECK(st == BULK_ERR_EVEN_MODULUS, "small powmod even m");
            } else {
                to_mpz(E, e, 2);
                mpz_powm(R, A, E, B);
                CHECK(st == 0 && eq_mpz(r, 2, R), "small powmod %zu %zu", i, j);
            }
        }
    }
    mpz_clears(A, B, Q, R, E, NULL);
}

/* ---- the public API: errors per instance, methods, threads ---------------------------------- */

static void test_public_width(uint64_t seed, size_t L)
{
    uint64_t st = seed ^ 0x8888 ^ (L << 20);
    /* enough instances that int_parallel.h really starts several threads for divmod (it keeps
     * batches under ~2e5 limb products on one thread) */
    size_t n = 300000 / (2 * L * L + L) + 64;
    if (sanitized) n = n / 8 + 16;
    bulk_limb_t *a = test_xmalloc(n * 2 * L * 8), *d = test_xmalloc(n * L * 8), *b = test_xmalloc(n * L * 8);
    for (size_t i = 0; i < n; i++) {
        gen(a + i * 2 * L, 2 * L, &st, 6 + (int)(i % 6));
        gen(d + i * L, L, &st, (int)(i % NKINDS));
        gen(b + i * L, L, &st, (int)((i * 7) % NKINDS));
        if (i % 13 == 0) memset(d + i * L, 0, L * 8); /* zero divisors / even moduli */
    }
    bulk_limb_t *a1 = test_xmalloc(n * L * 8); /* the low halves of a, L limbs apart */
    for (size_t i = 0; i < n; i++) memcpy(a1 + i * L, a + i * 2 * L, L * 8);
    bulk_limb_t *ref[4] = { 0 }, *out[4];
    int8_t *eref[2] = { 0 }, *eout[2];
    int rc_ref[4] = { 0 };
    for (int threads = 1; threads <= 3; threads++) {
        bulk_ctx *ctx;
        CHECK(bulk_ctx_open(&ctx, BULK_BACKEND_CPU, threads) == BULK_OK, "ctx open");
        for (int dm = BULK_DIV_AUTO; dm <= BULK_DIV_DC; dm++) {
            for (int an = 1; an <= 2; an++) {
                CHECK(bulk_int_set_methods(ctx, BULK_MUL_AUTO, (bulk_div_method)dm, BULK_GCD_AUTO) == 0,
                      "set methods");
                bulk_limb_t *q = test_xmalloc(n * an * L * 8), *r = test_xmalloc(n * L * 8);
                int8_t *err = test_xmalloc(n);
                memset(q, 0x5a, n * an * L * 8);
                bulk_limb_t *ac = test_xmalloc(n * an * L * 8); /* the dividends, a_limbs apart */
                for (size_t i = 0; i < n; i++) memcpy(ac + i * an * L, a + i * 2 * L, an * L * 8);
                int rc = bulk_int_divmod(ctx, q, r, ac, an * L, d, n, L, err);
                free(ac);
                CHECK(rc == BULK_ERR_DIVZERO, "divmod returned %d, want DIVZERO", rc);
                mpz_t A, D, Q, R;
                mpz_inits(A, D, Q, R, NULL);
                for (size_t i = 0; i < n; i++) {
                    const bulk_limb_t *di = d + i * L;
                    if (bulk_mpn_is_zero(di, L)) {
                        CHECK(err[i] == BULK_ERR_DIVZERO && bulk_mpn_is_zero(q + i * an * L, an * L) &&
                                  bulk_mpn_is_zero(r + i * L, L),
                              "instance %zu: division by zero not reported", i);
                        continue;
                    }
                    to_mpz(A, a + i * 2 * L, an * L);
                    to_mpz(D, di, L);
                    mpz_tdiv_qr(Q, R, A, D);
                    CHECK(err[i] == 0 && eq_mpz(q + i * an * L, an * L, Q) && eq_mpz(r + i * L, L, R),
                          "public divmod threads %d method %d a_limbs %d instance %zu wrong", threads,
                          dm, an * (int)L, i);
                }
                mpz_clears(A, D, Q, R, NULL);
                free(q), free(r), free(err);
            }
        }
        bulk_int_set_methods(ctx, BULK_MUL_AUTO, BULK_DIV_AUTO, BULK_GCD_AUTO);
        /* gcd (both methods), invmod, powmod: identical across thread counts */
        for (int k = 0; k < 4; k++) out[k] = test_xmalloc(n * L * 8);
        for (int k = 0; k < 2; k++) eout[k] = test_xmalloc(n);
        int rc[4];
        bulk_int_set_methods(ctx, BULK_MUL_AUTO, BULK_DIV_AUTO, BULK_GCD_BINARY);
        rc[0] = bulk_int_gcd(ctx, out[0], a1, b, n, L);
        bulk_int_set_methods(ctx, BULK_MUL_AUTO, BULK_DIV_AUTO, BULK_GCD_APPROX_EUCLID);
        rc[1] = bulk_int_gcd(ctx, out[1], a1, b, n, L);
        rc[2] = bulk_int_invmod(ctx, out[2], b, d, n, L, eout[0]);
        size_t pn = n / 8; /* powmod is the costly one */
        rc[3] = bulk_int_powmod(ctx, out[3], a1, b, d, pn, L, eout[1]);
        CHECK(rc[0] == 0 && rc[1] == 0, "gcd status");
        CHECK(memcmp(out[0], out[1], n * L * 8) == 0, "gcd methods disagree");
        CHECK(rc[2] == BULK_ERR_DIVZERO, "invmod: first failing instance is 0 (m = 0): got %d", rc[2]);
        CHECK(rc[3] == BULK_ERR_EVEN_MODULUS, "powmod: first failing instance has even m: got %d", rc[3]);
        mpz_t X, Y, Z, W;
        mpz_inits(X, Y, Z, W, NULL);
        for (size_t i = 0; i < n; i++) {
            to_mpz(X, a + i * 2 * L, L);
            to_mpz(Y, b + i * L, L);
            mpz_gcd(Z, X, Y);
            CHECK(eq_mpz(out[1] + i * L, L, Z), "public gcd instance %zu wrong", i);
            to_mpz(W, d + i * L, L);
            int e = eout[0][i];
            if (mpz_sgn(W) == 0) CHECK(e == BULK_ERR_DIVZERO, "invmod err %zu", i);
            else if (mpz_cmp_ui(W, 1) == 0) CHECK(e == 0 && bulk_mpn_is_zero(out[2] + i * L, L), "invmod m=1");
            else if (mpz_invert(Z, Y, W)) CHECK(e == 0 && eq_mpz(out[2] + i * L, L, Z), "public invmod %zu", i);
            else CHECK(e == BULK_ERR_NOT_INVERTIBLE && bulk_mpn_is_zero(out[2] + i * L, L), "invmod ni %zu", i);
            if (i < pn) {
                int pe = eout[1][i];
                if (mpz_even_p(W)) {
                    CHECK(pe == BULK_ERR_EVEN_MODULUS && bulk_mpn_is_zero(out[3] + i * L, L),
                          "powmod err %zu", i);
                } else {
                    mpz_powm(Z, X, Y, W);
                    CHECK(pe == 0 && eq_mpz(out[3] + i * L, L, Z), "public powmod %zu", i);
                }
            }
        }
        mpz_clears(X, Y, Z, W, NULL);
        if (threads == 1) {
            for (int k = 0; k < 4; k++) ref[k] = out[k], rc_ref[k] = rc[k];
            for (int k = 0; k < 2; k++) eref[k] = eout[k];
        } else {
            for (int k = 0; k < 4; k++) {
                CHECK(memcmp(ref[k], out[k], (k == 3 ? pn : n) * L * 8) == 0 && rc[k] == rc_ref[k],
                      "op %d: threads %d differs from 1 thread", k, threads);
                free(out[k]);
            }
            CHECK(memcmp(eref[0], eout[0], n) == 0 && memcmp(eref[1], eout[1], pn) == 0,
                  "error arrays differ with %d threads", threads);
            for (int k = 0; k < 2; k++) free(eout[k]);
        }
        bulk_ctx_close(ctx);
    }
    for (int k = 0; k < 4; k++) free(ref[k]);
    for (int k = 0; k < 2; k++) free(eref[k]);
    free(a), free(a1), free(d), free(b);
}

static void test_public(uint64_t seed)
{
    static const size_t Ls[] = { 1, 3, 16, 40 };
    for (size_t i = 0; i < sizeof Ls / sizeof Ls[0]; i++) test_public_width(seed, Ls[i]);
}

/* Bad arguments are reported, not crashed on. */
static void test_args(void)
{
    bulk_ctx *ctx;
    bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1);
    bulk_limb_t a[8] = { 5, 0, 0, 0, 0, 0, 0, 0 }, d[4] = { 3, 0, 0, 0 }, q[8], r[4];
    CHECK(bulk_int_divmod(ctx, q, r, a, 3, d, 1, 2, NULL) == BULK_ERR_ARG, "a_limbs 3 of 2");
    CHECK(bulk_int_divmod(ctx, a, r, a, 2, d, 1, 2, NULL) == BULK_ERR_ARG, "q aliases a");
    CHECK(bulk_int_divmod(ctx, q, r, a, 2, d, 1, 0, NULL) == BULK_ERR_ARG, "limbs 0");
    CHECK(bulk_int_divmod(NULL, q, r, a, 2, d, 1, 2, NULL) == BULK_ERR_ARG, "ctx NULL");
    CHECK(bulk_int_gcd(ctx, a, a, d, 1, 2) == BULK_ERR_ARG, "gcd aliasing");
    CHECK(bulk_int_powmod(ctx, r, a, a, d, 1, 2, NULL) == BULK_OK && r[0] == 2, "5^5 mod 3");
    CHECK(bulk_int_invmod(ctx, r, a, d, 1, 2, NULL) == BULK_OK && r[0] == 2, "5^-1 mod 3");
    CHECK(bulk_int_divmod(ctx, q, r, a, 2, d, 0, 2, NULL) == BULK_OK, "n = 0");
    bulk_ctx_close(ctx);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    const char *s = getenv("BULK_SANITIZED");
    sanitized = s && *s && *s != '0';
    struct { const char *name; void (*fn)(uint64_t); } parts[] = {
        { "small", test_small_exhaustive }, { "add-back", test_div_addback }, { "shapes", test_div_shapes }, { "shinv", test_shinv },
        { "div matrix", test_div_matrix }, { "gcd matrix", test_gcd_matrix },
        { "invmod matrix", test_invmod_matrix }, { "powmod matrix", test_powmod_matrix },
        { "powmod, columns", test_powmod_columns },
        { "public", test_public }, { "scratch exact", test_scratch_exact },
        { "public 65536", test_public_wide }, { "dc shapes", test_dc_shapes },
        { "dc structured", test_dc_structured }, { "dc auto", test_dc_auto },
    };
    test_args();
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        struct timespec t0, t1;
        int before = test_failures;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        parts[i].fn(seed);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("%-14s %s  %.2f s\n", parts[i].name, test_failures == before ? "ok" : "FAILED",
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        fflush(stdout);
    }
    bulk_div_stats st;
    bulk_div_stats_get(&st);
    printf("stats: add-backs %llu, Newton final delta -1:%llu 0:%llu 1:%llu 2:%llu 3:%llu "
           "other:%llu, fallbacks %llu, gcd beta>0 %llu\n",
           st.knuth_addbacks, st.newton_adjust[0], st.newton_adjust[1], st.newton_adjust[2],
           st.newton_adjust[3], st.newton_adjust[4], st.newton_adjust[5], st.newton_fallbacks,
           st.gcd_beta_pos);
    CHECK(st.newton_fallbacks == 0 && st.newton_adjust[5] == 0,
          "Newton quotient outside [q - 3, q + 1]: the bound of div_newton.c does not hold");
    return test_finish();
}
