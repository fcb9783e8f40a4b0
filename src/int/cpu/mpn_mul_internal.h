/* Internal entry points of the multiplication code (src/int/cpu/mpn_mul*.c), shared between
 * its files and the tuning program; not for other areas (use int/mpn.h).
 *
 * Scratch: the recursive algorithms take a caller-provided scratch area `tmp` of at least
 * the *_itch(n) limbs stated for each; mpn_mul.c finds it (stack or malloc, see int/mpn.h). */
#ifndef BULK_INT_CPU_MPN_MUL_INTERNAL_H
#define BULK_INT_CPU_MPN_MUL_INTERNAL_H

#include "int/mpn.h"

/* Basecases, r (an + bn limbs) disjoint from a and b, an >= 1, bn >= 1 (any order). */
void bulk_mpn_mul_schoolbook(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                             const bulk_limb_t *b, size_t bn);
void bulk_mpn_mul_comba(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                        size_t bn);
void bulk_mpn_sqr_basecase(bulk_limb_t *r, const bulk_limb_t *a, size_t n);

#endif
