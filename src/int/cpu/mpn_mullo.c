/* Short product: the low n limbs of a * b.
 *
 * Basecase: product scanning over the columns 0..n-1 only (about n^2/2 limb products),
 * unrolled at compile time for 1..16 limbs.
 * Above BULK_MULLO_THRESHOLD: with h = ceil(n/2), l = n - h, a = a0 + a1 B^h, b likewise,
 *   a b mod B^n = a0 b0 + (lo_l(a1 b0) + lo_l(a0 b1)) B^h  (mod B^n),
 * one full h x h product and two recursive short products of l limbs. */
#include <stdlib.h>

#include "int/cpu/mpn_mul_internal.h"

/* Columns 0..n-1 of the product, one 128-bit accumulator plus a carry count per column (the
 * form that is fastest when unrolled, see mpn_mul_basecase.c); the last column needs only its
 * low limb, so it is summed in plain 64-bit arithmetic. */
static inline __attribute__((always_inline)) void mullo_columns(bulk_limb_t *r, const bulk_limb_t *a,
                                                                const bulk_limb_t *b, const size_t n)
{
    bulk_limb_t c0 = 0, c1 = 0;
#pragma GCC unroll 32
    for (size_t k = 0; k + 1 < n; k++) {
        bulk_dlimb_t acc = ((bulk_dlimb_t)c1 << 64) | c0;
        bulk_limb_t d2 = 0;
#pragma GCC unroll 32
        for (size_t i = 0; i <= k; i++) {
            bulk_dlimb_t p = (bulk_dlimb_t)a[i] * b[k - i];
            acc += p;
            d2 += acc < p;
        }
        r[k] = (bulk_limb_t)acc;
        c0 = (bulk_limb_t)(acc >> 64);
        c1 = d2;
    }
    bulk_limb_t last = c0;
#pragma GCC unroll 32
    for (size_t i = 0; i < n; i++) last += a[i] * b[n - 1 - i];
    r[n - 1] = last;
}

static void mullo_generic(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    mullo_columns(r, a, b, n);
}

/* Unrolled for 1..16 limbs (one function per size), rolled above. */
void bulk_mpn_mullo_basecase(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    switch (n) {
#define M(k) \
    case k: mullo_columns(r, a, b, k); return;
        M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15) M(16)
#undef M
    default: mullo_generic(r, a, b, n); return;
    }
}

size_t bulk_mpn_mullo_itch(size_t n)
{
    if (n < bulk_mul_tuning.mullo_thr || n < 2) return 0;
    size_t h = n - n / 2, l = n / 2;
    size_t s1 = bulk_mpn_mul_n_itch(h), s2 = bulk_mpn_mullo_itch(l);
    return 2 * h + l + (s1 > s2 ? s1 : s2);
}

void bulk_mpn_mullo_rec(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                        bulk_limb_t *tmp)
{
    if (n < bulk_mul_tuning.mullo_thr || n < 2) {
        bulk_mpn_mullo_basecase(r, a, b, n);
        return;
    }
    size_t h = n - n / 2, l = n / 2;
    bulk_limb_t *full = tmp, *t = tmp + 2 * h, *sub = t + l;
    bulk_mpn_mul_n_rec(full, a, b, h, sub);
    bulk_mpn_copy(r, full, n);
    bulk_mpn_mullo_rec(t, a + h, b, l, sub);
    bulk_mpn_add_n(r + h, r + h, t, l);
    bulk_mpn_mullo_rec(t, a, b + h, l, sub);
    bulk_mpn_add_n(r + h, r + h, t, l);
}

void bulk_mpn_mullo_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    size_t need = bulk_mpn_mullo_itch(n);
    if (need == 0) {
        bulk_mpn_mullo_basecase(r, a, b, n);
        return;
    }
    if (!BULK_MPN_EXACT_SCRATCH && need <= BULK_MPN_STACK_SCRATCH / sizeof(bulk_limb_t)) {
        bulk_limb_t buf[BULK_MPN_STACK_SCRATCH / sizeof(bulk_limb_t)];
        bulk_mpn_mullo_rec(r, a, b, n, buf);
        return;
    }
    bulk_limb_t *tmp = malloc(need * sizeof *tmp);
    if (tmp) {
        bulk_mpn_mullo_rec(r, a, b, n, tmp);
        free(tmp);
        return;
    }
    bulk_mpn_mullo_basecase(r, a, b, n); /* no memory: same result, quadratic time */
}
