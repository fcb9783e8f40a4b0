/* The public bulk wrappers of bulk/int.h for divmod, gcd, invmod and powmod: argument checks,
 * then every instance through the single-instance layer of int/mpn_div.h on the context's
 * threads (int_parallel.h), with a scratch area per worker (int_workers.h).
 *
 * Per-instance errors (int.h): err[i] (when err is not NULL) gets 0 or the code, the
 * instance's results are zero, and the return value is the code of the lowest-numbered
 * failing instance: the same whatever the thread count. */
#include <stdlib.h>

#include "backend/report.h"
#include "int/int_parallel.h"
#include "int/int_workers.h"
#include "int/mpn_div.h"

typedef enum { JOB_DIVMOD, JOB_GCD, JOB_INVMOD, JOB_POWMOD } job_kind;
static const char *const job_name[] = { "bulk_int_divmod", "bulk_int_gcd", "bulk_int_invmod",
                                        "bulk_int_powmod" };

struct div_job {
    job_kind kind;
    bulk_limb_t *q, *r;             /* results: q (divmod), r (every kind) */
    const bulk_limb_t *a, *b, *c;   /* operands in the order of the public function */
    size_t a_limbs, limbs;
    int8_t *err;
    int method;                     /* bulk_div_method or bulk_gcd_method */
    size_t scratch_limbs;
    bulk_int_workers w;
};

static int run_one(const struct div_job *j, size_t i, bulk_limb_t *tp)
{
    size_t L = j->limbs, o = i * L;
    switch (j->kind) {
    case JOB_DIVMOD: {
        const bulk_limb_t *d = j->b + o;
        bulk_limb_t *q = j->q ? j->q + i * j->a_limbs : NULL, *r = j->r ? j->r + o : NULL;
        if (bulk_mpn_is_zero(d, L)) {
            if (q) bulk_mpn_zero(q, j->a_limbs);
            if (r) bulk_mpn_zero(r, L);
            return BULK_ERR_DIVZERO;
        }
        bulk_mpn_divmod(q, r, j->a + i * j->a_limbs, j->a_limbs, d, L,
                        (bulk_div_method)j->method, tp);
        return BULK_OK;
    }
    case JOB_GCD:
        bulk_mpn_gcd(j->r + o, j->a + o, j->b + o, L, (bulk_gcd_method)j->method, tp);
        return BULK_OK;
    case JOB_INVMOD:
        return bulk_mpn_invmod(j->r + o, j->a + o, j->b + o, L, tp);
    case JOB_POWMOD:
        return bulk_mpn_powmod(j->r + o, j->a + o, j->b + o, j->c + o, L, tp);
    }
    return BULK_ERR_INTERNAL;
}

static void div_range(void *p, size_t begin, size_t end, int worker)
{
    struct div_job *j = p;
    bulk_limb_t *tp = bulk_int_workers_scratch(&j->w, worker);
    if (!tp) return;
    for (size_t i = begin; i < end; i++) {
        int st = run_one(j, i, tp);
        if (j->err) j->err[i] = (int8_t)st;
        if (st != BULK_OK) bulk_int_workers_fail(&j->w, worker, i, st);
    }
}

/* Runs the job over n instances; returns BULK_OK, the first per-instance error, or NOMEM. */
static int run_job(bulk_ctx *ctx, struct div_job *j, size_t n, double cost)
{
    size_t best = SIZE_MAX;
    int st = bulk_int_workers_init(&j->w, ctx, j->scratch_limbs);
    if (st == BULK_OK) {
        bulk_int_parallel(ctx, n, cost, div_range, j);
        st = bulk_int_workers_result(&j->w, &best);
    }
    bulk_int_workers_free(&j->w);
    if (st == BULK_ERR_NOMEM)
        return bulk_fail(ctx, st, "%s: scratch of %zu limbs per thread: out of memory",
                         job_name[j->kind], j->scratch_limbs);
    if (st != BULK_OK)
        return bulk_fail(ctx, st, "%s: instance %zu: %s", job_name[j->kind], best,
                         bulk_status_string(st));
    return st;
}

/* Bytes of n instances of `limbs` limbs. */
static size_t bytes(size_t n, size_t limbs) { return n * limbs * sizeof(bulk_limb_t); }

/* The result array r (rb bytes) must be disjoint from every operand. */
static int disjoint(const void *r, size_t rb, const void *a, size_t ab)
{
    return !bulk_int_overlap(r, rb, a, ab);
}

