/* Register arithmetic of the CUDA Collatz kernels: a value below 2^128 held in four 32-bit
 * limbs (x0 least significant), the table step x <- B[x mod 2^d] * (x >> d) + C[x mod 2^d]
 * with its overflow flag, the comparison with the starting value, and the per-residue prefix
 * x <- Bk * h + Ck.
 *
 * In device code the step is one carry chain of PTX mad.lo.cc / madc.lo.cc (seed 004 section
 * 5.3: the seed used 3 limbs = 96 bits; here 4 limbs = 128 bits, the width of the CPU fast
 * path). On the host the same functions compute through u128 (common/u128.h): that is the twin
 * that the CPU tests run (tests/collatz_gpu/test_collatz_gpu_twin.c), so the limb layout, the
 * shifts and the overflow rule are checked here even though the PTX runs only on the GPU.
 *
 * Contract of every step: B < 2^32 and C < 2^32 (true for d <= 20: B = 3^j with j <= d and
 * C < B, and 3^20 < 2^32). The result is exact when the function returns 0; it returns 1 when
 * the exact result is >= 2^128 (the limbs are then meaningless). */
#ifndef BULK_COLLATZ_CUDA_CG_ARITH_H
#define BULK_COLLATZ_CUDA_CG_ARITH_H

#include <stdint.h>

#include "common/hd.h"
#include "common/u128.h"

typedef struct cg_u128 {
    uint32_t x0, x1, x2, x3;
} cg_u128;

BULK_HD cg_u128 cg_make(uint64_t lo, uint64_t hi)
{
    cg_u128 r;
    r.x0 = (uint32_t)lo;
    r.x1 = (uint32_t)(lo >> 32);
    r.x2 = (uint32_t)hi;
    r.x3 = (uint32_t)(hi >> 32);
    return r;
}

BULK_HD uint64_t cg_lo64(cg_u128 a) { return (uint64_t)a.x0 | (uint64_t)a.x1 << 32; }
BULK_HD uint64_t cg_hi64(cg_u128 a) { return (uint64_t)a.x2 | (uint64_t)a.x3 << 32; }

/* a < b */
BULK_HD int cg_lt(cg_u128 a, cg_u128 b)
{
#if defined(__CUDA_ARCH__)
    /* one borrow chain: a - b borrows out iff a < b */
    uint32_t borrow;
    asm("{\n\t"
        ".reg .u32 t;\n\t"
        "sub.cc.u32  t, %1, %2;\n\t"
        "subc.cc.u32 t, %3, %4;\n\t"
        "subc.cc.u32 t, %5, %6;\n\t"
        "subc.cc.u32 t, %7, %8;\n\t"
        "subc.u32    %0, 0, 0;\n\t"
        "}"
        : "=r"(borrow)
        : "r"(a.x0), "r"(b.x0), "r"(a.x1), "r"(b.x1), "r"(a.x2), "r"(b.x2), "r"(a.x3), "r"(b.x3));
    return borrow != 0;
#else
    uint64_t ah = cg_hi64(a), bh = cg_hi64(b);
    return ah < bh || (ah == bh && cg_lo64(a) < cg_lo64(b));
#endif
}

/* The table step with d a run-time or compile-time shift 1 <= d <= 20. Returns 1 on overflow.
 * The limb outputs are early-clobber ("=&r"): each is written before later inputs are read. */
BULK_HD int cg_step(cg_u128 *x, unsigned d, uint32_t B, uint32_t C)
{
#if defined(__CUDA_ARCH__)
    uint32_t h0 = __funnelshift_r(x->x0, x->x1, d);
    uint32_t h1 = __funnelshift_r(x->x1, x->x2, d);
    uint32_t h2 = __funnelshift_r(x->x2, x->x3, d);
    uint32_t h3 = x->x3 >> d;
    uint32_t t0 = __umulhi(h0, B), t1 = __umulhi(h1, B), t2 = __umulhi(h2, B), t3 = __umulhi(h3, B);
    uint32_t y0, y1, y2, y3, y4;
    asm("mad.lo.cc.u32  %0, %5, %9, %10;\n\t"
        "madc.lo.cc.u32 %1, %6, %9, %11;\n\t"
        "madc.lo.cc.u32 %2, %7, %9, %12;\n\t"
        "madc.lo.cc.u32 %3, %8, %9, %13;\n\t"
        "addc.u32       %4, %14, 0;"
        : "=&r"(y0), "=&r"(y1), "=&r"(y2), "=&r"(y3), "=r"(y4)
        : "r"(h0), "r"(h1), "r"(h2), "r"(h3), "r"(B), "r"(C), "r"(t0), "r"(t1), "r"(t2), "r"(t3));
    x->x0 = y0;
    x->x1 = y1;
    x->x2 = y2;
    x->x3 = y3;
    return y4 != 0;
#else
    u128 v = (u128)cg_hi64(*x) << 64 | cg_lo64(*x);
    u128 h = v >> d;
    /* h * B + C >= 2^128  <=>  h > (2^128 - 1 - C) / B */
    u128 lim = (~(u128)0 - C) / B;
    if (h > lim) return 1;
    v = h * B + C;
    *x = cg_make((uint64_t)v, (uint64_t)(v >> 64));
    return 0;
#endif
}

/* The table step on a value below 2^64 held in two limbs (x0, x1): (x0, x1) <- the low 64 bits
 * of B * (x >> d) + C, and the third limb (bits 64..95) returned (0 when the result fits 64
 * bits). Same contract on d, B, C as cg_step; about 9 instructions instead of 19. */
