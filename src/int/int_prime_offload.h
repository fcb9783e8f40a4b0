/* isprime with its modular powers on a device: the layer under bulk_int_isprime on a CUDA
 * context (int_api_prime.c). Trial division by the CPU path's table of small primes
 * (bulk_prime_isprime_limit) runs on the device (o->trial; without it on the context's CPU
 * threads), with the CPU path's answers; the base-2 power
 * 2^d mod n (n - 1 = d 2^r) of every survivor goes to a batch powmod (the device's: the
 * cooperative Montgomery kernel at wide widths) and the rest of the strong test runs on the CPU
 * threads, or the whole strong test runs on the device (o->sprp2). The few that pass (probable primes and base-2 strong pseudoprimes: ~1/355 of random
 * 1024-bit input) get the strong Lucas test with the sequences U_d, V_d, Q^d from the device
 * (o->lucas: a group of lanes per instance; Selfridge's D chosen and the test finished on the
 * CPU threads) and the extra rounds on the CPU threads; without o->lucas they go back to the
 * caller, which finishes BPSW on the CPU threads. (A one-thread-per-instance BPSW kernel lost
 * to those threads at every count measured, docs/perf/int-gpu-groups.md.) The device is reached only
 * through the function pointers, so a test can run all of it on the CPU. */
#ifndef BULK_INT_INT_PRIME_OFFLOAD_H
#define BULK_INT_INT_PRIME_OFFLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "bulk/int.h"

struct bulk_prime_table; /* int/cpu/prime.h */

typedef struct bulk_prime_offload {
    /* bulk_int_powmod's contract on the device (int_backend.h) */
    int (*powmod)(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *base, const bulk_limb_t *exp,
                  const bulk_limb_t *m, size_t n, size_t limbs, int8_t *err);
    size_t chunk_limbs;       /* limbs per gathered array (0: 2^22, 32 MB) */
    /* step 1 for all n numbers: out[i] = 0, 1, or 2 (undecided) by trial division over the
     * table t (the offload's: bulk_prime_isprime_limit(limbs)), exactly bulk_prime_trial_n's
     * answers (the trial entry of int_backend.h); NULL: on the context's CPU threads */
    int (*trial)(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a, size_t n, size_t limbs,
                 const struct bulk_prime_table *t);
    /* step 4: U_d, V_d, Q^d mod m for the strong probable primes m, the lucas entry of
     * int_backend.h (its answers exactly those of the CPU's ladder); NULL: the caller finishes
     * them on the CPU threads */
    int (*lucas)(bulk_ctx *ctx, bulk_limb_t *u, bulk_limb_t *v, bulk_limb_t *qk,
                 const bulk_limb_t *m, const int64_t *d, size_t n, size_t limbs);
    unsigned rounds; /* with lucas: the extra strong tests of bulk_int_isprime */
    /* steps 2-3 whole: out[k] = 1 when m_k is a strong probable prime to base 2, else 0 (the
     * sprp2 entry of int_backend.h); NULL: powmod, then the rest on the CPU threads */
    int (*sprp2)(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *m, size_t n, size_t limbs);
} bulk_prime_offload;

/* out[i] = 0 (composite), 1 (prime), or, without o->lucas, 2 (a strong probable prime to base 2
 * that the caller must finish on the CPU: Lucas and rounds) for the n numbers a of `limbs`
 * limbs, with the CPU work on ctx's threads; with o->lucas every answer is bulk_int_isprime's
 * on the CPU with o->rounds. Returns BULK_OK, BULK_ERR_NOMEM (last error set), or the first failing
 * status of o's functions (their last error). */
int bulk_prime_offload_run(bulk_ctx *ctx, const bulk_prime_offload *o, uint8_t *out,
                           const bulk_limb_t *a, size_t n, size_t limbs);

/* nextprime with its candidates tested in batches: r_i (limbs limbs) = the least probable prime
 * > a_i, as bulk_prime_next (int/cpu/prime.h) gives it. Each round sieves, for every instance
 * still open (on ctx's threads), its next candidates (a few per limb, from windows of
 * bulk_prime_window) and tests all of them in one call of isprime (bulk_int_isprime on the
 * CUDA context: the device path above); numbers below 2^32 go through bulk_prime_next. err
 * (may be NULL): per instance BULK_OK or BULK_ERR_OVERFLOW (r_i = 0: the prime needs more than
 * limbs limbs). Returns BULK_OK, BULK_ERR_OVERFLOW with *first = the lowest such instance,
 * BULK_ERR_NOMEM (last error set), or isprime's failing status. */
int bulk_prime_next_batched(bulk_ctx *ctx,
                            int (*isprime)(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a,
                                           size_t n, size_t limbs, unsigned rounds),
                            bulk_limb_t *r, const bulk_limb_t *a, size_t n, size_t limbs,
                            unsigned rounds, int8_t *err, size_t *first);

#endif
