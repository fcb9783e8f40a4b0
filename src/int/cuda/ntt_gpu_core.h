/* Per-element logic of the GPU NTT multiplication (int_cuda_ntt.h), written once as BULK_HD
 * functions so that the CPU test (tests/int_gpu/test_int_gpu_ntt_core.c) runs exactly the code
 * the kernels run, against naive references and GMP.
 *
 * Numbers: 32-bit coefficients (one word of an operand each), three primes, two sets:
 *  - set 0 ("large", the single large products): p < 2^32 with 2^27 | p - 1, so transforms of
 *    up to 2^27 points exist modulo each; p0 p1 p2 > 2^94 exceeds every convolution sum
 *    N (2^32 - 1)^2 for N <= 2^27;
 *  - set 1 ("small", the batched kernel): p < 2^31 with 2^25 | p - 1; p0 p1 p2 > 2^92, exact for
 *    N <= 2^25 (the batched kernel uses N <= 2^15). Below 2^31 a sum of two residues does not
 *    wrap 32 bits, so modular addition, subtraction and the Montgomery correction are each one
 *    add and one unsigned minimum (nt_add and friends pick that form when p < 2^31; with p a
 *    compile-time constant the choice costs nothing).
 * Garner's CRT recovers the coefficients exactly from the three residues.
 *
 * Modular products are Montgomery's with R = 2^32 in the subtractive form (valid for any odd
 * p < 2^32, which matters since two primes exceed 2^31): for t = a b < p R,
 * m = (t mod R) p^-1 mod R, and (t - m p) / R = hi(t) - hi(m p) lies in (-p, p) - one
 * conditional addition. About 5 instructions on the device (IMAD.WIDE, IMAD, IMAD.HI, IADD,
 * select). Twiddles are stored in Montgomery form (w R mod p), so mont(x, wR) = x w mod p.
 *
 * Transforms: forward decimation in frequency (Gentleman-Sande; natural order in, bit-reversed
 * out), backward decimation in time (Cooley-Tukey; bit-reversed in, natural out), so no
 * permutation pass is needed for a convolution. A stage of half-size h pairs x[i] and x[i + h]
 * in blocks of 2h; its twiddles are w_{2h}^j, j < h, the 2h-th root of unity of the prime.
 * Stage table layout (nt_stage_table): tw[h + j] = w_{2h}^j R mod p for every power of two
 * h <= H and j < h (2H words, tw[0] unused): a stage reads tw[h .. 2h) contiguously. */
#ifndef BULK_INT_CUDA_NTT_GPU_CORE_H
#define BULK_INT_CUDA_NTT_GPU_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "common/hd.h"

#define NT_NPRIMES 3
#define NT_NSETS 2
/* log2 of the largest transform of set 0: the two-adicity of its smallest (2^27 | p2 - 1). */
#define NT_MAX_LOG 27
/* ... and of set 1 (2^25 | p2 - 1). */
#define NT_MAX_LOG_SMALL 25

/* Set 0: 3 * 2^30 + 1, 13 * 2^28 + 1, 15 * 2^27 + 1 and their least primitive roots. */
#define NT_P0 3221225473u
#define NT_P1 3489660929u
#define NT_P2 2013265921u
#define NT_G0 5u
#define NT_G1 3u
#define NT_G2 31u
/* Their Montgomery constants p^-1 mod 2^32 and R^2 mod p (compile-time constants for the
 * kernels; test_int_gpu_ntt_core checks them against nt_prime_get, which computes them). */
#define NT_PINV0 0x40000001u
#define NT_PINV1 0x30000001u
#define NT_PINV2 0x88000001u
#define NT_R2_0 1789569709u
#define NT_R2_1 1961643719u
#define NT_R2_2 1172168163u
/* Garner's constants in Montgomery form: p0^-1 R mod p1, (p0 p1)^-1 R mod p2 (checked against
 * nt_crt_get by the test). */
#define NT_C01 3489660913u
#define NT_C012 244032228u

/* Set 1: 27 * 2^26 + 1, 15 * 2^27 + 1, 63 * 2^25 + 1 (increasing: Garner needs p0 < p1), roots,
 * Montgomery and Garner constants as above. */
#define NT_S_P0 1811939329u
#define NT_S_P1 2013265921u
#define NT_S_P2 2113929217u
#define NT_S_G0 13u
#define NT_S_G1 31u
#define NT_S_G2 5u
#define NT_S_PINV0 0x94000001u
#define NT_S_PINV1 0x88000001u
#define NT_S_PINV2 0x82000001u
#define NT_S_R2_0 959408210u
#define NT_S_R2_1 1172168163u
#define NT_S_R2_2 2111798781u
#define NT_S_C01 671088619u
#define NT_S_C012 1409285846u

/* The constants of prime k of set `set` (compile-time constants when both are). */
BULK_HD uint32_t nt_p(int set, int k)
{
    return set ? (k == 0 ? NT_S_P0 : k == 1 ? NT_S_P1 : NT_S_P2) : (k == 0 ? NT_P0 : k == 1 ? NT_P1 : NT_P2);
}
BULK_HD uint32_t nt_pinv(int set, int k)
{
    return set ? (k == 0 ? NT_S_PINV0 : k == 1 ? NT_S_PINV1 : NT_S_PINV2)
               : (k == 0 ? NT_PINV0 : k == 1 ? NT_PINV1 : NT_PINV2);
}
BULK_HD uint32_t nt_r2(int set, int k)
{
    return set ? (k == 0 ? NT_S_R2_0 : k == 1 ? NT_S_R2_1 : NT_S_R2_2)
               : (k == 0 ? NT_R2_0 : k == 1 ? NT_R2_1 : NT_R2_2);
}
BULK_HD uint32_t nt_g(int set, int k)
{
    return set ? (k == 0 ? NT_S_G0 : k == 1 ? NT_S_G1 : NT_S_G2) : (k == 0 ? NT_G0 : k == 1 ? NT_G1 : NT_G2);
}

