/* The number sets the device primality tests share (test_int_prime_gpu, test_int_prime_gpu_core,
 * test_int_prime_offload): Mersenne numbers and random samples of the kinds that exercise
 * Baillie-PSW (primes, products of two primes, squares of primes, odd numbers), from GMP. */
#ifndef BULK_TEST_INT_GPU_PRIME_SETS_H
#define BULK_TEST_INT_GPU_PRIME_SETS_H

#include <gmp.h>
#include <string.h>

#include "bulk/int.h"

/* a = the Mersenne numbers 2^p - 1 for the primes p <= pmax, L limbs each (a zeroed here; room
 * for 256 numbers, pmax <= 64 L and pmax < 1600); returns their count. All are strong base-2
 * probable primes. */
static size_t prime_sets_mersenne(bulk_limb_t *a, size_t L, unsigned pmax)
{
    size_t m = 0;
    memset(a, 0, 256 * L * sizeof *a);
    for (unsigned e = 2; e <= pmax; e++) {
        int prime = 1;
        for (unsigned d = 2; d * d <= e; d++) prime &= e % d != 0;
        if (!prime) continue;
        for (unsigned b = 0; b < e; b++) a[m * L + b / 64] |= 1ull << (b % 64);
        m++;
    }
    return m;
}

enum { PRIME_SETS_PRIME, PRIME_SETS_PRODUCT, PRIME_SETS_SQUARE, PRIME_SETS_ODD };

/* dst (limbs limbs) = a random number of at most `bits` bits of the given kind, made odd:
 * a prime, a product of two primes of bits / 2 bits, the square of such a prime, or a random
 * odd number. x and p are GMP scratch. */
static void prime_sets_sample(bulk_limb_t *dst, size_t limbs, unsigned bits, int kind, mpz_t x,
                              mpz_t p, gmp_randstate_t rs)
{
    mpz_urandomb(x, rs, bits);
    if (kind == PRIME_SETS_PRIME) {
        mpz_nextprime(x, x);
    } else if (kind == PRIME_SETS_PRODUCT || kind == PRIME_SETS_SQUARE) {
        mpz_urandomb(x, rs, bits / 2);
        mpz_nextprime(x, x);
        if (kind == PRIME_SETS_PRODUCT) {
            mpz_urandomb(p, rs, bits / 2);
            mpz_nextprime(p, p);
        }
        mpz_mul(x, x, kind == PRIME_SETS_PRODUCT ? p : x);
    }
    mpz_setbit(x, 0);
    mpz_tdiv_r_2exp(x, x, 64 * limbs);
    memset(dst, 0, limbs * sizeof *dst);
    mpz_export(dst, NULL, -1, 8, 0, 0, x);
}

#endif
