/* The GPU NTT multiplication on the device (src/int/cuda/int_cuda_ntt.cu) against GMP and the CPU
 * backend: the batched kernel (called directly with both prime sets and radix 8 and 4, through
 * bulk_int_mul / bulk_int_sqr on a CUDA context with the tuning int.mul=ntt, and as the half products
 * of Karatsuba) at widths 1 .. 8192 limbs including widths that are not powers of two, and single
 * large products (bulk_int_cuda_mul_big, the device-pointer variant) up to 2^22 limbs per
 * operand, balanced and unbalanced, squares, with and without the pinned staging of the copies,
 * from four host threads at once; random and structured operands (all ones: the
 * largest coefficients; powers of two; zeros; runs). Without a CUDA device it prints
 * "SKIP: no CUDA device" and exits 77 (ctest: skipped). --seed S replays. */
#include <gmp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/int.h"
#include "backend/context.h"
#include "int/int_backend.h"
#include "int/mul_fft.h"
#include "test_util.h"

/* The CUDA int table: this program reaches the CUDA entry points through it, and only after
 * finding a device. */
#define GPU_INTS (bulk_cuda_tables()->ints)

static uint64_t rng;
static bulk_ctx *gpu, *cpu;

/* n numbers of `limbs`: number i by kind (i + salt) % 10 - random, structured limbs, all ones,
 * a power of two, zero, one. */
static void fill(bulk_limb_t *x, size_t n, size_t limbs, int salt)
{
    for (size_t i = 0; i < n; i++) {
        int kind = (int)((i + (size_t)salt) % 10);
        bulk_limb_t *v = x + i * limbs;
        for (size_t j = 0; j < limbs; j++) {
            switch (kind) {
            case 0: case 1: case 2: v[j] = test_rand(&rng); break;
            case 3: v[j] = ~0ull; break;
            case 4: v[j] = 0; break;
            case 5: v[j] = j == 0; break;
            default: v[j] = test_structured_limb(&rng, kind + (int)j); break;
            }
        }
        if (kind == 4 || kind == 5) continue;
        if (kind == 6) { /* a power of two */
            memset(v, 0, limbs * 8);
            v[test_rand(&rng) % limbs] = 1ull << (test_rand(&rng) % 64);
        }
    }
}

/* r (2 limbs) against mpn_mul_n, instance by instance; returns the first bad instance or -1. */
static long check_gmp(const bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                      size_t limbs)
{
    mp_limb_t *w = test_xmalloc(2 * limbs * sizeof(mp_limb_t));
    long bad = -1;
    for (size_t i = 0; i < n && bad < 0; i++) {
        mpn_mul_n(w, (const mp_limb_t *)a + i * limbs, (const mp_limb_t *)b + i * limbs,
                  (mp_size_t)limbs);
        if (memcmp(w, r + i * 2 * limbs, 2 * limbs * 8) != 0) bad = (long)i;
    }
    free(w);
    return bad;
}

