/* Multiplication by the warp-column kernel (seed 002's convolution, one block per instance):
 * the large widths and odd widths above sum-rotate. */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/mul/mul_internal.cuh"
#include "backend/cuda/smem_limit.cuh"

namespace {

/* ---- the warp-column kernel ------------------------------------------------------------------ */


/* r (2 limbs per instance) = a * b, one block per instance, blockDim a multiple of 32. */
__global__ void mul_cols_kernel(bg_limb *r, const bg_limb *a, const bg_limb *b, int limbs)
{
    extern __shared__ bg_word sm[];
    const int N = 2 * limbs, C = 2 * N; /* words of an operand, of the product */
    const int T = (C + BG_COLS_PER_TASK - 1) / BG_COLS_PER_TASK;
    const int q = bg_bpad_q(N);
    bg_word *sa = sm, *sb = sa + N, *sH = sb + 4 * q;
    uint32_t *sG = sH + 3 * T, *sP = sG + T;
    size_t inst = blockIdx.x;
    const bg_word *ga = (const bg_word *)(a + inst * limbs);
    const bg_word *gb = (const bg_word *)(b + inst * limbs);
    bg_word *out = (bg_word *)(r + inst * 2 * (size_t)limbs);
    for (int k = threadIdx.x; k < N; k += blockDim.x) sa[k] = ga[k];
    for (int jp = threadIdx.x; jp < N + 2 * BG_PAD; jp += blockDim.x) {
        int j = jp - BG_PAD;
        sb[bg_bpad_pos(jp, q)] = (j >= 0 && j < N) ? gb[j] : 0;
    }
    __syncthreads();

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    /* phase A: column sums; lane l adds lane l-1's overflow; lane 31's goes to the next task */
    for (int t = warp; t < T; t += nwarps) {
        int ilo, ihi;
        bg_task_range(t, N, &ilo, &ihi);
        int k0 = t * BG_COLS_PER_TASK + 4 * lane;
        bg_word acc[12], L[4], H[3], Hp[3];
        bg_col4_lane(acc, sa, sb, q, k0, ilo, ihi);
        bg_col4_finish(acc, L, H);
        for (int k = 0; k < 3; k++) {
            Hp[k] = __shfl_up_sync(0xffffffffu, H[k], 1);
            if (lane == 0) Hp[k] = 0;
        }
        bg_word g = bg_add_h(L, Hp);
        if (lane == 31)
            for (int k = 0; k < 3; k++) sH[3 * t + k] = H[k];
        if (k0 < C) store4(out + k0, L);
        uint32_t G = __ballot_sync(0xffffffffu, g != 0);
        if (lane == 0) sG[t] = G;
    }
    __syncthreads();
    /* phase B: the first lane of each task takes the previous task's overflow; masks */
    for (int t = warp; t < T; t += nwarps) {
        int k0 = t * BG_COLS_PER_TASK + 4 * lane;
        bool in = k0 < C;
        bg_word L[4] = {0, 0, 0, 0};
        if (in) load4(L, out + k0);
        bg_word g = (sG[t] >> lane) & 1;
        if (lane == 0 && t > 0) {
            g = bg_add_h(L, sH + 3 * (t - 1));
            if (in) store4(out + k0, L);
        }
        bool p = in && (L[0] & L[1] & L[2] & L[3]) == 0xffffffffu;
        uint32_t G = __ballot_sync(0xffffffffu, g != 0);
        uint32_t P = __ballot_sync(0xffffffffu, p);
        __syncwarp();
        if (lane == 0) {
            sG[t] = G;
            sP[t] = P;
        }
    }
    __syncthreads();
    /* phase C: carries in, over tasks (serial: T <= 256) then over lanes (one addition) */
    for (int t = warp; t < T; t += nwarps) {
        uint32_t cin = 0, cout;
        for (int u = 0; u < t; u++) {
            bg_warp_carries(sG[u], sP[u], cin, &cout);
            cin = cout;
        }
        uint32_t mask = bg_warp_carries(sG[t], sP[t], cin, &cout);
        int k0 = t * BG_COLS_PER_TASK + 4 * lane;
        if (((mask >> lane) & 1) && k0 < C) {
            bg_word L[4];
            load4(L, out + k0);
            for (int k = 0; k < 4; k++)
                if (++L[k] != 0) break;
            store4(out + k0, L);
        }
    }
}

size_t cols_smem_bytes(int limbs, int *threads)
{
    int N = 2 * limbs, T = (2 * N + BG_COLS_PER_TASK - 1) / BG_COLS_PER_TASK;
    *threads = 32 * (T < 8 ? T : 8);
    return sizeof(bg_word) * ((size_t)N + 4 * (size_t)bg_bpad_q(N) + 5 * (size_t)T);
}

} // namespace

namespace bgmul {

int launch_cols(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                cudaStream_t st)
{
    int threads;
    size_t smem = cols_smem_bytes(limbs, &threads);
    if (smem > 48 * 1024)
        BULK_CUDA_CHECK(NULL, bulk_cuda_smem_at_least((const void *)mul_cols_kernel, smem));
    const size_t max_grid = 0x7fffffffu;
    for (size_t done = 0; done < n; done += max_grid) {
        size_t cnt = n - done < max_grid ? n - done : max_grid;
        mul_cols_kernel<<<(unsigned)cnt, threads, smem, st>>>(r + done * 2 * limbs, a + done * limbs,
                                                               b + done * limbs, limbs);
        BULK_CUDA_CHECK_LAUNCH(NULL);
    }
    return BULK_OK;
}

} // namespace bgmul
