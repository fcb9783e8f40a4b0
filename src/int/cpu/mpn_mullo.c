/* Short product: the low n limbs of a * b.
 *
 * Basecase: product scanning over the columns 0..n-1 only (about n^2/2 limb products).
 * Above BULK_MULLO_THRESHOLD: with h = ceil(n/2), l = n - h, a = a0 + a1 B^h, b likewise,
 *   a b mod B^n = a0 b0 + (lo_l(a1 b0) + lo_l(a0 b1)) B^h  (mod B^n),
 * one full h x h product and two recursive short products of l limbs. */
#include <stdlib.h>

#include "int/cpu/mpn_mul_internal.h"

void bulk_mpn_mullo_basecase(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    bulk_limb_t c0 = 0, c1 = 0, c2 = 0;
    for (size_t k = 0; k < n; k++) {
        const bulk_limb_t *bp = b + k;
        for (size_t i = 0; i <= k; i++, bp--) {
            bulk_dlimb_t p = (bulk_dlimb_t)a[i] * *bp;
            bulk_dlimb_t s = (((bulk_dlimb_t)c1 << 64) | c0) + p;
            c2 += s < p;
            c0 = (bulk_limb_t)s;
            c1 = (bulk_limb_t)(s >> 64);
        }
        r[k] = c0;
        c0 = c1;
        c1 = c2;
        c2 = 0;
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
    if (need <= BULK_MPN_STACK_SCRATCH / sizeof(bulk_limb_t)) {
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
