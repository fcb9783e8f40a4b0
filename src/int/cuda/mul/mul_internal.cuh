/* The multiplication kernels' launchers as the size choice of int_cuda_mul.cu sees them (device
 * pointers, a stream; the contract of the launchers in int_cuda_internal.cuh): r (2 limbs per
 * instance) = a * b for n instances of `limbs`, b == a allowed. */
#ifndef BULK_INT_CUDA_MUL_MUL_INTERNAL_CUH
#define BULK_INT_CUDA_MUL_MUL_INTERNAL_CUH

#include "int/cuda/int_cuda_internal.cuh"
#include "int/cuda/int_gpu_core.h"

namespace bgmul {

enum kernel { K_SR, K_COLS, K_KARA, K_TEO, K_NTT, K_COOP, K_CKARA };

enum mul_kind { MK_FULL, MK_SQR, MK_LO };

/* int_cuda_mul.cu: the kernel for this width under the tuning t (NULL: the defaults; force: the
 * tuning's int.mul may force one), and r = a b by kernel k. */
kernel choose(int limbs, const bulk_tune *t, bool force = true, mul_kind mk = MK_FULL);
int launch_full(kernel k, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                const bulk_tune *t, cudaStream_t st);

/* mul_eo.cu: the even/odd rows up to 20 limbs; lo: the low half (r of `limbs` limbs). */
int dispatch_eo(bool lo, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l,
                cudaStream_t st);

/* mul_coop.cu: a group of lanes of 16 words per instance, up to kCoopMaxLimbs (64) limbs: 4
 * lanes up to 32 limbs, 8 above (zero-padded). */
const int kCoopMaxLimbs = 64;
int launch_coop(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st);
/* mul_coop.cu: one Karatsuba step over three cooperative half products at 64 limbs (the
 * cooperative rows at other widths). */
int launch_ckara(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st);

/* mul_cols.cu: the warp-column kernel, any width up to BG_MAX_LIMBS_MUL. */
int launch_cols(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                cudaStream_t st);

/* mul_sr.cu: sum-rotate at the cheapest compiled shape (G lanes of P words; P = 0 when none
 * holds the width); sr_p: that P. */
void sr_shape(int limbs, int *P, int *G);
int sr_p(int limbs);
int launch_sr(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs, cudaStream_t st);

/* mul_kara.cu: one Karatsuba level over the batch (limbs even). */
int launch_kara(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                const bulk_tune *t, cudaStream_t st);

} // namespace bgmul

/* Four words between registers and memory (the column kernels' finished words). */
static __device__ __forceinline__ void load4(bg_word L[4], const bg_word *p)
{
    for (int k = 0; k < 4; k++) L[k] = p[k];
}
static __device__ __forceinline__ void store4(bg_word *p, const bg_word L[4])
{
    for (int k = 0; k < 4; k++) p[k] = L[k];
}

#endif
