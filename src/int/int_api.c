/* The public bulk wrappers of bulk/int.h for add, sub, mul, sqr, mul_lo, cmp, shl, shr and
 * bulk_int_set_methods: argument checks, then every instance through the mpn layer (int/mpn.h)
 * on the context's threads (int_parallel.h). Division, gcd, powmod: int_api_div.c. */
#include <stdlib.h>

#include "backend/report.h"
#include "int/int_parallel.h"
#include "int/mpn.h"

int bulk_int_set_methods(bulk_ctx *ctx, bulk_mul_method mul, bulk_div_method div,
                         bulk_gcd_method gcd)
{
    static const char fn[] = "bulk_int_set_methods";
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: must not be NULL", fn);
    if ((int)mul < BULK_MUL_AUTO || (int)mul > BULK_MUL_TOOM8)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: mul %d: not a bulk_mul_method", fn, (int)mul);
    if ((int)div < BULK_DIV_AUTO || (int)div > BULK_DIV_DC)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: div %d: not a bulk_div_method", fn, (int)div);
    if ((int)gcd < BULK_GCD_AUTO || (int)gcd > BULK_GCD_APPROX_EUCLID)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: gcd %d: not a bulk_gcd_method", fn, (int)gcd);
    ctx->int_mul_method = (int)mul;
    ctx->int_div_method = (int)div;
    ctx->int_gcd_method = (int)gcd;
    return BULK_OK;
}

/* One job description for all the wrappers of this file; each range function reads the
 * fields it needs. */
struct int_job {
    bulk_limb_t *r;
    uint8_t *flag;  /* carry / borrow out, optional */
    int8_t *cmp;
    const bulk_limb_t *a, *b;
    size_t limbs;
    size_t bits;    /* shift count */
    bulk_mul_method method;
};

/* r (rmult * limbs limbs per instance) against a and b (limbs limbs each; b NULL for the
 * one-operand functions): non-NULL, and disjoint unless same_ok allows r == a / r == b. */
static int check_binary(const char *fn, const bulk_ctx *ctx, const void *r, size_t rmult,
                        const bulk_limb_t *a, const bulk_limb_t *b, int want_b, size_t n,
                        size_t limbs, int same_ok)
{
    int st = bulk_int_check_args(fn, ctx, n, limbs, rmult);
    if (st != BULK_OK) return st;
    if (n == 0) return BULK_OK;
    if (!r) return bulk_fail(ctx, BULK_ERR_ARG, "%s: r: must not be NULL", fn);
    if (!a) return bulk_fail(ctx, BULK_ERR_ARG, "%s: a: must not be NULL", fn);
    if (want_b && !b) return bulk_fail(ctx, BULK_ERR_ARG, "%s: b: must not be NULL", fn);
    size_t rb = n * limbs * rmult * sizeof(bulk_limb_t), ob = n * limbs * sizeof(bulk_limb_t);
    if (!bulk_int_alias_ok(r, rb, a, ob, same_ok))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: r: overlaps a%s", fn, same_ok ? " partially" : "");
    if (want_b && !bulk_int_alias_ok(r, rb, b, ob, same_ok))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: r: overlaps b%s", fn, same_ok ? " partially" : "");
    return BULK_OK;
}

/* ---- add / sub ------------------------------------------------------------------------------ */

static void add_range(void *p, size_t begin, size_t end, int worker)
{
    const struct int_job *j = p;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        size_t o = i * j->limbs;
        bulk_limb_t c = bulk_mpn_add_n(j->r + o, j->a + o, j->b + o, j->limbs);
        if (j->flag) j->flag[i] = (uint8_t)c;
    }
}

static void sub_range(void *p, size_t begin, size_t end, int worker)
{
    const struct int_job *j = p;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        size_t o = i * j->limbs;
        bulk_limb_t c = bulk_mpn_sub_n(j->r + o, j->a + o, j->b + o, j->limbs);
        if (j->flag) j->flag[i] = (uint8_t)c;
    }
}

int bulk_int_add(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *carry, const bulk_limb_t *a,
                 const bulk_limb_t *b, size_t n, size_t limbs)
{
    int st = check_binary("bulk_int_add", ctx, r, 1, a, b, 1, n, limbs, 1);
    if (st != BULK_OK || n == 0) return st;
    if (bulk_int_on_device(ctx, BULK_INT_OP_ADD) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_ADD))
        return ctx->gpu->ints->add(ctx, r, carry, a, b, n, limbs);
    struct int_job j = { .r = r, .flag = carry, .a = a, .b = b, .limbs = limbs };
    return bulk_int_parallel(ctx, n, (double)limbs, add_range, &j);
}

