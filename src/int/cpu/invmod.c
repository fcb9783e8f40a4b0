/* Modular inverse by the extended Euclidean algorithm.
 *
 * X = m, Y = a mod m; each step subtracts k Y from X with k = alpha B^beta <= X div Y taken from
 * seed 001's approx() (gcd_approx.h; exact 128-bit quotient once X has at most two limbs), and
 * swaps when X < Y. This is Euclid's algorithm with each quotient applied in one or more pieces,
 * so the cofactors stay bounded as in Euclid's: with X = a s_x, Y = a s_y (mod m), s_x and s_y
 * have opposite signs (or s_x = 0), hence s_x - k s_y has magnitude |s_x| + k |s_y|, never more
 * than Euclid's full-quotient cofactor, which is at most m. So only magnitudes t = |s| are kept
 * (no signed arithmetic) plus the sign of s_y, which flips at every swap. At the end X = gcd;
 * when it is 1 the inverse is t_x or m - t_x. No rshift here: halving X would need halving s_x
 * modulo m, which is only possible for odd m. */
#include "int/cpu/gcd_approx.h"
#include "int/mpn_div.h"

size_t bulk_mpn_invmod_scratch(size_t n) { return bulk_mpn_divmod_scratch(n, n) + 4 * n + 12; }

#define SWAP(T, p, q)                                                                             \
    do {                                                                                          \
        T t_ = p;                                                                                 \
        p = q;                                                                                    \
        q = t_;                                                                                   \
    } while (0)

int bulk_mpn_invmod(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *m, size_t n,
                    bulk_limb_t *tp)
{
    size_t mn = bulk_mpn_normalized_size(m, n);
    bulk_mpn_zero(r, n);
    if (mn == 0) return BULK_ERR_DIVZERO;
    if (mn == 1 && m[0] == 1) return BULK_OK;
    size_t cap = mn + 2;
    bulk_limb_t *X = tp, *Y = tp + cap, *tx = tp + 2 * cap, *ty = tp + 3 * cap;
    bulk_limb_t *dtp = tp + 4 * cap;
    bulk_mpn_zero(tp, 4 * cap);
    bulk_mpn_divmod(NULL, Y, a, n, m, mn, BULK_DIV_AUTO, dtp);
    bulk_mpn_copy(X, m, mn);
    size_t lx = mn, ly = bulk_mpn_normalized_size(Y, mn), ltx = 0, lty = 1;
    ty[0] = 1;
    int yneg = 0; /* sign of s_y; s_x has the other sign */
    while (ly != 0) {
        bulk_limb_t alpha;
        size_t beta = 0;
        if (lx <= 2) {
            bulk_dlimb_t xx = ((bulk_dlimb_t)X[1] << 64) | X[0];
            bulk_dlimb_t yy = ((bulk_dlimb_t)(ly > 1 ? Y[1] : 0) << 64) | Y[0];
            bulk_dlimb_t qq = xx / yy;
            if ((qq >> 64) == 0) {
                alpha = (bulk_limb_t)qq;
            } else { /* Y < B and X div Y >= B: case 2-A's alpha B = (x1 div y1) B <= X div Y */
                alpha = X[1] / Y[0];
                beta = 1;
            }
        } else {
            alpha = gcd_approx_quotient(X, lx, Y, ly, &beta);
        }
        /* X -= alpha Y B^beta (non-negative: lx >= ly + beta), t_x += alpha t_y B^beta. */
        bulk_limb_t cy = bulk_mpn_submul_1(X + beta, Y, ly, alpha);
        bulk_mpn_sub_1(X + beta + ly, X + beta + ly, lx - beta - ly, cy);
        lx = bulk_mpn_normalized_size(X, lx);
        cy = bulk_mpn_addmul_1(tx + beta, ty, lty, alpha);
        bulk_mpn_add_1(tx + beta + lty, tx + beta + lty, cap - beta - lty, cy);
        ltx = bulk_mpn_normalized_size(tx, cap);
        if (lx < ly || (lx == ly && bulk_mpn_cmp(X, Y, lx) < 0)) {
            SWAP(bulk_limb_t *, X, Y);
            SWAP(bulk_limb_t *, tx, ty);
            SWAP(size_t, lx, ly);
            SWAP(size_t, ltx, lty);
            yneg ^= 1;
        }
    }
    if (lx != 1 || X[0] != 1) return BULK_ERR_NOT_INVERTIBLE;
    /* s_x = a^-1 mod m; its sign is the opposite of s_y's, and 0 < t_x < m. */
    if (yneg) {
        bulk_mpn_copy(r, tx, ltx);
    } else {
        bulk_mpn_copy(r, m, mn);
        bulk_mpn_sub(r, r, mn, tx, ltx);
    }
    return BULK_OK;
}
