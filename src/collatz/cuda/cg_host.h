/* Host-side plumbing shared by the .cu files of the CUDA Collatz backend (CUDA C++ only):
 * the checking macro, the per-device table cache, the options and statistics of the calling
 * thread, and the one-host-thread-per-GPU runner. */
#ifndef BULK_COLLATZ_CUDA_CG_HOST_H
#define BULK_COLLATZ_CUDA_CG_HOST_H

#include <cuda_runtime.h>

/* collatz_internal.h has no C++ guard of its own: its functions are C functions */
extern "C" {
#include "backend/context.h"
#include "collatz/collatz_internal.h"
}
#include "collatz/cuda/cg_core.h"
#include "collatz/cuda/collatz_cuda.h"

/* The verify layout that verify_layout = AUTO (and no cz.layout tuning) resolves to:
 * UNIFORM (k_uni, two trips per pass, the first record in the dip trip; FLAT_BATCH where it does
 * not apply). H200, k = 37, d = 12, n near 2^68: FLAT_BATCH 16 + records + incremental setup
 * 1.976e12, UNIFORM 3.402e12, UNIFORM with two trips per pass 4.202e12 numbers/s, all identical
 * (docs/perf/collatz-gpu.md "Uniform trips, V5 and the generated sieve measured"). */
#define CG_DEFAULT_LAYOUT BULK_CZ_CUDA_LAYOUT_UNIFORM

/* The delay loop that delay_loop = AUTO (and no cz.delay tuning) resolves to: V5 (d <= 17;
 * V4X2 beyond) with its default of 8 steps per round and checkpoints (docs/perf/collatz-gpu.md
 * "Delays V5"): kernel rates from 2^64 2.81e10 (d = 12) .. 3.40e10 (d = 16) numbers/s at a = 24,
 * batch 1024, 1.38-1.66x V4X2 at every point; the CLI's d = 14, a = 20, batch 2^20: 3.12e10
 * (1.62x), `bulk collatz delays --stats` 0.95 s for 2^34 numbers instead of 1.29 s. */
#define CG_DEFAULT_DELAY_LOOP BULK_CZ_CUDA_DELAY_V5

/* FLAT_BATCH (where UNIFORM does not apply) replays by record lows with refill_lanes
 * CG_REFILL_LANES_REC and the tables in global memory (AUTO): H200, k = 32, d = 12: 1.594e12
 * numbers/s against refill 12 with T-step replays 1.421e12 (docs/perf/collatz-gpu.md "Record
 * replays"). */
#define CG_REFILL_LANES_REC 16

/* Every CUDA call goes through this: on failure the message (call, file, line, CUDA's text) is
 * kept for bulk_collatz_last_error() and the function returns BULK_ERR_CUDA. */
#define CG_CHECK(call)                                                                             \
    do {                                                                                           \
        cudaError_t cg_err_ = (call);                                                              \
        if (cg_err_ != cudaSuccess) {                                                              \
            cg_note_error(cg_err_, #call, __FILE__, __LINE__);                                     \
            return BULK_ERR_CUDA;                                                                  \
        }                                                                                          \
    } while (0)

void cg_note_error(cudaError_t err, const char *what, const char *file, int line);
/* The first CUDA error message noted on this thread since the last cg_take_error ("" if none). */
const char *cg_take_error(void);

/* Tables of one engine on one device. BC (packed) and BM (dip test) exist when d <= 20, B and C
 * (64-bit) always,
 * A when a > 0. S (Sr, Sc, Sj) is resident whole when it fits (s_whole), else the verify driver
 * streams it in slices through its own buffers. Cached per device for one (d, k, a). */
typedef struct cg_dev {
    int dev, valid;
    int d, k, a, conv; /* conv: the sieve of a convergence-mode engine (other entries) */
    uint64_t *BC, *BM, *B, *C;
    uint8_t *J;
    uint16_t *A;
    uint32_t *ROFF; /* record-replay tables (d <= 20) */
    uint64_t *REC;
    uint8_t *RST;
    uint64_t *Sr, *Sc;
    uint8_t *Sj;
    uint64_t s_k;
    int s_whole;
    int smem_optin; /* the device's largest dynamic shared memory per block, bytes */
    int sms;
} cg_dev;

/* Makes sure device `dev` holds e's tables (need_S: the sieve; need_A: the delay table), on the
 * calling thread, which must have made `dev` current. *upload_s adds the seconds spent. */
int cg_dev_prepare(int dev, const bulk_collatz_engine *e, int need_S, int need_A, cg_dev **out,
                   double *upload_s);

/* The options in force for e (its context's, defaults filled in) and the calling thread's
 * statistics. */
bulk_collatz_cuda_opts cg_opts(const bulk_collatz_engine *e);
bulk_collatz_cuda_stats *cg_stats(void);

/* GPUs to use: min(visible, opts.devices when > 0). 0 when none. */
int cg_devices(const bulk_collatz_engine *e);

/* Runs fn(arg_g) for g = 0..G-1, each on its own host thread with device g current; returns
 * the first non-OK status (in g order), BULK_OK otherwise. Errors noted on a worker thread are
 * carried over to the caller's bulk_collatz_last_error(). */
typedef int (*cg_dev_fn)(int g, void *arg);
int cg_run_devices(int G, cg_dev_fn fn, void *arg);

/* Frees the delay driver's buffers cached for device dev (cg_delays.cu; dev current). */
void cg_delays_release(int dev);
int cg_delays_cached(int dev);
/* The same for the verify driver (cg_verify.cu). */
void cg_verify_release(int dev);
int cg_verify_cached(int dev);

/* Host wall clock, seconds. */
double cg_now(void);

/* Shared-memory bytes of the tables of d bits for the fast (BC + BM + J) and the core
 * (B + C + J) kernels, plus the 3^j table. */
static inline size_t cg_smem_tables(int d, int kernel)
{
    size_t n = (size_t)1 << d;
    (void)kernel;
    return n * 17 + 41 * sizeof(uint64_t);
}

/* Kernel variant and table placement actually used for engine e under the options: the kernel
 * (FAST needs d <= 20) and the memory (SHARED when it fits the device, unless forced).
 * BULK_ERR_ARG when the options ask for something impossible. */
int cg_choose(const bulk_collatz_engine *e, const cg_dev *dv, int *kernel, int *shared_tables);

#endif
