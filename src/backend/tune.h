/* A context's tuning (bulk_ctx_set_tune, BULK_TUNE): forces one of the remaining fallback paths
 * or moves a threshold, for tests and benchmarks. Parsed and validated once, when set; the
 * modules read the fields of their context's struct, never the environment. Zero in every
 * field means "choose by the measured defaults". Results never depend on the tuning. The keys,
 * their values and what each forces: docs/architecture.md "Tuning". Plain C, read from CUDA
 * host code too. */
#ifndef BULK_BACKEND_TUNE_H
#define BULK_BACKEND_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "collatz/cuda/collatz_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { BULK_TUNE_MUL_AUTO, BULK_TUNE_MUL_TEO, BULK_TUNE_MUL_SR, BULK_TUNE_MUL_COLS,
       BULK_TUNE_MUL_KARA, BULK_TUNE_MUL_NTT, BULK_TUNE_MUL_COOP,
       BULK_TUNE_MUL_CKARA };
enum { BULK_TUNE_ISA_AUTO, BULK_TUNE_ISA_BASE, BULK_TUNE_ISA_AVX2, BULK_TUNE_ISA_AVX512 };

/* An unset size (gcd.*, int.ntt_min) is -1: 0 is a valid forced value there. */
typedef struct bulk_tune {
    int int_mul;                /* int.mul: BULK_TUNE_MUL_* (CUDA, this level only) */
    int int_kara_min;           /* int.kara_min: CUDA Karatsuba threshold in limbs (>= 32; 0: default) */
    long long int_ntt_min;      /* int.ntt_min: CUDA NTT threshold in limbs (0: never; -1: default) */
    int int_gcd_approx;         /* int.gcd=approx: the approximate Euclidean kernel at every width */
    int int_powmod_tpi;         /* int.powmod_tpi: CUDA powmod lanes per instance (1: one thread; 0: by width) */
    int int_invmod_tpi;         /* int.invmod_tpi: CUDA invmod lanes per instance (1: one thread; 0: by width) */
    long long gcd_gpu_ntt;      /* gcd.gpu_ntt: limbs (0 or 2^k) from which tree products go to the GPU NTT (-1) */
    long long gcd_batched_rem;  /* gcd.batched_rem: widest batched remainder-tree node (-1) */
    long long gcd_batched_mul;  /* gcd.batched_mul: widest batched product-tree node (-1) */
    long long gcd_batched_min;  /* gcd.batched_min: fewest nodes of a batched level (-1) */
    int cz_ext_unsorted;        /* cz.ext=unsorted: the unsorted extension runs (K <= 40) */
    int cz_classes_off;         /* cz.classes=0: no merge-class path in the delay kernels */
    bulk_collatz_cuda_opts cz;  /* cz.layout, cz.refill, cz.delay, cz.kernel, ... (0: choose) */
    long long life_strip;       /* life.strip: rows per warp of the CUDA Life kernel (0: default) */
    int life_isa;               /* life.isa: BULK_TUNE_ISA_* (the widest this CPU runs at most) */
    /* test seam, set only through gcd_test_spill_fail_at (gcd_internal.h), never by a key:
     * the spill store fails with ENOSPC once it would hold more than this many bytes (0: never) */
    uint64_t gcd_spill_fail_at;
} bulk_tune;

/* The defaults (every path chosen by size and device). */
void bulk_tune_default(bulk_tune *t);

/* Parses a comma-separated "key=value" list into *out, starting from the defaults. The whole
 * list is checked before *out changes: on an unknown key, a bad value or a malformed item it
 * returns BULK_ERR_ARG, writes a message naming the item and the valid choices into msg
 * (msg_size bytes, may be 0) and leaves *out alone. NULL or "" is the defaults. */
int bulk_tune_parse(const char *text, bulk_tune *out, char *msg, size_t msg_size);

#ifdef __cplusplus
}
#endif
#endif
