/* bulk_gcd_pairs and bulk_gcd_batch on a CUDA context (bulk_int_gcd / bulk_int_divmod on the
 * device) give exactly the CPU context's results, on 1024-bit semiprimes and 2048-bit products
 * of two of them, with planted shared primes and duplicates, and on random odd numbers (many small shared factors);
 * the GPU batch with its default per-level choice (lower tree levels batched on the device
 * when they have many nodes, large products on the GPU NTT), with the batched levels forced
 * (nodes up to 1024 / 128 limbs), with the GPU NTT for the products from 2048 limbs, with every spillable level spilled (remainder levels too) and with the grouped method
 * (half the memory floor as the budget) too. The CPU batch equals GMP's gcd(x_i, P / x_i), and
 * on the semiprime sets the lcm of the all-pairs gcds (GPU batch == CPU batch == all pairs ==
 * GMP).
 * Label gpu: prints "SKIP: no CUDA device" and passes where there is none. */
#include <gmp.h>
#include <time.h>

#include "bulk/gcd.h"
#include "gcd/gcd_internal.h"
#include "test_util.h"

static uint64_t rng;

typedef struct hits {
    size_t n, cap, limbs;
    size_t *ij;
    bulk_limb_t *g;
} hits;

static int on_pair(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    hits *h = arg;
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 256;
        h->ij = realloc(h->ij, 2 * h->cap * sizeof *h->ij);
        h->g = realloc(h->g, h->cap * h->limbs * sizeof *h->g);
    }
    h->ij[2 * h->n] = i;
    h->ij[2 * h->n + 1] = j;
    memset(h->g + h->n * h->limbs, 0, h->limbs * sizeof *h->g);
    memcpy(h->g + h->n * h->limbs, g, gn * sizeof *g);
    h->n++;
    return 0;
}

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* GMP: eg_i = gcd(x_i, P / x_i), P the product of all inputs. */
static void gmp_batch(bulk_limb_t *eg, const bulk_limb_t *x, size_t n, size_t limbs)
{
    mpz_t A, B, P, G;
    mpz_init(A); mpz_init(B); mpz_init(P); mpz_init(G);
    mpz_set_ui(P, 1);
    for (size_t i = 0; i < n; i++) {
        mpz_import(A, limbs, -1, 8, 0, 0, x + i * limbs);
        mpz_mul(P, P, A);
    }
    for (size_t i = 0; i < n; i++) {
        mpz_import(A, limbs, -1, 8, 0, 0, x + i * limbs);
        mpz_divexact(B, P, A);
        mpz_gcd(G, A, B);
        memset(eg + i * limbs, 0, limbs * 8);
        mpz_export(eg + i * limbs, NULL, -1, 8, 0, 0, G);
    }
    mpz_clear(A); mpz_clear(B); mpz_clear(P); mpz_clear(G);
}

/* Every batch factor g_i must be the lcm of the pair gcds of input i (true for semiprimes:
 * g_i is the product of x_i's primes that another input has). */
static void check_lcm(const hits *h, const bulk_limb_t *g, size_t n, size_t limbs, const char *what)
{
    mpz_t *L = malloc(n * sizeof *L), G;
    mpz_init(G);
    for (size_t i = 0; i < n; i++) mpz_init_set_ui(L[i], 1);
    for (size_t k = 0; k < h->n; k++) {
        mpz_import(G, limbs, -1, 8, 0, 0, h->g + k * limbs);
        mpz_lcm(L[h->ij[2 * k]], L[h->ij[2 * k]], G);
        mpz_lcm(L[h->ij[2 * k + 1]], L[h->ij[2 * k + 1]], G);
    }
    for (size_t i = 0; i < n; i++) {
        mpz_import(G, limbs, -1, 8, 0, 0, g + i * limbs);
        CHECK(mpz_cmp(G, L[i]) == 0, "%s: batch factor of %zu != lcm of its pair gcds", what, i);
        mpz_clear(L[i]);
    }
    mpz_clear(G);
    free(L);
}