static void test_batch(size_t limbs, size_t n)
{
    bulk_limb_t *a = test_xmalloc(n * limbs * 8), *b = test_xmalloc(n * limbs * 8);
    bulk_limb_t *r = test_xmalloc(2 * n * limbs * 8), *rc = test_xmalloc(2 * n * limbs * 8);
    fill(a, n, limbs, 0);
    fill(b, n, limbs, 3 + (int)limbs);
    CHECK(bulk_int_mul(cpu, rc, a, b, n, limbs) == BULK_OK, "cpu mul %zu", limbs);
    long bad = check_gmp(rc, a, b, n, limbs);
    CHECK(bad < 0, "CPU backend differs from GMP at %zu limbs, instance %ld", limbs, bad);

    memset(r, 0x5a, 2 * n * limbs * 8);
    int st = GPU_INTS->ntt_batch(gpu, r, a, b, n, limbs);
    CHECK(st == BULK_OK, "ntt batch %zu limbs: status %d", limbs, st);
    bad = check_gmp(r, a, b, n, limbs);
    CHECK(bad < 0, "ntt batch differs from GMP at %zu limbs (n %zu), instance %ld", limbs, n, bad);
    CHECK(memcmp(r, rc, 2 * n * limbs * 8) == 0, "ntt batch differs from the CPU backend at %zu limbs",
          limbs);
    /* through the public API with the NTT forced (the size choice's hook) */
    CHECK(bulk_ctx_set_tune(gpu, "int.mul=ntt") == BULK_OK, "tune: %s", bulk_ctx_last_error(gpu));
    memset(r, 0x5a, 2 * n * limbs * 8);
    st = bulk_int_mul(gpu, r, a, b, n, limbs);
    CHECK(st == BULK_OK, "bulk_int_mul ntt %zu limbs: status %d", limbs, st);
    CHECK(memcmp(r, rc, 2 * n * limbs * 8) == 0, "bulk_int_mul (ntt) differs at %zu limbs", limbs);
    /* squares (one transform per prime saved) */
    st = bulk_int_sqr(gpu, r, a, n, limbs);
    CHECK(st == BULK_OK, "bulk_int_sqr ntt %zu limbs: status %d", limbs, st);
    bad = check_gmp(r, a, a, n, limbs);
    CHECK(bad < 0, "square (ntt) differs from GMP at %zu limbs, instance %ld", limbs, bad);
    /* Karatsuba over NTT half products (the NTT preferred from 16 limbs) */
    if (limbs % 2 == 0 && limbs >= 64) {
        CHECK(bulk_ctx_set_tune(gpu, "int.mul=kara,int.ntt_min=16") == BULK_OK, "tune: %s", bulk_ctx_last_error(gpu));
        memset(r, 0x5a, 2 * n * limbs * 8);
        st = bulk_int_mul(gpu, r, a, b, n, limbs);
        CHECK(st == BULK_OK, "kara over ntt %zu limbs: status %d", limbs, st);
        CHECK(memcmp(r, rc, 2 * n * limbs * 8) == 0, "Karatsuba over NTT differs at %zu limbs", limbs);
    }
    bulk_ctx_set_tune(gpu, NULL);
    printf("batch %5zu limbs x %5zu instances: %s\n", limbs, n, test_failures ? "FAILED" : "ok");
    fflush(stdout);
    free(a), free(b), free(r), free(rc);
}

/* One large product a (na) * b (nb) with operands of kind 0 random, 1 all ones, 2 power of two
 * times random, 3 structured; against GMP (mpn_mul) and the CPU NTT. */
static void test_big(size_t na, size_t nb, int kind, int square)
{
    if (square) nb = na;
    bulk_limb_t *a = test_xmalloc(na * 8), *b = square ? a : test_xmalloc(nb * 8);
    bulk_limb_t *r = test_xmalloc((na + nb) * 8), *w = test_xmalloc((na + nb) * 8);
    for (size_t i = 0; i < na; i++)
        a[i] = kind == 1 ? ~0ull : kind == 3 ? test_structured_limb(&rng, (int)(i % 8)) : test_rand(&rng);
    if (!square)
        for (size_t i = 0; i < nb; i++)
            b[i] = kind == 1 ? ~0ull : kind == 2 ? (i == nb - 1 ? 1ull << 63 : 0)
                 : kind == 3 ? test_structured_limb(&rng, (int)(i % 7)) : test_rand(&rng);
    if (na >= nb) mpn_mul((mp_limb_t *)w, (const mp_limb_t *)a, (mp_size_t)na, (const mp_limb_t *)b, (mp_size_t)nb);
    else mpn_mul((mp_limb_t *)w, (const mp_limb_t *)b, (mp_size_t)nb, (const mp_limb_t *)a, (mp_size_t)na);
    memset(r, 0x33, (na + nb) * 8);
    int st = GPU_INTS->mul_big(0, r, a, na, b, nb);
    CHECK(st == BULK_OK, "mul_big %zu x %zu: status %d", na, nb, st);
    CHECK(memcmp(r, w, (na + nb) * 8) == 0, "mul_big %zu x %zu kind %d%s differs from GMP", na, nb,
          kind, square ? " (square)" : "");
    if (na + nb >= 64 && na + nb <= (1 << 21) && kind == 0) { /* the CPU backend's NTT (the CPU twin of this path) */
        memset(r, 0x33, (na + nb) * 8);
        if (bulk_mpn_mul_fft(r, a, na, b, nb) == BULK_OK)
            CHECK(memcmp(r, w, (na + nb) * 8) == 0, "CPU NTT %zu x %zu differs from GMP", na, nb);
    }
    printf("big %8zu x %8zu kind %d%s: %s\n", na, nb, kind, square ? " square" : "",
           test_failures ? "FAILED" : "ok");
    fflush(stdout);
    free(a), free(r), free(w);
    if (!square) free(b);
}

