/* Small primes, trial division, and the next probable prime by sieving a window of candidates
 * (contract: int/cpu/prime.h). */
#include <stdlib.h>
#include <string.h>

#include "bulk/bulk.h"
#include "int/cpu/prime.h"
#include "int/udiv_word.h"

uint32_t bulk_prime_isprime_limit(size_t limbs)
{
    uint64_t limit = 256 * (uint64_t)limbs + 2;
    return limit < 4096 ? 4096 : limit > 65536 ? 65536 : (uint32_t)limit;
}

int bulk_prime_table_init(bulk_prime_table *t, uint32_t limit)
{
    memset(t, 0, sizeof *t);
    t->limit = limit;
    uint8_t *comp = calloc(limit, 1);
    size_t cap = limit / 2 + 1;
    t->p = malloc(cap * sizeof *t->p);
    t->g = malloc(cap * sizeof *t->g);
    if (!comp || !t->p || !t->g) {
        free(comp);
        bulk_prime_table_free(t);
        return BULK_ERR_NOMEM;
    }
    for (uint32_t i = 3; i < limit; i += 2) {
        if (comp[i]) continue;
        t->p[t->count++] = i;
        for (uint64_t j = (uint64_t)i * i; j < limit; j += 2 * i) comp[j] = 1;
    }
    free(comp);
    for (size_t i = 0; i < t->count;) {
        bulk_prime_group *g = &t->g[t->groups++];
        g->first = (uint32_t)i;
        bulk_limb_t d = 1;
        while (i < t->count && d <= UINT64_MAX / t->p[i]) d *= t->p[i++];
        g->end = (uint32_t)i;
        g->d = d;
        g->shift = bulk_limb_clz(d);
        g->dnorm = d << g->shift;
        g->v = bulk_reciprocal_word(g->dnorm);
    }
    return BULK_OK;
}

void bulk_prime_table_free(bulk_prime_table *t)
{
    free(t->p);
    free(t->g);
    t->p = NULL;
    t->g = NULL;
    t->count = t->groups = 0;
}

bulk_limb_t bulk_prime_group_mod(const bulk_limb_t *a, size_t n, const bulk_prime_group *g)
{
    /* a mod d = ((a << s) mod (d << s)) >> s, the shifted limbs made on the fly */
    int s = g->shift;
    bulk_limb_t r = s ? a[n - 1] >> (64 - s) : 0; /* < 2^s <= dnorm */
    for (size_t i = n; i-- > 0;) {
        bulk_limb_t limb = a[i] << s;
        if (s && i) limb |= a[i - 1] >> (64 - s);
        (void)bulk_udiv_2by1(r, limb, g->dnorm, g->v, &r);
    }
    return r >> s;
}

/* Trial division bound for mn-limb numbers: dividing by the primes below 256 mn costs about as
 * much as the BPSW tests it saves (the share of odd numbers without a factor below B falls
 * only as 1 / ln B). */
static uint32_t trial_bound(size_t mn, const bulk_prime_table *t)
{
    uint64_t b = 256 * (uint64_t)mn;
    return b < t->limit ? (uint32_t)b : t->limit;
}

int bulk_prime_trial(const bulk_limb_t *a, size_t mn, const bulk_prime_table *t)
{
    uint32_t bound = trial_bound(mn, t);
    for (size_t k = 0; k < t->groups; k++) {
        const bulk_prime_group *g = &t->g[k];
        if (t->p[g->first] >= bound) break;
        bulk_limb_t r = bulk_prime_group_mod(a, mn, g);
        for (uint32_t i = g->first; i < g->end; i++)
            if (r % t->p[i] == 0) return mn == 1 && a[0] == t->p[i];
    }
    /* no factor below bound (whole groups: maybe a little beyond) */
    return mn == 1 && a[0] < (uint64_t)bound * bound ? 1 : 2;
}

int bulk_prime_trial_n(const bulk_limb_t *a, size_t n, const bulk_prime_table *t)
{
    size_t mn = bulk_mpn_normalized_size(a, n);
    if (mn == 0 || (mn == 1 && a[0] < 4)) return mn == 1 && a[0] >= 2;
    if ((a[0] & 1) == 0) return 0;
    return bulk_prime_trial(a, mn, t);
}

