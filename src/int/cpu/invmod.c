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
 * modulo m, which is only possible for odd m.
 *
 * While X has three limbs or more, Lehmer's method does most of the work: many Euclid steps
 * decided on the leading 63 bits and applied at once as a 2x2 matrix (about 30 bits of
 * reduction per pass over X, Y and the cofactors instead of under 2); the matrix entries of a
 * Euclid remainder sequence alternate in sign like the cofactors, so the magnitudes again only
 * add. The approx() step above is the fallback when the leading bits decide no step. */
#include "int/cpu/gcd_approx.h"
#include "backend/report.h"
#include "int/mpn_div.h"

size_t bulk_mpn_invmod_scratch(size_t n) { return bulk_mpn_divmod_scratch(n, n) + 8 * n + 24; }

/* 63 bits of x starting at bit sh (x zero-padded above its length, at least li + 2 limbs). */
static uint64_t bits63(const bulk_limb_t *x, size_t sh)
{
    size_t li = sh / 64;
    unsigned bo = (unsigned)(sh % 64);
    uint64_t v = x[li] >> bo;
    if (bo) v |= x[li + 1] << (64 - bo);
    return v & (~0ull >> 1);
}

/* Lehmer's acceleration (Knuth, TAOCP 4.5.2, Algorithm L): Euclid's steps on the leading 63
 * bits u, v of X and the same bits of Y, as long as the quotient is certain (the same for
 * (u + A) / (v + C) and (u + B) / (v + D)), collected in the matrix [A B; C D]; then
 * (X, Y) <- (A X + B Y, C X + D Y) are exactly the remainders Euclid's algorithm would reach.
 * Returns 0 when not even one step is certain (B = 0): the caller then takes a multi-precision
 * step. Requires lx >= 2. |A|, |B|, |C|, |D| < 2^63, and A, B (and C, D) have opposite signs. */
static int lehmer_matrix(const bulk_limb_t *X, size_t lx, const bulk_limb_t *Y, __int128 mat[4])
{
    size_t sh = 64 * lx - (size_t)bulk_limb_clz(X[lx - 1]) - 63;
    __int128 u = bits63(X, sh), v = bits63(Y, sh), A = 1, B = 0, C = 0, D = 1;
    for (;;) {
        if (v + C <= 0 || v + D <= 0 || u + A < 0 || u + B < 0) break;
        __int128 q = (u + A) / (v + C);
        if (q != (u + B) / (v + D)) break;
        __int128 t = A - q * C;
        A = C, C = t;
        t = B - q * D;
        B = D, D = t;
        t = u - q * v;
        u = v, v = t;
    }
    if (B == 0) return 0;
    mat[0] = A, mat[1] = B, mat[2] = C, mat[3] = D;
    return 1;
}

/* out (cap limbs) = a P + b Q, which is known to be >= 0, for a, b of opposite signs (or one of
 * them 0), |a|, |b| < 2^63, P of lp >= lq limbs, Q of lq limbs. Returns the normalized length. */
static size_t lincomb_sub(bulk_limb_t *out, size_t cap, const bulk_limb_t *P, size_t lp,
                          const bulk_limb_t *Q, size_t lq, __int128 a, __int128 b)
{
    bulk_mpn_zero(out, cap);
    if (a >= 0 && b <= 0) { /* a P - |b| Q */
        out[lp] = bulk_mpn_mul_1(out, P, lp, (bulk_limb_t)a);
        bulk_limb_t cy = bulk_mpn_submul_1(out, Q, lq, (bulk_limb_t)-b);
        bulk_mpn_sub_1(out + lq, out + lq, lp + 1 - lq, cy);
    } else { /* |b| Q - |a| P */
        out[lq] = bulk_mpn_mul_1(out, Q, lq, (bulk_limb_t)b);
        bulk_limb_t cy = bulk_mpn_submul_1(out, P, lp, (bulk_limb_t)-a);
        out[lp] -= cy;
    }
    return bulk_mpn_normalized_size(out, lp + 1);
}

