/* The host side of path and glide records on a CUDA context (records_gpu.c, the pieces of
 * runs.c), with the CPU in the device's place: a CPU context given a GPU table whose verify
 * entries are the CPU's (verify_chunk_peaks: the CPU verify with hits above 0, then only what
 * beats the floor, as the CUDA entry's contract says; verify_chunk_glides: the CPU verify, and
 * the numbers above the floor found by halving ranges). Its lists must equal those of the plain
 * CPU context: windows with above values around the path record 1980976057694848447 (the
 * previous record's peak: exactly that record; both verify modes) and the one before it, a part
 * of a run around it, and glide records near 2^64 (not in sanitizer builds: minutes there). Runs everywhere (label unit); the
 * device itself is tested by tests/collatz_gpu/test_collatz_gpu_records.c. */
#include "test_util.h"

#include "backend/backends.h"
#include "backend/context.h"
#include "collatz/collatz_backend.h"
#include "collatz/collatz_internal.h"
#include "collatz/peak.h"

typedef unsigned __int128 u128;

static bulk_u128 U(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}
static u128 W(bulk_u128 v) { return (u128)v.hi << 64 | v.lo; }

/* The CUDA entry's contract on the CPU: the result of [first, last] keeping only what beats the
 * floor (the peak when larger, the hits above it). */
static int peaks_calls, glide_calls;

static int twin_peaks(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first, bulk_u128 last,
                      const bulk_collatz_wide *floor, const bulk_collatz_wide *seed, bulk_collatz_verify_result *out)
{
    (void)ctx;
    (void)seed;
    peaks_calls++;
    int st = bulk_cz_verify_chunk(e, first, last, out);
    if (st || !floor) return st;
    if (cz_wide_cmp(&out->peak, floor) <= 0) {
        memset(&out->peak, 0, sizeof out->peak);
        memset(&out->peak_n, 0, sizeof out->peak_n);
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < out->n_peak_hits; i++)
        if (cz_wide_cmp(&out->peak_hits[i].value, floor) > 0) out->peak_hits[k++] = out->peak_hits[i];
    out->n_peak_hits = k;
    return BULK_OK;
}

/* The glide hits of [a, b] above floor into h (n, glide): halves of any range whose largest glide
 * exceeds floor, down to single numbers. */
static int glide_hits(const bulk_collatz_engine *e, u128 a, u128 b, uint64_t floor, bulk_collatz_record *h,
                      size_t cap, size_t *n)
{
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    if (!r) return BULK_ERR_NOMEM;
    int st = bulk_cz_verify_chunk(e, U(a), U(b), r);
    const uint64_t m = r->max_glide;
    const u128 mn = W(r->max_glide_n);
    free(r);
    if (st || m <= floor) return st;
    if (a == b) {
        if (*n == cap) return BULK_ERR_OVERFLOW;
        memset(&h[*n], 0, sizeof h[*n]);
        h[*n].n = U(mn);
        h[*n].value.limb[0] = m;
        ++*n;
        return BULK_OK;
    }
    const u128 mid = a + (b - a) / 2;
    st = glide_hits(e, a, mid, floor, h, cap, n);
    return st ? st : glide_hits(e, mid + 1, b, floor, h, cap, n);
}

/* The CUDA entry's contract on the CPU, for a device whose list holds at most TWIN_HITS numbers
 * (so that the caller's cut into parts runs too). */
#define TWIN_HITS 6
static int twin_glides(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first, bulk_u128 last, uint64_t floor,
                       size_t max, bulk_collatz_record **hits, size_t *count, bulk_collatz_verify_result *out)
{
    (void)ctx;
    glide_calls++;
    if (e->conv || e->peaks || floor < 2 * (uint64_t)(e->k + e->kx) || floor >= UINT32_MAX) return BULK_ERR_ARG;
    int st = bulk_cz_verify_chunk(e, first, last, out);
    const size_t cap = max < TWIN_HITS ? max : TWIN_HITS;
    bulk_collatz_record *h = malloc(cap * sizeof *h);
    size_t n = 0;
    if (!h) return BULK_ERR_NOMEM;
    if (st == BULK_OK) st = glide_hits(e, W(first), W(last), floor, h, cap, &n);
    if (st) {
        free(h);
        return st;
    }
    *hits = h;
    *count = n;
    return BULK_OK;
}

static struct bulk_collatz_backend twin;
static bulk_backend_tables twin_tables;

static int same(const bulk_collatz_record *a, size_t na, const bulk_collatz_record *b, size_t nb)
{
    if (na != nb) return 0;
    for (size_t i = 0; i < na; i++)
        if (W(a[i].n) != W(b[i].n) || cz_wide_cmp(&a[i].value, &b[i].value) != 0) return 0;
    return 1;
}

/* The run (part when origin < first) on the plain and the twin context: equal, non-empty lists;
 * the twin's into *out when asked. */
