/* Resumable records and delays runs (bulk_collatz_records_run, bulk_collatz_delays_run): a
 * range cut into pieces, each piece one call of the records / delays driver, the running state
 * (next number, records so far, bytes of the caller's output) saved between pieces in a run
 * state file (runstate.h) that a rerun with the same identity resumes from. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"
#include "collatz/peak.h"
#include "collatz/runstate.h"
#include "progress_line.h" /* bulk_now */

static inline u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static inline bulk_u128 from128(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

static const char records_fn[] = "bulk_collatz_records_run", delays_fn[] = "bulk_collatz_delays_run";
static const char part_fn[] = "bulk_collatz_records_part_run";

/* What a run keeps between pieces. */
struct run {
    bulk_ctx *ctx;
    const char *fn, *ckpt;
    char identity[512];
    double every, last_save;
    bulk_cz_runstate s;
};

static int save(struct run *r)
{
    if (bulk_cz_runstate_write(r->ckpt, r->identity, &r->s) != BULK_OK)
        return bulk_fail(r->ctx, BULK_ERR_IO, "%s: checkpoint %s: cannot write it: %s", r->fn, r->ckpt,
                         strerror(errno ? errno : EIO));
    r->last_save = bulk_now();
    return BULK_OK;
}

/* Sets up the run: its identity (the caller's or `deflt`), and with a checkpoint the state read
 * from it (BULK_OK, *resumed = 1) or a fresh state (*resumed = 0; written by the caller once its
 * output is ready). */
static int run_open(struct run *r, bulk_ctx *ctx, const char *fn, const bulk_collatz_run_opts *opts,
                    const char *deflt, bulk_u128 first, bulk_u128 last, int *resumed)
{
    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->fn = fn;
    r->ckpt = opts ? opts->checkpoint : NULL;
    r->every = opts && opts->checkpoint_every > 0 ? opts->checkpoint_every : 5.0;
    r->s.next = first;
    *resumed = 0;
    const char *id = opts && opts->identity ? opts->identity : deflt;
    if (strlen(id) >= sizeof r->identity || strchr(id, '\n'))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: identity: longer than %zu bytes or more than one line", fn,
                         sizeof r->identity - 1);
    strcpy(r->identity, id);
    if (!r->ckpt) return BULK_OK;
    int st = bulk_cz_runstate_read(ctx, fn, r->ckpt, r->identity, &r->s);
    if (st == 1) {
        r->s.next = first;
        return BULK_OK;
    }
    if (st < 0) return st == BULK_ERR_PARSE ? BULK_ERR_ARG : st;
    u128 next = to128(r->s.next), end = to128(last);
    if (next < to128(first) || (next > end + 1 && end + 1 != 0)) {
        free(r->s.recs);
        r->s.recs = NULL;
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: checkpoint %s: next is outside the range", fn, r->ckpt);
    }
    *resumed = 1;
    return BULK_OK;
}

/* After a piece: progress; a checkpoint when due, at the end or on a cancel. */
static int run_step(struct run *r, bulk_progress_run *pr, double done, int end, int (*sync)(void *, uint64_t *),
                    void *user)
{
    int cancel = bulk_progress_step(pr, done, 1);
    if (r->ckpt && (end || cancel || bulk_now() - r->last_save >= r->every)) {
        if (sync) {
            uint64_t bytes;
            int st = sync(user, &bytes);
            if (st) return st;
            r->s.out_bytes = bytes;
        }
        int st = save(r);
        if (st) return st;
    }
    return cancel;
}

/* The status of a run that stopped: the message for a cancel or a failure without one. */
static int run_failed(struct run *r, int st, const char *what)
{
    if (st == BULK_ERR_CANCELLED)
        return bulk_fail(r->ctx, st, "%s: range: cancelled by the progress callback", r->fn);
    if (st == BULK_ERR_IO || st == BULK_ERR_ARG) return st; /* the message is set */
    if (st == BULK_ERR_OVERFLOW)
        return bulk_fail(r->ctx, st, "%s: %s: a value does not fit its type (peak past 2^256 or delay past 2^32)",
                         r->fn, what);
    return bulk_cz_fail_status(r->ctx, st, r->fn, what);
}

/* bulk_collatz_records_run, with above (kind PATH) bulk_collatz_path_records_run, and with
 * origin below first a part of a run from origin (bulk_collatz_records_part_run) */
