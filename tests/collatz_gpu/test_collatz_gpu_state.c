/* GPU test of the CUDA Collatz backend's state on the context (label gpu; exits 77, reported as
 * skipped, without a CUDA device):
 * - two CUDA contexts (on devices 0 and 1 where there are two, else both on device 0), used from
 *   two threads at the same time with different engines (d, k, a) and layouts: verify, delays
 *   and delay records through the public functions equal the CPU backend's, every round;
 * - each context's last_stats describe its own last call (verify in one, delays in the other);
 * - the table's release in the middle of a thread's rounds (while the other context runs): the
 *   state is freed, a second release finds nothing, the next call builds it again;
 * - a context whose device is past the last one: BULK_ERR_NO_BACKEND with a message.
 * Replay: --seed S. */
#include <pthread.h>

#include "test_util.h"

#include "backend/context.h"
#include "collatz/collatz_backend.h"
#include "collatz/collatz_internal.h"

typedef unsigned __int128 u128;

static bulk_u128 U(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

#define ROUNDS 3
#define NDELAYS (1u << 21)

/* One thread's work: its context, engine parameters and ranges, the CPU's answers, and what it
 * found (checked by main after the join: CHECK is not for two threads at once). */
struct job {
    bulk_ctx *ctx;
    const char *tune;
    int d, k, a;
    u128 vfirst, vlast, dfirst, rfirst, rlast;
    int last_is_verify; /* the round's last call: verify (else delays) */
    bulk_collatz_verify_result vref;
    uint32_t *dref;
    bulk_collatz_record *rref;
    size_t nrref;
    /* results */
    int status, wrong, released_ok;
    char error[512];
};

static int same_result(const bulk_collatz_verify_result *a, const bulk_collatz_verify_result *b)
{
    return !memcmp(&a->covered, &b->covered, sizeof a->covered) && !memcmp(&a->iterated, &b->iterated, sizeof a->iterated) &&
           !memcmp(&a->checksum, &b->checksum, sizeof a->checksum) && a->overflows == b->overflows &&
           a->max_glide == b->max_glide && !memcmp(&a->max_glide_n, &b->max_glide_n, sizeof a->max_glide_n);
}

static int fail(struct job *j, int st)
{
    j->status = st;
    snprintf(j->error, sizeof j->error, "%s", bulk_ctx_last_error(j->ctx));
    return st;
}

static int run_round(struct job *j, bulk_collatz_engine *e, uint32_t *got)
{
    bulk_collatz_verify_result r;
    bulk_collatz_record *recs = NULL;
    size_t nrecs = 0;
    int st = bulk_collatz_records(j->ctx, e, BULK_COLLATZ_DELAY, U(j->rfirst), U(j->rlast), &recs, &nrecs);
    if (st) return fail(j, st);
    j->wrong += nrecs != j->nrref || (nrecs && memcmp(recs, j->rref, nrecs * sizeof *recs));
    free(recs);
    if (j->last_is_verify) {
        if ((st = bulk_collatz_delays(j->ctx, e, U(j->dfirst), NDELAYS, got))) return fail(j, st);
        j->wrong += memcmp(got, j->dref, NDELAYS * sizeof *got) != 0;
    }
    if ((st = bulk_collatz_verify(j->ctx, e, U(j->vfirst), U(j->vlast), NULL, &r))) return fail(j, st);
    j->wrong += !same_result(&r, &j->vref);
    if (!j->last_is_verify) {
        if ((st = bulk_collatz_delays(j->ctx, e, U(j->dfirst), NDELAYS, got))) return fail(j, st);
        j->wrong += memcmp(got, j->dref, NDELAYS * sizeof *got) != 0;
    }
    return BULK_OK;
}

static void *thread_main(void *arg)
{
    struct job *j = arg;
    bulk_collatz_engine *e = NULL;
    uint32_t *got = malloc(NDELAYS * sizeof *got);
    int st = got ? bulk_ctx_set_tune(j->ctx, j->tune) : BULK_ERR_NOMEM;
    if (st == BULK_OK) st = bulk_collatz_engine_new(&e, j->ctx, j->d, j->k, j->a);
    if (st != BULK_OK) fail(j, st);
    j->released_ok = 1;
    for (int round = 0; round < ROUNDS && j->status == BULK_OK; round++) {
        if (run_round(j, e, got) != BULK_OK) break;
        if (round == 1) {
            /* the state goes (twice: the second finds nothing) and comes back on the next call */
            const struct bulk_collatz_backend *cz = j->ctx->gpu->collatz;
            cz->release(j->ctx->cuda);
            j->released_ok &= j->ctx->cuda->collatz == NULL;
            cz->release(j->ctx->cuda);
            j->released_ok &= j->ctx->cuda->collatz == NULL;
        }
    }
    bulk_collatz_engine_free(e);
    free(got);
    return NULL;
}

/* The CPU's answers for j (an engine of the same d, k, a on the CPU context). */
static int reference(bulk_ctx *cpu, struct job *j)
{
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, cpu, j->d, j->k, j->a);
    if (st == BULK_OK) st = bulk_collatz_verify(cpu, e, U(j->vfirst), U(j->vlast), NULL, &j->vref);
    if (st == BULK_OK) st = (j->dref = malloc(NDELAYS * sizeof *j->dref)) ? BULK_OK : BULK_ERR_NOMEM;
    if (st == BULK_OK) st = bulk_collatz_delays(cpu, e, U(j->dfirst), NDELAYS, j->dref);
    if (st == BULK_OK)
        st = bulk_collatz_records(cpu, e, BULK_COLLATZ_DELAY, U(j->rfirst), U(j->rlast), &j->rref, &j->nrref);
    bulk_collatz_engine_free(e);
    return st;
}

