/* The base-2 Fermat pseudoprimes (psp(2): odd composite n with 2^(n-1) = 1 mod n) and strong
 * pseudoprimes (spsp(2)) below a bound X <= 2^32, generated here independently of bulk (its own
 * 32-bit Montgomery arithmetic), for the primality tests' oracles.
 *
 * Method. For an odd prime p let l_p be the order of 2 mod p. A composite psp(2) n satisfies
 * l_p | n - 1 for every prime p | n, and l_p | p - 1, so with p the LARGEST prime factor of n
 * and n = p m (m > 1): m = 1 mod l_p, m >= l_p + 1. Every candidate below is composite by
 * construction and gets the full base-2 test; the three cases cover every n < X:
 *   A. p < SPSP2_P0: n is a squarefree product of odd primes below SPSP2_P0 (the square of a
 *      prime q | n would need 2^(n-1) = 1 mod q^2, so q a Wieferich prime, 1093 or 3511), found by
 *      a walk over products that drops a product once it shares a factor with the lcm of its
 *      primes' orders (no multiple can then be = 1 modulo that lcm);
 *   B. SPSP2_P0 <= p <= S = floor(sqrt(X)): n = p m, m = 1 mod l_p (l_p by factoring p - 1);
 *   C. p > S: then m < X / p < S, l_p <= m - 1 < S, and p | 2^l_p - 1, so p > S needs
 *      2^l_p > S. For each l from 2 up, the p = 1 mod l (mod 2l for odd l) in (S, 2^l) with
 *      p (l + 1) < X and 2^l = 1 mod p (p need not be prime: a composite p only adds
 *      candidates), then n = p m, m = 1 mod l.
 * Duplicates (an n reached from several p or l) are removed at the end. The whole run takes a
 * few seconds at X = 2^32 (tests/int/test_int_prime.c checks the known counts and compares the
 * method with brute force at small X). */
#ifndef BULK_TEST_SPSP2_GEN_H
#define BULK_TEST_SPSP2_GEN_H

#include <stdint.h>
#include <stdlib.h>

#define SPSP2_P0 256u

typedef struct spsp2_list {
    uint32_t *psp;  /* every psp(2) below X, ascending (the spsp(2) among them) */
    size_t npsp;
    uint32_t *spsp; /* every spsp(2) below X, ascending */
    size_t nspsp;
    size_t cap;     /* internal: room in psp while generating */
} spsp2_list;

/* x y R^-1 mod n for x, y < n < 2^32 odd, R = 2^32, ninv = n^-1 mod 2^32: with q = x y ninv
 * mod R, x y - q n is a multiple of R whose high word is hi(x y) - hi(q n). */
static inline uint32_t spsp2_mul(uint32_t x, uint32_t y, uint32_t n, uint32_t ninv)
{
    uint64_t t = (uint64_t)x * y;
    uint32_t q = (uint32_t)t * ninv, hi = (uint32_t)(t >> 32);
    uint32_t qh = (uint32_t)(((uint64_t)q * n) >> 32), r = hi - qh;
    return hi < qh ? r + n : r;
}

static inline uint32_t spsp2_inv(uint32_t n)
{
    uint32_t x = n; /* n n = 1 mod 8: 3 bits, doubled by each Newton step */
    for (int i = 0; i < 4; i++) x *= 2 - n * x;
    return x;
}

/* 2^e R mod n (e >= 1), n odd > 1: a left-to-right binary power, doublings by addition. */
static inline uint32_t spsp2_pow2(uint64_t e, uint32_t n, uint32_t ninv, uint32_t one)
{
    int top = 63 - __builtin_clzll(e);
    uint64_t x = 2 * (uint64_t)one;
    if (x >= n) x -= n;
    for (int i = top - 1; i >= 0; i--) {
        x = spsp2_mul((uint32_t)x, (uint32_t)x, n, ninv);
        if ((e >> i) & 1) {
            x += x;
            if (x >= n) x -= n;
        }
    }
    return (uint32_t)x;
}

/* Bit 0: 2^(n-1) = 1 mod n; bit 1: n is a strong probable prime to base 2 (odd n >= 3). */
static inline int spsp2_test(uint32_t n)
{
    uint32_t ninv = spsp2_inv(n), one = (uint32_t)((1ull << 32) % n), mone = n - one;
    uint32_t d = n - 1;
    int s = __builtin_ctz(d);
    d >>= s;
    uint32_t x = spsp2_pow2(d, n, ninv, one);
    int strong = x == one || x == mone;
    for (int i = 1; i < s; i++) {
        x = spsp2_mul(x, x, n, ninv);
        strong |= x == mone;
    }
    x = spsp2_mul(x, x, n, ninv);
    return (x == one) | (strong << 1);
}

/* Records n when it is a psp(2); 0, or -1 when out of memory. */
static int spsp2_add(spsp2_list *L, uint32_t n)
{
    if (!(spsp2_test(n) & 1)) return 0;
    if (L->npsp == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 4096;
        uint32_t *p = realloc(L->psp, cap * sizeof *p);
        if (!p) return -1;
        L->psp = p, L->cap = cap;
    }
    L->psp[L->npsp++] = n;
    return 0;
}

