/* The backend table of the integer area (backend/backends.h): what the public wrappers of
 * bulk/int.h, bulk/int_device.h and the large products of the gcd area reach on a device.
 *
 * Only the CUDA backend fills one (src/int/cuda/int_cuda_backend.cu; ctx->gpu->ints on a CUDA
 * context). The CPU has no int table: its side of every operation is the mpn layer (int/mpn.h)
 * run over the instances by the public wrapper itself (int_api.c, int_api_div.c), which is also
 * the fallback of every GPU route (widths above max_limbs); a table would only wrap
 * those same loops again. ctx->cpu->ints is therefore NULL, and a wrapper runs
 *     if (bulk_int_on_device(ctx, op) && limbs <= ctx->gpu->ints->max_limbs(op))
 *         return ctx->gpu->ints->op(ctx, ...);
 *     ... the CPU loop ...
 *
 * Contracts of the entries:
 *  - add .. invmod: the contract of the public bulk_int_OP (host arrays, same layout and
 *    aliasing; arguments already checked by the wrapper), streamed through the context's device
 *    in chunks (int/cuda/int_cuda.h). They use the context's GPU state (ctx->cuda->ints: streams,
 *    pinned staging, device buffers, created on first use), so one thread at a time per context
 *    (bulk.h's rule); two contexts share nothing and may run at once.
 *  - max_limbs(op): the widest instance (limbs) the device takes for op (BULK_INT_CUDA_*); the
 *    wrappers route wider calls to the CPU. mul_kernel: the multiplication kernel at this width
 *    under ctx's tuning ("sr", "cols", "kara", "ntt", "teo"). peaks: the device's IMAD rate and
 *    memory bandwidth (benchmarks; int/cuda/int_cuda.h).
 *  - mul_big .. raw_get: single large products by the GPU NTT and the device memory to keep
 *    their operands in (contracts: int/cuda/int_cuda_ntt.h), on device `device` (a context's
 *    bulk_ctx_device); they keep no per-context state, and may be called from many threads at
 *    once, which is how the batch GCD trees use them (gcd/gcd_mul.c). Failures are recorded as
 *    the calling thread's last error.
 *  - ntt_batch, ntt_batch_max_limbs: batched products by the NTT kernel (tests, benchmarks).
 *  - dev_*: bulk/int_device.h on the context's device (the public wrappers in int_device.c check
 *    ctx; a bulk_int_dev remembers its table and device, so dev_free needs no context).
 *  - release: frees the context's int GPU state (ctx->cuda->ints); bulk_ctx_close calls it. */
#ifndef BULK_INT_INT_BACKEND_H
#define BULK_INT_INT_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "bulk/int_device.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bulk_cuda_state;
struct bulk_prime_table; /* int/cpu/prime.h */

/* Operation identifiers for max_limbs. */
enum bulk_int_cuda_op {
    BULK_INT_CUDA_ADD, BULK_INT_CUDA_SUB, BULK_INT_CUDA_MUL, BULK_INT_CUDA_SQR,
    BULK_INT_CUDA_MUL_LO, BULK_INT_CUDA_CMP, BULK_INT_CUDA_SHL, BULK_INT_CUDA_SHR,
    BULK_INT_CUDA_DIVMOD, BULK_INT_CUDA_GCD, BULK_INT_CUDA_POWMOD, BULK_INT_CUDA_INVMOD
};

/* Largest na + nb (64-bit limbs) mul_big takes: the product has at most 2^27 32-bit words (the
 * two-adicity of the NTT's smallest prime); about 2^31 bits per operand. */
#define BULK_INT_CUDA_NTT_MAX_LIMBS ((size_t)1 << 26)

/* A device-resident array (bulk/int_device.h): n instances of `limbs` limbs at p on `device`,
 * made by backend `be`. */
struct bulk_int_dev {
    uint64_t *p;
    size_t n, limbs;
    int device;
    const struct bulk_int_backend *be;
};

