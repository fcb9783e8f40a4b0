/* Three-prime NTT multiplication (contract and method: int/mul_fft.h). */
#include "int/mul_fft.h"

#include <stdint.h>
#include <stdlib.h>

#include "int/mpn.h"

typedef unsigned __int128 u128;

/* One NTT prime and its Montgomery constants (R = 2^64). */
typedef struct fft_prime {
    uint64_t p;
    uint64_t pneg_inv; /* -p^-1 mod 2^64 */
    uint64_t r2;       /* R^2 mod p */
    uint64_t g;        /* a primitive root mod p */
} fft_prime;

/* p = k * 2^40 + 1, the three largest such primes below 2^62, with the least primitive root
 * (found by a search over k; every p is in [2^61, 2^62) so a value < 2^62 needs at most one
 * subtraction of p to be reduced, and sums of two residues stay below 2^63). */
static const uint64_t fft_p[3] = { 0x3fffc00000000001ull, 0x3fffbe0000000001ull,
                                   0x3fff840000000001ull };
static const uint64_t fft_g[3] = { 11, 3, 19 };

/* Montgomery product a * b / R mod p for a * b < p * R; result in [0, p). */
static inline uint64_t mont(uint64_t a, uint64_t b, const fft_prime *P)
{
    u128 t = (u128)a * b;
    uint64_t m = (uint64_t)t * P->pneg_inv;
    uint64_t u = (uint64_t)((t + (u128)m * P->p) >> 64);
    return u >= P->p ? u - P->p : u;
}

static uint64_t powmod_slow(uint64_t b, uint64_t e, uint64_t p)
{
    uint64_t r = 1;
    b %= p;
    while (e) {
        if (e & 1) r = (uint64_t)((u128)r * b % p);
        b = (uint64_t)((u128)b * b % p);
        e >>= 1;
    }
    return r;
}

static void prime_init(fft_prime *P, int i)
{
    P->p = fft_p[i];
    P->g = fft_g[i];
    uint64_t inv = 1; /* Newton for p^-1 mod 2^64: each step doubles the correct bits */
    for (int k = 0; k < 7; k++) inv *= 2 - P->p * inv;
    P->pneg_inv = (uint64_t)0 - inv;
    uint64_t r1 = (uint64_t)(((u128)1 << 64) % P->p);
    P->r2 = (uint64_t)((u128)r1 * r1 % P->p);
}

/* Montgomery form x * R mod p of x < p. */
static inline uint64_t to_mont(uint64_t x, const fft_prime *P) { return mont(x, P->r2, P); }

/* tw[h - 1 + j] = w_{2h}^j * R mod p for every power of two h < n and j < h (n - 1 entries),
 * where w_{2h} is a primitive 2h-th root of unity (its inverse when inverse != 0). Sub-transform
 * of half size h reads tw + h - 1 contiguously. */
static void twiddles(uint64_t *tw, size_t n, int inverse, const fft_prime *P)
{
    for (size_t h = 1; h < n; h <<= 1) {
        uint64_t w = powmod_slow(P->g, (P->p - 1) / (2 * h), P->p);
        if (inverse) w = powmod_slow(w, P->p - 2, P->p);
        uint64_t wm = to_mont(w, P), cur = to_mont(1, P);
        uint64_t *t = tw + h - 1;
        for (size_t j = 0; j < h; j++) {
            t[j] = cur;
            cur = mont(cur, wm, P);
        }
    }
}

/* Decimation in frequency, natural order in, bit-reversed out. */
static void dif(uint64_t *x, size_t n, const uint64_t *tw, const fft_prime *P)
{
    if (n < 2) return;
    size_t h = n / 2;
    const uint64_t *t = tw + h - 1, p = P->p;
    for (size_t j = 0; j < h; j++) {
        uint64_t u = x[j], v = x[j + h];
        uint64_t s = u + v;
        x[j] = s >= p ? s - p : s;
        x[j + h] = mont(u - v + p, t[j], P);
    }
    dif(x, h, tw, P);
    dif(x + h, h, tw, P);
}

/* Decimation in time with inverse twiddles: bit-reversed in, natural order out (times n). */
static void dit(uint64_t *x, size_t n, const uint64_t *tw, const fft_prime *P)
{
    if (n < 2) return;
    size_t h = n / 2;
    dit(x, h, tw, P);
    dit(x + h, h, tw, P);
    const uint64_t *t = tw + h - 1, p = P->p;
    for (size_t j = 0; j < h; j++) {
        uint64_t u = x[j], v = mont(x[j + h], t[j], P);
        uint64_t s = u + v;
        x[j] = s >= p ? s - p : s;
        x[j + h] = u >= v ? u - v : u + p - v;
    }
}

/* x[0..n) = a[0..an) mod p, zero-padded. A limb < 2^64 < 8p: reduced by %. */
static void load(uint64_t *x, size_t n, const bulk_limb_t *a, size_t an, uint64_t p)
{
    for (size_t i = 0; i < an; i++) x[i] = a[i] % p;
    for (size_t i = an; i < n; i++) x[i] = 0;
}

