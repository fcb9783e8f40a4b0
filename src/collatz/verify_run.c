/* The threaded CPU range driver of `verify`: the range is cut into chunks aligned to
 * 2^max(k + kx, 22) numbers (kx: the sieve extension, sieve_ext.c); waves of chunks run on the
 * context's threads (bulk_parallel_for), and their results are merged in chunk order, so the
 * totals never depend on the thread count.
 * Between waves the done prefix and its totals are checkpointed every few seconds.
 * On a CUDA context a wave is one aligned block of 2^max(k + 12, 44, K + 6) numbers (capped by the
 * range) handed to the CUDA table's verify_chunk, which spreads it over the context's GPUs; the
 * result is the same because every field of a result merges independently of the split. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/checkpoint.h"
#include "collatz/collatz_internal.h"
#include "collatz/collatz_backend.h"
#include "common/parallel.h"
#include "progress_line.h" /* bulk_now */


static inline u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static inline bulk_u128 from128(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

struct wave {
    bulk_ctx *ctx;
    const bulk_collatz_engine *e;
    u128 start, last; /* the wave covers [start, last] */
    int shift;        /* chunk alignment 2^shift */
    bulk_collatz_verify_result *res;
    int *status;
};

/* Chunk c of the wave: from max(start, aligned) to the next boundary - 1, capped at last. */
static void chunk_bounds(const struct wave *w, size_t c, u128 *a, u128 *b)
{
    u128 align = (u128)1 << w->shift;
    u128 base = (w->start >> w->shift) << w->shift;
    u128 lo = base + (u128)c * align;
    u128 hi = lo + align - 1;
    if (lo < w->start) lo = w->start;
    if (hi > w->last || hi < lo) hi = w->last;
    *a = lo;
    *b = hi;
}

static void run_chunks(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct wave *w = arg;
    for (size_t c = begin; c < end; c++) {
        u128 a, b;
        chunk_bounds(w, c, &a, &b);
        w->status[c] = w->ctx->cpu->collatz->verify_chunk(w->ctx, w->e, from128(a), from128(b), &w->res[c]);
    }
}

/* Pre-drop peaks on the GPU with nothing known yet: the largest pre-drop peak of the 2^28
 * numbers from `first` on the context's CPU threads (a sample only: the GPU covers them again),
 * halved in convergence mode, where the GPU leaves out numbers that the sample's blocks iterate.
 * The GPU's first launches escape a number to the host when a state could beat it (peak.h), so
 * a small seed would send most of them there; the CUDA entry checks that its maximum reached
 * the seed. 0 on failure (the CUDA entry then finds a threshold itself). */
static bulk_collatz_wide peak_seed(bulk_ctx *ctx, const bulk_collatz_engine *e, u128 first, u128 last)
{
    bulk_collatz_wide seed;
    memset(&seed, 0, sizeof seed);
    const int shift = 22;
    u128 sl = first + ((u128)1 << 28) - 1;
    if (sl > last || sl < first) sl = last;
    const size_t nch = (size_t)((sl >> shift) - (first >> shift) + 1);
    bulk_collatz_verify_result *res = malloc(nch * sizeof *res);
    int *status = malloc(nch * sizeof *status);
    if (res && status) {
        struct wave w = { ctx, e, first, sl, shift, res, status };
        bulk_parallel_for(bulk_ctx_threads(ctx), nch, 1, run_chunks, &w);
        bulk_collatz_verify_result m;
        bulk_collatz_verify_result_init(&m);
        size_t c = 0;
        for (; c < nch && status[c] == BULK_OK; c++) bulk_collatz_verify_result_merge(&m, &res[c]);
        if (c == nch) seed = m.peak;
        if (e->conv)
            for (int i = 0; i < BULK_COLLATZ_WIDE_LIMBS; i++)
                seed.limb[i] = seed.limb[i] >> 1 | (i + 1 < BULK_COLLATZ_WIDE_LIMBS ? seed.limb[i + 1] << 63 : 0);
    }
    free(res);
    free(status);
    return seed;
}

int bulk_cz_gpu_wave_shift(const bulk_collatz_engine *e)
{
    /* large enough to keep the GPUs busy for a second or more, and 64 blocks of the generated
     * sieve's 2^K (a call's rows per sieve entry: on an H200 the rate per iterated number fell
     * from 3.6e10/s at 32 rows to 2.7e10 at 4) */
    const int K = e->k + e->kx;
    int shift = e->k + 12 > 44 ? e->k + 12 : 44;
    return K + 6 > shift ? K + 6 : shift;
}

static const char verify_fn[] = "bulk_collatz_verify";

/* The checkpoint could not be written: the message names the file and the cause. */
static int ckpt_write_failed(const bulk_ctx *ctx, const char *path)
{
    return bulk_fail(ctx, BULK_ERR_IO, "%s: checkpoint %s: cannot write it: %s", verify_fn, path,
                     strerror(errno ? errno : EIO));
}

int bulk_collatz_verify(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                        bulk_u128 last, const bulk_collatz_run_opts *opts,
                        bulk_collatz_verify_result *out)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: is NULL", verify_fn);
    if (!e) return bulk_fail(ctx, BULK_ERR_ARG, "%s: e: is NULL", verify_fn);
    if (!out) return bulk_fail(ctx, BULK_ERR_ARG, "%s: out: is NULL", verify_fn);
    if (cz_is_zero(first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: first: must be at least 1", verify_fn);
    if (cz_lt(last, first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: last: is below first", verify_fn);
    bulk_collatz_run_opts none = { 0 };
    if (!opts) opts = &none;
    const char *identity = opts->identity ? opts->identity : "";
    double every = opts->checkpoint_every > 0 ? opts->checkpoint_every : 5.0;
    bulk_collatz_verify_result_init(out);
    u128 next = to128(first), end = to128(last);
    int done = 0;
    if (opts->checkpoint) {
        bulk_u128 nx;
        int st = bulk_cz_checkpoint_read(ctx, verify_fn, opts->checkpoint, identity, e->peaks, &nx, out);
        if (st < 0) return st == BULK_ERR_PARSE ? BULK_ERR_ARG : st;
        if (st == BULK_OK) {
            next = to128(nx);
            if (next < to128(first) || (next > end + 1 && end + 1 != 0))
                return bulk_fail(ctx, BULK_ERR_ARG, "%s: checkpoint %s: next is outside the range",
                                 verify_fn, opts->checkpoint);
            if (next == end + 1) done = 1;
            if (end + 1 == 0 && next == 0) done = 1; /* the range ended at 2^128 - 1 */
        } else if (bulk_cz_checkpoint_write(opts->checkpoint, identity, first, e->peaks, out) != BULK_OK) {
            /* a fresh run: prove now that the checkpoint can be written */
            return ckpt_write_failed(ctx, opts->checkpoint);
        }
    }
    int threads = bulk_ctx_threads(ctx);
    /* a CUDA context, unless peaks are asked of a GPU table that cannot give them */
    int gpu = ctx->gpu != NULL && (!e->peaks || ctx->gpu->collatz->verify_chunk_peaks);
    /* chunks hold whole blocks of the largest level (k + kx with a sieve extension) */
    const int K = e->k + e->kx;
    int shift = K > 22 ? K : 22;
    /* 4 chunks per thread and wave, 1 when a chunk is 2^34 or more (a few seconds of one
     * thread: waves, progress and checkpoints stay a few tens of seconds apart at k = 37) */
    size_t per_wave = (size_t)threads * (shift >= 34 ? 1 : 4);
    if (gpu) {
        shift = bulk_cz_gpu_wave_shift(e);
        per_wave = 1;
    }
    bulk_collatz_verify_result *res = malloc(per_wave * sizeof *res);
    int *status = malloc(per_wave * sizeof *status);
    if (!res || !status) {
        free(res);
        free(status);
        return bulk_fail(ctx, BULK_ERR_NOMEM, "%s: wave of %zu chunks: out of memory", verify_fn, per_wave);
    }
    bulk_progress_run prog;
    double total = (double)(end - to128(first)) + 1.0;
    int st = bulk_progress_start(&prog, ctx, "collatz.verify", "numbers", total);
    if (st == BULK_OK) st = bulk_progress_step(&prog, (double)(next - to128(first)), 1);
    double last_ckpt = bulk_now();
    if (st != BULK_OK) done = 1; /* cancelled at the start: the checkpoint is as it was */
    while (!done) {
        /* the wave: up to per_wave chunks starting at next */
        u128 align = (u128)1 << shift;
        u128 base = (next >> shift) << shift;
        u128 span = (u128)per_wave * align; /* per_wave chunks from base */
        u128 wlast = base + span - 1;
        if (wlast > end || wlast < base) wlast = end;
        size_t nch = (size_t)(((wlast >> shift) - (next >> shift)) + 1);
        if (gpu) {
            nch = 1;
            /* with peaks, the maximum of the waves before (and of a resumed checkpoint) spares
             * the GPU the numbers that cannot beat it */
            const bulk_collatz_wide *floor = cz_is_zero(out->peak_n) ? NULL : &out->peak;
            bulk_collatz_wide seed;
            if (e->peaks && !floor) seed = peak_seed(ctx, e, next, wlast);
            status[0] = e->peaks ? ctx->gpu->collatz->verify_chunk_peaks(ctx, e, from128(next), from128(wlast), floor,
                                                                         floor ? NULL : &seed, &res[0])
                                 : ctx->gpu->collatz->verify_chunk(ctx, e, from128(next), from128(wlast), &res[0]);
        } else {
            struct wave w = { ctx, e, next, wlast, shift, res, status };
            bulk_parallel_for(threads, nch, 1, run_chunks, &w);
        }
        for (size_t c = 0; c < nch; c++) {
            if (status[c] != BULK_OK) st = status[c];
            else bulk_collatz_verify_result_merge(out, &res[c]);
        }
        if (st != BULK_OK) {
            st = bulk_cz_fail_status(ctx, st, verify_fn, gpu ? "GPU wave" : "chunk");
            break;
        }
        if (wlast == end) done = 1;
        next = wlast + 1;
        /* a cancel stops here, after the wave was merged: the checkpoint below holds it */
        int cancel = bulk_progress_step(&prog, (double)(next - to128(first)), 1);
        double now = bulk_now();
        if (opts->checkpoint && (done || cancel || now - last_ckpt >= every)) {
            if (bulk_cz_checkpoint_write(opts->checkpoint, identity, from128(next), e->peaks, out) != BULK_OK) {
                st = ckpt_write_failed(ctx, opts->checkpoint);
                break;
            }
            last_ckpt = now;
        }
        if (cancel) {
            st = cancel;
            break;
        }
    }
    free(res);
    free(status);
    if (st == BULK_OK) st = bulk_progress_end(&prog);
    if (st == BULK_OK && out->peak_hits_lost)
        return bulk_fail(ctx, BULK_ERR_OVERFLOW, "%s: peak hits: more than %d numbers beat the above value and all "
                         "smaller ones (%u not kept): give a larger above value",
                         verify_fn, BULK_COLLATZ_PEAK_KEEP, out->peak_hits_lost);
    if (st == BULK_ERR_CANCELLED)
        return bulk_fail(ctx, st, "%s: range: cancelled by the progress callback", verify_fn);
    return st;
}
