/* bulk_int_isprime and bulk_int_nextprime on a CUDA context (isprime: trial division on the
 * device, 2^d mod n on the device's powmod, the base-2 strong probable primes finished on the
 * CPU; nextprime: its candidates in batches through that isprime; int_prime_offload.h) against
 * a CPU context and
 * GMP (mpz_probab_prime_p(x, 24), its BPSW; mpz_nextprime). Bounded to seconds: a few numbers
 * per width (a prime, a product of two primes, a square of a prime, random odd numbers) at every
 * width 1..17, 20, 24, 28, 31, 32, 33, 64 limbs, 2 extra rounds at some; 4096 random numbers of
 * 4 limbs; the strong and Fermat base-2 pseudoprimes below 2^32 (tests/int/spsp2_gen.h),
 * Carmichael numbers, n < 2048, Mersenne numbers 2^p - 1 for p <= 1279 at 20 limbs eight
 * times; nextprime at 2..33
 * limbs and its overflow past 2^64. Answers must be the same bit for bit on both contexts. The
 * device's trial division alone (the int table's trial, isprime's step 1) against the CPU's
 * (bulk_prime_trial_n, over the table isprime uses at each width and over the largest) on the
 * sets of trial_sets.h. The device's Lucas
 * sequences alone (the int table's lucas, isprime's step 4) against GMP (lucas_ref.h) at every
 * shape of the kernel, 64..8192 bits, with Selfridge's and large D; the base-2 strong test alone
 * (the int table's sprp2) likewise. Without a CUDA device
 * it prints "SKIP: no CUDA device" and exits 77. --seed S replays. */
#include <gmp.h>
#include <time.h>

#include "bulk/int.h"
#include "backend/backends.h"
#include "int/cpu/prime.h"
#include "int/int_backend.h"
#include "int/int_prime_offload.h"
#include "../test_util.h"
#include "lucas_ref.h"
#include "prime_sets.h"
#include "trial_sets.h"
#include "../int/spsp2_gen.h"

static bulk_ctx *gpu, *cpu;

/* n numbers of `limbs` limbs: GPU and CPU answers equal, and equal to want (NULL: GMP's). */
static double gpu_s; /* seconds in isprime on the GPU context */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void compare(const bulk_limb_t *a, size_t n, size_t limbs, unsigned rounds, const char *what)
{
    uint8_t *og = test_xmalloc(n), *oc = test_xmalloc(n);
    double t0 = now();
    CHECK(bulk_int_isprime(gpu, og, a, n, limbs, rounds) == BULK_OK, "%s: isprime on the GPU context: %s",
          what, bulk_ctx_last_error(gpu));
    gpu_s += now() - t0;
    CHECK(bulk_int_isprime(cpu, oc, a, n, limbs, rounds) == BULK_OK, "%s: isprime on the CPU", what);
    mpz_t x;
    mpz_init(x);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        mpz_import(x, limbs, -1, 8, 0, 0, a + i * limbs);
        int want = mpz_probab_prime_p(x, 24) != 0;
        if ((og[i] != oc[i] || oc[i] != want) && bad++ < 5)
            CHECK(0, "%s, %zu limbs, instance %zu: GPU %d, CPU %d, GMP %d", what, limbs, i, og[i], oc[i], want);
    }
    mpz_clear(x);
    free(og);
    free(oc);
}

/* A few numbers of `limbs` limbs: a prime, a product of two primes, a square of a prime, random
 * odd numbers of 0..63 bits below the width (above 40 limbs random odd numbers only). */
static void random_width(gmp_randstate_t rs, size_t limbs, size_t n, bulk_limb_t *a)
{
    mpz_t x, p;
    mpz_inits(x, p, NULL);
    for (size_t i = 0; i < n; i++) {
        unsigned bits = (unsigned)(64 * limbs) - (unsigned)(i * 7 % 64);
        /* above 40 limbs odd numbers only: GMP takes seconds for one prime of 4096 bits */
        int kind = limbs > 40 ? PRIME_SETS_ODD
                   : i % 8 == 0 ? PRIME_SETS_PRIME
                   : i % 8 == 1 ? PRIME_SETS_PRODUCT
                   : i % 8 == 2 ? PRIME_SETS_SQUARE : PRIME_SETS_ODD;
        prime_sets_sample(a + i * limbs, limbs, bits, kind, x, p, rs);
    }
    mpz_clears(x, p, NULL);
}

