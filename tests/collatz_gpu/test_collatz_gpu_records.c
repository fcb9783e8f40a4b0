/* GPU test of path and glide records on a CUDA context (records_gpu.c; label gpu; exits 77,
 * reported as skipped, without a CUDA device): bulk_collatz_records_run and
 * bulk_collatz_records_part_run on a CUDA context against the same engine on the CPU context,
 * and the lists from 1 against the OEIS files (tests/data/collatz, records up to 2^32).
 *
 * - path records through the GPU verify with peaks: windows with an above value around the
 *   record 1980976057694848447 (the previous record's peak: exactly that record) in both verify
 *   modes and around the one before it (its peak - 1: exactly it), a part of a run around it in
 *   pieces with unaligned ends;
 * - the engine of `records` on a CUDA context: verify's sizes;
 * - the glide hits of the full-glide verify (verify_chunk_glides) near 2^64 against its plain
 *   verify and the CPU;
 * - glide records from 1 and near 2^60 and 2^64 on the full-glide verify with hits above the
 *   running maximum, one piece of the run per GPU call. */
#include <time.h>

#include "test_util.h"

#include "collatz/collatz_internal.h"
#include "collatz/peak.h"
#include "cz_gpu_test.h"

typedef unsigned __int128 u128;

static bulk_u128 U(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}
static u128 W(bulk_u128 v) { return (u128)v.hi << 64 | v.lo; }

static void print_list(const char *who, const bulk_collatz_record *r, size_t n)
{
    for (size_t i = 0; i < n && i < 40; i++) {
        char a[48], b[BULK_CZ_WIDE_STR];
        bulk_cz_u128_str(r[i].n, a);
        bulk_cz_wide_str(&r[i].value, b);
        fprintf(stderr, "  %s %s %s\n", who, a, b);
    }
}

static int same(const bulk_collatz_record *a, size_t na, const bulk_collatz_record *b, size_t nb)
{
    if (na != nb) return 0;
    for (size_t i = 0; i < na; i++)
        if (W(a[i].n) != W(b[i].n) || cz_wide_cmp(&a[i].value, &b[i].value) != 0) return 0;
    return 1;
}

/* The run (part when origin < first) of [first, last] on the CPU and the GPU context: equal lists,
 * each non-empty; the GPU's list into *out when asked (free() it). */
static void compare(const char *name, bulk_ctx *cpu, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                    u128 origin, u128 first, u128 last, const bulk_collatz_wide *above, uint64_t piece,
                    bulk_collatz_record **out, size_t *nout)
{
    bulk_collatz_run_opts opts = { NULL, NULL, 0, piece };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bulk_collatz_record *rc = NULL, *rg = NULL;
    size_t nc = 0, ng = 0;
    int sc, sg;
    if (origin < first) {
        sc = bulk_collatz_records_part_run(cpu, e, kind, U(origin), U(first), U(last), above, &opts, &rc, &nc);
        sg = bulk_collatz_records_part_run(cz_gpu_ctx, e, kind, U(origin), U(first), U(last), above, &opts, &rg, &ng);
    } else if (above) {
        sc = bulk_collatz_path_records_run(cpu, e, U(first), U(last), above, &opts, &rc, &nc);
        sg = bulk_collatz_path_records_run(cz_gpu_ctx, e, U(first), U(last), above, &opts, &rg, &ng);
    } else {
        sc = bulk_collatz_records_run(cpu, e, kind, U(first), U(last), &opts, &rc, &nc);
        sg = bulk_collatz_records_run(cz_gpu_ctx, e, kind, U(first), U(last), &opts, &rg, &ng);
    }
    CHECK(sc == BULK_OK, "%s: cpu: %s", name, bulk_ctx_last_error(cpu));
    CHECK(sg == BULK_OK, "%s: gpu: %s", name, bulk_ctx_last_error(cz_gpu_ctx));
    CHECK(nc > 0, "%s: no records at all", name);
    if (sc == BULK_OK && sg == BULK_OK && !same(rc, nc, rg, ng)) {
        CHECK(0, "%s: %zu records on the CPU, %zu on the GPU, not the same", name, nc, ng);
        print_list("cpu", rc, nc);
        print_list("gpu", rg, ng);
    }
    printf("%-34s %3zu records (cpu %zu), %.1f s\n", name, ng, nc, (double)(clock_gettime(CLOCK_MONOTONIC, &t1), t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    fflush(stdout);
    free(rc);
    if (out) {
        *out = rg;
        *nout = ng;
    } else {
        free(rg);
    }
}

/* The records of the OEIS file below 2^bits equal the first ones of got. */
static void oeis(const char *dir, const char *file, int bits, const bulk_collatz_record *got, size_t ng)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "%s: cannot open", path);
    if (!f) return;
    char line[256];
    size_t i = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long n, v;
        if (line[0] == '#' || sscanf(line, "%llu %llu", &n, &v) != 2 || n >> bits) continue;
        CHECK(i < ng && W(got[i].n) == n && got[i].value.limb[0] == v && !got[i].value.limb[1],
              "%s: record %zu (%llu %llu) differs from the GPU's", file, i, n, v);
        i++;
    }
    fclose(f);
    CHECK(i > 0, "%s: no records read", file);
}

