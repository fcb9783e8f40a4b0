/* Shared factors (src/gcd) against GMP: gcd_recip and gcd_mod (the NTT-based division) against
 * mpz_tdiv; bulk_gcd_pairs against mpz_gcd on every pair, and bulk_gcd_batch against
 * gcd(x_i, prod_{j != i} x_j) computed with mpz, on generated sets of 1024- and 2048-bit
 * semiprimes with planted shared primes (one prime in three moduli) and duplicates; batch ==
 * lcm of the pairwise gcds on semiprimes; every memory budget (spilled levels, grouped method
 * below the floor; every spillable product level and the remainder levels spilled) == in
 * memory; the batched level path (tree_batched.c, the GPU's on a CUDA context) forced on the
 * CPU backend with small spill chunks (many blocks per level) == the oracle;
 * spill files: round trip (whole and by node ranges over several chunks), damage detected,
 * I/O failures reported (also on a remainder level); checkpoints: interrupted runs resume to
 * the same answer; 1 and 2 threads. */
#include <dirent.h>
#include <errno.h>
#include <gmp.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bulk/gcd.h"
#include "gcd/gcd_internal.h"
#include "test_util.h"

static uint64_t rng;
static int sanitized;
static int dir_entries(const char *path);

static void to_mpz(mpz_t z, const bulk_limb_t *a, size_t n) { mpz_import(z, n, -1, 8, 0, 0, a); }
static void from_mpz(bulk_limb_t *a, size_t n, const mpz_t z)
{
    memset(a, 0, n * 8);
    CHECK(mpz_sizeinbase(z, 2) <= 64 * n, "value too wide");
    mpz_export(a, NULL, -1, 8, 0, 0, z);
}

static void rand_num(bulk_limb_t *a, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) a[i] = kind < 0 ? test_rand(&rng) : test_structured_limb(&rng, kind);
    if (a[n - 1] == 0) a[n - 1] = 1;
}

static void test_division(void)
{
    size_t sizes[] = { 1, 2, 3, 5, 64, 65, 66, 100, 130, 257, 1000, 1999, 2000, 2001, 2500, 4100, 9000 };
    mpz_t A, D, E;
    mpz_init(A); mpz_init(D); mpz_init(E);
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t dn = sizes[si];
        if (sanitized && dn > 4100) break;
        for (int kind = -1; kind < 8; kind += (dn > 300 ? 4 : 1)) {
            bulk_limb_t *d = malloc(dn * 8), *v = malloc((dn + 2) * 8), *e = malloc((dn + 2) * 8);
            rand_num(d, dn, kind);
            if (kind == 0) { memset(d, 0, dn * 8); d[dn - 1] = 1; } /* B^(dn-1): largest inverse */
            CHECK(gcd_recip(v, d, dn) == BULK_OK, "recip status");
            to_mpz(D, d, dn);
            mpz_set_ui(A, 1);
            mpz_mul_2exp(A, A, 128 * dn);
            mpz_tdiv_q(E, A, D);
            from_mpz(e, dn + 2, E);
            CHECK(memcmp(v, e, (dn + 2) * 8) == 0, "recip differs at %zu limbs kind %d", dn, kind);
            /* a mod d for a of an limbs: shorter, equal, double, much longer than d */
            size_t ans[] = { dn, dn + 1, 2 * dn - 1, 2 * dn, 2 * dn + 1, 3 * dn + 7, dn + 3 };
            for (size_t ai = 0; ai < 7; ai++) {
                size_t an = ans[ai];
                bulk_limb_t *a = malloc(an * 8), *r = malloc(dn * 8), *er = malloc(dn * 8);
                rand_num(a, an, kind < 0 ? -1 : (kind + (int)ai) % 8);
                CHECK(gcd_mod(r, a, an, d, dn, 1 + (int)(ai % 2)) == BULK_OK, "mod status");
                to_mpz(A, a, an);
                mpz_tdiv_r(E, A, D);
                from_mpz(er, dn, E);
                CHECK(memcmp(r, er, dn * 8) == 0, "mod differs at %zu / %zu limbs kind %d", an, dn, kind);
                free(a); free(r); free(er);
            }
            free(d); free(v); free(e);
        }
    }
    CHECK(gcd_recip_max_fix() <= 8, "the Newton reciprocal needed %llu corrections", gcd_recip_max_fix());
    CHECK(gcd_mod_max_fix() <= 12, "a Barrett quotient needed %llu corrections", gcd_mod_max_fix());
    CHECK(gcd_mod_exact_count() == 0, "%llu reductions fell back to exact division", gcd_mod_exact_count());
    printf("division: largest reciprocal correction %llu, largest quotient correction %llu\n",
           gcd_recip_max_fix(), gcd_mod_max_fix());
    mpz_clear(A); mpz_clear(D); mpz_clear(E);
}