static void test_random(uint64_t seed)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed);
    /* every width up to 17 limbs, then some up to 64 (the device powmod takes up to 128) */
    static const size_t widths[] = { 20, 24, 28, 31, 32, 33, 64 };
    bulk_limb_t *a = test_xmalloc(8 * 64 * 8);
    for (size_t k = 0; k < 17 + sizeof widths / sizeof *widths; k++) {
        size_t limbs = k < 17 ? k + 1 : widths[k - 17], n = 8;
        random_width(rs, limbs, n, a);
        compare(a, n, limbs, 0, "random");
        if (limbs == 1 || limbs == 2 || limbs == 8 || limbs == 16 || limbs == 32)
            compare(a, n, limbs, 2, "random, 2 rounds");
    }
    free(a);
    /* many instances (several blocks) at 4 limbs */
    size_t n = 4096;
    a = test_xmalloc(n * 4 * 8);
    random_width(rs, 4, n, a);
    compare(a, n, 4, 0, "random, 4096 instances");
    free(a);
    gmp_randclear(rs);
    printf("random 64..2048 bits (every width) and 2112, 4096 bits: done\n");
}

static void test_structured(void)
{
    /* the base-2 pseudoprimes below 2^32 (strong: 2314, Fermat: 10403), 1093^2 and 3511^2
     * among them (the GPU leaves those to the CPU's square check) */
    spsp2_list G;
    CHECK(spsp2_generate(&G, (uint64_t)1 << 32) == 0 && G.nspsp == 2314 && G.npsp == 10403,
          "spsp2_generate: %zu spsp(2), %zu psp(2)", G.nspsp, G.npsp);
    bulk_limb_t *a = test_xmalloc((G.npsp + 4096) * 8);
    size_t n = 0;
    for (size_t i = 0; i < G.npsp; i++) a[n++] = G.psp[i];
    spsp2_free(&G);
    static const uint64_t carm[] = { 561, 1105, 1729, 2465, 2821, 6601, 8911, 10585, 15841, 29341,
                                     41041, 46657, 52633, 62745, 63973, 75361, 101101, 115921 };
    for (size_t i = 0; i < sizeof carm / sizeof *carm; i++) a[n++] = carm[i];
    for (uint64_t v = 0; v < 2048; v++) a[n++] = v; /* 0, 1, 2, evens, small primes */
    compare(a, n, 1, 0, "psp(2), Carmichael, small");
    free(a);
    /* Mersenne numbers 2^p - 1 (strong base-2 pseudoprimes) at 20 limbs, eight times over: 197
     * of the 207 have no factor below 256 and are not decided by trial division, so 1576 base-2
     * survivors for the CPU's part */
    size_t L = 20, copies = 8;
    a = test_xmalloc(copies * 256 * L * 8);
    size_t m = prime_sets_mersenne(a, L, 1279);
    for (size_t k = 1; k < copies; k++) memcpy(a + k * m * L, a, m * L * 8);
    compare(a, copies * m, L, 0, "Mersenne");
    free(a);
    printf("structured: done\n");
}

/* trial_sets_fn: the batch through the device's trial division against the CPU's, over the
 * table isprime uses at that width, or the one *user points to */
static void trial_batch(const bulk_limb_t *a, size_t n, size_t limbs, const char *what, void *user)
{
    bulk_prime_table own;
    const bulk_prime_table *t = user;
    if (!t) {
        CHECK(bulk_prime_table_init(&own, bulk_prime_isprime_limit(limbs)) == BULK_OK, "table");
        t = &own;
    }
    uint8_t *out = test_xmalloc(n);
    memset(out, 9, n);
    CHECK(bulk_cuda_tables()->ints->trial(gpu, out, a, n, limbs, t) == BULK_OK, "%s: trial at %zu "
          "limbs: %s", what, limbs, bulk_ctx_last_error(gpu));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        int want = bulk_prime_trial_n(a + i * limbs, limbs, t);
        if (out[i] != want && bad++ < 5)
            CHECK(0, "%s, %zu limbs, limit %u, instance %zu (low limb %llu): device %d, CPU %d",
                  what, limbs, t->limit, i, (unsigned long long)a[i * limbs], out[i], want);
    }
    free(out);
    if (t == &own) bulk_prime_table_free(&own);
}

