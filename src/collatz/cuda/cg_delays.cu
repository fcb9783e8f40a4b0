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

#include "collatz/cuda/cg_kernels.h"

namespace {

enum { MODE_OUT = 0, MODE_BATCH_BLOCK = 1, MODE_BATCH_THREAD = 2 };

struct dparams {
    cg_ktables tb;
    uint64_t first_lo, first_hi; /* n of offset 0 */
    uint64_t off0;               /* offset of this launch's first number / batch start */
    uint64_t count;              /* numbers (OUT) or batches (BATCH_*) of this launch */
    uint64_t batch;
    uint32_t *out;               /* OUT: count delays; BATCH: min[count], max[count] */
    uint32_t *mn, *mx;
    unsigned long long *sum;
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
            for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
            lo = __reduce_min_sync(0xffffffffu, lo);
            hi = __reduce_max_sync(0xffffffffu, hi);
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

kfn pick(int kv, int sh, int mode)
{
#define CG_K(KV, SH)                                                                               \
    (mode == MODE_OUT ? k_delays<KV, SH, MODE_OUT>                                                 \
                      : mode == MODE_BATCH_BLOCK ? k_delays<KV, SH, MODE_BATCH_BLOCK>              \
                                                 : k_delays<KV, SH, MODE_BATCH_THREAD>)
    if (kv == BULK_CZ_CUDA_KERNEL_FAST) return sh ? CG_K(BULK_CZ_CUDA_KERNEL_FAST, true) : CG_K(BULK_CZ_CUDA_KERNEL_FAST, false);
    return sh ? CG_K(BULK_CZ_CUDA_KERNEL_CORE, true) : CG_K(BULK_CZ_CUDA_KERNEL_CORE, false);
#undef CG_K
}

struct djob {
    const bulk_collatz_engine *e;
    cg_w first;
    uint64_t count;    /* numbers (OUT) or batches */
    uint64_t batch;    /* 0: OUT */
    uint32_t *out;
    uint64_t *sum;
    uint32_t *mn, *mx;
};

/* Host share of one escaped number: its exact delay into the outputs. */
int settle(const djob &j, uint64_t off)
{
    cg_w n = j.first + off;
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
    cg_w u0w, unw;
    cg_split_rows((cg_w)j.count, G, g, &u0w, &unw);
    const uint64_t u0 = (uint64_t)u0w, un = (uint64_t)unw;
    bulk_collatz_cuda_opts o = cg_opts();
    int kv, sh;
    if ((s = cg_choose(e, dv, &kv, &sh))) return s;
    st->kernel = kv;
    st->table_mem = sh ? BULK_CZ_CUDA_MEM_SHARED : BULK_CZ_CUDA_MEM_GLOBAL;
    const int mode = !j.batch ? MODE_OUT : j.batch >= (uint64_t)o.threads_per_block ? MODE_BATCH_BLOCK : MODE_BATCH_THREAD;
    kfn f = pick(kv, sh, mode);
    const size_t smem = cg_smem_bytes(e->d, kv, sh);
    CG_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int per_sm = 0;
    CG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, o.threads_per_block, smem));
    const int grid = dv->sms * (per_sm > 0 ? per_sm : 1);
    /* units per launch: about launch_numbers numbers */
    uint64_t per = j.batch ? o.launch_numbers / j.batch : o.launch_numbers;
    if (per < 1) per = 1;
    if (per > un) per = un ? un : 1;
    struct buf {
        uint32_t *d_out, *d_mn, *d_mx, *h_out, *h_mn, *h_mx;
        unsigned long long *d_sum, *h_sum, *d_esc, *h_esc;
        unsigned int *d_cnt, *h_cnt;
        cudaEvent_t ev;
        uint64_t start, n; /* units of the launch in flight, n = 0: none */
    } b[2];
    memset(b, 0, sizeof b);
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
    DG_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    DG_TRY(cudaStreamCreateWithFlags(&copier, cudaStreamNonBlocking));
    for (int i = 0; i < 2; i++) {
        if (!j.batch) {
            DG_TRY(cudaMalloc(&b[i].d_out, per * 4));
            DG_TRY(cudaMallocHost(&b[i].h_out, per * 4));
        } else {
            DG_TRY(cudaMalloc(&b[i].d_mn, per * 4));
            DG_TRY(cudaMalloc(&b[i].d_mx, per * 4));
            DG_TRY(cudaMalloc(&b[i].d_sum, per * 8));
            DG_TRY(cudaMallocHost(&b[i].h_mn, per * 4));
            DG_TRY(cudaMallocHost(&b[i].h_mx, per * 4));
            DG_TRY(cudaMallocHost(&b[i].h_sum, per * 8));
        }
        DG_TRY(cudaMalloc(&b[i].d_esc, (size_t)o.escape_capacity * 8));
        DG_TRY(cudaMallocHost(&b[i].h_esc, (size_t)o.escape_capacity * 8));
        DG_TRY(cudaMalloc(&b[i].d_cnt, 64));
        DG_TRY(cudaMallocHost(&b[i].h_cnt, 64));
        DG_TRY(cudaEventCreateWithFlags(&b[i].ev, cudaEventDisableTiming));
    }
    for (uint64_t done_u = 0, it = 0;; it++) {
        buf &cur = b[it & 1], &prev = b[(it & 1) ^ 1];
        /* launch the next piece into cur (cur's previous contents were settled) */
        if (done_u < un) {
            uint64_t n = un - done_u < per ? un - done_u : per;
            dparams p;
            memset(&p, 0, sizeof p);
            cg_ktables_fill(&p.tb, dv);
            p.first_lo = (uint64_t)j.first;
            p.first_hi = (uint64_t)(j.first >> 64);
            p.off0 = j.batch ? (u0 + done_u) * j.batch : u0 + done_u;
            p.count = n;
            p.batch = j.batch;
            p.out = cur.d_out;
            p.mn = cur.d_mn;
            p.mx = cur.d_mx;
            p.sum = cur.d_sum;
            p.esc = cur.d_esc;
            p.esc_count = cur.d_cnt;
            p.esc_cap = o.escape_capacity;
            DG_TRY(cudaMemsetAsync(cur.d_cnt, 0, 64, stream));
            f<<<grid, o.threads_per_block, smem, stream>>>(p);
            DG_TRY(cudaGetLastError());
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
    for (int i = 0; i < 2; i++) {
        cudaFree(b[i].d_out);
        cudaFree(b[i].d_mn);
        cudaFree(b[i].d_mx);
        cudaFree(b[i].d_sum);
        cudaFree(b[i].d_esc);
        cudaFree(b[i].d_cnt);
        cudaFreeHost(b[i].h_out);
        cudaFreeHost(b[i].h_mn);
        cudaFreeHost(b[i].h_mx);
        cudaFreeHost(b[i].h_sum);
        cudaFreeHost(b[i].h_esc);
        cudaFreeHost(b[i].h_cnt);
        if (b[i].ev) cudaEventDestroy(b[i].ev);
    }
    if (stream) cudaStreamDestroy(stream);
    if (copier) cudaStreamDestroy(copier);
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

int check(const bulk_collatz_engine *e, bulk_u128 first, cg_w count)
{
    if (!e || e->a == 0 || (first.lo == 0 && first.hi == 0)) return BULK_ERR_ARG;
    if (count && cg_w_of(first) + (count - 1) < cg_w_of(first)) return BULK_ERR_ARG;
    if (count >> 64) return BULK_ERR_ARG;
    return BULK_OK;
}

} // namespace

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
    int s = check(e, first, (cg_w)batch * nbatches);
    if (s) return s;
    djob j = { e, cg_w_of(first), nbatches, batch, NULL, sum, min, max };
    return run(j);
}
