/* The Lucas kernel of isprime's device path (src/int/cuda/num/lucas_coop.cu, per-lane steps in
 * src/int/cuda/core/lucas_coop.h) run on the CPU for TPI simulated lanes (lucas_sim.h mirrors
 * the kernel line by line), against GMP:
 *   - the modular sum, difference and halving across lanes on random and extreme operands
 *     (0, 1, m - 1, x = y) at every compiled shape;
 *   - U_d, V_d and Q^d mod m, d = (m + 1) / 2^s odd, against a reference written with mpz by
 *     other formulas (the V ladder V_2k = V_k^2 - 2 Q^k, V_2k+1 = V_k V_k+1 - P Q^k, then
 *     D U_d = 2 V_d+1 - P V_d), for Selfridge's D (chosen here with mpz_si_kronecker) and
 *     for large D of both signs, at every compiled shape (TPI 4 with L 2..8, TPI 8..32 with L
 *     6 and 8) at widths 64 .. 4096 bits: primes, the strong base-2 pseudoprimes below 10^6 (tests/int/spsp2_gen.h),
 *     strong Lucas pseudoprimes, Mersenne numbers (d = 1 at 2^p - 1), numbers with long runs
 *     of trailing ones, random odd numbers;
 *   - the shape choice (bg_lc_shape) and the exponent's bits (bg_lc_exp, bg_lc_bit).
 * Runs without a GPU; the device runs it through test_int_prime_gpu (label gpu). --seed S
 * replays; BULK_SANITIZED=1 shrinks. */
#include <stdio.h> /* before gmp.h: gmp_fprintf */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "lucas_ref.h"
#include "lucas_sim.h"
#include "test_util.h"
#include "words_mpz.h"
#include "../int/spsp2_gen.h"

static uint64_t rng;
static int sanitized;
static gmp_randstate_t rs;

/* ---- the steps ---------------------------------------------------------------------------------- */

static void rand_below(bg_word *w, const mpz_t M, int nw, int kind)
{
    mpz_t x;
    mpz_init(x);
    if (kind == 0) mpz_set_ui(x, 0);
    else if (kind == 1) mpz_set_ui(x, 1);
    else if (kind == 2) mpz_sub_ui(x, M, 1);
    else mpz_urandomm(x, rs, M);
    from_mpz(w, x, nw);
    mpz_clear(x);
}

/* sim_add, sim_sub, sim_half against mpz at every shape. */
static void test_steps(void)
{
    static bg_word m[256], x[256], y[256], r[256];
    static lanes lm, lx, ly, lr;
    mpz_t M, X, Y, R, Z;
    mpz_inits(M, X, Y, R, Z, NULL);
    for (int T = 4; T <= MAXT; T *= 2)
        for (int L = 2; L <= 8; L += 2)
            for (int rep = 0; rep < (sanitized ? 8 : 60); rep++) {
                int N = T * L, nw = rep % 3 == 0 ? N : 1 + (int)(test_rand(&rng) % (unsigned)N);
                memset(m, 0, sizeof m);
                for (int j = 0; j < nw; j++) m[j] = (bg_word)test_structured_limb(&rng, rep);
                m[0] |= 1;
                if (rep % 4 == 1) m[nw - 1] |= 0x80000000u;
                if (rep % 7 == 3) memset(m, 0xff, sizeof(bg_word) * (size_t)nw);
                to_mpz(M, m, N);
                if (mpz_cmp_ui(M, 1) == 0) continue;
                rand_below(x, M, N, rep % 5);
                if (rep % 6 == 5) memcpy(y, x, sizeof y);
                else rand_below(y, M, N, (rep / 5) % 5);
                to_mpz(X, x, N);
                to_mpz(Y, y, N);
                to_lanes(lm, m, N, T, L);
                to_lanes(lx, x, N, T, L);
                to_lanes(ly, y, N, T, L);
                for (int op = 0; op < 3; op++) {
                    if (op == 0) sim_add(lr, lx, ly, lm, T, L), mpz_add(Z, X, Y);
                    if (op == 1) sim_sub(lr, lx, ly, lm, T, L), mpz_sub(Z, X, Y);
                    if (op == 2) {
                        memcpy(lr, lx, sizeof lr);
                        sim_half(lr, lm, T, L);
                        mpz_set_ui(Z, 2);
                        mpz_invert(Z, Z, M);
                        mpz_mul(Z, Z, X);
                    }
                    mpz_mod(Z, Z, M);
                    from_lanes(r, lr, N, T, L);
                    to_mpz(R, r, N);
                    CHECK(mpz_cmp(R, Z) == 0, "step %s T=%d L=%d nw=%d rep=%d",
                          op == 0 ? "add" : op == 1 ? "sub" : "half", T, L, nw, rep);
                }
            }
    mpz_clears(M, X, Y, R, Z, NULL);
}

