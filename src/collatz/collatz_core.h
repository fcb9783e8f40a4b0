/* Pure per-number Collatz step logic shared by the CPU backend, the CUDA kernels and the tests.
 *
 * Values are 128-bit, held as two uint64_t words (bulk_u128) with explicit carries, because
 * unsigned __int128 is not available in CUDA device code; the only platform-specific primitive
 * is the 64x64 -> 128 multiply (cz_mul64). Every function that can grow a value reports
 * overflow (the value would need more than 128 bits) instead of wrapping; the caller then
 * hands the starting number to the exact multi-limb path.
 *
 * Tables (seed 004 section 3, base bits d, 1 <= d <= 24): for every d-bit residue L,
 *   B[L] = 3^J'  (J' odd steps), C[L] < B[L], J[L] = d + J' steps,
 * so that for v = 2^d * vH + L the value after the J[L] steps is B[L] * vH + C[L]. The last of
 * those J steps is the d-th halving. Layout is structure-of-arrays (B, C, J separate), the format
 * the GPU kernels read with broadcast/coalesced access (seed 004 Figure 4). */
#ifndef BULK_COLLATZ_CORE_H
#define BULK_COLLATZ_CORE_H
#include <stdint.h>

#include "bulk/collatz.h"
#include "common/hd.h"
#include "common/u128.h"

typedef bulk_u128 cz_u128;

/* The hot functions are forced inline on the host too (gcc otherwise kept cz_glide_step as a
 * call in the verify loop, measured 20% slower); under nvcc BULK_HD is already forceinline. */
#if defined(__CUDACC__)
#define CZ_HD BULK_HD
#else
#define CZ_HD static inline __attribute__((always_inline))
#endif

/* lo word of a*b; *hi the high word. */
CZ_HD uint64_t cz_mul64(uint64_t a, uint64_t b, uint64_t *hi)
{
#if defined(__CUDA_ARCH__)
    *hi = __umul64hi(a, b);
    return a * b;
#else
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    return (uint64_t)p;
#endif
}

CZ_HD cz_u128 cz_make(uint64_t lo, uint64_t hi)
{
    cz_u128 r;
    r.lo = lo;
    r.hi = hi;
    return r;
}
CZ_HD int cz_lt(cz_u128 a, cz_u128 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
CZ_HD int cz_eq(cz_u128 a, cz_u128 b) { return a.hi == b.hi && a.lo == b.lo; }
CZ_HD int cz_is_zero(cz_u128 a) { return (a.hi | a.lo) == 0; }
CZ_HD cz_u128 cz_add64(cz_u128 a, uint64_t b) /* wraps mod 2^128 */
{
    cz_u128 r;
    r.lo = a.lo + b;
    r.hi = a.hi + (r.lo < b);
    return r;
}
CZ_HD cz_u128 cz_add(cz_u128 a, cz_u128 b) /* wraps mod 2^128 */
{
    cz_u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < b.lo);
    return r;
}
CZ_HD cz_u128 cz_sub(cz_u128 a, cz_u128 b) /* wraps mod 2^128 */
{
    cz_u128 r;
    r.lo = a.lo - b.lo;
    r.hi = a.hi - b.hi - (a.lo < b.lo);
    return r;
}
/* a >> s for 0 <= s < 128. */
CZ_HD cz_u128 cz_shr(cz_u128 a, int s)
{
    if (s == 0) return a;
    if (s >= 64) return cz_make(a.hi >> (s - 64), 0);
    return cz_make((a.lo >> s) | (a.hi << (64 - s)), a.hi >> s);
}
/* a << s for 0 <= s < 128 (bits shifted out are lost). */
CZ_HD cz_u128 cz_shl(cz_u128 a, int s)
{
    if (s == 0) return a;
    if (s >= 64) return cz_make(0, a.lo << (s - 64));
    return cz_make(a.lo << s, (a.hi << s) | (a.lo >> (64 - s)));
}

