/* bulk_int_isprime and bulk_int_nextprime against exhaustive truth for small n, the base-2
 * pseudoprimes below 2^32 (generated here: spsp2_gen.h), Carmichael numbers, squares of primes,
 * products of twin primes, Mersenne numbers, and GMP's mpz_probab_prime_p (BPSW in GMP >= 6.2) and
 * mpz_nextprime on random 64..4096-bit numbers; results checked equal at 1 and 2 threads.
 * Options: --seed S (replay), BULK_SANITIZED=1 shrinks the counts (sanitizer builds). */
#include <gmp.h>

#include "bulk/int.h"
#include "../test_util.h"
#include "spsp2_gen.h"

static int sanitized;
static bulk_ctx *ctx1, *ctx2;

/* isprime of the n one-limb-or-wider numbers at both thread counts; the two must agree. */
static uint8_t *isprime_both(const bulk_limb_t *a, size_t n, size_t limbs, unsigned rounds)
{
    uint8_t *o1 = test_xmalloc(n + 1), *o2 = test_xmalloc(n + 1);
    CHECK(bulk_int_isprime(ctx1, o1, a, n, limbs, rounds) == BULK_OK, "isprime 1 thread");
    CHECK(bulk_int_isprime(ctx2, o2, a, n, limbs, rounds) == BULK_OK, "isprime 2 threads");
    CHECK(memcmp(o1, o2, n) == 0, "isprime: 1 and 2 threads differ (%zu limbs)", limbs);
    free(o2);
    return o1;
}

static void to_mpz(mpz_t z, const bulk_limb_t *a, size_t limbs) { mpz_import(z, limbs, -1, 8, 0, 0, a); }
static void from_mpz(bulk_limb_t *a, size_t limbs, const mpz_t z)
{
    memset(a, 0, limbs * 8);
    mpz_export(a, NULL, -1, 8, 0, 0, z);
}

/* every n below N against a sieve of Eratosthenes */
static void test_exhaustive(uint64_t seed)
{
    (void)seed;
    size_t N = sanitized ? (size_t)1 << 18 : (size_t)1 << 22;
    uint8_t *comp = calloc(N, 1);
    bulk_limb_t *a = test_xmalloc(N * 8);
    comp[0] = comp[1] = 1;
    for (size_t i = 2; i * i < N; i++)
        if (!comp[i])
            for (size_t j = i * i; j < N; j += i) comp[j] = 1;
    for (size_t i = 0; i < N; i++) a[i] = i;
    uint8_t *o = isprime_both(a, N, 1, 0);
    size_t bad = 0;
    for (size_t i = 0; i < N; i++)
        if (o[i] != !comp[i] && bad++ < 5) CHECK(0, "isprime(%zu) = %d", i, o[i]);
    printf("exhaustive: every n < %zu\n", N);
    free(o);
    free(comp);
    free(a);
}

static uint64_t mulmod64(uint64_t a, uint64_t b, uint64_t m) { return (uint64_t)((unsigned __int128)a * b % m); }

/* The strong base-2 test in 64-bit arithmetic (__int128 products), for the brute-force check of
 * the generator. */
static int spsp2(uint64_t n)
{
    uint64_t d = n - 1;
    int s = 0;
    while (!(d & 1)) d >>= 1, s++;
    uint64_t x = 1, b = 2;
    for (uint64_t e = d; e; e >>= 1, b = mulmod64(b, b, n))
        if (e & 1) x = mulmod64(x, b, n);
    if (x == 1 || x == n - 1) return 1;
    for (int i = 1; i < s; i++) {
        x = mulmod64(x, x, n);
        if (x == n - 1) return 1;
    }
    return 0;
}

/* 1 when n < 2^32 is prime, by trial division by the odd primes p[0..np) (all below 2^16). */
static int prime32(uint64_t n, const uint32_t *p, size_t np)
{
    if (n < 2 || n % 2 == 0) return n == 2;
    for (size_t i = 0; i < np && (uint64_t)p[i] * p[i] <= n; i++)
        if (n % p[i] == 0) return 0;
    return 1;
}

