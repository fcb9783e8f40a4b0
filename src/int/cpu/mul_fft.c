/* Three-prime NTT multiplication (contract and method: int/mul_fft.h). */
#include "int/mul_fft.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/u128.h"
#include "int/mpn.h"

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

/* Shoup's multiplication by a fixed w < p with wq = floor(w 2^64 / p): for any x < 2^64 the
 * result is congruent to x w and lies in [0, 2p) (Harvey's lazy butterflies keep values there,
 * which fits 64 bits because p < 2^62). */
static inline uint64_t mulshoup(uint64_t x, uint64_t w, uint64_t wq, uint64_t p)
{
    uint64_t q = (uint64_t)(((u128)x * wq) >> 64);
    return x * w - q * p;
}

/* floor(w 2^64 / p) for w < p: a long double estimate (64-bit mantissa, off by a few units at
 * most) corrected exactly with 128-bit arithmetic; avoids a 128-bit division per twiddle. */
static uint64_t shoup_quot(uint64_t w, uint64_t p)
{
    long double est = (long double)w / (long double)p * 18446744073709551616.0L;
    uint64_t q = est >= 18446744073709551615.0L ? ~(uint64_t)0 : (uint64_t)est;
    u128 num = (u128)w << 64;
    while ((u128)q * p > num) q--;
    while (num - (u128)q * p >= p) q++;
    return q;
}

/* tw[h - 1 + j] = w_{2h}^j mod p and twq = its Shoup quotient, for every power of two h < n and
 * j < h (n - 1 entries), w_{2h} a primitive 2h-th root of unity. The sub-transform of half
 * size h reads tw + h - 1 contiguously. The inverse transform uses the same table:
 * w^-j = -w^(h-j) for the 2h-th root (w^h = -1). */
static void twiddles(uint64_t *tw, uint64_t *twq, size_t h0, size_t n, const fft_prime *P)
{
    for (size_t h = h0; h < n; h <<= 1) {
        uint64_t w = powmod_slow(P->g, (P->p - 1) / (2 * h), P->p);
        uint64_t wm = to_mont(w, P), cur = 1;
        uint64_t *t = tw + h - 1, *tq = twq + h - 1;
        for (size_t j = 0; j < h; j++) {
            t[j] = cur;
            tq[j] = shoup_quot(cur, P->p);
            cur = mont(cur, wm, P); /* cur * w (wm is w R) */
        }
    }
}

/* The table of size n is the first n - 1 entries of every larger one, so one table of
 * FFT_CACHE_N entries per prime, made once (pthread_once, about 48 MiB in all, never freed),
 * serves every transform up to that length; longer transforms copy it and add their levels. */
#define FFT_CACHE_N ((size_t)1 << 20)
static uint64_t *cache_tw[3], *cache_twq[3];
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_init(void)
{
    for (int i = 0; i < 3; i++) {
        fft_prime P;
        prime_init(&P, i);
        uint64_t *t = malloc(FFT_CACHE_N * sizeof *t), *q = malloc(FFT_CACHE_N * sizeof *q);
        if (!t || !q) { /* no cache: every call builds its own table */
            free(t);
            free(q);
            return;
        }
        twiddles(t, q, 1, FFT_CACHE_N, &P);
        cache_tw[i] = t;
        cache_twq[i] = q;
    }
}

/* Points *tw, *twq at a table for length n of prime i: the cache, or own (n words each, filled). */
static void get_twiddles(const uint64_t **tw, const uint64_t **twq, uint64_t *own, uint64_t *ownq,
                         size_t n, int i, const fft_prime *P)
{
    pthread_once(&cache_once, cache_init);
    if (cache_tw[i] && cache_twq[i] && n <= FFT_CACHE_N) {
        *tw = cache_tw[i];
        *twq = cache_twq[i];
        return;
    }
    size_t h0 = 1;
    if (cache_tw[i] && cache_twq[i]) {
        memcpy(own, cache_tw[i], (FFT_CACHE_N - 1) * sizeof *own);
        memcpy(ownq, cache_twq[i], (FFT_CACHE_N - 1) * sizeof *ownq);
        h0 = FFT_CACHE_N;
    }
    twiddles(own, ownq, h0, n, P);
    *tw = own;
    *twq = ownq;
}

