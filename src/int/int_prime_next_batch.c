/* nextprime with the candidates tested in batches (contract: int/int_prime_offload.h). The
 * instances are taken in groups whose round batch stays near 2^21 limbs (16 MB). Per instance:
 * the window start c (limbs + 1 limbs: a carry into the top limb means past 2^(64 limbs)), the
 * window's sieve marks (bulk_prime_sieve) and the next index j in it. Per round every open
 * instance collects its next K unmarked candidates c + 2j in order (sieving the next window
 * when one is used up); all of them go to isprime in one call; an instance is done at its first
 * prime, or, when its candidates ran past 2^(64 limbs) without one, overflows. The candidates
 * exceed 2^32 and have no factor below the sieve bound, so isprime's answer on them is
 * bulk_prime_bpsw's, as in bulk_prime_next. */
#include <stdlib.h>
#include <string.h>

#include "backend/report.h"
#include "int/cpu/prime.h"
#include "int/int_parallel.h"
#include "int/int_prime_offload.h"
#include "int/int_workers.h"

enum { OPEN, DONE, OVERFLOW };

struct nb_job {
    const bulk_limb_t *a;
    bulk_limb_t *r;
    size_t limbs, K, W, mb; /* candidates per round, window, marks bytes per instance */
    unsigned rounds;
    const bulk_prime_table *t;
    size_t g0;              /* the group's first instance */
    bulk_limb_t *C;         /* per instance of the group: window start, limbs + 1 limbs */
    size_t *J;              /* next index in the window (W: used up) */
    uint8_t *marks, *state, *top; /* top: the candidates ran past 2^(64 limbs) */
    const size_t *open;     /* the open instances of this round */
    bulk_limb_t *B;         /* the round's candidates: K slots per open instance */
    bulk_int_workers w;
};

static void init_range(void *p, size_t begin, size_t end, int worker)
{
    struct nb_job *j = p;
    size_t L = j->limbs;
    uint64_t sb = bulk_prime_sieve_bound(j->t);
    for (size_t k = begin; k < end; k++) {
        const bulk_limb_t *a = j->a + (j->g0 + k) * L;
        bulk_limb_t *c = j->C + k * (L + 1);
        size_t an = bulk_mpn_normalized_size(a, L);
        j->top[k] = 0;
        j->state[k] = OPEN;
        if (an <= 1 && a[0] < sb * sb) { /* below the sieve's reach: one by one */
            bulk_limb_t *tp = bulk_int_workers_scratch(&j->w, worker);
            if (!tp) return;
            (void)bulk_prime_next(j->r + (j->g0 + k) * L, a, L, j->rounds, j->t, tp);
            j->state[k] = DONE;
            continue;
        }
        c[L] = bulk_mpn_add_1(c, a, L, (a[0] & 1) ? 2 : 1);
        j->J[k] = 0;
        if (c[L]) j->top[k] = 1;
        else bulk_prime_sieve(j->marks + k * j->mb, c, L, j->W, j->t);
    }
}

static void fill_range(void *p, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct nb_job *j = p;
    size_t L = j->limbs, W = j->W;
    for (size_t q = begin; q < end; q++) {
        size_t k = j->open[q], cnt = 0;
        bulk_limb_t *c = j->C + k * (L + 1), *slots = j->B + q * j->K * L;
        uint8_t *marks = j->marks + k * j->mb;
        while (cnt < j->K && !j->top[k]) {
            if (j->J[k] == W) { /* the next window */
                c[L] += bulk_mpn_add_1(c, c, L, 2 * (bulk_limb_t)W);
                if (c[L]) {
                    j->top[k] = 1;
                    break;
                }
                bulk_prime_sieve(marks, c, L, W, j->t);
                j->J[k] = 0;
            }
            size_t i = j->J[k]++;
            if (marks[i / 8] >> (i % 8) & 1) continue;
            if (bulk_mpn_add_1(slots + cnt * L, c, L, 2 * (bulk_limb_t)i)) j->top[k] = 1;
            else cnt++;
        }
        memset(slots + cnt * L, 0, (j->K - cnt) * L * sizeof *slots); /* isprime(0) = 0 */
    }
}

