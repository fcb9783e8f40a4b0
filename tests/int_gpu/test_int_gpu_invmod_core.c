/* The cooperative invmod kernel (src/int/cuda/num/invmod_coop.cu, per-lane steps in
 * src/int/cuda/core/invmod_coop.h) run on the CPU for TPI simulated lanes (invmod_sim.h
 * mirrors the kernel line by line), against GMP:
 *   - the shape choice (bg_ic_shape, by width and for every int.invmod_tpi) and the cap;
 *   - the inner steps (bg_ic_inner): on random and extreme 64-bit approximations, the matrix
 *     maps (a~, b~) to 2^30 times the new pair and its rows stay within 2^30;
 *   - the linear combination across lanes (sim_ic_lin: x f + y g (+ q m), shifted by 30) for
 *     coefficients of both signs, 0 and +-2^30, structured and random words, against mpz;
 *   - y^-1 mod m (sim_invmod) against mpz_invert at every compiled shape (2 .. 32 lanes of 8
 *     words, 2 .. 16 of 16) at the widths it serves and some narrower: random odd moduli, primes, 2^k - 1,
 *     2^k + 1, long runs of ones and zeros, short moduli in wide instances, m = 1; y = 0, 1,
 *     2, m - 1, m, m + 1, y above m (up to all ones), y sharing a factor with m, y with runs.
 *     An odd modulus is never left to the one-thread kernel (the cap is never reached), an
 *     even one always is.
 * Runs without a GPU; the device runs it through test_int_gpu_powmod (label gpu). --seed S
 * replays; BULK_SANITIZED=1 shrinks. */
#include <stdio.h> /* before gmp.h: gmp_fprintf */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "invmod_sim.h"
#include "test_util.h"
#include "words_mpz.h"

static uint64_t rng;
static int sanitized;
static gmp_randstate_t rs;

/* x = a number of at most `bits` bits of a structured kind (cycling with k): random, runs of
 * ones and zeros by words, all ones, a single bit, a run of low ones. */
static void structured(mpz_t x, unsigned bits, int k)
{
    static bg_word w[BG_IC_MAX_WORDS + 1];
    int nw = (int)((bits + 31) / 32);
    switch (k % 6) {
    case 0: mpz_urandomb(x, rs, bits); return;
    case 1: mpz_rrandomb(x, rs, bits); return; /* long runs of ones and zeros */
    case 2: mpz_set_ui(x, 1), mpz_mul_2exp(x, x, bits), mpz_sub_ui(x, x, 1); return;
    case 3: mpz_set_ui(x, 0), mpz_setbit(x, (mp_bitcnt_t)(test_rand(&rng) % bits)); return;
    case 4:
        for (int j = 0; j < nw; j++)
            w[j] = (bg_word)test_structured_limb(&rng, (int)(test_rand(&rng) % 8));
        to_mpz(x, w, nw);
        mpz_fdiv_r_2exp(x, x, bits);
        return;
    default:
        mpz_set_ui(x, 1);
        mpz_mul_2exp(x, x, 1 + (mp_bitcnt_t)(test_rand(&rng) % bits));
        mpz_sub_ui(x, x, 1);
        mpz_fdiv_r_2exp(x, x, bits);
    }
}

/* ---- shape, cap, inner steps ----------------------------------------------------------------- */

static void test_shape(void)
{
    static const int wants[] = {0, 1, 2, 3, 4, 8, 16, 32, 64};
    for (size_t k = 0; k < sizeof wants / sizeof wants[0]; k++)
        for (int nw = 0; nw <= BG_IC_MAX_WORDS + 1; nw++) {
            int want = wants[k], T = 0, L = 0, ok = bg_ic_shape(nw, want, &T, &L);
            int fits = want >= 2 && (want & (want - 1)) == 0 && want <= 32 &&
                       (want * 8 >= nw || (want >= 4 && want <= 16 && want * 16 >= nw));
            if (nw < 1 || nw > BG_IC_MAX_WORDS || want == 1 ||
                (want == 0 && nw < BG_IC_MIN_WORDS)) {
                CHECK(!ok, "invmod shape nw=%d want=%d", nw, want);
                continue;
            }
            int compiled = T >= 2 && T <= 32 && (T & (T - 1)) == 0 && T * L >= nw &&
                           (L == 8 || (L == 16 && T >= 4 && T <= 16)); /* invmod_coop.cu's kernels */
            int chosen = fits ? T == want && L == (want * 8 >= nw ? 8 : 16)
                              : L == bg_ic_def_l(nw) && (T == 2 || (T / 2) * L < nw);
            CHECK(ok && compiled && chosen, "invmod shape nw=%d want=%d: T=%d L=%d", nw, want, T,
                  L);
        }
    CHECK(bg_ic_cap(16) == (64 * 16 + 29) / 30 + 4, "cap");
}

