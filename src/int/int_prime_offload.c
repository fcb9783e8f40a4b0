/* isprime with its modular powers on a device (contract: int/int_prime_offload.h).
 *   1. trial division, for all n at once, by o->trial (the device) or else on the CPU threads,
 *      over the CPU path's table (bulk_prime_isprime_limit): out[i] = 0 or 1 when decided,
 *      else 2;
 *   2. the survivors gathered, up to a chunk's count at a time (o->chunk_limbs limbs per
 *      array): modulus n, exponent d = (n - 1) / 2^r, base 2 (on the CPU threads), and 2^d mod n
 *      by o->powmod, one call per chunk: a chunk of survivors rather than of input, so that a
 *      call fills the device (a partly filled last wave costs as much as a full one);
 *   3. the rest of the strong test on the CPU threads (bulk_prime_strong_from): out[i] = 0, or
 *      left at 2 for a strong probable prime to base 2 (with o->sprp2, steps 2-3 are one call
 *      per chunk on the moduli alone), which the caller finishes unless
 *   4. (with o->lucas, after all chunks) the instances left at 2, gathered up to a chunk's count
 *      at a time: Selfridge's D on the CPU threads (bulk_prime_selfridge: out[i] = 0 for a
 *      factor or a square), U_d, V_d, Q^d by o->lucas, then on the CPU threads the rest of the
 *      strong Lucas test and the extra rounds (bulk_prime_lucas_from, bulk_prime_rounds):
 *      out[i] = 0 or 1. Gathered over all chunks: the ladder is latency-bound on the device
 *      (a few thousand products in sequence whatever the count), so one call for the ~1/355
 *      that reach it beats one per chunk. */
#include "int/int_prime_offload.h"

#include <stdlib.h>
#include <string.h>

#include "backend/report.h"
#include "int/cpu/prime.h"
#include "int/int_parallel.h"
#include "int/int_workers.h"

struct offload_job {
    uint8_t *out;
    const bulk_limb_t *a;
    size_t limbs;
    const bulk_prime_table *t;
    const size_t *idx;     /* steps 2-4: survivor k is instance idx[k] */
    bulk_limb_t *Mw, *Ew, *Bw; /* step 2's operands, written by gather_range */
    const bulk_limb_t *M, *X;
    int64_t *D;            /* step 4: Selfridge's D of survivor k (0: composite) */
    const bulk_limb_t *U, *V, *Q;
    unsigned rounds;
    bulk_int_workers w;
};

static void trial_range(void *p, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct offload_job *j = p;
    for (size_t i = begin; i < end; i++)
        j->out[i] = (uint8_t)bulk_prime_trial_n(j->a + i * j->limbs, j->limbs, j->t); /* 0, 1, 2 */
}

static void strong_range(void *p, size_t begin, size_t end, int worker)
{
    struct offload_job *j = p;
    bulk_limb_t *tp = bulk_int_workers_scratch(&j->w, worker);
    if (!tp) return;
    size_t L = j->limbs;
    for (size_t k = begin; k < end; k++) {
        const bulk_limb_t *m = j->M + k * L;
        size_t mn = bulk_mpn_normalized_size(m, L);
        j->out[j->idx[k]] = bulk_prime_strong_from(m, mn, j->X + k * L, tp) ? 2 : 0;
    }
}

static void selfridge_range(void *p, size_t begin, size_t end, int worker)
{
    struct offload_job *j = p;
    bulk_limb_t *tp = bulk_int_workers_scratch(&j->w, worker);
    if (!tp) return;
    size_t L = j->limbs;
    for (size_t k = begin; k < end; k++) {
        const bulk_limb_t *m = j->M + k * L;
        if (!bulk_prime_selfridge(m, bulk_mpn_normalized_size(m, L), &j->D[k], tp)) {
            j->D[k] = 0;
            j->out[j->idx[k]] = 0;
        }
    }
}