/* The order of 2 modulo the odd prime p < 2^32: p - 1 stripped of every prime factor whose
 * removal keeps 2^l = 1. */
static uint64_t spsp2_order(uint32_t p)
{
    uint32_t ninv = spsp2_inv(p), one = (uint32_t)((1ull << 32) % p);
    uint64_t l = p - 1, r = p - 1;
    for (uint64_t q = 2; r > 1; q++) {
        if (q * q > r) q = r; /* r is prime */
        if (r % q) continue;
        while (r % q == 0) r /= q;
        while (l % q == 0 && spsp2_pow2(l / q, p, ninv, one) == one) l /= q;
    }
    return l;
}

static uint64_t spsp2_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

/* Case A: products n of the primes q[i..] (below SPSP2_P0) times the product so far, whose
 * orders' lcm is lcm; k primes so far. */
static int spsp2_smooth(spsp2_list *L, uint64_t X, const uint32_t *q, const uint64_t *ord,
                        size_t nq, size_t i, uint64_t n, uint64_t lcm, int k)
{
    for (; i < nq && n * q[i] < X; i++) {
        uint64_t n2 = n * q[i], l2 = lcm / spsp2_gcd(lcm, ord[i]) * ord[i];
        if (l2 >= X || spsp2_gcd(n2, l2) != 1) continue;
        if (k >= 1 && (n2 - 1) % l2 == 0 && spsp2_add(L, (uint32_t)n2)) return -1;
        if (spsp2_smooth(L, X, q, ord, nq, i + 1, n2, l2, k + 1)) return -1;
    }
    return 0;
}

static int spsp2_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* All psp(2) and spsp(2) below X (16 <= X <= 2^32) into L (free with spsp2_free). 0, or -1 when
 * out of memory. */
static int spsp2_generate(spsp2_list *L, uint64_t X)
{
    *L = (spsp2_list){0};
    uint64_t S = 1;
    while ((S + 1) * (S + 1) <= X) S++;
    uint8_t *comp = calloc(S + 1, 1);
    uint32_t *q = malloc((S / 2 + 2) * sizeof *q);
    uint64_t *ord = malloc((S / 2 + 2) * sizeof *ord);
    int rc = comp && q && ord ? 0 : -1;
    size_t nq = 0, nsmall = 0;
    for (uint64_t i = 3; rc == 0 && i <= S; i += 2) {
        if (comp[i]) continue;
        for (uint64_t j = i * i; j <= S; j += 2 * i) comp[j] = 1;
        q[nq] = (uint32_t)i;
        ord[nq++] = spsp2_order((uint32_t)i);
        nsmall += i < SPSP2_P0;
    }
    if (rc == 0) rc = spsp2_smooth(L, X, q, ord, nsmall, 0, 1, 1, 0); /* A */
    for (size_t i = nsmall; rc == 0 && i < nq; i++) {                /* B */
        uint64_t p = q[i], step = ord[i] % 2 ? 2 * ord[i] : ord[i];
        for (uint64_t m = 1 + step; p * m < X && rc == 0; m += step) rc = spsp2_add(L, (uint32_t)(p * m));
    }
    for (uint64_t l = 2; rc == 0 && l < S; l++) { /* C */
        uint64_t step = l % 2 ? 2 * l : l, pmax = (X - 1) / (l + 1);
        if (l < 40 && pmax >= ((uint64_t)1 << l)) pmax = ((uint64_t)1 << l) - 1;
        for (uint64_t p = S + 1 + (step - S % step) % step; p <= pmax && rc == 0; p += step) {
            /* p = 1 mod step (S + 1 + t = 1 mod step for t = -S mod step) */
            uint32_t ninv = spsp2_inv((uint32_t)p), one = (uint32_t)((1ull << 32) % p);
            if (spsp2_pow2(l, (uint32_t)p, ninv, one) != one) continue;
            for (uint64_t m = 1 + step; p * m < X && rc == 0; m += step) rc = spsp2_add(L, (uint32_t)(p * m));
        }
    }
    free(comp);
    free(q);
    free(ord);
    if (rc == 0) {
        qsort(L->psp, L->npsp, sizeof *L->psp, spsp2_cmp);
        size_t k = 0;
        for (size_t i = 0; i < L->npsp; i++)
            if (k == 0 || L->psp[i] != L->psp[k - 1]) L->psp[k++] = L->psp[i];
        L->npsp = k;
        L->spsp = malloc((k ? k : 1) * sizeof *L->spsp);
        if (!L->spsp) rc = -1;
        for (size_t i = 0; rc == 0 && i < k; i++)
            if (spsp2_test(L->psp[i]) & 2) L->spsp[L->nspsp++] = L->psp[i];
    }
    return rc;
}

static void spsp2_free(spsp2_list *L)
{
    free(L->psp);
    free(L->spsp);
    *L = (spsp2_list){0};
}

#endif
