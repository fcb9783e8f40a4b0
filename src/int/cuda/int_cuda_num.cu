/* divmod, gcd, invmod and powmod on the GPU: one instance per thread over the column-major layout.
 *
 * These algorithms index their words with run-time values (lengths that shrink, windows,
 * quotient positions), so their numbers cannot live in registers. Each sub-batch is transposed
 * into column-major 32-bit words (word j of instance i at j * npad + i) in device scratch; the
 * threads of a warp then touch consecutive addresses whenever they touch the same word index,
 * which is almost always (seed 001 ch. 3: the semi-oblivious bulk execution), and every step
 * is the shared code of int_gpu_core.h that the CPU tests check against GMP. Results are
 * transposed back into the users' layout.
 *
 * This file: the scratch each family declares (bg_scratch_bytes) the kernels
 * are in src/int/cuda/num/ (gcd.cu, divmod.cu, powmod.cu), the transposition in
 * num/num_cols.cuh. */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/int_cuda_internal.cuh"
#include "int/cuda/int_gpu_core.h"

size_t bg_scratch_bytes(int op, size_t limbs, const bulk_tune *t)
{
    size_t nw = 2 * limbs;
    switch (op) {
    case BULK_INT_CUDA_MUL_LO: return limbs > BG_MUL_THREAD_MAX_LIMBS ? 2 * limbs * 8 : 0;
    case BULK_INT_CUDA_GCD: return limbs <= 32 && !(t && t->int_gcd_approx) ? 0 : 5 * nw * 4;
    case BULK_INT_CUDA_DIVMOD:
        if (limbs <= 16) return (6 * nw + 1) * 4 + 1;
        return (3 * 2 * nw + 3 * nw + 1) * 4 + 1;
    case BULK_INT_CUDA_POWMOD: {
        int tpi, L; /* the cooperative kernel works in registers and shared memory */
        if (bg_mc_shape((int)nw, t ? t->int_powmod_tpi : 0, &tpi, &L)) return 1;
        return (4 * nw + bg_powmod_scratch_words((int)nw)) * 4 + 1;
    }
    case BULK_INT_CUDA_INVMOD: {
        int tpi, L; /* the cooperative kernel: registers, one byte per instance (`todo`) */
        if (bg_ic_shape((int)nw, t ? t->int_invmod_tpi : 0, &tpi, &L)) return 2;
        return (3 * nw + bg_invmod_scratch_words((int)nw)) * 4 + 1;
    }
    default: return 0;
    }
}