/* res = cyclic convolution of a and b mod P (length n >= an + bn, so it is the plain one). */
static void convolve(uint64_t *res, uint64_t *tmp, uint64_t *tw, size_t n, const bulk_limb_t *a,
                     size_t an, const bulk_limb_t *b, size_t bn, const fft_prime *P)
{
    twiddles(tw, n, 0, P);
    load(res, n, a, an, P->p);
    dif(res, n, tw, P);
    const uint64_t *fb = res;
    if (b != a || bn != an) {
        load(tmp, n, b, bn, P->p);
        dif(tmp, n, tw, P);
        fb = tmp;
    }
    /* pointwise product, times n^-1: mont(mont(x, y), n^-1 R^2) = x y n^-1 */
    uint64_t ninv = powmod_slow(n % P->p, P->p - 2, P->p);
    uint64_t k = mont(to_mont(ninv, P), P->r2, P);
    for (size_t i = 0; i < n; i++) res[i] = mont(mont(res[i], fb[i], P), k, P);
    twiddles(tw, n, 1, P);
    dit(res, n, tw, P);
}

int bulk_mpn_mul_fft(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                     size_t bn)
{
    if (!r || !a || !b || an == 0 || bn == 0 || an > BULK_MUL_FFT_MAX_LIMBS ||
        bn > BULK_MUL_FFT_MAX_LIMBS - an)
        return BULK_ERR_ARG;
    size_t rn = an + bn, n = 1;
    while (n < rn) n <<= 1;
    uint64_t *mem = malloc(5 * n * sizeof *mem);
    if (!mem) return BULK_ERR_NOMEM;
    uint64_t *res[3] = { mem, mem + n, mem + 2 * n }, *tmp = mem + 3 * n, *tw = mem + 4 * n;
    fft_prime P[3];
    for (int i = 0; i < 3; i++) {
        prime_init(&P[i], i);
        convolve(res[i], tmp, tw, n, a, an, b, bn, &P[i]);
    }
    /* Garner: x = v1 + v2 p1 + v3 p1 p2 with v1 = r1, v2 = (r2 - v1) / p1 mod p2,
     * v3 = (r3 - v1 - v2 p1) / (p1 p2) mod p3. Constants in Montgomery form so that
     * mont(x, cR) = x c. */
    const uint64_t p1 = P[0].p, p2 = P[1].p, p3 = P[2].p;
    uint64_t i12 = to_mont(powmod_slow(p1 % p2, p2 - 2, p2), &P[1]);
    uint64_t p1m3 = to_mont(p1 % p3, &P[2]);
    uint64_t i123 = to_mont(powmod_slow((uint64_t)((u128)p1 * p2 % p3), p3 - 2, p3), &P[2]);
    u128 p12 = (u128)p1 * p2;
    u128 carry = 0;
    for (size_t i = 0; i < rn; i++) {
        uint64_t v1 = res[0][i];
        uint64_t v1m2 = v1 >= p2 ? v1 - p2 : v1;
        uint64_t r2 = res[1][i];
        uint64_t v2 = mont(r2 >= v1m2 ? r2 - v1m2 : r2 + p2 - v1m2, i12, &P[1]);
        uint64_t v1m3 = v1 >= p3 ? v1 - p3 : v1;
        uint64_t t = res[2][i];
        t = t >= v1m3 ? t - v1m3 : t + p3 - v1m3;
        uint64_t w = mont(v2, p1m3, &P[2]); /* v2 p1 mod p3 (v2 < p2 < 2^62 keeps t < p3 R) */
        t = t >= w ? t - w : t + p3 - w;
        uint64_t v3 = mont(t, i123, &P[2]);
        /* x = v1 + v2 p1 + v3 p12 < 2^186, as three limbs x0, x1, x2 */
        u128 lo = (u128)v2 * p1 + v1; /* < 2^124 */
        u128 h0 = (u128)v3 * (uint64_t)p12;
        u128 h1 = (u128)v3 * (uint64_t)(p12 >> 64);
        u128 s0 = (u128)(uint64_t)lo + (uint64_t)h0 + (uint64_t)carry;
        u128 s1 = (lo >> 64) + (h0 >> 64) + (uint64_t)h1 + (carry >> 64) + (s0 >> 64);
        uint64_t s2 = (uint64_t)(h1 >> 64) + (uint64_t)(s1 >> 64);
        r[i] = (uint64_t)s0;
        carry = (u128)(uint64_t)s1 | ((u128)s2 << 64);
    }
    /* The product fits in rn limbs, so nothing is left in the carry. */
    free(mem);
    return BULK_OK;
}

void bulk_mpn_mul_big(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                      size_t bn)
{
    size_t small = an < bn ? an : bn;
    if (small >= BULK_MUL_FFT_THRESHOLD && bulk_mpn_mul_fft(r, a, an, b, bn) == BULK_OK) return;
    if (an >= bn) bulk_mpn_mul(r, a, an, b, bn);
    else bulk_mpn_mul(r, b, bn, a, an);
}
