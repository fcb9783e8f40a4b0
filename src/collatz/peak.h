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

/* t, saturated to 128 bits */
static inline u128 cz_wide_sat128(const bulk_collatz_wide *t)
{
    return (t->limb[2] | t->limb[3]) ? ~(u128)0 : ((u128)t->limb[1] << 64) | t->limb[0];
}

/* The state limit of a threshold tt: a state v below it keeps every value of its next table
 * operation at most tt (they are below MXmax (vH + 1), collatz_core.h cz_peak_step), hence also
 * below 2^128. */
static inline u128 cz_state_limit(const struct bulk_collatz_engine *e, u128 tt)
{
    const u128 q = tt / e->MXmax; /* vH + 1 <= q keeps MXmax (vH + 1) <= tt */
    if (q == 0) return 0;
    if (((q - 1) >> (128 - e->d)) != 0) return ~(u128)0;
    return (q - 1) << e->d; /* v < the limit: vH + 1 <= q - 1 + 1 */
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
 * i halvings and j <= i odd steps the value is below 3^j (n + 2^i) / 2^i. k <= 80 (larger k:
 * 2^128 - 1). */
u128 bulk_cz_prefix_bound(int k, u128 nmax);

/* Path records of [from, to] inside a run over [first, ...] whose records so far reach *best
 * (NULL: none yet): *recs (malloc'ed, values > *best) and *count. above = 1: pre-drop peaks
 * decide everywhere (*best is the --above value or the running maximum); above = 0: the whole
 * trajectory's peak for n < 2 first (where the drop can land below first), the pre-drop peak
 * above. Uses the engine's stored sieve (k > 0), else one of 16 bits, for the part of every
 * block from which no sieved number can win. Progress to pr (may be NULL) as done0 + numbers
 * done. */
int bulk_cz_path_records(bulk_ctx *ctx, const struct bulk_collatz_engine *e, bulk_u128 first,
                         bulk_u128 from, bulk_u128 to, const bulk_collatz_wide *best, int above,
                         bulk_collatz_record **recs, size_t *count, bulk_progress_run *pr,
                         double done0);
/* ---- pre-drop peaks inside verify (verify_peak.c; engines with e->peaks) ----
 * A chunk keeps the running maximum in its result r. t is the skip threshold: a number matters
 * only when its pre-drop peak exceeds t, which is min(peak - 1, max(above, bs)) with bs the
 * maximum before the current block (the hits need every peak above it; the ties of peak_n need
 * the peaks equal to the maximum). A state below vlim keeps every value of its next table
 * operation at most t (the bound MXmax (vH + 1) of cz_peak_step), so the glide loops only test
 * v >= vlim per operation and hand the rare hot numbers to bulk_cz_peaks_exact. */
struct cz_peaks {
    const struct bulk_collatz_engine *e;
    bulk_collatz_verify_result *r;
    bulk_collatz_wide t, bs;
    /* a peak that a number below those of r reaches (bulk_cz_peaks_init_floor; 0: none): the
     * numbers whose pre-drop peak is at most floor matter neither for the maximum nor as hits */
    bulk_collatz_wide floor;
    /* a value the maximum of r's numbers is expected to reach (0: none): below it no number
     * matters for the maximum (the hits still need the floor); the caller checks afterwards
     * that r's peak reached it */
    bulk_collatz_wide seed;
    u128 vlim; /* 2^128 - 1 when peaks are off */
    bulk_collatz_record *cand; /* the block's hit candidates */
    size_t ncand, capcand;
    int status;
};
void bulk_cz_peaks_init(struct cz_peaks *p, const struct bulk_collatz_engine *e, bulk_collatz_verify_result *r);
/* The same for numbers above some number whose peak is *floor (NULL: none), which the caller's
 * result already holds: r then keeps only what beats it; and with a *seed (NULL: none) that the
 * maximum is expected to reach (the GPU verify, cg_verify.cu). */
void bulk_cz_peaks_init_floor(struct cz_peaks *p, const struct bulk_collatz_engine *e, bulk_collatz_verify_result *r,
                              const bulk_collatz_wide *floor, const bulk_collatz_wide *seed);
void bulk_cz_peaks_free(struct cz_peaks *p);
/* Before each block of numbers in increasing order. */
void bulk_cz_peaks_block_begin(struct cz_peaks *p);
/* n's pre-drop peak exactly: from the state v0 (no earlier value above the block's prefix
 * bound) or, with from_n, from n itself. */
void bulk_cz_peaks_exact(struct cz_peaks *p, u128 n, u128 v0, int from_n);
/* After the block [base, base + 2^L): when the prefix bound of L halvings could beat t, every
 * number of the block again from itself (the sieved ones had no iteration); then the block's
 * hits. Returns p->status. */
int bulk_cz_peaks_block_end(struct cz_peaks *p, u128 base, int L);
/* The candidates collected so far (any order of n) into r's hits; bulk_cz_peaks_block_end does
 * it for each block, a caller without blocks once at the end. Returns p->status. */
int bulk_cz_peaks_flush(struct cz_peaks *p);
/* The peak part of bulk_collatz_verify_result_merge. */
void bulk_cz_peaks_merge(bulk_collatz_verify_result *into, const bulk_collatz_verify_result *from);

#endif
