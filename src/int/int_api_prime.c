/* The public primality wrappers of bulk/int.h (bulk_int_isprime, bulk_int_nextprime): argument
 * checks, isprime on a CUDA context through the device's trial division, powmod and Lucas
 * sequences (int_prime_offload.h; nextprime there tests its candidates in batches through that isprime),
 * then every instance (isprime: those the device left undecided, or all of them) through
 * int/cpu/prime.h on the context's threads (int_parallel.h), with a scratch area per worker
 * (int_workers.h). The table of small primes is built once per call and shared read-only by
 * the workers. */
#include <stdlib.h>

#include "backend/report.h"
#include "int/cpu/prime.h"
#include "int/int_parallel.h"
#include "int/int_prime_offload.h"
#include "int/int_workers.h"

/* More rounds than this are refused: 2^-2048 is far below any hardware error rate. */
#define MAX_ROUNDS 1024u

struct prime_job {
    int next;                      /* 0: isprime, 1: nextprime */
    int redo;                      /* isprime: only the instances the device left at 2 */
    uint8_t *out;
    bulk_limb_t *r;
    const bulk_limb_t *a;
    size_t limbs;
    unsigned rounds;
    int8_t *err;
    const bulk_prime_table *t;
    size_t scratch_limbs;
    bulk_int_workers w;             /* failures: nextprime's overflowing instances */
};

static void prime_range(void *p, size_t begin, size_t end, int worker)
{
    struct prime_job *j = p;
    bulk_limb_t *tp = bulk_int_workers_scratch(&j->w, worker);
    if (!tp) return;
    size_t L = j->limbs;
    for (size_t i = begin; i < end; i++) {
        if (!j->next) {
            if (j->redo && j->out[i] != 2) continue;
            j->out[i] = (uint8_t)bulk_prime_isprime(j->a + i * L, L, j->rounds, j->t, tp);
            continue;
        }
        int st = bulk_prime_next(j->r + i * L, j->a + i * L, L, j->rounds, j->t, tp);
        if (j->err) j->err[i] = (int8_t)st;
        if (st != BULK_OK) bulk_int_workers_fail(&j->w, worker, i, st);
    }
}

static int overflow(bulk_ctx *ctx, const char *fn, size_t i, size_t limbs)
{
    return bulk_fail(ctx, BULK_ERR_OVERFLOW, "%s: instance %zu: the next prime needs more than "
                     "%zu limbs", fn, i, limbs);
}

static int run(bulk_ctx *ctx, const char *fn, struct prime_job *j, size_t n, uint32_t limit,
               double cost)
{
    bulk_prime_table t;
    int st = bulk_prime_table_init(&t, limit);
    j->t = &t;
    size_t best = SIZE_MAX;
    int wst = bulk_int_workers_init(&j->w, ctx, j->scratch_limbs);
    if (st == BULK_OK && wst == BULK_OK) {
        bulk_int_parallel(ctx, n, cost, prime_range, j);
        st = bulk_int_workers_result(&j->w, &best);
    } else {
        st = BULK_ERR_NOMEM;
    }
    bulk_int_workers_free(&j->w);
    bulk_prime_table_free(&t);
    if (st == BULK_ERR_NOMEM)
        return bulk_fail(ctx, st, "%s: scratch of %zu limbs per thread: out of memory", fn,
                         j->scratch_limbs);
    if (best != SIZE_MAX) return overflow(ctx, fn, best, j->limbs);
    return BULK_OK;
}

static int check(const char *fn, bulk_ctx *ctx, size_t n, size_t limbs, unsigned rounds,
                 const void *res, const char *res_name, const bulk_limb_t *a)
{
    int st = bulk_int_check_args(fn, ctx, n, limbs, 1);
    if (st != BULK_OK) return st;
    if (rounds > MAX_ROUNDS)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: rounds %u: must be at most %u", fn, rounds,
                         MAX_ROUNDS);
    if (n > 0 && (!res || !a))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s: must not be NULL", fn,
                         !res ? res_name : "a");
    return BULK_OK;
}

int bulk_int_isprime(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a, size_t n, size_t limbs,
                     unsigned rounds)
{
    static const char fn[] = "bulk_int_isprime";
    int st = check(fn, ctx, n, limbs, rounds, out, "out", a);
    if (st != BULK_OK || n == 0) return st;
    if (bulk_int_overlap(out, n, a, n * limbs * sizeof *a))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: out: overlaps a", fn);
    struct prime_job j = { .out = out, .a = a, .limbs = limbs, .rounds = rounds };
    if (bulk_int_on_device(ctx, BULK_INT_OP_ISPRIME) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_POWMOD)) {
        /* the device's trial division, powmod and Lucas sequences decide every instance (the
         * CPU threads finishing each test); without a lucas entry the base-2 strong probable
         * primes are left to the CPU threads below */
        const bulk_int_backend *g = ctx->gpu->ints;
        bulk_prime_offload o = { .powmod = g->powmod, .trial = g->trial, .lucas = g->lucas,
                                 .rounds = rounds, .sprp2 = g->sprp2 };
        st = bulk_prime_offload_run(ctx, &o, out, a, n, limbs);
        if (st != BULK_OK || o.lucas) return st;
        j.redo = 1;
    }
    j.scratch_limbs = bulk_prime_bpsw_scratch(limbs);
    double L = (double)limbs;
    return run(ctx, fn, &j, n, bulk_prime_isprime_limit(limbs),
               (1.0 + rounds) * 64.0 * L * L * L / 4 + 64.0 * L);
}

int bulk_int_nextprime(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t n,
                       size_t limbs, unsigned rounds, int8_t *err)
{
    static const char fn[] = "bulk_int_nextprime";
    int st = check(fn, ctx, n, limbs, rounds, r, "r", a);
    if (st != BULK_OK || n == 0) return st;
    size_t nb = n * limbs * sizeof *a;
    if (bulk_int_overlap(r, nb, a, nb))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: r: overlaps a", fn);
    if (bulk_int_on_device(ctx, BULK_INT_OP_ISPRIME) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_POWMOD)) {
        /* the candidates of every instance in batches through isprime's device path */
        size_t first;
        st = bulk_prime_next_batched(ctx, bulk_int_isprime, r, a, n, limbs, rounds, err, &first);
        return st == BULK_ERR_OVERFLOW ? overflow(ctx, fn, first, limbs) : st;
    }
    struct prime_job j = { .next = 1, .r = r, .a = a, .limbs = limbs, .rounds = rounds,
                           .err = err };
    j.scratch_limbs = bulk_prime_next_scratch(limbs);
    double L = (double)limbs;
    return run(ctx, fn, &j, n, 65536, (4.0 + rounds) * 64.0 * L * L * L + 64.0 * L * L);
}
