/* Convergence mode of the Collatz engine (bulk_collatz_engine_set_converge, converge.c) against
 * oracles that do not use converge.c's math:
 *  (a) soundness: every residue of the standard sieve S that the converge sieve dropped is, for
 *      several n = 2^k m + r, given a brute-force certificate (a number A < n, A >= 1, whose
 *      trajectory meets n's: found by searching the inverse Collatz tree of n's trajectory
 *      values); the converge S is a subset of the standard S with the same states; the merge
 *      table equals an own twin (equal states after M halvings); bulk_cz_conv_pred's proofs
 *      at k = 24, 30, 39 (random descents of an own sieve walk) get certificates too;
 *  (b) mod-9 rows: bulk_cz_conv_row_skip is 1 exactly for n = 2, 4, 5, 8 mod 9, and then the
 *      certificate search finds a smaller predecessor of n itself (64- and 100-bit n);
 *  (c) verify twin: whole aligned level-k blocks give iterated = the converge S entries whose n
 *      is not 2, 4, 5, 8 mod 9 and checksum = blocks * G_k + sum of naive glides of exactly those
 *      n (max_glide too); ragged ranges equal standard-engine results on their ragged ends plus
 *      that twin on the whole blocks; 1 vs 2 threads and part splits give identical results;
 *  (d) sieve extension on a converge engine: a level-K block iterates exactly the level-K
 *      mandatory residues (own sieve walk) above the converge S entries, minus the mod-9 rows;
 *      checksum = G_k 2^X + (own glide sum of the depths k+1..K) + naive glides; ragged
 *      ranges exactly (walked ends, level-k blocks between, extended blocks); thread and part
 *      invariance;
 *  (e) API: k = 0 and after an extension -> BULK_ERR_ARG; setting it twice is a no-op.
 * Replay with --seed S. BULK_SANITIZED=1 shrinks the loops. */
#include "collatz/collatz_internal.h"
#include "collatz/naive.h"
#include "cz_test.h"
#include "test_util.h"

static int sanitized;


static bulk_collatz_engine *engine(bulk_ctx *c, int d, int k, int conv)
{
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, c, d, k, 0);
    if (st == BULK_OK && conv) st = bulk_collatz_engine_set_converge(e);
    if (st != BULK_OK) {
        fprintf(stderr, "engine d=%d k=%d conv=%d: %s\n", d, k, conv, bulk_status_string(st));
        exit(1);
    }
    return e;
}

static bulk_collatz_verify_result *result_new(void)
{
    return test_xmalloc(sizeof(bulk_collatz_verify_result));
}

static int results_equal(const bulk_collatz_verify_result *x, const bulk_collatz_verify_result *y)
{
    return N(x->covered) == N(y->covered) && N(x->iterated) == N(y->iterated) &&
           N(x->checksum) == N(y->checksum) && x->overflows == y->overflows &&
           x->max_glide == y->max_glide && N(x->max_glide_n) == N(y->max_glide_n);
}

/* ---- the brute-force certificate ---- */

/* Statistics of how certificates were found. */
static uint64_t cert_inverse, cert_glide, cert_nodes;

/* Depth-first search of the inverse tree of y (predecessors under x -> x/2 (even), 3x + 1 (odd):
 * 2y always, (y - 1)/3 when y = 4 mod 6), skipping the child `skip` (searched before), pruning
 * values above `bound`: 1 when a value in [1, n) is found within `depth` inverse steps. A value
 * divisible by 3 (and >= n) only has the doublings below it, all >= n: pruned. */
static int inverse_search(nv_u128 y, nv_u128 n, int depth, nv_u128 bound, nv_u128 skip)
{
    cert_nodes++;
    if (depth == 0 || y % 3 == 0) return 0;
    const nv_u128 c1 = 2 * y;
    if (c1 != skip && c1 <= bound && inverse_search(c1, n, depth - 1, bound, skip)) return 1;
    if (y % 6 == 4) {
        const nv_u128 c2 = (y - 1) / 3; /* odd, 3 c2 + 1 = y */
        if (c2 < n) return 1;           /* c2 >= 1 as y >= 4 */
        if (c2 != skip && inverse_search(c2, n, depth - 1, bound, skip)) return 1;
    }
    return 0;
}

/* A certificate that n >= 2 converges when every smaller number does: some A in [1, n) whose
 * trajectory meets n's. The first T values y_0 = n, y_1, ... of n's trajectory (all >= n until
 * the glide) are each searched to `depth` inverse steps (values up to 2^16 times the largest y
 * seen; the branch back to y_(t-1) is skipped, it was searched already). 1: found by the
 * inverse search; 2: n's own trajectory dropped below n within T steps (a glide); 0: none. */
