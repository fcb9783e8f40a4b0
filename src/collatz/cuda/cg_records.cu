/* Delay records on the GPUs: bulk_collatz_records(kind = DELAY) with the same result.
 *
 * A record is an n whose delay beats every smaller n of the range. The GPUs compute the
 * maximum delay of every batch of 2^16 numbers (bulk_collatz_cuda_delay_stats); the host walks
 * the batches in order with the running maximum and, only for a batch whose maximum beats it,
 * fetches that batch's delays (bulk_collatz_cuda_delays) and scans them. Records thin out fast
 * (about 2 log n of them up to n), so nearly all batches are settled by their maximum alone. */
#include <stdlib.h>
#include <string.h>

#include "collatz/cuda/cg_host.h"
#include "collatz/cuda/cg_plan.h"

namespace {

const uint64_t kBatch = (uint64_t)1 << 16;
const uint64_t kBatchesPerCall = (uint64_t)1 << 14; /* 2^30 numbers per GPU call */

struct rec_list {
    bulk_collatz_record *r;
    size_t n, cap;
};

int push(rec_list &l, u128 n, uint32_t v)
{
    if (l.n == l.cap) {
        size_t nc = l.cap ? 2 * l.cap : 64;
        bulk_collatz_record *p = (bulk_collatz_record *)realloc(l.r, nc * sizeof *p);
        if (!p) return BULK_ERR_NOMEM;
        l.r = p;
        l.cap = nc;
    }
    l.r[l.n].n = cg_u_of(n);
    l.r[l.n].value = bulk_collatz_wide{ { (uint64_t)v, 0, 0, 0 } }; /* a delay: limb 0 */
    l.n++;
    return BULK_OK;
}

/* Scans the delays of [first, first + count) in order against the running maximum. */
int scan(bulk_ctx *ctx, const bulk_collatz_engine *e, u128 first, uint64_t count, uint32_t *buf, rec_list &l,
         int &have, uint32_t &best)
{
    int st = bulk_collatz_cuda_delays(ctx, e, cg_u_of(first), count, buf);
    if (st) return st;
    for (uint64_t i = 0; i < count; i++)
        if (!have || buf[i] > best) {
            if ((st = push(l, first + i, buf[i]))) return st;
            best = buf[i];
            have = 1;
        }
    return BULK_OK;
}

} // namespace

extern "C" int bulk_collatz_cuda_records(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                                         bulk_u128 first, bulk_u128 last,
                                         bulk_collatz_record **recs, size_t *count)
{
    if (!e || !recs || !count || (first.lo == 0 && first.hi == 0) || cz_lt(last, first))
        return BULK_ERR_ARG;
    if (kind != BULK_COLLATZ_DELAY) return BULK_ERR_UNSUPPORTED; /* glide, path: the CPU */
    if (e->a == 0) return BULK_ERR_ARG;
    if (cg_devices(ctx, e) == 0) return BULK_ERR_NO_BACKEND;
    *recs = NULL;
    *count = 0;
    const u128 lo = cg_w_of(first), hi = cg_w_of(last);
    if (hi - lo >= ((u128)1 << 64) - 1) return BULK_ERR_ARG; /* too long to enumerate */
    rec_list l = { NULL, 0, 0 };
    uint32_t *buf = (uint32_t *)malloc(kBatch * sizeof *buf);
    uint64_t *sum = (uint64_t *)malloc(kBatchesPerCall * sizeof *sum);
    uint32_t *mn = (uint32_t *)malloc(kBatchesPerCall * sizeof *mn);
    uint32_t *mx = (uint32_t *)malloc(kBatchesPerCall * sizeof *mx);
    int st = (buf && sum && mn && mx) ? BULK_OK : BULK_ERR_NOMEM;
    int have = 0;
    uint32_t best = 0;
    u128 cur = lo;
    const u128 total = hi - lo + 1;
    const u128 whole = total / kBatch; /* whole batches; the rest is scanned directly */
    for (u128 b0 = 0; st == BULK_OK && b0 < whole;) {
        uint64_t nb = whole - b0 < kBatchesPerCall ? (uint64_t)(whole - b0) : kBatchesPerCall;
        st = bulk_collatz_cuda_delay_stats(ctx, e, cg_u_of(cur), kBatch, nb, sum, mn, mx);
        for (uint64_t b = 0; st == BULK_OK && b < nb; b++)
            if (!have || mx[b] > best) st = scan(ctx, e, cur + (u128)b * kBatch, kBatch, buf, l, have, best);
        cur += (u128)nb * kBatch;
        b0 += nb;
    }
    const uint64_t rest = (uint64_t)(total - whole * kBatch);
    if (st == BULK_OK && rest) st = scan(ctx, e, cur, rest, buf, l, have, best);
    free(buf);
    free(sum);
    free(mn);
    free(mx);
    if (st != BULK_OK) {
        free(l.r);
        return st;
    }
    *recs = l.r;
    *count = l.n;
    return BULK_OK;
}
