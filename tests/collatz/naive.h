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


/* The pre-drop peak of n >= 1 (the largest value before the trajectory first drops below n; n
 * itself when none is larger, 1 for n = 1), one step at a time in NV_WIDE 64-bit limbs (320
 * bits, least significant first) into out; 0 when a value would leave them. */
#define NV_WIDE 5
static inline int nv_wide_cmp(const uint64_t *a, const uint64_t *b)
{
    for (int i = NV_WIDE; i-- > 0;)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}
static inline int naive_predrop(nv_u128 n, uint64_t out[NV_WIDE])
{
    uint64_t x[NV_WIDE] = { (uint64_t)n, (uint64_t)(n >> 64), 0, 0, 0 }, start[NV_WIDE];
    for (int i = 0; i < NV_WIDE; i++) start[i] = out[i] = x[i];
    if (n == 1) return 1;
    for (;;) {
        if (x[0] & 1) {
            uint64_t carry = 1;
            for (int i = 0; i < NV_WIDE; i++) {
                const nv_u128 t = (nv_u128)x[i] * 3 + carry;
                x[i] = (uint64_t)t;
                carry = (uint64_t)(t >> 64);
            }
            if (carry) return 0;
            if (nv_wide_cmp(x, out) > 0)
                for (int i = 0; i < NV_WIDE; i++) out[i] = x[i];
        } else {
            for (int i = 0; i < NV_WIDE; i++) x[i] = (x[i] >> 1) | (i + 1 < NV_WIDE ? x[i + 1] << 63 : 0);
            if (nv_wide_cmp(x, start) < 0) return 1;
        }
    }
}

#endif
