/* isprime on the GPU: bg_isprime_one (core/prime.h) per thread on column-major scratch; out[i]
 * = 0, 1 or 2 (undecided: the caller decides on the CPU). */
#include "int/cuda/num/num_cols.cuh"
#include "int/cuda/core/prime.h"

namespace {

__global__ void isprime_kernel(uint8_t *out, const bg_word *A, bg_word *S, size_t n, size_t npad,
                               int nw, unsigned rounds)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = (uint8_t)bg_isprime_one(A + i, S + i, npad, nw, rounds);
}

} // namespace

size_t bg_isprime_scratch_words(size_t limbs)
{
    return 2 * limbs + bg_prime_scratch_words((int)(2 * limbs));
}

int bg_launch_isprime(uint8_t *out, const bg_limb *a, size_t n, size_t limbs, unsigned rounds,
                      cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    int nw = (int)(2 * limbs);
    size_t words = bg_isprime_scratch_words(limbs);
    size_t batch = sub_batch(n, words), np = pad32(batch);
    bg_word *s;
    int rc = scratch_alloc(&s, words * np, st);
    if (rc != BULK_OK) return rc;
    bg_word *A = s, *S = A + (size_t)nw * np;
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = to_cols(A, a + done * limbs, cnt, np, limbs, st);
        if (rc != BULK_OK) break;
        isprime_kernel<<<grid_for(cnt), kThreads, 0, st>>>(out + done, A, S, cnt, np, nw, rounds);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}
