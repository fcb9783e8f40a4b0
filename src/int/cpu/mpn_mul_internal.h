/* Internal entry points of the multiplication code (src/int/cpu/mpn_mul*.c, mpn_toom.c,
 * mpn_karatsuba.c, mpn_mullo.c), shared between its files and the tuning program
 * bench/int/tune_mul.c; other areas use int/mpn.h.
 *
 * Scratch: the recursive algorithms take a caller-provided scratch area `tmp` of at least
 * bulk_mpn_mul_n_itch(n) / bulk_mpn_sqr_itch(n) limbs; mpn_mul.c finds it at the top level
 * (stack or malloc, see int/mpn.h). The itch functions mirror the dispatch exactly, level by
 * level, so the bound is exact rather than estimated. */
#ifndef BULK_INT_CPU_MPN_MUL_INTERNAL_H
#define BULK_INT_CPU_MPN_MUL_INTERNAL_H

#include "int/mpn.h"

/* Under AddressSanitizer the top-level scratch is always malloc'd at exactly the computed
 * size (never the larger stack buffer), so an itch that is too small is reported. */
#if defined(__SANITIZE_ADDRESS__)
#define BULK_MPN_EXACT_SCRATCH 1
#else
#define BULK_MPN_EXACT_SCRATCH 0
#endif

/* r[off ..) += v (W limbs), everything clipped at rn limbs: the recomposition step of the Toom
 * algorithms (mpn_toom.c, mpn_toom3.c), where the total is known to fit rn limbs. */
static inline void bulk_mpn_add_at(bulk_limb_t *r, size_t rn, size_t off, const bulk_limb_t *v, size_t W)
{
    if (off >= rn) return;
    size_t len = rn - off < W ? rn - off : W;
    bulk_limb_t c = bulk_mpn_add_n(r + off, r + off, v, len);
    if (c && off + len < rn) bulk_mpn_add_1(r + off + len, r + off + len, rn - off - len, c);
}

/* Basecases, r (an + bn limbs) disjoint from a and b, an >= 1, bn >= 1 (any order). */
void bulk_mpn_mul_schoolbook(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                             const bulk_limb_t *b, size_t bn);
void bulk_mpn_mul_comba(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                        size_t bn);
void bulk_mpn_sqr_basecase(bulk_limb_t *r, const bulk_limb_t *a, size_t n);

/* Rows of MULX / ADCX / ADOX (mpn_mul_adx.c), used by AUTO's products (mpn_mul.c) and
 * bulk_mpn_sqr_basecase up to BULK_MPN_ADX_MAX limbs and by REDC (powmod.c) up to
 * BULK_MPN_ADX_REDC_MAX when bulk_mpn_adx is 1: set at load time from the processor (x86-64
 * with BMI2 and ADX), 0 elsewhere; tests set it to run both forms. Forced methods (Comba,
 * schoolbook) never use them.
 * mul_adx: as the basecases (r = a b, an <= BULK_MPN_ADX_MAX, r disjoint from a and b).
 * redc_adx: r (n limbs) = t R^-1 mod m (R = B^n) for t (2n limbs) < m R, n <= BULK_MPN_ADX_REDC_MAX,
 * minv = -m^-1 mod B, w: 3n limbs of scratch; r may not overlap t or w. */
#define BULK_MPN_ADX_MAX 16
#define BULK_MPN_ADX_REDC_MAX 32
extern int bulk_mpn_adx;
void bulk_mpn_mul_adx(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                      size_t bn);
void bulk_mpn_redc_adx(bulk_limb_t *r, const bulk_limb_t *t, const bulk_limb_t *m, size_t n,
                       bulk_limb_t minv, bulk_limb_t *w);

/* The thresholds the AUTO dispatch reads. Initialised from mul_thresholds.h; only the tuning
 * program writes them (single-threaded, before it measures), so library callers see constants. */
struct bulk_mul_tuning {
    size_t comba_max;
    size_t mul_thr[5]; /* first n for Karatsuba, Toom-3, Toom-4, Toom-6, Toom-8 */
    size_t sqr_thr[5];
    size_t mullo_thr;
};
extern struct bulk_mul_tuning bulk_mul_tuning;

/* Recursive cores with explicit scratch (tmp >= the itch of the same n and method).
 * `sqr` variants: a == b, and the evaluations are squared. */
size_t bulk_mpn_mul_n_itch(size_t n);
size_t bulk_mpn_sqr_itch(size_t n);
void bulk_mpn_mul_n_rec(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                        bulk_limb_t *tmp);
void bulk_mpn_sqr_rec(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t *tmp);

/* Karatsuba (Toom-2), n >= 2. Scratch: bulk_mpn_karatsuba_itch(n, sqr). */
size_t bulk_mpn_karatsuba_itch(size_t n, int sqr);
void bulk_mpn_mul_karatsuba(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                            bulk_limb_t *tmp);
void bulk_mpn_sqr_karatsuba(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t *tmp);

/* Toom-k for k in 3..8 (points 0, +-1, ..., +-(k-1)), n >= bulk_mpn_toom_min_n(k).
 * b == NULL means squaring. Scratch: bulk_mpn_toom_itch(n, k, sqr). */
size_t bulk_mpn_toom_min_n(unsigned k);
size_t bulk_mpn_toom_itch(size_t n, unsigned k, int sqr);
void bulk_mpn_mul_toom(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                       unsigned k, bulk_limb_t *tmp);

/* Specialised Toom-3 (points 0, 1, -1, -2, inf), for n with bulk_mpn_toom3_applies(n) (n >= 5
 * or n = 3; AUTO and the forced method use the general Toom-k for the other n). b == NULL
 * squares. Scratch: bulk_mpn_toom3_itch(n, sqr). */
int bulk_mpn_toom3_applies(size_t n);
size_t bulk_mpn_toom3_itch(size_t n, int sqr);
void bulk_mpn_mul_toom3(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                        bulk_limb_t *tmp);

/* Short product with explicit scratch (bulk_mpn_mullo_itch(n) limbs). */
size_t bulk_mpn_mullo_itch(size_t n);
void bulk_mpn_mullo_rec(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                        bulk_limb_t *tmp);
void bulk_mpn_mullo_basecase(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n);

/* r (2m+2 limbs) = u v for u, v of m+1 limbs (v == NULL: u^2): one m x m product plus the
 * cross terms of the top limbs (the point products of the Toom algorithms, mpn_toom.c and
 * mpn_toom3.c, whose evaluated operands carry one extra limb). */
static inline void bulk_mpn_mul_plus1(bulk_limb_t *r, const bulk_limb_t *u, const bulk_limb_t *v, size_t m,
                                      bulk_limb_t *sub)
{
    if (v == NULL) {
        v = u;
        bulk_mpn_sqr_rec(r, u, m, sub);
    } else {
        bulk_mpn_mul_n_rec(r, u, v, m, sub);
    }
    bulk_limb_t uh = u[m], vh = v[m];
    r[2 * m] = 0;
    r[2 * m + 1] = 0;
    if (uh) bulk_mpn_add_1(r + 2 * m, r + 2 * m, 2, bulk_mpn_addmul_1(r + m, v, m, uh));
    if (vh) bulk_mpn_add_1(r + 2 * m, r + 2 * m, 2, bulk_mpn_addmul_1(r + m, u, m, vh));
    if (uh && vh) {
        bulk_limb_t hl[2];
        hl[0] = bulk_limb_mul(uh, vh, &hl[1]);
        bulk_mpn_add_n(r + 2 * m, r + 2 * m, hl, 2);
    }
}

#endif