static int records_run(bulk_ctx *ctx, const char *fn, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                       bulk_u128 origin, bulk_u128 first, bulk_u128 last, const bulk_collatz_wide *above,
                       const bulk_collatz_run_opts *opts, bulk_collatz_record **recs, size_t *count)
{
    int st = bulk_cz_records_check(ctx, fn, e, kind, first, last);
    if (st) return st;
    if (!recs || !count) return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s: is NULL", fn, !recs ? "recs" : "count");
    if (cz_is_zero(origin) || cz_lt(first, origin))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: origin: must be at least 1 and at most first", fn);
    if (above && kind != BULK_COLLATZ_PATH)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: above: applies to path records only", fn);
    *recs = NULL;
    *count = 0;
    char deflt[256], f[48], l[48];
    bulk_cz_u128_str(first, f);
    bulk_cz_u128_str(last, l);
    static const char *const kinds[] = { "delay", "glide", "path" };
    char ab[BULK_CZ_WIDE_STR + 8] = "";
    if (above) {
        strcpy(ab, " above=");
        bulk_cz_wide_str(above, ab + 7);
    }
    char og[56] = "";
    if (cz_lt(origin, first)) {
        strcpy(og, " origin=");
        bulk_cz_u128_str(origin, og + 8);
    }
    snprintf(deflt, sizeof deflt, "collatz records kind=%s first=%s last=%s d=%d a=%d%s%s", kinds[kind], f, l,
             e->d, e->a, ab, og);
    struct run r;
    int resumed;
    if ((st = run_open(&r, ctx, fn, opts, deflt, first, last, &resumed)) != BULK_OK) return st;
    if (above && !r.s.have_best) {
        r.s.best = *above;
        r.s.have_best = 1;
    }
    size_t cap = r.s.nrecs;
    if (r.ckpt && !resumed && (st = save(&r)) != BULK_OK) return st;
    u128 next = to128(r.s.next), end = to128(last), lo = to128(first);
    /* slices of 2^24 numbers per CPU thread, 2^34 for delay records on a GPU context: a few
     * seconds each (path and glide records on a GPU: below) */
    u128 slice = opts && opts->piece ? (u128)opts->piece
                 : bulk_ctx_backend(ctx) == BULK_BACKEND_CUDA && kind == BULK_COLLATZ_DELAY ? (u128)1 << 34
                                                                                          : (u128)bulk_ctx_threads(ctx) << 24;
    /* path records on the CPU: one wave of chunks (records_path.c) per piece */
    if (kind == BULK_COLLATZ_PATH && !(opts && opts->piece))
        slice = (u128)bulk_ctx_threads(ctx) << (e->Sr && e->k + 3 > 25 ? e->k + 3 : 25);
    bulk_progress_run pr;
    st = bulk_progress_start(&pr, ctx, "collatz.records", "numbers", (double)(end - lo) + 1.0);
    if (st == BULK_OK) st = bulk_progress_step(&pr, (double)(next - lo), 1);
    int done = next == end + 1;
    while (!done && st == BULK_OK) {
        /* path and glide records on a CUDA context, once a running maximum exists: the GPU
         * verify, a call of its own wave size per piece (records_gpu.c) */
        const bulk_collatz_wide *best = r.s.have_best ? &r.s.best : NULL;
        const int gpu = bulk_cz_records_gpu_takes(ctx, e, kind, origin, from128(next), best, above != NULL);
        const u128 sl = gpu && !(opts && opts->piece) ? (u128)1 << bulk_cz_gpu_wave_shift(e) : slice;
        /* path records and GPU pieces end on multiples of the piece size, so that the sieve
         * blocks of 2^k inside them stay aligned (records_path.c; 1 + 2^24 would otherwise shift
         * them) */
        u128 hi = kind == BULK_COLLATZ_PATH || gpu ? (next / sl + 1) * sl - 1 : next + sl - 1;
        if (hi > end || hi < next) hi = end;
        bulk_collatz_record *rp;
        size_t m;
        /* the engines see the run's origin: path records decide by pre-drop peaks from 2 origin
         * on, delay records exclude numbers with a predecessor from origin on */
        if (gpu)
            st = bulk_cz_records_gpu(ctx, e, kind, from128(next), from128(hi), best, &rp, &m);
        else if (kind == BULK_COLLATZ_PATH)
            st = bulk_cz_path_records(ctx, e, origin, from128(next), from128(hi), best, above != NULL, &rp, &m,
                                      NULL, 0);
        else
            st = bulk_cz_records(ctx, e, kind, origin, from128(next), from128(hi), &rp, &m, NULL, 0);
        if (st) break;
        /* a record of the range is listed by its slice (bulk_collatz_records_part_run): filter
         * against the running maximum */
        for (size_t i = 0; i < m && st == BULK_OK; i++) {
            if (r.s.have_best && cz_wide_cmp(&rp[i].value, &r.s.best) <= 0) continue;
            if (r.s.nrecs == cap) {
                size_t nc = cap ? 2 * cap : 64;
                bulk_collatz_record *q = realloc(r.s.recs, nc * sizeof *q);
                if (!q) {
                    st = BULK_ERR_NOMEM;
                    break;
                }
                r.s.recs = q;
                cap = nc;
            }
            r.s.recs[r.s.nrecs++] = rp[i];
            r.s.best = rp[i].value;
            r.s.have_best = 1;
        }
        free(rp);
        if (st) break;
        done = hi == end;
        next = hi + 1;
        r.s.next = from128(next);
        st = run_step(&r, &pr, (double)(next - lo), done, NULL, NULL);
    }
    if (st == BULK_OK) st = bulk_progress_end(&pr);
    if (st != BULK_OK) {
        free(r.s.recs);
        return run_failed(&r, st, "range");
    }
    *recs = r.s.recs;
    *count = r.s.nrecs;
    return BULK_OK;
}

