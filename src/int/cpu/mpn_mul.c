/* Size-based dispatch of multiplication (first version: basecases only). */
#include "int/cpu/mpn_mul_internal.h"

void bulk_mpn_mul(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b, size_t bn)
{
    bulk_mpn_mul_comba(r, a, an, b, bn);
}

void bulk_mpn_mul_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    bulk_mpn_mul_comba(r, a, n, b, n);
}

void bulk_mpn_sqr(bulk_limb_t *r, const bulk_limb_t *a, size_t n) { bulk_mpn_sqr_basecase(r, a, n); }

void bulk_mpn_mul_n_method(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                           bulk_mul_method m)
{
    if (m == BULK_MUL_SCHOOLBOOK) bulk_mpn_mul_schoolbook(r, a, n, b, n);
    else bulk_mpn_mul_comba(r, a, n, b, n);
}

void bulk_mpn_sqr_method(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_mul_method m)
{
    (void)m;
    bulk_mpn_sqr_basecase(r, a, n);
}

size_t bulk_mpn_method_min_n(bulk_mul_method m)
{
    (void)m;
    return 1;
}

void bulk_mpn_mullo_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    bulk_mpn_mul_1(r, a, n, b[0]);
    for (size_t j = 1; j < n; j++) bulk_mpn_addmul_1(r + j, a, n - j, b[j]);
}
