/* add, sub, cmp, shl, shr on the GPU: one instance per thread.
 *
 * These are memory bound (a W-bit add reads 2W and writes W bits for W/64 additions), so the
 * only thing that matters is moving each byte once: thread i walks its own limbs in order and
 * the warp's 32 instances, adjacent in memory, share the cache lines each load brings into L1,
 * so every line is fetched from HBM once. */
#include "int/cuda/int_cuda_internal.cuh"

namespace {

const int kThreads = 256;

unsigned grid_for(size_t n) { return (unsigned)((n + kThreads - 1) / kThreads); }

__global__ void addsub_kernel(bg_limb *r, uint8_t *flag, const bg_limb *a, const bg_limb *b,
                              size_t n, size_t limbs, int sub)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const bg_limb *x = a + i * limbs, *y = b + i * limbs;
    bg_limb *z = r + i * limbs;
    bg_limb c = 0;
    if (!sub) {
        for (size_t j = 0; j < limbs; j++) {
            bg_limb s = x[j] + y[j];
            bg_limb c1 = s < x[j];
            bg_limb t = s + c;
            c = c1 | (t < s);
            z[j] = t;
        }
    } else {
        for (size_t j = 0; j < limbs; j++) {
            bg_limb xj = x[j], yj = y[j];
            bg_limb d = xj - yj;
            bg_limb b1 = xj < yj;
            bg_limb t = d - c;
            c = b1 | (d < c);
            z[j] = t;
        }
    }
    if (flag) flag[i] = (uint8_t)c;
}

__global__ void cmp_kernel(int8_t *r, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const bg_limb *x = a + i * limbs, *y = b + i * limbs;
    int8_t v = 0;
    for (size_t j = limbs; j-- > 0;)
        if (x[j] != y[j]) {
            v = x[j] < y[j] ? -1 : 1;
            break;
        }
    r[i] = v;
}

/* r may be a exactly: shl writes from the top down and reads only at or below the written
 * index; shr the other way round. */
__global__ void shift_kernel(bg_limb *r, const bg_limb *a, size_t bits, size_t n, size_t limbs,
                             int left)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const bg_limb *x = a + i * limbs;
    bg_limb *z = r + i * limbs;
    size_t ws = bits / 64;
    unsigned bs = (unsigned)(bits % 64);
    if (left) {
        for (size_t j = limbs; j-- > 0;) {
            bg_limb hi = j >= ws ? x[j - ws] : 0;
            bg_limb lo = (bs && j >= ws + 1) ? x[j - ws - 1] : 0;
            z[j] = bs ? (hi << bs) | (lo >> (64 - bs)) : hi;
        }
    } else {
        for (size_t j = 0; j < limbs; j++) {
            bg_limb lo = j + ws < limbs ? x[j + ws] : 0;
            bg_limb hi = (bs && j + ws + 1 < limbs) ? x[j + ws + 1] : 0;
            z[j] = bs ? (lo >> bs) | (hi << (64 - bs)) : lo;
        }
    }
}

} // namespace

int bg_launch_addsub(bg_limb *r, uint8_t *flag, const bg_limb *a, const bg_limb *b, size_t n,
                     size_t limbs, int sub, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    addsub_kernel<<<grid_for(n), kThreads, 0, st>>>(r, flag, a, b, n, limbs, sub);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}

int bg_launch_cmp(int8_t *r, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs,
                  cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    cmp_kernel<<<grid_for(n), kThreads, 0, st>>>(r, a, b, n, limbs);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}

int bg_launch_shift(bg_limb *r, const bg_limb *a, size_t bits, size_t n, size_t limbs, int left,
                    cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (bits >= limbs * 64) bits = limbs * 64; /* everything shifted out: zeros */
    shift_kernel<<<grid_for(n), kThreads, 0, st>>>(r, a, bits, n, limbs, left);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}
