/* Subquadratic decimal conversion (int/radix.h): divide and conquer over P[i] = 10^(19 * 2^i).
 *
 * P[i] = 5^(19 2^i) 2^(19 2^i) ends in about 19 2^i / 64 zero limbs, 30% of its length
 * (log 2 / log 10). They are kept implicit: P[i] = Z[i] B^s[i] with Z[i] the power without its
 * low zero limbs. Printing divides only the top of a, a = a_hi B^s + a_lo, by Z: a_hi = q Z + r'
 * and r = r' B^s + a_lo (a_lo < B^s, so r < P), a division with a divisor 30% shorter; parsing
 * multiplies by Z and shifts; the powers are built by squaring the shorter Z. (The same
 * observation as GMP's get_str/set_str.) */
#include "int/radix.h"

#include <stdlib.h>
#include <string.h>

#include "bulk/bulk.h"
#include "int/numtext.h"
#include "int/mpn.h"
#include "int/mpn_div.h"

#define DIGITS(i) ((size_t)19 << (i)) /* decimal digits of the split at level i */
#define MAX_LEVELS 48
/* Printing recursion: pieces of at most this many limbs go to numtext.c's 19-digit loops. Below
 * the entry size BULK_RADIX_DC_LIMBS (numtext.c's choice): with divide-and-conquer division a
 * split plus two half-size loops is cheaper than one loop from roughly 64 limbs on. Measured
 * with bench_radix, 2026-11-21, one core of the shared dev machine: 2048 limbs 1264 us with
 * leaves of 128 limbs, 1159 us with 32 (before the zero limbs of the powers were dropped);
 * after it 949, 935 and 993 us with leaves of 32, 48 and 64 (4096 limbs: 2662, 2736, 2777). */
#define PRINT_LEAF_LIMBS 32

typedef struct {
    bulk_limb_t *p[MAX_LEVELS]; /* Z[i]: P[i] without its low zero limbs, normalized */
    size_t n[MAX_LEVELS];       /* its limbs */
    size_t s[MAX_LEVELS];       /* the zero limbs: P[i] = Z[i] B^s[i], n[i] + s[i] limbs */
    int count;
} powers;

static void powers_free(powers *P)
{
    for (int i = 0; i < P->count; i++) free(P->p[i]);
    P->count = 0;
}

/* P[0..] while keep(i) says the next one is needed; 0 or BULK_ERR_NOMEM. */
static int powers_build(powers *P, size_t limit_limbs, size_t limit_digits)
{
    P->count = 0;
    P->p[0] = malloc(sizeof(bulk_limb_t));
    if (!P->p[0]) return BULK_ERR_NOMEM;
    P->p[0][0] = 10000000000000000000ull; /* 10^19 */
    P->n[0] = 1;
    P->s[0] = 0;
    P->count = 1;
    /* printing needs powers up to the first one with more limbs than the value (it bounds the
     * value from above); parsing those with fewer digits than the text */
    for (;;) {
        int i = P->count - 1;
        if (limit_limbs && P->n[i] + P->s[i] > limit_limbs) break;
        if (limit_digits && DIGITS(i + 1) >= limit_digits) break;
        if (P->count == MAX_LEVELS) break;
        size_t m = 2 * P->n[i];
        bulk_limb_t *q = malloc(m * sizeof *q);
        if (!q) return BULK_ERR_NOMEM;
        bulk_mpn_sqr(q, P->p[i], P->n[i]);
        /* Z[i]^2 may end in more zero limbs (2^(2 * 19 2^i) divides it): move them to s */
        size_t t = 0;
        while (q[t] == 0) t++; /* q != 0 */
        m = bulk_mpn_normalized_size(q, m) - t;
        bulk_mpn_copy(q, q + t, m);
        P->p[i + 1] = q;
        P->n[i + 1] = m;
        P->s[i + 1] = 2 * P->s[i] + t;
        P->count++;
    }
    return BULK_OK;
}

/* a < P[lev] = Z B^s? (n normalized) */
static int below_power(const bulk_limb_t *a, size_t n, int lev, const powers *P)
{
    size_t zn = P->n[lev], s = P->s[lev];
    if (n != zn + s) return n < zn + s;
    return bulk_mpn_cmp(a + s, P->p[lev], zn) < 0; /* equal tops: a >= P (P's low limbs are 0) */
}

/* Writes the value a[0..n) (n normalized) for a < P[lev + 1]: with pad = 0 its digits without
 * leading zeros ("0" for zero), with pad > 0 exactly pad digits (a < 10^pad). Returns the
 * number of characters written (no NUL), or 0 when memory ran out. */
