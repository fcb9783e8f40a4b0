/* The pure steps of bulk primality testing that every backend must take identically
 * (bulk_int_isprime, bulk_int_nextprime; BULK_HD: static inline in C, __host__ __device__ under
 * nvcc): the extra Miller-Rabin bases derived from the number, Selfridge's parameters and the
 * Jacobi symbol. The CPU code (int/cpu/prime.c) and the kernels call this one copy, so both
 * backends choose the same bases and the same D for every n, hence give the same answers.
 *
 * The test (docs/int.md, "Primality"): n < 2 and even n > 2 are composite; trial division by the
 * small primes; the strong probable-prime test to base 2; the strong Lucas probable-prime test
 * with Selfridge's method A parameters (the first D in 5, -7, 9, -11, ... with Jacobi(D/n) = -1,
 * P = 1, Q = (1 - D) / 4; a perfect square is composite); then `rounds` strong tests to the
 * bases bulk_prime_base(n, j), j = 0 .. rounds - 1. */
#ifndef BULK_INT_PRIME_CORE_H
#define BULK_INT_PRIME_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "common/hd.h"

/* SplitMix64's output function of the state s (Steele, Lea, Flood 2014; util/splitmix.h). */
BULK_HD uint64_t bulk_prime_mix(uint64_t s)
{
    uint64_t z = s + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The hash of n (mn limbs without high zero limbs) that seeds the extra bases: every limb mixed
 * in by one SplitMix64 step, then the length. */
BULK_HD uint64_t bulk_prime_hash(const uint64_t *n, size_t mn)
{
    uint64_t h = 0x7072696d65ull; /* "prime" */
    for (size_t i = 0; i < mn; i++) h = bulk_prime_mix(h ^ n[i]);
    return bulk_prime_mix(h ^ (uint64_t)mn);
}

/* The extra Miller-Rabin base number j of a number with hash h, as two limbs b[0], b[1] in
 * [3, n - 2]: 3 + (v mod (n - 4)) for a one-limb n (n >= 5), else 3 + v (< 2^65 < n), with
 * v = mix(h + j). */
BULK_HD void bulk_prime_base(uint64_t *b, uint64_t h, unsigned j, uint64_t n0, size_t mn)
{
    uint64_t v = bulk_prime_mix(h + 0x9e3779b97f4a7c15ull * ((uint64_t)j + 1));
    if (mn == 1) {
        b[0] = 3 + v % (n0 - 4);
        b[1] = 0;
    } else {
        b[0] = v + 3;
        b[1] = b[0] < 3;
    }
}

/* The Jacobi symbol (a/m) for odd m >= 1 (binary algorithm). */
BULK_HD int bulk_jacobi_u64(uint64_t a, uint64_t m)
{
    int t = 1;
    a %= m;
    while (a != 0) {
        while ((a & 1) == 0) {
            a >>= 1;
            uint64_t r = m & 7;
            if (r == 3 || r == 5) t = -t;
        }
        uint64_t x = a;
        a = m;
        m = x;
        if ((a & 3) == 3 && (m & 3) == 3) t = -t;
        a %= m;
    }
    return m == 1 ? t : 0;
}

/* Selfridge's k-th candidate D (k = 0, 1, ...): 5, -7, 9, -11, 13, ... */
BULK_HD int64_t bulk_selfridge_d(unsigned k)
{
    int64_t d = 5 + 2 * (int64_t)k;
    return (k & 1) ? -d : d;
}

/* Jacobi(D/n) for odd n > |D| from r = n mod |D| and n's low limb n0 (|D| odd, as all of
 * Selfridge's are): (D/n) = (-1/n)^[D<0] (|D|/n), and by reciprocity (|D|/n) = (n/|D|) unless
 * both are 3 mod 4. */
BULK_HD int bulk_selfridge_jacobi(int64_t d, uint64_t r, uint64_t n0)
{
    uint64_t a = (uint64_t)(d < 0 ? -d : d);
    int j = bulk_jacobi_u64(r, a);
    if ((a & 3) == 3 && (n0 & 3) == 3) j = -j;
    if (d < 0 && (n0 & 3) == 3) j = -j;
    return j;
}

/* Selfridge candidates tried before n is checked for being a perfect square (a square never
 * gets Jacobi -1, every other n soon does: the first D works for all but a few percent). */
#define BULK_PRIME_SQUARE_CHECK 16

#endif
