/* Trial division on the GPU: bg_trial_one (core/trial.h) per thread over the column-major copy
 * of the numbers (num_cols.cuh: word j of instance i at j * npad + i, so a warp's reads of one
 * word index are coalesced); out[i] = 0, 1 or 2 (undecided), isprime's step 1 on a CUDA
 * context (int/int_prime_offload.h). The table is read by every thread of a warp at the same
 * index (a broadcast). */
#include "int/cuda/num/num_cols.cuh"
#include "int/cuda/core/trial.h"

namespace {

__global__ void trial_kernel(uint8_t *out, const bg_word *A, size_t n, size_t npad, int nw,
                             const bg_trial_group *g, size_t ng, const bg_trial_prime *q,
                             uint32_t limit)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = (uint8_t)bg_trial_one(A + i, npad, nw, g, ng, q, limit);
}

} // namespace

size_t bg_trial_scratch_words(size_t limbs) { return 2 * limbs; }

int bg_launch_trial(uint8_t *out, const bg_limb *a, size_t n, size_t limbs,
                    const bg_trial_table *t, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    int nw = (int)(2 * limbs);
    size_t words = bg_trial_scratch_words(limbs);
    size_t batch = sub_batch(n, words), np = pad32(batch);
    bg_word *A;
    int rc = scratch_alloc(&A, words * np, st);
    if (rc != BULK_OK) return rc;
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = to_cols(A, a + done * limbs, cnt, np, limbs, st);
        if (rc != BULK_OK) break;
        trial_kernel<<<grid_for(cnt), kThreads, 0, st>>>(out + done, A, cnt, np, nw, t->g, t->ng,
                                                          t->q, t->limit);
        BULK_CUDA_CHECK_GOTO(NULL, cudaGetLastError(), rc);
    }
fail:
    if (cudaFreeAsync(A, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}
