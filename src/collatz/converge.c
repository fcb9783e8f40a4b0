/* The convergence sieve: three proofs that n converges once every smaller number does, besides
 * the glide (docs/collatz.md "Convergence mode"). Used only by engines switched to convergence
 * mode (bulk_collatz_engine_set_converge); their verify runs skip the numbers proved here, so
 * those numbers have no computed glide (the checksum leaves them out).
 *
 * 1. Predecessors (the 3-adic sieve). The inverse steps of the Collatz map are x -> 2x and, when
 *    x = 2 mod 3, x -> (2x - 1) / 3 (an odd number whose 3x + 1 is 2x). A chain of them from a
 *    value V ends at A = (2^a V - b) / 3^e (a steps, e of them thirds); A's trajectory passes
 *    through V. Whether each third is an integer depends only on V mod 3^e. If A < n and V is on
 *    n's trajectory, n converges because A does.
 *    - At a sieve node (n = 2^D m + p -> V = 3^j m + c after D halvings, m >= m0) with j >= E,
 *      V mod 3^E = c mod 3^E, so the chains valid for the class are known; a chain proves the
 *      whole class when 2^a 3^j < 3^e 2^D (A grows slower in m than n) and A < n at m = m0.
 *    - For n itself (V = n, no step taken): n = 2 mod 3 has A = (2n - 1) / 3, and n = 4 mod 9
 *      has A = (8n - 5) / 9 (n -> 2n -> (4n - 1) / 3 -> (8n - 5) / 9, backwards); 4 of every 9
 *      rows are proved so (cz_conv_row_skip).
 * 2. Merges. Residues p1 < p2 of 2^M with equal states (j, c) after M halvings reach the same
 *    value 3^j m + c from n1 = 2^M m + p1 < n2 = 2^M m + p2, so every n2 of the class converges
 *    with n1 (the delay merge classes of delays.c use the same fact).
 * Either way the proof uses a smaller number: by induction over n, every number of a range whose
 * smaller numbers converge converges. */
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"
#include "collatz/converge_core.h"


struct cz_conv {
    int k;
    uint8_t *nch;          /* chains per residue */
    struct cz_chain *ch;   /* CZ_CONV_MAX_CHAINS per residue */
    int M;                 /* merge bits (0: none) */
    uint8_t *merged;       /* 2^M flags: the residue's state equals a smaller residue's */
};

struct chain_search {
    struct cz_chain found[4096];
    int n;
};

/* Chains from a value V = u mod 3^E: x is the chain's current value mod 3^(E - e). Only chains
 * that end with a third and have 2^a < 3^e are kept (a doubling at the end only raises A). */
static void chains_from(struct chain_search *s, uint32_t x, int a, int e, uint32_t b, uint32_t pow3e)
{
    const int amax = (CZ_CONV_E * 1585) / 1000; /* 2^a < 3^E */
    if (a >= amax) return;
    uint32_t mod = 1;
    for (int t = e; t < CZ_CONV_E; t++) mod *= 3;
    if (e < CZ_CONV_E && x % 3 == 2) {
        /* (2x - 1) / 3: exact, and known modulo 3^(E - e - 1) */
        const uint32_t x2 = ((2 * x + mod - 1) % mod) / 3;
        const uint32_t b2 = 2 * b + pow3e;
        if (((uint32_t)1 << (a + 1)) < pow3e * 3 && s->n < 4096)
            s->found[s->n++] = (struct cz_chain){ (uint8_t)(a + 1), (uint8_t)(e + 1), b2 };
        chains_from(s, x2, a + 1, e + 1, b2, pow3e * 3);
    }
    if (mod > 1) chains_from(s, (2 * x) % mod, a + 1, e, 2 * b, pow3e);
}