/* out (cap limbs) = |a| P + |b| Q for cofactor magnitudes (lengths lp, lq; the sum fits cap). */
static size_t lincomb_add(bulk_limb_t *out, size_t cap, const bulk_limb_t *P, size_t lp,
                          const bulk_limb_t *Q, size_t lq, __int128 a, __int128 b)
{
    bulk_limb_t ua = (bulk_limb_t)(a < 0 ? -a : a), ub = (bulk_limb_t)(b < 0 ? -b : b);
    bulk_mpn_zero(out, cap);
    bulk_limb_t cy = bulk_mpn_addmul_1(out, P, lp, ua);
    bulk_mpn_add_1(out + lp, out + lp, cap - lp, cy);
    cy = bulk_mpn_addmul_1(out, Q, lq, ub);
    bulk_mpn_add_1(out + lq, out + lq, cap - lq, cy);
    return bulk_mpn_normalized_size(out, cap);
}

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
    if (mn == 0) return bulk_fail(NULL, BULK_ERR_DIVZERO, "bulk_mpn_invmod: m: zero");
    if (mn == 1 && m[0] == 1) return BULK_OK;
    size_t cap = mn + 2;
    bulk_limb_t *X = tp, *Y = tp + cap, *tx = tp + 2 * cap, *ty = tp + 3 * cap;
    bulk_limb_t *X2 = tp + 4 * cap, *Y2 = tp + 5 * cap, *tx2 = tp + 6 * cap, *ty2 = tp + 7 * cap;
    bulk_limb_t *dtp = tp + 8 * cap;
    bulk_mpn_zero(tp, 8 * cap);
    bulk_mpn_divmod(NULL, Y, a, n, m, mn, BULK_DIV_AUTO, dtp);
    bulk_mpn_copy(X, m, mn);
    size_t lx = mn, ly = bulk_mpn_normalized_size(Y, mn), ltx = 0, lty = 1;
    ty[0] = 1;
    int yneg = 0; /* sign of s_y; s_x has the other sign */
    while (ly != 0) {
        __int128 M[4];
        if (lx >= 3 && lehmer_matrix(X, lx, Y, M)) {
            /* (X, Y) <- (A X + B Y, C X + D Y); t_x <- |A| t_x + |B| t_y, t_y likewise; with
             * sigma = sign(s_x) = -sign(s_y), s_y' = C s_x + D s_y = sigma (C t_x - D t_y), whose
             * sign is sigma when C >= 0 >= D and -sigma otherwise. */
            size_t nx = lincomb_sub(X2, cap, X, lx, Y, ly, M[0], M[1]);
            size_t ny = lincomb_sub(Y2, cap, X, lx, Y, ly, M[2], M[3]);
            size_t ntx = lincomb_add(tx2, cap, tx, ltx, ty, lty, M[0], M[1]);
            size_t nty = lincomb_add(ty2, cap, tx, ltx, ty, lty, M[2], M[3]);
            int sigma_pos = yneg; /* s_x > 0 exactly when s_y < 0 */
            int ypos = (M[2] >= 0 && M[3] <= 0) ? sigma_pos : !sigma_pos;
            yneg = !ypos;
            SWAP(bulk_limb_t *, X, X2);
            SWAP(bulk_limb_t *, Y, Y2);
            SWAP(bulk_limb_t *, tx, tx2);
            SWAP(bulk_limb_t *, ty, ty2);
            lx = nx, ly = ny, ltx = ntx, lty = nty;
            continue;
        }
        bulk_limb_t alpha;
        size_t beta = 0;
        if (lx <= 2) {
            /* the exact quotient when it is below B (hardware division, gcd_approx.h) */
            bulk_dlimb_t xx = ((bulk_dlimb_t)X[1] << 64) | X[0];
            bulk_dlimb_t yy = ((bulk_dlimb_t)(ly > 1 ? Y[1] : 0) << 64) | Y[0];
            if (ly > 1) {
                alpha = gcd_div_2by2(xx, yy);
            } else if (X[1] < Y[0]) {
                alpha = gcd_div_2by1(X[1], X[0], Y[0]);
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
    if (lx != 1 || X[0] != 1) {
        bulk_mpn_zero(r, n);
        return bulk_fail(NULL, BULK_ERR_NOT_INVERTIBLE, "bulk_mpn_invmod: a: shares a factor with m");
    }
    /* s_x = a^-1 mod m; its sign is the opposite of s_y's, and 0 < t_x < m. */
    if (yneg) {
        bulk_mpn_copy(r, tx, ltx);
    } else {
        bulk_mpn_copy(r, m, mn);
        bulk_mpn_sub(r, r, mn, tx, ltx);
    }
    return BULK_OK;
}