/* The matrix of bg_ic_inner against the steps done on __int128 values. */
static void test_inner(void)
{
    const int reps = sanitized ? 20000 : 400000;
    for (int rep = 0; rep < reps; rep++) {
        uint64_t a = test_structured_limb(&rng, rep), b = test_structured_limb(&rng, rep / 8) | 1;
        if (rep % 5 == 0) b = a | 1;
        if (rep % 7 == 0) a = b + (test_rand(&rng) & 0xff) - 0x80;
        int32_t c[4];
        bg_ic_inner(a, b, c);
        /* the same steps on exact values: the matrix must map (a, b) onto them */
        unsigned __int128 x = a, y = b;
        for (int j = 0; j < BG_IC_STEPS; j++) {
            if (x & 1) {
                if (x < y) {
                    unsigned __int128 t = x;
                    x = y, y = t;
                }
                x -= y;
            }
            x >>= 1;
        }
        __int128 za = (__int128)c[0] * (__int128)a + (__int128)c[1] * (__int128)b;
        __int128 zb = (__int128)c[2] * (__int128)a + (__int128)c[3] * (__int128)b;
        int64_t s0 = llabs((long long)c[0]) + llabs((long long)c[1]);
        int64_t s1 = llabs((long long)c[2]) + llabs((long long)c[3]);
        CHECK(za == (__int128)(x << BG_IC_STEPS) && zb == (__int128)(y << BG_IC_STEPS) &&
                  s0 <= (1 << BG_IC_STEPS) && s1 <= (1 << BG_IC_STEPS) && (y & 1),
              "inner rep %d: a=%#llx b=%#llx", rep, (unsigned long long)a, (unsigned long long)b);
        if (test_failures > 5) return;
    }
}

/* ---- the linear combination ------------------------------------------------------------------ */

static int32_t rand_coef(int k, int32_t other)
{
    int64_t room = (1 << BG_IC_STEPS) - llabs((long long)other);
    int64_t v;
    switch (k % 5) {
    case 0: v = room; break;
    case 1: v = -room; break;
    case 2: v = 0; break;
    default: v = room ? (int64_t)(test_rand(&rng) % (uint64_t)(2 * room + 1)) - room : 0;
    }
    return (int32_t)v;
}

/* sim_ic_lin's words and part above against floor((x f + y g + q m) / 2^30), with q m making
 * the sum divisible when withm. */
static void test_lin(void)
{
    static bg_word xw[BG_IC_MAX_WORDS], yw[BG_IC_MAX_WORDS], mw[BG_IC_MAX_WORDS],
        rw[BG_IC_MAX_WORDS];
    static lanes lx, ly, lm, lr;
    mpz_t X, Y, M, Z, R, T0;
    mpz_inits(X, Y, M, Z, R, T0, NULL);
    for (int T = 2; T <= MAXT; T *= 2)
        for (int L = 8; L <= 16 && T * L <= BG_IC_MAX_WORDS; L += 8) {
            const int N = T * L;
            for (int rep = 0; rep < (sanitized ? 40 : 300); rep++) {
                structured(X, (unsigned)(32 * N), rep);
                structured(Y, (unsigned)(32 * N), rep / 6 + 1);
                structured(M, (unsigned)(32 * N - (rep % 3 ? 0 : (int)(test_rand(&rng) % 64))),
                           rep / 3);
                mpz_setbit(M, 0);
                int withm = rep % 2;
                if (withm) { /* u, v < m */
                    mpz_mod(X, X, M);
                    mpz_mod(Y, Y, M);
                }
                int32_t f = rand_coef(rep, 0), g = rand_coef(rep / 5, f);
                if (rep % 4 == 3) f = rand_coef(rep / 7, g);
                from_mpz(xw, X, N);
                from_mpz(yw, Y, N);
                from_mpz(mw, M, N);
                to_lanes(lx, xw, N, T, L);
                to_lanes(ly, yw, N, T, L);
                to_lanes(lm, mw, N, T, L);
                bg_word minv = bg_mont_minv(mw[0]);
                int above = sim_ic_lin(lr, lx, ly, f, g, lm, minv, withm, T, L);
                mpz_mul_si(Z, X, f);
                mpz_mul_si(T0, Y, g);
                mpz_add(Z, Z, T0);
                if (withm) {
                    mpz_t q;
                    mpz_init(q);
                    mpz_set_ui(q, 1);
                    mpz_mul_2exp(q, q, BG_IC_STEPS);
                    mpz_invert(T0, M, q);
                    mpz_mul(T0, T0, Z);
                    mpz_neg(T0, T0);
                    mpz_fdiv_r_2exp(T0, T0, BG_IC_STEPS); /* q = -z m^-1 mod 2^30 */
                    mpz_addmul(Z, T0, M);
                    CHECK(mpz_divisible_2exp_p(Z, BG_IC_STEPS), "lin T=%d rep=%d: not divisible", T,
                          rep);
                    mpz_clear(q);
                }
                mpz_fdiv_q_2exp(Z, Z, BG_IC_STEPS);
                from_lanes(rw, lr, N, T, L);
                to_mpz(R, rw, N);
                mpz_set_si(T0, above);
                mpz_mul_2exp(T0, T0, (mp_bitcnt_t)(32 * N));
                mpz_add(R, R, T0);
                CHECK(mpz_cmp(R, Z) == 0, "lin T=%d L=%d rep=%d f=%d g=%d withm=%d", T, L, rep, f,
                      g, withm);
                if (test_failures > 5) goto out;
            }
        }
out:
    mpz_clears(X, Y, M, Z, R, T0, NULL);
}

