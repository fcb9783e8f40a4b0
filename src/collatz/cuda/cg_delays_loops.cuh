/* The delay loops of the CUDA Collatz backend (CUDA C++, included through cg_delays_kernels.cuh
 * by cg_delays.cu only): the launch parameters (dparams), the per-number helpers, the V4X2 lane
 * loop (lane_delays4) and the warp layouts (delays_layout: OUT, BATCH_WARP pieces), the V5 lane
 * loop with the lean round end (step5, the feeds, lane_delays6) and the span layout of small
 * batches (delays_span). */
#ifndef BULK_COLLATZ_CUDA_CG_DELAYS_LOOPS_CUH
#define BULK_COLLATZ_CUDA_CG_DELAYS_LOOPS_CUH

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

/* The V4X2 lane loop (docs/collatz-gpu.md "V4X2"): NL numbers per lane, interleaved (their
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

/* V5's loop with the lean round end (cg_delay5.h, cg_delay6.h; docs/collatz-gpu.md "V5"): the
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
 * atomics, one set per number. The sums are 32-bit (native shared atomics; 64-bit ones may be compare-and-swap loops, with up to 32 lanes on one batch): a batch here has at
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

} // namespace
#endif
