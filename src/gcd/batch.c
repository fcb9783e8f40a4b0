/* bulk_gcd_batch (contract: bulk/gcd.h): product tree, remainder tree (which gives
 * q_i = (P / x_i) mod x_i, Bernstein's (P mod x_i^2) / x_i), then g_i = gcd(x_i, q_i) through
 * the bulk wrapper bulk_int_gcd, so the last, widest step runs on the context's backend. The
 * memory plan (gcd_plan_make) decides which levels are spilled. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bulk/gcd.h"
#include "gcd/gcd_internal.h"

/* Validation shared with pairs.c, reported under fn: every input >= 2. */
int gcd_check_inputs(const char *fn, const bulk_ctx *ctx, const bulk_limb_t *x, size_t n,
                     size_t limbs)
{
    for (size_t i = 0; i < n; i++) {
        const bulk_limb_t *xi = x + i * limbs;
        size_t ln = bulk_mpn_normalized_size(xi, limbs);
        if (ln == 0 || (ln == 1 && xi[0] < 2))
            return bulk_fail(ctx, BULK_ERR_ARG, "%s: input %zu: %llu is below 2", fn, i,
                             (unsigned long long)(ln ? xi[0] : 0));
    }
    return BULK_OK;
}

/* Arguments shared with pairs.c: ctx, x and limbs for n > 0 (1..2^20 limbs, n * limbs
 * addressable). */
int gcd_check_args(const char *fn, const bulk_ctx *ctx, const void *x, size_t n, size_t limbs)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: must not be NULL", fn);
    if (n == 0) return BULK_OK;
    if (!x) return bulk_fail(ctx, BULK_ERR_ARG, "%s: x: must not be NULL", fn);
    if (limbs == 0 || limbs > ((size_t)1 << 20))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: limbs %zu: must be 1..%zu", fn, limbs, (size_t)1 << 20);
    if (n > SIZE_MAX / (16 * limbs * sizeof(bulk_limb_t)))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: n %zu: too many inputs of %zu limbs", fn, n, limbs);
    return BULK_OK;
}

/* Sorts idx[0..n) by the values x[idx[k]] (limbs limbs each), stably: a bottom-up merge sort
 * (qsort has no context argument, and its order of equal elements is unspecified). Returns
 * BULK_ERR_NOMEM or BULK_OK. */
static int sort_by_value(size_t *idx, size_t n, const bulk_limb_t *x, size_t limbs)
{
    size_t *tmp = malloc(n * sizeof *tmp), *a = idx, *b = tmp;
    if (!tmp) return BULK_ERR_NOMEM;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = bulk_mpn_cmp(x + a[j] * limbs, x + a[i] * limbs, limbs) < 0 ? a[j++] : a[i++];
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        size_t *t = a;
        a = b;
        b = t;
    }
    if (a != idx) memcpy(idx, a, n * sizeof *idx);
    free(tmp);
    return BULK_OK;
}

int bulk_gcd_duplicates(bulk_ctx *ctx, size_t *first, const bulk_limb_t *x, size_t n,
                        size_t limbs)
{
    static const char fn[] = "bulk_gcd_duplicates";
    int st = gcd_check_args(fn, ctx, x, n, limbs);
    if (st != BULK_OK || n == 0) return st;
    if (!first) return bulk_fail(ctx, BULK_ERR_ARG, "%s: first: must not be NULL", fn);
    size_t *idx = malloc(n * sizeof *idx);
    if (!idx) return bulk_fail(ctx, BULK_ERR_NOMEM, "%s: %zu indices: out of memory", fn, n);
    for (size_t i = 0; i < n; i++) idx[i] = i;
    if (sort_by_value(idx, n, x, limbs) != BULK_OK) {
        free(idx);
        return bulk_fail(ctx, BULK_ERR_NOMEM, "%s: %zu indices: out of memory", fn, n);
    }
    /* equal values are adjacent, and in input order among themselves: the first of a run is
     * the earliest copy */
    for (size_t k = 0; k < n; k++)
        first[idx[k]] = k > 0 && bulk_mpn_cmp(x + idx[k] * limbs, x + idx[k - 1] * limbs, limbs) == 0
                            ? first[idx[k - 1]] : idx[k];
    free(idx);
    return BULK_OK;
}

