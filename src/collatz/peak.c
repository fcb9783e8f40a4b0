/* Peaks: the pre-drop peak of one number with the table steps (exact through every table
 * operation that could hold a value above the threshold, and through the exact multi-limb path
 * when a value leaves 128 bits), the whole trajectory's peak at any size, and the 256-bit
 * values that carry them (peak.h). */
#include <string.h>

#include "bulk/int.h"
#include "collatz/peak.h"

void bulk_cz_wide_str(const bulk_collatz_wide *v, char *buf)
{
    if (bulk_int_to_str(buf, BULK_CZ_WIDE_STR, v->limb, BULK_COLLATZ_WIDE_LIMBS, 10, NULL) != BULK_OK)
        strcpy(buf, "?"); /* not reached: 78 digits and a NUL always fit */
}

int bulk_cz_wide_parse(const char *s, bulk_collatz_wide *v)
{
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return BULK_ERR_PARSE;
    int st = bulk_int_from_str(v->limb, s, BULK_COLLATZ_WIDE_LIMBS, 10, NULL);
    return st == BULK_ERR_OVERFLOW ? st : st == BULK_OK ? BULK_OK : BULK_ERR_PARSE;
}

/* *r = a * b + c; 0 when the result needs more than 128 bits */
static inline int mul_add(u128 *r, u128 a, uint64_t b, uint64_t c)
{
    const u128 p1 = (u128)(uint64_t)(a >> 64) * b;
    if (p1 >> 64) return 0;
    const u128 p0 = (u128)(uint64_t)a * b + c; /* < 2^128: (2^64-1)^2 + 2^64 - 1 */
    const u128 hi = p1 << 64;
    const u128 s = p0 + hi;
    if (s < p0) return 0;
    *r = s;
    return 1;
}

/* the exact multi-limb path: pre-drop peak of n compared with *t */
static int predrop_exact(u128 n, const bulk_collatz_wide *t, bulk_collatz_wide *out)
{
    const uint64_t w[2] = { (uint64_t)n, (uint64_t)(n >> 64) };
    bulk_collatz_wide p;
    int st = bulk_cz_exact(w, 2, 1, NULL, NULL, p.limb, BULK_COLLATZ_WIDE_LIMBS, NULL);
    if (st != BULK_OK) return st;
    if (cz_wide_cmp(&p, t) <= 0) return 0;
    *out = p;
    return 1;
}

/* v = 3v + 1 (v odd), raising *lim (with *have) when it passes it; 0 when it would leave 128 bits */
static inline int odd_up(u128 *v, u128 *lim, int *have)
{
    if (*v >> 126) return 0;
    *v = 3 * *v + 1;
    if (*v > *lim) {
        *lim = *v;
        *have = 1;
    }
    return 1;
}

int bulk_cz_predrop_from(const struct bulk_collatz_engine *e, u128 n, u128 v,
                         const bulk_collatz_wide *t, bulk_collatz_wide *out)
{
    const int d = e->d;
    const uint64_t mask = ((uint64_t)1 << d) - 1;
    /* lim: the value to beat (a threshold of 2^128 or more: no 128-bit value beats it) */
    u128 lim = cz_wide_sat128(t);
    int have = 0;
    const int nbits = cz_bitlen(cz_make((uint64_t)n, (uint64_t)(n >> 64)));
    for (;;) {
        const u128 vH = v >> d;
        /* no value inside this operation is below n when vH >= n, or when the dip table says
         * so (MB[L] vH >= n; collatz_core.h, cz_glide_step) */
        u128 low;
        if (vH >= n || !mul_add(&low, vH, e->MB[(uint64_t)v & mask], 0) || low >= n) {
            const uint64_t L = (uint64_t)v & mask;
            u128 bound;
            if (mul_add(&bound, vH + 1, e->MX[L], 0) && bound <= lim) {
                if (!mul_add(&v, vH, e->B[L], e->C[L])) return predrop_exact(n, t, out);
                continue;
            }
            for (int s = 0; s < e->J[L]; s++) {
                if (!(v & 1)) v >>= 1;
                else if (!odd_up(&v, &lim, &have)) return predrop_exact(n, t, out);
            }
            continue;
        }
        /* near n: each odd step, then the run of halvings up to the drop (cz_glide_step) */
        if ((v & 1) && !odd_up(&v, &lim, &have)) return predrop_exact(n, t, out);
        const cz_u128 cv = cz_make((uint64_t)v, (uint64_t)(v >> 64));
        const int tz = cz_ctz(cv), delta = cz_bitlen(cv) - nbits;
        const int sstar = delta == 0 ? 1 : ((v >> delta) < n ? delta : delta + 1);
        if (sstar <= tz) break;
        v >>= tz;
    }
    if (!have) return 0;
    *out = cz_wide_of128(lim);
    return 1;
}

int bulk_cz_predrop(const struct bulk_collatz_engine *e, u128 n, const bulk_collatz_wide *t,
                    bulk_collatz_wide *out)
{
    /* n even drops at once and 1 never drops: the peak is n; an odd n > 1 rises to 3n + 1 > n
     * first, so its peak is a value after the start */
    if (n == 1 || !(n & 1)) {
        const bulk_collatz_wide w = cz_wide_of128(n);
        if (cz_wide_cmp(&w, t) <= 0) return 0;
        *out = w;
        return 1;
    }
    return bulk_cz_predrop_from(e, n, n, t, out);
}

int bulk_cz_peak_wide(const struct bulk_collatz_engine *e, u128 n, bulk_collatz_wide *out)
{
    u128 r;
    int st = bulk_cz_peak_of(e, cz_make((uint64_t)n, (uint64_t)(n >> 64)), &r);
    if (st == BULK_OK) {
        *out = cz_wide_of128(r);
        return BULK_OK;
    }
    if (st != BULK_ERR_OVERFLOW) return st;
    const uint64_t w[2] = { (uint64_t)n, (uint64_t)(n >> 64) };
    memset(out, 0, sizeof *out);
    return bulk_cz_exact(w, 2, 0, NULL, NULL, out->limb, BULK_COLLATZ_WIDE_LIMBS, NULL);
}

u128 bulk_cz_prefix_bound(int k, u128 nmax)
{
    if (k < 0 || k > 80) return ~(u128)0;
    u128 p3 = 1; /* 3^k < 2^127 */
    for (int i = 0; i < k; i++) p3 *= 3;
    const u128 R = (p3 + ((u128)1 << k) - 1) >> k; /* ceil((3/2)^k) < 2^47 */
    const u128 m = nmax + ((u128)1 << k);
    if (m < nmax) return ~(u128)0;
    u128 b;
    if (!mul_add(&b, m, (uint64_t)R * 4, 0)) return ~(u128)0;
    return b;
}
