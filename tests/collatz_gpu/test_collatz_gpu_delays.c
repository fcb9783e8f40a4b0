/* GPU test of the default delay paths, the lean round end and the merge classes (label gpu; exits 77, reported as skipped, without a
 * CUDA device): the merge-class path (cg_delay6.h, k_classes + k_members; the default where it
 * applies, the tuning cz.classes=0 turns it off)
 * and the lean round end, against the CPU backend, on ranges large enough for whole class blocks:
 * near 2^64 (across it), near 2^68, just below 2^79 (the class path's limit) and across it (the
 * path must step aside there), in every output form (every delay; batch statistics of 1024 =
 * spans of whole batches, 2^20 = batch pieces, 100 and 20000 = pieces merged by atomics), with
 * small launches (a launch touching one or two blocks) and a one-entry escape buffer. The class
 * path's use is checked through bulk_collatz_cuda_stats.classes. Replay: --seed S. */
#include "test_util.h"

#include "backend/context.h"
#include "bulk/bulk.h"
#include "collatz/collatz_internal.h"
#include "collatz/cuda/collatz_cuda.h"
#include "cz_gpu_test.h"

typedef unsigned __int128 u128;

static bulk_u128 U(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

struct variant {
    const char *name;
    int classes; /* 0: the tuning cz.classes=0 (the lean loop only), 1: the default (classes where they apply) */
    bulk_collatz_cuda_opts o;
};

static const struct variant g_vs[] = {
    { "classes", 1, { 0 } },
    { "classes, 4 steps", 1, { .delay_loop = BULK_CZ_CUDA_DELAY_V5, .delay_unroll = 4 } },
    { "classes, small launches, tiny escapes", 1, { .launch_numbers = 5000000, .escape_capacity = 1 } },
    { "classes, global entries", 1, { .table_mem = BULK_CZ_CUDA_MEM_GLOBAL } },
    { "lean round end", 0, { 0 } },
};
#define NV (sizeof g_vs / sizeof g_vs[0])

/* On ctx, the engine's context (the tuning first: it replaces the options too). */
static void use(bulk_ctx *ctx, const struct variant *v)
{
    CHECK(bulk_ctx_set_tune(ctx, v->classes ? NULL : "cz.classes=0") == BULK_OK, "tune (%s)", v->name);
    CHECK(bulk_collatz_cuda_set_opts(ctx, &v->o) == BULK_OK, "set opts (%s)", v->name);
}

/* The class path runs where it should: numbers in [2^40, 2^79), at least 2^23 of them, V5 with
 * the lean round end (every variant here; launches of >= 2^22 numbers). */
static void check_used(const struct variant *v, u128 first, u128 count, const char *what)
{
    bulk_collatz_cuda_stats s;
    CZ_GPU->last_stats(cz_gpu_ctx, &s);
    const int want = v->classes && (first >> 40) != 0 && ((first + count - 1) >> 79) == 0 && (count >> 23) != 0;
    CHECK((s.classes > 0) == want, "%s (%s): class path %s, expected %s", what, v->name, s.classes ? "used" : "not used",
          want ? "used" : "not used");
}

static void range_case(bulk_ctx *cpu, int d, int a, u128 first, uint64_t count)
{
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, cpu, d, 8, a);
    CHECK(st == BULK_OK, "engine d=%d a=%d: %d", d, a, st);
    if (st) return;
    char s1[48];
    bulk_cz_u128_str(U(first), s1);
    printf("delays d=%d a=%d from %s, %llu numbers\n", d, a, s1, (unsigned long long)count);
    uint32_t *ref = malloc(count * 4), *got = malloc(count * 4);
    st = bulk_collatz_delays(cpu, e, U(first), count, ref);
    CHECK(st == BULK_OK, "CPU delays: %d", st);
    for (size_t v = 0; v < NV; v++) {
        use(cpu, &g_vs[v]);
        memset(got, 0xa5, count * 4); /* poison: every element must be written */
        st = CZ_GPU->delays(cz_gpu_ctx, e, U(first), count, got, NULL, 0);
        CHECK(st == BULK_OK, "CUDA delays (%s): %d %s", g_vs[v].name, st, bulk_ctx_last_error(cz_gpu_ctx));
        uint64_t bad = 0;
        for (uint64_t i = 0; i < count; i++) bad += got[i] != ref[i];
        CHECK(bad == 0, "CUDA delays (%s): %llu of %llu differ", g_vs[v].name, (unsigned long long)bad,
              (unsigned long long)count);
        check_used(&g_vs[v], first, count, "delays");
        bulk_collatz_cuda_stats cs;
        CZ_GPU->last_stats(cz_gpu_ctx, &cs);
        printf("  %-40s delays %s, %llu class trajectories, %llu escapes\n", g_vs[v].name, bad ? "DIFFERENT" : "same",
               (unsigned long long)cs.classes, (unsigned long long)cs.escapes);
    }
    /* batch statistics: spans (1024), pieces (2^20), pieces merged by atomics (100, 20000) */
    const uint64_t batches[] = { 1024, 1 << 20, 100, 20000 };
    for (size_t bi = 0; bi < sizeof batches / sizeof batches[0]; bi++) {
        const uint64_t batch = batches[bi], nb = count / batch;
        if (!nb) continue;
        uint64_t *rs = malloc(nb * 8), *gs = malloc(nb * 8);
        uint32_t *rmn = malloc(nb * 4), *rmx = malloc(nb * 4), *gmn = malloc(nb * 4), *gmx = malloc(nb * 4);
        st = bulk_collatz_delay_stats(cpu, e, U(first), batch, nb, rs, rmn, rmx);
        CHECK(st == BULK_OK, "CPU stats: %d", st);
        for (size_t v = 0; v < NV; v++) {
            use(cpu, &g_vs[v]);
            memset(gs, 0xa5, nb * 8);
            memset(gmn, 0xa5, nb * 4);
            memset(gmx, 0xa5, nb * 4);
            st = CZ_GPU->delay_stats(cz_gpu_ctx, e, U(first), batch, nb, gs, gmn, gmx, NULL, 0);
            CHECK(st == BULK_OK, "CUDA stats (%s): %d %s", g_vs[v].name, st, bulk_ctx_last_error(cz_gpu_ctx));
            uint64_t bad = 0;
            for (uint64_t i = 0; i < nb; i++) bad += gs[i] != rs[i] || gmn[i] != rmn[i] || gmx[i] != rmx[i];
            CHECK(bad == 0, "CUDA stats batch %llu (%s): %llu of %llu batches differ", (unsigned long long)batch,
                  g_vs[v].name, (unsigned long long)bad, (unsigned long long)nb);
            check_used(&g_vs[v], first, (u128)nb * batch, "stats");
            printf("  stats batch %-8llu %-40s %s\n", (unsigned long long)batch, g_vs[v].name, bad ? "DIFFERENT" : "same");
        }
        free(rs);
        free(gs);
        free(rmn);
        free(rmx);
        free(gmn);
        free(gmx);
    }
    bulk_ctx_set_tune(cpu, NULL);
    free(ref);
    free(got);
    bulk_collatz_engine_free(e);
}

