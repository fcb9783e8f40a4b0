/* Delays on the GPUs (seed 004 section 5.4, Algorithm 2; seed 003 sections 4-9): every n of a
 * range, table steps B, C, J while the value is >= 2^a, then the delay table A (seed 003's
 * "large table in global memory", option 5: B, C, J in shared memory, A in global memory).
 * Bit-identical to bulk_collatz_delays / bulk_collatz_delay_stats: the kernels run cg_delay
 * (cg_core.h, mirrors cz_delay) or cz_delay itself; a number whose value would leave 128 bits
 * escapes to the host, which computes its delay on the engine's exact path.
 *
 * Layouts: OUT writes one u32 per number (coalesced); BATCH_BLOCK gives a batch of >= 256
 * numbers to a thread block (block reduction, one write per batch); BATCH_THREAD gives a whole
 * small batch to one thread (seed 003 section 5: one batch per thread was its fastest). */
#include <stdlib.h>
#include <string.h>

#include "collatz/cuda/cg_delay5.h"
#include "collatz/cuda/cg_delay6.h"
#include "collatz/cuda/cg_kernels.h"

namespace {

enum { MODE_OUT = 0, MODE_BATCH_BLOCK = 1, MODE_BATCH_THREAD = 2, MODE_BATCH_WARP = 3 };

/* V4 batch statistics: a warp takes a piece of at most CG_DELAY_PIECE numbers of one batch
 * (>= 32 numbers per lane, so the warp's wait for its slowest lane is ~10% of a piece, and no
 * block barrier); pieces of one batch meet through three atomics per piece. */
#define CG_DELAY_PIECE 8192
/* V5: the lanes of a warp run out of numbers at different times at a piece's end (the twin:
 * ~10% idle slot steps over 190 numbers per lane); 1024 numbers per lane make that ~2%. */
#define CG_DELAY_PIECE5 32768

struct dparams {
    cg_ktables tb;
    uint64_t first_lo, first_hi; /* n of offset 0 */
    uint64_t off0;               /* offset of this launch's first number / batch start */
    uint64_t count;              /* numbers (OUT) or batches (BATCH_*) of this launch */
    uint64_t batch;
    uint64_t piece;              /* BATCH_WARP: numbers per warp piece (<= batch) */
    uint32_t span, lgb;          /* V5 BATCH_WARP with span > 1: a warp takes span whole batches of
                                    2^lgb numbers (k_delays5, delays_span) */
    uint32_t *out;               /* OUT: count delays; BATCH: min[count], max[count] */
    uint32_t *mn, *mx;
    unsigned long long *sum;
    const uint32_t *CJ;          /* V5: packed entries j | C << 5 (cg_delay5.h), global memory */
    uint32_t mask4, dmask, gsh;  /* V5's lean round end: (2^d - 1) << 2, cg5_done_mask(a),
                                    32 - cg5_guard_bits(d), here so that the kernel reads them as
                                    constant operands instead of rebuilding them in registers */
    const uint64_t *cls2;        /* the class path: class q's c and 3^j (cg_delay6.h) */
    const uint32_t *cmap;        /* residue r's class | j << CG6_CLS_BITS */
    uint16_t *cd;                /* D[b * ncls + q]: phase 1's class delays of block B0 + b */
    uint64_t B0;                 /* n >> M of the launch's first block */
    uint32_t ncls, nbk, M;       /* classes per block, blocks of the launch, block bits */
    unsigned long long *esc;     /* offsets of escaped numbers */
    unsigned int *esc_count;
    uint32_t esc_cap;
};

template <int KV>
__device__ __forceinline__ int64_t delay_of(const cg_tabs &t, const cg_ktables &tb, cg_u128 n)
{
    if (KV == BULK_CZ_CUDA_KERNEL_FAST) return cg_delay(n, (unsigned)tb.d, (unsigned)tb.a, t.BC, t.J, tb.A);
    return cz_delay(cz_make(cg_lo64(n), cg_hi64(n)), tb.d, tb.a, t.B, t.C, t.J, tb.A);
}

__device__ __forceinline__ cg_u128 nth(const dparams &p, uint64_t off)
{
    uint64_t lo = p.first_lo + off;
    return cg_make(lo, p.first_hi + (lo < off));
}

__device__ __forceinline__ void escape(const dparams &p, uint64_t off)
{
    unsigned int i = atomicAdd(p.esc_count, 1u);
    if (i < p.esc_cap) p.esc[i] = off;
}

/* A thread's numbers one lane-form step per trip (FAST kernel): every lane runs every trip
 * (a lane without work idles) and the trip ends in a warp vote, so the warp reconverges once
 * per trip and a lane whose number ends takes its next one at once. Without it (the first
 * version, measured with ncu on the H200) the lanes of a warp drifted apart in the loop's
 * branches and ran as groups of ~8 threads. count(): numbers of this thread; off(m): offset of
 * its m-th number; put(m, off, delay or -1) in the order m = 0, 1, ... */
template <class Off, class Put>
__device__ __forceinline__ void lane_delays(const cg_tabs &t, const dparams &p, uint64_t M, Off off, Put put)
{
    const unsigned d = (unsigned)p.tb.d, a = (unsigned)p.tb.a, lim = cg_limit_bits(d);
    const uint32_t mask = (1u << d) - 1;
    uint64_t m = 0, cm = 0, co = 0;
    int busy = 0;
    cg_u128 v = cg_make(0, 0);
    uint32_t steps = 0;
    while (__any_sync(0xffffffffu, busy || m < M)) {
        if (!busy && m < M) {
            cm = m;
            co = off(m);
            v = nth(p, co);
            steps = 0;
            busy = 1;
            m++;
        }
        if (busy) {
            const int rc = cg_delay_iter(&v, &steps, d, a, lim, mask, t.BC, t.J);
            if (rc) {
                busy = 0;
                put(cm, co, rc == 1 ? (int64_t)steps + p.tb.A[v.x0] : (int64_t)-1);
            }
        }
    }
}

/* The v4 lane loop (docs/collatz-gpu.md "Delays v4"): NL numbers per lane, interleaved (their
 * dependent step chains overlap), CG_DELAY_UNROLL three-limb steps (cg_delay_iter96) per warp
 * trip, so the trip's fixed work (vote, results, next numbers' setup) is paid once per
 * CG_DELAY_UNROLL steps; and a number's A[v] load is issued when it ends but consumed (put) at
 * the next trip's start, so its latency (HBM for a >= 25) overlaps a whole trip instead of
 * stalling the warp at once. put(m, off, delay or -1): for NL = 1 in the order m = 0, 1, ...
 * (a number's result is put before the next number starts); for NL > 1 in any order. */
template <int NL, int U, class Off, class Put>
__device__ __forceinline__ void lane_delays4(const cg_tabs &t, const dparams &p, uint64_t M, Off off, Put put)
{
    const unsigned d = (unsigned)p.tb.d, a = (unsigned)p.tb.a, lim = cg_limit_bits(d);
    const uint32_t mask = (1u << d) - 1;
    const uint16_t *A = p.tb.A;
    cg_u128 v[NL];
    uint32_t steps[NL], pa[NL], pst[NL];
    uint64_t cm[NL], co[NL], pm[NL], po[NL];
    uint32_t busy[NL], pend[NL]; /* 0/1 (32-bit: bools became byte moves in the SASS) */
#pragma unroll
    for (int q = 0; q < NL; q++) {
        v[q] = cg_make(0, 0);
        steps[q] = pa[q] = pst[q] = 0;
        cm[q] = co[q] = pm[q] = po[q] = 0;
        busy[q] = pend[q] = 0;
    }
    uint64_t m = 0;
    for (;;) {
        uint32_t any = 0;
#pragma unroll
        for (int q = 0; q < NL; q++) {
            if (pend[q]) {
                put(pm[q], po[q], (int64_t)pst[q] + pa[q]);
                pend[q] = 0;
            }
            if (!busy[q] && m < M) {
                cm[q] = m;
                co[q] = off(m);
                v[q] = nth(p, co[q]);
                steps[q] = 0;
                busy[q] = 1;
                m++;
            }
            any |= busy[q];
        }
        if (!__any_sync(0xffffffffu, any)) break;
#pragma unroll
        for (int u = 0; u < U; u++) {
#pragma unroll
            for (int q = 0; q < NL; q++) {
                if (busy[q]) {
                    const int rc = cg_delay_iter96(&v[q], &steps[q], d, a, lim, mask, t.BC, t.J);
                    /* one test in the common case (a step taken), the two ends behind it */
                    if (__builtin_expect(rc != 0, 0)) {
                        if (rc == 1) {
                            pa[q] = A[v[q].x0];
                            pst[q] = steps[q];
                            pm[q] = cm[q];
                            po[q] = co[q];
                            pend[q] = 1;
                        } else {
                            put(cm[q], co[q], (int64_t)-1);
                        }
                        busy[q] = 0;
                    }
                }
            }
        }
    }
}

/* The warp's sum (in lane 0), minimum and maximum (in every lane) of the lanes' batch statistics. */
__device__ __forceinline__ void warp_stats(unsigned long long &s, uint32_t &lo, uint32_t &hi)
{
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    lo = __reduce_min_sync(0xffffffffu, lo);
    hi = __reduce_max_sync(0xffffffffu, hi);
}

/* A lane's batch statistics: sum, minimum, maximum of the delays put into it. */
struct dstat {
    unsigned long long s;
    uint32_t lo, hi;
    __device__ __forceinline__ dstat() : s(0), lo(UINT32_MAX), hi(0) {}
    __device__ __forceinline__ void add(uint32_t dl)
    {
        s += dl;
        lo = min(lo, dl);
        hi = max(hi, dl);
    }
    /* put(off, delay or -1) of the V4 / V5 loops: an escape goes to the host's list */
    __device__ __forceinline__ void put(const dparams &p, uint64_t off, int64_t dl)
    {
        if (dl < 0) escape(p, off);
        else add((uint32_t)dl);
    }
};

/* The OUT and BATCH_WARP layouts around a lane loop.
 * LOCAL = false (V4 and V5): loop(M, off, put) runs the thread's M numbers, off(m) giving the
 * offset of the m-th, and calls put(off, delay or -1) once per number in any order.
 * LOCAL = true (V5 with the lean round end, lane_delays6): loop(base, len, put) runs a warp's
 * piece of len numbers at offsets base + i, i = lane + 32 m, and calls put(i, delay or
 * UINT32_MAX for an escape) once per number in any order.
 * OUT: a thread's numbers are tid, tid + stride, ... of the launch (LOCAL: warp pieces of
 * CG_DELAY_PIECE5 numbers at most, about one per warp of the grid); u32 writes.
 * BATCH_WARP: pieces of p.piece numbers of one batch, a warp each, grid-stride; the launch's
 * batches 0..count-1 start at offset off0. With one piece per batch the warp stores the
 * batch's slot; otherwise the pieces merge by atomics into slots the driver set to
 * (0, UINT32_MAX, 0). */
template <int MODE, bool LOCAL, class Loop>
__device__ __forceinline__ void delays_layout(const dparams &p, Loop loop, uint32_t lpiece = 0)
{
    const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    const uint32_t lane = threadIdx.x & 31;
    if (MODE == MODE_OUT) {
        if constexpr (LOCAL) {
            uint64_t pc = (p.count + (stride >> 5) - 1) / (stride >> 5);
            pc = lpiece ? lpiece : pc < CG_DELAY_PIECE5 ? (pc + 31) & ~(uint64_t)31 : CG_DELAY_PIECE5;
            for (uint64_t i0 = (tid >> 5) * pc; i0 < p.count; i0 += (stride >> 5) * pc) {
                const uint64_t len = p.count - i0 < pc ? p.count - i0 : pc;
                uint32_t *out = p.out + i0;
                const uint64_t base = p.off0 + i0;
                loop(base, (uint32_t)len, [&](uint32_t i, uint32_t dl) {
                    if (dl == UINT32_MAX) {
                        escape(p, base + i);
                        dl = 0;
                    }
                    out[i] = dl;
                });
            }
        } else {
            const uint64_t M = tid < p.count ? (p.count - tid + stride - 1) / stride : 0;
            loop(M, [&](uint64_t m) { return p.off0 + tid + m * stride; },
                 [&](uint64_t off, int64_t dl) {
                     if (dl < 0) {
                         escape(p, off);
                         dl = 0;
                     }
                     p.out[off - p.off0] = (uint32_t)dl;
                 });
        }
        return;
    }
    /* lpiece (LOCAL): smaller pieces where the driver set up merging (a batch of several pieces) */
    const uint64_t piece = lpiece && p.batch > p.piece && lpiece < p.piece ? lpiece : p.piece;
    const uint64_t upb = (p.batch + piece - 1) / piece, units = p.count * upb;
    for (uint64_t w = tid >> 5; w < units; w += stride >> 5) {
        const uint64_t b = w / upb, i0 = (w - b * upb) * piece;
        const uint64_t len = p.batch - i0 < piece ? p.batch - i0 : piece;
        const uint64_t base = p.off0 + b * p.batch + i0;
        dstat ds;
        if constexpr (LOCAL) {
            loop(base, (uint32_t)len, [&](uint32_t i, uint32_t dl) {
                if (dl == UINT32_MAX) escape(p, base + i);
                else ds.add(dl);
            });
        } else {
            const uint64_t M = lane < len ? (len - lane + 31) / 32 : 0;
            loop(M, [&](uint64_t m) { return base + lane + 32 * m; },
                 [&](uint64_t off, int64_t dl) { ds.put(p, off, dl); });
        }
        warp_stats(ds.s, ds.lo, ds.hi);
        if (lane == 0) {
            if (upb == 1) {
                p.sum[b] = ds.s;
                p.mn[b] = ds.lo;
                p.mx[b] = ds.hi;
            } else {
                atomicAdd(&p.sum[b], ds.s);
                atomicMin(&p.mn[b], ds.lo);
                atomicMax(&p.mx[b], ds.hi);
            }
        }
    }
}

/* V4 kernels (fast kernel only): OUT, BATCH_THREAD (NL = 1: its put counts in m order) and
 * BATCH_WARP. */
/* Not register-bounded: the first H200 round compiled the one-number-per-lane kernels for 32
 * registers (64 resident warps), and ptxas then recomputed the shared table addresses in every
 * step (~12 of ~37 instructions per step, SASS); at d <= 12 the shared tables allowed only 24
 * warps anyway. Now 40 registers (48 warps) and BC + J only in shared memory. */
template <bool SH, int MODE, int NL, int U> __global__ void __launch_bounds__(CG_MAX_THREADS) k_delays4(dparams p)
{
    const cg_tabs t = cg_setup_tables<BULK_CZ_CUDA_KERNEL_FAST, SH, false>(p.tb);
    const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    if (MODE == MODE_BATCH_THREAD) {
        /* as k_delays' BATCH_THREAD: the thread's batches one after the other, counters */
        const uint64_t nb = tid < p.count ? (p.count - tid + stride - 1) / stride : 0;
        uint64_t ob = tid, oi = 0, pb = tid, pi = 0;
        dstat ds;
        lane_delays4<1, U>(t, p, nb * p.batch,
                        [&](uint64_t) {
                            const uint64_t o = p.off0 + ob * p.batch + oi;
                            if (++oi == p.batch) {
                                oi = 0;
                                ob += stride;
                            }
                            return o;
                        },
                        [&](uint64_t, uint64_t off, int64_t dl) {
                            ds.put(p, off, dl);
                            if (++pi == p.batch) {
                                p.sum[pb] = ds.s;
                                p.mn[pb] = ds.lo;
                                p.mx[pb] = ds.hi;
                                ds = dstat();
                                pi = 0;
                                pb += stride;
                            }
                        });
    } else {
        delays_layout<MODE, false>(p, [&](uint64_t M, auto off, auto put) {
            lane_delays4<NL, U>(t, p, M, off, [&](uint64_t, uint64_t o, int64_t dl) { put(o, dl); });
        });
    }
}

/* Step u of a round of U (V5's lean round end): slot s's entry CJ[v mod 2^d], B = 4 * 3^j by a
 * shuffle of lane j's P (the shuffle reads the entry's low 5 bits, j), the three-limb step, and
 * after every second step but the last the checkpoint (cg5_mark). */
template <int U>
__device__ __forceinline__ void step5(int u, cg5_num &s, uint32_t &cx, uint32_t &cst, const unsigned char *CJb,
                                      uint32_t mask4, unsigned d, uint32_t P, uint32_t dmask)
{
    const uint32_t e = *(const uint32_t *)(CJb + cg5_offset(&s, mask4));
    cg5_step(&s, d + 2, e, __shfl_sync(0xffffffffu, P, (int)e));
    if (u % 2 == 1 && u + 1 < U) cg5_mark(&s, &cx, &cst, dmask, (uint32_t)(u + 1) * d);
}

/* The feeds of lane_delays6: refill(q) gives a free slot the lane's next start value (returns 1
 * when it did), value(i) is start value i (for the exact slow path). NumFeed: consecutive numbers
 * first + base + i; ClassFeed: the merge classes of one block (phase 1 of the class path). */
struct NumFeed {
    cg6_feed f;
    const dparams &p;
    uint64_t base;
    __device__ __forceinline__ NumFeed(const dparams &p_, uint64_t base_, uint32_t lane, uint32_t len) : p(p_), base(base_)
    {
        cg6_feed_init(&f, nth(p_, base_), lane, len);
    }
    __device__ __forceinline__ int refill(cg6_slot *q) { return cg6_refill(q, &f); }
    __device__ __forceinline__ cg_u128 value(uint32_t i) const { return nth(p, base + i); }
};
struct ClassFeed {
    cg6_cfeed f;
    __device__ __forceinline__ ClassFeed(const uint64_t *cls2, uint64_t nH, uint32_t k0, uint32_t lane, uint32_t len)
    {
        cg6_cfeed_init(&f, cls2, nH, k0, lane, len);
    }
    __device__ __forceinline__ int refill(cg6_slot *q) { return cg6_crefill(q, &f); }
    __device__ __forceinline__ cg_u128 value(uint32_t i) const { return cg6_class_value(&f, i); }
};

/* V5's loop with the lean round end (cg_delay5.h, cg_delay6.h; docs/collatz-gpu.md "Delays"): the
 * lane's start values from the feed (a warp's piece: local indices i = lane + 32 m), NL slots per
 * lane, interleaved, in rounds of U table steps without a test or a branch (a slot without a
 * number steps a dead value); at each round end per slot: the previous
 * round's result put, the classification (cg6_classify), a done number's A[v] load issued (its
 * result put one round later), a slow one's exact delay (cg_delay from its start value,
 * divergent, rare) put at once, and a free slot refilled from the feed. put(i, delay or
 * UINT32_MAX for an escape), in any order. */
template <int NL, int U, class Feed, class Put>
__device__ __forceinline__ void lane_delays6(const uint32_t *CJ, const dparams &p, Feed &feed, Put put)
{
    const unsigned d = (unsigned)p.tb.d, a = (unsigned)p.tb.a, gsh = p.gsh;
    const uint32_t mask4 = ((1u << d) - 1) << 2, dmask = p.dmask, du = (uint32_t)U * d;
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t P = lane <= CG5_MAX_D ? 4u * (uint32_t)p.tb.pow3[lane] : 0u; /* 4 * 3^lane */
    const unsigned char *CJb = (const unsigned char *)CJ;
    const uint16_t *A = p.tb.A;
    cg6_slot q[NL];
#pragma unroll
    for (int k = 0; k < NL; k++) {
        cg5_start(&q[k].s, cg_make(0, 0));
        q[k].cx = ~0u;
        q[k].cst = q[k].pst = q[k].pa = 0;
        q[k].idx = q[k].pidx = CG6_NONE;
    }
    for (;;) {
        uint32_t any = 0;
#pragma unroll
        for (int k = 0; k < NL; k++) {
            if (q[k].pidx != CG6_NONE) put(q[k].pidx, q[k].pst + q[k].pa);
            q[k].pidx = CG6_NONE;
            q[k].s.st += du;
            uint32_t dv, dst;
            const int r = cg6_classify(&q[k], dmask, gsh, &dv, &dst);
            if (r == 1) {
                q[k].pa = A[dv >> 2];
                q[k].pst = dst;
                q[k].pidx = q[k].idx;
                q[k].idx = CG6_NONE;
            } else if (__builtin_expect(r == 2, 0)) {
                const int64_t dl = cg_delay(feed.value(q[k].idx), d, a, p.tb.BC, p.tb.J, A);
                put(q[k].idx, dl < 0 ? UINT32_MAX : (uint32_t)dl);
                q[k].idx = CG6_NONE;
            }
            feed.refill(&q[k]);
            any |= q[k].idx != CG6_NONE;
        }
        if (!__any_sync(0xffffffffu, any)) break;
#pragma unroll
        for (int k = 0; k < NL; k++) q[k].cx = ~0u;
#pragma unroll
        for (int u = 0; u < U; u++) {
#pragma unroll
            for (int k = 0; k < NL; k++) step5<U>(u, q[k].s, q[k].cx, q[k].cst, CJb, mask4, d, P, dmask);
        }
    }
    /* the results of the last round end */
#pragma unroll
    for (int k = 0; k < NL; k++)
        if (q[k].pidx != CG6_NONE) put(q[k].pidx, q[k].pst + q[k].pa);
}

/* BATCH_WARP for batches of 2^lgb < CG_DELAY_PIECE5 numbers (V5): a warp takes p.span (<= 32)
 * whole consecutive batches as one piece (a 1024-number piece leaves ~15-25% of the slot steps idle at
 * its end while the slowest lanes finish; 32768 numbers ~2%), and the batches' sums, minima and
 * maxima meet in the warp's part of shared memory (st: span x (u32 sum, min, max)) by shared
 * atomics, one set per number. The sums are 32-bit (native shared atomics; round 1's 64-bit ones
 * may have been compare-and-swap loops, with up to 32 lanes on one batch): a batch here has at
 * most 2^14 numbers, and a delay of 2^16 or more (none below 2^128 is known) goes to the host's
 * exact path like an escape, so a sum stays below 2^30. */
template <bool LOCAL, class Loop> __device__ __forceinline__ void delays_span(const dparams &p, unsigned char *st, Loop loop)
{
    const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    const uint32_t lane = threadIdx.x & 31, span = p.span;
    /* batch b's sum, minimum, maximum at ss[3 b], ss[3 b + 1], ss[3 b + 2]: one address per put,
     * the three atomics at immediate offsets */
    uint32_t *ss = (uint32_t *)st + (size_t)(threadIdx.x >> 5) * span * 3;
    const uint64_t units = (p.count + span - 1) / span;
    for (uint64_t w = tid >> 5; w < units; w += stride >> 5) {
        const uint64_t b0 = w * span;
        const uint32_t nb = (uint32_t)(p.count - b0 < span ? p.count - b0 : span);
        for (uint32_t b = lane; b < nb; b += 32) {
            ss[3 * b] = 0;
            ss[3 * b + 1] = UINT32_MAX;
            ss[3 * b + 2] = 0;
        }
        __syncwarp();
        const uint64_t base = p.off0 + (b0 << p.lgb), len = (uint64_t)nb << p.lgb;
        /* number i of the piece (dl < 2^16: a sum of <= 2^14 of them stays below 2^30). The
         * atomics take the 32-bit shared address, made opaque once per piece: otherwise the
         * compiler (64 registers) rebuilt the generic pointer from threadIdx and the CTA's
         * shared window at every put (~11 instructions, SASS of the first build) */
        uint32_t sa;
        asm volatile("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(sa) : "l"(ss));
        auto add = [&](uint32_t i, uint32_t dl) {
            const uint32_t t = sa + 12u * (i >> p.lgb);
            asm volatile("red.shared.add.u32 [%0], %1;\n\t"
                         "red.shared.min.u32 [%0+4], %1;\n\t"
                         "red.shared.max.u32 [%0+8], %1;" ::"r"(t), "r"(dl) : "memory");
        };
        if constexpr (LOCAL) {
            loop(base, (uint32_t)len, [&](uint32_t i, uint32_t dl) {
                if (dl >= 65536) escape(p, base + i);
                else add(i, dl);
            });
        } else {
            const uint64_t M = lane < len ? (len - lane + 31) / 32 : 0;
            loop(M, [&](uint64_t m) { return base + lane + 32 * m; },
                 [&](uint64_t off, int64_t dl) {
                     if (dl < 0 || dl >= 65536) escape(p, off);
                     else add((uint32_t)(off - base), (uint32_t)dl);
                 });
        }
        __syncwarp();
        for (uint32_t b = lane; b < nb; b += 32) {
            p.sum[b0 + b] = ss[3 * b];
            p.mn[b0 + b] = ss[3 * b + 1];
            p.mx[b0 + b] = ss[3 * b + 2];
        }
        __syncwarp();
    }
}

/* V5 kernels: OUT and BATCH_WARP (smaller batches run V4). SH: CJ copied into shared memory
 * (4 bytes per entry: d <= 15 on an H200), else read from global memory (L1/L2); the span
 * statistics (delays_span) follow it in shared memory. */
#define CG5_THREADS 1024
/* The lean round end (lane_delays6) with two numbers per lane and rounds of 4 or 8 steps. */
template <bool SH, int MODE, int NL, int U>
__global__ void __launch_bounds__(CG5_THREADS) k_delays5(dparams p)
{
    extern __shared__ __align__(16) uint32_t cg5_smem[];
    const uint32_t *CJ = p.CJ;
    if (SH) {
        const uint32_t n = 1u << p.tb.d;
        for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) cg5_smem[i] = p.CJ[i];
        CJ = cg5_smem;
    }
    if (SH) __syncthreads();
    unsigned char *spans = (unsigned char *)cg5_smem + (SH ? (size_t)4 << p.tb.d : 0);
    {
        auto loop = [&](uint64_t base, uint32_t len, auto put) {
            NumFeed feed(p, base, threadIdx.x & 31, len);
            lane_delays6<NL, U>(CJ, p, feed, put);
        };
        if (MODE == MODE_BATCH_WARP && p.span > 1) delays_span<true>(p, spans, loop);
        else delays_layout<MODE, true>(p, loop);
    }
}

/* ---- the class path (merge classes, cg_delay6.h; docs/collatz-gpu.md "Delays, session 4") ---- */

/* Phase 1: D[b][q] = delay(3^j nH + c) of every class q of the launch's blocks b < nbk
 * (nH = B0 + b), CG6_D_NONE where the host must settle it; warp pieces of classes of one block,
 * about one piece per warp of the grid (at most CG_DELAY_PIECE5 classes). */
template <bool SH, int NL, int U> __global__ void __launch_bounds__(CG5_THREADS) k_classes(dparams p)
{
    extern __shared__ __align__(16) uint32_t cg5_smem[];
    const uint32_t *CJ = p.CJ;
    if (SH) {
        const uint32_t n = 1u << p.tb.d;
        for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) cg5_smem[i] = p.CJ[i];
        CJ = cg5_smem;
        __syncthreads();
    }
    const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    uint64_t pc = ((uint64_t)p.ncls * p.nbk + warps - 1) / warps;
    pc = pc < CG_DELAY_PIECE5 ? (pc + 31) & ~(uint64_t)31 : CG_DELAY_PIECE5;
    const uint64_t ppb = (p.ncls + pc - 1) / pc, units = ppb * p.nbk;
    for (uint64_t w = tid >> 5; w < units; w += warps) {
        const uint64_t b = w / ppb;
        const uint32_t k0 = (uint32_t)((w - b * ppb) * pc);
        const uint32_t len = (uint32_t)(p.ncls - k0 < pc ? p.ncls - k0 : pc);
        uint16_t *D = p.cd + b * p.ncls + k0;
        ClassFeed feed(p.cls2, p.B0 + b, k0, threadIdx.x & 31, len);
        lane_delays6<NL, U>(CJ, p, feed, [&](uint32_t i, uint32_t dl) { D[i] = (uint16_t)(dl < CG6_D_NONE ? dl : CG6_D_NONE); });
    }
}