static int chain_order(const void *x, const void *y)
{
    const struct cz_chain *p = x, *q = y;
    /* 2^a / 3^e ascending: compare 2^pa 3^qe with 2^qa 3^pe */
    const u128 l = ((u128)1 << p->a) * bulk_cz_pow3[q->e], r = ((u128)1 << q->a) * bulk_cz_pow3[p->e];
    if (l != r) return l < r ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

struct merge_key {
    uint64_t key;
    uint32_t r;
};

static int merge_order(const void *x, const void *y)
{
    const struct merge_key *p = x, *q = y;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    return p->r < q->r ? -1 : p->r > q->r;
}

void bulk_cz_conv_free(struct cz_conv *cv)
{
    if (!cv) return;
    free(cv->nch);
    free(cv->ch);
    free(cv->merged);
    free(cv);
}

int bulk_cz_conv_new(int k, struct cz_conv **out)
{
    struct cz_conv *cv = calloc(1, sizeof *cv);
    if (!cv) return BULK_ERR_NOMEM;
    cv->k = k;
    cv->nch = calloc(CZ_CONV_POW3E, 1);
    cv->ch = calloc((size_t)CZ_CONV_POW3E * CZ_CONV_MAX_CHAINS, sizeof *cv->ch);
    if (!cv->nch || !cv->ch) {
        bulk_cz_conv_free(cv);
        return BULK_ERR_NOMEM;
    }
    for (uint32_t u = 0; u < CZ_CONV_POW3E; u++) {
        struct chain_search s;
        s.n = 0;
        chains_from(&s, u, 0, 0, 0, 1);
        qsort(s.found, (size_t)s.n, sizeof s.found[0], chain_order);
        const int n = s.n < CZ_CONV_MAX_CHAINS ? s.n : CZ_CONV_MAX_CHAINS;
        memcpy(cv->ch + (size_t)u * CZ_CONV_MAX_CHAINS, s.found, (size_t)n * sizeof s.found[0]);
        cv->nch[u] = (uint8_t)n;
    }
    /* merges among the residues of M bits (M above the walk's split depth, sieve.c) */
    cv->M = k >= 13 ? (k < CZ_CONV_MERGE_BITS ? k : CZ_CONV_MERGE_BITS) : 0;
    if (cv->M) {
        const uint32_t size = (uint32_t)1 << cv->M;
        struct merge_key *keys = malloc((size_t)size * sizeof *keys);
        cv->merged = calloc(size, 1);
        if (!keys || !cv->merged) {
            free(keys);
            bulk_cz_conv_free(cv);
            return BULK_ERR_NOMEM;
        }
        for (uint32_t r = 0; r < size; r++) {
            /* the state after M halvings: 3^j m + c, c < 3^j <= 3^22 < 2^35 */
            int j = 0;
            uint64_t c = 0;
            for (int i = 0; i < cv->M; i++) cz_sieve_child(i, &j, &c, (int)((r >> i) & 1));
            keys[r].key = (uint64_t)j << 58 | c;
            keys[r].r = r;
        }
        qsort(keys, size, sizeof *keys, merge_order);
        for (uint32_t t = 1; t < size; t++)
            if (keys[t].key == keys[t - 1].key) cv->merged[keys[t].r] = 1;
        free(keys);
    }
    *out = cv;
    return BULK_OK;
}

int bulk_cz_conv_merged(const struct cz_conv *cv, int depth, uint64_t p)
{
    return cv->M && depth == cv->M && cv->merged[p];
}

int bulk_cz_conv_pred(const struct cz_conv *cv, int D, int j, uint64_t c, uint64_t p)
{
    if (D > cv->k) return 0;
    return bulk_cz_conv_pred_m0(cv, D, j, c, p, cv->k - D);
}

int bulk_cz_conv_pred_m0(const struct cz_conv *cv, int D, int j, uint64_t c, uint64_t p, int m0_bits)
{
    return cz_conv_pred_core(cv->nch, cv->ch, bulk_cz_pow3, D, j, c, p, m0_bits);
}

const uint8_t *bulk_cz_conv_nch(const struct cz_conv *cv) { return cv->nch; }
const struct cz_chain *bulk_cz_conv_chains(const struct cz_conv *cv) { return cv->ch; }

int bulk_cz_conv_row_skip(unsigned n_mod_9) { return cz_conv_row_skip(n_mod_9); }