int main(int argc, char **argv)
{
    uint64_t rs = test_seed(argc, argv);
    int skip = cz_gpu_open("the CUDA delay paths were");
    if (skip) return skip; /* 77: ctest SKIP_RETURN_CODE */
    bulk_ctx *cpu;
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) {
        fprintf(stderr, "cannot open a CPU context\n");
        return 1;
    }
    const u128 two64 = (u128)1 << 64, two68 = (u128)1 << 68, two79 = (u128)1 << 79;
    const u128 j1 = test_rand(&rs) % 1000000, j2 = test_rand(&rs) % 1000000;
    /* across 2^64, unaligned ends (partial class blocks at both ends) */
    range_case(cpu, 14, 24, two64 - ((u128)1 << 23) - j1, (1 << 25) + 4096);
    /* near 2^68, the CLI's table sizes; d = 16 (entries in global memory) */
    range_case(cpu, 14, 20, two68 + j2, 1 << 25);
    range_case(cpu, 16, 22, two68 + ((u128)j1 << 22), 1 << 24);
    /* below the class path's size (2^23 numbers): the lean loop */
    range_case(cpu, 14, 24, two64 + j2, (1 << 23) - 1024);
    /* just below 2^79 (class start values near 2^92), and across 2^79 (no class path) */
    range_case(cpu, 14, 24, two79 - ((u128)1 << 24) - j2, 1 << 24);
    range_case(cpu, 12, 24, two79 - ((u128)1 << 22) - j2, 1 << 23);
    bulk_ctx_close(cpu);
    cz_gpu_close();
    return test_finish();
}