/* Several host threads at once (the contract: thread-safe; the pinned staging slots are shared
 * under a mutex): each thread multiplies its own operands and checks against GMP. */
struct conc {
    size_t na, nb;
    uint64_t seed;
    int bad, status;
};

static void *conc_run(void *p)
{
    struct conc *c = p;
    uint64_t st = c->seed;
    bulk_limb_t *a = test_xmalloc(c->na * 8), *b = test_xmalloc(c->nb * 8), *r = test_xmalloc((c->na + c->nb) * 8),
                *w = test_xmalloc((c->na + c->nb) * 8);
    for (int rep = 0; rep < 3 && !c->bad && c->status == BULK_OK; rep++) {
        for (size_t i = 0; i < c->na; i++) a[i] = test_rand(&st);
        for (size_t i = 0; i < c->nb; i++) b[i] = test_rand(&st);
        c->status = GPU_INTS->mul_big(0, r, a, c->na, b, c->nb);
        mpn_mul((mp_limb_t *)w, (const mp_limb_t *)a, (mp_size_t)c->na, (const mp_limb_t *)b,
                (mp_size_t)c->nb);
        c->bad = c->status == BULK_OK && memcmp(r, w, (c->na + c->nb) * 8) != 0;
    }
    free(a), free(b), free(r), free(w);
    return NULL;
}

static void test_concurrent(void)
{
    enum { NT = 4 };
    pthread_t th[NT];
    struct conc c[NT];
    for (int t = 0; t < NT; t++) {
        c[t] = (struct conc){(size_t)150000 + 37 * (size_t)t, (size_t)120000 - 11 * (size_t)t,
                             test_rand(&rng), 0, BULK_OK};
        CHECK(pthread_create(&th[t], NULL, conc_run, &c[t]) == 0, "pthread_create");
    }
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        CHECK(c[t].status == BULK_OK, "concurrent mul_big thread %d: status %d", t, c[t].status);
        CHECK(!c[t].bad, "concurrent mul_big thread %d differs from GMP", t);
    }
    printf("concurrent mul_big (%d threads): %s\n", NT, test_failures ? "FAILED" : "ok");
}

