/* The CPU glide kernel of `verify` (host only; the GPU keeps collatz_core.h's cz_glide_from).
 *
 * Same mathematics as cz_glide_from_mb (collatz_core.h): from a state v >= n after `done` steps,
 * table operations v = 2^d vH + L -> B[L] vH + C[L] while no value inside the operation can be
 * below n (the dip test MB[L] vH >= n), and the exact first value below n inside the operation
 * that fails it. What differs is how that last operation is resolved, and the arithmetic:
 *
 *  - the values inside operation L after its t-th halving are x_t = b_t vH + c_t (the scan
 *    tables Tb, Tc, Ts of the engine, t = 1..d). With q = floor(n / vH) and rem = n - q vH
 *    (one 128/64 division), x_t < n  <=>  b_t < q, or b_t = q and c_t < rem  (this needs
 *    c_t < vH: c_t < 3^d <= 3^16 < 2^26 and vH >= 2^33 by the kernel's precondition). The
 *    b_t < q test runs on 16 lanes at once (SSE2) and the first dip is the lowest set bit;
 *    the step count to it is Ts. So the glide costs no step-by-step replay and no
 *    data-dependent branch besides "dip or not".
 *  - while v < 2^(64+d) (all that happens near 2^64) vH fits one word: every product is one
 *    64x64 -> 128 multiply (u128).
 *
 * The kernel only handles values far from 2^128: it returns -1 as soon as a state reaches
 * 2^(128 - FAST_HEADROOM), and the caller then runs the reference path (cz_glide_from_mb from
 * the same starting state, with the exact path behind it). Below that bound no trajectory
 * value up to the glide reaches 2^128 (values inside an operation are < 2^(1.6 + 0.6 d) v,
 * d <= 16), so the reference path would not overflow either and both return the exact glide:
 * results, overflow counts and overflow lists are bit-identical to the reference path. */
#ifndef BULK_COLLATZ_GLIDE_FAST_H
#define BULK_COLLATZ_GLIDE_FAST_H
#include <stdint.h>

#include "collatz/collatz_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif


/* States at or above 2^(128 - FAST_HEADROOM) leave the kernel (see above; 16 bits of room
 * cover d <= 16 and the extension levels of a sieve, verify.c). */
#define CZ_FAST_HEADROOM 36

/* n must be at least 2^(d + CZ_FAST_MIN_EXTRA) for the kernel (vH >= 2^33 > c_t). */
#define CZ_FAST_MIN_EXTRA 34

/* Whether the kernel may run for numbers n >= lo of an engine. */
static inline int cz_fast_usable(const bulk_collatz_engine *e, u128 lo)
{
    return e->Tb && (lo >> (e->d + CZ_FAST_MIN_EXTRA)) != 0;
}

/* floor(hi:lo / l), remainder in *rem; needs hi < l (the quotient fits one word). */
static inline uint64_t cz_fast_div(u128 x, uint64_t l, uint64_t *rem)
{
#if defined(__x86_64__)
    uint64_t q, r;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"((uint64_t)x), "d"((uint64_t)(x >> 64)), "rm"(l));
    *rem = r;
    return q;
#else
    uint64_t q = (uint64_t)(x / l);
    *rem = (uint64_t)(x - (u128)q * l);
    return q;
#endif
}

/* Bit t set when Tb[t] < q (t = 0..15), and in *eq when Tb[t] == q; q <= INT32_MAX. */
static inline unsigned cz_fast_lt_mask(const int32_t *tb, int32_t q, unsigned *eq)
{
#if defined(__SSE2__)
    __m128i qv = _mm_set1_epi32(q);
    __m128i b0 = _mm_loadu_si128((const __m128i *)tb), b1 = _mm_loadu_si128((const __m128i *)tb + 1),
            b2 = _mm_loadu_si128((const __m128i *)tb + 2), b3 = _mm_loadu_si128((const __m128i *)tb + 3);
    __m128i l01 = _mm_packs_epi32(_mm_cmplt_epi32(b0, qv), _mm_cmplt_epi32(b1, qv));
    __m128i l23 = _mm_packs_epi32(_mm_cmplt_epi32(b2, qv), _mm_cmplt_epi32(b3, qv));
    __m128i e01 = _mm_packs_epi32(_mm_cmpeq_epi32(b0, qv), _mm_cmpeq_epi32(b1, qv));
    __m128i e23 = _mm_packs_epi32(_mm_cmpeq_epi32(b2, qv), _mm_cmpeq_epi32(b3, qv));
    *eq = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(e01, e23));
    return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(l01, l23));