/* A set of n semiprimes of `bits` bits: fresh primes, except planted shares (x_{3k+1} reuses a
 * prime of x_{3k} for k % 4 == 0, x_{3k+2} reuses it too for k % 8 == 0) and duplicates
 * (x_{5k+4} = x_{5k} for k % 7 == 3). */
static bulk_limb_t *make_set(size_t n, unsigned bits, size_t limbs)
{
    bulk_limb_t *x = calloc(n * limbs, 8);
    mpz_t *p = malloc(2 * n * sizeof *p), N, s;
    gmp_randstate_t st;
    gmp_randinit_default(st);
    gmp_randseed_ui(st, (unsigned long)test_rand(&rng));
    mpz_init(N); mpz_init(s);
    for (size_t i = 0; i < 2 * n; i++) {
        mpz_init(p[i]);
        mpz_urandomb(s, st, bits / 2);
        mpz_setbit(s, bits / 2 - 1);
        mpz_setbit(s, bits / 2 - 2);
        mpz_nextprime(p[i], s);
    }
    for (size_t i = 0; i < n; i++) {
        size_t k = i / 3;
        if (i % 3 == 1 && k % 4 == 0) mpz_set(p[2 * i], p[2 * (i - 1)]);
        if (i % 3 == 2 && k % 8 == 0) mpz_set(p[2 * i + 1], p[2 * (i - 2)]);
        mpz_mul(N, p[2 * i], p[2 * i + 1]);
        from_mpz(x + i * limbs, limbs, N);
    }
    for (size_t k = 0; 5 * k + 4 < n; k++)
        if (k % 7 == 3) memcpy(x + (5 * k + 4) * limbs, x + 5 * k * limbs, limbs * 8);
    for (size_t i = 0; i < 2 * n; i++) mpz_clear(p[i]);
    free(p);
    mpz_clear(N); mpz_clear(s);
    gmp_randclear(st);
    return x;
}

typedef struct pairs_seen {
    size_t n, limbs, count;
    const bulk_limb_t *x;
    bulk_limb_t *lcm; /* per input, 2 * limbs: lcm of its pairwise gcds */
    size_t last_i, last_j;
} pairs_seen;

static int on_pair(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    pairs_seen *s = arg;
    CHECK(s->count == 0 || i > s->last_i || (i == s->last_i && j > s->last_j), "pairs out of order");
    s->last_i = i;
    s->last_j = j;
    s->count++;
    mpz_t A, B, G, H;
    mpz_init(A); mpz_init(B); mpz_init(G); mpz_init(H);
    to_mpz(A, s->x + i * s->limbs, s->limbs);
    to_mpz(B, s->x + j * s->limbs, s->limbs);
    mpz_gcd(G, A, B);
    to_mpz(H, g, gn);
    CHECK(i < j && j < s->n && mpz_cmp(G, H) == 0 && mpz_cmp_ui(G, 1) != 0, "pair %zu %zu wrong gcd", i, j);
    size_t ends[2] = { i, j };
    for (int e = 0; e < 2; e++) {
        bulk_limb_t *l = s->lcm + ends[e] * 2 * s->limbs;
        to_mpz(A, l, 2 * s->limbs);
        mpz_lcm(A, A, G);
        from_mpz(l, 2 * s->limbs, A);
    }
    mpz_clear(A); mpz_clear(B); mpz_clear(G); mpz_clear(H);
    return 0;
}

typedef struct prog_seen {
    int calls;
    double last, total;
    const char *op;  /* the op every call must name */
    int cancel_at;   /* > 0: ask to stop at this call */
} prog_seen;

/* The context's progress: a first call with done 0, then nondecreasing work up to the total
 * (the last call of a finished run is done == total). */