/* Decimation in frequency, natural order in, bit-reversed out; values in [0, 2p) in and out. */
static void dif(uint64_t *x, size_t n, const uint64_t *tw, const uint64_t *twq, uint64_t p)
{
    uint64_t p2 = 2 * p;
    if (n <= 1024) { /* in cache: the stages one after another */
        for (size_t h = n / 2; h >= 1; h /= 2) {
            const uint64_t *t = tw + h - 1, *tq = twq + h - 1;
            for (size_t b = 0; b < n; b += 2 * h)
                for (size_t j = 0; j < h; j++) {
                    uint64_t u = x[b + j], v = x[b + j + h];
                    uint64_t s = u + v;
                    x[b + j] = s >= p2 ? s - p2 : s;
                    x[b + j + h] = mulshoup(u - v + p2, t[j], tq[j], p);
                }
        }
        return;
    }
    size_t h = n / 2;
    const uint64_t *t = tw + h - 1, *tq = twq + h - 1;
    for (size_t j = 0; j < h; j++) {
        uint64_t u = x[j], v = x[j + h];
        uint64_t s = u + v;
        x[j] = s >= p2 ? s - p2 : s;
        x[j + h] = mulshoup(u - v + p2, t[j], tq[j], p);
    }
    dif(x, h, tw, twq, p);
    dif(x + h, h, tw, twq, p);
}

/* One inverse butterfly stage of half size h on the block x[0..2h): w^-j = -w^(h-j). */
static inline void dit_stage(uint64_t *x, size_t h, const uint64_t *tw, const uint64_t *twq,
                             uint64_t p)
{
    uint64_t p2 = 2 * p;
    const uint64_t *t = tw + h - 1, *tq = twq + h - 1;
    uint64_t u = x[0], v = x[h];
    uint64_t s = u + v, d = u - v + p2;
    x[0] = s >= p2 ? s - p2 : s;
    x[h] = d >= p2 ? d - p2 : d;
    for (size_t j = 1; j < h; j++) {
        u = x[j];
        uint64_t m = mulshoup(x[j + h], t[h - j], tq[h - j], p); /* = -x[j+h] w^-j */
        d = u - m + p2;
        s = u + m;
        x[j] = d >= p2 ? d - p2 : d;
        x[j + h] = s >= p2 ? s - p2 : s;
    }
}

/* Decimation in time with inverse roots: bit-reversed in, natural order out (times n);
 * values in [0, 2p) in and out. */
static void dit(uint64_t *x, size_t n, const uint64_t *tw, const uint64_t *twq, uint64_t p)
{
    if (n <= 1024) {
        for (size_t h = 1; h < n; h *= 2)
            for (size_t b = 0; b < n; b += 2 * h) dit_stage(x + b, h, tw, twq, p);
        return;
    }
    size_t h = n / 2;
    dit(x, h, tw, twq, p);
    dit(x + h, h, tw, twq, p);
    dit_stage(x, h, tw, twq, p);
}

/* x[0..n) = a[0..an) reduced to [0, 2p) (a limb is below 8p since p > 2^61), zero-padded. */
static void load(uint64_t *x, size_t n, const bulk_limb_t *a, size_t an, uint64_t p)
{
    uint64_t p2 = 2 * p, p4 = 4 * p;
    for (size_t i = 0; i < an; i++) {
        uint64_t v = a[i];
        v = v >= p4 ? v - p4 : v;
        x[i] = v >= p2 ? v - p2 : v;
    }
    for (size_t i = an; i < n; i++) x[i] = 0;
}

/* res = cyclic convolution of a and b mod P (length n >= an + bn, so it is the plain one),
 * in [0, p). tw, twq: n words each. */
static void convolve(uint64_t *res, uint64_t *tmp, uint64_t *own, uint64_t *ownq, size_t n,
                     const bulk_limb_t *a, size_t an, const bulk_limb_t *b, size_t bn,
                     int pi, const fft_prime *P)
{
    uint64_t p = P->p;
    const uint64_t *tw, *twq;
    get_twiddles(&tw, &twq, own, ownq, n, pi, P);
    load(res, n, a, an, p);
    dif(res, n, tw, twq, p);
    const uint64_t *fb = res;
    if (b != a || bn != an) {
        load(tmp, n, b, bn, p);
        dif(tmp, n, tw, twq, p);
        fb = tmp;
    }
    /* pointwise product times n^-1: mont(mont(x, y), n^-1 R^2) = x y n^-1; x, y < 2p keep
     * x y < p R since 4p < 2^64 */
    uint64_t ninv = powmod_slow(n % p, p - 2, p);
    uint64_t k = mont(to_mont(ninv, P), P->r2, P);
    for (size_t i = 0; i < n; i++) res[i] = mont(mont(res[i], fb[i], P), k, P);
    dit(res, n, tw, twq, p);
    for (size_t i = 0; i < n; i++) res[i] = res[i] >= p ? res[i] - p : res[i];
}