int bulk_int_sub(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *borrow, const bulk_limb_t *a,
                 const bulk_limb_t *b, size_t n, size_t limbs)
{
    int st = check_binary("bulk_int_sub", ctx, r, 1, a, b, 1, n, limbs, 1);
    if (st != BULK_OK || n == 0) return st;
    if (bulk_int_on_device(ctx, BULK_INT_OP_SUB) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_SUB))
        return ctx->gpu->ints->sub(ctx, r, borrow, a, b, n, limbs);
    struct int_job j = { .r = r, .flag = borrow, .a = a, .b = b, .limbs = limbs };
    return bulk_int_parallel(ctx, n, (double)limbs, sub_range, &j);
}

/* ---- mul / sqr / mul_lo ------------------------------------------------------------------- */

/* Estimated limb products of one n-limb multiplication under AUTO: n^2 up to ~32 limbs, then
 * roughly n^1.5 (between Karatsuba's 1.58 and Toom's lower exponents); only the hand-out size
 * depends on it. */
static double mul_cost(size_t n)
{
    double x = (double)n;
    return x <= 32 ? x * x : 32.0 * x * __builtin_sqrt(x / 32.0) * (x / 32.0);
}

static void mul_range(void *p, size_t begin, size_t end, int worker)
{
    const struct int_job *j = p;
    (void)worker;
    size_t L = j->limbs;
    for (size_t i = begin; i < end; i++) {
        bulk_limb_t *r = j->r + 2 * L * i;
        const bulk_limb_t *a = j->a + L * i, *b = j->b + L * i;
        if (j->method == BULK_MUL_AUTO) bulk_mpn_mul_n(r, a, b, L);
        else bulk_mpn_mul_n_method(r, a, b, L, j->method);
    }
}

static void sqr_range(void *p, size_t begin, size_t end, int worker)
{
    const struct int_job *j = p;
    (void)worker;
    size_t L = j->limbs;
    for (size_t i = begin; i < end; i++) {
        bulk_limb_t *r = j->r + 2 * L * i;
        const bulk_limb_t *a = j->a + L * i;
        if (j->method == BULK_MUL_AUTO) bulk_mpn_sqr(r, a, L);
        else bulk_mpn_sqr_method(r, a, L, j->method);
    }
}

/* mul_lo: AUTO uses the short product; a forced method computes the full product with that
 * method in a per-range buffer and keeps its low half, so that forcing a method really
 * exercises it. */
static void mullo_range(void *p, size_t begin, size_t end, int worker)
{
    const struct int_job *j = p;
    (void)worker;
    size_t L = j->limbs;
    bulk_limb_t *full = NULL;
    if (j->method != BULK_MUL_AUTO) {
        full = malloc(2 * L * sizeof *full);
    }
    for (size_t i = begin; i < end; i++) {
        bulk_limb_t *r = j->r + L * i;
        const bulk_limb_t *a = j->a + L * i, *b = j->b + L * i;
        if (full) {
            bulk_mpn_mul_n_method(full, a, b, L, j->method);
            bulk_mpn_copy(r, full, L);
        } else {
            bulk_mpn_mullo_n(r, a, b, L); /* AUTO, or the buffer could not be had */
        }
    }
    free(full);
}

int bulk_int_mul(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                 size_t n, size_t limbs)
{
    int st = check_binary("bulk_int_mul", ctx, r, 2, a, b, 1, n, limbs, 0);
    if (st != BULK_OK || n == 0) return st;
    if (bulk_int_on_device(ctx, BULK_INT_OP_MUL) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_MUL))
        return ctx->gpu->ints->mul(ctx, r, a, b, n, limbs);
    struct int_job j = { .r = r, .a = a, .b = b, .limbs = limbs,
                         .method = (bulk_mul_method)ctx->int_mul_method };
    return bulk_int_parallel(ctx, n, mul_cost(limbs), mul_range, &j);
}

int bulk_int_sqr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t n, size_t limbs)
{
    int st = check_binary("bulk_int_sqr", ctx, r, 2, a, NULL, 0, n, limbs, 0);
    if (st != BULK_OK || n == 0) return st;
    if (bulk_int_on_device(ctx, BULK_INT_OP_SQR) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_SQR))
        return ctx->gpu->ints->sqr(ctx, r, a, n, limbs);
    struct int_job j = { .r = r, .a = a, .limbs = limbs,
                         .method = (bulk_mul_method)ctx->int_mul_method };
    return bulk_int_parallel(ctx, n, mul_cost(limbs) * 0.6, sqr_range, &j);
}