static void test_trial(uint64_t seed)
{
    bulk_prime_table small, big;
    CHECK(bulk_prime_table_init(&small, 4096) == BULK_OK &&
          bulk_prime_table_init(&big, 65536) == BULK_OK, "tables");
    trial_sets_run(&small, seed, 0, trial_batch, NULL);
    trial_sets_run(&big, seed ^ 1, 0, trial_batch, &big);
    bulk_limb_t one = 1;
    uint8_t b = 9;
    CHECK(bulk_cuda_tables()->ints->trial(gpu, &b, &one, 0, 1, &small) == BULK_OK && b == 9,
          "trial, n = 0");
    bulk_prime_table_free(&small);
    bulk_prime_table_free(&big);
    printf("trial division on the device: agrees with the CPU's\n");
}

/* The lucas entry on n numbers of `limbs` limbs (odd, > 1, D invertible) against ref_lucas. */
static void lucas_batch(const bulk_limb_t *m, const int64_t *d, size_t n, size_t limbs, const char *what)
{
    size_t b = n * limbs * 8;
    bulk_limb_t *u = test_xmalloc(b), *v = test_xmalloc(b), *q = test_xmalloc(b);
    CHECK(bulk_cuda_tables()->ints->lucas(gpu, u, v, q, m, d, n, limbs) == BULK_OK, "%s: lucas at "
          "%zu limbs: %s", what, limbs, bulk_ctx_last_error(gpu));
    mpz_t M, U, V, Q, x;
    mpz_inits(M, U, V, Q, x, NULL);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        mpz_import(M, limbs, -1, 8, 0, 0, m + i * limbs);
        int ok = ref_lucas(U, V, Q, M, d[i]);
        mpz_import(x, limbs, -1, 8, 0, 0, u + i * limbs);
        ok &= mpz_cmp(x, U) == 0;
        mpz_import(x, limbs, -1, 8, 0, 0, v + i * limbs);
        ok &= mpz_cmp(x, V) == 0;
        mpz_import(x, limbs, -1, 8, 0, 0, q + i * limbs);
        ok &= mpz_cmp(x, Q) == 0;
        if (!ok && bad++ < 5)
            CHECK(0, "%s, %zu limbs, instance %zu (D = %lld): device's U, V, Q^d differ from GMP's",
                  what, limbs, i, (long long)d[i]);
    }
    mpz_clears(M, U, V, Q, x, NULL);
    free(u), free(v), free(q);
}

static void test_lucas(uint64_t seed)
{
    /* every shape of bg_lc_shape: 4 lanes of 2, 4, 6, 8 words, 8 .. 32 lanes of 6 and 8 */
    static const size_t widths[] = { 1, 2, 3, 4, 5, 8, 12, 16, 17, 24, 28, 32, 33, 48, 64, 65, 96, 128 };
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed ^ 0x1c);
    mpz_t x, p;
    mpz_inits(x, p, NULL);
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        size_t limbs = widths[w], n = limbs <= 16 ? 600 : limbs <= 33 ? 40 : limbs <= 65 ? 12 : 4;
        bulk_limb_t *m = test_xmalloc(n * limbs * 8);
        int64_t *d = test_xmalloc(n * 8);
        for (size_t i = 0; i < n; i++) {
            do { /* primes up to 1024 bits, then products and odd numbers (GMP's primes are slow);
                  * at least 8 bits, so that a draw can be retried (a product of two 0-bit
                  * "primes" is always 5, whose Selfridge D is 0) */
                unsigned bits = (unsigned)(64 * limbs) - (unsigned)(i * 7 % 57);
                int kind = limbs <= 16 && i % 4 == 0 ? PRIME_SETS_PRIME
                           : i % 4 == 1 && limbs <= 32 ? PRIME_SETS_PRODUCT : PRIME_SETS_ODD;
                prime_sets_sample(m + i * limbs, limbs, bits, kind, x, p, rs);
                mpz_import(x, limbs, -1, 8, 0, 0, m + i * limbs);
                d[i] = ref_selfridge(x);
                if (i % 16 == 15) d[i] = (int64_t)(mpz_get_ui(x) >> 4) * 4 + 1; /* large D */
                if (i % 32 == 31) d[i] = -d[i] + 2;
                mpz_set_si(p, (long)d[i]);
                mpz_gcd(p, p, x);
            } while (d[i] == 0 || mpz_cmp_ui(p, 1) != 0 || mpz_cmp_ui(x, 3) < 0);
        }
        lucas_batch(m, d, n, limbs, "random");
        free(m), free(d);
    }
    /* the Mersenne numbers (d = 1 at 2^p - 1, many trailing ones) at 20 limbs */
    size_t L = 20;
    bulk_limb_t *a = test_xmalloc(256 * L * 8);
    int64_t *d = test_xmalloc(256 * 8);
    size_t m = prime_sets_mersenne(a, L, 1279), k = 0;
    for (size_t i = 0; i < m; i++) {
        mpz_import(x, L, -1, 8, 0, 0, a + i * L);
        int64_t D = ref_selfridge(x);
        if (D == 0 || mpz_cmp_ui(x, 3) <= 0) continue;
        memmove(a + k * L, a + i * L, L * 8);
        d[k++] = D;
    }
    lucas_batch(a, d, k, L, "Mersenne");
    CHECK(bulk_cuda_tables()->ints->lucas(gpu, a, a, a, a, d, 0, L) == BULK_OK, "lucas, n = 0");
    free(a), free(d);
    mpz_clears(x, p, NULL);
    gmp_randclear(rs);
    printf("Lucas sequences on the device: agree with GMP's\n");
}