/* Phase 2: every number of the launch from its class, M + j + D (cg6_member_delay), in order:
 * number base + i of a warp's piece (i = lane + 32 m) from the piece's residue r0 and block b0
 * (32-bit: r0 + i < 2^M + 2^15). Small pieces (CG6_MEMBER_PIECE numbers, or one batch) taken in
 * grid-stride order, so that the warps at work at any time read D of a few blocks (4224 warps of
 * an H200 x 4096 numbers: 4 blocks, 7 MB; round 1 of session 4: with pieces of about a launch per
 * grid, D of all 33 blocks, 58 MB, was read at once, past the L2: 0.28 issued per cycle, a third
 * of the kernel time); 4096 rather than less, so that the pieces of a large batch merge by few
 * global atomics (three per piece). Batches of 2^lgb >= 32
 * numbers that fit a piece (spans): a warp takes a whole batch, its lanes accumulate in registers
 * (all 32 lanes are in the same batch at every m) and one warp reduction writes it; otherwise
 * the usual layouts (OUT, batch pieces). */
#define CG6_MEMBER_PIECE 4096
#define CG6_GATHER 8
template <int MODE> __global__ void __launch_bounds__(CG5_THREADS) k_members(dparams p)
{
    const unsigned M = p.M;
    const uint32_t rmask = (1u << M) - 1, kmask = (1u << CG6_CLS_BITS) - 1, lane = threadIdx.x & 31;
    auto start = [&](uint64_t base, uint32_t &r0, uint32_t &b0) {
        const uint64_t lo = p.first_lo + base, hi = p.first_hi + (lo < base);
        r0 = (uint32_t)lo & rmask;
        b0 = (uint32_t)(((hi << (64 - M)) | (lo >> M)) - p.B0); /* n >> M (n < 2^79) */
    };
    /* the delays of numbers i + 32 k, k < CG6_GATHER (those at or past len: the delay of number
     * len - 1, not to be used): the map loads first, then the dependent D loads, so that a lane
     * has CG6_GATHER chains in flight (round 2 of session 4: one number at a time, 68% of the
     * warps' cycles waited on these loads) */
    auto gather = [&](uint32_t r0, uint32_t b0, uint32_t i, uint32_t len, uint32_t *dl) {
        /* past len the last number is loaded again (no predicated loads: they kept the compiler
         * from grouping them) and its result is not used */
        uint32_t t[CG6_GATHER], e[CG6_GATHER];
#pragma unroll
        for (int k = 0; k < CG6_GATHER; k++) {
            t[k] = r0 + min(i + 32 * k, len - 1);
            e[k] = p.cmap[t[k] & rmask];
        }
#pragma unroll
        for (int k = 0; k < CG6_GATHER; k++)
            dl[k] = cg6_member_delay(e[k], p.cd[(b0 + (t[k] >> M)) * p.ncls + (e[k] & kmask)], M);
    };
    if (MODE == MODE_BATCH_WARP && p.span > 1) {
        const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
        const uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
        const uint32_t per = 1u << (p.lgb - 5); /* warp rows per batch */
        for (uint64_t b = tid >> 5; b < p.count; b += warps) {
            const uint64_t base = p.off0 + (b << p.lgb);
            uint32_t r0, b0;
            start(base, r0, b0);
            /* a batch's sum stays below 2^30 (< 2^15 numbers, delays < 2^16: larger ones and
             * escapes go to the host, which adds them to the batch) */
            uint32_t sum = 0, lo = UINT32_MAX, hi = 0;
            const uint32_t len = per << 5;
            for (uint32_t i = lane; i < len; i += 32 * CG6_GATHER) {
                uint32_t dl[CG6_GATHER];
                gather(r0, b0, i, len, dl);
#pragma unroll
                for (int k = 0; k < CG6_GATHER; k++) {
                    if (i + 32 * k >= len) continue;
                    if (dl[k] < 65536) {
                        sum += dl[k];
                        lo = min(lo, dl[k]);
                        hi = max(hi, dl[k]);
                    } else {
                        escape(p, base + i + 32 * k);
                    }
                }
            }
            sum = __reduce_add_sync(0xffffffffu, sum);
            lo = __reduce_min_sync(0xffffffffu, lo);
            hi = __reduce_max_sync(0xffffffffu, hi);
            if (lane == 0) {
                p.sum[b] = sum;
                p.mn[b] = lo;
                p.mx[b] = hi;
            }
        }
        return;
    }
    delays_layout<MODE, true>(
        p,
        [&](uint64_t base, uint32_t len, auto put) {
            uint32_t r0, b0;
            start(base, r0, b0);
            for (uint32_t i = lane; i < len; i += 32 * CG6_GATHER) {
                uint32_t dl[CG6_GATHER];
                gather(r0, b0, i, len, dl);
#pragma unroll
                for (int k = 0; k < CG6_GATHER; k++)
                    if (i + 32 * k < len) put(i + 32 * k, dl[k]);
            }
        },
        CG6_MEMBER_PIECE);
}