BULK_HD uint32_t cg_step64(uint32_t *x0, uint32_t *x1, unsigned d, uint32_t B, uint32_t C)
{
#if defined(__CUDA_ARCH__)
    uint32_t h0 = __funnelshift_r(*x0, *x1, d), h1 = *x1 >> d;
    uint32_t t0 = __umulhi(h0, B), t1 = __umulhi(h1, B);
    uint32_t y0, y1, y2;
    asm("mad.lo.cc.u32  %0, %3, %5, %6;\n\t"
        "madc.lo.cc.u32 %1, %4, %5, %7;\n\t"
        "addc.u32       %2, %8, 0;"
        : "=&r"(y0), "=&r"(y1), "=r"(y2)
        : "r"(h0), "r"(h1), "r"(B), "r"(C), "r"(t0), "r"(t1));
    *x0 = y0;
    *x1 = y1;
    return y2;
#else
    uint64_t x = (uint64_t)*x0 | (uint64_t)*x1 << 32;
    u128 y = (u128)(x >> d) * B + C;
    *x0 = (uint32_t)y;
    *x1 = (uint32_t)(y >> 32);
    return (uint32_t)(y >> 64);
#endif
}

/* The table step on a value below 2^96 held in three limbs (x0, x1, x2): the limbs <- the low
 * 96 bits of B * (x >> d) + C, and bits 96..127 returned (0 when the result fits 96 bits). Same
 * contract on d, B, C as cg_step; ~14 instructions instead of 19. The delay kernels' common
 * step (values from n ~ 2^64..2^80 stay below 2^96 but do not all fit 64 bits). */
BULK_HD uint32_t cg_step96(uint32_t *x0, uint32_t *x1, uint32_t *x2, unsigned d, uint32_t B, uint32_t C)
{
#if defined(__CUDA_ARCH__)
    uint32_t h0 = __funnelshift_r(*x0, *x1, d), h1 = __funnelshift_r(*x1, *x2, d), h2 = *x2 >> d;
    uint32_t t0 = __umulhi(h0, B), t1 = __umulhi(h1, B), t2 = __umulhi(h2, B);
    uint32_t y0, y1, y2, y3;
    asm("mad.lo.cc.u32  %0, %4, %7, %8;\n\t"
        "madc.lo.cc.u32 %1, %5, %7, %9;\n\t"
        "madc.lo.cc.u32 %2, %6, %7, %10;\n\t"
        "addc.u32       %3, %11, 0;"
        : "=&r"(y0), "=&r"(y1), "=&r"(y2), "=r"(y3)
        : "r"(h0), "r"(h1), "r"(h2), "r"(B), "r"(C), "r"(t0), "r"(t1), "r"(t2));
    *x0 = y0;
    *x1 = y1;
    *x2 = y2;
    return y3;
#else
    u128 x = (u128)*x2 << 64 | (uint64_t)*x1 << 32 | *x0;
    u128 y = (x >> d) * B + C; /* < 2^96 * 2^32: no wrap */
    *x0 = (uint32_t)y;
    *x1 = (uint32_t)(y >> 32);
    *x2 = (uint32_t)(y >> 64);
    return (uint32_t)(y >> 96);
#endif
}

/* x <- x + a (a < 2^64); returns 1 when the exact sum is >= 2^128. The next row's prefix from
 * this row's: 3^j (nH + 1) + c = (3^j nH + c) + 3^j (the FLAT kernels' incremental setup). */
BULK_HD int cg_add64(cg_u128 *x, uint64_t a)
{
#if defined(__CUDA_ARCH__)
    uint32_t y0, y1, y2, y3, y4;
    asm("add.cc.u32  %0, %5, %9;\n\t"
        "addc.cc.u32 %1, %6, %10;\n\t"
        "addc.cc.u32 %2, %7, 0;\n\t"
        "addc.cc.u32 %3, %8, 0;\n\t"
        "addc.u32    %4, 0, 0;"
        : "=&r"(y0), "=&r"(y1), "=&r"(y2), "=&r"(y3), "=r"(y4)
        : "r"(x->x0), "r"(x->x1), "r"(x->x2), "r"(x->x3), "r"((uint32_t)a), "r"((uint32_t)(a >> 32)));
    x->x0 = y0;
    x->x1 = y1;
    x->x2 = y2;
    x->x3 = y3;
    return y4 != 0;
#else
    u128 v = (u128)cg_hi64(*x) << 64 | cg_lo64(*x);
    u128 w = v + a;
    *x = cg_make((uint64_t)w, (uint64_t)(w >> 64));
    return w < v;
#endif
}

/* x = Bk * h + Ck for a 64-bit Bk (the odd part 3^j of a residue's prefix, j <= 40) and
 * Ck < Bk. h is given as (hlo, hhi). Returns 1 when the result is >= 2^128. Once per number,
 * so written with 64-bit limbs (int_core.h style) rather than a hand-made chain. */
BULK_HD int cg_prefix(cg_u128 *x, uint64_t hlo, uint64_t hhi, uint64_t Bk, uint64_t Ck)
{
#if defined(__CUDA_ARCH__)
    uint64_t p0 = hlo * Bk, p1 = __umul64hi(hlo, Bk);
    uint64_t q0 = hhi * Bk, q1 = __umul64hi(hhi, Bk);
#else
    u128 p = (u128)hlo * Bk, q = (u128)hhi * Bk;
    uint64_t p0 = (uint64_t)p, p1 = (uint64_t)(p >> 64), q0 = (uint64_t)q, q1 = (uint64_t)(q >> 64);
#endif
    uint64_t lo = p0 + Ck;
    uint64_t c0 = lo < p0;
    uint64_t mid = p1 + q0;
    uint64_t c1 = mid < p1;
    uint64_t hi = mid + c0;
    c1 |= hi < mid;
    *x = cg_make(lo, hi);
    return q1 != 0 || c1 != 0;
}

#endif
