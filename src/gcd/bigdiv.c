/* Division of numbers of millions of limbs for the remainder tree: a Newton reciprocal and
 * Barrett's quotient estimate, both multiplying with bulk_mpn_mul_big (the NTT above its
 * threshold). Contracts: gcd_internal.h. */
#include <stdatomic.h>
#include <stdlib.h>

#include "gcd/gcd_internal.h"
#include "int/mpn_div.h"
#include "int/mul_fft.h"

/* Below this size the reciprocal comes from one exact division by bulk_mpn_divmod. */
#define RECIP_BASE 64

static _Atomic unsigned long long recip_max_fix, mod_max_fix, mod_exact;

/* Correction steps after which mod_step gives up its Barrett estimate (measured: at most 1). */
#define MOD_MAX_STEPS 64

unsigned long long gcd_mod_exact_count(void) { return atomic_load_explicit(&mod_exact, memory_order_relaxed); }

unsigned long long gcd_recip_max_fix(void) { return atomic_load_explicit(&recip_max_fix, memory_order_relaxed); }

unsigned long long gcd_mod_max_fix(void) { return atomic_load_explicit(&mod_max_fix, memory_order_relaxed); }

static void note_max(_Atomic unsigned long long *m, unsigned long long k)
{
    unsigned long long cur = atomic_load_explicit(m, memory_order_relaxed);
    while (k > cur && !atomic_compare_exchange_weak_explicit(m, &cur, k,
                                                             memory_order_relaxed,
                                                             memory_order_relaxed)) {
    }
}

/* r = a / d (exact floor) through bulk_mpn_divmod; q holds an limbs. */
static int small_div(bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                     const bulk_limb_t *d, size_t dn)
{
    bulk_limb_t *tp = malloc((bulk_mpn_divmod_scratch(an, dn) + 1) * sizeof *tp);
    if (!tp) return BULK_ERR_NOMEM;
    bulk_mpn_divmod(q, r, a, an, d, dn, BULK_DIV_AUTO, tp);
    free(tp);
    return BULK_OK;
}

/* Makes v (n + 2 limbs) the exact floor(B^(2n) / d) when it is within a few units of it:
 * p = d v (2n + 2 limbs) is compared with B^(2n) and v stepped by one while it is off. */
static int recip_fix(bulk_limb_t *v, const bulk_limb_t *d, size_t n, int threads)
{
    size_t pn = 2 * n + 3;
    bulk_limb_t *p = calloc(pn, sizeof *p);
    if (!p) return BULK_ERR_NOMEM;
    size_t vn = bulk_mpn_normalized_size(v, n + 2);
    if (vn) gcd_mul(p, d, n, v, vn, threads);
    /* e = B^(2n) - p, kept as p compared against the power */
    unsigned long long steps = 0;
    for (;;) { /* while p > B^(2n): v -= 1, p -= d */
        int above = bulk_mpn_normalized_size(p, pn) > 2 * n + 1 ||
                    (p[2 * n] > 1) ||
                    (p[2 * n] == 1 && !bulk_mpn_is_zero(p, 2 * n));
        if (!above) break;
        bulk_mpn_sub_1(v, v, n + 2, 1);
        bulk_mpn_sub(p, p, pn, d, n);
        steps++;
    }
    bulk_limb_t *e = calloc(2 * n + 1, sizeof *e);
    if (!e) {
        free(p);
        return BULK_ERR_NOMEM;
    }
    for (;;) { /* while B^(2n) - p >= d: v += 1, p += d */
        bulk_mpn_zero(e, 2 * n + 1);
        e[2 * n] = 1;
        bulk_mpn_sub(e, e, 2 * n + 1, p, 2 * n + 1);
        size_t en = bulk_mpn_normalized_size(e, 2 * n + 1);
        if (en < n || (en == n && bulk_mpn_cmp(e, d, n) < 0)) break;
        bulk_mpn_add_1(v, v, n + 2, 1);
        bulk_mpn_add(p, p, pn, d, n);
        steps++;
    }
    note_max(&recip_max_fix, steps);
    free(e);
    free(p);
    return BULK_OK;
}

/* v (n + 2 limbs) within a few units of floor(B^(2n) / d): the Newton recursion without the
 * final check (each level's error is squared away by the next; gcd_mod's quotient correction
 * absorbs what is left). */