template <int KV, bool SH, int MODE> __global__ void __launch_bounds__(CG_MAX_THREADS) k_delays(dparams p)
{
    const cg_tabs t = cg_setup_tables<KV, SH>(p.tb);
    const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    if (MODE == MODE_OUT) {
        if (KV == BULK_CZ_CUDA_KERNEL_FAST) {
            const uint64_t M = tid < p.count ? (p.count - tid + stride - 1) / stride : 0;
            lane_delays(t, p, M, [&](uint64_t m) { return p.off0 + tid + m * stride; },
                        [&](uint64_t m, uint64_t off, int64_t dl) {
                            if (dl < 0) {
                                escape(p, off);
                                dl = 0;
                            }
                            p.out[tid + m * stride] = (uint32_t)dl;
                        });
        } else {
            for (uint64_t i = tid; i < p.count; i += stride) {
                const uint64_t off = p.off0 + i;
                int64_t dl = delay_of<KV>(t, p.tb, nth(p, off));
                if (dl < 0) {
                    escape(p, off);
                    dl = 0;
                }
                p.out[i] = (uint32_t)dl;
            }
        }
    } else if (MODE == MODE_BATCH_THREAD) {
        if (KV == BULK_CZ_CUDA_KERNEL_FAST) {
            /* the thread's batches b = tid, tid + stride, ... one after the other; m counts
             * its numbers: batch m / batch, number m % batch (kept as counters, no division) */
            const uint64_t nb = tid < p.count ? (p.count - tid + stride - 1) / stride : 0;
            uint64_t ob = tid, oi = 0;     /* batch and index of the next offset asked for */
            uint64_t pb = tid, pi = 0;     /* batch and index of the next result */
            unsigned long long s = 0;
            uint32_t lo = UINT32_MAX, hi = 0;
            lane_delays(t, p, nb * p.batch,
                        [&](uint64_t) {
                            const uint64_t o = p.off0 + ob * p.batch + oi;
                            if (++oi == p.batch) {
                                oi = 0;
                                ob += stride;
                            }
                            return o;
                        },
                        [&](uint64_t, uint64_t off, int64_t dl) {
                            if (dl < 0) {
                                escape(p, off);
                            } else {
                                s += (uint64_t)dl;
                                lo = min(lo, (uint32_t)dl);
                                hi = max(hi, (uint32_t)dl);
                            }
                            if (++pi == p.batch) {
                                p.sum[pb] = s;
                                p.mn[pb] = lo;
                                p.mx[pb] = hi;
                                s = 0;
                                lo = UINT32_MAX;
                                hi = 0;
                                pi = 0;
                                pb += stride;
                            }
                        });
        } else {
            for (uint64_t b = tid; b < p.count; b += stride) {
                unsigned long long s = 0;
                uint32_t lo = UINT32_MAX, hi = 0;
                const uint64_t base = p.off0 + b * p.batch;
                for (uint64_t i = 0; i < p.batch; i++) {
                    int64_t dl = delay_of<KV>(t, p.tb, nth(p, base + i));
                    if (dl < 0) {
                        escape(p, base + i);
                        continue;
                    }
                    s += (uint64_t)dl;
                    lo = min(lo, (uint32_t)dl);
                    hi = max(hi, (uint32_t)dl);
                }
                p.sum[b] = s;
                p.mn[b] = lo;
                p.mx[b] = hi;
            }
        }
    } else {
        __shared__ unsigned long long ps[CG_MAX_THREADS / 32];
        __shared__ uint32_t pl[CG_MAX_THREADS / 32], ph[CG_MAX_THREADS / 32];
        const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
        for (uint64_t b = blockIdx.x; b < p.count; b += gridDim.x) {
            unsigned long long s = 0;
            uint32_t lo = UINT32_MAX, hi = 0;
            const uint64_t base = p.off0 + b * p.batch;
            if (KV == BULK_CZ_CUDA_KERNEL_FAST) {
                const uint64_t M = threadIdx.x < p.batch ? (p.batch - threadIdx.x + blockDim.x - 1) / blockDim.x : 0;
                lane_delays(t, p, M, [&](uint64_t m) { return base + threadIdx.x + m * blockDim.x; },
                            [&](uint64_t, uint64_t off, int64_t dl) {
                                if (dl < 0) {
                                    escape(p, off);
                                } else {
                                    s += (uint64_t)dl;
                                    lo = min(lo, (uint32_t)dl);
                                    hi = max(hi, (uint32_t)dl);
                                }
                            });
            } else {
                for (uint64_t i = threadIdx.x; i < p.batch; i += blockDim.x) {
                    int64_t dl = delay_of<KV>(t, p.tb, nth(p, base + i));
                    if (dl < 0) {
                        escape(p, base + i);
                        continue;
                    }
                    s += (uint64_t)dl;
                    lo = min(lo, (uint32_t)dl);
                    hi = max(hi, (uint32_t)dl);
                }
            }
            warp_stats(s, lo, hi);
            if (lane == 0) {
                ps[warp] = s;
                pl[warp] = lo;
                ph[warp] = hi;
            }
            __syncthreads();
            if (threadIdx.x == 0) {
                for (int w = 1; w < nw; w++) {
                    s += ps[w];
                    lo = min(lo, pl[w]);
                    hi = max(hi, ph[w]);
                }
                p.sum[b] = s;
                p.mn[b] = lo;
                p.mx[b] = hi;
            }
            __syncthreads();
        }
    }
}

