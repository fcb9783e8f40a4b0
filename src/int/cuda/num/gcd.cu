/* gcd on the GPU: batched divsteps in registers up to 32 limbs, seed 001's approximate
 * Euclidean algorithm on column-major scratch above (and under the tuning int.gcd=approx). */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/int_gpu_gcd_core.h"
#include "int/cuda/num/num_cols.cuh"

namespace {

/* A persistent grid (kGcdBlocksPerSM blocks of kThreads per SM, striding over the instances):
 * the working set of the resident threads, X and Y of 2 x 4w bytes each (256 B at 1024 bits),
 * then stays in L1 (768 threads x 256 B = 192 KiB with the shared-memory carveout at its
 * minimum) instead of spilling to L2 and HBM as a full grid's 2048 threads per SM would. */
const int kGcdBlocksPerSM = 6;

__global__ void gcd_kernel(bg_word *G, const bg_word *A, const bg_word *B, bg_word *X, bg_word *Y,
                           size_t n, size_t npad, int nw)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        bg_gcd(G + i, A + i, B + i, X + i, Y + i, npad, nw);
}

/* gcd up to 2048 bits (limbs <= 32): batched divsteps with both numbers in registers
 * (bg_gcd_divsteps, capacity NW = 4, 8, 16, 32 or 64 words, narrower inputs zero-padded;
 * ptxas, nvcc 13 sm_90: 122 registers at 32 words, 164 at 64, no spills), reading
 * and writing the users' instance-major arrays directly: no scratch, no transposition. Each
 * instance costs ~71 batches of 30 divsteps at 1024 bits with little spread (max 74 over 20000
 * random pairs), so the threads of a warp finish together. */
template <int NW>
__global__ void __launch_bounds__(kThreads) gcd_regs_kernel(bg_limb *g, const bg_limb *a,
                                                           const bg_limb *b, size_t n, int limbs)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    size_t o = i * (size_t)limbs;
    bg_gcd_divsteps((bg_word *)(g + o), (const bg_word *)(a + o), (const bg_word *)(b + o), 1,
                    2 * limbs, NW);
}

} // namespace

int bg_launch_gcd(bg_limb *g, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs,
                  bool approx, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    if (limbs <= 32 && !approx) {
        const size_t max_grid = (size_t)0x7fffffff * kThreads;
        for (size_t done = 0; done < n; done += max_grid) {
            size_t cnt = n - done < max_grid ? n - done : max_grid;
            bg_limb *gd = g + done * limbs;
            const bg_limb *ad = a + done * limbs, *bd = b + done * limbs;
            int l = (int)limbs;
            if (limbs <= 2) gcd_regs_kernel<4><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            else if (limbs <= 4) gcd_regs_kernel<8><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            else if (limbs <= 8) gcd_regs_kernel<16><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            else if (limbs <= 16) gcd_regs_kernel<32><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            else gcd_regs_kernel<64><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            BULK_CUDA_CHECK_LAUNCH(NULL);
        }
        return BULK_OK;
    }
    size_t nw = 2 * limbs, batch = sub_batch(n, 5 * nw), np = pad32(batch);
    bg_word *s;
    int rc = scratch_alloc(&s, 5 * nw * np, st);
    if (rc != BULK_OK) return rc;
    bg_word *A = s, *B = A + nw * np, *G = B + nw * np, *X = G + nw * np, *Y = X + nw * np;
    unsigned gcd_grid = persistent_grid(gcd_kernel, kGcdBlocksPerSM);
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = to_cols(A, a + done * limbs, cnt, np, limbs, st);
        if (rc == BULK_OK) rc = to_cols(B, b + done * limbs, cnt, np, limbs, st);
        if (rc != BULK_OK) break;
        gcd_kernel<<<gcd_grid < grid_for(cnt) ? gcd_grid : grid_for(cnt), kThreads, 0, st>>>(
            G, A, B, X, Y, cnt, np, (int)nw);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
        if (rc == BULK_OK) rc = from_cols(g + done * limbs, G, cnt, np, limbs, st);
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}