/* *r = m * x + c (m, c < 2^64). Returns 0 (r untouched) when the result needs > 128 bits. */
CZ_HD int cz_muladd(cz_u128 *r, uint64_t m, cz_u128 x, uint64_t c)
{
    uint64_t p0h, p1h;
    uint64_t p0l = cz_mul64(m, x.lo, &p0h);
    uint64_t p1l = cz_mul64(m, x.hi, &p1h);
    if (p1h) return 0;
    uint64_t lo = p0l + c;
    uint64_t carry = lo < c;
    uint64_t hi = p0h + p1l;
    uint64_t over = hi < p1l;
    hi += carry;
    over |= hi < carry;
    if (over) return 0;
    r->lo = lo;
    r->hi = hi;
    return 1;
}

/* One table operation on v >= 2^d: v <- B * (v >> d) + C. Returns 0 on overflow (v untouched). */
CZ_HD int cz_table_step(cz_u128 *v, int d, uint64_t b, uint64_t c)
{
    return cz_muladd(v, b, cz_shr(*v, d), c);
}

/* One odd step v <- 3v + 1 (v odd), as v + 2v + 1 with explicit carries. 0 on overflow. */
CZ_HD int cz_odd_step(cz_u128 *v)
{
    if (v->hi >> 63) return 0; /* 2v would not fit */
    cz_u128 t = cz_make(v->lo << 1, (v->hi << 1) | (v->lo >> 63));
    uint64_t lo = t.lo + v->lo;
    uint64_t c1 = lo < t.lo;
    lo += 1;
    c1 += lo == 0;
    uint64_t hi = t.hi + v->hi;
    uint64_t over = hi < t.hi;
    hi += c1;
    over |= hi < c1;
    if (over) return 0;
    v->lo = lo;
    v->hi = hi;
    return 1;
}

/* Number of significant bits of v (0 for 0). */
CZ_HD int cz_bitlen(cz_u128 v)
{
#if defined(__CUDA_ARCH__)
    return v.hi ? 128 - __clzll((long long)v.hi) : (v.lo ? 64 - __clzll((long long)v.lo) : 0);
#else
    return v.hi ? 128 - __builtin_clzll(v.hi) : (v.lo ? 64 - __builtin_clzll(v.lo) : 0);
#endif
}

/* Trailing zero bits of v != 0. */
CZ_HD int cz_ctz(cz_u128 v)
{
#if defined(__CUDA_ARCH__)
    return v.lo ? __ffsll((long long)v.lo) - 1 : 63 + __ffsll((long long)v.hi);
#else
    return v.lo ? __builtin_ctzll(v.lo) : 64 + __builtin_ctzll(v.hi);
#endif
}

/* The glide of n from a state part-way along its trajectory: v is the value after `done` steps,
 * and no value so far was below n (v >= n). While v >= 2^d * n (vH = v >> d >= n) one table
 * operation is done at a time: no value inside it can be below n, since each of its d halvings
 * at most halves and its odd steps only raise. Closer to n the trajectory is followed exactly, a
 * whole run of halvings at once (measured faster than smaller table operations there): after an odd step (which only raises) v is even with
 * t = ctz(v) halvings ahead; the first s with v >> s < n is s* = delta or delta + 1 with
 * delta = bitlen(v) - bitlen(n) (s* = 1 when delta = 0, as then n <= v < 2n); it is the glide
 * when s* <= t. With the dip table MB (may be NULL), MB[L] = the smallest b of the values
 * b_t vH + c_t inside operation L (every state after a halving, the last included): when
 * MB[L] * vH >= n no inside value is below n either, and the operation is one table step; so
 * near n only the operation that really drops below n is followed step by step.
 * One step of that loop (nbits = bitlen(n)): returns 0 to go on, 1 when *done is the glide,
 * -1 on overflow (the caller then uses the exact path). */
