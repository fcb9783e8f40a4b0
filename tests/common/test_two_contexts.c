/* Two CUDA contexts in one process, used from two threads at once, give the CPU's answers.
 *
 * Each context owns its GPU state (streams, pinned staging, device caches: backend/cuda_state.h),
 * so nothing may leak between them. Two threads run at the same time, each with its own CUDA
 * context (devices 0 and 1 where there are two, else both on device 0, set with
 * bulk_ctx_set_device) and its own CPU context, and compare: integer mul and divmod batches
 * (widths on both sides of the GPU's kernel choices), a Life run, a CKY parse, Collatz verify and
 * delays. Several rounds, each with a fresh seed derived from the printed one (replay with
 * --seed). Skips (77) without a CUDA device; the argument checks of bulk_ctx_set_device run
 * everywhere. */
#include <pthread.h>

#include "bulk/bulk.h"
#include "bulk/cky.h"
#include "bulk/collatz.h"
#include "bulk/int.h"
#include "bulk/life.h"
#include "../test_util.h"

enum { ROUNDS = 3 };

typedef struct worker {
    int device;
    uint64_t seed;
    int failures;
    char first[512]; /* the first failure */
} worker;

#define WCHECK(w, cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if ((w)->failures++ == 0) snprintf((w)->first, sizeof (w)->first, __VA_ARGS__);       \
        }                                                                                          \
    } while (0)

static void fill(uint64_t *x, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n; i++) x[i] = test_rand(s);
}

static void int_round(worker *w, bulk_ctx *gpu, bulk_ctx *cpu, uint64_t *s)
{
    static const size_t widths[] = {1, 4, 16, 33, 64, 256};
    const size_t limbs = widths[test_rand(s) % (sizeof widths / sizeof widths[0])];
    const size_t n = 3000 + test_rand(s) % 2000;
    uint64_t *a = test_xmalloc(n * 2 * limbs * 8), *b = test_xmalloc(n * limbs * 8);
    uint64_t *r1 = test_xmalloc(n * 2 * limbs * 8), *r2 = test_xmalloc(n * 2 * limbs * 8);
    uint64_t *q1 = test_xmalloc(n * 2 * limbs * 8), *q2 = test_xmalloc(n * 2 * limbs * 8);
    int8_t *e1 = test_xmalloc(n), *e2 = test_xmalloc(n);
    fill(a, n * 2 * limbs, s);
    fill(b, n * limbs, s);
    if (limbs > 1)
        for (size_t i = 0; i < n; i += 97) b[i * limbs + limbs - 1] = 0; /* shorter divisors */
    for (size_t i = 0; i < n; i++) b[i * limbs] |= 1; /* no zero divisor */
    int st1 = bulk_int_mul(gpu, r1, a, b, n, limbs), st2 = bulk_int_mul(cpu, r2, a, b, n, limbs);
    WCHECK(w, st1 == BULK_OK && st2 == BULK_OK, "device %d: mul %zu limbs: status %d / %d (%s)", w->device,
           limbs, st1, st2, bulk_ctx_last_error(gpu));
    WCHECK(w, memcmp(r1, r2, n * 2 * limbs * 8) == 0, "device %d: mul %zu limbs x %zu differs from the CPU",
           w->device, limbs, n);
    st1 = bulk_int_divmod(gpu, q1, r1, a, 2 * limbs, b, n, limbs, e1);
    st2 = bulk_int_divmod(cpu, q2, r2, a, 2 * limbs, b, n, limbs, e2);
    WCHECK(w, st1 == st2, "device %d: divmod %zu limbs: status %d, CPU %d (%s)", w->device, limbs, st1, st2,
           bulk_ctx_last_error(gpu));
    WCHECK(w, memcmp(q1, q2, n * 2 * limbs * 8) == 0 && memcmp(r1, r2, n * limbs * 8) == 0 &&
                  memcmp(e1, e2, n) == 0,
           "device %d: divmod %zu/%zu limbs x %zu differs from the CPU", w->device, 2 * limbs, limbs, n);
    free(a), free(b), free(r1), free(r2), free(q1), free(q2), free(e1), free(e2);
}

