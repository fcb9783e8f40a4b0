/* Large multiplication by a three-prime number-theoretic transform (NTT), for operands far
 * above the Toom range (the batch GCD of src/gcd multiplies numbers of millions of limbs).
 *
 * Method: each 64-bit limb is one coefficient; the product's coefficients are convolutions
 * below n * 2^128 (n = transform length), computed exactly modulo three primes
 * p = k * 2^40 + 1 in [2^61, 2^62) (product > 2^183 > n * 2^128 for every n <= 2^40 that
 * fits in memory), and recombined by Garner's CRT into 192-bit values that are carried into the
 * result. Transforms are radix 2, decimation in frequency forward (natural order in, bit-reversed
 * out) and in time backward (bit-reversed in, natural out), recursive so that the sub-transforms
 * that fit in cache run there; Montgomery multiplication modulo each prime.
 *
 * Threshold: BULK_MUL_FFT_THRESHOLD is the balanced size (limbs of each operand) from which the
 * NTT beats the tuned Toom multiplication of bulk_mpn_mul_n on this machine class (measured by
 * bench/gcd/tune_fft; see docs/gcd.md). The AUTO dispatch (bulk_mpn_mul_n, bulk_mpn_sqr,
 * bulk_mpn_mul of src/int/cpu/mpn_mul.c) calls the NTT from this threshold on, so
 * bulk_mpn_mul_big below is now the same as bulk_mpn_mul; its _threads variant still adds the
 * multi-threaded transform. */
#ifndef BULK_INT_MUL_FFT_H
#define BULK_INT_MUL_FFT_H

#include <stddef.h>

#include "bulk/int.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Balanced operand size (limbs) from which bulk_mpn_mul_fft is faster than bulk_mpn_mul_n.
 * Measured: bench/gcd/tune_fft on the 2-core development machine, 2026-11-21: the NTT wins at
 * every sampled size from 8191 limbs (at power-of-two products already from 4095; just above a
 * power of two the transform is padded to twice the length). See docs/gcd.md. */
#define BULK_MUL_FFT_THRESHOLD 8000

/* Largest an + bn the transform supports (2^40 coefficients; memory runs out long before). */
#define BULK_MUL_FFT_MAX_LIMBS ((size_t)1 << 40)

/* r (an + bn limbs) = a * b by the three-prime NTT; an, bn >= 1, r disjoint from a and b
 * (a == b allowed: one transform is then saved). Needs 4 * 8 * N bytes (6 * 8 * N above 2^20) of heap, N the
 * power of two >= an + bn. Returns BULK_OK, BULK_ERR_NOMEM (r untouched) or BULK_ERR_ARG. */
int bulk_mpn_mul_fft(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                     size_t bn);

/* The same with the three primes' transforms on up to three threads when threads >= 2 (for
 * products that are alone at their level of a tree; extra memory: 2 * 8 * N bytes more, and
 * 2 * 16 * N more above 2^20). Falls back to one thread when threads or memory are short. */
int bulk_mpn_mul_fft_threads(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                             const bulk_limb_t *b, size_t bn, int threads);

/* r (an + bn limbs) = a * b by the fastest method at this size: the NTT when the smaller
 * operand has at least BULK_MUL_FFT_THRESHOLD limbs, else bulk_mpn_sqr (a == b, an == bn) or
 * bulk_mpn_mul (Toom); an < bn allowed. Never fails: when the NTT cannot get its memory the
 * Toom code runs. an, bn >= 1. (Since the dispatch hook this is bulk_mpn_mul.) */
void bulk_mpn_mul_big(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                      size_t bn);
/* bulk_mpn_mul_big with bulk_mpn_mul_fft_threads(..., threads) for the NTT. */
void bulk_mpn_mul_big_threads(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                              const bulk_limb_t *b, size_t bn, int threads);

#ifdef __cplusplus
}
#endif
#endif