static int certificate(nv_u128 n, int T, int depth)
{
    nv_u128 y = n, prev = 0, peak = n;
    for (int t = 0; t < T; t++) {
        if (y < n) {
            cert_glide++;
            return 2;
        }
        if (y > peak) peak = y;
        if (inverse_search(y, n, depth, peak << 16, prev)) {
            cert_inverse++;
            return 1;
        }
        prev = y;
        y = (y & 1) ? 3 * y + 1 : y / 2;
    }
    return 0;
}

/* Own sieve step (the definition of docs/collatz.md, written separately from sieve.c): the
 * class n = 2^i m + p has value 3^j m + c after i halvings; the child of bit b at depth i + 1.
 * Returns 1 when the child's class is eliminated (3^j < 2^(i+1): glide (i + 1) + j). */
static uint64_t pow3(int j)
{
    uint64_t r = 1;
    while (j--) r *= 3;
    return r;
}
static int own_child(int i, int *j, uint64_t *c, int bit)
{
    uint64_t v = *c + (bit ? pow3(*j) : 0);
    if (v & 1) {
        v = 3 * v + 1;
        (*j)++;
    }
    *c = v / 2;
    return (nv_u128)pow3(*j) < ((nv_u128)1 << (i + 1));
}
/* The residue p of K bits: -1 when mandatory at depth K (state in *j, *c), else the glide of its
 * class (eliminated at depth D, glide D + j); `from` levels already walked from (j, c). */
static int64_t own_walk(uint64_t p, int from, int K, int *j, uint64_t *c)
{
    for (int i = from; i < K; i++)
        if (own_child(i, j, c, (int)((p >> i) & 1))) return i + 1 + *j;
    return -1;
}

/* ---- (a) soundness of the dropped sieve classes ---- */

/* rows that convergence mode iterates (not n = 2, 4, 5, 8 mod 9) */
static unsigned mod9(nv_u128 n) { return (unsigned)(n % 9); }
static int row_kept(nv_u128 n) { return !(mod9(n) == 2 || mod9(n) == 4 || mod9(n) == 5 || mod9(n) == 8); }

struct rix {
    uint64_t r, i;
};
static int rix_order(const void *x, const void *y)
{
    const struct rix *p = x, *q = y;
    return p->r < q->r ? -1 : p->r > q->r;
}

