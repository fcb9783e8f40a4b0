/* The base-2 strong test kernel of isprime's device path (src/int/cuda/num/sprp2_coop.cu,
 * per-lane steps in src/int/cuda/core/mont_coop.h, lucas_coop.h, sprp2_coop.h) run on the CPU
 * for TPI simulated lanes (sprp2_sim.h mirrors the kernel line by line), against a reference
 * written with mpz (2^d mod m by mpz_powm, then the squarings):
 *   - the exponent (bg_sp_exp, bg_sp_bit) against mpz on random and structured m;
 *   - at every shape the kernel compiles (TPI 4 with L 2..8, TPI 8..32 with L 6 and 8), widths
 *     32 .. 4096 bits: primes, products of two primes, Mersenne numbers, m = k 2^s + 1 with s
 *     up to the width (many squarings after the power), random odd numbers;
 *   - the strong base-2 pseudoprimes below 10^6 (tests/int/spsp2_gen.h), Carmichael numbers,
 *     every odd n < 5000, in the narrowest shape and in a wide one (leading zero words).
 * Runs without a GPU; the device runs the kernel through test_int_prime_gpu (label gpu).
 * --seed S replays; BULK_SANITIZED=1 shrinks. */
#include <stdio.h> /* before gmp.h: gmp_fprintf */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "lucas_ref.h"
#include "sprp2_sim.h"
#include "test_util.h"
#include "words_mpz.h"
#include "../int/spsp2_gen.h"

static uint64_t rng;
static int sanitized;
static gmp_randstate_t rs;
static size_t tests, passes;

/* M at nw words (T, L: its shape or a wider one) through the simulated kernel. */
static void check(const mpz_t M, int nw, int T, int L, const char *what)
{
    static bg_word m[256];
    from_mpz(m, M, nw);
    /* 0 .. 2 leading zero bits above d, as in a warp with a longer d */
    int want = ref_sprp2(M), got = sim_sprp2(m, nw, T, L, (int)(tests % 3));
    if (got != want)
        gmp_fprintf(stderr, "%s, nw %d, shape %d x %d: m = %Zd: kernel %d, GMP %d\n", what, nw, T,
                    L, M, got, want);
    CHECK(got == want, "%s at %d words", what, nw);
    tests++;
    passes += (size_t)got;
}

/* A number of exactly `bits` bits (>= 3) of the given kind: 0 prime, 1 product of two primes,
 * 2 Mersenne 2^bits - 1, 3 k 2^s + 1 with s random up to bits - 2, else random odd. */
static void sample(mpz_t M, unsigned bits, int kind)
{
    mpz_t p;
    mpz_init(p);
    if (kind == 0) {
        do {
            mpz_urandomb(M, rs, bits);
            mpz_setbit(M, bits - 1);
            mpz_nextprime(M, M);
        } while (mpz_sizeinbase(M, 2) > bits);
    } else if (kind == 1 && bits >= 16) {
        mpz_urandomb(p, rs, bits / 2);
        mpz_setbit(p, bits / 2 - 1);
        mpz_nextprime(p, p);
        mpz_urandomb(M, rs, bits - bits / 2 - 1);
        mpz_setbit(M, bits - bits / 2 - 2);
        mpz_nextprime(M, M);
        mpz_mul(M, M, p);
        mpz_setbit(M, 0);
    } else if (kind == 2) {
        mpz_set_ui(M, 1);
        mpz_mul_2exp(M, M, bits);
        mpz_sub_ui(M, M, 1);
    } else if (kind == 3) {
        unsigned s = 1 + (unsigned)(test_rand(&rng) % (bits - 2));
        mpz_urandomb(M, rs, bits - s);
        mpz_setbit(M, bits - s - 1);
        mpz_mul_2exp(M, M, s);
        mpz_add_ui(M, M, 1);
    } else {
        mpz_urandomb(M, rs, bits);
        mpz_setbit(M, bits - 1);
        mpz_setbit(M, 0);
    }
    mpz_clear(p);
}