/* ---- the ladder ----------------------------------------------------------------------------------- */

static size_t ladders;

/* One simulated ladder for m (nw words) and D at shape T x L against ref_lucas. */
static void check_lucas(const mpz_t M, int64_t D, int nw, int T, int L, const char *what)
{
    static bg_word m[256], u[256], v[256], q[256];
    mpz_t U, V, Qd, R;
    mpz_inits(U, V, Qd, R, NULL);
    from_mpz(m, M, nw);
    int st = sim_lucas(u, v, q, m, nw, D, T, L);
    int ok = st == 0 && ref_lucas(U, V, Qd, M, D);
    to_mpz(R, u, nw);
    ok &= mpz_cmp(R, U) == 0;
    to_mpz(R, v, nw);
    ok &= mpz_cmp(R, V) == 0;
    to_mpz(R, q, nw);
    ok &= mpz_cmp(R, Qd) == 0;
    CHECK(ok, "lucas %s: %d bits T=%d L=%d D=%lld", what, 32 * nw, T, L, (long long)D);
    if (!ok && test_failures <= 3) gmp_fprintf(stderr, "  m = %#Zx\n", M);
    ladders++;
    mpz_clears(U, V, Qd, R, NULL);
}

/* A number of the given kind and at most `bits` bits: 0 prime, 1 random odd, 2 trailing ones,
 * 3 product of two primes, 4 all ones (2^bits - 1). */
static void sample(mpz_t M, unsigned bits, int kind)
{
    mpz_t p;
    mpz_init(p);
    if (kind == 0) {
        do { /* a prime of exactly `bits` bits */
            mpz_urandomb(M, rs, bits);
            mpz_setbit(M, bits - 1);
            mpz_nextprime(M, M);
        } while (mpz_sizeinbase(M, 2) > bits);
    } else if (kind == 3 && bits >= 16) {
        mpz_urandomb(p, rs, bits / 2);
        mpz_setbit(p, bits / 2 - 1);
        mpz_nextprime(p, p);
        mpz_urandomb(M, rs, bits - bits / 2 - 1);
        mpz_setbit(M, bits - bits / 2 - 2);
        mpz_nextprime(M, M);
        mpz_mul(M, M, p);
    } else if (kind == 4) {
        mpz_set_ui(M, 1);
        mpz_mul_2exp(M, M, bits);
        mpz_sub_ui(M, M, 1);
    } else {
        mpz_urandomb(M, rs, bits);
        mpz_setbit(M, bits - 1);
        if (kind == 2) { /* a run of trailing ones across words: s large */
            unsigned run = 1 + (unsigned)(test_rand(&rng) % (bits - 1));
            for (unsigned b = 0; b < run; b++) mpz_setbit(M, b);
            mpz_clrbit(M, run);
        }
    }
    mpz_setbit(M, 0);
    mpz_clear(p);
}

/* Every compiled shape (4 lanes of 2 .. 8 words, 8 .. 32 lanes of 6 or 8) at the widths it serves (nw <= T L < 2 nw, or T L <= 16), on samples of every
 * kind with Selfridge's D and with a large D; the widths past 1024 bits less often. */
static void test_ladder(void)
{
    static const int bits[] = {64, 128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096};
    mpz_t M;
    mpz_init(M);
    for (size_t wi = 0; wi < sizeof bits / sizeof bits[0]; wi++) {
        int nw = bits[wi] / 32;
        if (sanitized && nw > 32) break;
        for (int T = 4; T <= MAXT; T *= 2)
            for (int L = 2; L <= 8; L += 2) {
                if (T * L < nw || (T * L >= 2 * nw && T * L > 16) || (T > 4 && L < 6)) continue;
                int kinds = nw <= 32 && !sanitized ? 10 : nw <= 64 ? 3 : 1;
                for (int k = 0; k < kinds; k++) {
                    int kind = (k + (int)wi) % 5;
                    unsigned b = (unsigned)bits[wi] - (k % 3 == 1 ? (unsigned)(test_rand(&rng) % 40) : 0);
                    sample(M, b, kind);
                    int64_t D = ref_selfridge(M);
                    if (D == 0) continue;
                    check_lucas(M, D, nw, T, L, kind == 0 ? "prime" : kind == 4 ? "2^b - 1" : "odd");
                    if (k == 0) { /* a large D = 1 mod 4 prime to M, both signs */
                        int64_t big = (int64_t)(test_rand(&rng) >> 3) * 4 + 1;
                        mpz_t g;
                        mpz_init_set_si(g, (long)big);
                        mpz_gcd(g, g, M);
                        if (mpz_cmp_ui(g, 1) == 0) check_lucas(M, big, nw, T, L, "large D");
                        mpz_set_si(g, (long)(-big + 2));
                        mpz_gcd(g, g, M);
                        if (mpz_cmp_ui(g, 1) == 0) check_lucas(M, -big + 2, nw, T, L, "large -D");
                        mpz_clear(g);
                    }
                }
            }
    }
    mpz_clear(M);
}

