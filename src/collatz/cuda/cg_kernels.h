/* Device-side pieces shared by the Collatz kernels (CUDA C++ only): the table set passed to a
 * kernel, its copy into shared memory, and the block reduction of a verify accumulator. */
#ifndef BULK_COLLATZ_CUDA_CG_KERNELS_H
#define BULK_COLLATZ_CUDA_CG_KERNELS_H

#include <string.h>

#include "collatz/cuda/cg_host.h"
#include "collatz/cuda/cg_plan.h"

#define CG_MAX_THREADS 512

/* What a kernel gets of the tables (by value, in its parameter space): device pointers to
 * BC (packed, d <= 20), BM (dip test), B, C (64-bit), J, A (delays, or NULL), 3^0..3^40. */
struct cg_ktables {
    const uint64_t *BC, *BM, *B, *C;
    const uint8_t *J;
    const uint16_t *A;
    const uint32_t *ROFF; /* record replays (cg_core.h), global memory; NULL when d > 20 */
    const uint64_t *REC;
    const uint8_t *RST;
    int d, a;
    uint64_t pow3[41];
};

static inline void cg_ktables_fill(cg_ktables *t, const cg_dev *dv)
{
    t->BC = dv->BC;
    t->BM = dv->BM;
    t->B = dv->B;
    t->C = dv->C;
    t->J = dv->J;
    t->A = dv->A;
    t->ROFF = dv->ROFF;
    t->REC = dv->REC;
    t->RST = dv->RST;
    t->d = dv->d;
    t->a = dv->a;
    memcpy(t->pow3, bulk_cz_pow3, sizeof t->pow3);
}

/* The tables as a kernel reads them: in shared memory (SH) or global memory. */
struct cg_tabs {
    const uint64_t *BC, *BM, *B, *C, *pow3;
    const uint8_t *J;
};

/* Bytes of dynamic shared memory a kernel needs: 3^j always (the WALK layout indexes it with a
 * different j in each thread), the tables when SH. */
static inline size_t cg_smem_bytes(int d, int kernel, int sh)
{
    return 41 * sizeof(uint64_t) + (sh ? cg_smem_tables(d, kernel) : 0);
}

/* Shared bytes of the v4 delay kernels: 3^j, and BC and J without BM (9 bytes per entry
 * instead of 17: at d = 12 37 KB, 6 blocks of 256 threads per SM instead of 3). */
static inline size_t cg_smem_bytes_nobm(int d, int sh)
{
    return 41 * sizeof(uint64_t) + (sh ? ((size_t)9 << d) : 0);
}

/* Copies the tables into shared memory (when SH); every thread must call it. Layout: pow3[41],
 * then BC[2^d] BM[2^d] J[2^d] (fast kernel) or B[2^d] C[2^d] J[2^d] (core kernel); WITH_BM =
 * false (fast kernel, delays): BC[2^d] J[2^d], BM left in global memory (unused). */
template <int KV, bool SH, bool WITH_BM = true> __device__ cg_tabs cg_setup_tables(const cg_ktables &p)
{
    extern __shared__ __align__(16) unsigned char cg_smem[];
    uint64_t *pw = (uint64_t *)cg_smem;
    for (int i = threadIdx.x; i < 41; i += blockDim.x) pw[i] = p.pow3[i];
    cg_tabs t;
    t.pow3 = pw;
    t.BC = p.BC;
    t.BM = p.BM;
    t.B = p.B;
    t.C = p.C;
    t.J = p.J;
    if (SH) {
        const uint32_t n = 1u << p.d;
        uint64_t *w = pw + 41;
        if (KV == BULK_CZ_CUDA_KERNEL_FAST) {
            uint64_t *bc = w, *bm = w + n;
            uint8_t *j = (uint8_t *)(WITH_BM ? bm + n : bm);
            for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
                bc[i] = p.BC[i];
                if (WITH_BM) bm[i] = p.BM[i];
                j[i] = p.J[i];
            }
            t.BC = bc;
            if (WITH_BM) t.BM = bm;
            t.J = j;
        } else {
            uint64_t *b = w, *c = w + n;
            uint8_t *j = (uint8_t *)(c + n);
            for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
                b[i] = p.B[i];
                c[i] = p.C[i];
                j[i] = p.J[i];
            }
            t.B = b;
            t.C = c;
            t.J = j;
        }
    }
    __syncthreads();
    return t;
}

__device__ __forceinline__ void cg_shfl_merge(cg_acc &a, int off)
{
    cg_acc b;
    const unsigned full = 0xffffffffu;
    b.sum = __shfl_down_sync(full, a.sum, off);
    b.iter = __shfl_down_sync(full, a.iter, off);
    b.maxg = __shfl_down_sync(full, a.maxg, off);
    b.maxn.x0 = __shfl_down_sync(full, a.maxn.x0, off);
    b.maxn.x1 = __shfl_down_sync(full, a.maxn.x1, off);
    b.maxn.x2 = __shfl_down_sync(full, a.maxn.x2, off);
    b.maxn.x3 = __shfl_down_sync(full, a.maxn.x3, off);
    cg_acc_merge(&a, &b);
}

/* Block reduction of a verify accumulator; thread 0 merges it into out[blockIdx.x]
 * (read-modify-write: launches on one stream run in order and only this block index touches
 * the slot). All threads of the block must call it. */
__device__ inline void cg_block_store(cg_acc a, cg_acc *out)
{
    __shared__ cg_acc part[CG_MAX_THREADS / 32];
    for (int off = 16; off > 0; off >>= 1) cg_shfl_merge(a, off);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
    if (lane == 0) part[warp] = a;
    __syncthreads();
    if (warp == 0) {
        if (lane < nw) a = part[lane];
        else cg_acc_init(&a);
        for (int off = 16; off > 0; off >>= 1) cg_shfl_merge(a, off);
        if (lane == 0) {
            cg_acc s = out[blockIdx.x];
            cg_acc_merge(&s, &a);
            out[blockIdx.x] = s;
        }
    }
}

#endif
