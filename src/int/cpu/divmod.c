/* The general division entry (bulk_mpn_divmod): strips high zero limbs, handles a < d, and
 * chooses Algorithm D or Newton division by size (or as forced). */
#include "int/mpn_div.h"

/* The divisor size, in limbs, from which Newton division beats Algorithm D on 2n-by-n
 * divisions; measured by bench/int/tune_div.c (command, machine and table in docs/int.md,
 * "Division", and bench/results/). AUTO also needs a quotient of at least this many limbs:
 * with a short quotient Algorithm D is linear in the divisor and Newton is not. */
size_t bulk_div_newton_threshold = 256;

size_t bulk_mpn_divmod_scratch(size_t an, size_t dn)
{
    size_t k = bulk_mpn_div_knuth_scratch(an, dn), n = bulk_mpn_div_newton_scratch(an, dn);
    return k > n ? k : n;
}

size_t bulk_mpn_divmod_scratch_method(size_t an, size_t dn, bulk_div_method method)
{
    size_t thr = bulk_div_newton_threshold;
    int newton = method == BULK_DIV_NEWTON ||
                 (method == BULK_DIV_AUTO && dn >= thr && an >= dn && an - dn + 1 >= thr);
    return newton ? bulk_mpn_divmod_scratch(an, dn) : bulk_mpn_div_knuth_scratch(an, dn);
}

void bulk_mpn_divmod(bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                     const bulk_limb_t *d, size_t dn, bulk_div_method method, bulk_limb_t *tp)
{
    size_t dnn = bulk_mpn_normalized_size(d, dn), ann = bulk_mpn_normalized_size(a, an);
    if (ann < dnn) { /* a < d */
        if (q) bulk_mpn_zero(q, an);
        if (r) {
            bulk_mpn_copy(r, a, ann);
            bulk_mpn_zero(r + ann, dn - ann);
        }
        return;
    }
    size_t qn = ann - dnn + 1;
    size_t thr = bulk_div_newton_threshold;
    if (method == BULK_DIV_AUTO) method = dnn >= thr && qn >= thr ? BULK_DIV_NEWTON : BULK_DIV_KNUTH;
    if (method == BULK_DIV_NEWTON) bulk_mpn_div_newton(q, r, a, ann, d, dnn, tp);
    else bulk_mpn_div_knuth(q, r, a, ann, d, dnn, tp);
    if (q) bulk_mpn_zero(q + qn, an - qn);
    if (r) bulk_mpn_zero(r + dnn, dn - dnn);
}