/* The strong pseudoprimes to base 2 below 2^32 (10^8 sanitized), from spsp2_gen.h: their count
 * must be the known 2314 (488), and the base-2 Fermat pseudoprimes' 10403 (2057) (Feitsma and
 * Galway; Pomerance, Selfridge, Wagstaff 1980). The generator's lists below 10^6 must equal a
 * brute force over every odd composite. All must be reported composite; isprime must equal
 * trial division on random numbers below 2^32 and on the neighbours n +- 2 of the pseudoprimes. */
static void test_spsp2(uint64_t seed)
{
    uint64_t X = sanitized ? 100000000 : (uint64_t)1 << 32;
    size_t want_s = sanitized ? 488 : 2314, want_p = sanitized ? 2057 : 10403;
    spsp2_list G;
    clock_t t0 = clock();
    CHECK(spsp2_generate(&G, 1000000) == 0, "spsp2_generate: out of memory");
    size_t N = 1000000, k = 0, bad = 0;
    uint8_t *comp = calloc(N, 1);
    for (uint64_t i = 3; i * i < N; i += 2)
        if (!comp[i])
            for (uint64_t j = i * i; j < N; j += 2 * i) comp[j] = 1;
    for (uint64_t i = 9; i < N; i += 2)
        if (comp[i] && spsp2(i)) bad += k >= G.nspsp || G.spsp[k++] != i;
    CHECK(bad == 0 && k == G.nspsp && k == 46, "spsp(2) below 10^6: generator and brute force differ");
    free(comp);
    spsp2_free(&G);
    CHECK(spsp2_generate(&G, X) == 0, "spsp2_generate: out of memory");
    CHECK(G.nspsp == want_s && G.npsp == want_p, "below %llu: %zu spsp(2), %zu psp(2); expected %zu, %zu",
          (unsigned long long)X, G.nspsp, G.npsp, want_s, want_p);
    printf("spsp(2): %zu, psp(2): %zu below %llu generated (%.1f s cpu)\n", G.nspsp, G.npsp,
           (unsigned long long)X, (double)(clock() - t0) / CLOCKS_PER_SEC);
    bulk_limb_t *a = test_xmalloc(G.npsp * 8);
    for (size_t i = 0; i < G.nspsp; i++) a[i] = G.spsp[i];
    uint8_t *o = isprime_both(a, G.nspsp, 1, 0);
    for (size_t i = 0; i < G.nspsp; i++) CHECK(o[i] == 0, "spsp(2) %llu called prime", (unsigned long long)a[i]);
    free(o);
    for (size_t i = 0; i < G.npsp; i++) a[i] = G.psp[i];
    o = isprime_both(a, G.npsp, 1, 0);
    for (size_t i = 0; i < G.npsp; i++) CHECK(o[i] == 0, "psp(2) %llu called prime", (unsigned long long)a[i]);
    free(o);
    free(a);
    /* a sample against trial division: random odd and even n < 2^32, the pseudoprimes' neighbours */
    uint32_t *p = test_xmalloc(6542 * sizeof *p);
    size_t np = 0;
    for (uint32_t i = 3; i < 65536; i += 2)
        if (prime32(i, p, np)) p[np++] = i;
    size_t M = (sanitized ? 4096 : 65536) + 2 * G.npsp;
    uint64_t st = seed ^ 0x5b5b;
    a = test_xmalloc(M * 8);
    for (size_t i = 0; i < M; i++) {
        uint64_t v = i < 2 * G.npsp ? G.psp[i / 2] + (i % 2 ? 2 : -2) : test_rand(&st) % X;
        a[i] = v >= X ? X - 1 : v;
    }
    o = isprime_both(a, M, 1, 0);
    bad = 0;
    for (size_t i = 0; i < M; i++)
        if (o[i] != prime32(a[i], p, np) && bad++ < 5) CHECK(0, "isprime(%llu) = %d", (unsigned long long)a[i], o[i]);
    printf("spsp(2), psp(2): all composite; %zu numbers below %llu agree with trial division\n", M,
           (unsigned long long)X);
    free(o);
    free(a);
    free(p);
    spsp2_free(&G);
}

