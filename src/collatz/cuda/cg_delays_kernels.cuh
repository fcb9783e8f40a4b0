/* The delay kernels of the CUDA Collatz backend (CUDA C++, included by cg_delays.cu only): V4X2
 * (k_delays4), V5 (k_delays5), the two phases of the merge-class path (k_classes, k_members),
 * V3 and the CORE kernel's loop (k_delays), and the choice of a kernel for a launch (pick). */
#ifndef BULK_COLLATZ_CUDA_CG_DELAYS_KERNELS_CUH
#define BULK_COLLATZ_CUDA_CG_DELAYS_KERNELS_CUH

#include "collatz/cuda/cg_delays_loops.cuh"

namespace {

/* V4 kernels (fast kernel only): OUT, BATCH_THREAD (NL = 1: its put counts in m order) and
 * BATCH_WARP. */
/* Not register-bounded: compiled for 32 registers, the one-number-per-lane kernels ran with 64
 * resident warps, but ptxas recomputed the shared table addresses in every step (~12 of ~37 instructions per step, SASS); at d <= 12 the shared tables allowed only 24
 * warps anyway (docs/perf/collatz-gpu.md). 40 registers (48 warps), BC + J only in shared memory. */
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

/* ---- the class path (merge classes, cg_delay6.h; docs/collatz-gpu.md "The lean round end and the
 * class path") ---- */

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
 * an H200 x 4096 numbers: 4 blocks, 7 MB; with pieces of about a launch per
 * grid, D of all 33 blocks, 58 MB, was read at once, past the L2: 0.28 issued per cycle, a third
 * of the kernel time, docs/perf/collatz-gpu-delays.md); 4096 rather than less, so that the pieces of a large batch merge by few
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
     * has CG6_GATHER chains in flight (with one number at a time, 68% of the warps' cycles
     * waited on these loads: docs/perf/collatz-gpu-delays.md) */
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

} // namespace
#endif