/* One prime's convolution, as a thread's work. */
typedef struct conv_job {
    uint64_t *res, *tmp, *tw, *twq;
    size_t n, an, bn;
    const bulk_limb_t *a, *b;
    int pi;
    fft_prime P;
} conv_job;

static void *conv_run(void *arg)
{
    conv_job *j = arg;
    convolve(j->res, j->tmp, j->tw, j->twq, j->n, j->a, j->an, j->b, j->bn, j->pi, &j->P);
    return NULL;
}

int bulk_mpn_mul_fft(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                     size_t bn)
{
    return bulk_mpn_mul_fft_threads(r, a, an, b, bn, 1);
}

int bulk_mpn_mul_fft_threads(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                             const bulk_limb_t *b, size_t bn, int threads)
{
    if (!r || !a || !b || an == 0 || bn == 0 || an > BULK_MUL_FFT_MAX_LIMBS ||
        bn > BULK_MUL_FFT_MAX_LIMBS - an)
        return BULK_ERR_ARG;
    size_t rn = an + bn, n = 1;
    while (n < rn) n <<= 1;
    int own = n > FFT_CACHE_N; /* longer than the cached table: room for one of its own */
    /* per prime: its residues (n); per concurrent prime: a second operand (n) and, when
     * longer than the cache, a twiddle table (2n) */
    int par = threads >= 2 ? 3 : 1;
    size_t per = (size_t)1 + (own ? 2 : 0);
    uint64_t *mem = malloc((3 + (size_t)par * per) * n * sizeof *mem);
    if (!mem && par > 1) {
        par = 1;
        mem = malloc((3 + per) * n * sizeof *mem);
    }
    if (!mem) return BULK_ERR_NOMEM;
    uint64_t *res[3] = { mem, mem + n, mem + 2 * n };
    conv_job job[3];
    fft_prime P[3];
    for (int i = 0; i < 3; i++) {
        prime_init(&P[i], i);
        uint64_t *w = mem + 3 * n + (size_t)(par > 1 ? i : 0) * per * n;
        job[i] = (conv_job){ res[i], w, own ? w + n : NULL, own ? w + 2 * n : NULL, n, an, bn,
                             a, b, i, P[i] };
    }
    if (par == 1) {
        for (int i = 0; i < 3; i++) conv_run(&job[i]);
    } else { /* primes 1 and 2 on threads of their own, prime 0 here; inline if no thread */
        pthread_t th[3];
        int started[3] = { 0, 0, 0 };
        for (int i = 1; i < 3; i++) started[i] = pthread_create(&th[i], NULL, conv_run, &job[i]) == 0;
        conv_run(&job[0]);
        for (int i = 1; i < 3; i++) {
            if (started[i]) pthread_join(th[i], NULL);
            else conv_run(&job[i]);
        }
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

/* bulk_mpn_mul's dispatch (mpn_mul.c) picks the NTT itself above the threshold, the squaring
 * for a == b, and swaps an < bn. */
void bulk_mpn_mul_big(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                      size_t bn)
{
    if (an >= bn) bulk_mpn_mul(r, a, an, b, bn);
    else bulk_mpn_mul(r, b, bn, a, an);
}

void bulk_mpn_mul_big_threads(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                              const bulk_limb_t *b, size_t bn, int threads)
{
    size_t small = an < bn ? an : bn;
    /* one thread, or the threaded NTT out of memory (it already retried on one thread): the
     * dispatch, whose own NTT attempt then fails cleanly as well and Toom runs */
    if (threads >= 2 && small >= BULK_MUL_FFT_THRESHOLD &&
        bulk_mpn_mul_fft_threads(r, a, an, b, bn, threads) == BULK_OK)
        return;
    bulk_mpn_mul_big(r, a, an, b, bn);
}