/* A device number past the last one (bulk_ctx_set_device refuses it; set behind its back here,
 * as a device that went away would look): the CUDA paths find no device and say so. */
static void past_last_device(bulk_ctx *cpu)
{
    bulk_ctx *g;
    if (bulk_ctx_open(&g, BULK_BACKEND_CUDA, 0) != BULK_OK) return;
    bulk_collatz_engine *e;
    if (bulk_collatz_engine_new(&e, cpu, 10, 8, 16) == BULK_OK) {
        const int keep = g->cuda->device;
        g->cuda->device = bulk_cuda_device_count();
        uint32_t out[16];
        int st = bulk_collatz_delays(g, e, U(1000), 16, out);
        CHECK(st == BULK_ERR_NO_BACKEND, "delays on device %d of %d: %d", g->cuda->device, bulk_cuda_device_count(), st);
        CHECK(bulk_ctx_last_error(g)[0] != 0, "no message for the missing device");
        printf("device past the last: %s\n", bulk_ctx_last_error(g));
        g->cuda->device = keep;
        bulk_collatz_engine_free(e);
    }
    g->gpu->collatz->release(g->cuda);
    bulk_ctx_close(g);
}

int main(int argc, char **argv)
{
    uint64_t rs = test_seed(argc, argv);
    if (bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device (the CUDA Collatz state was not tested)\n");
        return 77; /* ctest: SKIP_RETURN_CODE */
    }
    bulk_ctx *cpu, *g[2] = { NULL, NULL };
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) return 1;
    for (int i = 0; i < 2; i++)
        if (bulk_ctx_open(&g[i], BULK_BACKEND_CUDA, 0) != BULK_OK || !g[i]->gpu) {
            fprintf(stderr, "cannot open a CUDA context: %s\n", bulk_ctx_last_error(NULL));
            return 1;
        }
    const int two = bulk_cuda_device_count() >= 2;
    /* one device each where there are two */
    if (two && (bulk_ctx_set_device(g[0], 0) != BULK_OK || bulk_ctx_set_device(g[1], 1) != BULK_OK)) {
        fprintf(stderr, "bulk_ctx_set_device: %s\n", bulk_ctx_last_error(g[1]));
        return 1;
    }
    const u128 two64 = (u128)1 << 64, two68 = (u128)1 << 68;
    const u128 j1 = test_rand(&rs) % 100000, j2 = test_rand(&rs) % 100000;
    struct job jobs[2] = {
        { .ctx = g[0], .tune = NULL, .d = 12, .k = 16, .a = 20, .vfirst = two64 - ((u128)1 << 27) + j1,
          .vlast = two64 + ((u128)1 << 27) + j2, .dfirst = two64 - 1000000 + j2, .rfirst = two64 + j1,
          .rlast = two64 + ((u128)1 << 22), .last_is_verify = 1 },
        { .ctx = g[1], .tune = "cz.layout=batch", .d = 10, .k = 20, .a = 18, .vfirst = two68 + j2,
          .vlast = two68 + ((u128)1 << 28) + j1, .dfirst = two68 + j1, .rfirst = 1, .rlast = ((u128)1 << 22) + j2,
          .last_is_verify = 0 },
    };
    for (int i = 0; i < 2; i++) {
        int st = reference(cpu, &jobs[i]);
        CHECK(st == BULK_OK, "CPU reference %d: %d", i, st);
        if (st) return test_finish();
    }
    printf("two contexts on %s, %d rounds each, from two threads\n", two ? "devices 0 and 1" : "device 0", ROUNDS);
    pthread_t th[2];
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&th[i], NULL, thread_main, &jobs[i]) == 0, "thread %d", i);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++) {
        struct job *j = &jobs[i];
        CHECK(j->status == BULK_OK, "context %d: status %d: %s", i, j->status, j->error);
        CHECK(j->wrong == 0, "context %d: %d results differ from the CPU's", i, j->wrong);
        CHECK(j->released_ok, "context %d: release left the state behind", i);
        bulk_collatz_cuda_stats s;
        j->ctx->gpu->collatz->last_stats(j->ctx, &s);
        /* delays time their kernels, verify does not: each context reports its own last call */
        CHECK(s.devices >= 1 && s.launches > 0, "context %d: stats of its last call: %d devices, %llu launches", i,
              s.devices, (unsigned long long)s.launches);
        CHECK((s.kernel_seconds > 0) == !j->last_is_verify, "context %d: stats of the other context's call", i);
        printf("  context %d (d=%d k=%d a=%d%s%s): %s, %d device(s) in its last call\n", i, j->d, j->k, j->a,
               j->tune ? ", " : "", j->tune ? j->tune : "", j->status || j->wrong ? "FAILED" : "same as the CPU",
               s.devices);
        free(j->dref);
        free(j->rref);
    }
    past_last_device(cpu);
    for (int i = 0; i < 2; i++) {
        g[i]->gpu->collatz->release(g[i]->cuda);
        bulk_ctx_close(g[i]);
    }
    bulk_ctx_close(cpu);
    return test_finish();
}