static void life_round(worker *w, bulk_ctx *gpu, bulk_ctx *cpu, uint64_t *s)
{
    const uint64_t width = 300 + test_rand(s) % 400, height = 200 + test_rand(s) % 300;
    const int torus = (int)(test_rand(s) & 1);
    const size_t words = bulk_life_words(width) * height;
    uint64_t *g1 = test_xmalloc(words * 8), *g2 = test_xmalloc(words * 8);
    const uint64_t pad = width % 64 ? (1ull << (width % 64)) - 1 : ~0ull;
    for (size_t i = 0; i < words; i++) {
        g1[i] = test_rand(s) & test_rand(s); /* about a quarter alive */
        if ((i + 1) % bulk_life_words(width) == 0) g1[i] &= pad;
    }
    memcpy(g2, g1, words * 8);
    bulk_life_rule rule = bulk_life_rule_conway();
    int st1 = bulk_life_grid_step(gpu, g1, width, height, torus, &rule, 100, 0);
    int st2 = bulk_life_grid_step(cpu, g2, width, height, torus, &rule, 100, 0);
    WCHECK(w, st1 == BULK_OK && st2 == BULK_OK, "device %d: life: status %d / %d (%s)", w->device, st1, st2,
           bulk_ctx_last_error(gpu));
    WCHECK(w, memcmp(g1, g2, words * 8) == 0, "device %d: life %" PRIu64 "x%" PRIu64 "%s differs from the CPU",
           w->device, width, height, torus ? " torus" : "");
    free(g1), free(g2);
}

static void cky_round(worker *w, bulk_ctx *gpu, bulk_ctx *cpu, uint64_t *s)
{
    bulk_grammar *g = NULL;
    const unsigned nnt = 8 + (unsigned)(test_rand(s) % 40);
    int st = bulk_grammar_random(&g, nnt, 4 * nnt, 4, BULK_CKY_TOKENS, test_rand(s));
    WCHECK(w, st == BULK_OK, "device %d: random grammar: %d", w->device, st);
    if (st != BULK_OK) return;
    const size_t m = 5000;
    size_t *off = test_xmalloc((m + 1) * sizeof *off);
    off[0] = 0;
    for (size_t i = 0; i < m; i++) off[i + 1] = off[i] + test_rand(s) % 24;
    int32_t *syms = test_xmalloc((off[m] + 1) * sizeof *syms);
    for (size_t i = 0; i < off[m]; i++) syms[i] = (int32_t)(test_rand(s) % 4);
    uint8_t *y1 = test_xmalloc(m), *y2 = test_xmalloc(m);
    int st1 = bulk_cky_parse(gpu, g, y1, syms, off, m), st2 = bulk_cky_parse(cpu, g, y2, syms, off, m);
    WCHECK(w, st1 == BULK_OK && st2 == BULK_OK, "device %d: cky: status %d / %d (%s)", w->device, st1, st2,
           bulk_ctx_last_error(gpu));
    WCHECK(w, memcmp(y1, y2, m) == 0, "device %d: cky (%u non-terminals) differs from the CPU", w->device, nnt);
    free(off), free(syms), free(y1), free(y2);
    bulk_grammar_free(g);
}

static int same_result(const bulk_collatz_verify_result *a, const bulk_collatz_verify_result *b)
{
    return a->covered.lo == b->covered.lo && a->covered.hi == b->covered.hi &&
           a->checksum.lo == b->checksum.lo && a->checksum.hi == b->checksum.hi &&
           a->overflows == b->overflows && a->max_glide == b->max_glide &&
           a->max_glide_n.lo == b->max_glide_n.lo && a->max_glide_n.hi == b->max_glide_n.hi;
}

static void collatz_round(worker *w, bulk_ctx *gpu, bulk_ctx *cpu, uint64_t *s)
{
    bulk_collatz_engine *eg = NULL, *ec = NULL;
    int st1 = bulk_collatz_engine_new(&eg, gpu, 12, 16, 16), st2 = bulk_collatz_engine_new(&ec, cpu, 12, 16, 16);
    WCHECK(w, st1 == BULK_OK && st2 == BULK_OK, "device %d: collatz engines: %d / %d", w->device, st1, st2);
    if (st1 == BULK_OK && st2 == BULK_OK) {
        const uint64_t first = ((uint64_t)1 << 40) + (test_rand(s) >> 30), last = first + ((uint64_t)1 << 24);
        bulk_collatz_verify_result *r1 = test_xmalloc(sizeof *r1), *r2 = test_xmalloc(sizeof *r2);
        st1 = bulk_collatz_verify(gpu, eg, (bulk_u128){first, 0}, (bulk_u128){last, 0}, NULL, r1);
        st2 = bulk_collatz_verify(cpu, ec, (bulk_u128){first, 0}, (bulk_u128){last, 0}, NULL, r2);
        WCHECK(w, st1 == BULK_OK && st2 == BULK_OK, "device %d: collatz verify: %d / %d", w->device, st1, st2);
        WCHECK(w, same_result(r1, r2), "device %d: collatz verify [%" PRIu64 ", %" PRIu64 "] differs from the CPU",
               w->device, first, last);
        free(r1), free(r2);
        const uint64_t count = 200000, start = 1 + (test_rand(s) >> 24);
        uint32_t *d1 = test_xmalloc(count * 4), *d2 = test_xmalloc(count * 4);
        st1 = bulk_collatz_delays(gpu, eg, (bulk_u128){start, 0}, count, d1);
        st2 = bulk_collatz_delays(cpu, ec, (bulk_u128){start, 0}, count, d2);
        WCHECK(w, st1 == BULK_OK && st2 == BULK_OK, "device %d: collatz delays: %d / %d", w->device, st1, st2);
        WCHECK(w, memcmp(d1, d2, count * 4) == 0, "device %d: collatz delays from %" PRIu64 " differ from the CPU",
               w->device, start);
        free(d1), free(d2);
    }
    bulk_collatz_engine_free(eg);
    bulk_collatz_engine_free(ec);
}