uint64_t gcd_default_budget(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || psize <= 0) return (uint64_t)4 << 30;
    return (uint64_t)pages * (uint64_t)psize / 2;
}

void gcd_plan_make(gcd_plan *p, size_t n, size_t levels, uint64_t in_bytes, uint64_t level_bytes,
                   int threads, size_t max_memory, int force_spill)
{
    memset(p, 0, sizeof *p);
    size_t spillable = levels > 2 ? levels - 2 : 0;
    p->levels = levels;
    p->level_bytes = level_bytes;
    uint64_t inflight = threads < 1 ? 1 : threads > 4 ? 4 : (uint64_t)threads;
    p->floor = 3 * in_bytes + (10 + 12 * inflight) * level_bytes;
    p->need = p->floor + (uint64_t)spillable * level_bytes;
    p->budget = max_memory == 0 ? gcd_default_budget() : (uint64_t)max_memory;
    p->groups = 1;
    if (force_spill) p->keep = 0;
    else if (p->budget >= p->need) p->keep = spillable;
    else if (p->budget >= p->floor) p->keep = (size_t)((p->budget - p->floor) / (level_bytes ? level_bytes : 1));
    else {
        size_t kmax = n / 2 < GCD_MAX_GROUPS ? n / 2 : GCD_MAX_GROUPS;
        p->keep = 0;
        p->over_budget = 1;
        for (size_t k = 2; k <= kmax; k++) {
            p->groups = k;
            uint64_t sk = level_bytes / n * ((n + k - 1) / k) + level_bytes % n + 1;
            if (3 * in_bytes + (44 + 12 * inflight) * sk <= p->budget) {
                p->over_budget = 0;
                break;
            }
        }
    }
    if (p->keep > spillable) p->keep = spillable;
}

/* The lowest value level k (below the top) that the checkpoint holds together with the product
 * levels 1 .. k - 1 that the descent from it needs: T gets those (spilled) and *from level k,
 * *from_k = k. Nothing found: *from_k stays levels - 1 and T is untouched. */
static int resume_values(gcd_ckpt *ck, gcd_tree *T, const gcd_level *leaves, size_t levels,
                         gcd_level *from, size_t *from_k)
{
    size_t *count = malloc(levels * sizeof *count);
    if (!count) return BULK_ERR_NOMEM;
    count[0] = leaves->count;
    for (size_t k = 1; k < levels; k++) count[k] = (count[k - 1] + 1) / 2;
    int st = BULK_OK;
    for (size_t k = 0; st == BULK_OK && k + 1 < levels; k++) {
        int r = gcd_ckpt_load(ck, from, GCD_CKPT_VALUE, k, count[k]);
        if (r != BULK_OK) {
            st = r < 0 ? r : BULK_OK;
            continue;
        }
        memset(T, 0, sizeof *T);
        T->lv = calloc(levels, sizeof *T->lv);
        if (!T->lv) st = BULK_ERR_NOMEM;
        for (size_t j = 0; T->lv && j < levels; j++) T->lv[j].fd = -1;
        if (T->lv) {
            T->levels = levels;
            T->lv[0] = gcd_level_view(leaves);
        }
        size_t j = 1;
        while (st == BULK_OK && j < k && (r = gcd_ckpt_load(ck, &T->lv[j], GCD_CKPT_PRODUCT, j, count[j])) == BULK_OK)
            j++;
        if (st == BULK_OK && r < 0) st = r;
        if (st == BULK_OK && j >= k) { /* j = 1 for k = 0 and 1: no product level needed */
            *from_k = k;
            break;
        }
        gcd_tree_free(T);
        gcd_level_free(from);
    }
    free(count);
    return st;
}

static int batch_run(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *x, size_t n, size_t limbs,
                     const bulk_gcd_batch_opts *opts, bulk_gcd_batch_stats *stats);

