/* bulk_gcd_pairs and bulk_gcd_batch on a CUDA context (bulk_int_gcd / bulk_int_divmod on the
 * device) give exactly the CPU context's results, on 1024- and 2048-bit semiprime sets with
 * planted shared primes and duplicates, and on random odd numbers (many small shared factors);
 * the GPU batch with every spillable level spilled (1-byte budget) too.
 * Label gpu: prints "SKIP: no CUDA device" and passes where there is none. */
#include <gmp.h>
#include <time.h>

#include "bulk/gcd.h"
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

static void run_set(bulk_ctx *cpu, bulk_ctx *gpu, const bulk_limb_t *x, size_t n, size_t limbs,
                    const char *what)
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
    CHECK(bulk_gcd_batch(gpu, gb, x, n, limbs, NULL, NULL) == BULK_OK, "gpu batch");
    double t4 = wall();
    CHECK(memcmp(ga, gb, n * limbs * 8) == 0, "%s: batch differs", what);
    /* and with a 1-byte memory budget (every spillable product level through a spill file) */
    bulk_gcd_batch_opts tiny = { 1, test_scratch_dir("gcd_gpu"), 0, NULL, NULL };
    bulk_gcd_batch_stats st;
    memset(gb, 0, n * limbs * 8);
    CHECK(bulk_gcd_batch(gpu, gb, x, n, limbs, &tiny, &st) == BULK_OK && st.spilled_levels + 2 == st.levels,
          "gpu batch, spilled: %zu of %zu levels", st.spilled_levels, st.levels);
    CHECK(memcmp(ga, gb, n * limbs * 8) == 0, "%s: spilled batch differs", what);
    printf("%s: %zu moduli, %zu pairs with a shared factor, identical on cpu and gpu (seconds: "
           "cpu pairs %.2f, gpu pairs %.2f, cpu batch %.2f, gpu batch %.2f, gpu spilled batch %.2f)\n",
           what, n, a.n, t1 - t0, t2 - t1, t3 - t2, t4 - t3, wall() - t4);
    fflush(stdout);
    free(ga); free(gb); free(a.ij); free(a.g); free(b.ij); free(b.g);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    if (bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device\n");
        return 0;
    }
    bulk_ctx *cpu, *gpu;
    CHECK(bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) == BULK_OK, "cpu ctx");
    if (bulk_ctx_open(&gpu, BULK_BACKEND_CUDA, 0) != BULK_OK) {
        printf("FAIL: a device is present but no CUDA context opens\n");
        return 1;
    }
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)test_rand(&rng));
    mpz_t p[2], q, N;
    mpz_init(p[0]); mpz_init(p[1]); mpz_init(q); mpz_init(N);
    unsigned bitsv[2] = { 1024, 2048 };
    for (int bi = 0; bi < 2; bi++) {
        unsigned bits = bitsv[bi];
        size_t limbs = bits / 64, n = 1500;
        bulk_limb_t *x = calloc(n * limbs, 8);
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 2; k++) {
                if (k == 0 && i % 50 == 1) continue; /* keeps the previous p[0]: shared */
                mpz_urandomb(q, rs, bits / 2);
                mpz_setbit(q, bits / 2 - 1);
                mpz_nextprime(p[k], q);
            }
            mpz_mul(N, p[0], p[1]);
            mpz_export(x + i * limbs, NULL, -1, 8, 0, 0, N);
            if (i % 97 == 5) memcpy(x + i * limbs, x + (i - 3) * limbs, limbs * 8);
        }
        run_set(cpu, gpu, x, n, limbs, bits == 1024 ? "1024-bit semiprimes" : "2048-bit semiprimes");
        for (size_t i = 0; i < n * limbs; i++) x[i] = test_rand(&rng) | 1;
        run_set(cpu, gpu, x, 600, limbs, "random odd numbers");
        free(x);
    }
    mpz_clear(p[0]); mpz_clear(p[1]); mpz_clear(q); mpz_clear(N);
    gmp_randclear(rs);
    bulk_ctx_close(gpu);
    bulk_ctx_close(cpu);
    return test_finish();
}
