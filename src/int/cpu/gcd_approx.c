/* The approximate Euclidean GCD of seed 001, chapter 4 (section 4.2), for B = 2^64:
 *
 *   gcd(X, Y) {            // X, Y odd, X >= Y
 *     do {
 *       (alpha, beta) <- approx(X, Y);
 *       if (beta = 0) { if (alpha is even) alpha <- alpha - 1; X <- rshift(X - Y alpha); }
 *       else X <- rshift(X - Y alpha B^beta + Y);
 *       if (X < Y) swap(X, Y);
 *     } while (Y != 0);
 *     return X;
 *   }
 *
 * rshift removes all trailing zero bits. X - Y alpha is even (both odd, alpha odd) and
 * X - Y alpha B^beta + Y is even (alpha B^beta even), so every step removes at least one bit;
 * both stay non-negative because alpha B^beta <= X div Y (gcd_approx.h). Case 1 of approx
 * (X of at most two limbs) is exact, X div Y; once X fits in two limbs we finish the same loop
 * in 128-bit registers. The common power of two of the inputs is removed first and restored at
 * the end (Lemma 4.1.2). X - Y alpha and the shift are fused in one pass over the limbs, as the
 * seed's section 4.4 does: read X and Y once, write X once. */
#include "int/cpu/div_stats.h"
#include "int/cpu/gcd_approx.h"
#include "int/cpu/gcd_common.h"

/* x (lx limbs) = rshift(x - y * alpha) for y (ly <= lx limbs), alpha odd, x - y alpha >= 0 and
 * even; returns the new normalized length (0 when the difference is zero). */
static size_t submul_rshift(bulk_limb_t *x, size_t lx, const bulk_limb_t *y, size_t ly,
                            bulk_limb_t alpha)
{
    bulk_dlimb_t p = (bulk_dlimb_t)y[0] * alpha;
    bulk_limb_t lo = (bulk_limb_t)p, x0 = x[0];
    bulk_limb_t z = x0 - lo, c = (bulk_limb_t)(p >> 64) + (x0 < lo);
    if (z == 0) {
        /* The low limb vanished (probability about 2^-63): two passes. */
        bulk_limb_t cy = bulk_mpn_submul_1(x, y, ly, alpha);
        bulk_mpn_sub_1(x + ly, x + ly, lx - ly, cy);
        lx = bulk_mpn_normalized_size(x, lx);
        return lx ? gcd_rshift_odd(x, lx) : 0;
    }
    unsigned s = (unsigned)bulk_limb_ctz(z), t = 64 - s; /* 1 <= s <= 63: z is even */
    bulk_limb_t prev = z;
    size_t i = 1;
    for (; i < ly; i++) {
        p = (bulk_dlimb_t)y[i] * alpha + c;
        lo = (bulk_limb_t)p;
        bulk_limb_t xi = x[i];
        z = xi - lo;
        c = (bulk_limb_t)(p >> 64) + (xi < lo);
        x[i - 1] = (prev >> s) | (z << t);
        prev = z;
    }
    for (; i < lx; i++) {
        bulk_limb_t xi = x[i];
        z = xi - c;
        c = xi < c;
        x[i - 1] = (prev >> s) | (z << t);
        prev = z;
    }
    x[lx - 1] = prev >> s;
    return bulk_mpn_normalized_size(x, lx);
}

/* The tail: the same loop on X, Y < B^2 (approx's case 1: alpha = X div Y exactly), in 128-bit
 * registers while X needs two limbs and in 64-bit ones after (where the hardware division is
 * cheap; the generic 128-bit division is kept for the one step where Y < B <= X). */
