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
#include "progress_line.h"


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

int bulk_collatz_verify(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                        bulk_u128 last, const bulk_collatz_run_opts *opts,
                        bulk_collatz_verify_result *out)
{
    if (!ctx || !e || !out || cz_is_zero(first) || cz_lt(last, first)) return BULK_ERR_ARG;
    bulk_collatz_run_opts none = { 0 };
    if (!opts) opts = &none;
    const char *identity = opts->identity ? opts->identity : "";
    double every = opts->checkpoint_every > 0 ? opts->checkpoint_every : 5.0;
    bulk_collatz_verify_result_init(out);
    u128 next = to128(first), end = to128(last);
    int done = 0;
    if (opts->checkpoint) {
        bulk_u128 nx;
        int st = bulk_cz_checkpoint_read(opts->checkpoint, identity, &nx, out);
        if (st < 0) return st == BULK_ERR_PARSE ? BULK_ERR_ARG : st;
        if (st == BULK_OK) {
            next = to128(nx);
            if (next < to128(first) || (next > end + 1 && end + 1 != 0)) {
                bulk_cz_set_error("checkpoint %s: next is outside the range", opts->checkpoint);
                return BULK_ERR_ARG;
            }
            if (next == end + 1) done = 1;
            if (end + 1 == 0 && next == 0) done = 1; /* the range ended at 2^128 - 1 */
        } else {
            /* a fresh run: prove now that the checkpoint can be written */
            if (bulk_cz_checkpoint_write(opts->checkpoint, identity, first, out) != BULK_OK) {
                bulk_cz_set_error("cannot write the checkpoint file %s: %s", opts->checkpoint,
                                  strerror(errno ? errno : EIO));
                return BULK_ERR_IO;
            }
        }
    }
    int threads = bulk_ctx_threads(ctx);
    int gpu = ctx->gpu != NULL; /* a CUDA context */
    /* chunks hold whole blocks of the largest level (k + kx with a sieve extension) */
    const int K = e->k + e->kx;
    int shift = K > 22 ? K : 22;
    /* 4 chunks per thread and wave, 1 when a chunk is 2^34 or more (a few seconds of one
     * thread: waves, progress and checkpoints stay a few tens of seconds apart at k = 37) */
    size_t per_wave = (size_t)threads * (shift >= 34 ? 1 : 4);
    if (gpu) {
        /* one GPU call per wave: large enough to keep the GPUs busy for a second or more, and
         * 64 blocks of the generated sieve's 2^K (a call's rows per sieve entry: on an H200 the rate per iterated number fell from 3.6e10/s at 32 rows to 2.7e10 at 4) */
        shift = e->k + 12 > 44 ? e->k + 12 : 44;
        if (K + 6 > shift) shift = K + 6;
        per_wave = 1;
    }
    bulk_collatz_verify_result *res = malloc(per_wave * sizeof *res);
    int *status = malloc(per_wave * sizeof *status);
    if (!res || !status) {
        free(res);
        free(status);
        return BULK_ERR_NOMEM;
    }
    progress_line prog;
    double total = (double)(end - to128(first)) + 1.0;
    progress_line_init(&prog, "collatz verify", total);
    if (!opts->progress) prog.enabled = 0;
    double last_ckpt = bulk_now();
    int st = BULK_OK;
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
            status[0] = ctx->gpu->collatz->verify_chunk(ctx, e, from128(next), from128(wlast), &res[0]);
        } else {
            struct wave w = { ctx, e, next, wlast, shift, res, status };
            bulk_parallel_for(threads, nch, 1, run_chunks, &w);
        }
        for (size_t c = 0; c < nch; c++) {
            if (status[c] != BULK_OK) st = status[c];
            else bulk_collatz_verify_result_merge(out, &res[c]);
        }
        if (st != BULK_OK) break;
        if (wlast == end) done = 1;
        next = wlast + 1;
        progress_line_update(&prog, (double)(next - to128(first)));
        double now = bulk_now();
        if (opts->checkpoint && (done || now - last_ckpt >= every)) {
            if (bulk_cz_checkpoint_write(opts->checkpoint, identity, from128(next), out) !=
                BULK_OK) {
                bulk_cz_set_error("cannot write the checkpoint file %s: %s", opts->checkpoint,
                                  strerror(errno ? errno : EIO));
                st = BULK_ERR_IO;
                break;
            }
            last_ckpt = now;
        }
    }
    progress_line_finish(&prog);
    free(res);
    free(status);
    return st;
}