int bulk_collatz_records_run(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                             bulk_u128 first, bulk_u128 last, const bulk_collatz_run_opts *opts,
                             bulk_collatz_record **recs, size_t *count)
{
    return records_run(ctx, records_fn, e, kind, first, first, last, NULL, opts, recs, count);
}

int bulk_collatz_path_records_run(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                  bulk_u128 last, const bulk_collatz_wide *above,
                                  const bulk_collatz_run_opts *opts, bulk_collatz_record **recs,
                                  size_t *count)
{
    return records_run(ctx, records_fn, e, BULK_COLLATZ_PATH, first, first, last, above, opts, recs, count);
}

/* Why the lists of parts merge exactly. value(n) is the delay, the glide, or for path records
 * the whole peak below 2 origin and the pre-drop peak from there on (everywhere with above):
 * the rule of the whole range, whichever part n lies in. A part's list holds every n of the
 * part whose value beats all values of [origin, n) (the engines skip only numbers that some
 * smaller number of the part ties or beats, or, by the exclusions of delay records and the
 * convergence-mode sieve of path records, some smaller number from origin on), each with its
 * value. Read in order with a running maximum over what was kept: every record of the range is
 * kept, as it beats all smaller numbers; the largest value of [origin, n) belongs to a record,
 * which was kept, so the maximum before n is exactly that and no non-record is kept.
 * For path records the records of value are the path records: n >= 2 origin drops to some
 * v in [origin, n), whose whole peak is at most the largest value of [origin, v] (induction),
 * so n's whole peak beats every smaller number's exactly when its pre-drop peak does, and
 * then the two are equal. A non-record's pre-drop peak may lie below its whole peak; it is
 * never kept either way. */
int bulk_collatz_records_part_run(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                                  bulk_u128 origin, bulk_u128 first, bulk_u128 last,
                                  const bulk_collatz_wide *above, const bulk_collatz_run_opts *opts,
                                  bulk_collatz_record **recs, size_t *count)
{
    return records_run(ctx, part_fn, e, kind, origin, first, last, above, opts, recs, count);
}

/* The pieces of a delays run: where the next one ends. On the CPU a piece ends on a multiple
 * of its size in n (2^22 numbers, or for statistics about 2^24 in whole batches) so that it
 * holds whole merge-class blocks; on a GPU a piece is larger (2^25 numbers, or 2^34 in whole
 * batches) so that one call fills the devices and pays its set-up once. */
static uint64_t piece_len(int gpu, uint64_t batch, uint64_t piece, u128 s, uint64_t left)
{
    uint64_t m;
    if (piece) {
        m = batch ? (piece + batch - 1) / batch : piece;
    } else if (!batch) {
        const uint64_t p = (uint64_t)1 << (gpu ? 25 : 22);
        m = p - (uint64_t)(s & (p - 1));
    } else if (gpu) {
        m = ((uint64_t)1 << 34) / batch + 1;
    } else {
        const u128 step = (u128)1 << 24;
        u128 gap = ((s >> 24) + 1) * step - s;
        if (gap < batch) gap += step;
        m = (uint64_t)(gap / batch);
    }
    return m < left ? m : left;
}

