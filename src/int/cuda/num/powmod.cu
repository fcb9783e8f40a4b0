/* powmod on the GPU: the choice between the cooperative kernel (num/powmod_coop.cu, a group
 * of lanes per instance) and the one-thread kernels here: Montgomery with a 4-bit sliding
 * window, one instance per thread on column-major scratch, the exponent loop's numbers in
 * registers up to 16 limbs. */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/num/num_cols.cuh"

namespace {

__global__ void powmod_kernel(bg_word *R, const bg_word *B, const bg_word *E, const bg_word *M,
                              bg_word *S, size_t n, size_t npad, int nw, int8_t *err, int *bad)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int e = bg_powmod(R + i, B + i, E + i, M + i, S + i, npad, nw);
    if (err) err[i] = (int8_t)(e ? BULK_ERR_EVEN_MODULUS : 0);
    if (e && bad) atomicExch(bad, 1);
}

/* powmod with the exponent loop's numbers in registers: NW (4, 8, 16 or 32 words) is the
 * capacity, the operands zero-padded up to it (Montgomery with R = 2^(32 NW) gives the same
 * result for any R > m). */
template <int NW>
__global__ void __launch_bounds__(kThreads) powmod_regs_kernel(bg_word *R, const bg_word *B,
                                                              const bg_word *E, const bg_word *M,
                                                              bg_word *S, size_t n, size_t npad,
                                                              int8_t *err, int *bad)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int e = bg_powmod_regs(R + i, B + i, E + i, M + i, S + i, npad, NW);
    if (err) err[i] = (int8_t)(e ? BULK_ERR_EVEN_MODULUS : 0);
    if (e && bad) atomicExch(bad, 1);
}

} // namespace

int bg_launch_powmod(bg_limb *r, const bg_limb *base, const bg_limb *e, const bg_limb *m,
                     size_t n, size_t limbs, int8_t *err, int *bad, const bulk_tune *t,
                     cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    int tpi, L;
    if (bg_mc_shape((int)(2 * limbs), t ? t->int_powmod_tpi : 0, &tpi, &L))
        return bg_launch_powmod_coop(r, base, e, m, n, limbs, tpi, L, err, bad, st);
    /* limbs <= 16: the register kernel at the next capacity; above, the generic one */
    size_t nw = 2 * limbs;
    if (limbs <= 16) nw = limbs <= 2 ? 4 : limbs <= 4 ? 8 : limbs <= 8 ? 16 : 32;
    size_t sw = bg_powmod_scratch_words((int)nw);
    size_t words = 4 * nw + sw;
    size_t batch = sub_batch(n, words), np = pad32(batch);
    bg_word *s;
    int rc = scratch_alloc(&s, words * np, st);
    if (rc != BULK_OK) return rc;
    bg_word *B = s, *E = B + nw * np, *M = E + nw * np, *R = M + nw * np, *S = R + nw * np;
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = to_cols(B, base + done * limbs, cnt, np, limbs, st, nw);
        if (rc == BULK_OK) rc = to_cols(E, e + done * limbs, cnt, np, limbs, st, nw);
        if (rc == BULK_OK) rc = to_cols(M, m + done * limbs, cnt, np, limbs, st, nw);
        if (rc != BULK_OK) break;
        int8_t *er = err ? err + done : NULL;
        unsigned gr = grid_for(cnt);
        switch (limbs <= 16 ? nw : 0) {
        case 4: powmod_regs_kernel<4><<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, er, bad); break;
        case 8: powmod_regs_kernel<8><<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, er, bad); break;
        case 16: powmod_regs_kernel<16><<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, er, bad); break;
        case 32: powmod_regs_kernel<32><<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, er, bad); break;
        default: powmod_kernel<<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, (int)nw, er, bad);
        }
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
        if (rc == BULK_OK) rc = from_cols(r + done * limbs, R, cnt, np, limbs, st);
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}