/* x (as an mpz) tested at width limbs, also through the wider width limbs + 1, against want. */
static void expect_mpz(const mpz_t x, int want, const char *what)
{
    size_t limbs = mpz_size(x) ? mpz_size(x) : 1;
    bulk_limb_t *a = test_xmalloc(2 * (limbs + 1) * 8);
    from_mpz(a, limbs, x);
    from_mpz(a + limbs, limbs + 1, x);
    uint8_t o[2] = { 9, 9 };
    CHECK(bulk_int_isprime(ctx2, o, a, 1, limbs, 0) == BULK_OK, "isprime");
    CHECK(bulk_int_isprime(ctx2, o + 1, a + limbs, 1, limbs + 1, 2) == BULK_OK, "isprime wide");
    if (o[0] != want || o[1] != want) {
        char *s = mpz_get_str(NULL, 16, x);
        CHECK(0, "%s 0x%.40s... (%zu bits): isprime %d / %d, want %d", what, s,
              mpz_sizeinbase(x, 2), o[0], o[1], want);
        free(s);
    }
    free(a);
}

static void test_structured(uint64_t seed)
{
    static const unsigned long carm[] = { 561, 1105, 1729, 2465, 2821, 6601, 8911, 10585, 15841,
                                          29341, 41041, 46657, 52633, 62745, 63973, 75361,
                                          101101, 115921, 126217, 162401, 172081, 188461,
                                          252601, 278545, 294409, 314821, 334153, 340561 };
    mpz_t x, p, q, r;
    mpz_inits(x, p, q, r, NULL);
    for (size_t i = 0; i < sizeof carm / sizeof *carm; i++) {
        mpz_set_ui(x, carm[i]);
        expect_mpz(x, 0, "Carmichael");
    }
    /* Chernick's Carmichael numbers (6k + 1)(12k + 1)(18k + 1) with three prime factors */
    int found = 0;
    for (unsigned long k = 1; found < (sanitized ? 8 : 40); k++) {
        mpz_set_ui(p, 6 * k + 1), mpz_set_ui(q, 12 * k + 1), mpz_set_ui(r, 18 * k + 1);
        if (!mpz_probab_prime_p(p, 24) || !mpz_probab_prime_p(q, 24) || !mpz_probab_prime_p(r, 24)) continue;
        mpz_mul(x, p, q), mpz_mul(x, x, r);
        expect_mpz(x, 0, "Chernick Carmichael");
        found++;
    }
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed);
    for (unsigned bits = 16; bits <= (sanitized ? 128u : 1024u); bits += bits / 4) {
        mpz_urandomb(p, rs, bits);
        mpz_setbit(p, bits - 1);
        mpz_nextprime(p, p);
        mpz_mul(x, p, p);
        expect_mpz(x, 0, "square of a prime");
        /* twin primes p, p + 2 */
        for (;;) {
            mpz_nextprime(p, p);
            mpz_add_ui(q, p, 2);
            if (mpz_probab_prime_p(q, 24)) break;
            if (bits > 200) { /* twins get rare: take the next prime as the second factor */
                mpz_nextprime(q, p);
                break;
            }
        }
        mpz_mul(x, p, q);
        expect_mpz(x, 0, "product of twin (or close) primes");
        expect_mpz(p, 1, "prime");
    }
    /* Mersenne numbers 2^e - 1 for prime e: every one is a strong base-2 pseudoprime */
    static const unsigned mp[] = { 2, 3, 5, 7, 13, 17, 19, 31, 61, 89, 107, 127, 521, 607, 1279,
                                   2203, 2281, 3217, 4253, 4423 };
    unsigned emax = sanitized ? 400 : 4423;
    size_t k = 0;
    /* batched by width: the numbers of L limbs (64 (L - 1) < e <= 64 L) in one call */
    bulk_limb_t *a = test_xmalloc(64 * 70 * 8);
    int want[64];
    unsigned ee[64];
    for (size_t L = 1; 64 * (L - 1) < emax; L++) {
        size_t m = 0;
        for (unsigned e = (unsigned)(64 * (L - 1)) + 1; e <= 64 * L && e <= emax; e++) {
            int prime = e >= 2;
            for (unsigned d = 2; d * d <= e; d++)
                if (e % d == 0) prime = 0;
            if (!prime) continue;
            want[m] = 0;
            for (size_t i = 0; i < sizeof mp / sizeof *mp; i++) want[m] |= mp[i] == e;
            mpz_set_ui(x, 0);
            mpz_setbit(x, e);
            mpz_sub_ui(x, x, 1);
            from_mpz(a + m * L, L, x);
            ee[m++] = e;
        }
        uint8_t o[64];
        CHECK(bulk_int_isprime(ctx2, o, a, m, L, 0) == BULK_OK, "isprime");
        for (size_t i = 0; i < m; i++)
            CHECK(o[i] == want[i], "2^%u - 1: isprime %d, want %d", ee[i], o[i], want[i]);
        k += m;
    }
    free(a);
    printf("structured: Carmichael, squares, twin products, %zu Mersenne numbers (p <= %u)\n", k, emax);
    gmp_randclear(rs);
    mpz_clears(x, p, q, r, NULL);
}