int bulk_collatz_delays_run(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                            bulk_u128 last, uint64_t batch, const bulk_collatz_run_opts *opts,
                            const bulk_collatz_delays_sink *sink)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: is NULL", delays_fn);
    if (!e) return bulk_fail(ctx, BULK_ERR_ARG, "%s: e: is NULL", delays_fn);
    if (e->a == 0) return bulk_fail(ctx, BULK_ERR_ARG, "%s: e: the engine has no delay table (a = 0)", delays_fn);
    if (!sink || !sink->begin || !sink->put)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: sink: is NULL or lacks begin or put", delays_fn);
    if (opts && opts->checkpoint && !sink->sync)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: sink: a checkpoint needs sync", delays_fn);
    if (cz_is_zero(first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: first: must be at least 1", delays_fn);
    if (cz_lt(last, first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: last: is below first", delays_fn);
    u128 F = to128(first), len = to128(last) - F + 1;
    if (len == 0 || (len >> 64))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: last: the range holds 2^64 numbers or more", delays_fn);
    if (batch && len % batch)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: batch %llu: does not divide the range length", delays_fn,
                         (unsigned long long)batch);
    const uint64_t total = (uint64_t)len;
    char deflt[256], f[48], l[48];
    bulk_cz_u128_str(first, f);
    bulk_cz_u128_str(last, l);
    snprintf(deflt, sizeof deflt, "collatz delays first=%s last=%s stats=%llu d=%d a=%d", f, l,
             (unsigned long long)batch, e->d, e->a);
    struct run r;
    int resumed, st;
    if ((st = run_open(&r, ctx, delays_fn, opts, deflt, first, last, &resumed)) != BULK_OK) return st;
    free(r.s.recs); /* a delays state holds no records */
    r.s.recs = NULL;
    r.s.nrecs = 0;
    uint64_t done = (uint64_t)(to128(r.s.next) - F); /* a multiple of batch: pieces are whole batches */
    if (batch && done % batch)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: checkpoint %s: next does not start a batch", delays_fn, r.ckpt);
    if ((st = sink->begin(sink->user, done, resumed ? r.s.out_bytes : 0)) != BULK_OK) return run_failed(&r, st, "output");
    if (r.ckpt && !resumed) {
        r.s.out_bytes = 0;
        if ((st = save(&r)) != BULK_OK) return st;
    }
    const int gpu = bulk_ctx_backend(ctx) == BULK_BACKEND_CUDA;
    const uint64_t piece = opts ? opts->piece : 0;
    /* the buffers hold the largest piece piece_len gives */
    uint64_t cap = piece ? (batch ? (piece + batch - 1) / batch : piece)
                   : !batch ? (uint64_t)1 << (gpu ? 25 : 22)
                   : gpu    ? ((uint64_t)1 << 34) / batch + 1
                            : ((uint64_t)1 << 24) / batch + 2;
    const uint64_t units = batch ? total / batch : total;
    if (cap > units) cap = units;
    uint32_t *dl = batch ? NULL : malloc(cap * sizeof *dl);
    uint64_t *sum = batch ? malloc(cap * sizeof *sum) : NULL;
    uint32_t *mn = batch ? malloc(cap * sizeof *mn) : NULL, *mx = batch ? malloc(cap * sizeof *mx) : NULL;
    bulk_progress_run pr;
    if (batch ? !sum || !mn || !mx : !dl) st = BULK_ERR_NOMEM;
    if (st == BULK_OK)
        st = bulk_progress_start(&pr, ctx, batch ? "collatz.delay_stats" : "collatz.delays", "numbers", (double)total);
    if (st == BULK_OK) st = bulk_progress_step(&pr, (double)done, 1);
    /* a resumed run that was complete: only the final checkpoint again */
    if (st == BULK_OK && done == total) st = run_step(&r, &pr, (double)total, 1, sink->sync, sink->user);
    while (st == BULK_OK && done < total) {
        u128 s = F + done;
        uint64_t m = piece_len(gpu, batch, piece, s, batch ? (total - done) / batch : total - done);
        bulk_collatz_delays_piece pc = { from128(s), m, dl, sum, mn, mx };
        st = batch ? bulk_cz_delay_stats(ctx, e, from128(s), batch, m, sum, mn, mx, NULL, 0)
                   : bulk_cz_delays(ctx, e, from128(s), m, dl, NULL, 0);
        if (st == BULK_OK) st = sink->put(sink->user, &pc);
        if (st != BULK_OK) break;
        done += batch ? m * batch : m;
        r.s.next = from128(F + done);
        st = run_step(&r, &pr, (double)done, done == total, sink->sync, sink->user);
    }
    free(dl);
    free(sum);
    free(mn);
    free(mx);
    if (st == BULK_OK) st = bulk_progress_end(&pr);
    return st == BULK_OK ? st : run_failed(&r, st, "range");
}