int bulk_prime_isprime(const bulk_limb_t *a, size_t n, unsigned rounds, const bulk_prime_table *t,
                       bulk_limb_t *tp)
{
    int v = bulk_prime_trial_n(a, n, t);
    if (v != 2) return v;
    return bulk_prime_bpsw(a, bulk_mpn_normalized_size(a, n), rounds, tp);
}

/* Odd candidates per sieved window of nextprime: a few times the mean prime gap (ln a, about
 * 44 per limb) over 2, so one window nearly always holds the answer. */
size_t bulk_prime_window(size_t n) { return 64 * n < 256 ? 256 : 64 * n; }

/* Sieving primes: those below 2^16, or fewer for small numbers (all candidates must exceed
 * them, so that a hit means a proper factor). */
uint32_t bulk_prime_sieve_bound(const bulk_prime_table *t)
{
    return t->limit < 65536 ? t->limit : 65536;
}

void bulk_prime_sieve(uint8_t *marks, const bulk_limb_t *c, size_t n, size_t W,
                      const bulk_prime_table *t)
{
    uint32_t sb = bulk_prime_sieve_bound(t);
    memset(marks, 0, (W + 7) / 8);
    for (size_t k = 0; k < t->groups; k++) {
        const bulk_prime_group *g = &t->g[k];
        if (t->p[g->first] >= sb) break;
        bulk_limb_t rem = bulk_prime_group_mod(c, n, g);
        for (uint32_t i = g->first; i < g->end; i++) {
            uint64_t p = t->p[i], cr = rem % p;
            /* c + 2j = 0 mod p  <=>  j = -c / 2 = (p - cr) (p + 1) / 2 mod p */
            uint64_t j = cr ? (p - cr) * ((p + 1) / 2) % p : 0;
            for (; j < W; j += p) marks[j / 8] |= (uint8_t)(1u << (j % 8));
        }
    }
}

size_t bulk_prime_next_scratch(size_t n)
{
    return bulk_prime_bpsw_scratch(n + 1) + (n + 1) + (bulk_prime_window(n) + 7) / 8 + 1;
}

int bulk_prime_next(bulk_limb_t *r, const bulk_limb_t *a, size_t n, unsigned rounds,
                    const bulk_prime_table *t, bulk_limb_t *tp)
{
    size_t an = bulk_mpn_normalized_size(a, n);
    bulk_mpn_zero(r, n);
    uint32_t sb = bulk_prime_sieve_bound(t);
    if (an <= 1 && a[0] < (uint64_t)sb * sb) { /* small: candidate by candidate, exact */
        for (uint64_t c = an ? a[0] + 1 : 1;; c++) {
            if (bulk_prime_isprime(&c, 1, rounds, t, tp)) {
                r[0] = c;
                return BULK_OK;
            }
        }
    }
    /* c = the least odd number > a, then windows of W odd candidates c, c + 2, ... */
    bulk_limb_t *c = tp + bulk_prime_bpsw_scratch(n + 1), *x = r;
    uint8_t *marks = (uint8_t *)(c + n + 1);
    size_t W = bulk_prime_window(n);
    c[n] = bulk_mpn_add_1(c, a, n, (a[0] & 1) ? 2 : 1);
    for (;;) {
        if (c[n]) return BULK_ERR_OVERFLOW; /* r stays 0 */
        bulk_prime_sieve(marks, c, n, W, t);
        for (size_t j = 0; j < W; j++) {
            if (marks[j / 8] >> (j % 8) & 1) continue;
            bulk_limb_t hi = bulk_mpn_add_1(x, c, n, 2 * (bulk_limb_t)j);
            if (hi) {
                bulk_mpn_zero(r, n);
                return BULK_ERR_OVERFLOW;
            }
            size_t xn = bulk_mpn_normalized_size(x, n);
            if (bulk_prime_bpsw(x, xn, rounds, tp)) return BULK_OK;
        }
        c[n] += bulk_mpn_add_1(c, c, n, 2 * (bulk_limb_t)W);
    }
}