/* The last error of a failed run (stats filled by batch_run). */
static int gcd_batch_fail(const bulk_ctx *ctx, int st, const bulk_gcd_batch_opts *o,
                          const bulk_gcd_batch_stats *s)
{
    static const char fn[] = "bulk_gcd_batch";
    const char *ck = o && o->checkpoint_dir ? o->checkpoint_dir : "";
    if (s->checkpoint_refused)
        return bulk_fail(ctx, st, "%s: checkpoint_dir '%s': the memory budget (%llu bytes) is below "
                         "one tree's floor (%llu bytes), and the grouped method keeps no levels", fn,
                         ck, (unsigned long long)s->memory_budget, (unsigned long long)s->memory_floor);
    if (s->checkpoint_mismatch)
        return bulk_fail(ctx, st, "%s: checkpoint_dir '%s': holds the checkpoint of other inputs", fn, ck);
    if (st == BULK_ERR_IO && s->checkpoint_errno)
        return bulk_fail(ctx, st, "%s: checkpoint_dir '%s': %s", fn, ck, strerror(s->checkpoint_errno));
    if (st == BULK_ERR_IO) {
        const char *dir = o && o->spill_dir ? o->spill_dir : getenv("TMPDIR");
        return bulk_fail(ctx, st, "%s: spill files in '%s': %s", fn, dir && *dir ? dir : "/tmp",
                         strerror(s->spill_errno ? s->spill_errno : EIO));
    }
    if (st == BULK_ERR_CANCELLED) return bulk_fail(ctx, st, "%s: progress callback: asked to stop", fn);
    return bulk_fail(ctx, st, "%s: %s", fn, bulk_status_string(st));
}

int bulk_gcd_batch(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *x, size_t n, size_t limbs,
                   const bulk_gcd_batch_opts *opts, bulk_gcd_batch_stats *stats)
{
    static const char fn[] = "bulk_gcd_batch";
    if (stats) memset(stats, 0, sizeof *stats);
    int st = gcd_check_args(fn, ctx, x, n, limbs);
    if (st != BULK_OK || n == 0) return st;
    if (!g) return bulk_fail(ctx, BULK_ERR_ARG, "%s: g: must not be NULL", fn);
    if ((st = gcd_check_inputs(fn, ctx, x, n, limbs)) != BULK_OK) return st;
    bulk_gcd_batch_stats own;
    if (!stats) stats = &own;
    memset(stats, 0, sizeof *stats);
    st = batch_run(ctx, g, x, n, limbs, opts, stats);
    return st == BULK_OK ? st : gcd_batch_fail(ctx, st, opts, stats);
}

/* bulk_gcd_batch after its argument checks: every failure's status, the last error set by
 * gcd_batch_fail. */