static int recip_approx(bulk_limb_t *v, const bulk_limb_t *d, size_t n, int threads)
{
    if (n <= RECIP_BASE) {
        size_t an = 2 * n + 1;
        bulk_limb_t *a = calloc(an, sizeof *a), *q = calloc(an, sizeof *q);
        int st = a && q ? BULK_OK : BULK_ERR_NOMEM;
        if (st == BULK_OK) {
            a[2 * n] = 1;
            st = small_div(q, NULL, a, an, d, n);
        }
        if (st == BULK_OK) bulk_mpn_copy(v, q, n + 2); /* the quotient is below B^(n+2) */
        free(a);
        free(q);
        return st;
    }
    /* x0 = w B^(n-h) with w = floor(B^(2h) / dh), dh the top h limbs of d. Its relative error
     * is below B^(1-h), so one Newton step x1 = x0 + x0 (B^(2n) - d x0) / B^(2n) leaves an
     * error below B^(n+1) B^(2-2h) + truncation, i.e. a few units for 2h >= n + 4. */
    size_t h = (n + 1) / 2 + 2;
    int st = BULK_ERR_NOMEM;
    bulk_limb_t *x = calloc(n + 2, sizeof *x), *w = calloc(h + 2, sizeof *w);
    bulk_limb_t *p = calloc(2 * n + 3, sizeof *p), *e = calloc(2 * n + 3, sizeof *e);
    bulk_limb_t *t = NULL;
    if (!x || !w || !p || !e) goto out;
    if ((st = recip_approx(w, d + (n - h), h, threads)) != BULK_OK) goto out;
    bulk_mpn_copy(x + (n - h), w, h + 2);
    size_t xn = bulk_mpn_normalized_size(x, n + 2);
    gcd_mul(p, d, n, x, xn, threads); /* p = d x0, at most 2n + 2 limbs */
    size_t pn = 2 * n + 2;
    /* e = |B^(2n) - p|, sign in neg */
    bulk_mpn_zero(e, pn);
    e[2 * n] = 1;
    int neg = bulk_mpn_cmp(p, e, pn) > 0;
    if (neg) bulk_mpn_sub_n(e, p, e, pn);
    else bulk_mpn_sub_n(e, e, p, pn);
    size_t en = bulk_mpn_normalized_size(e, pn);
    if (en) {
        /* c = floor(x0 e / B^(2n)) */
        t = calloc(xn + en, sizeof *t);
        if (!t) {
            st = BULK_ERR_NOMEM;
            goto out;
        }
        gcd_mul(t, x, xn, e, en, threads);
        if (xn + en > 2 * n) {
            size_t cn = xn + en - 2 * n;
            if (cn > n + 2) cn = n + 2; /* c < x0 */
            if (neg) bulk_mpn_sub(x, x, n + 2, t + 2 * n, cn);
            else bulk_mpn_add(x, x, n + 2, t + 2 * n, cn);
        }
    }
    bulk_mpn_copy(v, x, n + 2);
    st = BULK_OK;
out:
    free(x);
    free(w);
    free(p);
    free(e);
    free(t);
    return st;
}

int gcd_recip(bulk_limb_t *v, const bulk_limb_t *d, size_t n)
{
    int st = recip_approx(v, d, n, 1);
    if (st == BULK_OK && n > RECIP_BASE) st = recip_fix(v, d, n, 1);
    return st;
}

/* r = a mod d for a < B^(2 dn) at most (an <= 2 dn) with v ~ floor(B^(2L)/dt) of the top
 * L limbs dt of d: q^ = floor(a_t / dt) by Barrett on the top limbs, then q^ d is moved to
 * the exact quotient by steps of d (|q^ - q| is a few units: the truncation of d to
 * L >= qn + 2 limbs changes the quotient by less than 2, Barrett's estimate is low by at
 * most 2, plus the few units by which v may be off). */
static int mod_step(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *d,
                    size_t dn, const bulk_limb_t *v, size_t L, int threads)
{
    size_t s = dn - L;                     /* limbs dropped from a and d */
    const bulk_limb_t *at = a + s;         /* a_t: an - s limbs, below B^(2L) */
    size_t atn = an - s;
    int st = BULK_ERR_NOMEM;
    bulk_limb_t *t = NULL, *qd = NULL, *q = NULL;
    size_t vn = bulk_mpn_normalized_size(v, L + 2);
    size_t qn = 1;
    q = calloc(atn + 3, sizeof *q);
    if (!q) goto out;
    if (atn >= L) {
        /* q^ = floor(floor(a_t / B^(L-1)) v / B^(L+1)) */
        size_t hn = atn - (L - 1);
        t = calloc(hn + vn, sizeof *t);
        if (!t) goto out;
        gcd_mul(t, at + (L - 1), hn, v, vn, threads);
        if (hn + vn > L + 1) {
            qn = hn + vn - (L + 1);
            bulk_mpn_copy(q, t + L + 1, qn);
        }
    }
    qn = bulk_mpn_normalized_size(q, qn);
    size_t pn = qn + dn > an ? qn + dn : an;
    qd = calloc(2 * pn, sizeof *qd);
    if (!qd) goto out;
    bulk_limb_t *ac = qd + pn; /* a, zero-padded to pn limbs */
    if (qn) gcd_mul(qd, d, dn, q, qn, threads);
    bulk_mpn_copy(ac, a, an);
    unsigned long long steps = 0;
    while (bulk_mpn_cmp(qd, ac, pn) > 0) { /* q^ too high */
        if (steps == MOD_MAX_STEPS) goto exact;
        bulk_mpn_sub(qd, qd, pn, d, dn);
        steps++;
    }
    bulk_mpn_sub_n(ac, ac, qd, pn);
    for (;;) { /* q^ too low: r >= d */
        size_t cn = bulk_mpn_normalized_size(ac, pn);
        if (cn < dn || (cn == dn && bulk_mpn_cmp(ac, d, dn) < 0)) break;
        if (steps == MOD_MAX_STEPS) goto exact;
        bulk_mpn_sub(ac, ac, pn, d, dn);
        steps++;
    }
    note_max(&mod_max_fix, steps);
    bulk_mpn_copy(r, ac, dn);
    st = BULK_OK;
    goto out;
exact: /* the estimate is far off (never seen: a wrong reciprocal or product would do it):
        * the exact division instead of an endless walk by steps of d */
    atomic_fetch_add_explicit(&mod_exact, 1, memory_order_relaxed);
    free(q);
    q = malloc(an * sizeof *q);
    st = q ? small_div(q, r, a, an, d, dn) : BULK_ERR_NOMEM;
out:
    free(t);
    free(q);
    free(qd);
    return st;
}