static void run_set(bulk_ctx *cpu, bulk_ctx *gpu, const bulk_limb_t *x, size_t n, size_t limbs,
                    const char *what, int semiprimes)
{
    hits a = { 0, 0, limbs, NULL, NULL }, b = { 0, 0, limbs, NULL, NULL };
    double t0 = wall();
    CHECK(bulk_gcd_pairs(cpu, x, n, limbs, 0, on_pair, &a) == BULK_OK, "cpu pairs");
    double t1 = wall();
    CHECK(bulk_gcd_pairs(gpu, x, n, limbs, 0, on_pair, &b) == BULK_OK, "gpu pairs");
    double t2 = wall();
    CHECK(a.n == b.n && (a.n == 0 || (memcmp(a.ij, b.ij, 2 * a.n * sizeof *a.ij) == 0 &&
                                      memcmp(a.g, b.g, a.n * limbs * sizeof *a.g) == 0)),
          "%s: pairs differ (cpu %zu hits, gpu %zu)", what, a.n, b.n);
    bulk_limb_t *ga = malloc(n * limbs * 8), *gb = malloc(n * limbs * 8);
    CHECK(bulk_gcd_batch(cpu, ga, x, n, limbs, NULL, NULL) == BULK_OK, "cpu batch");
    double t3 = wall();
    bulk_gcd_batch_stats st;
    CHECK(bulk_gcd_batch(gpu, gb, x, n, limbs, NULL, &st) == BULK_OK, "gpu batch");
    double t4 = wall();
    CHECK(memcmp(ga, gb, n * limbs * 8) == 0, "%s: batch differs", what);
    bulk_limb_t *eg = malloc(n * limbs * 8);
    gmp_batch(eg, x, n, limbs);
    CHECK(memcmp(ga, eg, n * limbs * 8) == 0, "%s: cpu batch differs from GMP", what);
    if (semiprimes) check_lcm(&a, ga, n, limbs, what);
    free(eg);
    /* the batched GPU levels whatever their node count (products of nodes up to 1024 limbs,
     * remainders of nodes up to 128: wider ones leave the GPU's per-thread division
     * latency-bound on so few nodes, 32 s in round 1 with 4096), then the GPU NTT for every
     * product of 2048 limbs or more */
    CHECK(bulk_ctx_set_tune(gpu, "gcd.batched_mul=1024,gcd.batched_rem=128,gcd.batched_min=1") == BULK_OK,
          "tune: %s", bulk_ctx_last_error(gpu));
    double tb0 = wall();
    memset(gb, 0, n * limbs * 8);
    CHECK(bulk_gcd_batch(gpu, gb, x, n, limbs, NULL, NULL) == BULK_OK, "gpu batch, all batched");
    CHECK(memcmp(ga, gb, n * limbs * 8) == 0, "%s: batch with every level batched differs", what);
    bulk_ctx_set_tune(gpu, NULL);
    double tb1 = wall();
    unsigned long long g0, f0, b0, g1, f1, b1;
    gcd_mul_counts(&g0, &f0, &b0);
    CHECK(bulk_ctx_set_tune(gpu, "gcd.gpu_ntt=2048") == BULK_OK, "tune: %s", bulk_ctx_last_error(gpu));
    memset(gb, 0, n * limbs * 8);
    CHECK(bulk_gcd_batch(gpu, gb, x, n, limbs, NULL, NULL) == BULK_OK, "gpu batch, gpu ntt");
    CHECK(memcmp(ga, gb, n * limbs * 8) == 0, "%s: batch with the GPU NTT differs", what);
    bulk_ctx_set_tune(gpu, NULL);
    gcd_mul_counts(&g1, &f1, &b1);
    CHECK(b1 == b0, "%s: %llu GPU NTT products were wrong (redone on the CPU)", what, b1 - b0);
    double tb2 = wall();
    /* and with every spillable product level through a spill file, and with half the floor
     * as the memory budget (the grouped method, whose per-input steps run on the device) */
    bulk_gcd_batch_opts spill = { 0, test_scratch_dir("gcd_gpu"), 1, NULL };
    bulk_gcd_batch_opts half = { (size_t)st.memory_floor / 2, test_scratch_dir("gcd_gpu"), 0, NULL };
    size_t levels = st.levels;
    memset(gb, 0, n * limbs * 8);
    double t4s = wall();
    CHECK(bulk_gcd_batch(gpu, gb, x, n, limbs, &spill, &st) == BULK_OK && st.spilled_levels + 2 == levels &&
          st.spilled_rem_levels + 2 == levels,
          "gpu batch, spilled: %zu (remainder %zu) of %zu levels", st.spilled_levels, st.spilled_rem_levels,
          levels);
    CHECK(memcmp(ga, gb, n * limbs * 8) == 0, "%s: spilled batch differs", what);
    double t5 = wall();
    memset(gb, 0, n * limbs * 8);
    CHECK(bulk_gcd_batch(gpu, gb, x, n, limbs, &half, &st) == BULK_OK && st.groups >= 2,
          "gpu batch, grouped: %zu groups", st.groups);
    CHECK(memcmp(ga, gb, n * limbs * 8) == 0, "%s: grouped batch (%zu groups) differs", what, st.groups);
    printf("%s: %zu moduli, %zu pairs with a shared factor, identical on cpu and gpu and equal to GMP "
           "(seconds: cpu pairs %.2f, gpu pairs %.2f, cpu batch %.2f, gpu batch %.2f, all batched %.2f, "
           "gpu ntt %.2f, spilled %.2f, %zu groups %.2f; gpu ntt products %llu, failed and redone on "
           "the cpu %llu)\n",
           what, n, a.n, t1 - t0, t2 - t1, t3 - t2, t4 - t3, tb1 - tb0, tb2 - tb1, t5 - t4s, st.groups,
           wall() - t5, g1 - g0, f1 - f0);
    fflush(stdout);
    free(ga); free(gb); free(a.ij); free(a.g); free(b.ij); free(b.g);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    /* BULK_GCD_GPU_TEST_DRY=1: a CPU context in the GPU's place (checks this test's own logic
     * on a machine without a device; not run by ctest) */
    const char *dry = getenv("BULK_GCD_GPU_TEST_DRY");
    int dry_run = dry && *dry == '1';
    if (!dry_run && bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device\n");
        return 0;
    }
    bulk_ctx *cpu, *gpu;
    CHECK(bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) == BULK_OK, "cpu ctx");
    if (bulk_ctx_open(&gpu, dry_run ? BULK_BACKEND_CPU : BULK_BACKEND_CUDA, 0) != BULK_OK) {
        printf("FAIL: a device is present but no CUDA context opens\n");
        return 1;
    }
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)test_rand(&rng));
    mpz_t p[2], q, N;
    mpz_init(p[0]); mpz_init(p[1]); mpz_init(q); mpz_init(N);
    /* 1024-bit semiprimes of fresh 512-bit primes (one prime shared every 50 moduli, a copy
     * every 97); the 2048-bit set multiplies semiprimes i and i + 701 of it (each shares its
     * primes with two others) instead of drawing 1024-bit primes: mpz_nextprime at 1024 bits
     * took most of this test's 55-75 s on the GPU machine. */
    size_t n = 1500, l1 = 16;
    bulk_limb_t *x1 = calloc(n * l1, 8), *x2 = calloc(n * 2 * l1, 8);
    mpz_t *X = malloc(n * sizeof *X);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            if (k == 0 && i % 50 == 1) continue; /* keeps the previous p[0]: shared */
            mpz_urandomb(q, rs, 512);
            mpz_setbit(q, 511);
            mpz_nextprime(p[k], q);
        }
        mpz_init(X[i]);
        mpz_mul(X[i], p[0], p[1]);
        if (i % 97 == 5) mpz_set(X[i], X[i - 3]);
        mpz_export(x1 + i * l1, NULL, -1, 8, 0, 0, X[i]);
    }
    for (size_t i = 0; i < n; i++) {
        mpz_mul(N, X[i], X[(i + 701) % n]);
        mpz_export(x2 + i * 2 * l1, NULL, -1, 8, 0, 0, N);
    }
    for (int bi = 0; bi < 2; bi++) {
        size_t limbs = l1 << bi;
        bulk_limb_t *x = bi ? x2 : x1;
        run_set(cpu, gpu, x, n, limbs, bi ? "2048-bit products of two semiprimes" : "1024-bit semiprimes", !bi);
        size_t nr = n < 600 ? n : 600; /* reuses the first nr numbers of x */
        for (size_t i = 0; i < nr * limbs; i++) x[i] = test_rand(&rng) | 1;
        run_set(cpu, gpu, x, nr, limbs, "random odd numbers", 0);
    }
    for (size_t i = 0; i < n; i++) mpz_clear(X[i]);
    free(X);
    free(x1);
    free(x2);
    mpz_clear(p[0]); mpz_clear(p[1]); mpz_clear(q); mpz_clear(N);
    gmp_randclear(rs);
    bulk_ctx_close(gpu);
    bulk_ctx_close(cpu);
    return test_finish();
}
