/* The exact path: trajectories of numbers of any size in multi-limb arithmetic (64-bit limbs,
 * least significant first). Used for `bulk collatz delay N` and for every number whose
 * interim value leaves the 128 bits of the fast paths (seed 004 section 5.1, host side).
 * Deliberately simple (one step at a time): it also serves as the slow twin of the tests. */
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"

typedef struct big {
    uint64_t *w;
    size_t n, cap; /* n significant limbs (w[n-1] != 0 unless the value is 0) */
} big;

static int big_reserve(big *b, size_t cap)
{
    if (cap <= b->cap) return BULK_OK;
    size_t nc = b->cap ? b->cap : 4;
    while (nc < cap) nc *= 2;
    uint64_t *w = realloc(b->w, nc * sizeof *w);
    if (!w) return BULK_ERR_NOMEM;
    memset(w + b->cap, 0, (nc - b->cap) * sizeof *w);
    b->w = w;
    b->cap = nc;
    return BULK_OK;
}

static int big_set(big *b, const uint64_t *x, size_t n)
{
    if (n > ((size_t)1 << 40)) return BULK_ERR_NOMEM; /* also tells the compiler n is sane */
    int st = big_reserve(b, n + 1);
    if (st) return st;
    memcpy(b->w, x, n * sizeof *x);
    b->n = n;
    return BULK_OK;
}

/* -1, 0, 1 */
static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (size_t i = a->n; i-- > 0;)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* x = 3x + 1 */
static int big_odd(big *x)
{
    int st = big_reserve(x, x->n + 1);
    if (st) return st;
    uint64_t carry = 1;
    for (size_t i = 0; i < x->n; i++) {
        u128 t = (u128)x->w[i] * 3 + carry;
        x->w[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
    if (carry) x->w[x->n++] = carry;
    return BULK_OK;
}

/* x = x / 2 (x even) */
static void big_half(big *x)
{
    for (size_t i = 0; i < x->n; i++) {
        uint64_t hi = i + 1 < x->n ? x->w[i + 1] : 0;
        x->w[i] = (x->w[i] >> 1) | (hi << 63);
    }
    if (x->n && x->w[x->n - 1] == 0) x->n--;
}

int bulk_cz_exact(const uint64_t *n, size_t nl, int stop_at_glide, uint64_t *delay,
                  uint64_t *glide, uint64_t *peak, size_t peak_cap, size_t *peak_limbs)
{
    while (nl && n[nl - 1] == 0) nl--;
    if (nl == 0) return BULK_ERR_ARG;
    big start = { 0 }, x = { 0 }, pk = { 0 };
    int st = big_set(&start, n, nl);
    if (!st) st = big_set(&x, n, nl);
    if (!st) st = big_set(&pk, n, nl);
    uint64_t steps = 0, gl = 0;
    int have_glide = (nl == 1 && n[0] == 1); /* glide(1) = 0 by convention */
    /* a generous guard: no trajectory of a number below 2^(64*1024) is known to come near it */
    const uint64_t guard = (uint64_t)1 << 44;
    while (!st) {
        if (x.n == 1 && x.w[0] == 1) break;
        if (have_glide && stop_at_glide) break;
        if (steps >= guard) {
            st = BULK_ERR_INTERNAL;
            break;
        }
        if (x.w[0] & 1) {
            st = big_odd(&x);
            if (st) break;
            if (big_cmp(&x, &pk) > 0) st = big_set(&pk, x.w, x.n);
        } else {
            big_half(&x);
            if (!have_glide && big_cmp(&x, &start) < 0) {
                have_glide = 1;
                gl = steps + 1;
            }
        }
        steps++;
    }
    if (!st) {
        if (delay && !stop_at_glide) *delay = steps;
        if (glide) *glide = gl;
        if (peak_limbs) *peak_limbs = pk.n;
        if (peak) {
            if (pk.n > peak_cap) st = BULK_ERR_OVERFLOW;
            else {
                memset(peak, 0, peak_cap * sizeof *peak);
                memcpy(peak, pk.w, pk.n * sizeof *peak);
            }
        }
    }
    free(start.w);
    free(x.w);
    free(pk.w);
    return st;
}

int bulk_cz_exact_glide128(cz_u128 n, uint64_t *glide)
{
    uint64_t w[2] = { n.lo, n.hi };
    return bulk_cz_exact(w, 2, 1, NULL, glide, NULL, 0, NULL);
}

int bulk_collatz_exact(const uint64_t *n, size_t limbs, uint64_t *delay, uint64_t *glide,
                       uint64_t *peak, size_t peak_cap, size_t *peak_limbs)
{
    static const char fn[] = "bulk_collatz_exact";
    if (!n) return bulk_fail(NULL, BULK_ERR_ARG, "%s: n: is NULL", fn);
    if (limbs == 0) return bulk_fail(NULL, BULK_ERR_ARG, "%s: limbs 0: must be at least 1", fn);
    size_t nl = limbs;
    while (nl && n[nl - 1] == 0) nl--;
    if (nl == 0) return bulk_fail(NULL, BULK_ERR_ARG, "%s: n: must be at least 1", fn);
    if (!peak && peak_cap) return bulk_fail(NULL, BULK_ERR_ARG, "%s: peak: is NULL with peak_cap %zu", fn, peak_cap);
    int st = bulk_cz_exact(n, limbs, 0, delay, glide, peak, peak_cap, peak_limbs);
    if (st == BULK_ERR_OVERFLOW)
        return bulk_fail(NULL, st, "%s: peak_cap %zu: the peak needs more limbs", fn, peak_cap);
    return st == BULK_OK ? st : bulk_cz_fail_status(NULL, st, fn, "trajectory");
}