static void lucas_range(void *p, size_t begin, size_t end, int worker)
{
    struct offload_job *j = p;
    bulk_limb_t *tp = bulk_int_workers_scratch(&j->w, worker);
    if (!tp) return;
    size_t L = j->limbs;
    for (size_t k = begin; k < end; k++) {
        const bulk_limb_t *m = j->M + k * L;
        size_t mn = bulk_mpn_normalized_size(m, L), o = k * L;
        j->out[j->idx[k]] = (uint8_t)(bulk_prime_lucas_from(m, mn, j->U + o, j->V + o, j->Q + o, tp) &&
                                      bulk_prime_rounds(m, mn, j->rounds, tp));
    }
}

/* e = (m - 1) / 2^r, r = the trailing zero bits of m - 1 (m odd >= 3, L limbs). */
static void odd_part(bulk_limb_t *e, const bulk_limb_t *m, size_t L)
{
    memcpy(e, m, L * sizeof *e);
    e[0] -= 1; /* m odd: no borrow */
    size_t z = 0;
    while (e[z] == 0) z++;
    memmove(e, e + z, (L - z) * sizeof *e);
    memset(e + L - z, 0, z * sizeof *e);
    unsigned b = (unsigned)bulk_limb_ctz(e[0]);
    if (b) bulk_mpn_rshift(e, e, L, b);
}

/* Step 2's operands of survivors [begin, end): modulus, exponent, base 2 (the modulus alone
 * without Ew). */
static void gather_range(void *p, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct offload_job *j = p;
    size_t L = j->limbs;
    for (size_t k = begin; k < end; k++) {
        bulk_limb_t *m = j->Mw + k * L;
        memcpy(m, j->a + j->idx[k] * L, L * sizeof *m);
        if (!j->Ew) continue; /* the device's whole strong test: the modulus alone */
        bulk_limb_t *b = j->Bw + k * L;
        odd_part(j->Ew + k * L, m, L);
        memset(b, 0, L * sizeof *b);
        b[0] = 2;
    }
}

/* Steps 2-3 for the survivors idx[0 .. cnt). */
static int chunk(bulk_ctx *ctx, const bulk_prime_offload *o, struct offload_job *j, size_t cnt,
                 bulk_limb_t *M, bulk_limb_t *E, bulk_limb_t *B, bulk_limb_t *X, size_t *idx,
                 int8_t *err)
{
    size_t L = j->limbs;
    j->idx = idx, j->Mw = M, j->Ew = o->sprp2 ? NULL : E, j->Bw = B;
    bulk_int_parallel(ctx, cnt, 4.0 * (double)L + 16.0, gather_range, j);
    if (o->sprp2) {
        uint8_t *pass = (uint8_t *)err; /* powmod's status bytes, free on this path */
        int st = o->sprp2(ctx, pass, M, cnt, L);
        for (size_t k = 0; k < cnt && st == BULK_OK; k++) j->out[idx[k]] = pass[k] ? 2 : 0;
        return st;
    }
    int st = o->powmod(ctx, X, B, E, M, cnt, L, err);
    if (st != BULK_OK) return st;
    j->M = M, j->X = X;
    bulk_int_parallel(ctx, cnt, 64.0 * (double)L * (double)L, strong_range, j);
    return BULK_OK;
}

/* Step 4 for the instances of [0, n) left at 2, c at a time (M, U, V, Q: c L limbs each). */
static int lucas_all(bulk_ctx *ctx, const bulk_prime_offload *o, struct offload_job *j, size_t n,
                     size_t c, bulk_limb_t *M, bulk_limb_t *U, bulk_limb_t *V, bulk_limb_t *Q,
                     size_t *idx)
{
    size_t L = j->limbs, first;
    double cost = 64.0 * (double)L * (double)L;
    j->idx = idx, j->M = M, j->U = U, j->V = V, j->Q = Q;
    for (size_t i = 0; i < n;) {
        size_t cnt = 0;
        for (; i < n && cnt < c; i++)
            if (j->out[i] == 2) {
                idx[cnt] = i;
                memcpy(M + cnt * L, j->a + i * L, L * sizeof *M);
                cnt++;
            }
        if (cnt == 0) break;
        bulk_int_parallel(ctx, cnt, cost, selfridge_range, j);
        int st = bulk_int_workers_result(&j->w, &first);
        if (st != BULK_OK) return st;
        size_t live = 0; /* those with a D, moved together */
        for (size_t k = 0; k < cnt; k++) {
            if (!j->D[k]) continue;
            if (live != k) {
                idx[live] = idx[k];
                j->D[live] = j->D[k];
                memcpy(M + live * L, M + k * L, L * sizeof *M);
            }
            live++;
        }
        if (live == 0) continue;
        st = o->lucas(ctx, U, V, Q, M, j->D, live, L);
        if (st != BULK_OK) return st;
        bulk_int_parallel(ctx, live, cost * (1.0 + j->rounds) * (double)L, lucas_range, j);
        st = bulk_int_workers_result(&j->w, &first);
        if (st != BULK_OK) return st;
    }
    return BULK_OK;
}