typedef void (*kfn)(dparams);

/* Dynamic shared memory of the V5 kernels with the entries in shared memory. */
size_t cg5_smem_bytes(int d) { return (size_t)4 << d; }

/* The V5 loop's numbers per lane; 0 for the other loops. */
int v5_lanes(int loop) { return loop == BULK_CZ_CUDA_DELAY_V5 ? 2 : 0; }

/* The class path's kernels: phase 1 (two slots, rounds of 4 or 8 steps), phase 2 for the mode. */
kfn pick_classes(int sh, int unroll)
{
#define CG_KC(SH, NL) (unroll == 4 ? k_classes<SH, NL, 4> : k_classes<SH, NL, 8>)
    return sh ? CG_KC(true, 2) : CG_KC(false, 2);
#undef CG_KC
}
kfn pick_members(int mode) { return mode == MODE_OUT ? k_members<MODE_OUT> : k_members<MODE_BATCH_WARP>; }

kfn pick(int kv, int sh, int mode, int loop, int unroll)
{
    if (kv == BULK_CZ_CUDA_KERNEL_FAST && v5_lanes(loop) && mode != MODE_BATCH_THREAD) {
#define CG_K6(SH, NL, U) (mode == MODE_OUT ? k_delays5<SH, MODE_OUT, NL, U> : k_delays5<SH, MODE_BATCH_WARP, NL, U>)
#define CG_K6U(SH, NL) (unroll == 4 ? CG_K6(SH, NL, 4) : CG_K6(SH, NL, 8))
        return sh ? CG_K6U(true, 2) : CG_K6U(false, 2);
#undef CG_K6U
#undef CG_K6
    }
    if (kv == BULK_CZ_CUDA_KERNEL_FAST && loop != BULK_CZ_CUDA_DELAY_V3) {
        /* V4X2; small batches (< 32 numbers) one per thread */
#define CG_K4(SH, NL, U)                                                                           \
    (mode == MODE_OUT ? k_delays4<SH, MODE_OUT, NL, U>                                             \
                      : mode == MODE_BATCH_WARP ? k_delays4<SH, MODE_BATCH_WARP, NL, U>            \
                                                : k_delays4<SH, MODE_BATCH_THREAD, 1, U>)
#define CG_K4U(SH, NL) (unroll == 4 ? CG_K4(SH, NL, 4) : CG_K4(SH, NL, 8))
        return sh ? CG_K4U(true, 2) : CG_K4U(false, 2);
#undef CG_K4U
#undef CG_K4
    }
#define CG_K(KV, SH)                                                                               \
    (mode == MODE_OUT ? k_delays<KV, SH, MODE_OUT>                                                 \
                      : mode == MODE_BATCH_BLOCK ? k_delays<KV, SH, MODE_BATCH_BLOCK>              \
                                                 : k_delays<KV, SH, MODE_BATCH_THREAD>)
    if (kv == BULK_CZ_CUDA_KERNEL_FAST) return sh ? CG_K(BULK_CZ_CUDA_KERNEL_FAST, true) : CG_K(BULK_CZ_CUDA_KERNEL_FAST, false);
    return sh ? CG_K(BULK_CZ_CUDA_KERNEL_CORE, true) : CG_K(BULK_CZ_CUDA_KERNEL_CORE, false);
#undef CG_K
}