static void *run_worker(void *arg)
{
    worker *w = arg;
    bulk_ctx *gpu = NULL, *cpu = NULL;
    if (bulk_ctx_open(&gpu, BULK_BACKEND_CUDA, 2) != BULK_OK || bulk_ctx_set_device(gpu, w->device) != BULK_OK ||
        bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 2) != BULK_OK) {
        WCHECK(w, 0, "device %d: cannot open the contexts: %s", w->device, bulk_ctx_last_error(gpu));
    } else {
        WCHECK(w, bulk_ctx_device(gpu) == w->device, "device %d: bulk_ctx_device says %d", w->device,
               bulk_ctx_device(gpu));
        uint64_t s = w->seed;
        int_round(w, gpu, cpu, &s);
        life_round(w, gpu, cpu, &s);
        cky_round(w, gpu, cpu, &s);
        collatz_round(w, gpu, cpu, &s);
        int_round(w, gpu, cpu, &s); /* again, on the slots the first round left */
    }
    bulk_ctx_close(gpu);
    bulk_ctx_close(cpu);
    return NULL;
}

/* bulk_ctx_set_device's refusals, on any machine. */
static void test_set_device_args(void)
{
    CHECK(bulk_ctx_set_device(NULL, 0) == BULK_ERR_ARG, "NULL context accepted");
    CHECK(bulk_ctx_device(NULL) == -1, "bulk_ctx_device(NULL) is not -1");
    bulk_ctx *cpu = NULL;
    CHECK(bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 1) == BULK_OK, "cpu context");
    if (!cpu) return;
    CHECK(bulk_ctx_device(cpu) == -1, "a CPU context has device %d", bulk_ctx_device(cpu));
    CHECK(bulk_ctx_set_device(cpu, 0) == BULK_ERR_ARG, "a CPU context took a device");
    CHECK(strstr(bulk_ctx_last_error(cpu), "bulk_ctx_set_device") != NULL, "no message: '%s'",
          bulk_ctx_last_error(cpu));
    bulk_ctx_close(cpu);
    if (bulk_cuda_device_count() == 0) return;
    bulk_ctx *gpu = NULL;
    CHECK(bulk_ctx_open(&gpu, BULK_BACKEND_CUDA, 1) == BULK_OK, "cuda context");
    if (!gpu) return;
    CHECK(bulk_ctx_device(gpu) == 0, "a CUDA context opens on device %d", bulk_ctx_device(gpu));
    CHECK(bulk_ctx_set_device(gpu, -1) == BULK_ERR_ARG, "device -1 accepted");
    CHECK(bulk_ctx_set_device(gpu, bulk_cuda_device_count()) == BULK_ERR_ARG, "device past the last accepted");
    CHECK(bulk_ctx_device(gpu) == 0, "a refused device changed the context");
    bulk_ctx_close(gpu);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    test_set_device_args();
    const int devices = bulk_cuda_device_count();
    if (devices == 0) {
        printf("SKIP: no CUDA device (the two-context GPU test needs one; argument checks ran)\n");
        return test_failures ? 1 : 77;
    }
    const int second = devices > 1 ? 1 : 0;
    printf("two contexts on devices 0 and %d (%d device%s)\n", second, devices, devices > 1 ? "s" : "");
    for (int round = 0; round < ROUNDS; round++) {
        uint64_t s = seed + (uint64_t)round;
        worker w[2] = {{.device = 0, .seed = test_rand(&s)}, {.device = second, .seed = test_rand(&s)}};
        pthread_t t[2];
        int started[2];
        for (int i = 0; i < 2; i++) started[i] = pthread_create(&t[i], NULL, run_worker, &w[i]) == 0;
        for (int i = 0; i < 2; i++) {
            if (started[i]) pthread_join(t[i], NULL);
            CHECK(started[i], "round %d: thread %d did not start", round, i);
            CHECK(w[i].failures == 0, "round %d (seed %" PRIu64 "), thread %d: %d failure(s), first: %s", round, seed,
                  i, w[i].failures, w[i].first);
        }
        printf("round %d: %s\n", round, w[0].failures + w[1].failures ? "FAILED" : "ok");
    }
    return test_finish();
}