struct skey {
    uint64_t key, p;
};
static int skey_order(const void *x, const void *y)
{
    const struct skey *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

/* The merge table against an own twin: at depth M = min(k, 20) (k >= 13) a residue p is merged
 * exactly when a smaller residue of M bits has the same state (j, c) after M halvings (own
 * walk, every residue, eliminated or not); at every other depth nothing is merged. */
static void check_merges(const bulk_collatz_engine *e, uint64_t *rng)
{
    if (e->k < 13) { /* no merge table below k = 13 (sieve.c's walk splits at depth 12) */
        for (int D = 1; D <= e->k; D++)
            for (uint64_t p = 0; p < ((uint64_t)1 << D); p++)
                CHECK(!bulk_cz_conv_merged(e->cv, D, p), "k=%d: merged at depth %d", e->k, D);
        return;
    }
    const int M = e->k < 20 ? e->k : 20;
    const uint64_t size = (uint64_t)1 << M;
    struct skey *keys = test_xmalloc(size * sizeof *keys);
    for (uint64_t p = 0; p < size; p++) {
        int j = 0;
        uint64_t c = 0;
        for (int i = 0; i < M; i++) (void)own_child(i, &j, &c, (int)((p >> i) & 1));
        keys[p] = (struct skey){ (uint64_t)j << 58 | c, p };
    }
    qsort(keys, size, sizeof *keys, skey_order);
    uint64_t merged = 0, bad = 0;
    for (uint64_t t = 0; t < size; t++) {
        const int want = t > 0 && keys[t].key == keys[t - 1].key;
        merged += want;
        if (bulk_cz_conv_merged(e->cv, M, keys[t].p) != want && bad++ < 5)
            CHECK(0, "k=%d: merged(%d, %llu) = %d, own twin %d", e->k, M,
                  (unsigned long long)keys[t].p, !want, want);
    }
    for (int i = 0; i < 50; i++) {
        const int D = 1 + (int)(test_rand(rng) % (uint64_t)e->k);
        if (D == M) continue;
        const uint64_t p = test_rand(rng) & (((uint64_t)1 << D) - 1);
        CHECK(!bulk_cz_conv_merged(e->cv, D, p), "k=%d: merged at depth %d != %d", e->k, D, M);
    }
    printf("    merge table (M=%d): %llu of %llu residues merged, %llu mismatches\n", M,
           (unsigned long long)merged, (unsigned long long)size, (unsigned long long)bad);
    free(keys);
}

static void test_soundness(bulk_ctx *c1, uint64_t *rng)
{
    const int ks[] = { 11, 14, 16, 18, 20, 22 };
    const int nk = sanitized ? 5 : 6;
    for (int ki = 0; ki < nk; ki++) {
        const int k = ks[ki];
        bulk_collatz_engine *es = engine(c1, 10, k, 0), *ec = engine(c1, 10, k, 1);
        CHECK(bulk_collatz_engine_converge(ec) == 1 && bulk_collatz_engine_converge(es) == 0,
              "converge flag");
        CHECK(ec->s_k < es->s_k, "k=%d: converge s_k %llu not below standard %llu", k,
              (unsigned long long)ec->s_k, (unsigned long long)es->s_k);
        /* standard S sorted by residue */
        struct rix *sr = test_xmalloc(es->s_k * sizeof *sr);
        for (uint64_t x = 0; x < es->s_k; x++) sr[x] = (struct rix){ es->Sr[x], x };
        qsort(sr, es->s_k, sizeof *sr, rix_order);
        /* converge S: a subset with the same states, no duplicates */
        uint8_t *kept = calloc(es->s_k, 1);
        for (uint64_t x = 0; x < ec->s_k; x++) {
            uint64_t lo = 0, hi = es->s_k;
            while (lo < hi) {
                uint64_t mid = (lo + hi) / 2;
                if (sr[mid].r < ec->Sr[x]) lo = mid + 1;
                else hi = mid;
            }
            if (lo == es->s_k || sr[lo].r != ec->Sr[x]) {
                CHECK(0, "k=%d: converge residue %llu is not in the standard sieve", k,
                      (unsigned long long)ec->Sr[x]);
                continue;
            }
            const uint64_t i = sr[lo].i;
            CHECK(es->Sc[i] == ec->Sc[x] && es->Sj[i] == ec->Sj[x],
                  "k=%d residue %llu: state (%u, %llu) vs standard (%u, %llu)", k,
                  (unsigned long long)ec->Sr[x], ec->Sj[x], (unsigned long long)ec->Sc[x],
                  es->Sj[i], (unsigned long long)es->Sc[i]);
            CHECK(!kept[lo], "k=%d residue %llu twice", k, (unsigned long long)ec->Sr[x]);
            kept[lo] = 1;
        }
        /* the dropped residues: certificates for m = 1, 2, 3 and a random m < 2^20; at large k
         * a random sample of them (every one at the smaller k) */
        uint64_t ndrop = 0;
        for (uint64_t x = 0; x < es->s_k; x++) ndrop += !kept[x];
        const uint64_t want = sanitized ? 1000 : (k <= 18 ? ndrop : 3000);
        const uint64_t b0 = cert_inverse, g0 = cert_glide;
        uint64_t tested = 0, fails = 0;
        for (uint64_t x = 0; x < es->s_k; x++) {
            if (kept[x]) continue;
            if (want < ndrop && test_rand(rng) % ndrop >= want) continue;
            tested++;
            const uint64_t r = sr[x].r;
            const uint64_t ms[4] = { 1, 2, 3, 1 + test_rand(rng) % ((uint64_t)1 << 20) };
            for (int t = 0; t < 4; t++) {
                const nv_u128 n = ((nv_u128)ms[t] << k) + r;
                if (!certificate(n, 2 * k + 8, 40)) {
                    fails++;
                    CHECK(0, "k=%d: dropped residue r=%llu has no certificate for m=%llu (n=%s)", k,
                          (unsigned long long)r, (unsigned long long)ms[t], S(n));
                }
            }
        }
        printf("(a) k=%d: standard s_k %llu, converge s_k %llu, dropped %llu; tested %llu "
               "residues x 4 m: %llu by inverse search, %llu by the glide, %llu failed\n",
               k, (unsigned long long)es->s_k, (unsigned long long)ec->s_k,
               (unsigned long long)ndrop, (unsigned long long)tested,
               (unsigned long long)(cert_inverse - b0), (unsigned long long)(cert_glide - g0),
               (unsigned long long)fails);
        if (ki <= 1 || ki == nk - 1 || k == 20) check_merges(ec, rng);
        /* the oracle can say no: kept residues (rows not 2, 4, 5, 8 mod 9) without one */
        uint64_t kn = 0, kno = 0;
        for (uint64_t x = 0; x < ec->s_k && kn < (sanitized ? 100u : 1000u); x++) {
            const nv_u128 n = ((nv_u128)(1 + test_rand(rng) % ((uint64_t)1 << 20)) << k) + ec->Sr[x];
            if (!row_kept(n)) continue;
            kn++;
            kno += certificate(n, 2 * k + 8, 40) == 0;
        }
        printf("    kept residues (random m, kept rows): %llu of %llu without a certificate\n",
               (unsigned long long)kno, (unsigned long long)kn);
        CHECK(kno > 0, "k=%d: the certificate search accepts every kept residue too", k);
        /* the certificate search has to find most proofs by predecessors, not by a glide
         * (else it would not test the engine's predecessor math) */
        CHECK(cert_inverse - b0 > 3 * (cert_glide - g0), "k=%d: too many certificates by glide", k);
        free(kept);
        free(sr);
        bulk_collatz_engine_free(es);
        bulk_collatz_engine_free(ec);
    }
}

/* The predecessor test at sieve sizes too large to store here (k up to 39, the largest): random
 * descents through the own sieve walk; each class (D, j, c, p) that bulk_cz_conv_pred proves gets
 * certificates for n = 2^D m + p at m = m0 = 2^(k - D) (the smallest m of a level-k block with
 * nH >= 1), m0 + 1 and a random larger m. */
static void test_pred_large(uint64_t *rng)
{
    const int ks[] = { 24, 30, 39 };
    for (int ki = 0; ki < 3; ki++) {
        const int k = ks[ki];
        struct cz_conv *cv;
        CHECK(bulk_cz_conv_new(k, &cv) == BULK_OK, "conv tables k=%d", k);
        const int want = sanitized ? 60 : 300;
        int proved = 0, tries = 0;
        while (proved < want && tries++ < 100000) {
            int j = 0, D = 0;
            uint64_t c = 0, p = 0;
            while (D < k) {
                const int bit = (int)(test_rand(rng) & 1);
                int j1 = j;
                uint64_t c1 = c;
                if (own_child(D, &j1, &c1, bit)) {
                    j1 = j;
                    c1 = c;
                    if (own_child(D, &j1, &c1, !bit)) break; /* both children eliminated */
                    p |= (uint64_t)!bit << D;
                } else {
                    p |= (uint64_t)bit << D;
                }
                j = j1;
                c = c1;
                D++;
                if (bulk_cz_conv_pred(cv, D, j, c, p)) {
                    proved++;
                    const nv_u128 m0 = (nv_u128)1 << (k - D);
                    const nv_u128 ms[3] = { m0, m0 + 1, m0 + 1 + test_rand(rng) % ((uint64_t)1 << 20) };
                    for (int t = 0; t < 3; t++) {
                        const nv_u128 n = (ms[t] << D) + p;
                        CHECK(certificate(n, D + j + 8, 40) != 0,
                              "k=%d: pred class D=%d j=%d c=%llu p=%llu: no certificate for n=%s", k,
                              D, j, (unsigned long long)c, (unsigned long long)p, S(n));
                    }
                    break;
                }
            }
        }
        printf("(a') k=%d: %d predecessor-proved classes checked (%d descents)\n", k, proved, tries);
        CHECK(proved == want, "k=%d: only %d predecessor proofs in the descents", k, proved);
        bulk_cz_conv_free(cv);
    }
}

/* ---- (b) the mod-9 rows ---- */

static void test_rows(uint64_t *rng)
{
    for (unsigned u = 0; u < 9; u++)
        CHECK(bulk_cz_conv_row_skip(u) == (u == 2 || u == 4 || u == 5 || u == 8),
              "row_skip(%u) = %d", u, bulk_cz_conv_row_skip(u));
    const int count = sanitized ? 200 : 2000;
    for (int i = 0; i < count; i++) {
        nv_u128 n = test_rand(rng);
        if (i & 1) n |= (nv_u128)(test_rand(rng) & 0xfffffffffull) << 64; /* 100 bits */
        if (n < 2) n = 2;
        const unsigned u = (unsigned)(n % 9);
        const int skip = bulk_cz_conv_row_skip(u);
        CHECK(skip == (u == 2 || u == 4 || u == 5 || u == 8), "row_skip(%s mod 9 = %u) = %d", S(n), u,
              skip);
        /* the proof is at n itself: at most 5 inverse steps from y_0 = n */
        if (skip) CHECK(certificate(n, 1, 6) == 1, "n=%s (mod 9 = %u) skipped, no smaller predecessor", S(n), u);
    }
}

/* ---- (c) the verify twin ---- */


/* What verify must report for the level-k blocks nH0 .. nH0 + nb - 1 of a converge engine. */
static void twin_blocks(const bulk_collatz_engine *e, nv_u128 nH0, uint64_t nb, bulk_collatz_verify_result *r)
{
    bulk_collatz_verify_result_init(r);
    nv_u128 iter = 0, sum = (nv_u128)nb * e->G_k;
    for (uint64_t b = 0; b < nb; b++)
        for (uint64_t x = 0; x < e->s_k; x++) {
            const nv_u128 n = ((nH0 + b) << e->k) + e->Sr[x];
            if (!row_kept(n)) continue;
            uint64_t g;
            if (!naive_glide(n, &g)) {
                CHECK(0, "naive glide of %s overflows", S(n));
                continue;
            }
            iter++;
            sum += g;
            if (N(r->max_glide_n) == 0 || g > r->max_glide || (g == r->max_glide && n < N(r->max_glide_n))) {
                r->max_glide = g;
                r->max_glide_n = U(n);
            }
        }
    r->covered = U((nv_u128)nb << e->k);
    r->iterated = U(iter);
    r->checksum = U(sum);
}

static void verify_threads(bulk_ctx *c, const bulk_collatz_engine *e, nv_u128 a, nv_u128 b,
                           bulk_collatz_verify_result *r)
{
    bulk_collatz_run_opts o = { 0 };
    CHECK(bulk_collatz_verify(c, e, U(a), U(b), &o, r) == BULK_OK, "verify [%s, %s]", S(a), S(b));
}

static void chunk(const bulk_collatz_engine *e, nv_u128 a, nv_u128 b, bulk_collatz_verify_result *r)
{
    CHECK(bulk_collatz_verify_chunk(e, U(a), U(b), r) == BULK_OK, "chunk [%s, %s]", S(a), S(b));
}

static void cmp(const char *what, nv_u128 a, nv_u128 b, const bulk_collatz_verify_result *got,
                const bulk_collatz_verify_result *want)
{
    CHECK(N(got->covered) == N(want->covered), "%s [%s, %s]: covered %s, want %s", what, S(a), S(b),
          S(N(got->covered)), S(N(want->covered)));
    CHECK(N(got->iterated) == N(want->iterated), "%s [%s, %s]: iterated %s, want %s", what, S(a), S(b),
          S(N(got->iterated)), S(N(want->iterated)));
    /* convergence mode reports no glides (the GPU stops at the operation that proves a value
     * below n): checksum and the largest glide are 0 on every backend; the twins' glide sums are
     * kept as a check that their numbers are the ones iterated (naive_glide runs on each) */
    CHECK(N(got->checksum) == 0 && got->max_glide == 0 && N(got->max_glide_n) == 0,
          "%s [%s, %s]: convergence mode reported glides (checksum %s, max %llu)", what, S(a), S(b),
          S(N(got->checksum)), (unsigned long long)got->max_glide);
}

/* Thread counts and a split into pieces (like --part) give the result of one chunk. */
static void invariance(bulk_ctx *c1, bulk_ctx *c2, const bulk_collatz_engine *e, nv_u128 a, nv_u128 b,
                       const bulk_collatz_verify_result *whole, uint64_t *rng)
{
    bulk_collatz_verify_result *r = result_new(), *m = result_new(), *p = result_new();
    verify_threads(c1, e, a, b, r);
    CHECK(results_equal(r, whole), "1 thread differs from the chunk on [%s, %s]", S(a), S(b));
    verify_threads(c2, e, a, b, r);
    CHECK(results_equal(r, whole), "2 threads differ from the chunk on [%s, %s]", S(a), S(b));
    const int parts = 2 + (int)(test_rand(rng) % 4);
    bulk_collatz_verify_result_init(m);
    nv_u128 cur = a;
    for (int i = 0; i < parts; i++) {
        /* piece ends on multiples of 2^(k + kx), as the driver's chunks: a cut inside a block
         * makes the block's pieces walked without skipping (iterated, checksum differ then) */
        const int K = e->k + e->kx;
        nv_u128 end = a + (b - a) * (nv_u128)(i + 1) / (nv_u128)parts;
        end = i == parts - 1 ? b : ((end >> K) << K) - 1;
        if (end < cur || end > b) continue;
        chunk(e, cur, end, p);
        bulk_collatz_verify_result_merge(m, p);
        cur = end + 1;
    }
    CHECK(results_equal(m, whole), "%d parts differ from the whole on [%s, %s]", parts, S(a), S(b));
    /* a cut inside a block: covered stays exact; the cut block's pieces are walked at lower
     * levels, whose mandatory numbers include the level-k ones, so never fewer are iterated */
    if (b - a >= 2) {
        const nv_u128 cut = a + 1 + test_rand(rng) % (uint64_t)(b - a - 1);
        chunk(e, a, cut, m);
        chunk(e, cut + 1, b, p);
        bulk_collatz_verify_result_merge(m, p);
        CHECK(N(m->covered) == N(whole->covered) && N(m->iterated) >= N(whole->iterated),
              "cut at %s of [%s, %s]: covered %s (want %s), iterated %s (whole %s)", S(cut), S(a),
              S(b), S(N(m->covered)), S(N(whole->covered)), S(N(m->iterated)), S(N(whole->iterated)));
    }
    free(r);
    free(m);
    free(p);
}

static void test_verify(bulk_ctx *c1, bulk_ctx *c2, uint64_t *rng)
{
    const int ks[] = { 14, 16 };
    for (int ki = 0; ki < 2; ki++) {
        const int k = ks[ki];
        bulk_collatz_engine *es = engine(c1, 12, k, 0), *ec = engine(c1, 12, k, 1);
        bulk_collatz_verify_result *got = result_new(), *want = result_new(), *std = result_new(),
                                   *t = result_new();
        const int rounds = sanitized ? 4 : 12;
        for (int i = 0; i < rounds; i++) {
            /* whole blocks: n of 30..50 bits (the reference path below 2^46 = 2^(d + 34), the
             * fast kernel above), and just below / above 2^64 and near 2^80 (two-word n and
             * mod 9) */
            const int big[] = { 64, 65, 66, 80 };
            const int bits = i < 4 ? big[i] : 30 + (int)(test_rand(rng) % 21);
            nv_u128 nH0 = ((nv_u128)1 << (bits - k)) + test_rand(rng) % ((uint64_t)1 << (bits - k < 60 ? bits - k : 60));
            if (i == 0) nH0 = ((nv_u128)1 << (64 - k)) - 1 - test_rand(rng) % 4; /* ends at or below 2^64 */
            const uint64_t nb = 1 + test_rand(rng) % (sanitized ? 2 : 8);
            const nv_u128 a = nH0 << k, b = ((nH0 + nb) << k) - 1;
            chunk(ec, a, b, got);
            twin_blocks(ec, nH0, nb, want);
            cmp("whole blocks", a, b, got, want);
            chunk(es, a, b, std);
            CHECK(N(got->iterated) < N(std->iterated), "converge iterated %s not below standard %s",
                  S(N(got->iterated)), S(N(std->iterated)));
            if (i < 3) invariance(c1, c2, ec, a, b, got, rng);
            /* ragged ends: head [a2, a) and tail (b, b2] walk levels below k exactly as the
             * standard engine does (no skipping there), the middle is the twin */
            const nv_u128 a2 = a - 1 - test_rand(rng) % ((uint64_t)1 << k);
            const nv_u128 b2 = b + 1 + test_rand(rng) % ((uint64_t)1 << k);
            chunk(ec, a2, b2, got);
            bulk_collatz_verify_result_init(std);
            chunk(es, a2, a - 1, t);
            bulk_collatz_verify_result_merge(std, t);
            bulk_collatz_verify_result_merge(std, want);
            chunk(es, b + 1, b2, t);
            bulk_collatz_verify_result_merge(std, t);
            cmp("ragged", a2, b2, got, std);
            CHECK(N(got->covered) == b2 - a2 + 1, "ragged covered");
            if (i < 3) invariance(c1, c2, ec, a2, b2, got, rng);
        }
        /* from 1: below 2^k everything is walked (no skipping), above it whole blocks */
        {
            const uint64_t nb = sanitized ? 2 : 6;
            const nv_u128 b = ((nv_u128)(1 + nb) << k) + test_rand(rng) % ((uint64_t)1 << k);
            chunk(ec, 1, b, got);
            bulk_collatz_verify_result_init(std);
            chunk(es, 1, ((nv_u128)1 << k) - 1, t);
            bulk_collatz_verify_result_merge(std, t);
            twin_blocks(ec, 1, nb, t);
            bulk_collatz_verify_result_merge(std, t);
            chunk(es, (nv_u128)(1 + nb) << k, b, t);
            bulk_collatz_verify_result_merge(std, t);
            cmp("from 1", 1, b, got, std);
            invariance(c1, c2, ec, 1, b, got, rng);
        }
        free(got);
        free(want);
        free(std);
        free(t);
        bulk_collatz_engine_free(es);
        bulk_collatz_engine_free(ec);
    }
}

/* ---- (d) sieve extension ---- */

/* What verify must report for the level-K block nH of a converge engine with an extension:
 * the numbers 2^K nH + mr[x] (the own walk's level-K mandatory residues above the converge S,
 * less the classes a level-K predecessor proves) not 2, 4, 5, 8 mod 9 iterated, checksum G_k 2^X + Gx + their naive glides. */
static void ext_twin(const bulk_collatz_engine *ec, const uint64_t *mr, uint64_t nm, uint64_t Gx,
                     nv_u128 nH, bulk_collatz_verify_result *want)
{
    const int K = ec->k + ec->kx;
    const nv_u128 a = nH << K;
    bulk_collatz_verify_result_init(want);
    nv_u128 iter = 0, sum = ((nv_u128)ec->G_k << ec->kx) + Gx;
    for (uint64_t x = 0; x < nm; x++) {
        const nv_u128 n = a | mr[x];
        if (!row_kept(n)) continue;
        uint64_t g = 0;
        CHECK(naive_glide(n, &g), "naive glide overflow");
        iter++;
        sum += g;
        if (g > want->max_glide || (g == want->max_glide && n < N(want->max_glide_n)) || N(want->max_glide_n) == 0) {
            want->max_glide = g;
            want->max_glide_n = U(n);
        }
    }
    want->covered = U((nv_u128)1 << K);
    want->iterated = U(iter);
    want->checksum = U(sum);
}

static void test_extension(bulk_ctx *c1, bulk_ctx *c2, uint64_t *rng)
{
    const int k = 14, X = 3, K = k + X;
    bulk_collatz_engine *ec = engine(c1, 12, k, 1), *es = engine(c1, 12, k, 0);
    CHECK(bulk_cz_build_extension(ec, X) == BULK_OK, "extension");
    CHECK(bulk_cz_build_extension(es, X) == BULK_OK, "extension");
    /* own level-K walk above each converge S entry: the mandatory ones (K bits) and the glide
     * sum of those eliminated at depths k+1..K */
    uint64_t nm = 0, Gx = 0, kproved = 0;
    uint64_t *mr = test_xmalloc(ec->s_k * ((size_t)1 << X) * sizeof *mr);
    for (uint64_t x = 0; x < ec->s_k; x++)
        for (uint64_t q = 0; q < ((uint64_t)1 << X); q++) {
            const uint64_t p = ec->Sr[x] | q << k;
            int j = 0;
            uint64_t c = 0;
            CHECK(own_walk(p, 0, k, &j, &c) < 0 && j == ec->Sj[x] && c == ec->Sc[x],
                  "stored entry %llu: own walk disagrees", (unsigned long long)ec->Sr[x]);
            const int64_t g = own_walk(p, k, K, &j, &c);
            if (g >= 0) {
                Gx += (uint64_t)g;
            } else if (bulk_cz_conv_pred_m0(ec->cv, K, j, c, p, 0)) {
                /* verify skips a level-K class a predecessor proves for every nH >= 1: check
                 * the proof by the certificate search at nH = 1 and a random nH */
                kproved++;
                const nv_u128 ms[2] = { 1, 1 + test_rand(rng) % ((uint64_t)1 << 30) };
                for (int t = 0; t < 2; t++) {
                    const nv_u128 n = (ms[t] << K) + p;
                    CHECK(certificate(n, K + j + 8, 40) == 1, "level-K class p=%llu j=%d: no certificate for n=%s",
                          (unsigned long long)p, j, S(n));
                }
            } else {
                mr[nm++] = p;
            }
        }
    printf("(d) k=%d K=%d: %llu level-K classes proved by a predecessor (certificates checked), %llu iterated\n", k,
           K, (unsigned long long)kproved, (unsigned long long)nm);
    CHECK(kproved > 0, "no level-K predecessor proofs at K = %d", K);
    CHECK(Gx == ec->G_x, "G_x %llu, own walk %llu", (unsigned long long)ec->G_x, (unsigned long long)Gx);
    bulk_collatz_verify_result *got = result_new(), *want = result_new(), *std = result_new();
    const int rounds = sanitized ? 2 : 6;
    for (int i = 0; i < rounds; i++) {
        const int bits = 30 + (int)(test_rand(rng) % 21);
        const nv_u128 nH = ((nv_u128)1 << (bits - K)) + test_rand(rng) % ((uint64_t)1 << (bits - K));
        const nv_u128 a = nH << K, b = ((nH + 1) << K) - 1;
        ext_twin(ec, mr, nm, Gx, nH, want);
        chunk(ec, a, b, got);
        cmp("extended block", a, b, got, want);
        chunk(es, a, b, std);
        CHECK(N(got->iterated) < N(std->iterated), "extended: converge iterated not below standard");
        /* ragged range with extended blocks inside */
        const nv_u128 a2 = a - 1 - test_rand(rng) % ((uint64_t)1 << K);
        const nv_u128 b2 = b + ((nv_u128)1 << K) + test_rand(rng) % ((uint64_t)1 << K);
        chunk(ec, a2, b2, got);
        CHECK(N(got->covered) == b2 - a2 + 1, "extended ragged covered");
        {
            /* exact: [a2, h) only walks levels below k (standard results), [h, a) is level-k
             * blocks through the stored sieve, [a, b + 2^K] two extended blocks, then level-k
             * blocks up to t and a walked rest [t, b2] */
            const nv_u128 h = ((a2 + ((nv_u128)1 << k) - 1) >> k) << k, t = ((b2 + 1) >> k) << k;
            const nv_u128 a3 = b + 1 + ((nv_u128)1 << K); /* after the second extended block */
            bulk_collatz_verify_result *part = result_new();
            bulk_collatz_verify_result_init(want);
            if (h > a2) {
                chunk(es, a2, h - 1, part);
                bulk_collatz_verify_result_merge(want, part);
            }
            if (a > h) {
                twin_blocks(ec, h >> k, (uint64_t)((a - h) >> k), part);
                bulk_collatz_verify_result_merge(want, part);
            }
            ext_twin(ec, mr, nm, Gx, nH, part);
            bulk_collatz_verify_result_merge(want, part);
            ext_twin(ec, mr, nm, Gx, nH + 1, part);
            bulk_collatz_verify_result_merge(want, part);
            if (t > a3) {
                twin_blocks(ec, a3 >> k, (uint64_t)((t - a3) >> k), part);
                bulk_collatz_verify_result_merge(want, part);
            }
            if (b2 >= t) {
                chunk(es, t, b2, part);
                bulk_collatz_verify_result_merge(want, part);
            }
            cmp("extended ragged", a2, b2, got, want);
            free(part);
        }
        chunk(es, a2, b2, std);
        CHECK(N(got->iterated) < N(std->iterated), "extended ragged: converge iterated not below standard");
        if (i < 2) invariance(c1, c2, ec, a2, b2, got, rng);
    }
    free(mr);
    free(got);
    free(want);
    free(std);
    bulk_collatz_engine_free(ec);
    bulk_collatz_engine_free(es);
}

/* ---- (e) API ---- */

static void test_api(bulk_ctx *c1)
{
    bulk_collatz_engine *e0 = engine(c1, 10, 0, 0);
    CHECK(bulk_collatz_engine_set_converge(e0) == BULK_ERR_ARG, "k = 0 accepted");
    CHECK(bulk_collatz_engine_converge(e0) == 0, "k = 0 engine in convergence mode");
    CHECK(strlen(bulk_ctx_last_error(c1)) > 0, "no message for k = 0");
    bulk_collatz_engine_free(e0);
    bulk_collatz_engine *ex = engine(c1, 10, 12, 0);
    CHECK(bulk_cz_build_extension(ex, 2) == BULK_OK, "extension");
    CHECK(bulk_collatz_engine_set_converge(ex) == BULK_ERR_ARG, "set_converge after an extension accepted");
    CHECK(bulk_collatz_engine_converge(ex) == 0, "extended engine switched");
    bulk_collatz_engine_free(ex);
    bulk_collatz_engine *e = engine(c1, 10, 14, 1);
    const uint64_t s = e->s_k, G = e->G_k;
    uint64_t *r = test_xmalloc(s * sizeof *r);
    memcpy(r, e->Sr, s * sizeof *r);
    CHECK(bulk_collatz_engine_set_converge(e) == BULK_OK, "second set_converge");
    CHECK(e->s_k == s && e->G_k == G && memcmp(r, e->Sr, s * sizeof *r) == 0, "second set_converge changed the sieve");
    CHECK(bulk_collatz_engine_sieve_size(e) == s, "sieve size");
    CHECK(bulk_collatz_engine_converge(NULL) == 0, "NULL engine");
    free(r);
    bulk_collatz_engine_free(e);
}

int main(int argc, char **argv)
{
    uint64_t rng = test_seed(argc, argv);
    const char *san = getenv("BULK_SANITIZED");
    sanitized = san && *san && strcmp(san, "0") != 0;
    bulk_ctx *c1 = ctx_threads(1), *c2 = ctx_threads(2);
    test_api(c1);
    test_rows(&rng);
    test_soundness(c1, &rng);
    test_pred_large(&rng);
    test_verify(c1, c2, &rng);
    test_extension(c1, c2, &rng);
    printf("certificate search: %llu inverse, %llu glide, %llu nodes\n", (unsigned long long)cert_inverse,
           (unsigned long long)cert_glide, (unsigned long long)cert_nodes);
    bulk_ctx_close(c1);
    bulk_ctx_close(c2);
    return test_finish();
}