static int on_prog(const bulk_progress *pr, void *arg)
{
    prog_seen *p = arg;
    CHECK(!strcmp(pr->op, p->op), "progress op %s, expected %s", pr->op, p->op);
    CHECK(p->calls > 0 || pr->done == 0, "first progress call at %.0f, not 0", pr->done);
    CHECK(pr->done >= p->last && pr->done <= pr->total, "progress %.0f after %.0f (total %.0f)",
          pr->done, p->last, pr->total);
    p->calls++;
    p->last = pr->done;
    p->total = pr->total;
    return p->cancel_at > 0 && p->calls >= p->cancel_at;
}

static void test_set(size_t n, unsigned bits, int full_pairs)
{
    size_t limbs = bits / 64;
    bulk_limb_t *x = make_set(n, bits, limbs);
    mpz_t A, B, P, G;
    mpz_init(A); mpz_init(B); mpz_init(P); mpz_init(G);
    /* oracle: every pair */
    size_t expect_pairs = 0;
    if (full_pairs)
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                to_mpz(A, x + i * limbs, limbs);
                to_mpz(B, x + j * limbs, limbs);
                mpz_gcd(G, A, B);
                expect_pairs += mpz_cmp_ui(G, 1) != 0;
            }
    /* oracle: batch, g_i = gcd(x_i, P / x_i) */
    bulk_limb_t *eg = calloc(n * limbs, 8);
    mpz_set_ui(P, 1);
    for (size_t i = 0; i < n; i++) {
        to_mpz(A, x + i * limbs, limbs);
        mpz_mul(P, P, A);
    }
    for (size_t i = 0; i < n; i++) {
        to_mpz(A, x + i * limbs, limbs);
        mpz_divexact(B, P, A);
        mpz_gcd(G, A, B);
        from_mpz(eg + i * limbs, limbs, G);
    }
    for (int threads = 1; threads <= 2; threads++) {
        bulk_ctx *ctx;
        CHECK(bulk_ctx_open(&ctx, BULK_BACKEND_CPU, threads) == BULK_OK, "ctx");
        if (full_pairs) {
            size_t tiles[] = { 0, 7, n };
            for (int t = 0; t < 3; t++) {
                pairs_seen s = { n, limbs, 0, x, calloc(n * 2 * limbs, 8), 0, 0 };
                for (size_t i = 0; i < n; i++) s.lcm[i * 2 * limbs] = 1;
                prog_seen pg = { 0, 0, 0, "gcd.pairs", 0 };
                bulk_ctx_set_progress(ctx, on_prog, &pg);
                CHECK(bulk_gcd_pairs(ctx, x, n, limbs, tiles[t], on_pair, &s) == BULK_OK, "pairs status");
                bulk_ctx_set_progress(ctx, NULL, NULL);
                CHECK(pg.calls > 0 && pg.last == pg.total && pg.total == (double)n * (double)(n - 1) / 2,
                      "pairs progress: %d calls, last %.0f of %.0f", pg.calls, pg.last, pg.total);
                CHECK(s.count == expect_pairs, "%zu pairs found, %zu expected (n %zu, tile %zu)",
                      s.count, expect_pairs, n, tiles[t]);
                /* batch == all pairs: on semiprimes the batch factor is the lcm of the pair gcds */
                for (size_t i = 0; i < n && t == 0; i++) {
                    to_mpz(A, s.lcm + i * 2 * limbs, 2 * limbs);
                    to_mpz(B, eg + i * limbs, limbs);
                    CHECK(mpz_cmp(A, B) == 0, "batch oracle != lcm of pair gcds at %zu", i);
                }
                free(s.lcm);
            }
        }
        bulk_limb_t *g = malloc(n * limbs * 8);
        /* memory budgets: 0 the default (half the physical memory: nothing to spill here),
         * forced spill, 1 byte (below the floor: everything spillable spilled), a budget that
         * keeps half of the spillable levels, no limit. Every one gives the oracle's answer and
         * leaves no file in the spill directory. */
        bulk_gcd_batch_stats st0;
        memset(&st0, 0, sizeof st0);
        for (int mode = 0; mode < 6; mode++) {
            if (mode == 2 && n > 100) continue; /* 64 groups of a large set: 4160 tiny trees; the
                                                 * smaller sets cover the most-groups path */
            prog_seen pg = { 0, 0, 0, "gcd.batch", 0 };
            size_t spillable = st0.levels > 2 ? st0.levels - 2 : 0, keep = spillable / 2;
            size_t kmax = n / 2 < 64 ? n / 2 : 64;
            size_t budget = mode == 2 ? 1 : mode == 4 ? SIZE_MAX : mode == 5 ? (size_t)st0.memory_floor / 2 : 0;
            if (mode == 3) /* floor + keep levels: need - floor is spillable levels' worth */
                budget = (size_t)(st0.memory_floor +
                                  (spillable ? (st0.memory_need - st0.memory_floor) / spillable * keep : 0));
            const char *dir = test_scratch_dir("gcd");
            bulk_gcd_batch_opts o = { budget, dir, mode == 1, NULL };
            bulk_gcd_batch_stats stt;
            memset(g, 0xa5, n * limbs * 8);
            bulk_ctx_set_progress(ctx, on_prog, &pg);
            CHECK(bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt) == BULK_OK, "batch status");
            bulk_ctx_set_progress(ctx, NULL, NULL);
            CHECK(memcmp(g, eg, n * limbs * 8) == 0, "batch differs (n %zu, bits %u, mode %d, threads %d)",
                  n, bits, mode, threads);
            if (mode == 0) st0 = stt;
            if (mode == 2 || mode == 5) { /* below the floor: the grouped method */
                CHECK(n < 4 || (stt.groups >= 2 && stt.groups <= kmax && stt.spilled_levels > 0),
                      "mode %d (budget %zu): %zu groups (at most %zu), %zu levels spilled", mode, budget,
                      stt.groups, kmax, stt.spilled_levels);
                CHECK(mode == 5 || stt.groups == (n < 4 ? 1 : kmax), "budget 1: %zu groups", stt.groups);
                CHECK(mode == 5 ? (n < 40 || (stt.groups < kmax && !stt.over_budget)) : stt.over_budget,
                      "mode %d: over_budget %d with %zu groups", mode, stt.over_budget, stt.groups);
            } else {
                size_t want = mode == 0 || mode == 4 ? 0 : mode == 3 ? spillable - keep : spillable;
                CHECK(stt.spilled_levels == want && stt.spilled == (want > 0) && stt.groups == 1,
                      "mode %d (budget %zu): %zu of %zu levels spilled, %zu expected, %zu groups", mode,
                      budget, stt.spilled_levels, stt.levels, want, stt.groups);
                CHECK(!stt.over_budget, "mode %d: over_budget", mode);
                size_t want_rem = mode == 1 && stt.levels > 2 ? stt.levels - 2 : 0;
                CHECK(stt.spilled_rem_levels == want_rem, "mode %d: %zu remainder levels spilled, %zu expected",
                      mode, stt.spilled_rem_levels, want_rem);
            }
            CHECK(stt.memory_floor <= stt.memory_need && (mode != 0 || stt.memory_budget > stt.memory_need),
                  "mode %d: budget %llu floor %llu need %llu", mode, (unsigned long long)stt.memory_budget,
                  (unsigned long long)stt.memory_floor, (unsigned long long)stt.memory_need);
            CHECK(pg.calls >= 1 && pg.last == pg.total && pg.total == 2.0 * (double)(stt.levels - 1) + 1,
                  "batch progress: %d calls, last %.0f of %.0f", pg.calls, pg.last, pg.total);
            CHECK((stt.spilled_levels == 0) == (stt.spill_bytes == 0), "spill bytes %llu for %zu levels",
                  (unsigned long long)stt.spill_bytes, stt.spilled_levels);
            CHECK(dir_entries(dir) == 0, "mode %d left files in %s", mode, dir);
        }
        free(g);
        bulk_ctx_close(ctx);
    }
    free(eg);
    free(x);
    mpz_clear(A); mpz_clear(B); mpz_clear(P); mpz_clear(G);
}

