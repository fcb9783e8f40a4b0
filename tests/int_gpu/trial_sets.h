/* The numbers the trial-division tests share (test_int_trial_gpu_core on the host,
 * test_int_prime_gpu on the device), handed out in batches of n numbers of `limbs` limbs:
 *   - every n < 2^17 + 64 at 1 limb and at 3 (zero limbs above): 0..3, evens, the table primes,
 *     their products and squares, 251^2 and 257^2 around the 2^16 bound;
 *   - at 1..5 limbs: the table primes, their squares, cubes and products with the next table
 *     prime or a prime above 256, those primes and their products (wrapping modulo 2^64 where
 *     they overflow), each alone, also at the top limb and at the top with 1 below;
 *   - random numbers of 1..64 limbs with 0..limbs leading zero limbs, mostly odd, half of them
 *     made odd multiples of a table prime, of a number in 257..271 or of two table primes.
 * BULK_SANITIZED shrinks (san: fewer small and random numbers). */
#ifndef BULK_TEST_INT_GPU_TRIAL_SETS_H
#define BULK_TEST_INT_GPU_TRIAL_SETS_H

#include "bulk/int.h"
#include "int/cpu/prime.h"
#include "test_util.h"

typedef void (*trial_sets_fn)(const bulk_limb_t *a, size_t n, size_t limbs, const char *what,
                              void *user);

/* x (n limbs) *= m; returns the carry out. */
static bulk_limb_t trial_sets_mul(bulk_limb_t *x, size_t n, uint64_t m)
{
    unsigned __int128 c = 0;
    for (size_t i = 0; i < n; i++) {
        c += (unsigned __int128)x[i] * m;
        x[i] = (bulk_limb_t)c;
        c >>= 64;
    }
    return (bulk_limb_t)c;
}

static void trial_sets_small(int san, trial_sets_fn fn, void *user)
{
    size_t n = (san ? (size_t)1 << 16 : (size_t)1 << 17) + 64;
    bulk_limb_t *a = test_xmalloc(n * 3 * 8);
    for (size_t v = 0; v < n; v++) a[v] = v;
    fn(a, n, 1, "small", user);
    memset(a, 0, n * 3 * 8);
    for (size_t v = 0; v < n; v++) a[3 * v] = v;
    fn(a, n, 3, "small, zero limbs above", user);
    free(a);
}

static void trial_sets_structured(const bulk_prime_table *t, trial_sets_fn fn, void *user)
{
    static const uint64_t big[] = { 257, 263, 269, 65521, 65537, 4294967291ull,
                                    18446744073709551557ull };
    size_t nb = sizeof big / sizeof *big, per = 3 * 7 * t->count;
    bulk_limb_t *a = test_xmalloc(per * 5 * 8);
    for (size_t limbs = 1; limbs <= 5; limbs++) {
        size_t n = 0;
        memset(a, 0, per * limbs * 8);
        for (size_t i = 0; i < t->count; i++) {
            uint64_t p = t->p[i];
            uint64_t vals[7] = { p, p * p, p * p * p, p * t->p[(i + 1) % t->count],
                                 p * big[i % nb], big[i % nb], big[i % nb] * big[(i + 3) % nb] };
            for (size_t k = 0; k < 7; k++) {
                a[n++ * limbs] = vals[k];
                if (limbs == 1) continue;
                a[n++ * limbs + limbs - 1] = vals[k]; /* v 2^(64 (limbs - 1)) */
                a[n * limbs] = 1;
                a[n++ * limbs + limbs - 1] = vals[k]; /* and + 1 */
            }
        }
        fn(a, n, limbs, "structured", user);
    }
    free(a);
}

static void trial_sets_random(const bulk_prime_table *t, uint64_t seed, int san, trial_sets_fn fn,
                              void *user)
{
    uint64_t st = seed ^ 0x747269616cull;
    size_t per = san ? 40 : 400;
    bulk_limb_t *a = test_xmalloc(per * 64 * 8);
    for (size_t limbs = 1; limbs <= 64; limbs++) {
        memset(a, 0, per * limbs * 8);
        for (size_t i = 0; i < per; i++) {
            bulk_limb_t *x = a + i * limbs;
            size_t used = (size_t)(test_rand(&st) % (limbs + 1));
            for (size_t j = 0; j < used; j++) x[j] = test_structured_limb(&st, (int)(i + j));
            if (used) x[0] |= test_rand(&st) & 1; /* mostly odd */
            if (used && used < limbs && i % 2) {
                uint64_t r = test_rand(&st);
                uint64_t m = r % 4 == 0 ? t->p[r / 4 % t->count]
                             : r % 4 == 1 ? 257 + 2 * (r / 4 % 8) /* 257 .. 271 */
                             : (uint64_t)t->p[r / 4 % t->count] * t->p[r / 64 % t->count];
                x[0] |= 1;
                x[used] = trial_sets_mul(x, used, m);
            }
        }
        fn(a, per, limbs, "random", user);
    }
    free(a);
}

/* All three sets through fn; t: a table of small primes (its primes multiplied in). */
static void trial_sets_run(const bulk_prime_table *t, uint64_t seed, int san, trial_sets_fn fn,
                           void *user)
{
    trial_sets_small(san, fn, user);
    trial_sets_structured(t, fn, user);
    trial_sets_random(t, seed, san, fn, user);
}

#endif