/* verify_chunk_glides on [a, b] against the GPU's plain full-glide verify (its own booking
 * instead of the host's): the same result; every hit's glide again on the CPU; between hits no
 * glide above the floor (the plain verify of each gap); a list too long for max, and a floor
 * the sieve could reach, refused. The floor is the range's largest glide less some 64 or fewer. */
static void glide_hits(const bulk_collatz_engine *e, u128 a, u128 b)
{
    bulk_collatz_verify_result *r0 = malloc(sizeof *r0), *r1 = malloc(sizeof *r1);
    CHECK(r0 && r1, "glide hits: no memory");
    if (!r0 || !r1) return;
    int st = CZ_GPU->verify_chunk(cz_gpu_ctx, e, U(a), U(b), r0);
    CHECK(st == BULK_OK, "glide hits: verify: %s", bulk_ctx_last_error(cz_gpu_ctx));
    bulk_collatz_record *h = NULL;
    size_t n = 0;
    uint64_t F = 0;
    for (uint64_t d = 64; st == BULK_OK; d /= 2) {
        F = r0->max_glide - d;
        st = CZ_GPU->verify_chunk_glides(cz_gpu_ctx, e, U(a), U(b), F, 4096, &h, &n, r1);
        if (st != BULK_ERR_OVERFLOW || d == 1) break;
        st = BULK_OK;
    }
    CHECK(st == BULK_OK && n > 0, "glide hits: %d, %zu hits: %s", st, n, bulk_ctx_last_error(cz_gpu_ctx));
    if (st == BULK_OK) {
        CHECK(W(r1->checksum) == W(r0->checksum) && W(r1->iterated) == W(r0->iterated) &&
                  W(r1->covered) == W(r0->covered) && r1->max_glide == r0->max_glide &&
                  W(r1->max_glide_n) == W(r0->max_glide_n) && r1->overflows == r0->overflows,
              "glide hits: the result differs from the plain verify's");
        u128 x = a;
        for (size_t i = 0; i <= n; i++) {
            const u128 y = i < n ? W(h[i].n) : b + 1;
            CHECK(i == 0 || W(h[i - 1].n) < y, "glide hits: not ascending at %zu", i);
            if (y > x) {
                st = CZ_GPU->verify_chunk(cz_gpu_ctx, e, U(x), U(y - 1), r0);
                CHECK(st == BULK_OK && r0->max_glide <= F, "glide hits: a gap before hit %zu holds glide %llu > %llu",
                      i, (unsigned long long)r0->max_glide, (unsigned long long)F);
            }
            if (i < n) {
                st = bulk_cz_verify_chunk(e, h[i].n, h[i].n, r0);
                CHECK(st == BULK_OK && r0->max_glide == h[i].value.limb[0] && h[i].value.limb[0] > F,
                      "glide hits: hit %zu's glide %llu, the CPU's %llu", i, (unsigned long long)h[i].value.limb[0],
                      (unsigned long long)r0->max_glide);
            }
            x = y + 1;
        }
        printf("glide hits above %llu: %zu\n", (unsigned long long)F, n);
        free(h);
        h = NULL;
        if (n > 1) {
            st = CZ_GPU->verify_chunk_glides(cz_gpu_ctx, e, U(a), U(b), F, n - 1, &h, &n, r1);
            CHECK(st == BULK_ERR_OVERFLOW && !h, "glide hits: %d with a list one short", st);
        }
    }
    st = CZ_GPU->verify_chunk_glides(cz_gpu_ctx, e, U(a), U(b), 2 * (uint64_t)(e->k + e->kx) - 1, 4096, &h, &n, r1);
    CHECK(st == BULK_ERR_ARG, "glide hits: %d with a floor below 2 K", st);
    free(r0);
    free(r1);
}

static bulk_collatz_engine *engine(bulk_ctx *cpu, int d, int ks, int kx, int conv)
{
    bulk_collatz_engine *e = NULL;
    int st = bulk_collatz_engine_new(&e, cpu, d, ks, 20);
    if (st == BULK_OK && conv) st = bulk_collatz_engine_set_converge(e);
    if (st == BULK_OK && kx) st = bulk_collatz_engine_extend(e, kx);
    if (st != BULK_OK) {
        fprintf(stderr, "engine d=%d k=%d: %s\n", d, ks, bulk_ctx_last_error(cpu));
        exit(1);
    }
    return e;
}