/* Entries of a directory other than . and .. (spill files left behind). */
static int dir_entries(const char *path)
{
    DIR *d = opendir(path);
    CHECK(d != NULL, "cannot open %s", path);
    if (!d) return -1;
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) k++;
    closedir(d);
    return k;
}

/* Spill files: a level comes back equal; a damaged or short file is an error (EIO), never
 * data; a spill directory that does not exist and a file size limit (EFBIG, as a full disk
 * gives ENOSPC: the same failed write) make bulk_gcd_batch fail with BULK_ERR_IO, the errno in
 * the stats, g untouched and no file left behind. */
static void test_spill_io(void)
{
    gcd_spill sp = { test_scratch_dir("gcd"), 0, 0, 0, 0, 0 };
    gcd_level L;
    size_t cnt = 37;
    CHECK(gcd_level_init(&L, cnt) == BULK_OK, "level init");
    for (size_t j = 0; j < cnt; j++) L.off[j + 1] = L.off[j] + 1 + j % 5;
    CHECK(gcd_level_alloc_data(&L) == BULK_OK, "level data");
    size_t nl = L.off[cnt];
    bulk_limb_t *copy = malloc(nl * 8);
    for (size_t i = 0; i < nl; i++) copy[i] = L.data[i] = test_rand(&rng);
    gcd_block_limbs = 9; /* chunks of 2 .. 5 nodes */
    for (int damage = 0; damage < 3; damage++) {
        CHECK(gcd_level_spill(&L, &sp) == BULK_OK && L.data == NULL && L.fd >= 0 && L.nchunk > 5, "spill");
        CHECK(dir_entries(sp.dir) == 0, "a spill file has a name");
        for (size_t j0 = 0; damage == 0 && j0 < cnt; j0 += 3) { /* node ranges across chunks */
            size_t j1 = j0 + 1 + (size_t)(test_rand(&rng) % 8);
            if (j1 > cnt) j1 = cnt;
            CHECK(gcd_level_load_range(&L, &sp, j0, j1) == BULK_OK && L.wlo <= j0 && j1 <= L.whi,
                  "load nodes %zu..%zu", j0, j1);
            CHECK(memcmp(gcd_level_num(&L, j0), copy + L.off[j0], (L.off[j1] - L.off[j0]) * 8) == 0,
                  "nodes %zu..%zu differ after a round trip", j0, j1);
        }
        gcd_level_drop(&L);
        if (damage == 1) { /* one flipped bit in the middle */
            bulk_limb_t w;
            CHECK(pread(L.fd, &w, 8, (off_t)(nl / 2 * 8)) == 8, "pread");
            w ^= 1ull << (rng % 64);
            CHECK(pwrite(L.fd, &w, 8, (off_t)(nl / 2 * 8)) == 8, "pwrite");
        }
        if (damage == 2) CHECK(ftruncate(L.fd, (off_t)(nl * 8 - 8)) == 0, "ftruncate");
        sp.err = 0;
        int st = gcd_level_load(&L, &sp);
        if (damage == 0) {
            CHECK(st == BULK_OK && memcmp(L.data, copy, nl * 8) == 0, "level differs after a round trip");
        } else {
            CHECK(st == BULK_ERR_IO && sp.err == EIO && L.data == NULL, "damage %d not seen (status %d, errno %d)",
                  damage, st, sp.err);
            /* rewrite it from the copy for the next round */
            CHECK(gcd_level_alloc_data(&L) == BULK_OK, "level data");
            memcpy(L.data, copy, nl * 8);
        }
    }
    CHECK(sp.levels == 3 && sp.bytes == 3 * nl * 8, "spill statistics %zu levels %llu bytes", sp.levels,
          (unsigned long long)sp.bytes);
    gcd_level_free(&L);
    free(copy);
    gcd_block_limbs = GCD_BLOCK_LIMBS;

    size_t n = 61, limbs = 16;
    bulk_limb_t *x = make_set(n, 1024, limbs), *g = malloc(n * limbs * 8);
    bulk_ctx *ctx;
    CHECK(bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) == BULK_OK, "ctx");
    bulk_gcd_batch_stats stt;
    bulk_gcd_batch_opts o = { 1, "scratch-gcd/no/such/dir", 0, NULL };
    memset(g, 0xa5, n * limbs * 8);
    CHECK(bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt) == BULK_ERR_IO && stt.spill_errno == ENOENT,
          "missing spill dir: errno %d", stt.spill_errno);
    CHECK(g[0] == 0xa5a5a5a5a5a5a5a5ull && g[n * limbs - 1] == g[0], "g written on a failed run");

    struct rlimit old, lim;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0, "getrlimit");
    lim = old;
    lim.rlim_cur = 4096; /* a level of 61 1024-bit moduli is 7.8 kB: its first write fails */
    signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0, "setrlimit");
    o.spill_dir = test_scratch_dir("gcd");
    o.max_memory = 0;
    o.force_spill = 1; /* whole levels (budget 1 would take the grouped method: small files) */
    int st = bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt);
    CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0, "setrlimit back");
    signal(SIGXFSZ, SIG_DFL);
    CHECK(st == BULK_ERR_IO && stt.spill_errno == EFBIG, "file size limit: status %d errno %d", st,
          stt.spill_errno);
    CHECK(g[0] == 0xa5a5a5a5a5a5a5a5ull && g[n * limbs - 1] == g[0], "g written on a failed run");
    CHECK(dir_entries(o.spill_dir) == 0, "a failed run left files");
    /* a full disk while the remainder tree spills: the last write of a successful run (the
     * remainder level 1) fails (injected ENOSPC) */
    CHECK(bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt) == BULK_OK && stt.spilled_rem_levels > 0, "spilled run");
    gcd_test_spill_fail_at(ctx, stt.spill_bytes - 1);
    memset(g, 0xa5, n * limbs * 8);
    st = bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt);
    gcd_test_spill_fail_at(ctx, 0);
    CHECK(st == BULK_ERR_IO && stt.spill_errno == ENOSPC && stt.spilled_levels + 2 == stt.levels &&
          stt.spilled_rem_levels >= 1, "remainder level on a full disk: status %d errno %d, "
          "%zu product and %zu remainder levels", st, stt.spill_errno, stt.spilled_levels,
          stt.spilled_rem_levels);
    CHECK(g[0] == 0xa5a5a5a5a5a5a5a5ull && g[n * limbs - 1] == g[0], "g written on a failed run");
    CHECK(dir_entries(o.spill_dir) == 0, "a failed run left files");
    bulk_ctx_close(ctx);
    free(x);
    free(g);
    printf("spill: round trip, damaged and short files, missing directory, file size limit\n");
}