/* The sprp2 entry against ref_sprp2 at every shape (the Lucas kernel's), on primes, products of
 * two primes, random odd numbers and k 2^s + 1, Mersenne numbers at 20 limbs, and the strong
 * base-2 pseudoprimes below 2^32 at 1 and at 20 limbs. */
static void sprp2_batch(const bulk_limb_t *m, size_t n, size_t limbs, const char *what)
{
    uint8_t *out = test_xmalloc(n);
    memset(out, 9, n);
    CHECK(bulk_cuda_tables()->ints->sprp2(gpu, out, m, n, limbs) == BULK_OK, "%s: sprp2 at %zu "
          "limbs: %s", what, limbs, bulk_ctx_last_error(gpu));
    mpz_t x;
    mpz_init(x);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        mpz_import(x, limbs, -1, 8, 0, 0, m + i * limbs);
        int want = ref_sprp2(x);
        if (out[i] != want && bad++ < 5)
            CHECK(0, "%s, %zu limbs, instance %zu (low limb %llu): device %d, GMP %d", what, limbs,
                  i, (unsigned long long)m[i * limbs], out[i], want);
    }
    mpz_clear(x);
    free(out);
}

static void test_sprp2(uint64_t seed)
{
    static const size_t widths[] = { 1, 2, 3, 4, 5, 8, 12, 16, 17, 24, 28, 32, 33, 48, 64, 65, 96, 128 };
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed ^ 0x5b);
    mpz_t x, p;
    mpz_inits(x, p, NULL);
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        size_t limbs = widths[w], n = limbs <= 16 ? 600 : limbs <= 33 ? 60 : limbs <= 65 ? 16 : 6;
        bulk_limb_t *m = test_xmalloc(n * limbs * 8);
        for (size_t i = 0; i < n; i++) {
            unsigned bits = (unsigned)(64 * limbs) - (unsigned)(i * 7 % 57);
            int kind = limbs <= 16 && i % 4 == 0 ? PRIME_SETS_PRIME
                       : i % 4 == 1 && limbs <= 32 ? PRIME_SETS_PRODUCT : PRIME_SETS_ODD;
            prime_sets_sample(m + i * limbs, limbs, bits, kind, x, p, rs);
            if (i % 8 == 3) { /* k 2^s + 1: many squarings after the power */
                unsigned s = 1 + (unsigned)(i * 13 % (bits - 2));
                mpz_urandomb(x, rs, bits - s);
                mpz_mul_2exp(x, x, s);
                mpz_add_ui(x, x, 1);
                memset(m + i * limbs, 0, limbs * 8);
                mpz_export(m + i * limbs, NULL, -1, 8, 0, 0, x);
            }
            if (m[i * limbs] < 3 && limbs == 1) m[i * limbs] = 3;
        }
        sprp2_batch(m, n, limbs, "random");
        free(m);
    }
    size_t L = 20;
    bulk_limb_t *a = test_xmalloc(256 * L * 8);
    sprp2_batch(a, prime_sets_mersenne(a, L, 1279), L, "Mersenne");
    free(a);
    spsp2_list G;
    CHECK(spsp2_generate(&G, (uint64_t)1 << 32) == 0, "spsp2_generate");
    a = test_xmalloc(G.nspsp * L * 8);
    for (size_t i = 0; i < G.nspsp; i++) a[i] = G.spsp[i];
    sprp2_batch(a, G.nspsp, 1, "spsp(2)");
    for (size_t i = 0; i < G.nspsp; i++) {
        memset(a + i * L, 0, L * 8);
        a[i * L] = G.spsp[i];
    }
    sprp2_batch(a, G.nspsp, L, "spsp(2), leading zero limbs");
    free(a);
    spsp2_free(&G);
    CHECK(bulk_cuda_tables()->ints->sprp2(gpu, NULL, NULL, 0, L) == BULK_OK, "sprp2, n = 0");
    mpz_clears(x, p, NULL);
    gmp_randclear(rs);
    printf("base-2 strong test on the device: agrees with GMP's\n");
}

