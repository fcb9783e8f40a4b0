/* bulk_int_isprime and bulk_int_nextprime on a CUDA context against a CPU context and GMP
 * (mpz_probab_prime_p(x, 24), its BPSW; mpz_nextprime): random odd numbers, primes, products
 * of two primes and squares of primes of 64..4096 bits, the strong base-2 pseudoprimes below
 * 10^7 (brute force; 1093^2 among them goes back to the CPU), Carmichael numbers and the
 * Mersenne numbers 2^p - 1, p <= 1279; answers must be the same bit for bit on both contexts.
 * Without a CUDA device it prints "SKIP: no CUDA device" and exits 77. --seed S replays. */
#include <gmp.h>

#include "bulk/int.h"
#include "../test_util.h"

static bulk_ctx *gpu, *cpu;

/* n numbers of `limbs` limbs: GPU and CPU answers equal, and equal to want (NULL: GMP's). */
static void compare(const bulk_limb_t *a, size_t n, size_t limbs, unsigned rounds, const char *what)
{
    uint8_t *og = test_xmalloc(n), *oc = test_xmalloc(n);
    CHECK(bulk_int_isprime(gpu, og, a, n, limbs, rounds) == BULK_OK, "%s: isprime on the GPU context: %s",
          what, bulk_ctx_last_error(gpu));
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

static void test_random(uint64_t seed)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed);
    mpz_t x, p;
    mpz_inits(x, p, NULL);
    for (size_t limbs = 1; limbs <= 64; limbs = limbs < 4 ? limbs + 1 : limbs * 2) {
        size_t n = limbs <= 16 ? 2048 : 64;
        bulk_limb_t *a = test_xmalloc(n * limbs * 8);
        memset(a, 0, n * limbs * 8);
        for (size_t i = 0; i < n; i++) {
            unsigned bits = (unsigned)(64 * limbs) - (unsigned)(i % 64);
            mpz_urandomb(x, rs, bits);
            if (i % 4 == 0) mpz_nextprime(x, x);
            if (i % 4 == 1) {
                mpz_urandomb(x, rs, bits / 2);
                mpz_nextprime(x, x);
                mpz_urandomb(p, rs, bits / 2);
                mpz_nextprime(p, p);
                mpz_mul(x, x, p);
            }
            if (i % 8 == 2) { /* a square of a prime */
                mpz_urandomb(x, rs, bits / 2);
                mpz_nextprime(x, x);
                mpz_mul(x, x, x);
            }
            mpz_setbit(x, 0);
            mpz_tdiv_r_2exp(x, x, 64 * limbs);
            mpz_export(a + i * limbs, NULL, -1, 8, 0, 0, x);
        }
        compare(a, n, limbs, 0, "random");
        compare(a, n < 256 ? n : 256, limbs, 3, "random, 3 rounds");
        free(a);
    }
    mpz_clears(x, p, NULL);
    gmp_randclear(rs);
    printf("random 64..4096 bits: done\n");
}

static uint64_t mulmod64(uint64_t a, uint64_t b, uint64_t m) { return (uint64_t)((unsigned __int128)a * b % m); }

static int spsp2(uint64_t n)
{
    uint64_t d = n - 1, x = 1, b = 2;
    int s = 0;
    while (!(d & 1)) d >>= 1, s++;
    for (uint64_t e = d; e; e >>= 1, b = mulmod64(b, b, n))
        if (e & 1) x = mulmod64(x, b, n);
    if (x == 1 || x == n - 1) return 1;
    for (int i = 1; i < s; i++)
        if ((x = mulmod64(x, x, n)) == n - 1) return 1;
    return 0;
}

static void test_structured(void)
{
    /* strong base-2 pseudoprimes below 10^7 (162 of them), the small ones of every width */
    bulk_limb_t *a = test_xmalloc(4096 * 8);
    size_t n = 0, N = 10000000;
    uint8_t *comp = calloc(N, 1);
    for (uint64_t i = 3; i * i < N; i += 2)
        if (!comp[i])
            for (uint64_t j = i * i; j < N; j += 2 * i) comp[j] = 1;
    for (uint64_t i = 9; i < N; i += 2)
        if (comp[i] && spsp2(i)) a[n++] = i;
    free(comp);
    CHECK(n == 162, "spsp(2) below 10^7: %zu, expected 162", n);
    static const uint64_t carm[] = { 561, 1105, 1729, 2465, 2821, 6601, 8911, 10585, 15841, 29341,
                                     41041, 46657, 52633, 62745, 63973, 75361, 101101, 115921 };
    for (size_t i = 0; i < sizeof carm / sizeof *carm; i++) a[n++] = carm[i];
    for (uint64_t v = 0; v < 2048; v++) a[n++] = v; /* 0, 1, 2, evens, small primes */
    compare(a, n, 1, 0, "spsp(2), Carmichael, small");
    free(a);
    /* Mersenne numbers 2^p - 1 (strong base-2 pseudoprimes) at 20 limbs */
    size_t L = 20, m = 0;
    a = test_xmalloc(256 * L * 8);
    memset(a, 0, 256 * L * 8);
    for (unsigned e = 2; e <= 1279; e++) {
        int prime = 1;
        for (unsigned d = 2; d * d <= e; d++) prime &= e % d != 0;
        if (!prime) continue;
        for (unsigned b = 0; b < e; b++) a[m * L + b / 64] |= 1ull << (b % 64);
        m++;
    }
    compare(a, m, L, 0, "Mersenne");
    free(a);
    printf("structured: done\n");
}

static void test_nextprime(uint64_t seed)
{
    uint64_t st = seed ^ 0x5eed;
    for (size_t limbs = 2; limbs <= 33; limbs = limbs * 2 - 1) {
        size_t n = 64;
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
    test_random(seed);
    test_structured();
    test_nextprime(seed);
    bulk_ctx_close(gpu);
    bulk_ctx_close(cpu);
    return test_finish();
}
