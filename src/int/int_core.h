/* Pure limb primitives of bulk integer arithmetic, shared by the CPU code, the CUDA kernels and
 * the tests (BULK_HD: static inline in C, __host__ __device__ under nvcc).
 *
 * Every function works on single 64-bit limbs and returns its result through the return value
 * and out-pointers; none touches memory beyond its arguments. On the host the 128-bit products
 * come from `unsigned __int128` (one MUL instruction on x86-64); in device code from
 * __umul64hi, because 128-bit integers are not guaranteed in CUDA device code. The device
 * formulation also compiles on the host under BULK_INT_CORE_PORTABLE, and
 * tests/int/test_int_core.c checks it there against the 128-bit one. */
#ifndef BULK_INT_INT_CORE_H
#define BULK_INT_INT_CORE_H

#include <stdint.h>

#include "common/hd.h"
#include "common/u128.h"

typedef uint64_t bulk_limb_t;

/* BULK_INT_CORE_DEVICE selects the formulation without 128-bit integers: always in device
 * code; on the host only when BULK_INT_CORE_PORTABLE is defined (the tests do, to check that
 * formulation against the 128-bit one without a GPU). */
#if defined(__CUDA_ARCH__) || defined(BULK_INT_CORE_PORTABLE)
#define BULK_INT_CORE_DEVICE 1
#else
#define BULK_INT_CORE_DEVICE 0
#endif
#if !defined(__CUDA_ARCH__)
typedef u128 bulk_dlimb_t; /* host only: a double limb */
#endif

/* The high limb of a * b. */
BULK_HD bulk_limb_t bulk_limb_mulhi(bulk_limb_t a, bulk_limb_t b)
{
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#elif defined(BULK_INT_CORE_PORTABLE)
    /* schoolbook on 32-bit halves; no partial sum overflows 64 bits */
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#else
    return (bulk_limb_t)(((bulk_dlimb_t)a * b) >> 64);
#endif
}

/* a + b + cin (cin in {0,1}); *cout in {0,1}. */
BULK_HD bulk_limb_t bulk_limb_add(bulk_limb_t a, bulk_limb_t b, bulk_limb_t cin, bulk_limb_t *cout)
{
    bulk_limb_t s = a + b;
    bulk_limb_t c1 = s < a;
    bulk_limb_t t = s + cin;
    *cout = c1 | (t < s);
    return t;
}

/* a - b - bin (bin in {0,1}); *bout in {0,1}. */
BULK_HD bulk_limb_t bulk_limb_sub(bulk_limb_t a, bulk_limb_t b, bulk_limb_t bin, bulk_limb_t *bout)
{
    bulk_limb_t d = a - b;
    bulk_limb_t b1 = a < b;
    bulk_limb_t t = d - bin;
    *bout = b1 | (d < bin);
    return t;
}

/* The full product a * b: low limb returned, high limb in *hi. */
BULK_HD bulk_limb_t bulk_limb_mul(bulk_limb_t a, bulk_limb_t b, bulk_limb_t *hi)
{
#if BULK_INT_CORE_DEVICE
    *hi = bulk_limb_mulhi(a, b);
    return a * b;
#else
    bulk_dlimb_t p = (bulk_dlimb_t)a * b;
    *hi = (bulk_limb_t)(p >> 64);
    return (bulk_limb_t)p;
#endif
}

/* a * b + c + d, which always fits in 128 bits ((2^64-1)^2 + 2(2^64-1) = 2^128 - 1):
 * low limb returned, high limb in *hi. The step of mul_1 / addmul_1 and of schoolbook rows. */
BULK_HD bulk_limb_t bulk_limb_muladd2(bulk_limb_t a, bulk_limb_t b, bulk_limb_t c, bulk_limb_t d,
                                      bulk_limb_t *hi)
{
#if BULK_INT_CORE_DEVICE
    bulk_limb_t lo = a * b, h = bulk_limb_mulhi(a, b);
    lo += c;
    h += lo < c;
    lo += d;
    h += lo < d;
    *hi = h;
    return lo;
#else
    bulk_dlimb_t p = (bulk_dlimb_t)a * b + c + d;
    *hi = (bulk_limb_t)(p >> 64);
    return (bulk_limb_t)p;
#endif
}

/* The three-limb column accumulator of product scanning (Comba, seed 000 chapter 3):
 * (c2:c1:c0) += a * b. A column of k products needs c2 < k, so it never overflows for any
 * realistic k (< 2^64). */
BULK_HD void bulk_limb_comba_step(bulk_limb_t a, bulk_limb_t b, bulk_limb_t *c0, bulk_limb_t *c1,
                                  bulk_limb_t *c2)
{
#if BULK_INT_CORE_DEVICE
    bulk_limb_t lo = a * b, hi = bulk_limb_mulhi(a, b);
    bulk_limb_t s0 = *c0 + lo;
    bulk_limb_t k = s0 < lo;
    bulk_limb_t s1 = *c1 + hi;
    bulk_limb_t k1 = s1 < hi;
    s1 += k;
    k1 += s1 < k;
    *c0 = s0;
    *c1 = s1;
    *c2 += k1;
#else
    bulk_dlimb_t p = (bulk_dlimb_t)a * b;
    bulk_dlimb_t acc = ((bulk_dlimb_t)*c1 << 64) | *c0;
    bulk_dlimb_t s = acc + p;
    *c2 += s < p;
    *c0 = (bulk_limb_t)s;
    *c1 = (bulk_limb_t)(s >> 64);
#endif
}

/* Number of leading zero bits of a nonzero limb. */
BULK_HD int bulk_limb_clz(bulk_limb_t x)
{
#if defined(__CUDA_ARCH__)
    return __clzll((long long)x);
#else
    return __builtin_clzll(x);
#endif
}

/* Number of trailing zero bits of a nonzero limb. */
BULK_HD int bulk_limb_ctz(bulk_limb_t x)
{
#if defined(__CUDA_ARCH__)
    return __ffsll((long long)x) - 1;
#else
    return __builtin_ctzll(x);
#endif
}

/* The inverse of an odd limb modulo 2^64 (Newton: each step doubles the correct low bits;
 * 3*d ^ 2 is right to 5 bits, so four steps give 80 >= 64). Used for exact division. */
BULK_HD bulk_limb_t bulk_limb_inverse_odd(bulk_limb_t d)
{
    bulk_limb_t x = (3 * d) ^ 2;
    x *= 2 - d * x;
    x *= 2 - d * x;
    x *= 2 - d * x;
    x *= 2 - d * x;
    return x;
}

#endif
