/* The slow, obviously right twin of the Collatz engine: one step at a time on unsigned
 * __int128, written separately from src/collatz (no tables, no sieve). A value that would
 * leave 128 bits makes the functions return 0 so the caller can use another oracle. */
#ifndef BULK_TESTS_COLLATZ_NAIVE_H
#define BULK_TESTS_COLLATZ_NAIVE_H
#include <stdint.h>

typedef unsigned __int128 nv_u128;

/* delay, glide (0 for n = 1), peak of n >= 1; 1 on success, 0 on 128-bit overflow */
static inline int naive_collatz(nv_u128 n, uint64_t *delay, uint64_t *glide, nv_u128 *peak)
{
    const nv_u128 limit = (~(nv_u128)0 - 1) / 3;
    nv_u128 x = n, pk = n;
    uint64_t steps = 0, gl = 0;
    int have = n == 1;
    while (x != 1) {
        if (x % 2) {
            if (x > limit) return 0;
            x = 3 * x + 1;
            if (x > pk) pk = x;
        } else {
            x /= 2;
            if (!have && x < n) {
                have = 1;
                gl = steps + 1;
            }
        }
        steps++;
    }
    *delay = steps;
    *glide = gl;
    *peak = pk;
    return 1;
}

/* glide only (stops at the first value below n) */
static inline int naive_glide(nv_u128 n, uint64_t *glide)
{
    const nv_u128 limit = (~(nv_u128)0 - 1) / 3;
    if (n == 1) {
        *glide = 0;
        return 1;
    }
    nv_u128 x = n;
    uint64_t steps = 0;
    for (;;) {
        if (x % 2) {
            if (x > limit) return 0;
            x = 3 * x + 1;
        } else {
            x /= 2;
            if (x < n) break;
        }
        steps++;
    }
    *glide = steps + 1;
    return 1;
}

#endif
