/* The general division entry (bulk_mpn_divmod): strips high zero limbs, handles a < d, and
 * chooses Algorithm D, divide-and-conquer or Newton division by size (or as forced). */
#include <stdint.h>

#include "int/mpn_div.h"

/* The divisor size, in limbs, from which Newton division beats divide-and-conquer division on
 * 2n-by-n divisions; measured by bench/int/tune_div.c (command, machine and table in
 * docs/int.md, "Division", and bench/results/). AUTO also needs a quotient of at least this many
 * limbs: with a short quotient Algorithm D is linear in the divisor and Newton is not. The same
 * rule with bulk_div_dc_threshold (div_dc.c) picks divide-and-conquer over Algorithm D.
 * SIZE_MAX: Newton never won. It beat Algorithm D from 256 limbs, but divide-and-conquer is at
 * least 2.2x faster than Newton at every size measured, 8 to 16384 limbs (2026-11-21); Newton
 * stays available as a forced method. */
size_t bulk_div_newton_threshold = SIZE_MAX;

size_t bulk_mpn_divmod_scratch(size_t an, size_t dn)
{
    size_t k = bulk_mpn_div_knuth_scratch(an, dn), n = bulk_mpn_div_newton_scratch(an, dn);
    size_t c = bulk_mpn_div_dc_scratch(an, dn), m = k > n ? k : n;
    return m > c ? m : c;
}

/* Does AUTO reach a method of threshold thr for some normalized shape ann <= an, dnn <= dn?
 * It needs dnn >= thr and ann - dnn + 1 >= thr: possible exactly when dn >= thr and
 * an + 1 >= 2 thr (take dnn = thr, ann = an). */
static int reachable(size_t an, size_t dn, size_t thr)
{
    return dn >= thr && an + 1 >= thr && an + 1 - thr >= thr; /* no 2 thr: thr may be SIZE_MAX */
}

/* bulk_mpn_divmod chooses the method on the NORMALIZED sizes (ann <= an, dnn <= dn), so the
 * area must cover every shape it can reach, not only (an, dn): AUTO takes Newton when
 * dnn >= thr and ann - dnn + 1 >= thr, which some ann <= an, dnn <= dn satisfy exactly when
 * dn >= thr and an + 1 >= 2 thr (take dnn = thr, ann = an). Deciding on (an, dn) instead gave a
 * W/W division (an - dn + 1 = 1) Algorithm D's area of 2 an + dn + 4 limbs while a divisor with
 * high zero limbs sent it to Newton, which needs about 12 an: the heap overflow of
 * "bulk int divmod" at 65536 bits. Newton's and Algorithm D's areas grow with an and dn
 * (both are sums of non-decreasing terms), so the area for (an, dn) covers every smaller shape. */
size_t bulk_mpn_divmod_scratch_method(size_t an, size_t dn, bulk_div_method method)
{
    if (method == BULK_DIV_NEWTON ||
        (method == BULK_DIV_AUTO && reachable(an, dn, bulk_div_newton_threshold)))
        return bulk_mpn_divmod_scratch(an, dn);
    if (method == BULK_DIV_DC || (method == BULK_DIV_AUTO && reachable(an, dn, bulk_div_dc_threshold)))
        return bulk_mpn_div_dc_scratch(an, dn); /* covers Algorithm D's too */
    return bulk_mpn_div_knuth_scratch(an, dn);
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
    size_t tn = bulk_div_newton_threshold, tc = bulk_div_dc_threshold;
    if (method == BULK_DIV_NEWTON) bulk_mpn_div_newton(q, r, a, ann, d, dnn, tp);
    else if (method == BULK_DIV_KNUTH) bulk_mpn_div_knuth(q, r, a, ann, d, dnn, tp);
    else if (method == BULK_DIV_DC) bulk_mpn_div_dc(q, r, a, ann, d, dnn, tp);
    else if (dnn >= tn && qn >= tn) bulk_mpn_div_newton(q, r, a, ann, d, dnn, tp);
    else if (dnn >= tc && qn >= tc) bulk_mpn_div_dc(q, r, a, ann, d, dnn, tp);
    else bulk_mpn_div_knuth(q, r, a, ann, d, dnn, tp);
    if (q) bulk_mpn_zero(q + qn, an - qn);
    if (r) bulk_mpn_zero(r + dnn, dn - dnn);
}