int bulk_int_divmod(bulk_ctx *ctx, bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a,
                    size_t a_limbs, const bulk_limb_t *d, size_t n, size_t limbs, int8_t *err)
{
    static const char fn[] = "bulk_int_divmod";
    int st = bulk_int_check_args(fn, ctx, n, limbs, 2);
    if (st != BULK_OK) return st;
    if (a_limbs != limbs && a_limbs != 2 * limbs)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: a_limbs %zu: must be limbs or 2 * limbs (%zu)", fn,
                         a_limbs, limbs);
    if (n == 0) return BULK_OK;
    if (!a || !d) return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s: must not be NULL", fn, !a ? "a" : "d");
    size_t qb = bytes(n, a_limbs), rb = bytes(n, limbs), ab = bytes(n, a_limbs), db = rb;
    if (!disjoint(q, qb, a, ab) || !disjoint(q, qb, d, db) || !disjoint(q, qb, r, rb) ||
        !disjoint(r, rb, a, ab) || !disjoint(r, rb, d, db))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: q, r: overlap each other or an operand", fn);
    if (bulk_int_on_device(ctx, BULK_INT_OP_DIVMOD) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_DIVMOD))
        return ctx->gpu->ints->divmod(ctx, q, r, a, a_limbs, d, n, limbs, err);
    struct div_job j = { .kind = JOB_DIVMOD, .q = q, .r = r, .a = a, .b = d, .a_limbs = a_limbs,
                         .limbs = limbs, .err = err, .method = ctx->int_div_method };
    j.scratch_limbs = bulk_mpn_divmod_scratch_method(a_limbs, limbs, (bulk_div_method)j.method);
    double L = (double)limbs;
    return run_job(ctx, &j, n, (double)a_limbs / L * L * L + L);
}

int bulk_int_gcd(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b,
                 size_t n, size_t limbs)
{
    static const char fn[] = "bulk_int_gcd";
    int st = bulk_int_check_args(fn, ctx, n, limbs, 1);
    if (st != BULK_OK || n == 0) return st;
    if (!g || !a || !b)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s: must not be NULL", fn, !g ? "g" : !a ? "a" : "b");
    size_t nb = bytes(n, limbs);
    if (!disjoint(g, nb, a, nb) || !disjoint(g, nb, b, nb))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: g: overlaps an operand", fn);
    if (bulk_int_on_device(ctx, BULK_INT_OP_GCD) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_GCD))
        return ctx->gpu->ints->gcd(ctx, g, a, b, n, limbs);
    struct div_job j = { .kind = JOB_GCD, .r = g, .a = a, .b = b, .limbs = limbs,
                         .method = ctx->int_gcd_method };
    j.scratch_limbs = bulk_mpn_gcd_scratch(limbs);
    double L = (double)limbs;
    return run_job(ctx, &j, n, 8.0 * L * L + L);
}

int bulk_int_invmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *m,
                    size_t n, size_t limbs, int8_t *err)
{
    static const char fn[] = "bulk_int_invmod";
    int st = bulk_int_check_args(fn, ctx, n, limbs, 1);
    if (st != BULK_OK || n == 0) return st;
    if (!r || !a || !m)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s: must not be NULL", fn, !r ? "r" : !a ? "a" : "m");
    size_t nb = bytes(n, limbs);
    if (!disjoint(r, nb, a, nb) || !disjoint(r, nb, m, nb))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: r: overlaps an operand", fn);
    if (bulk_int_on_device(ctx, BULK_INT_OP_INVMOD) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_INVMOD))
        return ctx->gpu->ints->invmod(ctx, r, a, m, n, limbs, err);
    struct div_job j = { .kind = JOB_INVMOD, .r = r, .a = a, .b = m, .limbs = limbs, .err = err };
    j.scratch_limbs = bulk_mpn_invmod_scratch(limbs);
    double L = (double)limbs;
    return run_job(ctx, &j, n, 16.0 * L * L + L);
}

int bulk_int_powmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *base, const bulk_limb_t *exp,
                    const bulk_limb_t *m, size_t n, size_t limbs, int8_t *err)
{
    static const char fn[] = "bulk_int_powmod";
    int st = bulk_int_check_args(fn, ctx, n, limbs, 1);
    if (st != BULK_OK || n == 0) return st;
    if (!r || !base || !exp || !m)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s: must not be NULL", fn,
                         !r ? "r" : !base ? "base" : !exp ? "exp" : "m");
    size_t nb = bytes(n, limbs);
    if (!disjoint(r, nb, base, nb) || !disjoint(r, nb, exp, nb) || !disjoint(r, nb, m, nb))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: r: overlaps an operand", fn);
    if (bulk_int_on_device(ctx, BULK_INT_OP_POWMOD) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_POWMOD))
        return ctx->gpu->ints->powmod(ctx, r, base, exp, m, n, limbs, err);
    struct div_job j = { .kind = JOB_POWMOD, .r = r, .a = base, .b = exp, .c = m, .limbs = limbs,
                         .err = err };
    j.scratch_limbs = bulk_mpn_powmod_scratch(limbs);
    double L = (double)limbs;
    return run_job(ctx, &j, n, 2.0 * 64.0 * L * L * L + L);
}