/* A launch's buffers (device and pinned host) and events, two sets per device, kept between
 * calls in g_dc (grown on demand, freed by bulk_collatz_cuda_release). */
struct dbuf {
    uint32_t *d_out, *d_mn, *d_mx, *h_out, *h_mn, *h_mx;
    unsigned long long *d_sum, *h_sum, *d_esc, *h_esc;
    unsigned int *d_cnt, *h_cnt;
    cudaEvent_t ev, k0, k1; /* done; the kernel's start and end (timing) */
    uint64_t start, n;      /* units of the launch in flight, n = 0: none */
};
struct dcache {
    cudaStream_t stream, copier;
    dbuf b[2];
    uint64_t cap_out, cap_b; /* units the buffers hold (OUT numbers, batches) */
    uint32_t cap_esc;
    uint32_t *CJ; /* V5 entries of d = cj_d (0: none) */
    int cj_d;
    uint64_t *cls2;    /* the class path: classes (c, 3^j) and the residue map of M = cls_M bits */
    uint32_t *cmap;
    int cls_M;
    uint32_t cls_n;
    uint16_t *cd;      /* phase 1's class delays, cap_cd entries */
    uint64_t cap_cd;
};
#define CG_MAX_DEV 64
dcache g_dc[CG_MAX_DEV];

void dbuf_free_out(dbuf *b)
{
    cudaFree(b->d_out);
    cudaFreeHost(b->h_out);
    b->d_out = b->h_out = NULL;
}
void dbuf_free_b(dbuf *b)
{
    cudaFree(b->d_mn);
    cudaFree(b->d_mx);
    cudaFree(b->d_sum);
    cudaFreeHost(b->h_mn);
    cudaFreeHost(b->h_mx);
    cudaFreeHost(b->h_sum);
    b->d_mn = b->d_mx = b->h_mn = b->h_mx = NULL;
    b->d_sum = b->h_sum = NULL;
}
void dcache_free(dcache *c)
{
    for (int i = 0; i < 2; i++) {
        dbuf *b = &c->b[i];
        dbuf_free_out(b);
        dbuf_free_b(b);
        cudaFree(b->d_esc);
        cudaFree(b->d_cnt);
        cudaFreeHost(b->h_esc);
        cudaFreeHost(b->h_cnt);
        if (b->ev) cudaEventDestroy(b->ev);
        if (b->k0) cudaEventDestroy(b->k0);
        if (b->k1) cudaEventDestroy(b->k1);
    }
    if (c->stream) cudaStreamDestroy(c->stream);
    if (c->copier) cudaStreamDestroy(c->copier);
    cudaFree(c->CJ);
    cudaFree(c->cls2);
    cudaFree(c->cmap);
    cudaFree(c->cd);
    memset(c, 0, sizeof *c);
}