/* r = a mod d for a >= d (an normalized), dn >= GCD_BIGDIV_THRESHOLD, with v the reciprocal
 * of the top L limbs of d (L >= qmax + 2 for the longest quotient of a piece, or L = dn). */
static int mod_pieces(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *d,
                      size_t dn, const bulk_limb_t *v, size_t L, int threads)
{
    /* Work from the top in pieces of at most 2 dn limbs: the remainder of one piece (dn
     * limbs) becomes the high part of the next, so every quotient has at most dn + 1 limbs
     * and the reciprocal serves every piece. */
    bulk_limb_t *buf = calloc(2 * dn, sizeof *buf);
    if (!buf) return BULK_ERR_NOMEM;
    size_t pos = an > 2 * dn ? an - 2 * dn : 0;
    int st = mod_step(r, a + pos, an - pos, d, dn, v, L, threads);
    while (st == BULK_OK && pos > 0) {
        size_t c = pos < dn ? pos : dn;
        pos -= c;
        bulk_mpn_copy(buf, a + pos, c);
        bulk_mpn_copy(buf + c, r, dn);
        st = mod_step(r, buf, c + dn, d, dn, v, L, threads);
    }
    free(buf);
    return st;
}

/* The cases every reduction starts with: a < d (r = a) and divisors below the threshold
 * (bulk_mpn_divmod). Returns 1 when done (status in *st), 0 when the big path must run. */
static int mod_easy(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *d,
                    size_t dn, int *st)
{
    bulk_mpn_zero(r, dn);
    *st = BULK_OK;
    if (an < dn || (an == dn && bulk_mpn_cmp(a, d, dn) < 0)) {
        bulk_mpn_copy(r, a, an);
        return 1;
    }
    if (dn < GCD_BIGDIV_THRESHOLD) {
        bulk_limb_t *q = malloc(an * sizeof *q);
        *st = q ? small_div(q, r, a, an, d, dn) : BULK_ERR_NOMEM;
        free(q);
        return 1;
    }
    return 0;
}

int gcd_mod(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *d, size_t dn,
            int threads)
{
    an = bulk_mpn_normalized_size(a, an);
    int st;
    if (mod_easy(r, a, an, d, dn, &st)) return st;
    /* the reciprocal of the top L = min(dn, qmax + 2) limbs of d, qmax the longest quotient */
    size_t qmax = (an > 2 * dn ? dn : an - dn) + 1;
    size_t L = qmax + 2 < dn ? qmax + 2 : dn;
    bulk_limb_t *v = calloc(L + 2, sizeof *v);
    if (!v) return BULK_ERR_NOMEM;
    st = recip_approx(v, d + (dn - L), L, threads);
    if (st == BULK_OK) st = mod_pieces(r, a, an, d, dn, v, L, threads);
    free(v);
    return st;
}

int gcd_divisor_init(gcd_divisor *D, const bulk_limb_t *d, size_t dn, int threads)
{
    D->d = d;
    D->dn = dn;
    D->v = NULL;
    if (dn < GCD_BIGDIV_THRESHOLD) return BULK_OK;
    D->v = calloc(dn + 2, sizeof *D->v);
    if (!D->v) return BULK_ERR_NOMEM;
    int st = recip_approx(D->v, d, dn, threads);
    if (st != BULK_OK) gcd_divisor_free(D);
    return st;
}

void gcd_divisor_free(gcd_divisor *D)
{
    free(D->v);
    D->v = NULL;
}

int gcd_mod_by(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const gcd_divisor *D, int threads)
{
    an = bulk_mpn_normalized_size(a, an);
    int st;
    if (mod_easy(r, a, an, D->d, D->dn, &st)) return st;
    if (!D->v) return BULK_ERR_INTERNAL;
    return mod_pieces(r, a, an, D->d, D->dn, D->v, D->dn, threads);
}