/* ---- the inverse ------------------------------------------------------------------------------- */

static size_t inverses, worst_it;
static double worst_ratio;

/* One simulated inverse of y mod m (nw words) at shape T x L against GMP. */
static void check_inv(const mpz_t Y, const mpz_t M, int nw, int T, int L, const char *what)
{
    static bg_word yw[BG_IC_MAX_WORDS], mw[BG_IC_MAX_WORDS], rw[BG_IC_MAX_WORDS];
    mpz_t R, E, G;
    mpz_inits(R, E, G, NULL);
    from_mpz(yw, Y, nw);
    from_mpz(mw, M, nw);
    memset(rw, 0xa5, sizeof rw);
    int iters, st = sim_invmod(rw, yw, mw, nw, T, L, &iters);
    int ok;
    if (mpz_even_p(M)) {
        ok = st == 2;
    } else {
        int inv = mpz_cmp_ui(M, 1) == 0 ? 1 : mpz_invert(E, Y, M) != 0;
        if (mpz_cmp_ui(M, 1) == 0) mpz_set_ui(E, 0);
        if (!inv) mpz_set_ui(E, 0);
        to_mpz(R, rw, nw);
        ok = st == (inv ? 0 : 1) && mpz_cmp(R, E) == 0;
        size_t bound =
            (mpz_sizeinbase(Y, 2) + mpz_sizeinbase(M, 2) + BG_IC_STEPS - 1) / BG_IC_STEPS;
        if ((size_t)iters > worst_it) worst_it = (size_t)iters;
        if (bound && (double)iters / (double)bound > worst_ratio)
            worst_ratio = (double)iters / (double)bound;
        ok &= (size_t)iters <= bound + 2;
    }
    CHECK(ok, "invmod %s: %d bits T=%d L=%d st=%d iters=%d", what, 32 * nw, T, L, st, iters);
    if (!ok && test_failures <= 3) gmp_fprintf(stderr, "  y = %#Zx\n  m = %#Zx\n", Y, M);
    inverses++;
    mpz_clears(R, E, G, NULL);
}

/* Moduli of kind k with at most `bits` bits: 0 random odd top bit set, 1 prime (<= 1024 bits),
 * 2 2^bits - 1, 3 2^(bits-1) + 1, 4 runs (mpz_rrandomb), 5 a short modulus (<= 96 bits), 6
 * random, any length, 7 low ones then zeros then a top bit. */
static void modulus(mpz_t M, unsigned bits, int k)
{
    switch (k % 8) {
    case 0: mpz_urandomb(M, rs, bits), mpz_setbit(M, bits - 1); break;
    case 1: /* primes up to 1024 bits (mpz_nextprime is slow beyond), then random odd */
        if (bits > 1024) {
            mpz_urandomb(M, rs, bits);
            break;
        }
        do {
            mpz_urandomb(M, rs, bits);
            mpz_setbit(M, bits - 1);
            mpz_nextprime(M, M);
        } while (mpz_sizeinbase(M, 2) > bits);
        break;
    case 2: mpz_set_ui(M, 1), mpz_mul_2exp(M, M, bits), mpz_sub_ui(M, M, 1); break;
    case 3: mpz_set_ui(M, 1), mpz_mul_2exp(M, M, bits - 1), mpz_add_ui(M, M, 1); break;
    case 4: mpz_rrandomb(M, rs, bits); break;
    case 5: mpz_urandomb(M, rs, 2 + (unsigned)(test_rand(&rng) % 95)); break;
    case 6: mpz_urandomb(M, rs, 1 + (unsigned)(test_rand(&rng) % bits)); break;
    default:
        mpz_set_ui(M, 1);
        mpz_mul_2exp(M, M, 1 + (mp_bitcnt_t)(test_rand(&rng) % (bits / 2)));
        mpz_sub_ui(M, M, 1);
        mpz_setbit(M, bits - 1);
    }
    mpz_setbit(M, 0);
}