/* Small numbers in 64- and 256-bit instances at the default shape: the spsp(2) below 10^6,
 * strong Lucas pseudoprimes, small primes and Mersenne numbers 2^p - 1 (d = 1 at the top). */
static void test_small_sets(void)
{
    static const uint64_t slpsp[] = {5459, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309,
                                     58519, 75077, 97439, 100127, 113573, 115639, 130139};
    spsp2_list G;
    CHECK(spsp2_generate(&G, sanitized ? 100000 : 1000000) == 0, "spsp2_generate");
    mpz_t M;
    mpz_init(M);
    for (int wide = 0; wide < 2; wide++) {
        int nw = wide ? 8 : 2, T, L;
        CHECK(bg_lc_shape(nw, &T, &L), "shape %d", nw);
        size_t total = G.nspsp + sizeof slpsp / sizeof slpsp[0] + 40 + 60;
        for (size_t i = 0; i < total; i++) {
            size_t k = i;
            if (k < G.nspsp) mpz_set_ui(M, G.spsp[k]);
            else if ((k -= G.nspsp) < sizeof slpsp / sizeof slpsp[0]) mpz_set_ui(M, slpsp[k]);
            else if ((k -= sizeof slpsp / sizeof slpsp[0]) < 40) { /* the primes from 7 */
                mpz_set_ui(M, 5);
                for (size_t j = 0; j <= k; j++) mpz_nextprime(M, M);
            } else { /* 2^p - 1 and 2^p + 1 - 2 = odd neighbours of powers of two */
                k -= 40;
                unsigned p = 3 + (unsigned)(k / 2) % (unsigned)(32 * nw - 3);
                mpz_set_ui(M, 1);
                mpz_mul_2exp(M, M, p);
                if (k % 2) mpz_add_ui(M, M, 1);
                else mpz_sub_ui(M, M, 1);
            }
            int64_t D = ref_selfridge(M);
            if (D == 0) continue;
            check_lucas(M, D, nw, T, L, "small set");
        }
    }
    mpz_clear(M);
    spsp2_free(&G);
}

/* bg_lc_shape holds the width with lanes of at most 8 words, the fewest lanes; bg_lc_exp and
 * bg_lc_bit give (m + 1) / 2^s. */
static void test_shape_exp(void)
{
    for (int nw = 0; nw <= BG_LC_MAX_WORDS + 1; nw++) {
        int T = 0, L = 0, ok = bg_lc_shape(nw, &T, &L);
        if (nw < 1 || nw > BG_LC_MAX_WORDS) {
            CHECK(!ok, "lucas shape nw=%d", nw);
            continue;
        }
        CHECK(ok && T * L >= nw && L >= 2 && L <= 8 && L % 2 == 0 && T >= 4 && T <= 32 &&
                  (T & (T - 1)) == 0 && (T == 4 || (T / 2) * 8 < nw) && T * (L - 2) < nw &&
                  (T == 4 || L >= 6), /* the shapes lucas_coop.cu compiles */
              "lucas shape nw=%d: T=%d L=%d", nw, T, L);
    }
    static bg_word m[256];
    mpz_t M, D, B;
    mpz_inits(M, D, B, NULL);
    for (int rep = 0; rep < 400; rep++) {
        int nw = 1 + rep % 16;
        sample(M, (unsigned)(32 * nw - (rep % 3 ? (int)(test_rand(&rng) % 31) : 0)), rep % 5);
        if (mpz_sizeinbase(M, 2) < 2) continue;
        from_mpz(m, M, nw);
        int s, mbits, n = bg_lc_exp(m, nw, &s, &mbits);
        mpz_add_ui(D, M, 1);
        size_t z = mpz_scan1(D, 0);
        mpz_tdiv_q_2exp(D, D, z);
        mpz_set_ui(B, 0);
        for (int i = 0; i < n; i++)
            if (bg_lc_bit(m, s, i)) mpz_setbit(B, (mp_bitcnt_t)i);
        CHECK((size_t)s == z && (size_t)mbits == mpz_sizeinbase(M, 2) &&
                  (size_t)n == mpz_sizeinbase(D, 2) && mpz_cmp(B, D) == 0,
              "lucas exponent rep %d", rep);
    }
    mpz_clears(M, D, B, NULL);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    sanitized = test_sanitized();
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)rng);
    test_shape_exp();
    test_steps();
    test_small_sets();
    test_ladder();
    printf("lucas ladder: %zu simulated ladders checked against GMP\n", ladders);
    gmp_randclear(rs);
    return test_finish();
}