int main(int argc, char **argv)
{
    int o = cz_gpu_open("the GPU records test");
    if (o) return o;
    const char *dir = "tests/data/collatz";
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--data")) dir = argv[i + 1];
    uint64_t seed = test_seed(argc, argv), s = seed;
    bulk_ctx *cpu = NULL;
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) return 1;
    const u128 P30 = (u128)1 << 30, P60 = (u128)1 << 60, P64 = (u128)1 << 64;
    /* random offsets keep the ends unaligned (replayable with the seed) */
    const u128 r1 = test_rand(&s) % 100000, r2 = test_rand(&s) % 100000;

    bulk_collatz_engine *conv = engine(cpu, 14, 24, 8, 1), *glide = engine(cpu, 12, 24, 8, 0);
    bulk_collatz_record *got;
    size_t ng;
    /* the record R = 1980976057694848447 above the peak P0 of the one before, R0 =
     * 1038743969413717663: path records near 1 stay on the CPU (their maxima are small against
     * n: records_gpu.c), so the GPU's cases are windows with above values */
    const u128 R = (u128)1980976057694848447ull, R0 = (u128)1038743969413717663ull;
    bulk_collatz_wide p0, p, p0m;
    CHECK(bulk_cz_peak_wide(conv, R0, &p0) == BULK_OK && bulk_cz_peak_wide(conv, R, &p) == BULK_OK, "peaks of R0, R");
    for (int m = 0; m < 2; m++) {
        const bulk_collatz_engine *e = m ? glide : conv;
        compare(m ? "window around R, glides" : "window around R, conv", cpu, e, BULK_COLLATZ_PATH, R - P30 - r1,
                R - P30 - r1, R + ((u128)1 << 33), &p0, 0, &got, &ng);
        CHECK(ng == 1 && W(got[0].n) == R && cz_wide_cmp(&got[0].value, &p) == 0, "window around R: not exactly R");
        free(got);
    }
    p0m = p0;
    for (int i = 0; i < 4 && p0m.limb[i]-- == 0; i++) /* P0 - 1 */
        ;
    compare("window around R0, above P0 - 1", cpu, conv, BULK_COLLATZ_PATH, R0 - P30, R0 - P30, R0 + P30 + r2, &p0m,
            0, &got, &ng);
    CHECK(ng == 1 && W(got[0].n) == R0 && cz_wide_cmp(&got[0].value, &p0) == 0, "window around R0: not exactly R0");
    free(got);
    compare("part of a run around R, glides", cpu, glide, BULK_COLLATZ_PATH, R - ((u128)1 << 32) - r1,
            R - ((u128)1 << 31) + r2, R + ((u128)1 << 32), &p0, (uint64_t)1 << 29, NULL, NULL);

    /* the engine of `records` on the GPU has verify's sizes (d, K) for the range */
    for (int kind = 0; kind < 2; kind++) {
        const u128 a = (u128)1 << 68, b = a + ((u128)1 << 48);
        const int path = kind == 0;
        bulk_collatz_params pv = { -1, -1, -1 };
        bulk_collatz_engine *er = NULL;
        CHECK(bulk_collatz_choose(cz_gpu_ctx, U(a), U(b), path, &pv) == BULK_OK &&
                  bulk_collatz_records_engine(cz_gpu_ctx, path ? BULK_COLLATZ_PATH : BULK_COLLATZ_GLIDE, U(a), U(a),
                                              U(b), path, -1, -1, -1, &er) == BULK_OK,
              "records engine: %s", bulk_ctx_last_error(cz_gpu_ctx));
        if (er)
            CHECK(er->d == pv.d && er->k + er->kx == pv.k && er->conv == path,
                  "records engine (%s): d = %d, K = %d; verify's d = %d, K = %d", path ? "path" : "glide", er->d,
                  er->k + er->kx, pv.d, pv.k);
        bulk_collatz_engine_free(er);
    }
    glide_hits(glide, P64 - ((u128)1 << 35) + r1, P64 + ((u128)1 << 35));
    /* glides: the first piece of 2^34 on the CPU, the rest GPU calls with hits above the maximum */
    compare("glide 1..2^37", cpu, glide, BULK_COLLATZ_GLIDE, 1, 1, ((u128)1 << 37) + r1, NULL, 0, &got, &ng);
    oeis(dir, "glide_records.txt", 32, got, ng);
    free(got);
    compare("glide 2^60 + 2^36", cpu, glide, BULK_COLLATZ_GLIDE, P60 + r1, P60 + r1, P60 + ((u128)1 << 36), NULL, 0,
            NULL, NULL);
    compare("glide part near 2^64", cpu, glide, BULK_COLLATZ_GLIDE, P64 - ((u128)1 << 36), P64 + r2,
            P64 + ((u128)1 << 36), NULL, 0, NULL, NULL);
    bulk_collatz_engine_free(conv);
    bulk_collatz_engine_free(glide);
    bulk_ctx_close(cpu);
    cz_gpu_close();
    return test_finish();
}