CZ_HD int cz_glide_step(cz_u128 *v, cz_u128 n, int nbits, int64_t *done, int d,
                          const uint64_t *B, const uint64_t *C, const uint8_t *J,
                          const uint64_t *MB)
{
    const uint64_t L = v->lo & (((uint64_t)1 << d) - 1);
    cz_u128 vH = cz_shr(*v, d), low;
    /* the dip table is used only while every value inside the operation stays below 2^128
     * (inside values are below 2^(1.585 + 0.585 d + 0.01) v), so that a number overflows here
     * exactly when it overflows without the table (cz_glide_from): the overflow list does not
     * depend on MB, and backends mirroring cz_glide_from agree with it */
    const int lim = (1585 + 585 * d) / 1000 + 2;
    if (!cz_lt(vH, n) ||
        (MB && (v->hi >> (64 - lim)) == 0 && (!cz_muladd(&low, MB[L], vH, 0) || !cz_lt(low, n)))) {
        if (!cz_table_step(v, d, B[L], C[L])) return -1;
        *done += J[L];
        return 0;
    }
    if (v->lo & 1) {
        if (!cz_odd_step(v)) return -1;
        (*done)++;
    }
    int t = cz_ctz(*v);
    int delta = cz_bitlen(*v) - nbits;
    int sstar = delta == 0 ? 1 : (cz_lt(cz_shr(*v, delta), n) ? delta : delta + 1);
    if (sstar <= t) {
        *done += sstar;
        return 1;
    }
    *v = cz_shr(*v, t);
    *done += t;
    return 0;
}

/* The whole glide loop for one number, with the dip table MB (may be NULL). */
BULK_HD int64_t cz_glide_from_mb(cz_u128 v, cz_u128 n, int64_t done, int d, const uint64_t *B,
                                 const uint64_t *C, const uint8_t *J, const uint64_t *MB)
{
    const int nbits = cz_bitlen(n);
    for (;;) {
        int r = cz_glide_step(&v, n, nbits, &done, d, B, C, J, MB);
        if (r > 0) return done;
        if (r < 0) return -1;
    }
}

/* The same without the dip table (every operation that starts below 2^d n followed step by
 * step); the glide is the same, only the values computed on the way differ. */
BULK_HD int64_t cz_glide_from(cz_u128 v, cz_u128 n, int64_t done, int d, const uint64_t *B,
                              const uint64_t *C, const uint8_t *J)
{
    return cz_glide_from_mb(v, n, done, d, B, C, J, (const uint64_t *)0);
}

/* delay(n) by seed 004 Algorithm 2: table operations while the value is >= t = 2^a (a >= d, so
 * each operation sees vH >= 1 and no value inside it is 1), then A[value]. -1 on overflow. */
CZ_HD int64_t cz_delay(cz_u128 n, int d, int a, const uint64_t *B, const uint64_t *C,
                         const uint8_t *J, const uint16_t *A)
{
    const uint64_t mask = ((uint64_t)1 << d) - 1;
    int64_t steps = 0;
    cz_u128 v = n;
    while (v.hi || (v.lo >> a)) {
        uint64_t L = v.lo & mask;
        if (!cz_table_step(&v, d, B[L], C[L])) return -1;
        steps += J[L];
    }
    return steps + A[v.lo];
}

/* Peak tracking through one table operation. MX[L] bounds the b coefficient of every value
 * inside the operation on residue L (value = b_t * vH + c_t with c_t < b_t), so every inside
 * value is < MX[L] * (vH + 1). When that bound cannot beat *peak the operation is done in one
 * table step; otherwise it is replayed step by step, raising *peak exactly. 0 on overflow. */
BULK_HD int cz_peak_step(cz_u128 *v, cz_u128 *peak, int d, const uint64_t *B, const uint64_t *C,
                         const uint8_t *J, const uint64_t *MX)
{
    const uint64_t mask = ((uint64_t)1 << d) - 1;
    uint64_t L = v->lo & mask;
    cz_u128 bound;
    cz_u128 vh1 = cz_add64(cz_shr(*v, d), 1);
    if (cz_muladd(&bound, MX[L], vh1, 0) && !cz_lt(*peak, bound)) {
        return cz_table_step(v, d, B[L], C[L]);
    }
    for (int s = 0; s < J[L]; s++) {
        if (v->lo & 1) {
            if (!cz_odd_step(v)) return 0;
            if (cz_lt(*peak, *v)) *peak = *v;
        } else {
            *v = cz_shr(*v, 1);
        }
    }
    return 1;
}

/* The sieve's starting state for n = 2^k * nH + r with r a mandatory residue: after k halvings
 * and j odd steps the value is 3^j * nH + c (pow3j = 3^j). 0 on overflow. */
CZ_HD int cz_sieve_start(cz_u128 *v, cz_u128 nH, uint64_t pow3j, uint64_t c)
{
    return cz_muladd(v, pow3j, nH, c);
}

#endif