/* random odd numbers, primes and products of two primes against mpz_probab_prime_p */
static void test_random_gmp(uint64_t seed)
{
    uint64_t st = seed ^ 0x9e11;
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed);
    mpz_t x, p;
    mpz_inits(x, p, NULL);
    size_t checked = 0;
    for (unsigned bits = 64; bits <= (sanitized ? 1024u : 4096u); bits *= 2) {
        size_t limbs = bits / 64, n = sanitized ? 8 : bits <= 512 ? 400 : bits == 1024 ? 160 : bits == 2048 ? 16 : 4;
        bulk_limb_t *a = test_xmalloc(n * limbs * 8);
        for (size_t i = 0; i < n; i++) {
            unsigned b = bits - (unsigned)(test_rand(&st) % 64);
            if (i % 4 == 0) { /* a prime */
                mpz_urandomb(x, rs, b);
                mpz_nextprime(x, x);
            } else if (i % 4 == 1) { /* two primes */
                mpz_urandomb(x, rs, b / 2);
                mpz_nextprime(x, x);
                mpz_urandomb(p, rs, b / 2);
                mpz_nextprime(p, p);
                mpz_mul(x, x, p);
            } else {
                mpz_urandomb(x, rs, b);
                mpz_setbit(x, 0);
            }
            if (mpz_sizeinbase(x, 2) > bits) mpz_tdiv_r_2exp(x, x, bits);
            from_mpz(a + i * limbs, limbs, x);
        }
        uint8_t *o = isprime_both(a, n, limbs, 2);
        for (size_t i = 0; i < n; i++) {
            to_mpz(x, a + i * limbs, limbs);
            int want = mpz_probab_prime_p(x, 24) != 0;
            CHECK(o[i] == want, "%u bits, instance %zu: isprime %d, GMP %d", bits, i, o[i], want);
        }
        checked += n;
        free(o);
        free(a);
    }
    printf("random: %zu numbers of 64..4096 bits agree with GMP\n", checked);
    mpz_clears(x, p, NULL);
    gmp_randclear(rs);
}

