/* Peaks of any size (bulk_collatz_wide, 256 bits) and the pre-drop peak of one number
 * (collatz/peak.c): the largest value of n's trajectory before it first drops below n (n itself
 * when no step raises it; pre-drop peak(1) = 1, as 1 never drops below itself). */
#ifndef BULK_COLLATZ_PEAK_H
#define BULK_COLLATZ_PEAK_H
#include <stddef.h>
#include <stdint.h>

#include "collatz/collatz_internal.h"

static inline bulk_collatz_wide cz_wide_of128(u128 v)
{
    bulk_collatz_wide w = { { (uint64_t)v, (uint64_t)(v >> 64), 0, 0 } };
    return w;
}

/* -1, 0, 1 */
static inline int cz_wide_cmp(const bulk_collatz_wide *a, const bulk_collatz_wide *b)
{
    for (int i = BULK_COLLATZ_WIDE_LIMBS; i-- > 0;)
        if (a->limb[i] != b->limb[i]) return a->limb[i] < b->limb[i] ? -1 : 1;
    return 0;
}

/* v <= t for a 128-bit v */
static inline int cz_wide_le128(u128 v, const bulk_collatz_wide *t)
{
    if (t->limb[2] | t->limb[3]) return 1;
    return v <= (((u128)t->limb[1] << 64) | t->limb[0]);
}

/* Decimal text of v into buf (at least BULK_CZ_WIDE_STR bytes). */
#define BULK_CZ_WIDE_STR 80
void bulk_cz_wide_str(const bulk_collatz_wide *v, char *buf);
/* Decimal text (digits only) into *v: BULK_OK, BULK_ERR_PARSE, BULK_ERR_OVERFLOW (>= 2^256). */
int bulk_cz_wide_parse(const char *s, bulk_collatz_wide *v);

/* The pre-drop peak of n >= 2 from its state v part-way along the trajectory (the value after
 * some steps, no value so far below n, and none so far above the threshold *t). Returns 1 when
 * the pre-drop peak exceeds *t, with the exact peak in *out; 0 when it does not (out untouched);
 * a negative status on failure (BULK_ERR_OVERFLOW: the peak passes 2^256). Table operations run
 * whole while the bound MX[L] (vH + 1) on every value inside them cannot beat the threshold, are
 * replayed step by step otherwise; a value that would leave 128 bits restarts n on the exact
 * multi-limb path. */
int bulk_cz_predrop_from(const struct bulk_collatz_engine *e, u128 n, u128 v,
                         const bulk_collatz_wide *t, bulk_collatz_wide *out);
/* The same from n itself (n >= 1; pre-drop peak(1) = 1). */
int bulk_cz_predrop(const struct bulk_collatz_engine *e, u128 n, const bulk_collatz_wide *t,
                    bulk_collatz_wide *out);
/* The peak of n's whole trajectory (n >= 1, engine with a > 0), exactly, at any size up to 2^256
 * (BULK_ERR_OVERFLOW beyond). */
int bulk_cz_peak_wide(const struct bulk_collatz_engine *e, u128 n, bulk_collatz_wide *out);
/* An upper bound on every value of the first k halvings of the trajectory of any n <= nmax
 * (and of the odd steps among them), saturated at 2^128 - 1: 4 (3/2)^k (nmax + 2^k), as after
 * i halvings and j <= i odd steps the value is below 3^j (n + 2^i) / 2^i. k <= 40. */
u128 bulk_cz_prefix_bound(int k, u128 nmax);

/* Path records of [from, to] inside a run over [first, ...] whose records so far reach *best
 * (NULL: none yet): *recs (malloc'ed, values > *best) and *count. above = 1: pre-drop peaks
 * decide everywhere (*best is the --above value or the running maximum); above = 0: the whole
 * trajectory's peak for n < 2 first (where the drop can land below first), the pre-drop peak
 * above. Uses the engine's stored sieve (k > 0) for every block of 2^k that no sieved number
 * can win. Progress to pr (may be NULL) as done0 + numbers done. */
int bulk_cz_path_records(bulk_ctx *ctx, const struct bulk_collatz_engine *e, bulk_u128 first,
                         bulk_u128 from, bulk_u128 to, const bulk_collatz_wide *best, int above,
                         bulk_collatz_record **recs, size_t *count, bulk_progress_run *pr,
                         double done0);
#endif