/* y of kind k for m (nw words): 0 random below m, 1 random full width (may exceed m), 2 0,
 * 3 1, 4 m - 1, 5 m, 6 m + 1 (mod 2^(32 nw)), 7 all ones, 8 a multiple of a factor of m (or
 * of m), 9 runs, 10 2, 11 (m + 1) / 2. */
static void operand(mpz_t Y, const mpz_t M, int nw, int k)
{
    mpz_t t;
    mpz_init(t);
    switch (k % 12) {
    case 0: mpz_urandomm(Y, rs, M); break;
    case 1: mpz_urandomb(Y, rs, (mp_bitcnt_t)(32 * nw)); break;
    case 2: mpz_set_ui(Y, 0); break;
    case 3: mpz_set_ui(Y, 1); break;
    case 4: mpz_sub_ui(Y, M, 1); break;
    case 5: mpz_set(Y, M); break;
    case 6: mpz_add_ui(Y, M, 1); break;
    case 7:
        mpz_set_ui(Y, 1), mpz_mul_2exp(Y, Y, (mp_bitcnt_t)(32 * nw)), mpz_sub_ui(Y, Y, 1);
        break;
    case 8: { /* a small factor of m if it has one below 1000, else m itself, times a random */
        unsigned long p = 3;
        while (p < 1000 && !mpz_divisible_ui_p(M, p)) p += 2;
        if (p < 1000)
            mpz_set_ui(t, p);
        else
            mpz_set(t, M);
        mpz_urandomb(Y, rs, (mp_bitcnt_t)(32 * nw - mpz_sizeinbase(t, 2)));
        mpz_mul(Y, Y, t);
        break;
    }
    case 9: mpz_rrandomb(Y, rs, (mp_bitcnt_t)(32 * nw)); break;
    case 10: mpz_set_ui(Y, 2); break;
    default: mpz_add_ui(Y, M, 1), mpz_fdiv_q_2exp(Y, Y, 1);
    }
    mpz_fdiv_r_2exp(Y, Y, (mp_bitcnt_t)(32 * nw)); /* the instance's width */
    mpz_clear(t);
}

/* Every compiled shape at the widths it serves by default (N / 2 < nw <= N, and nw = 16 at 2 x
 * 8) and at narrower ones (the tuning's shapes: nw = N / 4 and 1 .. 4 words); the wide shapes
 * with fewer samples. */
static void test_inverse(void)
{
    mpz_t M, Y;
    mpz_inits(M, Y, NULL);
    for (int T = 2; T <= MAXT; T *= 2)
        for (int L = 8; L <= 16 && T * L <= BG_IC_MAX_WORDS; L += 8) {
            const int N = T * L;
            int widths[5] = {N, N / 2 + 2, N / 2 + 1 + (int)(test_rand(&rng) % (unsigned)(N / 2)),
                             N / 4, 1 + (int)(test_rand(&rng) % 4)};
            int samples = N <= 32 ? 1000 : N <= 64 ? 400 : N <= 128 ? 150 : 60;
            if (sanitized) samples = N <= 32 ? 60 : 8;
            for (int wi = 0; wi < 5; wi++) {
                int nw = widths[wi];
                for (int s = 0; s < samples / (wi >= 3 ? 4 : 1); s++) {
                    unsigned cut = s % 3 == 1 && nw > 2 ? (unsigned)(test_rand(&rng) % 40) : 0;
                    modulus(M, (unsigned)(32 * nw) - cut, s);
                    mpz_fdiv_r_2exp(M, M, (mp_bitcnt_t)(32 * nw)); /* short kinds in 1 word */
                    mpz_setbit(M, 0);
                    operand(Y, M, nw, s / 8 + s);
                    check_inv(Y, M, nw, T, L, "sample");
                    if (test_failures > 5) goto out;
                }
                /* m = 1, and even moduli (left to the one-thread kernel) */
                mpz_set_ui(M, 1);
                operand(Y, M, nw, 1);
                check_inv(Y, M, nw, T, L, "m = 1");
                mpz_urandomb(M, rs, (mp_bitcnt_t)(32 * nw));
                mpz_clrbit(M, 0);
                check_inv(Y, M, nw, T, L, "even m");
                mpz_set_ui(M, 0);
                check_inv(Y, M, nw, T, L, "m = 0");
            }
        }
out:
    mpz_clears(M, Y, NULL);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    sanitized = test_sanitized();
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)rng);
    test_shape();
    test_inner();
    test_lin();
    test_inverse();
    printf("invmod: %zu simulated inverses checked against GMP; at most %zu outer iterations, "
           "%.3f of (bitlen(y) + bitlen(m)) / 30\n",
           inverses, worst_it, worst_ratio);
    gmp_randclear(rs);
    return test_finish();
}