static void test_exp(void)
{
    static bg_word m[64];
    mpz_t M, D, B;
    mpz_inits(M, D, B, NULL);
    for (int rep = 0; rep < 600; rep++) {
        int nw = 1 + rep % 16;
        sample(M, (unsigned)(32 * nw - (int)(test_rand(&rng) % 29)), rep % 5);
        if (mpz_cmp_ui(M, 3) < 0 || mpz_sizeinbase(M, 2) > (size_t)(32 * nw)) continue;
        from_mpz(m, M, nw);
        int r, mbits, n = bg_sp_exp(m, nw, &r, &mbits);
        mpz_sub_ui(D, M, 1);
        size_t z = mpz_scan1(D, 0);
        mpz_tdiv_q_2exp(D, D, z);
        mpz_set_ui(B, 0);
        for (int i = 0; i < n; i++)
            if (bg_sp_bit(m, r + i)) mpz_setbit(B, (mp_bitcnt_t)i);
        CHECK((size_t)r == z && (size_t)mbits == mpz_sizeinbase(M, 2) &&
                  (size_t)n == mpz_sizeinbase(D, 2) && mpz_cmp(B, D) == 0,
              "sprp2 exponent rep %d", rep);
    }
    mpz_clears(M, D, B, NULL);
}

/* Every shape of bg_lc_shape, at its narrowest and widest width and between. */
static void test_shapes(void)
{
    static const int widths[] = { 1, 2, 3, 8, 9, 12, 16, 17, 24, 25, 32, 33, 40, 48, 49, 64, 65,
                                  96, 97, 128 };
    mpz_t M;
    mpz_init(M);
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        int nw = widths[w], T = 0, L = 0;
        CHECK(bg_lc_shape(nw, &T, &L), "shape %d", nw);
        int per = nw <= 16 ? 60 : nw <= 33 ? 20 : nw <= 65 ? 6 : 3;
        if (sanitized) per = per / 4 + 1;
        for (int i = 0; i < per; i++) {
            unsigned bits = (unsigned)(32 * nw) - (unsigned)(i % 3 ? test_rand(&rng) % 31 : 0);
            if (bits < 3) bits = 3;
            sample(M, bits, i % 5);
            if (mpz_cmp_ui(M, 3) < 0) continue;
            check(M, nw, T, L, "random");
        }
    }
    mpz_clear(M);
}

/* Small numbers, in the narrowest shape and with leading zero words in a wide one. */
static void test_small(void)
{
    static const uint64_t carm[] = { 561, 1105, 1729, 2465, 2821, 6601, 8911, 10585, 15841,
                                     29341, 41041, 46657, 52633, 62745, 63973, 75361 };
    spsp2_list G;
    CHECK(spsp2_generate(&G, sanitized ? 100000 : 1000000) == 0, "spsp2_generate");
    mpz_t M;
    mpz_init(M);
    for (int wide = 0; wide < 2; wide++) {
        int nw = wide ? 40 : 2, T = 0, L = 0;
        CHECK(bg_lc_shape(nw, &T, &L), "shape %d", nw);
        for (size_t i = 0; i < G.nspsp; i++) {
            mpz_set_ui(M, G.spsp[i]);
            check(M, nw, T, L, "spsp(2)");
        }
        for (size_t i = 0; i < sizeof carm / sizeof *carm; i++) {
            mpz_set_ui(M, carm[i]);
            check(M, nw, T, L, "Carmichael");
        }
        for (unsigned long v = 3; v < (wide ? 1000u : 5000u); v += 2) {
            mpz_set_ui(M, v);
            check(M, nw, T, L, "small");
        }
    }
    /* outside the contract: the kernel answers 0 */
    static bg_word m[2];
    for (bg_word v = 0; v < 3; v++) {
        m[0] = v;
        CHECK(sim_sprp2(m, 2, 4, 2, 0) == 0, "m = %u", (unsigned)v);
    }
    m[0] = 1000;
    CHECK(sim_sprp2(m, 2, 4, 2, 0) == 0, "m even");
    mpz_clear(M);
    spsp2_free(&G);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    sanitized = test_sanitized();
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)rng);
    test_exp();
    test_small();
    test_shapes();
    CHECK(passes > 100 && tests - passes > 100, "answers 1 / 0: %zu / %zu", passes, tests - passes);
    printf("base-2 strong test: %zu simulated kernels checked against GMP (%zu passed)\n", tests,
           passes);
    gmp_randclear(rs);
    return test_finish();
}