static size_t get_rec(char *out, const bulk_limb_t *a, size_t n, int lev, size_t pad, const powers *P)
{
    while (lev >= 0 && below_power(a, n, lev, P)) lev--; /* a < P[lev]: no split at this level */
    if (lev < 0 || n <= PRINT_LEAF_LIMBS) {
        /* (lev < 0 means a < P[0] = 10^19: one limb) */
        char tmp[PRINT_LEAF_LIMBS * 20 + 2];
        size_t len = bulk_format_dec_basecase(tmp, a, n);
        if (pad && n == 0) len = 0; /* zero padded: only the zeros */
        size_t zeros = pad > len ? pad - len : 0;
        memset(out, '0', zeros);
        memcpy(out + zeros, tmp, len);
        return zeros + len;
    }
    /* a >= P[lev] and a < P[lev + 1] = P[lev]^2: q = a / P[lev] < P[lev], r < P[lev]. With
     * P = Z B^s: the top n - s limbs of a divided by Z give q and the top of r, and r's low s
     * limbs are a's. */
    const bulk_limb_t *d = P->p[lev];
    size_t zn = P->n[lev], s = P->s[lev], dn = zn + s, hn = n - s;
    size_t qn = n - dn + 1; /* significant quotient limbs at most; divmod writes hn */
    size_t tn = bulk_mpn_divmod_scratch_method(hn, zn, BULK_DIV_AUTO);
    bulk_limb_t *q = malloc((hn + dn + tn) * sizeof *q);
    if (!q) return 0;
    bulk_limb_t *r = q + hn, *tp = r + dn;
    bulk_mpn_copy(r, a, s);
    bulk_mpn_divmod(q, r + s, a + s, hn, d, zn, BULK_DIV_AUTO, tp);
    size_t len = 0, rd = DIGITS(lev);
    size_t lq = get_rec(out, q, bulk_mpn_normalized_size(q, qn), lev - 1, pad ? pad - rd : 0, P);
    if (lq) {
        len = lq;
        size_t lr = get_rec(out + lq, r, bulk_mpn_normalized_size(r, dn), lev - 1, rd, P);
        len = lr ? len + lr : 0;
    }
    free(q);
    return len;
}

size_t bulk_mpn_get_dec(char *buf, const uint64_t *a, size_t n)
{
    n = bulk_mpn_normalized_size(a, n);
    if (n <= BULK_RADIX_DC_LIMBS) return bulk_format_dec_basecase(buf, a, n);
    powers P;
    if (powers_build(&P, n, 0) != BULK_OK) {
        powers_free(&P);
        return 0;
    }
    /* the last power has more limbs than a, so a < P[count - 1] = P[count - 2]^2 */
    size_t len = get_rec(buf, a, n, P.count - 2, 0, &P);
    powers_free(&P);
    if (len) buf[len] = 0;
    return len;
}

/* out[0..cap) (zeroed by the caller) = value of the digits s[0..len); returns significant limbs,
 * BULK_ERR_OVERFLOW or BULK_ERR_NOMEM. Splits at the largest P[lev] with fewer digits than len. */
static int set_rec(bulk_limb_t *out, size_t cap, const char *s, size_t len, int lev, const powers *P)
{
    while (lev >= 0 && DIGITS(lev) >= len) lev--;
    if (lev < 0 || len <= BULK_RADIX_DC_PARSE_LIMBS * 19) return bulk_parse_dec_basecase(out, cap, s, len);
    size_t ld = DIGITS(lev), hd = len - ld;
    /* digits -> limbs bounds: 19 digits < 64 bits */
    size_t hcap = hd / 19 + 2, lcap = ld / 19 + 2;
    bulk_limb_t *hi = calloc(hcap + lcap, sizeof *hi);
    if (!hi) return BULK_ERR_NOMEM;
    bulk_limb_t *lo = hi + hcap;
    int hn = set_rec(hi, hcap, s, hd, lev - 1, P);
    int ln = hn < 0 ? hn : set_rec(lo, lcap, s + hd, ld, lev - 1, P);
    if (hn < 0 || ln < 0) {
        free(hi);
        return hn < 0 ? hn : ln;
    }
    int st = BULK_OK;
    size_t used = 0;
    if (hn > 0) {
        /* hi P[lev] = (hi Z) B^s */
        size_t pn = P->n[lev], ps = P->s[lev], m = (size_t)hn + pn + ps;
        bulk_limb_t *prod = malloc(m * sizeof *prod);
        if (!prod) {
            free(hi);
            return BULK_ERR_NOMEM;
        }
        bulk_mpn_zero(prod, ps);
        bulk_mpn_mul(prod + ps, P->p[lev], pn, hi, (size_t)hn);
        m = bulk_mpn_normalized_size(prod, m);
        if (m > cap) st = BULK_ERR_OVERFLOW;
        else {
            memcpy(out, prod, m * sizeof *out);
            used = m;
        }
        free(prod);
    }
    if (st == BULK_OK && ln > 0) {
        /* out += lo; lo < P[lev] <= hi * P[lev] when hi > 0, so the sum has at most used + 1 limbs */
        size_t w = used > (size_t)ln ? used : (size_t)ln;
        if (w > cap) st = BULK_ERR_OVERFLOW;
        else {
            bulk_limb_t c = bulk_mpn_add(out, out, w, lo, (size_t)ln);
            used = w;
            if (c) {
                if (used == cap) st = BULK_ERR_OVERFLOW;
                else out[used++] = c;
            }
        }
    }
    free(hi);
    return st == BULK_OK ? (int)bulk_mpn_normalized_size(out, used) : st;
}

int bulk_mpn_set_dec(uint64_t *out, size_t cap, const char *s, size_t len)
{
    if (cap) memset(out, 0, cap * sizeof *out);
    while (len > 1 && *s == '0') s++, len--; /* leading zeros change nothing but the split */
    if (len <= BULK_RADIX_DC_PARSE_LIMBS * 19) return bulk_parse_dec_basecase(out, cap, s, len);
    powers P;
    int st = powers_build(&P, 0, len);
    if (st == BULK_OK) st = set_rec(out, cap, s, len, P.count - 1, &P);
    powers_free(&P);
    return st;
}
