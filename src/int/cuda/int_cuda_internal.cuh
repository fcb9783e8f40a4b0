/* Internal interface of the CUDA integer backend: the launchers. CUDA calls are checked with
 * backend/cuda/cuda_check.cuh (NULL context in the launchers: the calling thread's error).
 *
 * A launcher runs one operation on n instances already in device memory (instance-major
 * 64-bit limbs, as in bulk/int.h), queued on `st`, and returns a bulk status (BULK_OK,
 * BULK_ERR_CUDA when a CUDA call failed, BULK_ERR_NOMEM when scratch could not be had). The
 * host streaming API (int_cuda_host.cu) and the device-resident API (int_cuda_device_api.cu)
 * both call these; nothing else launches integer kernels. Scratch comes from the stream-ordered
 * allocator (cudaMallocAsync), so a launcher never synchronises. */
#ifndef BULK_INT_CUDA_INTERNAL_CUH
#define BULK_INT_CUDA_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/context.h"
#include "backend/cuda/cuda_check.cuh"
#include "bulk/bulk.h"
#include "int/cuda/core/trial.h"
#include "int/cuda/int_cuda.h"

typedef uint64_t bg_limb;

/* The widest instances each family takes (limbs). The warp-column multiplication keeps a and
 * the padded b in shared memory: (N + (N + 2 * BG_PAD) * 1.03) 32-bit words for N = 2 limbs,
 * within the 227 KiB a Hopper block may have; the per-thread families have no size limit but
 * their run time grows with the square of the size. */
#define BG_MAX_LIMBS_MUL 8192
#define BG_MAX_LIMBS_OTHER 8192

/* mul_lo up to this width declares no device scratch (bg_scratch_bytes); wider low halves
 * reserve room for a full product (the even/odd kernel computes them without scratch up to
 * its 20-limb capacity, so 17 .. 20 limbs reserve more than they use). */
#define BG_MUL_THREAD_MAX_LIMBS 16

int bg_launch_addsub(bg_limb *r, uint8_t *flag, const bg_limb *a, const bg_limb *b, size_t n,
                     size_t limbs, int sub, cudaStream_t st);
int bg_launch_cmp(int8_t *r, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs,
                  cudaStream_t st);
int bg_launch_shift(bg_limb *r, const bg_limb *a, size_t bits, size_t n, size_t limbs, int left,
                    cudaStream_t st);
/* r = a * b: r has 2 limbs per instance (lo == 0) or limbs (lo == 1: the low half). b may be a
 * (squaring). */
/* t: the context's tuning (int.mul, int.kara_min, int.ntt_min; NULL: the defaults). */
int bg_launch_mul(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs, int lo,
                  const bulk_tune *t, cudaStream_t st);
/* q (a_limbs, may be NULL), r (limbs, may be NULL); err (n bytes, may be NULL) gets 0 or
 * BULK_ERR_DIVZERO per instance; *bad (device int, may be NULL) is set to 1 when any d = 0. */
int bg_launch_divmod(bg_limb *q, bg_limb *r, const bg_limb *a, size_t a_limbs, const bg_limb *d,
                     size_t n, size_t limbs, int8_t *err, int *bad, cudaStream_t st);
/* approx (the tuning int.gcd=approx): seed 001's approximate Euclidean kernel at every width;
 * else the divsteps kernel up to 32 limbs. */
int bg_launch_gcd(bg_limb *g, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs,
                  bool approx, cudaStream_t st);
/* r = base^e mod m, the contract of bulk_int_powmod (limbs <= BG_MC_MAX_WORDS / 2); err / bad
 * as for divmod, with BULK_ERR_EVEN_MODULUS. The kernel by width and t's int.powmod_tpi
 * (bg_mc_shape: one thread per instance for narrow widths, else a group of TPI lanes). This is
 * the entry point for other GPU code that needs powmod on device arrays (base, e, m, r:
 * instance-major, n instances of `limbs` limbs; r must not overlap the inputs). */
int bg_launch_powmod(bg_limb *r, const bg_limb *base, const bg_limb *e, const bg_limb *m,
                     size_t n, size_t limbs, int8_t *err, int *bad, const bulk_tune *t,
                     cudaStream_t st);