int bulk_prime_offload_run(bulk_ctx *ctx, const bulk_prime_offload *o, uint8_t *out,
                           const bulk_limb_t *a, size_t n, size_t limbs)
{
    static const char fn[] = "bulk_int_isprime";
    bulk_prime_table t;
    if (bulk_prime_table_init(&t, bulk_prime_isprime_limit(limbs)) != BULK_OK)
        return bulk_fail(ctx, BULK_ERR_NOMEM, "%s: table of small primes: out of memory", fn);
    struct offload_job j = { .out = out, .a = a, .limbs = limbs, .t = &t, .rounds = o->rounds };
    size_t cl = o->chunk_limbs ? o->chunk_limbs : (size_t)1 << 22;
    size_t per = cl / limbs ? cl / limbs : 1, c = per < n ? per : n;
    /* M, E, B, X for step 2 (the modulus alone with sprp2), M, U, V, Q for step 4 */
    size_t regions = o->lucas || !o->sprp2 ? 4 : 1;
    bulk_limb_t *M = malloc(regions * c * limbs * sizeof *M);
    bulk_limb_t *E = M && regions == 4 ? M + c * limbs : NULL;
    size_t *idx = malloc(c * sizeof *idx);
    int8_t *err = malloc(c);
    size_t sl = bulk_prime_strong_from_scratch(limbs);
    if (o->lucas) { /* step 4's functions too */
        j.D = malloc(c * sizeof *j.D);
        size_t s4[] = { bulk_prime_selfridge_scratch(limbs), bulk_prime_lucas_from_scratch(limbs),
                        bulk_prime_bpsw_scratch(limbs) };
        for (size_t k = 0; k < 3; k++) sl = s4[k] > sl ? s4[k] : sl;
    }
    int st = M && idx && err && (j.D || !o->lucas) ? bulk_int_workers_init(&j.w, ctx, sl)
                                                   : BULK_ERR_NOMEM;
    if (st == BULK_OK && o->trial) st = o->trial(ctx, out, a, n, limbs, &t);
    else if (st == BULK_OK) bulk_int_parallel(ctx, n, 16.0 * (double)limbs * (double)limbs + 64.0, trial_range, &j);
    for (size_t i = 0; i < n && st == BULK_OK;) {
        size_t cnt = 0;
        for (; i < n && cnt < c; i++)
            if (out[i] == 2) idx[cnt++] = i;
        if (cnt == 0) break;
        st = chunk(ctx, o, &j, cnt, M, E, E ? E + c * limbs : NULL, E ? E + 2 * c * limbs : NULL,
                   idx, err);
        size_t first;
        if (st == BULK_OK) st = bulk_int_workers_result(&j.w, &first);
    }
    if (st == BULK_OK && o->lucas)
        st = lucas_all(ctx, o, &j, n, c, M, M + c * limbs, M + 2 * c * limbs, M + 3 * c * limbs, idx);
    if (M && idx && err && (j.D || !o->lucas)) bulk_int_workers_free(&j.w);
    free(j.D);
    free(M);
    free(idx);
    free(err);
    bulk_prime_table_free(&t);
    if (st == BULK_ERR_NOMEM)
        return bulk_fail(ctx, st, "%s: %zu numbers of %zu limbs for the device: out of memory", fn,
                         c, limbs);
    return st;
}