static bulk_dlimb_t gcd_tail(bulk_dlimb_t X, bulk_dlimb_t Y)
{
    if (X < Y) {
        bulk_dlimb_t t = X;
        X = Y;
        Y = t;
    }
    while (Y != 0 && (X >> 64) != 0) {
        bulk_dlimb_t alpha = (Y >> 64) ? gcd_div_2by2(X, Y) : X / Y;
        if ((alpha & 1) == 0) alpha--;
        X -= Y * alpha;
        if (X) {
            bulk_limb_t lo = (bulk_limb_t)X;
            X >>= lo ? bulk_limb_ctz(lo) : 64 + bulk_limb_ctz((bulk_limb_t)(X >> 64));
        }
        if (X < Y) {
            bulk_dlimb_t t = X;
            X = Y;
            Y = t;
        }
    }
    if (Y == 0) return X; /* X may still need two limbs */
    bulk_limb_t x = (bulk_limb_t)X, y = (bulk_limb_t)Y;
    while (y != 0) {
        bulk_limb_t alpha = x / y;
        if ((alpha & 1) == 0) alpha--;
        x -= y * alpha;
        if (x) x >>= bulk_limb_ctz(x);
        if (x < y) {
            bulk_limb_t t = x;
            x = y;
            y = t;
        }
    }
    return x;
}

size_t bulk_mpn_gcd_scratch(size_t n) { return 2 * n + 2; }

/* X < Y for normalized lengths; the leading limbs almost always decide. */
static inline int less(const bulk_limb_t *X, size_t lx, const bulk_limb_t *Y, size_t ly)
{
    if (lx != ly) return lx < ly;
    if (X[lx - 1] != Y[lx - 1]) return X[lx - 1] < Y[lx - 1];
    return bulk_mpn_cmp(X, Y, lx) < 0;
}

size_t bulk_mpn_gcd_approx(bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                           bulk_limb_t *tp)
{
    bulk_limb_t *X = tp, *Y = tp + n;
    size_t lx, ly, k;
    if (gcd_prepare(g, a, b, n, X, &lx, Y, &ly, &k)) return bulk_mpn_normalized_size(g, n);
    if (less(X, lx, Y, ly)) gcd_swap(&X, &lx, &Y, &ly);
    while (ly != 0 && lx > 2) {
        size_t beta;
        bulk_limb_t alpha = gcd_approx_quotient(X, lx, Y, ly, &beta);
        if (beta == 0) {
            if ((alpha & 1) == 0) alpha--;
            lx = submul_rshift(X, lx, Y, ly, alpha);
        } else {
            /* X - Y (alpha B^beta - 1): add Y, subtract alpha Y at limb beta; rare. */
            BULK_DIV_STAT_INC(bulk_div_stat_beta_pos);
            /* X - alpha Y B^beta >= 0 needs lx >= ly + beta; adding Y afterwards cannot carry
             * out because the result is at most X. */
            bulk_limb_t cy = bulk_mpn_submul_1(X + beta, Y, ly, alpha);
            bulk_mpn_sub_1(X + beta + ly, X + beta + ly, lx - beta - ly, cy);
            bulk_mpn_add(X, X, lx, Y, ly);
            lx = gcd_rshift_odd(X, bulk_mpn_normalized_size(X, lx));
        }
        if (lx == 0 || less(X, lx, Y, ly)) gcd_swap(&X, &lx, &Y, &ly);
    }
    if (ly != 0) {
        bulk_dlimb_t x = X[0], y = Y[0];
        if (lx > 1) x |= (bulk_dlimb_t)X[1] << 64;
        if (ly > 1) y |= (bulk_dlimb_t)Y[1] << 64;
        x = gcd_tail(x, y);
        X[0] = (bulk_limb_t)x;
        X[1] = (bulk_limb_t)(x >> 64);
        lx = X[1] ? 2 : 1;
    }
    return gcd_finish(g, n, X, lx, k);
}

size_t bulk_mpn_gcd(bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                    bulk_gcd_method method, bulk_limb_t *tp)
{
    if (method == BULK_GCD_BINARY) return bulk_mpn_gcd_binary(g, a, b, n, tp);
    return bulk_mpn_gcd_approx(g, a, b, n, tp);
}
