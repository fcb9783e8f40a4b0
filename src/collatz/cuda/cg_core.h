/* Per-number logic of the CUDA Collatz kernels, as BULK_HD functions: the kernels call them on
 * the GPU and tests/collatz_gpu/test_collatz_gpu_twin.c calls the very same functions on the
 * CPU, where their results are compared with the CPU engine (collatz/verify.c, cz_delay).
 *
 * Each function mirrors one piece of the CPU engine step for step, so that the two backends
 * agree bit for bit, including which numbers overflow 128 bits:
 *   cg_glide      <-> cz_glide_from     (table steps while v >> d >= n, else a replay)
 *   cg_delay      <-> cz_delay          (table steps while v >= 2^a, then A[v])
 *   cg_sieve_child<-> cz_sieve_child    (one level of the sieve walk)
 * The differences are only in representation: values in four 32-bit limbs (cg_arith.h: PTX
 * carry chains on the GPU), B and C packed into one 64-bit word BC[L] = B | C << 32 (one load
 * per step; needs d <= 20 so that B = 3^j < 2^32), 3^j from a table passed in (constant memory
 * on the GPU, bulk_cz_pow3 on the host).
 *
 * A return value < 0 means "escape": a value would leave 128 bits, exactly when the CPU fast
 * path reports overflow; the host then finishes that number on the exact path (seed 004
 * section 5.1). */
#ifndef BULK_COLLATZ_CUDA_CG_CORE_H
#define BULK_COLLATZ_CUDA_CG_CORE_H

#include <stdint.h>

#include "collatz/cuda/cg_arith.h"
#include "common/hd.h"

/* Largest d of the packed 32-bit tables (3^20 < 2^32 <= 3^21). */
#define CG_MAX_FAST_D 20

/* 3^j > ... : the sieve child of cz_sieve_child, with 3^j read from pow3 (41 entries). */
BULK_HD int cg_sieve_child(const uint64_t *pow3, int i, int *j, uint64_t *c, int bit)
{
    uint64_t c1 = *c + (bit ? pow3[*j] : 0);
    if (c1 & 1) {
        c1 = 3 * c1 + 1;
        (*j)++;
    }
    *c = c1 >> 1;
    return (i + 1 >= 64) ? 1 : pow3[*j] < ((uint64_t)1 << (i + 1));
}

/* v <- 3v + 1; 1 on overflow. */
BULK_HD int cg_odd(cg_u128 *v)
{
    /* 3v + 1 = step with d = 0 is not allowed by cg_step (d >= 1): B(2v) form instead would
     * lose the top bit, so use the general multiply on the unshifted value. */
#if defined(__CUDA_ARCH__)
    uint32_t t0 = __umulhi(v->x0, 3u), t1 = __umulhi(v->x1, 3u), t2 = __umulhi(v->x2, 3u),
             t3 = __umulhi(v->x3, 3u);
    uint32_t y0, y1, y2, y3, y4;
    asm("mad.lo.cc.u32  %0, %5, 3, 1;\n\t"
        "madc.lo.cc.u32 %1, %6, 3, %9;\n\t"
        "madc.lo.cc.u32 %2, %7, 3, %10;\n\t"
        "madc.lo.cc.u32 %3, %8, 3, %11;\n\t"
        "addc.u32       %4, %12, 0;"
        : "=&r"(y0), "=&r"(y1), "=&r"(y2), "=&r"(y3), "=r"(y4)
        : "r"(v->x0), "r"(v->x1), "r"(v->x2), "r"(v->x3), "r"(t0), "r"(t1), "r"(t2), "r"(t3));
    v->x0 = y0;
    v->x1 = y1;
    v->x2 = y2;
    v->x3 = y3;
    return y4 != 0;
#else
    unsigned __int128 x = (unsigned __int128)cg_hi64(*v) << 64 | cg_lo64(*v);
    if (x > (~(unsigned __int128)0 - 1) / 3) return 1;
    x = 3 * x + 1;
    *v = cg_make((uint64_t)x, (uint64_t)(x >> 64));
    return 0;
#endif
}

/* v <- v / 2 */
BULK_HD void cg_half(cg_u128 *v)
{
#if defined(__CUDA_ARCH__)
    v->x0 = __funnelshift_r(v->x0, v->x1, 1);
    v->x1 = __funnelshift_r(v->x1, v->x2, 1);
    v->x2 = __funnelshift_r(v->x2, v->x3, 1);
    v->x3 >>= 1;
#else
    v->x0 = (v->x0 >> 1) | (v->x1 << 31);
    v->x1 = (v->x1 >> 1) | (v->x2 << 31);
    v->x2 = (v->x2 >> 1) | (v->x3 << 31);
    v->x3 >>= 1;
#endif
}

/* The threshold of cz_glide_from's test (v >> d) < n, as v < nd: nd = n * 2^d, or sat = 1
 * when n >= 2^(128-d) (then the test is always true). */