static int batch_run(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *x, size_t n, size_t limbs,
                     const bulk_gcd_batch_opts *opts, bulk_gcd_batch_stats *stats)
{
    int st;

    gcd_level leaves;
    if ((st = gcd_level_init(&leaves, n)) != BULK_OK) return st;
    leaves.borrowed = 1;
    leaves.data = (bulk_limb_t *)x; /* never written: level 0 is only read */
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        leaves.off[i] = i * limbs;
        leaves.len[i] = bulk_mpn_normalized_size(x + i * limbs, limbs);
        total += leaves.len[i];
    }
    leaves.off[n] = n * limbs;
    leaves.whi = n; /* resident */
    size_t levels = 1;
    for (size_t c = n; c > 1; c = (c + 1) / 2) levels++;
    const bulk_gcd_batch_opts o = opts ? *opts : (bulk_gcd_batch_opts){ 0, NULL, 0, NULL };
    bulk_progress_run pr;
    bulk_progress_start(&pr, ctx, "gcd.batch", "tree levels", 2.0 * (double)(levels - 1) + 1);
    int threads = bulk_ctx_threads(ctx);
    gcd_plan plan;
    gcd_plan_make(&plan, n, levels, (uint64_t)n * limbs * sizeof *x, (uint64_t)total * sizeof *x,
                  threads, o.max_memory, o.force_spill);
    if (stats) {
        stats->levels = levels;
        stats->memory_budget = plan.budget;
        stats->memory_need = plan.need;
        stats->memory_floor = plan.floor;
        stats->over_budget = plan.over_budget;
        stats->groups = plan.groups;
    }
    gcd_spill sp = { o.spill_dir, 0, 0, 0, 0, bulk_ctx_tune(ctx)->gcd_spill_fail_at };
    gcd_ckpt ck, *ckp = NULL;
    if (o.checkpoint_dir) {
        if (plan.groups > 1) { /* the grouped method keeps no levels worth resuming from */
            gcd_level_free(&leaves);
            if (stats) stats->checkpoint_refused = 1;
            return BULK_ERR_UNSUPPORTED;
        }
        st = gcd_ckpt_open(&ck, o.checkpoint_dir, x, n, limbs, sp.fail_at);
        if (st != BULK_OK) {
            if (stats && st == GCD_CKPT_OTHER) stats->checkpoint_mismatch = 1;
            if (stats && st == BULK_ERR_IO) stats->checkpoint_errno = ck.sp.err;
            gcd_ckpt_close(&ck);
            gcd_level_free(&leaves);
            return st == GCD_CKPT_OTHER ? BULK_ERR_ARG : st;
        }
        ckp = &ck;
    }

    if (plan.groups > 1) { /* the whole tree does not fit: groups of inputs (grouped.c) */
        gcd_level_free(&leaves);
        st = gcd_batch_grouped(ctx, g, x, n, limbs, plan.groups, &sp, &pr);
        if (stats) {
            stats->spilled = sp.levels + sp.rem_levels > 0;
            stats->spilled_levels = sp.levels;
            stats->spilled_rem_levels = sp.rem_levels;
            stats->spill_bytes = sp.bytes;
            stats->spill_errno = st == BULK_ERR_IO ? sp.err : 0;
        }
        if (st == BULK_OK) st = bulk_progress_end(&pr);
        return st;
    }
    gcd_tree T;
    bulk_limb_t *R = NULL;
    gcd_level from;
    size_t from_k = levels - 1;
    st = ckp ? resume_values(ckp, &T, &leaves, levels, &from, &from_k) : BULK_OK;
    if (st == BULK_OK && from_k == levels - 1) /* the root is not needed */
        st = gcd_product_tree(&T, &leaves, ctx, plan.keep, 0, &sp, &pr, ckp);
    if (st == BULK_OK) {
        if (from_k < levels - 1) (void)gcd_tree_progress(&pr, 2 * (levels - 1) - from_k, levels);
        /* every spillable product level spilled: the remainder levels are spilled too */
        st = gcd_remainder_tree(&R, limbs, &T, NULL, 0, ctx, plan.keep == 0 && levels > 2, &sp, &pr, ckp,
                                from_k < levels - 1 ? &from : NULL, from_k);
        gcd_tree_free(&T);
    }
    if (ckp) {
        if (stats) {
            stats->checkpoint_levels = ck.read_levels;
            if (st == BULK_ERR_IO) stats->checkpoint_errno = ck.sp.err;
        }
        gcd_ckpt_close(&ck);
    }
    gcd_level_free(&leaves); /* after the trees, whose level 0 is a view of it; borrowed: frees
                              * only off and len */
    if (stats) {
        stats->spilled = sp.levels + sp.rem_levels > 0;
        stats->spilled_levels = sp.levels;
        stats->spilled_rem_levels = sp.rem_levels;
        stats->spill_bytes = sp.bytes;
        stats->spill_errno = st == BULK_ERR_IO ? sp.err : 0;
    }
    if (st == BULK_OK) st = bulk_int_gcd(ctx, g, x, R, n, limbs); /* R_i = (P / x_i) mod x_i */
    if (st == BULK_OK) st = bulk_progress_end(&pr);
    free(R);
    return st;
}