struct djob {
    const bulk_collatz_engine *e;
    u128 first;
    uint64_t count;    /* numbers (OUT) or batches */
    uint64_t batch;    /* 0: OUT */
    uint32_t *out;
    uint64_t *sum;
    uint32_t *mn, *mx;
};

/* Host share of one escaped number: its exact delay into the outputs. */
int settle(const djob &j, uint64_t off)
{
    u128 n = j.first + off;
    uint64_t w[2] = { (uint64_t)n, (uint64_t)(n >> 64) }, dl = 0;
    int s = bulk_cz_exact(w, 2, 0, &dl, NULL, NULL, 0, NULL);
    if (s != BULK_OK) return s;
    if (dl > UINT32_MAX) return BULK_ERR_OVERFLOW;
    if (!j.batch) {
        j.out[off] = (uint32_t)dl;
    } else {
        uint64_t b = off / j.batch;
        j.sum[b] += dl;
        if ((uint32_t)dl < j.mn[b]) j.mn[b] = (uint32_t)dl;
        if ((uint32_t)dl > j.mx[b]) j.mx[b] = (uint32_t)dl;
    }
    return BULK_OK;
}

/* Device g's share [u0, u0 + un) of the units (numbers or batches), in launches; each launch's
 * outputs and escapes come back before the next one's are needed (two buffer sets, so the host
 * copies and settles one launch while the GPU runs the next). */
int delays_device(int g, void *arg)
{
    const djob &j = *(const djob *)arg;
    const bulk_collatz_engine *e = j.e;
    bulk_collatz_cuda_stats *st = cg_stats();
    cg_dev *dv;
    int s = cg_dev_prepare(g, e, 0, 1, &dv, &st->upload_seconds);
    if (s) return s;
    const int G = cg_devices();
    u128 u0w, unw;
    cg_split_rows((u128)j.count, G, g, &u0w, &unw);
    const uint64_t u0 = (uint64_t)u0w, un = (uint64_t)unw;
    bulk_collatz_cuda_opts o = cg_opts();
    int kv, sh;
    /* V5 takes d <= 17 and batches of >= 32 numbers (or none); elsewhere V4X2 runs */
    const int v5 = v5_lanes(o.delay_loop) && e->d <= CG5_MAX_D && o.kernel != BULK_CZ_CUDA_KERNEL_CORE &&
                   (!j.batch || j.batch >= 32);
    if (v5_lanes(o.delay_loop) && !v5) o.delay_loop = BULK_CZ_CUDA_DELAY_V4X2;
    if (v5) {
        /* V5's own placement: its 4-byte entries in shared memory while they fit (d <= 15 on an
         * H200: 128 KB), unless global memory is asked for */
        kv = BULK_CZ_CUDA_KERNEL_FAST;
        const int fits = cg5_smem_bytes(e->d) + 1024 <= (size_t)dv->smem_optin;
        if (o.table_mem == BULK_CZ_CUDA_MEM_SHARED && !fits) {
            bulk_cz_set_error("V5 delay entries of d = %d do not fit in shared memory (%zu of %d bytes)", e->d,
                              cg5_smem_bytes(e->d), dv->smem_optin);
            return BULK_ERR_ARG;
        }
        sh = o.table_mem == BULK_CZ_CUDA_MEM_GLOBAL ? 0 : fits;
    } else if ((s = cg_choose(e, dv, &kv, &sh))) {
        return s;
    }
    if (v5) {
        /* the round length: as asked, else V5's own default (cg5_default_unroll), not V4's */
        bulk_collatz_cuda_opts raw;
        bulk_collatz_cuda_get_opts(&raw);
        o.delay_unroll = raw.delay_unroll ? raw.delay_unroll : (int)cg5_default_unroll((unsigned)e->d, (unsigned)e->a);
        /* blocks of 1024 threads unless asked otherwise: with the entries in shared memory (64 KB
         * at d = 14, 128 KB at d = 15) blocks of 256 would leave 24 or 8 warps per SM */
        if (!raw.threads_per_block) o.threads_per_block = CG5_THREADS;
    }
    st->kernel = kv;
    st->table_mem = sh ? BULK_CZ_CUDA_MEM_SHARED : BULK_CZ_CUDA_MEM_GLOBAL;
    const int v4 = kv == BULK_CZ_CUDA_KERNEL_FAST && o.delay_loop != BULK_CZ_CUDA_DELAY_V3 && !v5;
    st->delay_loop = kv == BULK_CZ_CUDA_KERNEL_FAST ? o.delay_loop : 0;
    const int mode = !j.batch     ? MODE_OUT
                     : v4 || v5 ? (j.batch >= 32 ? MODE_BATCH_WARP : MODE_BATCH_THREAD)
                              : (j.batch >= (uint64_t)o.threads_per_block ? MODE_BATCH_BLOCK : MODE_BATCH_THREAD);
    kfn f = pick(kv, sh, mode, o.delay_loop, o.delay_unroll);
    /* v4: BC + J in shared memory (no BM), and AUTO takes shared only while 4 blocks fit
     * (d <= 12 on an H200); else the tables stay in global memory (L1/L2), which keeps all
     * resident warps (measured 2026-11-21: d = 12 shared with BM, 24 warps per SM, the delay
     * kernels' issue rate was bound by the step's dependent chain) */
    if (v4 && o.table_mem == BULK_CZ_CUDA_MEM_AUTO)
        sh = cg_smem_bytes_nobm(e->d, 1) + 2048 <= (size_t)dv->smem_optin / 4;
    if (v4) st->table_mem = sh ? BULK_CZ_CUDA_MEM_SHARED : BULK_CZ_CUDA_MEM_GLOBAL;
    if (v4) f = pick(kv, sh, mode, o.delay_loop, o.delay_unroll);
    /* V5, batches of 2^lgb < CG_DELAY_PIECE5 numbers: a warp takes span whole batches (delays_span),
     * their statistics in shared memory after the table (12 bytes per batch per warp) */
    uint32_t span = 1, lgb = 0;
    if (v5 && mode == MODE_BATCH_WARP && j.batch < CG_DELAY_PIECE5 && !(j.batch & (j.batch - 1))) {
        while (((uint64_t)1 << lgb) < j.batch) lgb++;
        span = (uint32_t)(CG_DELAY_PIECE5 >> lgb);
        if (span > 32) span = 32; /* 12 KB of statistics per block of 1024 threads at most */
    }
    const size_t span_bytes = span > 1 ? (size_t)(o.threads_per_block / 32) * span * 12 : 0;
    const size_t smem = v5 ? (sh ? cg5_smem_bytes(e->d) : 0) + span_bytes
                       : v4 ? cg_smem_bytes_nobm(e->d, sh)
                            : cg_smem_bytes(e->d, kv, sh);
    if (v5 && smem + 1024 > (size_t)dv->smem_optin) {
        bulk_cz_set_error("V5 delay kernel needs %zu bytes of shared memory (%d per block)", smem, dv->smem_optin);
        return BULK_ERR_ARG;
    }
    CG_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int per_sm = 0;
    CG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, o.threads_per_block, smem));
    const int grid = dv->sms * (per_sm > 0 ? per_sm : 1);
    /* the class path (merge classes of M bits, cg_delay6.h; docs/collatz-gpu.md "Delays,
     * session 4"; BULK_CZ_CUDA_CLASSES=0 turns it off): V5 with the lean round end, every n of
     * the call in [2^40, 2^79) (nH < 2^57: three-limb start values; small n would leave the
     * class trajectories short), at least 2^23 numbers in the call and 2^M per launch (phase 1
     * runs every class of every block a launch touches: a smaller launch pays for a block's
     * classes without its numbers) */
    const char *cenv = getenv("BULK_CZ_CUDA_CLASSES");
    const uint64_t ub = j.batch ? j.batch : 1;
    const u128 total_n = (u128)j.count * ub, last_n = j.first + total_n - 1;
    int cls = v5 && !(cenv && !strcmp(cenv, "0")) && e->M > 0 &&
              e->M <= 22 && (j.first >> 40) != 0 && (last_n >> 79) == 0 && (total_n >> 23) != 0 &&
              o.launch_numbers >= ((uint64_t)1 << e->M);
    kfn f1 = NULL, f2 = NULL;
    size_t smem1 = 0;
    int grid1 = 0, grid2 = 0;
    if (cls && ((s = bulk_cz_need_classes(e)) != BULK_OK || e->ncls >= (1u << CG6_CLS_BITS))) {
        if (s != BULK_OK) return s;
        cls = 0;
    }
    if (cls) {
        f1 = pick_classes(sh, o.delay_unroll);
        f2 = pick_members(mode);
        smem1 = sh ? cg5_smem_bytes(e->d) : 0;
        int per1 = 0, per2 = 0;
        CG_CHECK(cudaFuncSetAttribute(f1, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem1));
        CG_CHECK(cudaFuncSetAttribute(f2, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)span_bytes));
        CG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per1, f1, o.threads_per_block, smem1));
        CG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per2, f2, o.threads_per_block, span_bytes));
        grid1 = dv->sms * (per1 > 0 ? per1 : 1);
        grid2 = dv->sms * (per2 > 0 ? per2 : 1);
    }
    /* units per launch: about launch_numbers numbers */
    uint64_t per = j.batch ? o.launch_numbers / j.batch : o.launch_numbers;
    if (per < 1) per = 1;
    /* BATCH_WARP: at least a piece per warp of the grid in each launch (large batches, e.g. the
     * CLI's --stats 1048576, would otherwise leave most of the GPU idle; the V3 layout ran a
     * block per batch, 128 blocks per launch of 2^27 numbers at batch 2^20) */
    const uint64_t pmax = v5 ? CG_DELAY_PIECE5 : CG_DELAY_PIECE;
    const uint64_t piece = j.batch < pmax ? j.batch : pmax;
    const uint64_t upb = j.batch ? (j.batch + piece - 1) / piece : 1;
    if (mode == MODE_BATCH_WARP) {
        const uint64_t warps = (uint64_t)grid * (uint64_t)(o.threads_per_block / 32);
        if (span > 1) {
            if (per < warps * span) per = warps * span;
        } else if (per * upb < warps) {
            per = (warps + upb - 1) / upb;
        }
    }
    if (per > un) per = un ? un : 1;
    dcache &dc = g_dc[g < CG_MAX_DEV ? g : 0];
    if (g >= CG_MAX_DEV) return BULK_ERR_ARG;
    dbuf *b = dc.b;
    cudaStream_t stream = NULL, copier = NULL;
    int status = BULK_OK;
