/* Shared plumbing of the bulk integer wrappers (int_api.c, int_api_div.c): argument checks,
 * the one switch that routes an operation to a device, and "run this over every instance on
 * the context's threads".
 *
 * Determinism: every instance writes only its own outputs, so results never depend on the
 * thread count or on how bulk_parallel_for hands out ranges. */
#ifndef BULK_INT_INT_PARALLEL_H
#define BULK_INT_INT_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "backend/context.h"
#include "backend/report.h"
#include "bulk/int.h"
#include "common/parallel.h"
#include "int/int_backend.h"

/* The widest instance accepted (int.h): 2^20 limbs = 64 Mibit. */
#define BULK_INT_MAX_LIMBS ((size_t)1 << 20)

typedef enum bulk_int_op {
    BULK_INT_OP_ADD, BULK_INT_OP_SUB, BULK_INT_OP_MUL, BULK_INT_OP_SQR, BULK_INT_OP_MUL_LO,
    BULK_INT_OP_CMP, BULK_INT_OP_SHL, BULK_INT_OP_SHR, BULK_INT_OP_DIVMOD, BULK_INT_OP_GCD,
    BULK_INT_OP_INVMOD, BULK_INT_OP_POWMOD, BULK_INT_OP_ISPRIME
} bulk_int_op;

/* 1 when `op` should run on the context's device. THE one place that routes integer work to
 * the GPU: a CUDA context (ctx->gpu set) sends every operation with a kernel (src/int/cuda/)
 * there; each wrapper then also checks limbs <= ctx->gpu->ints->max_limbs(op)
 * and runs the CPU code for wider calls (int/int_backend.h). Both backends give the same
 * results bit for bit (tests/int_gpu compares them). */
static inline int bulk_int_on_device(const bulk_ctx *ctx, bulk_int_op op)
{
    (void)op; /* every op has a kernel */
    return ctx->gpu != NULL;
}

/* Checks the common arguments of the public function `fn`: ctx non-NULL, 1 <= limbs <=
 * BULK_INT_MAX_LIMBS, and n * limbs * mult limbs addressable (mult = the widest array's limbs
 * per instance, in units of `limbs`). Returns BULK_OK, or BULK_ERR_ARG with the last error set. */
static inline int bulk_int_check_args(const char *fn, const bulk_ctx *ctx, size_t n, size_t limbs,
                                      size_t mult)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: must not be NULL", fn);
    if (limbs == 0 || limbs > BULK_INT_MAX_LIMBS)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: limbs %zu: must be 1..%zu", fn, limbs,
                         BULK_INT_MAX_LIMBS);
    if (n > SIZE_MAX / 8 / limbs / mult)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: n %zu: too many instances of %zu limbs", fn, n,
                         limbs);
    return BULK_OK;
}

/* 1 when the byte ranges [p, p + pb) and [q, q + qb) overlap (empty ranges never do). */
static inline int bulk_int_overlap(const void *p, size_t pb, const void *q, size_t qb)
{
    uintptr_t x = (uintptr_t)p, y = (uintptr_t)q;
    if (!p || !q || pb == 0 || qb == 0) return 0;
    return x < y + qb && y < x + pb;
}

/* Result r (rb bytes) against an operand a (ab bytes): allowed when disjoint, or, if
 * same_ok, when it is exactly the same array (same start; the wrappers that allow it
 * process each instance so that this is safe). Returns 1 when the aliasing is allowed. */
static inline int bulk_int_alias_ok(const void *r, size_t rb, const void *a, size_t ab, int same_ok)
{
    if (!bulk_int_overlap(r, rb, a, ab)) return 1;
    return same_ok && r == a && rb == ab;
}

/* Runs fn over [0, n) on the context's CPU threads. `cost` estimates the work of one
 * instance in limb products (or limb operations); it sets the hand-out size so that each
 * range is worth an atomic increment and tiny batches stay on the calling thread (starting
 * threads costs tens of microseconds). Always completes the work; returns BULK_OK. */
static inline int bulk_int_parallel(const bulk_ctx *ctx, size_t n, double cost, bulk_range_fn fn,
                                    void *arg)
{
    if (n == 0) return BULK_OK;
    if (cost < 1) cost = 1;
    int threads = ctx->threads > 0 ? ctx->threads : 1;
    double total = cost * (double)n;
    if (total < 200000.0) threads = 1; /* below ~50 us of work: not worth a thread */
    /* at least ~16 ranges per thread for balance, each at least ~2000000 limb operations (about
     * a millisecond). Smaller ranges scaled worse on 2 cores although each range was already
     * tens of microseconds (bench_int_ops divmod --bits 1024 --count 65536, 1 -> 2 threads:
     * 1.52x with 20000, about 1.60x with 200000, about 1.73x with 2000000, 2026-11-21;
     * GMP's mpn_tdiv_qr through bulk_parallel_for at n / 32 per range: 1.83x). The cause is
     * not identified: 64-byte aligned per-worker scratch and a per-thread copy of the job
     * struct changed nothing, and cpu-clock profiles show the extra time spread over both
     * threads in the division loop itself (bench/results/int-scaling-vm.txt). */
    size_t grain = (size_t)(2000000.0 / cost) + 1;
    size_t balance = n / ((size_t)threads * 16);
    if (balance < grain) grain = balance > 0 ? balance : 1;
    (void)bulk_parallel_for(threads, n, grain, fn, arg); /* a NOMEM there still completes */
    return BULK_OK;
}

#endif
