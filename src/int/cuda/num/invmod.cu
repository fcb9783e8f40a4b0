/* invmod on the GPU: the extended approximate Euclidean algorithm (src/int/cuda/core/invmod.h),
 * one instance per thread on column-major scratch, like the wide gcd (num/gcd.cu). */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/num/num_cols.cuh"

namespace {

/* A persistent grid, as the approximate gcd kernel's (num/gcd.cu): the resident threads'
 * working words stay in L1. */
const int kInvBlocksPerSM = 6;

__global__ void invmod_kernel(bg_word *Rc, const bg_word *A, const bg_word *Mc, bg_word *S,
                              size_t n, size_t npad, int nw, int8_t *err, int *bad)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        int st = bg_invmod(Rc + i, A + i, Mc + i, S + i, npad, nw);
        int code = st == BG_INV_DIVZERO ? BULK_ERR_DIVZERO
                   : st == BG_INV_NONE  ? BULK_ERR_NOT_INVERTIBLE
                                        : 0;
        if (err) err[i] = (int8_t)code;
        if (code && bad) atomicExch(bad, 1);
    }
}

} // namespace

int bg_launch_invmod(bg_limb *r, const bg_limb *a, const bg_limb *m, size_t n, size_t limbs,
                     int8_t *err, int *bad, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    size_t nw = 2 * limbs, words = 3 * nw + bg_invmod_scratch_words((int)nw);
    size_t batch = sub_batch(n, words), np = pad32(batch);
    bg_word *s;
    int rc = scratch_alloc(&s, words * np, st);
    if (rc != BULK_OK) return rc;
    bg_word *A = s, *M = A + nw * np, *R = M + nw * np, *S = R + nw * np;
    unsigned grid = persistent_grid(invmod_kernel, kInvBlocksPerSM);
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = to_cols(A, a + done * limbs, cnt, np, limbs, st);
        if (rc == BULK_OK) rc = to_cols(M, m + done * limbs, cnt, np, limbs, st);
        if (rc != BULK_OK) break;
        invmod_kernel<<<grid < grid_for(cnt) ? grid : grid_for(cnt), kThreads, 0, st>>>(
            R, A, M, S, cnt, np, (int)nw, err ? err + done : NULL, bad);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
        if (rc == BULK_OK) rc = from_cols(r + done * limbs, R, cnt, np, limbs, st);
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}