/* Removes every entry of a scratch directory. */
static void clear_dir(const char *path)
{
    DIR *d = opendir(path);
    CHECK(d != NULL, "cannot open %s", path);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        unlink(p);
    }
    if (d) closedir(d);
}

/* Checkpoints (opts.checkpoint_dir): a run stopped by a failed write after 1 byte, 4 kB, 16 kB,
 * ... (injected ENOSPC: the run stops with some levels saved, in the product or the remainder
 * tree), then rerun, gives the uninterrupted answer and takes levels from the directory; so do
 * two interrupted runs in a row; in memory and with every level spilled (remainder levels
 * streamed into their checkpoint files), with small chunks (many per level). A finished run
 * leaves the manifest and value-0; a directory of other inputs is refused, and so is the
 * grouped method. */
static void test_checkpoint(void)
{
    size_t n = 61, limbs = 16;
    bulk_limb_t *x = make_set(n, 1024, limbs), *want = malloc(n * limbs * 8), *g = malloc(n * limbs * 8);
    bulk_ctx *ctx;
    CHECK(bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) == BULK_OK, "ctx");
    CHECK(bulk_gcd_batch(ctx, want, x, n, limbs, NULL, NULL) == BULK_OK, "plain batch");
    char dir[300];
    snprintf(dir, sizeof dir, "%s", test_scratch_dir("gcd-ckpt"));
    gcd_block_limbs = 100;
    int resumed_runs = 0;
    for (int force = 0; force < 2; force++) {
        bulk_gcd_batch_opts o = { 0, test_scratch_dir("gcd"), force, dir };
        bulk_gcd_batch_stats stt;
        for (uint64_t stop = 1;; stop = stop < 4096 ? 4096 : stop * 2) {
            clear_dir(dir);
            gcd_test_spill_fail_at(ctx, stop);
            int st = bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt);
            if (st == BULK_OK) { /* nothing left to interrupt */
                gcd_test_spill_fail_at(ctx, 0);
                break;
            }
            CHECK(st == BULK_ERR_IO, "stopped run: status %d", st);
            gcd_test_spill_fail_at(ctx, 2 * stop); /* a second interrupted run on top of the first */
            st = bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt);
            gcd_test_spill_fail_at(ctx, 0);
            memset(g, 0xa5, n * limbs * 8);
            CHECK(bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt) == BULK_OK, "resumed run");
            CHECK(memcmp(g, want, n * limbs * 8) == 0, "resumed run differs (force %d, stopped at %llu bytes)",
                  force, (unsigned long long)stop);
            resumed_runs += stt.checkpoint_levels > 0;
        }
        CHECK(dir_entries(dir) == 2, "a finished run left %d files (want manifest and value-0)", dir_entries(dir));
        memset(g, 0xa5, n * limbs * 8);
        CHECK(bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt) == BULK_OK && stt.checkpoint_levels == 1 &&
              memcmp(g, want, n * limbs * 8) == 0, "rerun of a finished run: %zu levels read", stt.checkpoint_levels);
        CHECK(dir_entries(o.spill_dir) == 0, "spill files left");
    }
    CHECK(resumed_runs >= 8, "only %d runs resumed from saved levels", resumed_runs);
    bulk_gcd_batch_stats stt;
    bulk_gcd_batch_opts o = { 0, NULL, 0, dir };
    x[5] ^= 2; /* other inputs */
    CHECK(bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt) == BULK_ERR_ARG && stt.checkpoint_mismatch,
          "a checkpoint of other inputs was not refused");
    x[5] ^= 2;
    o.max_memory = 1;
    CHECK(bulk_gcd_batch(ctx, g, x, n, limbs, &o, &stt) == BULK_ERR_UNSUPPORTED && stt.checkpoint_refused,
          "grouped method with a checkpoint not refused");
    gcd_block_limbs = GCD_BLOCK_LIMBS;
    clear_dir(dir);
    bulk_ctx_close(ctx);
    free(x);
    free(want);
    free(g);
    printf("checkpoint: %d interrupted runs resumed, other inputs and the grouped method refused\n",
           resumed_runs);
}