/* One group of G instances from g0; *first as in the contract. */
static int group(bulk_ctx *ctx, struct nb_job *j, size_t G, int (*isprime)(bulk_ctx *, uint8_t *,
                 const bulk_limb_t *, size_t, size_t, unsigned), size_t *open, uint8_t *out,
                 int8_t *err, size_t *first)
{
    size_t L = j->limbs, K = j->K;
    double sieve = 2000.0 * (double)L; /* a window's sieve: ~1700 groups of primes */
    bulk_int_parallel(ctx, G, sieve, init_range, j);
    size_t unused;
    int st = bulk_int_workers_result(&j->w, &unused);
    for (;;) {
        size_t P = 0;
        for (size_t k = 0; k < G && st == BULK_OK; k++)
            if (j->state[k] == OPEN) open[P++] = k;
        if (P == 0 || st != BULK_OK) break;
        j->open = open;
        bulk_int_parallel(ctx, P, sieve / 4 + 64.0 * (double)K * (double)L, fill_range, j);
        st = isprime(ctx, out, j->B, P * K, L, j->rounds);
        for (size_t q = 0; q < P && st == BULK_OK; q++) {
            size_t k = open[q], s = 0, i = j->g0 + k;
            while (s < K && out[q * K + s] != 1) s++;
            if (s < K) {
                memcpy(j->r + i * L, j->B + (q * K + s) * L, L * sizeof *j->r);
                j->state[k] = DONE;
            } else if (j->top[k]) {
                memset(j->r + i * L, 0, L * sizeof *j->r);
                j->state[k] = OVERFLOW;
                if (i < *first) *first = i;
            }
        }
    }
    for (size_t k = 0; k < G && err && st == BULK_OK; k++)
        err[j->g0 + k] = (int8_t)(j->state[k] == OVERFLOW ? BULK_ERR_OVERFLOW : BULK_OK);
    return st;
}

int bulk_prime_next_batched(bulk_ctx *ctx,
                            int (*isprime)(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a,
                                           size_t n, size_t limbs, unsigned rounds),
                            bulk_limb_t *r, const bulk_limb_t *a, size_t n, size_t limbs,
                            unsigned rounds, int8_t *err, size_t *first)
{
    static const char fn[] = "bulk_int_nextprime";
    *first = SIZE_MAX;
    size_t L = limbs, K = 8 + 2 * L, W = bulk_prime_window(L);
    size_t G = ((size_t)1 << 21) / (K * L);
    if (G == 0) G = 1;
    if (G > n) G = n;
    bulk_prime_table t;
    struct nb_job j = { .a = a, .r = r, .limbs = L, .K = K, .W = W, .mb = (W + 7) / 8,
                        .rounds = rounds, .t = &t };
    int tst = bulk_prime_table_init(&t, 65536);
    j.C = malloc(G * (L + 1) * sizeof *j.C);
    j.J = malloc(G * sizeof *j.J);
    j.marks = malloc(G * j.mb);
    j.state = malloc(G);
    j.top = malloc(G);
    j.B = malloc(G * K * L * sizeof *j.B);
    size_t *open = malloc(G * sizeof *open);
    uint8_t *out = malloc(G * K);
    int ok = tst == BULK_OK && j.C && j.J && j.marks && j.state && j.top && j.B && open && out;
    int st = ok ? bulk_int_workers_init(&j.w, ctx, bulk_prime_next_scratch(L)) : BULK_ERR_NOMEM;
    for (size_t g0 = 0; g0 < n && st == BULK_OK; g0 += G) {
        j.g0 = g0;
        st = group(ctx, &j, n - g0 < G ? n - g0 : G, isprime, open, out, err, first);
    }
    if (ok) bulk_int_workers_free(&j.w);
    if (tst == BULK_OK) bulk_prime_table_free(&t);
    free(j.C), free(j.J), free(j.marks), free(j.state), free(j.top), free(j.B);
    free(open), free(out);
    if (st == BULK_ERR_NOMEM)
        return bulk_fail(ctx, st, "%s: %zu candidates of %zu limbs: out of memory", fn, G * K, L);
    if (st == BULK_OK && *first != SIZE_MAX) return BULK_ERR_OVERFLOW;
    return st;
}
