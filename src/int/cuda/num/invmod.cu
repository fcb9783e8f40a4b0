/* invmod on the GPU: the choice between the cooperative kernel for odd moduli
 * (num/invmod_coop.cu, a group of lanes per instance, from BG_IC_MIN_WORDS words on) and the
 * extended approximate Euclidean algorithm here (src/int/cuda/core/invmod.h), one instance per
 * thread on column-major scratch, like the wide gcd (num/gcd.cu); the latter also finishes the
 * instances the cooperative kernel leaves (bg_launch_invmod_rest). */
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

/* The instances with todo[i] set, one per thread of a persistent grid of `threads` threads:
 * each copies its a and m into its own column scratch (stride threads: A, M, R, then
 * bg_invmod's words) and writes r, err and *bad for them. */
__global__ void invmod_rest_kernel(bg_limb *r, const bg_limb *a, const bg_limb *m,
                                   const uint8_t *todo, bg_word *S, size_t n, size_t threads,
                                   int limbs, int8_t *err, int *bad)
{
    const int nw = 2 * limbs;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    bg_word *A = S + t, *Mw = A + (size_t)nw * threads, *Rw = Mw + (size_t)nw * threads;
    bg_word *W = Rw + (size_t)nw * threads;
    for (size_t i = t; i < n; i += threads) {
        if (!todo[i]) continue;
        const bg_word *ai = (const bg_word *)(a + i * limbs);
        const bg_word *mi = (const bg_word *)(m + i * limbs);
        for (int j = 0; j < nw; j++) {
            A[(size_t)j * threads] = ai[j];
            Mw[(size_t)j * threads] = mi[j];
        }
        int st = bg_invmod(Rw, A, Mw, W, threads, nw);
        bg_word *ri = (bg_word *)(r + i * limbs);
        for (int j = 0; j < nw; j++) ri[j] = Rw[(size_t)j * threads];
        int code = st == BG_INV_DIVZERO ? BULK_ERR_DIVZERO
                   : st == BG_INV_NONE  ? BULK_ERR_NOT_INVERTIBLE
                                        : 0;
        if (err) err[i] = (int8_t)code;
        if (code && bad) atomicExch(bad, 1);
    }
}

/* Bytes of column scratch bg_launch_invmod_rest takes at most, whatever n: even moduli are
 * expected to be few next to odd ones, so their threads are bounded rather than one per
 * instance. */
const size_t kRestScratch = (size_t)64 << 20;

} // namespace

int bg_launch_invmod_rest(bg_limb *r, const bg_limb *a, const bg_limb *m, const uint8_t *todo,
                          size_t n, size_t limbs, int8_t *err, int *bad, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    size_t nw = 2 * limbs, words = 3 * nw + bg_invmod_scratch_words((int)nw);
    size_t threads = kRestScratch / (words * sizeof(bg_word));
    unsigned grid = persistent_grid(invmod_rest_kernel, kInvBlocksPerSM);
    if (threads > (size_t)grid * kThreads) threads = (size_t)grid * kThreads;
    if (threads > pad32(n)) threads = pad32(n);
    threads = threads < 32 ? 32 : threads / 32 * 32;
    bg_word *s;
    int rc = scratch_alloc(&s, words * threads, st);
    if (rc != BULK_OK) return rc;
    invmod_rest_kernel<<<grid_for(threads), kThreads, 0, st>>>(r, a, m, todo, s, n, threads,
                                                                (int)limbs, err, bad);
    if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

int bg_launch_invmod(bg_limb *r, const bg_limb *a, const bg_limb *m, size_t n, size_t limbs,
                     int8_t *err, int *bad, const bulk_tune *t, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    int tpi, L;
    if (bg_ic_shape((int)(2 * limbs), t ? t->int_invmod_tpi : 0, &tpi, &L))
        return bg_launch_invmod_coop(r, a, m, n, limbs, tpi, L, err, bad, st);
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