static int stop_at_first(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    (void)i; (void)j; (void)g; (void)gn;
    ++*(int *)arg;
    return 42;
}

static void test_args(void)
{
    bulk_ctx *ctx;
    CHECK(bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1) == BULK_OK, "ctx");
    bulk_limb_t x[4] = { 6, 10, 1, 15 }, g[4];
    int calls = 0;
    CHECK(bulk_gcd_pairs(ctx, x, 2, 1, 0, stop_at_first, &calls) == 42 && calls == 1, "callback stop");
    CHECK(bulk_gcd_pairs(ctx, x, 3, 1, 0, stop_at_first, &calls) == BULK_ERR_ARG, "input 1 accepted");
    /* no pair shares a factor (the usual outcome): no hit is reported, nothing to sort */
    bulk_limb_t coprime[3] = { 15, 7, 11 };
    calls = 0;
    CHECK(bulk_gcd_pairs(ctx, coprime, 3, 1, 0, stop_at_first, &calls) == BULK_OK && calls == 0,
          "coprime inputs: %d hits", calls);
    CHECK(bulk_gcd_batch(ctx, g, x, 3, 1, NULL, NULL) == BULK_ERR_ARG, "input 1 accepted by batch");
    CHECK(bulk_gcd_batch(ctx, g, x, 2, 0, NULL, NULL) == BULK_ERR_ARG, "0 limbs accepted");
    CHECK(bulk_gcd_batch(ctx, g, x, 1, 1, NULL, NULL) == BULK_OK && g[0] == 1, "single input");
    x[2] = 35;
    CHECK(bulk_gcd_batch(ctx, g, x, 4, 1, NULL, NULL) == BULK_OK && g[0] == 6 && g[1] == 10 &&
          g[2] == 5 && g[3] == 15, "small batch %lu %lu %lu %lu", (unsigned long)g[0],
          (unsigned long)g[1], (unsigned long)g[2], (unsigned long)g[3]);
    bulk_ctx_close(ctx);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    sanitized = test_sanitized();
    test_args();
    test_spill_io();
    test_checkpoint();
    test_division();
    test_set(5, 1024, 1);
    test_set(61, 1024, 1);
    test_set(40, 2048, 1);
    /* the batched level path on the CPU backend (every level up to 64-limb nodes: mixed with
     * node-by-node levels above), with small chunks: many blocks per level, parents split
     * across chunks */
    setenv("BULK_TUNE", "gcd.batched_mul=64,gcd.batched_rem=64,gcd.batched_min=1", 1);
    gcd_block_limbs = 100;
    test_set(61, 1024, 0);
    test_set(40, 2048, 0);
    gcd_block_limbs = GCD_BLOCK_LIMBS;
    unsetenv("BULK_TUNE");
    test_set(sanitized ? 400 : 2000, 1024, 0); /* product tree deep in NTT and big-division range */
    return test_finish();
}