static void test_nextprime(uint64_t seed)
{
    uint64_t st = seed ^ 0x5eed;
    for (size_t limbs = 2; limbs <= 33; limbs = limbs * 2 - 1) {
        size_t n = limbs <= 9 ? 32 : 4;
        bulk_limb_t *a = test_xmalloc(n * limbs * 8), *rg = test_xmalloc(n * limbs * 8);
        bulk_limb_t *rc = test_xmalloc(n * limbs * 8);
        memset(a, 0, n * limbs * 8);
        for (size_t i = 0; i < n * limbs; i++)
            if (i % limbs != limbs - 1) a[i] = test_structured_limb(&st, (int)i);
        CHECK(bulk_int_nextprime(gpu, rg, a, n, limbs, 0, NULL) == BULK_OK, "nextprime GPU");
        CHECK(bulk_int_nextprime(cpu, rc, a, n, limbs, 0, NULL) == BULK_OK, "nextprime CPU");
        CHECK(memcmp(rg, rc, n * limbs * 8) == 0, "nextprime at %zu limbs: GPU and CPU differ", limbs);
        mpz_t x, y;
        mpz_inits(x, y, NULL);
        for (size_t i = 0; i < n; i++) {
            mpz_import(x, limbs, -1, 8, 0, 0, a + i * limbs);
            mpz_nextprime(y, x);
            mpz_import(x, limbs, -1, 8, 0, 0, rc + i * limbs);
            CHECK(mpz_cmp(x, y) == 0, "nextprime at %zu limbs, instance %zu: not GMP's", limbs, i);
        }
        mpz_clears(x, y, NULL);
        free(a), free(rg), free(rc);
    }
    /* the next prime after 2^64 - 59 needs two limbs */
    bulk_limb_t big[2] = { ~0ull - 59, ~0ull - 58 }, rr[2];
    int8_t e[2] = { 9, 9 };
    CHECK(bulk_int_nextprime(gpu, rr, big, 2, 1, 0, e) == BULK_ERR_OVERFLOW && rr[0] == ~0ull - 58 &&
              rr[1] == 0 && e[0] == BULK_OK && e[1] == BULK_ERR_OVERFLOW,
          "nextprime overflow at 2^64 on the GPU context");
    printf("nextprime: done\n");
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    if (bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device (test_int_prime_gpu needs one; nothing was run)\n");
        return 77; /* ctest: SKIP_RETURN_CODE */
    }
    if (bulk_ctx_open(&gpu, BULK_BACKEND_CUDA, 0) != BULK_OK ||
        bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) {
        fprintf(stderr, "cannot open the contexts\n");
        return 1;
    }
    test_trial(seed);
    test_lucas(seed);
    test_sprp2(seed);
    double t0 = now();
    test_random(seed);
    test_structured();
    printf("(%.1f s in isprime on the GPU context, %.1f s in all)\n", gpu_s, now() - t0);
    test_nextprime(seed);
    bulk_ctx_close(gpu);
    bulk_ctx_close(cpu);
    return test_finish();
}