static void test_nextprime(uint64_t seed)
{
    uint64_t st = seed ^ 0x4e58;
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    /* small: 0..2000 one by one */
    size_t N = 2000;
    bulk_limb_t *a = test_xmalloc(N * 8), *r = test_xmalloc(N * 8);
    for (size_t i = 0; i < N; i++) a[i] = i;
    CHECK(bulk_int_nextprime(ctx2, r, a, N, 1, 0, NULL) == BULK_OK, "nextprime small");
    for (size_t i = 0; i < N; i++) {
        mpz_set_ui(x, i);
        mpz_nextprime(y, x);
        CHECK(mpz_get_ui(y) == r[i], "nextprime(%zu) = %llu, GMP %lu", i, (unsigned long long)r[i], mpz_get_ui(y));
    }
    free(a);
    free(r);
    for (unsigned bits = 64; bits <= (sanitized ? 256u : 2048u); bits *= 2) {
        size_t limbs = bits / 64 + 1, n = sanitized ? 4 : bits <= 256 ? 64 : bits <= 1024 ? 8 : 2;
        a = test_xmalloc(n * limbs * 8), r = test_xmalloc(n * limbs * 8);
        int8_t *err = test_xmalloc(n);
        memset(a, 0, n * limbs * 8);
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < bits / 64; k++) a[i * limbs + k] = test_structured_limb(&st, (int)(i + k));
        uint8_t *dummy = NULL;
        (void)dummy;
        bulk_limb_t *r1 = test_xmalloc(n * limbs * 8);
        CHECK(bulk_int_nextprime(ctx1, r1, a, n, limbs, 1, err) == BULK_OK, "nextprime");
        CHECK(bulk_int_nextprime(ctx2, r, a, n, limbs, 1, err) == BULK_OK, "nextprime");
        CHECK(memcmp(r, r1, n * limbs * 8) == 0, "nextprime: 1 and 2 threads differ");
        for (size_t i = 0; i < n; i++) {
            to_mpz(x, a + i * limbs, limbs);
            mpz_nextprime(y, x);
            to_mpz(x, r + i * limbs, limbs);
            CHECK(mpz_cmp(x, y) == 0, "nextprime at %u bits, instance %zu differs from GMP", bits, i);
        }
        free(r1);
        free(err);
        free(a);
        free(r);
    }
    /* overflow: the next prime after 2^64 - 59 (the largest 64-bit prime) needs two limbs */
    bulk_limb_t big[2] = { 0xffffffffffffffc5ull - 1, 0xffffffffffffffc5ull }, rr[2];
    int8_t e[2] = { 9, 9 };
    CHECK(bulk_int_nextprime(ctx2, rr, big, 2, 1, 0, e) == BULK_ERR_OVERFLOW, "overflow status");
    CHECK(e[0] == 0 && rr[0] == 0xffffffffffffffc5ull, "2^64 - 60 -> 2^64 - 59");
    CHECK(e[1] == BULK_ERR_OVERFLOW && rr[1] == 0, "2^64 - 59 overflows one limb");
    printf("nextprime: agrees with mpz_nextprime\n");
    mpz_clears(x, y, NULL);
}

static void test_errors(void)
{
    bulk_limb_t a[2] = { 7, 9 }, r[2];
    uint8_t o[2];
    CHECK(bulk_int_isprime(NULL, o, a, 1, 1, 0) == BULK_ERR_ARG, "NULL ctx");
    CHECK(bulk_int_isprime(ctx1, o, a, 1, 0, 0) == BULK_ERR_ARG, "limbs 0");
    CHECK(bulk_int_isprime(ctx1, o, a, 1, 1, 1025) == BULK_ERR_ARG, "rounds");
    CHECK(bulk_int_isprime(ctx1, NULL, a, 1, 1, 0) == BULK_ERR_ARG, "out NULL");
    CHECK(strstr(bulk_ctx_last_error(ctx1), "bulk_int_isprime: out") != NULL, "message: %s",
          bulk_ctx_last_error(ctx1));
    CHECK(bulk_int_isprime(ctx1, (uint8_t *)a, a, 1, 1, 0) == BULK_ERR_ARG, "overlap");
    CHECK(bulk_int_nextprime(ctx1, a, a, 1, 1, 0, NULL) == BULK_ERR_ARG, "overlap");
    CHECK(bulk_int_nextprime(ctx1, r, a, 0, 1, 0, NULL) == BULK_OK, "n 0");
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    sanitized = getenv("BULK_SANITIZED") && atoi(getenv("BULK_SANITIZED"));
    if (bulk_ctx_open(&ctx1, BULK_BACKEND_CPU, 1) != BULK_OK ||
        bulk_ctx_open(&ctx2, BULK_BACKEND_CPU, 2) != BULK_OK) {
        fprintf(stderr, "cannot open contexts\n");
        return 1;
    }
    test_errors();
    void (*const parts[])(uint64_t) = { test_exhaustive, test_spsp2, test_structured,
                                        test_random_gmp, test_nextprime };
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        clock_t t0 = clock();
        parts[i](seed);
        printf("  (%.1f s cpu)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
    bulk_ctx_close(ctx1);
    bulk_ctx_close(ctx2);
    return test_finish();
}
