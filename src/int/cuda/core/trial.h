/* Trial division of one instance by a table of small odd primes: step 1 of isprime's device
 * path (int/int_prime_offload.h), run by the trial kernel (num/trial.cu) one thread per
 * instance; tests/int_gpu/test_int_trial_gpu_core.c runs it on the host against the CPU's.
 *
 * The table (bg_trial_build) is made from the CPU's (int/cpu/prime.h: the odd primes below
 * `limit` in runs whose product fits 64 bits), so that bg_trial_one gives exactly the answers
 * of bulk_prime_trial_n over that table, for any nw words at stride s, leading zero words
 * included:
 *   0, 1 -> 0; 2, 3 -> 1; even -> 0;
 *   with mn the limbs (64 bits) below the top nonzero word and bound = min(256 mn, limit): the
 *   CPU tries every run whose first prime is below bound (a whole run, so a few primes past
 *   bound too); a multiple of a prime tried -> 1 when a is that prime, else 0;
 *   else 1 when a has one limb and a < bound^2 (no factor below its square root), else 2.
 * Which prime divides first does not matter: a multiple of a table prime is that prime only
 * when no other table prime divides it. So a CUDA context's isprime answers are the CPU's by
 * construction, step for step.
 *
 * The device splits each of the CPU's runs into groups whose product M fits 32 bits and takes
 * the residue of a modulo M by Montgomery's reduction one word at a time from the lowest:
 * r = (r + w) 2^-32 mod M (r < 2^32; r + w + q M < 2^64 with q = -(r + w) M^-1 mod 2^32, so
 * two 32x32 products a word). The result is a 2^(-32 len) mod M up to a multiple of M, and 2
 * is invertible modulo every odd prime p | M, so p | a exactly when p | r, which is
 * r p^-1 mod 2^32 <= (2^32 - 1) / p (one product, no division). Four groups share one pass over
 * the words (four independent chains). */
#ifndef BULK_INT_CUDA_CORE_TRIAL_H
#define BULK_INT_CUDA_CORE_TRIAL_H

#include "int/cuda/core/words.h"

/* A group: M (the product of its primes, < 2^32), -M^-1 mod 2^32, the first prime of the CPU's
 * run it belongs to (the group is tried when that is below the bound), and the end of its
 * primes in the prime list (they start at the previous group's end). */
typedef struct bg_trial_group {
    uint32_t m, minv, key, end;
} bg_trial_group;

/* A prime p, p^-1 mod 2^32 and (2^32 - 1) / p. */
typedef struct bg_trial_prime {
    uint32_t p, inv, lim;
} bg_trial_prime;

/* Groups are tried this many at a time; bg_trial_build pads the list to a multiple. */
#define BG_TRIAL_PASS 4

/* x^-1 mod 2^32 for odd x (Newton: each step doubles the correct low bits from 3). */
BULK_HD uint32_t bg_trial_inv32(uint32_t x)
{
    uint32_t v = x;
    for (int i = 0; i < 4; i++) v *= 2 - x * v;
    return v;
}

/* Groups needed for count primes (an upper bound for bg_trial_build's g). */
BULK_HD size_t bg_trial_max_groups(size_t count) { return count + BG_TRIAL_PASS; }

/* The device table from the CPU's: primes p[0 .. count) (odd, increasing, below 2^32), its
 * runs starting at the indices first[0 .. runs) (first[0] = 0, increasing). Writes
 * q[0 .. count) and the groups, padded with empty ones (M = 1, key 2^32 - 1) to a multiple of
 * BG_TRIAL_PASS; returns their number. */
BULK_HD size_t bg_trial_build(bg_trial_group *g, bg_trial_prime *q, const uint32_t *p,
                              size_t count, const uint32_t *first, size_t runs)
{
    size_t ng = 0;
    for (size_t r = 0; r < runs; r++) {
        size_t i = first[r], end = r + 1 < runs ? first[r + 1] : count;
        while (i < end) {
            uint64_t m = 1;
            while (i < end && m * p[i] <= 0xffffffffu) {
                m *= p[i];
                q[i].p = p[i];
                q[i].inv = bg_trial_inv32(p[i]);
                q[i].lim = 0xffffffffu / p[i];
                i++;
            }
            g[ng].m = (uint32_t)m;
            g[ng].minv = 0u - bg_trial_inv32((uint32_t)m);
            g[ng].key = p[first[r]];
            g[ng].end = (uint32_t)i;
            ng++;
        }
    }
    while (ng % BG_TRIAL_PASS) {
        g[ng].m = 1;
        g[ng].minv = 0xffffffffu;
        g[ng].key = 0xffffffffu;
        g[ng].end = (uint32_t)count;
        ng++;
    }
    return ng;
}

/* r = (r + w) 2^-32 mod M, up to a multiple of M (r < 2^32 in and out). */
BULK_HD uint32_t bg_trial_step(uint32_t r, uint32_t w, const bg_trial_group *g)
{
    uint64_t t = (uint64_t)r + w;
    uint32_t q = (uint32_t)t * g->minv;
    return (uint32_t)((t + (uint64_t)q * g->m) >> 32);
}

/* 0 (composite), 1 (prime) or 2 (undecided) for the number of nw words at stride s, by the
 * table g[0 .. ng) (ng a multiple of BG_TRIAL_PASS), q, made from the CPU's table of odd
 * primes below limit. */
BULK_HD int bg_trial_one(const bg_word *a, size_t s, int nw, const bg_trial_group *g, size_t ng,
                         const bg_trial_prime *q, uint32_t limit)
{
    int len = bg_len(a, s, nw);
    uint64_t n0 = len ? BG_AT(a, s, 0) : 0;
    if (len > 1) n0 |= (uint64_t)BG_AT(a, s, 1) << 32;
    int small = len <= 2; /* one 64-bit limb: n0 is the number */
    if (small && n0 < 4) return n0 >= 2;
    if ((n0 & 1) == 0) return 0;
    uint64_t b = 256 * (uint64_t)((len + 1) / 2);
    uint32_t bound = b < limit ? (uint32_t)b : limit;
    uint32_t pi = 0;
    for (size_t k = 0; k < ng && g[k].key < bound; k += BG_TRIAL_PASS) {
        uint32_t r[BG_TRIAL_PASS] = { 0 };
        for (int j = 0; j < len; j++) {
            uint32_t w = BG_AT(a, s, j);
            BG_UNROLL
            for (int u = 0; u < BG_TRIAL_PASS; u++) r[u] = bg_trial_step(r[u], w, &g[k + u]);
        }
        for (int u = 0; u < BG_TRIAL_PASS; u++) {
            if (g[k + u].key >= bound) break;
            for (; pi < g[k + u].end; pi++)
                if (r[u] * q[pi].inv <= q[pi].lim) return small && n0 == q[pi].p;
        }
    }
    return small && n0 < (uint64_t)bound * bound ? 1 : 2;
}

#endif
