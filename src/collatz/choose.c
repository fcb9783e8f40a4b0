/* The default table and sieve sizes of a verify run (bulk_collatz_choose), with the measurements
 * behind each default. */
#include "collatz/collatz_internal.h"

static u128 to128u(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }

static int floor_log2_range(bulk_u128 first, bulk_u128 last)
{
    u128 len = to128u(last) - to128u(first);
    int l = 0;
    while (len > 1) {
        len >>= 1;
        l++;
    }
    return l;
}

/* 1 when the sieve of K bits eliminates classes at depth K, i.e. s_K < 2 s_(K-1): a class alive
 * at depth K - 1 (3^j >= 2^(K-1)) dies at its next halving when 3^j < 2^K, so exactly when some
 * power of 3 lies in [2^(K-1), 2^K) (K = 33, 36, 38, 41, 44, 47 add nothing over K - 1). */
static int sieve_gains(int K)
{
    u128 p = 1;
    while (p < ((u128)1 << (K - 1))) p *= 3;
    return p < ((u128)1 << K);
}

int bulk_collatz_choose(const bulk_ctx *ctx, bulk_u128 first, bulk_u128 last, int converge,
                        bulk_collatz_params *p)
{
    static const char fn[] = "bulk_collatz_choose";
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: is NULL", fn);
    if (!p) return bulk_fail(ctx, BULK_ERR_ARG, "%s: p: is NULL", fn);
    if (cz_is_zero(first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: first: must be at least 1", fn);
    if (cz_lt(last, first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: last: is below first", fn);
    if (p->d > BULK_COLLATZ_MAX_D || p->d == 0)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: d = %d: is out of range [1, %d]", fn, p->d, BULK_COLLATZ_MAX_D);
    if (p->k > BULK_COLLATZ_MAX_K_GEN)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: k = %d: is out of range [0, %d]", fn, p->k, BULK_COLLATZ_MAX_K_GEN);
    const int gpu = bulk_ctx_backend(ctx) == BULK_BACKEND_CUDA;
    int d = p->d, k = p->k, ks = p->k_stored;
    /* d = 10 (CPU: d = 8..11 within a few percent); --converge on the GPU: d = 16 (H200,
     * 2^68 + 2^50 with K = 43: 2.31e13 numbers/s, d = 14 2.18e13, d = 12 2.15e13) */
    if (d < 0) d = gpu && converge ? 16 : 10;
    if (k < 0) {
        /* deeper sieves are faster on the CPU up to 37 (bench/results/ *-cpu-collatz.txt; 40
         * gained nothing on a VM) and on the GPU, which generates the levels above the stored 28
         * bits itself and needs fewer rows per block (docs/perf/collatz-gpu.md: H200,
         * 2^68..2^68+2^44 in 3.56 s wall with K = 37 from 28 stored bits, against 5.02 s for 32
         * stored bits) */
        const int l2 = floor_log2_range(first, last);
        k = l2 - (gpu ? 4 : 6);
        if (k > (gpu ? 40 : 37)) k = gpu ? 40 : 37;
        /* convergence mode on the GPU: the fewer numbers it iterates pay for a deeper sieve on
         * long ranges (H200, d = 14, 2^68 + 2^48: K = 43 1.94e13/s, K = 40 1.80e13, K = 44
         * 1.79e13; + 2^46: K = 40 1.65e13, K = 43 1.45e13) */
        if (gpu && converge && l2 >= 47) k = 43; /* ranges of 2^48 and more */
        if (k < 0) k = 0;
        /* on the GPU a level that eliminates nothing only halves the rows: one less */
        while (gpu && k > 1 && !sieve_gains(k)) k--;
    }
    /* the stored part: the extension above it is as fast and needs far less memory (k = 28:
     * 60 MB instead of 0.7 GB for k = 32 or 60 GB for k = 39) */
    if (ks < 0) ks = k < 28 ? k : k - 28 > BULK_COLLATZ_MAX_EXT ? k - BULK_COLLATZ_MAX_EXT : 28;
    if (ks > k) return bulk_fail(ctx, BULK_ERR_ARG, "%s: k_stored %d: is larger than k %d", fn, ks, k);
    if (ks > BULK_COLLATZ_MAX_K)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: k_stored %d: at most %d sieve bits are stored", fn, ks,
                         BULK_COLLATZ_MAX_K);
    if (k - ks > BULK_COLLATZ_MAX_EXT)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: k %d, k_stored %d: at most %d levels are generated", fn, k,
                         ks, BULK_COLLATZ_MAX_EXT);
    p->d = d;
    p->k = k;
    p->k_stored = ks;
    return BULK_OK;
}

int bulk_collatz_records_engine(bulk_ctx *ctx, bulk_collatz_kind kind, bulk_u128 origin, bulk_u128 first,
                                bulk_u128 last, int above, int d, int k, int a, bulk_collatz_engine **out)
{
    static const char fn[] = "bulk_collatz_records_engine";
    if (!out) return bulk_fail(ctx, BULK_ERR_ARG, "%s: out: is NULL", fn);
    *out = NULL;
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: is NULL", fn);
    if (kind != BULK_COLLATZ_DELAY && kind != BULK_COLLATZ_GLIDE && kind != BULK_COLLATZ_PATH)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: kind %d: is not DELAY, GLIDE or PATH", fn, (int)kind);
    if (cz_is_zero(origin) || cz_lt(first, origin))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: origin: must be at least 1 and at most first", fn);
    if (cz_lt(last, first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: last: is below first", fn);
    if (d > BULK_COLLATZ_MAX_D || d == 0)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: d = %d: is out of range [1, %d]", fn, d, BULK_COLLATZ_MAX_D);
    if (a > BULK_COLLATZ_MAX_A || a == 0)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: a = %d: is out of range [1, %d]", fn, a, BULK_COLLATZ_MAX_A);
    if (a > 0 && d > 0 && a < d) return bulk_fail(ctx, BULK_ERR_ARG, "%s: a = %d: must be at least d = %d", fn, a, d);
    if (kind != BULK_COLLATZ_PATH) k = kind == BULK_COLLATZ_GLIDE && k != 0 ? -1 : 0;
    if (k > 30) return bulk_fail(ctx, BULK_ERR_ARG, "%s: k = %d: is out of range [0, 30]", fn, k);
    const int k_given = k;
    if (kind == BULK_COLLATZ_PATH && k < 0) {
        /* a sieve of k bits when the range holds many blocks of 2^k: min(30, floor(log2(len)) - 6)
         * (1..2^40 on 2 cores: 139.6 s with 30 bits; docs/collatz-peaks.md) */
        const u128 len = to128u(last) - to128u(first) + 1; /* 0: all 2^128 numbers */
        int l = len == 0 ? 128 : 0;
        while (l < 127 && (len >> (l + 1))) l++;
        k = l - 6 < 0 ? 0 : l - 6 > 30 ? 30 : l - 6;
    }
    /* the convergence-mode sieve of path records where it is valid (records_path.c) */
    const int conv = kind == BULK_COLLATZ_PATH && k != 0 && (above || (origin.lo == 1 && origin.hi == 0));
    int K = k > 0 ? k : 0, ks = K;
    if (kind != BULK_COLLATZ_DELAY && bulk_ctx_backend(ctx) == BULK_BACKEND_CUDA && k != 0) {
        /* path and glide records on the GPU run in the GPU verify (records_gpu.c): its sizes
         * for the range (a sieve of k bits only when the caller gave k: the CPU's default of 30
         * bits against verify's 43 near 2^68 halved the rate of path records), the levels above
         * the stored ones generated */
        bulk_collatz_params p = { d, kind == BULK_COLLATZ_PATH && k_given > 0 ? k_given : -1, -1 };
        int st = bulk_collatz_choose(ctx, first, last, conv, &p);
        if (st) return st;
        d = p.d;
        K = p.k;
        ks = p.k_stored;
    }
    if (d < 0) d = 11;
    if (a < 0) a = d > 20 ? d : 20;
    bulk_collatz_engine *e = NULL;
    int st = bulk_collatz_engine_new(&e, ctx, d, ks, a);
    if (st == BULK_OK && conv) st = bulk_collatz_engine_set_converge(e);
    if (st == BULK_OK && K > ks) st = bulk_collatz_engine_extend(e, K - ks);
    if (st != BULK_OK) {
        bulk_collatz_engine_free(e);
        return st;
    }
    *out = e;
    return BULK_OK;
}