BULK_HD cg_u128 cg_glide_bound(cg_u128 n, unsigned d, int *sat)
{
    cg_u128 r;
    *sat = (n.x3 >> (32 - d)) != 0;
#if defined(__CUDA_ARCH__)
    r.x3 = __funnelshift_l(n.x2, n.x3, d);
    r.x2 = __funnelshift_l(n.x1, n.x2, d);
    r.x1 = __funnelshift_l(n.x0, n.x1, d);
    r.x0 = n.x0 << d;
#else
    r.x3 = (n.x3 << d) | (n.x2 >> (32 - d));
    r.x2 = (n.x2 << d) | (n.x1 >> (32 - d));
    r.x1 = (n.x1 << d) | (n.x0 >> (32 - d));
    r.x0 = n.x0 << d;
#endif
    return r;
}

/* Glide of n from the state v after `done` steps (v >= n so far), as cz_glide_from with the
 * tables BC (packed) and J of d bits, 1 <= d <= 20. -1 on overflow (escape). */
BULK_HD int64_t cg_glide(cg_u128 v, cg_u128 n, int64_t done, unsigned d, const uint64_t *BC,
                         const uint8_t *J)
{
    const uint32_t mask = (1u << d) - 1;
    int sat;
    const cg_u128 nd = cg_glide_bound(n, d, &sat);
    for (;;) {
        uint32_t L = v.x0 & mask;
        unsigned jl = J[L];
        if (sat || cg_lt(v, nd)) {
            /* cz_replay_glide: at most J[L] single steps; a drop can only follow a halving */
            for (unsigned s = 0; s < jl; s++) {
                if (v.x0 & 1) {
                    if (cg_odd(&v)) return -1;
                } else {
                    cg_half(&v);
                    if (cg_lt(v, n)) return done + (int64_t)s + 1;
                }
            }
            done += jl;
        } else {
            uint64_t bc = BC[L];
            if (cg_step(&v, d, (uint32_t)bc, (uint32_t)(bc >> 32))) return -1;
            done += jl;
        }
    }
}

/* Delay of n >= 1 as cz_delay (a >= d, a <= 30): table steps while v >= 2^a, then A[v].
 * -1 on overflow (escape). */
BULK_HD int64_t cg_delay(cg_u128 v, unsigned d, unsigned a, const uint64_t *BC, const uint8_t *J,
                         const uint16_t *A)
{
    const uint32_t mask = (1u << d) - 1;
    int64_t steps = 0;
    while ((v.x3 | v.x2 | v.x1) != 0 || (v.x0 >> a) != 0) {
        uint32_t L = v.x0 & mask;
        uint64_t bc = BC[L];
        if (cg_step(&v, d, (uint32_t)bc, (uint32_t)(bc >> 32))) return -1;
        steps += J[L];
    }
    return steps + A[v.x0];
}

/* n = nH * 2^k + r (r < 2^k, 0 <= k <= 63; the caller guarantees n < 2^128). */
BULK_HD cg_u128 cg_form_n(uint64_t nH_lo, uint64_t nH_hi, int k, uint64_t r)
{
    uint64_t lo = k ? nH_lo << k : nH_lo;
    uint64_t hi = k ? (nH_hi << k) | (nH_lo >> (64 - k)) : nH_hi;
    return cg_make(lo | r, hi);
}

/* The sieve of L bits walked on the fly for the low bits p of n (verify.c walk_block): returns
 * 1 when the class of p is eliminated, with *glide = (i+1) + j, the glide of every n of the
 * class with nH >= 1; else 0 with (j, c) the state after L halvings: n = 2^L nH + p becomes
 * 3^j nH + c after L + j steps. */
BULK_HD int cg_walk(const uint64_t *pow3, uint64_t p, int L, int *j, uint64_t *c, int64_t *glide)
{
    *j = 0;
    *c = 0;
    for (int i = 0; i < L; i++) {
        if (cg_sieve_child(pow3, i, j, c, (int)((p >> i) & 1))) {
            *glide = i + 1 + *j;
            return 1;
        }
    }
    return 0;
}

/* A mandatory n = 2^L nH + r iterated individually from its sieve state (verify.c
 * iterate_one): v = 3^j nH + c after done = L + j steps, then cg_glide. -1: escape. */
BULK_HD int64_t cg_iterate(cg_u128 n, uint64_t nH_lo, uint64_t nH_hi, uint64_t pow3j, uint64_t c,
                           int64_t done, unsigned d, const uint64_t *BC, const uint8_t *J)
{
    cg_u128 v;
    if (cg_prefix(&v, nH_lo, nH_hi, pow3j, c)) return -1;
    return cg_glide(v, n, done, d, BC, J);
}

/* Packs the engine's B and C (d <= 20) into BC[L] = B | C << 32. */
BULK_HD uint64_t cg_pack_bc(uint64_t B, uint64_t C) { return B | C << 32; }

#endif