#define DG_TRY(call)                                                                               \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            cg_note_error(err_, #call, __FILE__, __LINE__);                                        \
            status = BULK_ERR_CUDA;                                                                \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)
    /* streams, events and buffers are kept between calls (per device, grown when a call needs
     * more): the CLI calls once per 2^30 numbers, and creating them cost a few ms per call */
    if (!dc.stream) {
        DG_TRY(cudaStreamCreateWithFlags(&dc.stream, cudaStreamNonBlocking));
        DG_TRY(cudaStreamCreateWithFlags(&dc.copier, cudaStreamNonBlocking));
        for (int i = 0; i < 2; i++) {
            DG_TRY(cudaMalloc(&b[i].d_cnt, 64));
            DG_TRY(cudaMallocHost(&b[i].h_cnt, 64));
            DG_TRY(cudaEventCreateWithFlags(&b[i].ev, cudaEventDisableTiming));
            DG_TRY(cudaEventCreate(&b[i].k0));
            DG_TRY(cudaEventCreate(&b[i].k1));
        }
    }
    stream = dc.stream;
    copier = dc.copier;
    if (v5 && dc.cj_d != e->d) {
        /* the packed entries j | C << 5 of the engine's tables (J = d + j), once per d */
        const size_t n = (size_t)1 << e->d;
        uint32_t *h = (uint32_t *)malloc(n * 4);
        if (!h) {
            status = BULK_ERR_NOMEM;
            goto done;
        }
        for (size_t L = 0; L < n; L++) h[L] = cg5_entry((unsigned)(e->J[L] - e->d), e->C[L]);
        cudaFree(dc.CJ);
        dc.CJ = NULL;
        dc.cj_d = 0;
        cudaError_t ce = cudaMalloc(&dc.CJ, n * 4);
        if (ce == cudaSuccess) ce = cudaMemcpy(dc.CJ, h, n * 4, cudaMemcpyHostToDevice);
        free(h);
        DG_TRY(ce);
        dc.cj_d = e->d;
    }
    if (cls && (dc.cls_M != e->M || dc.cls_n != e->ncls)) {
        /* the classes (c, 3^j) and the residue map, once per device (they depend on M only) */
        const size_t R = (size_t)1 << e->M, Q = e->ncls;
        uint32_t *hm = (uint32_t *)malloc(R * 4);
        uint64_t *hc = (uint64_t *)malloc(Q * 16);
        if (!hm || !hc) {
            free(hm);
            free(hc);
            status = BULK_ERR_NOMEM;
            goto done;
        }
        cg6_class_tables(e->M, e->ncls, e->cls, e->cls_j, e->cls_c, bulk_cz_pow3, hm, hc);
        cudaFree(dc.cls2);
        cudaFree(dc.cmap);
        dc.cls2 = NULL;
        dc.cmap = NULL;
        dc.cls_M = 0;
        cudaError_t ce = cudaMalloc(&dc.cls2, Q * 16);
        if (ce == cudaSuccess) ce = cudaMalloc(&dc.cmap, R * 4);
        if (ce == cudaSuccess) ce = cudaMemcpy(dc.cls2, hc, Q * 16, cudaMemcpyHostToDevice);
        if (ce == cudaSuccess) ce = cudaMemcpy(dc.cmap, hm, R * 4, cudaMemcpyHostToDevice);
        free(hm);
        free(hc);
        DG_TRY(ce);
        dc.cls_M = e->M;
        dc.cls_n = (uint32_t)Q;
    }
    if (cls) {
        /* phase 1's class delays for the blocks one launch touches */
        const uint64_t need = ((per * (j.batch ? j.batch : 1) >> e->M) + 2) * (uint64_t)e->ncls;
        if (dc.cap_cd < need) {
            cudaFree(dc.cd);
            dc.cd = NULL;
            dc.cap_cd = 0;
            DG_TRY(cudaMalloc(&dc.cd, need * 2));
            dc.cap_cd = need;
        }
    }
    for (int i = 0; i < 2; i++) {
        b[i].n = 0;
        if (!j.batch && dc.cap_out < per) {
            dbuf_free_out(&b[i]);
            DG_TRY(cudaMalloc(&b[i].d_out, per * 4));
            DG_TRY(cudaMallocHost(&b[i].h_out, per * 4));
        }
        if (j.batch && dc.cap_b < per) {
            dbuf_free_b(&b[i]);
            DG_TRY(cudaMalloc(&b[i].d_mn, per * 4));
            DG_TRY(cudaMalloc(&b[i].d_mx, per * 4));
            DG_TRY(cudaMalloc(&b[i].d_sum, per * 8));
            DG_TRY(cudaMallocHost(&b[i].h_mn, per * 4));
            DG_TRY(cudaMallocHost(&b[i].h_mx, per * 4));
            DG_TRY(cudaMallocHost(&b[i].h_sum, per * 8));
        }
        if (dc.cap_esc < o.escape_capacity) {
            cudaFree(b[i].d_esc);
            cudaFreeHost(b[i].h_esc);
            b[i].d_esc = b[i].h_esc = NULL;
            DG_TRY(cudaMalloc(&b[i].d_esc, (size_t)o.escape_capacity * 8));
            DG_TRY(cudaMallocHost(&b[i].h_esc, (size_t)o.escape_capacity * 8));
        }
    }
    if (!j.batch && dc.cap_out < per) dc.cap_out = per;
    if (j.batch && dc.cap_b < per) dc.cap_b = per;
    if (dc.cap_esc < o.escape_capacity) dc.cap_esc = o.escape_capacity;
    for (uint64_t done_u = 0, it = 0;; it++) {
        dbuf &cur = b[it & 1], &prev = b[(it & 1) ^ 1];
        /* launch the next piece into cur (cur's previous contents were settled) */
        if (done_u < un) {
            uint64_t n = un - done_u < per ? un - done_u : per;
            if (cls && done_u + n < un && ub <= ((uint64_t)1 << e->M) && (((uint64_t)1 << e->M) % ub) == 0) {
                /* end the launch on a class block's boundary where the units allow it (else
                 * both launches run the classes of the block they share) */
                const uint64_t rem = (uint64_t)((j.first + (u128)(u0 + done_u + n) * ub) & (((u128)1 << e->M) - 1));
                if (rem % ub == 0 && rem / ub < n / 2) n -= rem / ub;
            }
            dparams p;
            memset(&p, 0, sizeof p);
            cg_ktables_fill(&p.tb, dv);
            p.first_lo = (uint64_t)j.first;
            p.first_hi = (uint64_t)(j.first >> 64);
            p.off0 = j.batch ? (u0 + done_u) * j.batch : u0 + done_u;
            p.count = n;
            p.batch = j.batch;
            p.piece = piece;
            p.span = span;
            p.lgb = lgb;
            p.CJ = dc.CJ;
            p.mask4 = ((1u << e->d) - 1) << 2;
            p.dmask = cg5_done_mask((unsigned)e->a);
            p.gsh = 32 - cg5_guard_bits((unsigned)e->d);
            p.out = cur.d_out;
            p.mn = cur.d_mn;
            p.mx = cur.d_mx;
            p.sum = cur.d_sum;
            p.esc = cur.d_esc;
            p.esc_count = cur.d_cnt;
            p.esc_cap = o.escape_capacity;
            DG_TRY(cudaMemsetAsync(cur.d_cnt, 0, 64, stream));
            if (mode == MODE_BATCH_WARP && upb > 1) {
                /* the pieces of a batch merge by atomics into (0, UINT32_MAX, 0) */
                DG_TRY(cudaMemsetAsync(cur.d_sum, 0, n * 8, stream));
                DG_TRY(cudaMemsetAsync(cur.d_mn, 0xff, n * 4, stream));
                DG_TRY(cudaMemsetAsync(cur.d_mx, 0, n * 4, stream));
            }
            DG_TRY(cudaEventRecord(cur.k0, stream));
            if (cls) {
                /* phase 1 for every block the launch touches, then phase 2 */
                const u128 n0 = j.first + (u128)p.off0, nn = (u128)n * (j.batch ? j.batch : 1);
                p.B0 = (uint64_t)(n0 >> e->M);
                p.nbk = (uint32_t)(((n0 + nn - 1) >> e->M) - (n0 >> e->M) + 1);
                p.cls2 = dc.cls2;
                p.cmap = dc.cmap;
                p.cd = dc.cd;
                p.ncls = dc.cls_n;
                p.M = (uint32_t)e->M;
                st->classes += (uint64_t)p.nbk * p.ncls;
                f1<<<grid1, o.threads_per_block, smem1, stream>>>(p);
                DG_TRY(cudaGetLastError());
                f2<<<grid2, o.threads_per_block, span_bytes, stream>>>(p);
            } else {
                f<<<grid, o.threads_per_block, smem, stream>>>(p);
            }
            DG_TRY(cudaGetLastError());
            DG_TRY(cudaEventRecord(cur.k1, stream));
            st->launches++;
            if (!j.batch) {
                DG_TRY(cudaMemcpyAsync(cur.h_out, cur.d_out, n * 4, cudaMemcpyDeviceToHost, stream));
            } else {
                DG_TRY(cudaMemcpyAsync(cur.h_mn, cur.d_mn, n * 4, cudaMemcpyDeviceToHost, stream));
                DG_TRY(cudaMemcpyAsync(cur.h_mx, cur.d_mx, n * 4, cudaMemcpyDeviceToHost, stream));
                DG_TRY(cudaMemcpyAsync(cur.h_sum, cur.d_sum, n * 8, cudaMemcpyDeviceToHost, stream));
            }
            DG_TRY(cudaMemcpyAsync(cur.h_cnt, cur.d_cnt, 4, cudaMemcpyDeviceToHost, stream));
            DG_TRY(cudaEventRecord(cur.ev, stream));
            cur.start = u0 + done_u;
            cur.n = n;
            done_u += n;
        }
        /* settle the previous piece on the host while the GPU runs this one */
        if (prev.n) {
            double t0 = cg_now();
            DG_TRY(cudaEventSynchronize(prev.ev));
            float kms = 0;
            if (cudaEventElapsedTime(&kms, prev.k0, prev.k1) == cudaSuccess) st->kernel_seconds += 1e-3 * kms;
            unsigned int cnt = prev.h_cnt[0];
            if (cnt && cnt <= o.escape_capacity) {
                /* only the escapes written; the GPU meanwhile runs the next launch */
                DG_TRY(cudaMemcpyAsync(prev.h_esc, prev.d_esc, (size_t)cnt * 8, cudaMemcpyDeviceToHost, copier));
                DG_TRY(cudaStreamSynchronize(copier));
            }
            if (!j.batch) {
                memcpy(j.out + prev.start, prev.h_out, prev.n * 4);
            } else {
                memcpy(j.sum + prev.start, prev.h_sum, prev.n * 8);
                memcpy(j.mn + prev.start, prev.h_mn, prev.n * 4);
                memcpy(j.mx + prev.start, prev.h_mx, prev.n * 4);
            }
            if (cnt > o.escape_capacity) {
                /* more escapes than the buffer kept: settle the whole piece on the host */
                st->reruns++;
                for (uint64_t u = prev.start; u < prev.start + prev.n && status == BULK_OK; u++) {
                    uint64_t nb = j.batch ? j.batch : 1;
                    if (j.batch) {
                        j.sum[u] = 0;
                        j.mn[u] = UINT32_MAX;
                        j.mx[u] = 0;
                    }
                    for (uint64_t i = 0; i < nb && status == BULK_OK; i++) {
                        uint64_t off = j.batch ? u * j.batch + i : u;
                        int64_t dl = bulk_cz_delay_of(e, cz_make((uint64_t)(j.first + off), (uint64_t)((j.first + off) >> 64)));
                        if (dl < 0 || dl > UINT32_MAX) status = dl < 0 ? (int)dl : BULK_ERR_OVERFLOW;
                        else if (!j.batch) j.out[u] = (uint32_t)dl;
                        else {
                            j.sum[u] += (uint64_t)dl;
                            if ((uint32_t)dl < j.mn[u]) j.mn[u] = (uint32_t)dl;
                            if ((uint32_t)dl > j.mx[u]) j.mx[u] = (uint32_t)dl;
                        }
                    }
                }
            } else {
                for (unsigned int i = 0; i < cnt && status == BULK_OK; i++) status = settle(j, prev.h_esc[i]);
                st->escapes += cnt;
            }
            prev.n = 0;
            double dt = cg_now() - t0;
            if (done_u >= un && !cur.n) st->tail_seconds += dt;
            else st->escape_seconds += dt;
            if (status != BULK_OK) goto done;
        }
        /* done when nothing is left to launch or to settle; otherwise the next round settles
         * cur (as its prev) */
        if (done_u >= un && !cur.n && !prev.n) break;
    }
