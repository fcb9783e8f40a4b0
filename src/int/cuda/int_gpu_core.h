/* Per-instance step logic of the CUDA integer kernels, written once as BULK_HD functions so the
 * CPU tests (tests/int_gpu/test_int_gpu_core.c) run exactly the code the GPU runs, against GMP.
 *
 * Words are 32 bits (the GPU's native multiply width: one IMAD gives 32 bits of a 32x32
 * product). A number of nw words is addressed as p[j * s] for j < nw, least significant first;
 * s (the stride, in words) is 1 for the users' instance-major layout read as 32-bit words, and
 * the padded instance count for the column-major layout the per-thread kernels use on the GPU
 * (word j of every instance side by side, so a warp's accesses are coalesced: seed 001 ch. 3).
 *
 * Carry flags: on the device the bg_mad* / bg_addc* functions are single PTX instructions that
 * read and write the hardware carry flag (mad.lo.cc, madc.hi.cc, addc: seed 001 ch. 4's "64-bit
 * PTX multiply" idea at 32 bits); on the host the same functions emulate that flag in *f. A chain
 * of them must therefore be written without other carry-using code in between (nothing in C or
 * CUDA C lowers to PTX carry instructions, so the compiler never interleaves its own). */
#ifndef BULK_INT_CUDA_INT_GPU_CORE_H
#define BULK_INT_CUDA_INT_GPU_CORE_H

/* One header per family under core/; this one includes them all, in dependency order. */
#include "int/cuda/core/carry.h"
#include "int/cuda/core/mul_eo.h"
#include "int/cuda/core/mul_cols.h"
#include "int/cuda/core/mul_sr.h"
#include "int/cuda/core/kara.h"
#include "int/cuda/core/words.h"
#include "int/cuda/core/gcd_approx.h"
#include "int/cuda/core/div.h"
#include "int/cuda/core/mont.h"
#include "int/cuda/core/mont_coop.h"
#include "int/cuda/core/mul_coop.h"
#include "int/cuda/core/invmod.h"
#include "int/cuda/core/invmod_coop.h"

#endif