#else
    unsigned m = 0, e = 0;
    for (int t = 0; t < 16; t++) {
        m |= (unsigned)(tb[t] < q) << t;
        e |= (unsigned)(tb[t] == q) << t;
    }
    *eq = e;
    return m;
#endif
}

/* The first dip inside operation L for vH = l (one word, l >= 2^33, n / l < 2^64): the index
 * t - 1 of the first halving state below n, or -1 when every inside value is >= n. */
static inline int cz_fast_first_dip(const bulk_collatz_engine *e, uint64_t L, uint64_t l,
                                    u128 n)
{
    uint64_t rem;
    uint64_t q = cz_fast_div(n, l, &rem);
    int32_t qc = q > (uint64_t)INT32_MAX ? INT32_MAX : (int32_t)q;
    unsigned eq;
    unsigned m = cz_fast_lt_mask(e->Tb + 16 * L, qc, &eq);
    /* equal b_t (q <= INT32_MAX here: padding entries are INT32_MAX and only equal a clamped q,
     * when every real b_t < q already dips at t = 1) */
    if (__builtin_expect(eq != 0 && q <= (uint64_t)INT32_MAX, 0)) {
        for (int t = 0; t < 16; t++)
            if (((eq >> t) & 1) && e->Tc[16 * L + t] < rem) m |= 1u << t;
    }
    return m ? __builtin_ctz(m) : -1;
}

/* The first dip inside operation L for a two-word vH (rare near 2^64): each inside value
 * b_t vH + c_t compared with n exactly (no overflow: v < 2^(128 - CZ_FAST_HEADROOM)). */
static inline int cz_fast_first_dip_wide(const bulk_collatz_engine *e, uint64_t L,
                                         u128 vH, u128 n)
{
    const int d = e->d;
    for (int t = 0; t < d; t++) {
        u128 x = (u128)(uint32_t)e->Tb[16 * L + t] * vH + e->Tc[16 * L + t];
        if (x < n) return t;
    }
    return -1;
}

/* glide(n) from the state v >= n after `done` steps, or -1: leave it to the reference path
 * (a state reached 2^(128 - CZ_FAST_HEADROOM)). Needs cz_fast_usable(e, n). *hot is set when a
 * state at the start of an operation is >= vlim (verify's pre-drop peaks: below vlim no value
 * of the operation can beat the running maximum), else left alone. */
static inline int64_t cz_fast_glide_pk(const bulk_collatz_engine *e, u128 v, u128 n,
                                       int64_t done, u128 vlim, int *hot)
{
    const int d = e->d;
    const uint64_t mask = ((uint64_t)1 << d) - 1;
    const uint64_t *B = e->B, *C = e->C, *MB = e->MB;
    const uint8_t *J = e->J;
    int h = 0;
    for (;;) {
        h |= v >= vlim;
        const uint64_t lo = (uint64_t)v, hi = (uint64_t)(v >> 64);
        const uint64_t L = lo & mask;
        if (__builtin_expect(hi < ((uint64_t)1 << d), 1)) {
            /* vH < 2^64: one-word products, every value < 2^(64 + 1.6 d + 2); vH by two word
             * shifts (1 <= d <= 16; the general 128-bit shift by a variable costs more) */
            const uint64_t l = (lo >> d) | (hi << (64 - d));
            if ((u128)MB[L] * l < n) {
                int t = cz_fast_first_dip(e, L, l, n);
                if (t >= 0) {
                    *hot |= h;
                    return done + e->Ts[16 * L + t];
                }
            }
            v = (u128)B[L] * l + C[L];
            done += J[L];
        } else {
            if ((v >> (128 - CZ_FAST_HEADROOM)) != 0) {
                *hot |= h;
                return -1;
            }
            const u128 vH = v >> d;
            if ((u128)MB[L] * vH < n) {
                int t = cz_fast_first_dip_wide(e, L, vH, n);
                if (t >= 0) {
                    *hot |= h;
                    return done + e->Ts[16 * L + t];
                }
            }
            v = (u128)B[L] * vH + C[L];
            done += J[L];
        }
    }
}

/* The glide alone. */
static inline int64_t cz_fast_glide(const bulk_collatz_engine *e, u128 v, u128 n, int64_t done)
{
    int hot = 0;
    return cz_fast_glide_pk(e, v, n, done, ~(u128)0, &hot);
}

#endif