typedef struct bulk_int_backend {
    size_t (*max_limbs)(int op);
    const char *(*mul_kernel)(const bulk_ctx *ctx, size_t limbs);
    int (*peaks)(bulk_ctx *ctx, double *imad_per_s, double *bytes_per_s, char *name);

    int (*add)(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *carry, const bulk_limb_t *a,
               const bulk_limb_t *b, size_t n, size_t limbs);
    int (*sub)(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *borrow, const bulk_limb_t *a,
               const bulk_limb_t *b, size_t n, size_t limbs);
    int (*mul)(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
               size_t limbs);
    int (*sqr)(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t n, size_t limbs);
    int (*mul_lo)(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                  size_t n, size_t limbs);
    int (*cmp)(bulk_ctx *ctx, int8_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
               size_t limbs);
    int (*shl)(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits, size_t n,
               size_t limbs);
    int (*shr)(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits, size_t n,
               size_t limbs);
    int (*divmod)(bulk_ctx *ctx, bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a,
                  size_t a_limbs, const bulk_limb_t *d, size_t n, size_t limbs, int8_t *err);
    int (*gcd)(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
               size_t limbs);
    int (*powmod)(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *base, const bulk_limb_t *exp,
                  const bulk_limb_t *m, size_t n, size_t limbs, int8_t *err);
    int (*invmod)(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *m,
                  size_t n, size_t limbs, int8_t *err);

    int (*mul_big)(int device, bulk_limb_t *r, const bulk_limb_t *a, size_t na,
                   const bulk_limb_t *b, size_t nb);
    int (*mul_big_dev)(int device, bulk_limb_t *r, const bulk_limb_t *a, size_t na,
                       const bulk_limb_t *b, size_t nb);
    size_t (*mul_big_bytes)(size_t na, size_t nb);
    int (*raw_alloc)(int device, void **p, size_t bytes);
    int (*raw_free)(int device, void *p);
    int (*raw_put)(int device, void *dst, const void *src, size_t bytes); /* host -> device */
    int (*raw_get)(int device, void *dst, const void *src, size_t bytes); /* device -> host */
    int (*ntt_batch)(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                     size_t n, size_t limbs);
    size_t (*ntt_batch_max_limbs)(void);

    int (*dev_alloc)(bulk_ctx *ctx, bulk_int_dev **out, size_t n, size_t limbs);
    void (*dev_free)(bulk_int_dev *x);
    int (*dev_upload)(bulk_ctx *ctx, bulk_int_dev *x, const bulk_limb_t *host);
    int (*dev_download)(bulk_ctx *ctx, const bulk_int_dev *x, bulk_limb_t *host);
    int (*dev_sync)(bulk_ctx *ctx);
    int (*dev_add)(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b);
    int (*dev_sub)(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b);
    int (*dev_mul)(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b);
    int (*dev_sqr)(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a);
    int (*dev_mul_lo)(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                      const bulk_int_dev *b);
    int (*dev_shl)(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits);
    int (*dev_shr)(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits);
    int (*dev_divmod)(bulk_ctx *ctx, bulk_int_dev *q, bulk_int_dev *r, const bulk_int_dev *a,
                      const bulk_int_dev *d, int8_t *err_host);
    int (*dev_gcd)(bulk_ctx *ctx, bulk_int_dev *g, const bulk_int_dev *a, const bulk_int_dev *b);
    int (*dev_powmod)(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *base,
                      const bulk_int_dev *exp, const bulk_int_dev *m, int8_t *err_host);
    int (*dev_invmod)(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *m,
                      int8_t *err_host);

    void (*release)(struct bulk_cuda_state *cs);

    /* trial: step 1 of isprime's device path (int/int_prime_offload.h): out[i] = 0 (composite),
     * 1 (prime) or 2 (undecided) by trial division by the primes of the CPU's table t
     * (int/cpu/prime.h), exactly bulk_prime_trial_n's answers over t, for any n >= 0 numbers a
     * of 1 <= limbs <= 8192 limbs (high zero limbs allowed; BULK_ERR_UNSUPPORTED above). Host
     * arrays, streamed as the other entries are; failures as theirs (BULK_ERR_CUDA,
     * BULK_ERR_NOMEM). */
    int (*trial)(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a, size_t n, size_t limbs,
                 const struct bulk_prime_table *t);

    /* lucas: the strong Lucas test's sequences for isprime's device path (int/
     * int_prime_offload.h): for n odd m_i > 1 of 1 <= limbs <= max_limbs(BULK_INT_CUDA_POWMOD)
     * limbs (high zero limbs allowed; BULK_ERR_UNSUPPORTED wider) and d_i = Selfridge's D for
     * m_i (D = 1 mod 4, |D| < 2^63; P = 1, Q = (1 - D) / 4): u_i = U_e, v_i = V_e and qk_i = Q^e
     * mod m_i (limbs limbs each, reduced) for e = (m_i + 1) / 2^s odd, the values of the
     * CPU's ladder (int/cpu/prime.c). Host arrays, streamed as the other entries are;
     * failures as theirs. */
    int (*lucas)(bulk_ctx *ctx, bulk_limb_t *u, bulk_limb_t *v, bulk_limb_t *qk,
                 const bulk_limb_t *m, const int64_t *d, size_t n, size_t limbs);

    /* sprp2: the strong probable-prime test to base 2 for isprime's device path
     * (int/int_prime_offload.h): out[i] = 1 when the odd m_i > 2 is a strong probable prime to
     * base 2, else 0 (bulk_prime_strong_from's answer on 2^d mod m_i), for n numbers of
     * 1 <= limbs <= max_limbs(BULK_INT_CUDA_POWMOD) limbs (high zero limbs allowed;
     * BULK_ERR_UNSUPPORTED wider). Host arrays, streamed as the other entries are; failures as
     * theirs. */
    int (*sprp2)(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *m, size_t n, size_t limbs);
} bulk_int_backend;

/* The CUDA instance (src/int/cuda/int_cuda_backend.cu); named only by backend/backends.c. */
extern const bulk_int_backend bulk_int_cuda_backend;

#ifdef __cplusplus
}
#endif
#endif