done:
    if (stream) cudaStreamSynchronize(stream);
    /* after an error nothing is trusted: the next call starts from scratch */
    if (status != BULK_OK) dcache_free(&dc);
#undef DG_TRY
    return status;
}

int run(const djob &j)
{
    bulk_collatz_cuda_stats *st = cg_stats();
    memset(st, 0, sizeof *st);
    const int G = cg_devices();
    if (G == 0) return BULK_ERR_NO_BACKEND;
    double t0 = cg_now();
    int s = j.count ? cg_run_devices(G, delays_device, (void *)&j) : BULK_OK;
    st->devices = G;
    st->seconds = cg_now() - t0;
    return s;
}

int check(const bulk_collatz_engine *e, bulk_u128 first, u128 count)
{
    if (!e || e->a == 0 || (first.lo == 0 && first.hi == 0)) return BULK_ERR_ARG;
    if (count && cg_w_of(first) + (count - 1) < cg_w_of(first)) return BULK_ERR_ARG;
    if (count >> 64) return BULK_ERR_ARG;
    return BULK_OK;
}

} // namespace

/* The delay driver's cached buffers of device `dev` (current on the calling thread). */
void cg_delays_release(int dev)
{
    if (dev >= 0 && dev < CG_MAX_DEV) dcache_free(&g_dc[dev]);
}

int cg_delays_cached(int dev) { return dev >= 0 && dev < CG_MAX_DEV && g_dc[dev].stream != NULL; }

extern "C" int bulk_collatz_cuda_delays(const bulk_collatz_engine *e, bulk_u128 first,
                                        uint64_t count, uint32_t *out)
{
    if (!out && count) return BULK_ERR_ARG;
    int s = check(e, first, count);
    if (s) return s;
    djob j = { e, cg_w_of(first), count, 0, out, NULL, NULL, NULL };
    return run(j);
}

extern "C" int bulk_collatz_cuda_delay_stats(const bulk_collatz_engine *e, bulk_u128 first,
                                             uint64_t batch, uint64_t nbatches, uint64_t *sum,
                                             uint32_t *min, uint32_t *max)
{
    if (batch == 0 || (nbatches && (!sum || !min || !max))) return BULK_ERR_ARG;
    int s = check(e, first, (u128)batch * nbatches);
    if (s) return s;
    djob j = { e, cg_w_of(first), nbatches, batch, NULL, sum, min, max };
    return run(j);
}