/* One prime with its Montgomery constants. */
typedef struct nt_prime {
    uint32_t p;    /* the prime */
    uint32_t pinv; /* p^-1 mod 2^32 */
    uint32_t r2;   /* R^2 mod p (R = 2^32): mont(x, r2) = x R mod p */
    uint32_t g;    /* a primitive root mod p */
} nt_prime;

/* Unsigned minimum: one IMNMX on the device. */
BULK_HD uint32_t nt_umin(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__)
    return min(a, b);
#else
    return a < b ? a : b;
#endif
}

/* The high word of a 32 x 32-bit product (one IMAD.HI on the device). */
BULK_HD uint32_t nt_mulhi(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

/* Montgomery product a b R^-1 mod p, in [0, p), for a < 2^32, b < p (so a b < p R). */
BULK_HD uint32_t nt_mont(uint32_t a, uint32_t b, uint32_t p, uint32_t pinv)
{
    if (p < 0x80000000u) {
        /* t + m (R - p) = (t - m p) + m R does not wrap 64 bits (t < p R), so its high word
         * minus m is (t - m p) / R mod R: two wide multiply-adds, one multiply, one add (the
         * device form of th - mh costs three moves more); then r + p < r exactly when
         * t < m p. */
        uint64_t t = (uint64_t)a * b;
        uint32_t m = (uint32_t)t * pinv;
        uint64_t u = (uint64_t)m * (0u - p) + t;
        uint32_t r = (uint32_t)(u >> 32) - m;
        return nt_umin(r, r + p);
    }
    uint32_t m = (a * b) * pinv;
    uint32_t th = nt_mulhi(a, b), mh = nt_mulhi(m, p);
    uint32_t r = th - mh;
    return th < mh ? r + p : r;
}

/* a + b mod p, a - b mod p for a, b < p (p < 2^32: the sum may wrap 32 bits; below 2^31 it does
 * not, and min(s, s - p) is the reduced sum, min(d, d + p) the reduced difference). */
BULK_HD uint32_t nt_add(uint32_t a, uint32_t b, uint32_t p)
{
    uint32_t s = a + b, t = s - p;
    if (p < 0x80000000u) return nt_umin(s, t);
    return (s < a || s >= p) ? t : s;
}

BULK_HD uint32_t nt_sub(uint32_t a, uint32_t b, uint32_t p)
{
    uint32_t d = a - b;
    if (p < 0x80000000u) return nt_umin(d, d + p);
    return a < b ? d + p : d;
}

/* x mod p for any 32-bit x (every prime is above 2^30, so x < 4p: at most three steps; for
 * p0, p1 > 2^31 one). */
BULK_HD uint32_t nt_reduce(uint32_t x, uint32_t p)
{
    if (x >= p) x -= p;
    if (x >= p) x -= p;
    if (x >= p) x -= p;
    return x;
}

/* b^e mod p by Montgomery products; b < p, result in normal form. */
BULK_HD uint32_t nt_pow(uint32_t b, uint64_t e, const nt_prime *P)
{
    uint32_t x = nt_mont(b, P->r2, P->p, P->pinv); /* b R */
    uint32_t r = nt_mont(1, P->r2, P->p, P->pinv); /* R */
    while (e) {
        if (e & 1) r = nt_mont(r, x, P->p, P->pinv);
        x = nt_mont(x, x, P->p, P->pinv);
        e >>= 1;
    }
    return nt_mont(r, 1, P->p, P->pinv); /* out of Montgomery form */
}

/* Inverse of a mod p (a != 0 mod p) by Fermat; normal form. */
BULK_HD uint32_t nt_inv(uint32_t a, const nt_prime *P) { return nt_pow(a, P->p - 2, P); }

/* The constants of prime k (0, 1, 2) of set `set`, computed (no tables to get wrong). */
BULK_HD nt_prime nt_prime_get(int set, int k)
{
    nt_prime P;
    P.p = nt_p(set, k);
    P.g = nt_g(set, k);
    uint32_t inv = P.p; /* Newton: p p = 1 mod 8, each step doubles the correct bits */
    for (int i = 0; i < 4; i++) inv *= 2u - P.p * inv;
    P.pinv = inv;
    uint64_t r1 = ((uint64_t)1 << 32) % P.p;
    P.r2 = (uint32_t)(r1 * r1 % P.p);
    return P;
}

/* The primitive 2^lg-th root of unity of prime P (lg <= its two-adicity), normal form; inverse when
 * inv (w^-1 = w^(2^lg - 1)). */
BULK_HD uint32_t nt_root(const nt_prime *P, int lg, int inv)
{
    uint32_t w = nt_pow(P->g, (uint64_t)(P->p - 1) >> lg, P);
    return inv ? nt_pow(w, ((uint64_t)1 << lg) - 1, P) : w;
}

/* x R mod p (into Montgomery form) and back. */
BULK_HD uint32_t nt_to_mont(uint32_t x, const nt_prime *P) { return nt_mont(x, P->r2, P->p, P->pinv); }
BULK_HD uint32_t nt_from_mont(uint32_t x, const nt_prime *P) { return nt_mont(x, 1, P->p, P->pinv); }

/* ---- butterflies (w in Montgomery form) ---------------------------------------------------- */

/* Forward (decimation in frequency): (x, y) <- (x + y, (x - y) w). */
BULK_HD void nt_bf_dif(uint32_t *x, uint32_t *y, uint32_t w, uint32_t p, uint32_t pinv)
{
    uint32_t a = *x, b = *y;
    *x = nt_add(a, b, p);
    *y = nt_mont(nt_sub(a, b, p), w, p, pinv);
}

/* Backward (decimation in time): (x, y) <- (x + y w, x - y w). */
BULK_HD void nt_bf_dit(uint32_t *x, uint32_t *y, uint32_t w, uint32_t p, uint32_t pinv)
{
    uint32_t a = *x, t = nt_mont(*y, w, p, pinv);
    *x = nt_add(a, t, p);
    *y = nt_sub(a, t, p);
}

/* Radix-4 step of the forward transform: stages h and h / 2 (h >= 2) on the four points
 * x[i], x[i + q], x[i + 2q], x[i + 3q] with q = h / 2, i = block * 2h + j, j < q; twiddles
 * wa = w_{2h}^j, wb = w_{2h}^(j + q), wc = w_h^j (Montgomery form). */
BULK_HD void nt_r4_dif_w(uint32_t *x0, uint32_t *x1, uint32_t *x2, uint32_t *x3, uint32_t wa,
                         uint32_t wb, uint32_t wc, uint32_t p, uint32_t pinv)
{
    nt_bf_dif(x0, x2, wa, p, pinv);
    nt_bf_dif(x1, x3, wb, p, pinv);
    nt_bf_dif(x0, x1, wc, p, pinv);
    nt_bf_dif(x2, x3, wc, p, pinv);
}

/* Radix-4 step of the backward transform: stages q = h / 2 then h on the same four points,
 * twiddles the inverse roots (wa = w_{2h}^-j, wb = w_{2h}^-(j + q), wc = w_h^-j). */
BULK_HD void nt_r4_dit_w(uint32_t *x0, uint32_t *x1, uint32_t *x2, uint32_t *x3, uint32_t wa,
                         uint32_t wb, uint32_t wc, uint32_t p, uint32_t pinv)
{
    nt_bf_dit(x0, x1, wc, p, pinv);
    nt_bf_dit(x2, x3, wc, p, pinv);
    nt_bf_dit(x0, x2, wa, p, pinv);
    nt_bf_dit(x1, x3, wb, p, pinv);
}

/* The index of the first point of group g (g < N / 4) of a radix-4 step at half-size h = 2^lh:
 * block g / q of size 2h, offset g mod q (q = h / 2; shifts, not divisions: h is a power of
 * two). */
BULK_HD unsigned nt_r4_base(unsigned g, int lh)
{
    unsigned lq = (unsigned)lh - 1, q = 1u << lq;
    return ((g >> lq) << (lh + 1)) + (g & (q - 1));
}

/* The stage table of prime P for stages h = 1, 2, 4, .., H (H a power of two, 2H <= 2^27):
 * tw[h + j] = w_{2h}^(+-j) R mod p, j < h (inverse roots when inv). tw[0] = 0. Host and tests. */
BULK_HD void nt_stage_table(uint32_t *tw, size_t H, const nt_prime *P, int inv)
{
    tw[0] = 0;
    int lg = 1;
    for (size_t h = 1; h <= H; h <<= 1, lg++) {
        uint32_t w = nt_to_mont(nt_root(P, lg, inv), P), x = nt_to_mont(1, P);
        for (size_t j = 0; j < h; j++) {
            tw[h + j] = x;
            x = nt_mont(x, w, P->p, P->pinv);
        }
    }
}

/* Twiddle of a large stage from two small tables (the multi-kernel transform, where a full
 * stage table would not fit): for N = 2^lg and i < N / 2, lo[i mod L] hi[i / L] with
 * lo[x] = w_N^x R, hi[y] = w_N^(L y) R mod p (L a power of two). Stage h of a length-N
 * transform uses i = j N / (2h). */
BULK_HD uint32_t nt_tw2(const uint32_t *lo, const uint32_t *hi, size_t i, int lgL, uint32_t p,
                        uint32_t pinv)
{
    uint32_t a = lo[i & (((size_t)1 << lgL) - 1)], b = hi[i >> lgL];
    /* (a R)(b R) R^-1 = a b R: still Montgomery form */
    return nt_mont(a, b, p, pinv);
}

/* ---- a transform in one array, as one block of T threads runs it ----------------------------
 *
 * Passes: the forward transform of 2^lg points is pass 0 .. nt_npasses(lg) - 1, pass i at
 * half-size h = 2^(lg - 1 - 2i), radix 4 (stages h, h / 2) when h >= 2, else one radix-2
 * stage (h = 1, lg odd). The backward transform mirrors it: pass i at h = 2^(2i + 1) (lg
 * even) or, for lg odd, h = 1 radix 2 at pass 0 and h = 2^(2i) after. Thread tid of T does the
 * groups tid, tid + T, ...; the kernel separates passes by a barrier, the CPU test runs the
 * threads one after the other. Stage twiddles from the stage table tw (H >= 2^(lg - 1)).
 * Indices are 32-bit (lg <= 30): these passes run on blocks in shared memory. sw: the array is
 * stored in the nt_sw order (point i at x[nt_sw(i, sw)]). */
BULK_HD int nt_npasses(int lg) { return (lg + 1) >> 1; }

/* The physical index of point i of a transform in shared memory when sw is set: i with its low
 * five bits (the bank) XORed with bits 5..7 and, shifted to bits 3..4, bits 6..7. A bijection on
 * every aligned block of 32 (so consecutive accesses stay conflict-free) that spreads the
 * strided accesses of the small-h passes over the banks: counted for the radix-8 schedule at
 * 2^11 .. 2^15 points, the passes need 1.0 .. 1.25 times the conflict-free number of
 * shared-memory wavefronts, against 2.8 .. 3.5 without it (stride-8 and stride-64 groups hit
 * 8 or 4 threads per bank). sw = 0: the identity (global arrays, the CPU reference). */
BULK_HD unsigned nt_sw(unsigned i, int sw) /* linear over the bits: nt_sw(a ^ b) = nt_sw(a) ^ nt_sw(b) */
{
    return sw ? i ^ ((i >> 5) & 7u) ^ (((i >> 6) & 3u) << 3) : i;
}

/* One radix-4 pass at h = 2^lh (lh >= 1) over this thread's groups (inv: backward, stages h / 2
 * then h), and the radix-2 pass of stage h = 1. */
BULK_HD void nt_r4_pass(uint32_t *x, int lg, int lh, unsigned tid, unsigned T, const uint32_t *tw,
                        int inv, int sw, uint32_t p, uint32_t pinv)
{
    const unsigned n = 1u << lg, h = 1u << lh, q = h >> 1;
    const unsigned f1 = nt_sw(q, sw), f2 = nt_sw(2 * q, sw), f3 = nt_sw(3 * q, sw);
    for (unsigned g = tid; g < n / 4; g += T) {
        unsigned b = nt_r4_base(g, lh), j = g & (q - 1);
        /* b and m q have disjoint bits, so nt_sw(b + m q) = nt_sw(b) ^ nt_sw(m q) */
        const unsigned i0 = nt_sw(b, sw), i1 = i0 ^ f1, i2 = i0 ^ f2, i3 = i0 ^ f3;
        /* in registers: through the pointers the compiler must assume they alias */
        uint32_t v0 = x[i0], v1 = x[i1], v2 = x[i2], v3 = x[i3];
        if (inv) nt_r4_dit_w(&v0, &v1, &v2, &v3, tw[h + j], tw[h + j + q], tw[q + j], p, pinv);
        else nt_r4_dif_w(&v0, &v1, &v2, &v3, tw[h + j], tw[h + j + q], tw[q + j], p, pinv);
        x[i0] = v0, x[i1] = v1, x[i2] = v2, x[i3] = v3;
    }
}

BULK_HD void nt_r2_pass(uint32_t *x, int lg, unsigned tid, unsigned T, const uint32_t *tw, int inv,
                        int sw, uint32_t p, uint32_t pinv)
{
    const unsigned n = 1u << lg;
    for (unsigned k = tid; k < n / 2; k += T) {
        const unsigned i0 = nt_sw(2 * k, sw), i1 = i0 ^ 1u; /* nt_sw(1) = 1 */
        uint32_t v0 = x[i0], v1 = x[i1];
        if (inv) nt_bf_dit(&v0, &v1, tw[1], p, pinv);
        else nt_bf_dif(&v0, &v1, tw[1], p, pinv);
        x[i0] = v0, x[i1] = v1;
    }
}

BULK_HD void nt_fwd_pass(uint32_t *x, int lg, int pass, unsigned tid, unsigned T,
                         const uint32_t *tw, int sw, uint32_t p, uint32_t pinv)
{
    const int lh = lg - 1 - 2 * pass;
    if (lh >= 1) nt_r4_pass(x, lg, lh, tid, T, tw, 0, sw, p, pinv);
    else nt_r2_pass(x, lg, tid, T, tw, 0, sw, p, pinv);
}

BULK_HD void nt_inv_pass(uint32_t *x, int lg, int pass, unsigned tid, unsigned T,
                         const uint32_t *itw, int sw, uint32_t p, uint32_t pinv)
{
    const int lh = (lg & 1) ? (pass == 0 ? 0 : 2 * pass) : 2 * pass + 1;
    if (lh >= 1) nt_r4_pass(x, lg, lh, tid, T, itw, 1, sw, p, pinv);
    else nt_r2_pass(x, lg, tid, T, itw, 1, sw, p, pinv);
}

/* Radix-8 passes (three stages per pass: fewer barriers, shared-memory round trips and index
 * computations per butterfly than radix 4). Forward: lg / 3 radix-8 passes from the top (pass i
 * at h = 2^(lg - 1 - 3i): stages h, h / 2, h / 4), then the lg mod 3 remaining stages as one
 * radix-4 (h = 2) or radix-2 (h = 1) pass. Backward: the remainder first, then radix-8 passes
 * upward (stages h / 4, h / 2, h). A group g < N / 8 at h = 2^lh (lh >= 2, e = h / 4) is the
 * eight points b + m e, m < 8, with b = (g / e) 2h + g mod e; its twiddles: stage h
 * w_{2h}^(j + m e) (m < 4), stage h / 2 w_h^(j + m e) (m < 2), stage h / 4 w_{h/2}^j. */
BULK_HD int nt_npasses8(int lg) { return lg / 3 + (lg % 3 != 0); }

/* The seven twiddles of group offset j at h (from the stage table of the direction):
 * w[m] = tw[h + j + m e] (m < 4), w[4], w[5] = tw[h / 2 + j (+ e)], w[6] = tw[e + j]. */
BULK_HD void nt_r8_tw(uint32_t *w, const uint32_t *tw, unsigned h, unsigned j)
{
    const unsigned e = h >> 2;
    for (int m = 0; m < 4; m++) w[m] = tw[h + j + m * e];
    w[4] = tw[(h >> 1) + j];
    w[5] = tw[(h >> 1) + j + e];
    w[6] = tw[e + j];
}

BULK_HD void nt_r8_dif(uint32_t *v, const uint32_t *w, uint32_t p, uint32_t pinv)
{
    for (int m = 0; m < 4; m++) nt_bf_dif(&v[m], &v[m + 4], w[m], p, pinv);
    nt_bf_dif(&v[0], &v[2], w[4], p, pinv);
    nt_bf_dif(&v[1], &v[3], w[5], p, pinv);
    nt_bf_dif(&v[4], &v[6], w[4], p, pinv);
    nt_bf_dif(&v[5], &v[7], w[5], p, pinv);
    for (int m = 0; m < 8; m += 2) nt_bf_dif(&v[m], &v[m + 1], w[6], p, pinv);
}

BULK_HD void nt_r8_dit(uint32_t *v, const uint32_t *w, uint32_t p, uint32_t pinv)
{
    for (int m = 0; m < 8; m += 2) nt_bf_dit(&v[m], &v[m + 1], w[6], p, pinv);
    nt_bf_dit(&v[0], &v[2], w[4], p, pinv);
    nt_bf_dit(&v[1], &v[3], w[5], p, pinv);
    nt_bf_dit(&v[4], &v[6], w[4], p, pinv);
    nt_bf_dit(&v[5], &v[7], w[5], p, pinv);
    for (int m = 0; m < 4; m++) nt_bf_dit(&v[m], &v[m + 4], w[m], p, pinv);
}

/* One radix-8 pass at h = 2^lh over this thread's groups of x and, when y is not NULL, the same
 * groups of y with the same twiddles (the forward transforms of both operands: one twiddle load
 * and index computation for two groups, and two independent chains); inv: backward. */
BULK_HD void nt_r8_pass(uint32_t *x, uint32_t *y, int lg, int lh, unsigned tid, unsigned T,
                        const uint32_t *tw, int inv, int sw, uint32_t p, uint32_t pinv)
{
    const unsigned n = 1u << lg, h = 1u << lh, e = h >> 2;
    /* b and m e have disjoint bits, so nt_sw(b + m e) = nt_sw(b) ^ nt_sw(m e); and nt_sw(m e)
     * is the XOR of nt_sw(e), nt_sw(2e), nt_sw(4e) over the bits of m */
    unsigned f[8];
    f[0] = 0, f[1] = nt_sw(e, sw), f[2] = nt_sw(2 * e, sw), f[4] = nt_sw(4 * e, sw);
    f[3] = f[1] ^ f[2], f[5] = f[1] ^ f[4], f[6] = f[2] ^ f[4], f[7] = f[3] ^ f[4];
    for (unsigned g = tid; g < n / 8; g += T) {
        unsigned j = g & (e - 1), b = ((g >> (lh - 2)) << (lh + 1)) + j, fb = nt_sw(b, sw);
        uint32_t v[8];
        for (int m = 0; m < 8; m++) v[m] = x[fb ^ f[m]];
        if (y) {
            uint32_t w[7], u[8];
            nt_r8_tw(w, tw, h, j);
            for (int m = 0; m < 8; m++) u[m] = y[fb ^ f[m]];
            if (inv) {
                nt_r8_dit(v, w, p, pinv);
                nt_r8_dit(u, w, p, pinv);
            } else {
                nt_r8_dif(v, w, p, pinv);
                nt_r8_dif(u, w, p, pinv);
            }
            for (int m = 0; m < 8; m++) y[fb ^ f[m]] = u[m];
        } else { /* one array: each twiddle loaded where it is used (fewer registers live) */
            const unsigned e2 = e, h2 = h >> 1;
            if (inv) {
                for (int m = 0; m < 8; m += 2) nt_bf_dit(&v[m], &v[m + 1], tw[e2 + j], p, pinv);
                const uint32_t w0 = tw[h2 + j], w1 = tw[h2 + j + e2];
                nt_bf_dit(&v[0], &v[2], w0, p, pinv);
                nt_bf_dit(&v[1], &v[3], w1, p, pinv);
                nt_bf_dit(&v[4], &v[6], w0, p, pinv);
                nt_bf_dit(&v[5], &v[7], w1, p, pinv);
                for (int m = 0; m < 4; m++) nt_bf_dit(&v[m], &v[m + 4], tw[h + j + m * e2], p, pinv);
            } else {
                for (int m = 0; m < 4; m++) nt_bf_dif(&v[m], &v[m + 4], tw[h + j + m * e2], p, pinv);
                const uint32_t w0 = tw[h2 + j], w1 = tw[h2 + j + e2];
                nt_bf_dif(&v[0], &v[2], w0, p, pinv);
                nt_bf_dif(&v[1], &v[3], w1, p, pinv);
                nt_bf_dif(&v[4], &v[6], w0, p, pinv);
                nt_bf_dif(&v[5], &v[7], w1, p, pinv);
                for (int m = 0; m < 8; m += 2) nt_bf_dif(&v[m], &v[m + 1], tw[e2 + j], p, pinv);
            }
        }
        for (int m = 0; m < 8; m++) x[fb ^ f[m]] = v[m];
    }
}

/* Forward pass of the radix-8 schedule on x and, when y is not NULL, on y too (nt_r8_pass). */
BULK_HD void nt_fwd_pass8_xy(uint32_t *x, uint32_t *y, int lg, int pass, unsigned tid, unsigned T,
                             const uint32_t *tw, int sw, uint32_t p, uint32_t pinv)
{
    if (pass < lg / 3) {
        nt_r8_pass(x, y, lg, lg - 1 - 3 * pass, tid, T, tw, 0, sw, p, pinv);
    } else if (lg % 3 == 2) {
        nt_r4_pass(x, lg, 1, tid, T, tw, 0, sw, p, pinv);
        if (y) nt_r4_pass(y, lg, 1, tid, T, tw, 0, sw, p, pinv);
    } else {
        nt_r2_pass(x, lg, tid, T, tw, 0, sw, p, pinv);
        if (y) nt_r2_pass(y, lg, tid, T, tw, 0, sw, p, pinv);
    }
}

BULK_HD void nt_fwd_pass8(uint32_t *x, int lg, int pass, unsigned tid, unsigned T,
                          const uint32_t *tw, int sw, uint32_t p, uint32_t pinv)
{
    nt_fwd_pass8_xy(x, (uint32_t *)0, lg, pass, tid, T, tw, sw, p, pinv);
}

BULK_HD void nt_inv_pass8(uint32_t *x, int lg, int pass, unsigned tid, unsigned T,
                          const uint32_t *itw, int sw, uint32_t p, uint32_t pinv)
{
    const int rem = lg % 3;
    if (rem && pass == 0) {
        if (rem == 2) nt_r4_pass(x, lg, 1, tid, T, itw, 1, sw, p, pinv);
        else nt_r2_pass(x, lg, tid, T, itw, 1, sw, p, pinv);
        return;
    }
    nt_r8_pass(x, (uint32_t *)0, lg, rem + 2 + 3 * (pass - (rem != 0)), tid, T, itw, 1, sw, p, pinv);
}

/* x[i] = x[i] y[i] s mod p for this thread's i (s = N^-1 R^2 mod p: the product of the
 * transforms, scaled for the unnormalised backward transform). */
BULK_HD void nt_pointwise(uint32_t *x, const uint32_t *y, size_t n, unsigned tid, unsigned T,
                          uint32_t s, uint32_t p, uint32_t pinv)
{
    for (size_t i = tid; i < n; i += T) x[i] = nt_mont(nt_mont(x[i], y[i], p, pinv), s, p, pinv);
}

/* N^-1 R^2 mod p for N = 2^lg (the pointwise scale). */
BULK_HD uint32_t nt_scale(int lg, const nt_prime *P)
{
    uint32_t ninv = nt_inv((uint32_t)(((uint64_t)1 << lg) % P->p), P);
    return nt_to_mont(nt_to_mont(ninv, P), P);
}

/* ---- the multi-kernel transform of large arrays (bulk_int_cuda_mul_big) --------------------
 *
 * N = 2^lg points in global memory. Forward: the stages with 2h > S (S = 2^ls points fit a
 * block's shared memory) run as global passes, radix 4 (stages h, h / 2, group g < N / 4) while
 * two such stages remain, else radix 2; then every block of S consecutive points runs its
 * remaining stages (h <= S / 2: nt_fwd_pass with lg = ls on x + block * S; the stage twiddles
 * depend on h only). Backward: the blocks first, then the global stages h = S .. N / 2 upward.
 * Global twiddles come from the two tables of W = w_{2^27} (nt_tw2 with lgL = NT_TWL_LOG):
 * w_{2h}^j = W^(j 2^(26 - log2 h)). */
#define NT_TWL_LOG 13 /* lo: W^x R, x < 2^13; hi: W^(2^13 y) R, y < 2^13 */

/* The two tables for W (inv: W^-1) of prime P: lo and hi, 2^NT_TWL_LOG words each. */
BULK_HD void nt_tw2_tables(uint32_t *lo, uint32_t *hi, const nt_prime *P, int inv)
{
    uint32_t W = nt_to_mont(nt_root(P, NT_MAX_LOG, inv), P);
    uint32_t WL = nt_to_mont(nt_pow(nt_root(P, NT_MAX_LOG, inv), (uint64_t)1 << NT_TWL_LOG, P), P);
    uint32_t x = nt_to_mont(1, P), y = x;
    for (size_t i = 0; i < ((size_t)1 << NT_TWL_LOG); i++) {
        lo[i] = x;
        hi[i] = y;
        x = nt_mont(x, W, P->p, P->pinv);
        y = nt_mont(y, WL, P->p, P->pinv);
    }
}

/* w_{2h}^(+-e) for h = 2^lh (from the tables of the matching direction). */
BULK_HD uint32_t nt_tw_glob(const uint32_t *lo, const uint32_t *hi, size_t e, int lh, uint32_t p,
                            uint32_t pinv)
{
    return nt_tw2(lo, hi, e << (NT_MAX_LOG - 1 - lh), NT_TWL_LOG, p, pinv);
}

/* Global radix-4 group g (< N / 4) at h = 2^lh (lh >= 1): forward stages h and h / 2, or
 * backward (inv) stages h / 2 then h, with the twiddles of that direction's tables. */
BULK_HD void nt_glob_r4(uint32_t *x, int lh, size_t g, const uint32_t *lo, const uint32_t *hi,
                        int inv, uint32_t p, uint32_t pinv)
{
    size_t h = (size_t)1 << lh, q = h >> 1;
    size_t j = g & (q - 1), b = ((g >> (lh - 1)) << (lh + 1)) + j;
    uint32_t wa = nt_tw_glob(lo, hi, j, lh, p, pinv), wb = nt_tw_glob(lo, hi, j + q, lh, p, pinv);
    uint32_t wc = nt_tw_glob(lo, hi, j, lh - 1, p, pinv);
    uint32_t v0 = x[b], v1 = x[b + q], v2 = x[b + 2 * q], v3 = x[b + 3 * q];
    if (inv) nt_r4_dit_w(&v0, &v1, &v2, &v3, wa, wb, wc, p, pinv);
    else nt_r4_dif_w(&v0, &v1, &v2, &v3, wa, wb, wc, p, pinv);
    x[b] = v0, x[b + q] = v1, x[b + 2 * q] = v2, x[b + 3 * q] = v3;
}

/* Global radix-2 butterfly k (< N / 2) at h = 2^lh, forward or backward. */
BULK_HD void nt_glob_r2(uint32_t *x, int lh, size_t k, const uint32_t *lo, const uint32_t *hi,
                        int inv, uint32_t p, uint32_t pinv)
{
    size_t h = (size_t)1 << lh, j = k & (h - 1), b = ((k >> lh) << (lh + 1)) + j;
    uint32_t w = nt_tw_glob(lo, hi, j, lh, p, pinv), v0 = x[b], v1 = x[b + h];
    if (inv) nt_bf_dit(&v0, &v1, w, p, pinv);
    else nt_bf_dif(&v0, &v1, w, p, pinv);
    x[b] = v0, x[b + h] = v1;
}

/* ---- Garner's CRT: three residues -> the 96-bit coefficient -------------------------------- */

/* The CRT constants of a set, Montgomery form: c01 = p0^-1 R mod p1, c012 = (p0 p1)^-1 R mod p2. */
typedef struct nt_crt {
    uint32_t c01, c012;
} nt_crt;

BULK_HD nt_crt nt_crt_get(int set)
{
    nt_prime P1 = nt_prime_get(set, 1), P2 = nt_prime_get(set, 2);
    const uint32_t p0 = nt_p(set, 0);
    nt_crt C;
    C.c01 = nt_to_mont(nt_inv(nt_reduce(p0, P1.p), &P1), &P1);
    uint64_t p01 = (uint64_t)p0 * P1.p;
    C.c012 = nt_to_mont(nt_inv((uint32_t)(p01 % P2.p), &P2), &P2);
    return C;
}

/* The value c < p0 p1 p2 of set `set` with c = r_k mod p_k (r_k < p_k), as three words c[0..2]
 * (the compile-time constants NT_C01, NT_C012 / NT_S_*; nt_crt_get computes the same). */
BULK_HD void nt_crt3(int set, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t *c)
{
    const uint32_t P0 = nt_p(set, 0), P1 = nt_p(set, 1), P2 = nt_p(set, 2);
    const uint32_t I1 = nt_pinv(set, 1), I2 = nt_pinv(set, 2);
    const uint32_t C01 = set ? NT_S_C01 : NT_C01, C012 = set ? NT_S_C012 : NT_C012;
    uint32_t k1 = nt_mont(nt_sub(r1, r0, P1), C01, P1, I1); /* r0 < p0 < p1 */
    uint64_t x = (uint64_t)r0 + (uint64_t)P0 * k1;          /* < p0 p1 < 2^64 */
    uint32_t xh = (uint32_t)(x >> 32), xl = (uint32_t)x;
    uint32_t xm = nt_add(nt_mont(xh, nt_r2(set, 2), P2, I2), nt_reduce(xl, P2), P2);
    uint32_t k2 = nt_mont(nt_sub(r2, xm, P2), C012, P2, I2);
    /* x + p0 p1 k2: 64 + 64 x 32 bits */
    const uint64_t p01 = (uint64_t)P0 * P1;
    uint64_t lo = (p01 & 0xffffffffu) * k2, hi = (p01 >> 32) * k2;
    uint64_t s0 = (x & 0xffffffffu) + (lo & 0xffffffffu);
    uint64_t s1 = (x >> 32) + (lo >> 32) + (hi & 0xffffffffu) + (s0 >> 32);
    uint64_t s2 = (hi >> 32) + (s1 >> 32);
    c[0] = (uint32_t)s0;
    c[1] = (uint32_t)s1;
    c[2] = (uint32_t)s2;
}

/* ---- carries: coefficients -> words ---------------------------------------------------------
 *
 * A thread owns the result words [s, e) (e - s >= 3). Pass 1 (nt_carry_local) adds the
 * coefficients c_i, i in [s, e), each at word i, writing the low words and returning the
 * overflow H (< 2^66: the running sum after the shift stays below 2^66) beyond word e in h[0..2].
 * Pass 2 (nt_carry_add_h) adds the previous owner's H at word s: carry out g (0 or 1) and
 * "propagate" (all words now 0xffffffff) p. A carry lookahead over the owners in order (block
 * scan of (g, p), bg_warp_carries style) gives each owner its carry-in bit, which
 * nt_carry_apply adds. */

/* acc (4 words) += c (3 words); then the low word leaves: returns it, acc >>= 32. */
BULK_HD uint32_t nt_acc_step(uint32_t *acc, const uint32_t *c)
{
    uint64_t t = (uint64_t)acc[0] + c[0];
    uint32_t out = (uint32_t)t;
    t = (t >> 32) + acc[1] + c[1];
    acc[0] = (uint32_t)t;
    t = (t >> 32) + acc[2] + c[2];
    acc[1] = (uint32_t)t;
    t = (t >> 32) + acc[3];
    acc[2] = (uint32_t)t;
    acc[3] = (uint32_t)(t >> 32);
    return out;
}

/* x[0 .. len) += h (3 words; len < 3 only for the last owner, whose overflow words beyond len
 * are zero since the product fits); returns the carry out (0 or 1), *prop = 1 when every
 * word of the sum is 0xffffffff. */
BULK_HD uint32_t nt_carry_add_h(uint32_t *x, int len, const uint32_t *h, int *prop)
{
    uint64_t c = 0;
    uint32_t all = 0xffffffffu;
    for (int i = 0; i < len; i++) {
        uint64_t t = (uint64_t)x[i] + (i < 3 ? h[i] : 0) + c;
        x[i] = (uint32_t)t;
        c = t >> 32;
        all &= x[i];
    }
    *prop = all == 0xffffffffu;
    return (uint32_t)c;
}

/* Pass 2 for the owner of [s, e) of x: adds the previous owner's overflow hprev (NULL for the
 * first owner) at word s; returns the carry out (generate) and sets *prop. */
BULK_HD uint32_t nt_carry_owner(uint32_t *x, size_t s, size_t e, const uint32_t *hprev,
                                uint32_t *prop)
{
    if (hprev) {
        int pr;
        uint32_t g = nt_carry_add_h(x + s, (int)(e - s), hprev, &pr);
        *prop = (uint32_t)pr;
        return g;
    }
    uint32_t all = 0xffffffffu;
    for (size_t i = s; i < e; i++) all &= x[i];
    *prop = all == 0xffffffffu;
    return 0;
}

/* x[0 .. len) += cin (0 or 1), carry dropped (the lookahead accounted for it). */
BULK_HD void nt_carry_apply(uint32_t *x, int len, uint32_t cin)
{
    for (int i = 0; i < len && cin; i++) {
        x[i] += 1;
        cin = x[i] == 0;
    }
}

/* Carry lookahead over up to 32 owners in one addition (G: bit l generates, P: propagates):
 * bit l of the result = carry into owner l; *cout the carry out of owner 31. */
BULK_HD uint32_t nt_lane_carries(uint32_t G, uint32_t P, uint32_t cin, uint32_t *cout)
{
    uint64_t A = (uint64_t)(G | P), B = G;
    uint64_t S = A + B + cin;
    uint64_t C = S ^ A ^ B;
    *cout = (uint32_t)(C >> 32) & 1;
    return (uint32_t)C;
}

/* Words per owner when T owners share M result words: ceil(M / T), at least 4 (an owner's
 * range must hold the 3-word overflow of the one before). Owner t: [t K, min(M, (t + 1) K)). */
BULK_HD size_t nt_owner_words(size_t M, unsigned T)
{
    size_t K = (M + T - 1) / T;
    return K < 4 ? 4 : K;
}

/* Pass 1 for the owner of [s, e) (primes of set `set`): out[i] (i in [s, e)) = the low words of
 * sum_i crt(r0[i], r1[i], r2[i]) 2^(32 (i - s)), the overflow beyond word e into h[0..2].
 * out may be r2 (each word is read before it is written). */
BULK_HD void nt_carry_local(int set, uint32_t *out, const uint32_t *r0, const uint32_t *r1,
                            const uint32_t *r2, size_t s, size_t e, uint32_t *h)
{
    uint32_t acc[4] = {0, 0, 0, 0}, c[3];
    for (size_t i = s; i < e; i++) {
        nt_crt3(set, r0[i], r1[i], r2[i], c);
        out[i] = nt_acc_step(acc, c);
    }
    h[0] = acc[0];
    h[1] = acc[1];
    h[2] = acc[2]; /* acc[3] is 0: the running sum stays below 2^66 */
}

/* The lookahead over nw groups of 32 owners in order (G[w], P[w]: bit l for owner 32 w + l
 * generates / propagates), cin into owner 0: C[w] gets the carry-in mask of group w; returns
 * the carry out of the last owner. One thread runs it (nw <= 32 in a block). */
BULK_HD uint32_t nt_block_carries(const uint32_t *G, const uint32_t *P, int nw, uint32_t cin,
                                  uint32_t *C)
{
    for (int w = 0; w < nw; w++) {
        uint32_t cout;
        C[w] = nt_lane_carries(G[w], P[w], cin, &cout);
        cin = cout;
    }
    return cin;
}

/* Number of 32-bit transform points for a full product of na- and nb-limb operands: the
 * smallest power of two >= 2 (na + nb) (the product's words; its top coefficient index is
 * 2 (na + nb) - 2, so the cyclic convolution does not wrap). Returns log2. */
BULK_HD int nt_log_points(size_t na, size_t nb)
{
    size_t w = 2 * (na + nb);
    int lg = 0;
    while (((size_t)1 << lg) < w) lg++;
    return lg;
}

#endif