/* The cooperative kernel with a given shape (tpi 4, 8, 16, 32 lanes of L = 2, 4, 6, 8 words,
 * tpi L >= 2 limbs); the same contract (num/powmod_coop.cu). */
int bg_launch_powmod_coop(bg_limb *r, const bg_limb *base, const bg_limb *e, const bg_limb *m,
                          size_t n, size_t limbs, int tpi, int L, int8_t *err, int *bad,
                          cudaStream_t st);
/* r = a^-1 mod m, the contract of bulk_int_invmod; err (n bytes, may be NULL) gets 0,
 * BULK_ERR_DIVZERO or BULK_ERR_NOT_INVERTIBLE per instance; *bad (may be NULL) is set to 1
 * when any instance fails. The kernel by width and t's int.invmod_tpi (bg_ic_shape; t may be
 * NULL). */
int bg_launch_invmod(bg_limb *r, const bg_limb *a, const bg_limb *m, size_t n, size_t limbs,
                     int8_t *err, int *bad, const bulk_tune *t, cudaStream_t st);
/* The cooperative kernel (num/invmod_coop.cu: tpi lanes of L words as bg_ic_shape gives them,
 * tpi L >= 2 limbs), the same contract: it finishes the odd moduli and leaves the rest (even
 * or zero moduli) to bg_launch_invmod_rest on the same stream. */
int bg_launch_invmod_coop(bg_limb *r, const bg_limb *a, const bg_limb *m, size_t n, size_t limbs,
                          int tpi, int L, int8_t *err, int *bad, cudaStream_t st);
/* The one-thread kernel for the instances with todo[i] != 0 (device bytes), the others left
 * untouched (num/invmod.cu). */
int bg_launch_invmod_rest(bg_limb *r, const bg_limb *a, const bg_limb *m, const uint8_t *todo,
                          size_t n, size_t limbs, int8_t *err, int *bad, cudaStream_t st);

/* The code of the lowest-numbered failing instance among n per-instance codes (BULK_OK when
 * none), reported as "fn: instance I: why" through bulk_fail on ctx (int_cuda_host.cu). */
int bg_first_failure(bulk_ctx *ctx, const char *fn, const int8_t *codes, size_t n);

/* isprime's table of small primes on the device (core/trial.h: the groups g[0 .. ng) and the
 * primes q), made from the CPU's table of the odd primes below limit. */
struct bg_trial_table {
    const bg_trial_group *g;
    size_t ng;
    const bg_trial_prime *q;
    uint32_t limit;
};

/* out[i] = 0, 1 or 2 (undecided) by trial division by t: int/int_backend.h's trial
 * (num/trial.cu); device scratch: bg_trial_scratch_words(limbs) words per instance. */
int bg_launch_trial(uint8_t *out, const bg_limb *a, size_t n, size_t limbs,
                    const bg_trial_table *t, cudaStream_t st);
size_t bg_trial_scratch_words(size_t limbs);

/* out[i] = 1 when m_i is a strong probable prime to base 2: int/int_backend.h's sprp2
 * (num/sprp2_coop.cu; limbs <= BG_LC_MAX_WORDS / 2, else BULK_ERR_UNSUPPORTED); no scratch. */
int bg_launch_sprp2(uint8_t *out, const bg_limb *m, size_t n, size_t limbs, cudaStream_t st);

/* u, v, qk = U_d, V_d, Q^d mod m: int/int_backend.h's lucas (num/lucas_coop.cu; limbs <=
 * BG_LC_MAX_WORDS / 2, else BULK_ERR_UNSUPPORTED); no scratch. */
int bg_launch_lucas(bg_limb *u, bg_limb *v, bg_limb *qk, const bg_limb *m, const int64_t *d,
                    size_t n, size_t limbs, cudaStream_t st);

/* *p = bytes of device scratch from the stream-ordered pool on st (free with cudaFreeAsync on
 * st); BULK_ERR_NOMEM and *p = NULL when there is none. The pool keeps freed memory for the
 * next call (int_cuda_scratch.cu). */
int bg_scratch_alloc(void **p, size_t bytes, cudaStream_t st);

/* Device scratch bytes per instance a launcher of this op may take on top of its operands (the
 * host driver sizes its chunks with it). */
size_t bg_scratch_bytes(int op, size_t limbs, const bulk_tune *t);

#endif