int bulk_int_mul_lo(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                    size_t n, size_t limbs)
{
    int st = check_binary("bulk_int_mul_lo", ctx, r, 1, a, b, 1, n, limbs, 0);
    if (st != BULK_OK || n == 0) return st;
    if (bulk_int_on_device(ctx, BULK_INT_OP_MUL_LO) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_MUL_LO))
        return ctx->gpu->ints->mul_lo(ctx, r, a, b, n, limbs);
    struct int_job j = { .r = r, .a = a, .b = b, .limbs = limbs,
                         .method = (bulk_mul_method)ctx->int_mul_method };
    return bulk_int_parallel(ctx, n, mul_cost(limbs) * 0.6, mullo_range, &j);
}

/* ---- cmp / shifts --------------------------------------------------------------------------- */

static void cmp_range(void *p, size_t begin, size_t end, int worker)
{
    const struct int_job *j = p;
    (void)worker;
    for (size_t i = begin; i < end; i++)
        j->cmp[i] = (int8_t)bulk_mpn_cmp(j->a + i * j->limbs, j->b + i * j->limbs, j->limbs);
}

int bulk_int_cmp(bulk_ctx *ctx, int8_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                 size_t limbs)
{
    static const char fn[] = "bulk_int_cmp";
    int st = bulk_int_check_args(fn, ctx, n, limbs, 1);
    if (st != BULK_OK || n == 0) return st;
    if (!r || !a || !b)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s: must not be NULL", fn, !r ? "r" : !a ? "a" : "b");
    if (bulk_int_overlap(r, n, a, n * limbs * 8) || bulk_int_overlap(r, n, b, n * limbs * 8))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: r: overlaps an operand", fn);
    if (bulk_int_on_device(ctx, BULK_INT_OP_CMP) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_CMP))
        return ctx->gpu->ints->cmp(ctx, r, a, b, n, limbs);
    struct int_job j = { .cmp = r, .a = a, .b = b, .limbs = limbs };
    return bulk_int_parallel(ctx, n, (double)limbs, cmp_range, &j);
}

/* r = a << bits within L limbs; r == a allowed (works from the top). */
static void shl_one(bulk_limb_t *r, const bulk_limb_t *a, size_t L, size_t bits)
{
    size_t q = bits / 64;
    unsigned s = (unsigned)(bits % 64);
    if (q >= L) {
        bulk_mpn_zero(r, L);
        return;
    }
    if (s) bulk_mpn_lshift(r + q, a, L - q, s);
    else bulk_mpn_copy(r + q, a, L - q);
    bulk_mpn_zero(r, q);
}

/* r = a >> bits within L limbs; r == a allowed (works from the bottom). */
static void shr_one(bulk_limb_t *r, const bulk_limb_t *a, size_t L, size_t bits)
{
    size_t q = bits / 64;
    unsigned s = (unsigned)(bits % 64);
    if (q >= L) {
        bulk_mpn_zero(r, L);
        return;
    }
    if (s) bulk_mpn_rshift(r, a + q, L - q, s);
    else bulk_mpn_copy(r, a + q, L - q);
    bulk_mpn_zero(r + (L - q), q);
}

static void shl_range(void *p, size_t begin, size_t end, int worker)
{
    const struct int_job *j = p;
    (void)worker;
    for (size_t i = begin; i < end; i++)
        shl_one(j->r + i * j->limbs, j->a + i * j->limbs, j->limbs, j->bits);
}

static void shr_range(void *p, size_t begin, size_t end, int worker)
{
    const struct int_job *j = p;
    (void)worker;
    for (size_t i = begin; i < end; i++)
        shr_one(j->r + i * j->limbs, j->a + i * j->limbs, j->limbs, j->bits);
}

int bulk_int_shl(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits, size_t n,
                 size_t limbs)
{
    int st = check_binary("bulk_int_shl", ctx, r, 1, a, NULL, 0, n, limbs, 1);
    if (st != BULK_OK || n == 0) return st;
    if (bulk_int_on_device(ctx, BULK_INT_OP_SHL) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_SHL))
        return ctx->gpu->ints->shl(ctx, r, a, bits, n, limbs);
    struct int_job j = { .r = r, .a = a, .limbs = limbs, .bits = bits };
    return bulk_int_parallel(ctx, n, (double)limbs, shl_range, &j);
}

int bulk_int_shr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits, size_t n,
                 size_t limbs)
{
    int st = check_binary("bulk_int_shr", ctx, r, 1, a, NULL, 0, n, limbs, 1);
    if (st != BULK_OK || n == 0) return st;
    if (bulk_int_on_device(ctx, BULK_INT_OP_SHR) &&
        limbs <= ctx->gpu->ints->max_limbs(BULK_INT_CUDA_SHR))
        return ctx->gpu->ints->shr(ctx, r, a, bits, n, limbs);
    struct int_job j = { .r = r, .a = a, .limbs = limbs, .bits = bits };
    return bulk_int_parallel(ctx, n, (double)limbs, shr_range, &j);
}