static void compare(const char *name, bulk_ctx *cpu, bulk_ctx *dev, const bulk_collatz_engine *e,
                    bulk_collatz_kind kind, u128 origin, u128 first, u128 last, const bulk_collatz_wide *above,
                    uint64_t piece, bulk_collatz_record **out, size_t *nout)
{
    bulk_collatz_run_opts opts = { NULL, NULL, 0, piece };
    bulk_collatz_record *r[2] = { NULL, NULL };
    size_t n[2] = { 0, 0 };
    for (int i = 0; i < 2; i++) {
        bulk_ctx *c = i ? dev : cpu;
        int st = origin < first ? bulk_collatz_records_part_run(c, e, kind, U(origin), U(first), U(last), above, &opts,
                                                               &r[i], &n[i])
                 : above ? bulk_collatz_path_records_run(c, e, U(first), U(last), above, &opts, &r[i], &n[i])
                         : bulk_collatz_records_run(c, e, kind, U(first), U(last), &opts, &r[i], &n[i]);
        CHECK(st == BULK_OK, "%s: %s: %s", name, i ? "twin" : "cpu", bulk_ctx_last_error(c));
    }
    CHECK(n[0] > 0, "%s: no records", name);
    CHECK(same(r[0], n[0], r[1], n[1]), "%s: %zu records on the CPU, %zu with the twin", name, n[0], n[1]);
    printf("%-28s %zu records\n", name, n[1]);
    free(r[0]);
    if (out) {
        *out = r[1];
        *nout = n[1];
    } else {
        free(r[1]);
    }
}

static bulk_collatz_engine *engine(bulk_ctx *ctx, int d, int k, int conv)
{
    bulk_collatz_engine *e = NULL;
    int st = bulk_collatz_engine_new(&e, ctx, d, k, 16);
    if (st == BULK_OK && conv) st = bulk_collatz_engine_set_converge(e);
    if (st != BULK_OK) {
        fprintf(stderr, "engine: %s\n", bulk_ctx_last_error(ctx));
        exit(1);
    }
    return e;
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), s = seed;
    const int quick = getenv("BULK_SANITIZED") != NULL;
    bulk_ctx *cpu = NULL, *dev = NULL;
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK || bulk_ctx_open(&dev, BULK_BACKEND_CPU, 0) != BULK_OK)
        return 1;
    twin = bulk_collatz_cpu_backend;
    twin.verify_chunk_peaks = twin_peaks;
    twin.verify_chunk_glides = twin_glides;
    twin_tables = *dev->cpu;
    twin_tables.collatz = &twin;
    dev->gpu = &twin_tables;
    const u128 r1 = test_rand(&s) % 100000, r2 = test_rand(&s) % 100000;
    const int b = quick ? 26 : 31;
    bulk_collatz_engine *conv = engine(cpu, 12, 16, 1), *glide = engine(cpu, 12, 16, 0);

    /* path records go to the device where the maximum is large against n (records_gpu.c): windows
     * with above values around the record R = 1980976057694848447 (above the peak P0 of the one
     * before, R0 = 1038743969413717663) and around R0 (above P0 - 1), a part of a run around R */
    const u128 R = (u128)1980976057694848447ull, R0 = (u128)1038743969413717663ull;
    bulk_collatz_wide p0, p, p0m;
    CHECK(bulk_cz_peak_wide(conv, R0, &p0) == BULK_OK && bulk_cz_peak_wide(conv, R, &p) == BULK_OK, "peaks of R0, R");
    for (int m = 0; m < 2; m++) {
        peaks_calls = 0;
        bulk_collatz_record *got = NULL;
        size_t ng = 0;
        const u128 lo = R - ((u128)1 << 24) - r1;
        compare(m ? "window around R, glides" : "window around R, conv", cpu, dev, m ? glide : conv,
                BULK_COLLATZ_PATH, lo, lo, R + ((u128)1 << 24), &p0, (uint64_t)1 << 22, &got, &ng);
        CHECK(ng == 1 && W(got[0].n) == R && cz_wide_cmp(&got[0].value, &p) == 0, "window around R: not exactly R");
        CHECK(peaks_calls >= 8, "window around R: %d calls of the device's verify", peaks_calls);
        free(got);
    }
    p0m = p0;
    for (int i = 0; i < 4 && p0m.limb[i]-- == 0; i++) /* P0 - 1 */
        ;
    bulk_collatz_record *got = NULL;
    size_t ng = 0;
    peaks_calls = 0;
    compare("window around R0", cpu, dev, conv, BULK_COLLATZ_PATH, R0 - ((u128)1 << 22), R0 - ((u128)1 << 22),
            R0 + ((u128)1 << 22) + r2, &p0m, (uint64_t)1 << 20, &got, &ng);
    CHECK(ng == 1 && W(got[0].n) == R0 && cz_wide_cmp(&got[0].value, &p0) == 0, "window around R0: not exactly R0");
    CHECK(peaks_calls >= 8, "window around R0: %d calls of the device's verify", peaks_calls);
    free(got);
    peaks_calls = 0;
    compare("part of a run around R", cpu, dev, glide, BULK_COLLATZ_PATH, R - ((u128)1 << 25) - r1,
            R - ((u128)1 << 23) + r2, R + ((u128)1 << (b - 5)), &p0, (uint64_t)1 << 21, NULL, NULL);
    CHECK(peaks_calls >= 4, "part: %d calls of the device's verify", peaks_calls);
    if (!quick) {
        /* 2^33 numbers: the first piece on the CPU, then twin calls with hits above the maximum
         * (those with more than TWIN_HITS cut into parts) */
        const u128 P64 = (u128)1 << 64;
        compare("glides near 2^64", cpu, dev, glide, BULK_COLLATZ_GLIDE, P64 + r1, P64 + r1, P64 + ((u128)1 << 33),
                NULL, 0, NULL, NULL);
        CHECK(glide_calls >= 3, "glides: %d calls of the device's verify", glide_calls);
        printf("glides: %d calls of the device's verify\n", glide_calls);
    }
    bulk_collatz_engine_free(conv);
    bulk_collatz_engine_free(glide);
    dev->gpu = NULL;
    bulk_ctx_close(dev);
    bulk_ctx_close(cpu);
    return test_finish();
}