/* The device-pointer variant and the memory helpers. */
static void test_big_dev(size_t na, size_t nb)
{
    bulk_limb_t *a = test_xmalloc(na * 8), *b = test_xmalloc(nb * 8), *r = test_xmalloc((na + nb) * 8),
                *w = test_xmalloc((na + nb) * 8);
    for (size_t i = 0; i < na; i++) a[i] = test_rand(&rng);
    for (size_t i = 0; i < nb; i++) b[i] = test_rand(&rng);
    mpn_mul((mp_limb_t *)w, (const mp_limb_t *)a, (mp_size_t)na, (const mp_limb_t *)b, (mp_size_t)nb);
    void *da = NULL, *db = NULL, *dr = NULL;
    int st = GPU_INTS->raw_alloc(0, &da, na * 8);
    if (st == BULK_OK) st = GPU_INTS->raw_alloc(0, &db, nb * 8);
    if (st == BULK_OK) st = GPU_INTS->raw_alloc(0, &dr, (na + nb) * 8);
    if (st == BULK_OK) st = GPU_INTS->raw_put(0, da, a, na * 8);
    if (st == BULK_OK) st = GPU_INTS->raw_put(0, db, b, nb * 8);
    if (st == BULK_OK) st = GPU_INTS->mul_big_dev(0, dr, da, na, db, nb);
    if (st == BULK_OK) st = GPU_INTS->raw_get(0, r, dr, (na + nb) * 8);
    CHECK(st == BULK_OK, "mul_big_dev %zu x %zu: status %d", na, nb, st);
    CHECK(st != BULK_OK || memcmp(r, w, (na + nb) * 8) == 0, "mul_big_dev %zu x %zu differs", na, nb);
    GPU_INTS->raw_free(0, da), GPU_INTS->raw_free(0, db), GPU_INTS->raw_free(0, dr);
    free(a), free(b), free(r), free(w);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    if (bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device (test_int_gpu_ntt needs one; nothing was run)\n");
        return 77; /* ctest: SKIP_RETURN_CODE */
    }
    if (bulk_ctx_open(&gpu, BULK_BACKEND_CUDA, 0) != BULK_OK ||
        bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) {
        fprintf(stderr, "cannot open the contexts\n");
        return 1;
    }
    /* argument checks */
    bulk_limb_t one = 1, out[2];
    CHECK(GPU_INTS->mul_big(0, out, &one, 0, &one, 1) == BULK_ERR_ARG, "na = 0 accepted");
    CHECK(GPU_INTS->mul_big(0, out, &one, BULK_INT_CUDA_NTT_MAX_LIMBS, &one, 1) == BULK_ERR_ARG,
          "too large accepted");
    CHECK(GPU_INTS->ntt_batch(gpu, out, &one, &one, 1, GPU_INTS->ntt_batch_max_limbs() + 1) ==
              BULK_ERR_ARG, "too wide batch accepted");

    /* batched: every transform length 2^2 .. 2^15, widths not powers of two, batches that do
     * not fill a sub-batch evenly */
    static const size_t bl[] = {1, 2, 3, 5, 8, 16, 17, 31, 64, 100, 128, 255, 512, 513,
                                1000, 1024, 1536, 2048, 3001, 4096, 6000, 8192};
    for (size_t k = 0; k < sizeof bl / sizeof bl[0]; k++) {
        size_t n = bl[k] <= 64 ? 1003 : bl[k] <= 1024 ? 101 : 23;
        test_batch(bl[k], n);
    }

    /* single large products: small, unbalanced, odd sizes, across the 4096-point block size,
     * powers of two, the largest coefficients, squares; up to 2^22 limbs per operand */
    static const size_t big[][2] = {{1, 1}, {2, 3}, {1000, 1}, {1024, 1024}, {1025, 1023},
                                    {4096, 4096}, {12345, 6789}, {65536, 65536},
                                    {100003, 77}, {1 << 20, 1 << 20}, {(1 << 20) + 5, 1 << 19},
                                    {1 << 22, 1 << 22}};
    for (size_t k = 0; k < sizeof big / sizeof big[0]; k++)
        for (int kind = 0; kind < 4; kind++) {
            if (big[k][0] >= (1 << 20) && kind > (big[k][0] >= (1 << 22) ? 0 : 1))
                continue; /* GMP time */
            test_big(big[k][0], big[k][1], kind, 0);
        }
    test_big(3, 3, 0, 1);
    test_big(4096, 4096, 1, 1);
    test_big(100000, 100000, 0, 1);
    test_big(1 << 21, 1 << 21, 1, 1);
    test_big(300000, 200001, 0, 0);
    test_concurrent();
    test_big_dev(5000, 3333);
    test_big_dev(1 << 18, 1 << 18);

    bulk_ctx_close(gpu);
    bulk_ctx_close(cpu);
    return test_finish();
}
