/* GPU tests of the CUDA Collatz backend (CTest label "gpu"): the CUDA backend against the CPU
 * backend on the same engine and range, bit for bit: counts, overflow count and list, checksum,
 * maximum glide; delays and batch statistics. Ranges near 2^64, 2^68, near 2^128 (overflows:
 * escapes finished on the host), from 1 (the small blocks), unaligned ends (WALK pieces), few
 * rows (ENTRY layout), many rows (ROWS layout); every kernel variant and table placement, one
 * and all devices, a streamed sieve, tiny escape buffers (reruns), tiny launches and waves.
 * Without a device it prints "SKIP: no CUDA device" and exits 77 (ctest: skipped). Replay: --seed S. */
#include "test_util.h"

#include "collatz/collatz_internal.h"
#include "collatz/cuda/collatz_cuda.h"
#include "cz_gpu_test.h"

typedef unsigned __int128 u128;

static bulk_u128 U(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

static void u128_str(bulk_u128 v, char *buf) { bulk_cz_u128_str(v, buf); }

static int same(const bulk_collatz_verify_result *a, const bulk_collatz_verify_result *b)
{
    if (memcmp(&a->covered, &b->covered, sizeof a->covered) ||
        memcmp(&a->iterated, &b->iterated, sizeof a->iterated) ||
        memcmp(&a->checksum, &b->checksum, sizeof a->checksum) || a->overflows != b->overflows ||
        a->n_overflow_values != b->n_overflow_values || a->max_glide != b->max_glide ||
        memcmp(&a->max_glide_n, &b->max_glide_n, sizeof a->max_glide_n))
        return 0;
    for (uint32_t i = 0; i < a->n_overflow_values; i++)
        if (memcmp(&a->overflow_values[i], &b->overflow_values[i], sizeof(bulk_u128))) return 0;
    return 1;
}

static void show(const char *who, const bulk_collatz_verify_result *r)
{
    char c[48], i[48], s[48], m[48];
    u128_str(r->covered, c);
    u128_str(r->iterated, i);
    u128_str(r->checksum, s);
    u128_str(r->max_glide_n, m);
    fprintf(stderr, "  %s: covered %s iterated %s checksum %s overflows %llu max glide %llu at %s\n",
            who, c, i, s, (unsigned long long)r->overflows, (unsigned long long)r->max_glide, m);
}

struct variant {
    const char *name;
    bulk_collatz_cuda_opts o;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* BULK_CZ_GPU_TEST = verify | delays runs only those cases (a device run's time cap); unset: all. */
static int skip_cases(const char *kind)
{
    const char *only = getenv("BULK_CZ_GPU_TEST");
    return only && *only && strcmp(only, kind) != 0;
}

/* kx > 0: an engine with a sieve extension (k stored bits + kx generated, collatz/sieve_ext.c):
 * blocks of level k + kx run k_uni's extension runs (d <= 16, n >= 2^(3d+2)) or the WALK layout
 * (else), whatever the options; every third variant and the uniform ones then. */
/* conv: the engine in convergence mode (bulk_collatz_engine_set_converge): k_uni skips the rows
 * a smaller number proves, other row kernels hand the range to the CPU (cpu_fallback). */
static void verify_case_m(bulk_ctx *cpu, int d, int k, int kx, u128 first, u128 last, int want_overflows, int conv)
{
    if (skip_cases("verify")) return;
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, cpu, d, k, 0);
    if (st == BULK_OK && conv) st = bulk_collatz_engine_set_converge(e);
    if (st == BULK_OK && kx) st = bulk_cz_build_extension(e, kx);
    CHECK(st == BULK_OK, "engine d=%d k=%d kx=%d: %d", d, k, kx, st);
    if (st) return;
    bulk_collatz_verify_result *ref = malloc(sizeof *ref), *got = malloc(sizeof *got);
    double t0 = now();
    st = bulk_collatz_verify(cpu, e, U(first), U(last), NULL, ref);
    double tcpu = now() - t0;
    CHECK(st == BULK_OK, "CPU verify: %d", st);
    char a[48], b[48];
    u128_str(U(first), a);
    u128_str(U(last), b);
    printf("verify d=%d k=%d%s%s [%s, %s]: CPU %.3f s, overflows %llu\n", d, k, kx ? " + extension" : "",
           conv ? " (convergence mode)" : "", a, b, tcpu, (unsigned long long)ref->overflows);
    if (want_overflows) CHECK(ref->overflows > 0, "this range should have overflows");
    struct variant vs[] = {
        { "auto", { 0 } },
        { "fast/shared", { .kernel = BULK_CZ_CUDA_KERNEL_FAST, .table_mem = BULK_CZ_CUDA_MEM_SHARED } },
        { "fast/global", { .kernel = BULK_CZ_CUDA_KERNEL_FAST, .table_mem = BULK_CZ_CUDA_MEM_GLOBAL } },
        { "core/global", { .kernel = BULK_CZ_CUDA_KERNEL_CORE, .table_mem = BULK_CZ_CUDA_MEM_GLOBAL } },
        { "core/shared", { .kernel = BULK_CZ_CUDA_KERNEL_CORE, .table_mem = BULK_CZ_CUDA_MEM_SHARED } },
        { "one device", { .devices = 1 } },
        { "streamed S, small launches", { .s_slice_entries = 1000, .launch_numbers = 1 << 16, .wave_numbers = 1 << 18 } },
        { "tiny escape buffer", { .escape_capacity = 2, .wave_numbers = 1 << 20 } },
        { "128 threads, 2 rows", { .threads_per_block = 128, .rows_per_thread = 2 } },
        /* FLAT_BATCH (where UNIFORM does not apply; record replays, incremental setup) */
        { "batch layout (refill 16)", { .verify_layout = BULK_CZ_CUDA_LAYOUT_FLAT_BATCH } },
        { "batch layout, refill 1", { .verify_layout = BULK_CZ_CUDA_LAYOUT_FLAT_BATCH, .refill_lanes = 1 } },
        { "batch layout, refill 32, global", { .verify_layout = BULK_CZ_CUDA_LAYOUT_FLAT_BATCH, .refill_lanes = 32, .table_mem = BULK_CZ_CUDA_MEM_GLOBAL } },
        { "batch, streamed S, tiny esc.", { .verify_layout = BULK_CZ_CUDA_LAYOUT_FLAT_BATCH, .s_slice_entries = 1000, .launch_numbers = 1 << 16, .wave_numbers = 1 << 18, .escape_capacity = 2 } },
        { "batch 12, shared, tiny esc.", { .verify_layout = BULK_CZ_CUDA_LAYOUT_FLAT_BATCH, .refill_lanes = 12, .table_mem = BULK_CZ_CUDA_MEM_SHARED, .escape_capacity = 2, .wave_numbers = 1 << 20, .launch_numbers = 1 << 16 } },
        { "batch, 512 threads", { .verify_layout = BULK_CZ_CUDA_LAYOUT_FLAT_BATCH, .threads_per_block = 512 } },
        { "uniform trips", { .verify_layout = BULK_CZ_CUDA_LAYOUT_UNIFORM } },
        { "uniform, streamed S, tiny esc.", { .verify_layout = BULK_CZ_CUDA_LAYOUT_UNIFORM, .s_slice_entries = 1000, .launch_numbers = 1 << 16, .wave_numbers = 1 << 18, .escape_capacity = 2 } },
        { "uniform, tiny esc.", { .verify_layout = BULK_CZ_CUDA_LAYOUT_UNIFORM, .escape_capacity = 2, .wave_numbers = 1 << 20 } },
        /* extension rows (kx > 0 only): the unsorted runs (the tuning cz.ext=unsorted, set below by
         * name; the form where the j-sorted S does not fit the device) beside the default
         * generated slices; generated slices of 777 entries */
        { "ext unsorted runs", { .verify_layout = BULK_CZ_CUDA_LAYOUT_UNIFORM } },
        { "ext gen, 777-entry slices", { .verify_layout = BULK_CZ_CUDA_LAYOUT_UNIFORM, .s_slice_entries = 777, .escape_capacity = 3, .wave_numbers = 1 << 20 } },
    };
    for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++) {
        if (!kx && !strncmp(vs[v].name, "ext ", 4)) continue;
        if (kx && v % 3 != 0 && vs[v].o.verify_layout != BULK_CZ_CUDA_LAYOUT_UNIFORM) continue;
        if (vs[v].o.kernel == BULK_CZ_CUDA_KERNEL_FAST && d > 20) continue;
        if (vs[v].o.table_mem == BULK_CZ_CUDA_MEM_SHARED && ((size_t)17 << d) > 200000) continue;
        /* the tuning first: it replaces the options too */
        CHECK(bulk_ctx_set_tune(cpu, strstr(vs[v].name, "ext unsorted") ? "cz.ext=unsorted" : NULL) == BULK_OK,
              "tune");
        CHECK(bulk_collatz_cuda_set_opts(cpu, &vs[v].o) == BULK_OK, "set opts");
        t0 = now();
        st = CZ_GPU->verify_chunk(cz_gpu_ctx, e, U(first), U(last), got);
        double tgpu = now() - t0;
        bulk_collatz_cuda_stats s;
        CZ_GPU->last_stats(cz_gpu_ctx, &s);
        CHECK(st == BULK_OK, "CUDA verify (%s): %d %s", vs[v].name, st, bulk_ctx_last_error(cz_gpu_ctx));
        if (st) continue;
        int ok = same(ref, got);
        CHECK(ok, "CUDA verify (%s) differs from the CPU on d=%d k=%d [%s, %s]", vs[v].name, d, k, a, b);
        if (!ok) {
            show("cpu ", ref);
            show("cuda", got);
        }
        printf("  %-28s %s  %.3f s on %d GPU(s), %llu launches, %llu escapes, %llu reruns%s\n",
               vs[v].name, ok ? "same" : "DIFFERENT", tgpu, s.devices,
               (unsigned long long)s.launches, (unsigned long long)s.escapes,
               (unsigned long long)s.reruns, s.cpu_fallback ? ", CPU fallback" : "");
    }
    bulk_ctx_set_tune(cpu, NULL);
    free(ref);
    free(got);
    bulk_collatz_engine_free(e);
}
static void verify_case_x(bulk_ctx *cpu, int d, int k, int kx, u128 first, u128 last, int want_overflows)
{
    verify_case_m(cpu, d, k, kx, first, last, want_overflows, 0);
}

/* A deep generated sieve (K = ks + kx up to 44) on whole level-K rows, too many numbers for the
 * CPU backend: the GPU's totals (covered, checksum, largest glide and its n, overflows) must
 * equal its own run of the stored ks-bit sieve alone (that one is compared with the CPU in the
 * cases above), and it must iterate exactly s_K numbers per row (s_K from the extension's
 * count, which test_collatz_engine checks against the sieve walk), for every extension form. */
static void verify_case_deep(bulk_ctx *cpu, int d, int ks, int kx, u128 first, int rows)
{
    if (skip_cases("verify")) return;
    bulk_collatz_engine *e0, *e;
    int st = bulk_collatz_engine_new(&e0, cpu, d, ks, 0);
    if (st == BULK_OK) st = bulk_collatz_engine_new(&e, cpu, d, ks, 0);
    if (st == BULK_OK) st = bulk_cz_build_extension(e, kx);
    CHECK(st == BULK_OK, "engines d=%d k=%d kx=%d: %d", d, ks, kx, st);
    if (st) return;
    const int K = ks + kx;
    const u128 a = first >> K << K, last = a + ((u128)rows << K) - 1;
    bulk_collatz_verify_result *ref = malloc(sizeof *ref), *got = malloc(sizeof *got);
    double t0 = now();
    st = CZ_GPU->verify_chunk(cz_gpu_ctx, e0, U(a), U(last), ref);
    double t1 = now();
    CHECK(st == BULK_OK, "CUDA verify of the stored k=%d: %d %s", ks, st, bulk_ctx_last_error(cz_gpu_ctx));
    printf("deep sieve d=%d K=%d (%d stored + %d) on %d rows of 2^%d: stored k=%d alone %.3f s\n", d, K, ks, kx,
           rows, K, ks, t1 - t0);
    static const char *forms[] = { "gen", "unsorted" };
    /* K > 40: only the generated slices (the unsorted runs need 3^j2 < 2^64) */
    for (int f = 0; f < (K > 40 ? 1 : 2) && st == BULK_OK; f++) {
        char tune[32];
        snprintf(tune, sizeof tune, "cz.ext=%s", forms[f]);
        CHECK(bulk_ctx_set_tune(cpu, tune) == BULK_OK, "tune %s", tune);
        t0 = now();
        int sg = CZ_GPU->verify_chunk(cz_gpu_ctx, e, U(a), U(last), got);
        double tg = now() - t0;
        bulk_ctx_set_tune(cpu, NULL);
        CHECK(sg == BULK_OK, "CUDA verify K=%d (%s): %d %s", K, forms[f], sg, bulk_ctx_last_error(cz_gpu_ctx));
        if (sg) continue;
        const u128 it = (u128)got->iterated.hi << 64 | got->iterated.lo;
        int ok = !memcmp(&ref->covered, &got->covered, sizeof got->covered) &&
                 !memcmp(&ref->checksum, &got->checksum, sizeof got->checksum) && ref->max_glide == got->max_glide &&
                 !memcmp(&ref->max_glide_n, &got->max_glide_n, sizeof got->max_glide_n) &&
                 ref->overflows == got->overflows && it == (u128)rows * e->s_kx;
        CHECK(ok, "K=%d (%s): totals differ from the stored k=%d, or iterated != %d s_K", K, forms[f], ks, rows);
        if (!ok) {
            show("stored", ref);
            show("K     ", got);
        }
        printf("  %-28s %s  %.3f s (%.3g numbers/s), iterated = %d s_%d\n", forms[f], ok ? "same" : "DIFFERENT", tg,
               (double)((u128)rows << K) / tg, rows, K);
    }
    free(ref);
    free(got);
    bulk_collatz_engine_free(e0);
    bulk_collatz_engine_free(e);
}

static void verify_case(bulk_ctx *cpu, int d, int k, u128 first, u128 last, int want_overflows)
{
    verify_case_x(cpu, d, k, 0, first, last, want_overflows);
}

static void delays_case(bulk_ctx *cpu, int d, int a, u128 first, uint64_t count)
{
    if (skip_cases("delays")) return;
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, cpu, d, 8, a);
    CHECK(st == BULK_OK, "engine d=%d a=%d: %d", d, a, st);
    if (st) return;
    uint32_t *ref = malloc(count * 4), *got = malloc(count * 4);
    double t0 = now();
    st = bulk_collatz_delays(cpu, e, U(first), count, ref);
    double tcpu = now() - t0;
    CHECK(st == BULK_OK, "CPU delays: %d", st);
    char s1[48];
    u128_str(U(first), s1);
    printf("delays d=%d a=%d from %s, %llu numbers: CPU %.3f s\n", d, a, s1,
           (unsigned long long)count, tcpu);
    struct variant vs[] = {
        { "auto", { 0 } },
        { "fast/global", { .kernel = BULK_CZ_CUDA_KERNEL_FAST, .table_mem = BULK_CZ_CUDA_MEM_GLOBAL } },
        { "core/shared", { .kernel = BULK_CZ_CUDA_KERNEL_CORE, .table_mem = BULK_CZ_CUDA_MEM_SHARED } },
        { "one device, small launches", { .devices = 1, .launch_numbers = 100000 } },
        { "tiny escape buffer", { .escape_capacity = 1 } },
        { "delay loop v3", { .delay_loop = BULK_CZ_CUDA_DELAY_V3 } },
        { "v4x2, 4 steps, shared tables", { .delay_loop = BULK_CZ_CUDA_DELAY_V4X2, .delay_unroll = 4, .table_mem = BULK_CZ_CUDA_MEM_SHARED } },
        { "v4x2, 512 threads, 8 steps", { .delay_loop = BULK_CZ_CUDA_DELAY_V4X2, .threads_per_block = 512, .delay_unroll = 8 } },
        { "v4x2, small launches", { .delay_loop = BULK_CZ_CUDA_DELAY_V4X2, .launch_numbers = 300000 } },
        { "delay loop v4x2", { .delay_loop = BULK_CZ_CUDA_DELAY_V4X2 } },
        { "v4x2/global, tiny escapes", { .delay_loop = BULK_CZ_CUDA_DELAY_V4X2, .table_mem = BULK_CZ_CUDA_MEM_GLOBAL,
                                         .escape_capacity = 1, .launch_numbers = 100000 } },
        { "delay loop v5", { .delay_loop = BULK_CZ_CUDA_DELAY_V5 } },
        { "v5, 4 steps, global", { .delay_loop = BULK_CZ_CUDA_DELAY_V5, .delay_unroll = 4, .table_mem = BULK_CZ_CUDA_MEM_GLOBAL } },
        { "v5, 512 threads", { .delay_loop = BULK_CZ_CUDA_DELAY_V5, .threads_per_block = 512 } },
        { "v5, 4 steps, tiny escapes", { .delay_loop = BULK_CZ_CUDA_DELAY_V5, .delay_unroll = 4, .escape_capacity = 1,
                                         .launch_numbers = 100000 } },
    };
    for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++) {
        CHECK(bulk_collatz_cuda_set_opts(cpu, &vs[v].o) == BULK_OK, "set opts");
        memset(got, 0xa5, count * 4); /* poison: every element must be written */
        t0 = now();
        st = CZ_GPU->delays(cz_gpu_ctx, e, U(first), count, got, NULL, 0);
        double tgpu = now() - t0;
        CHECK(st == BULK_OK, "CUDA delays (%s): %d %s", vs[v].name, st, bulk_ctx_last_error(cz_gpu_ctx));
        uint64_t bad = 0;
        for (uint64_t i = 0; i < count; i++) bad += got[i] != ref[i];
        CHECK(bad == 0, "CUDA delays (%s): %llu of %llu differ", vs[v].name,
              (unsigned long long)bad, (unsigned long long)count);
        bulk_collatz_cuda_stats s;
        CZ_GPU->last_stats(cz_gpu_ctx, &s);
        printf("  %-28s %s  %.3f s, %llu escapes\n", vs[v].name, bad ? "DIFFERENT" : "same", tgpu,
               (unsigned long long)s.escapes);
    }
    /* batch statistics: v4x2 a warp per piece (1024, 100, 37; 20000 = 3 pieces merged by atomics,
     * the last piece short), v3 a block per batch (1024) and a thread per batch (100, 37) */
    uint64_t batches[] = { 1024, 100, 37, 20000, 16 };
    for (size_t bi = 0; bi < sizeof batches / sizeof batches[0]; bi++) {
        uint64_t batch = batches[bi], nb = count / batch;
        uint64_t *rs = malloc(nb * 8), *gs = malloc(nb * 8);
        uint32_t *rmn = malloc(nb * 4), *rmx = malloc(nb * 4), *gmn = malloc(nb * 4), *gmx = malloc(nb * 4);
        st = bulk_collatz_delay_stats(cpu, e, U(first), batch, nb, rs, rmn, rmx);
        CHECK(st == BULK_OK, "CPU stats: %d", st);
        for (int v = 0; v < 6; v++) {
            bulk_collatz_cuda_opts o = { 0 };
            if (v & 1) o.escape_capacity = 1, o.launch_numbers = 50000;
            if (v == 2) o.delay_loop = BULK_CZ_CUDA_DELAY_V3;
            if (v == 3) o.delay_loop = BULK_CZ_CUDA_DELAY_V4X2, o.threads_per_block = 512;
            if (v == 4) o.delay_loop = BULK_CZ_CUDA_DELAY_V5;
            if (v == 5) o.delay_loop = BULK_CZ_CUDA_DELAY_V5, o.delay_unroll = 4;
            bulk_collatz_cuda_set_opts(cpu, &o);
            memset(gs, 0xa5, nb * 8);
            st = CZ_GPU->delay_stats(cz_gpu_ctx, e, U(first), batch, nb, gs, gmn, gmx, NULL, 0);
            CHECK(st == BULK_OK, "CUDA stats: %d %s", st, bulk_ctx_last_error(cz_gpu_ctx));
            uint64_t bad = 0;
            for (uint64_t i = 0; i < nb; i++) bad += gs[i] != rs[i] || gmn[i] != rmn[i] || gmx[i] != rmx[i];
            CHECK(bad == 0, "CUDA stats batch %llu (variant %d): %llu batches differ",
                  (unsigned long long)batch, v, (unsigned long long)bad);
            printf("  stats batch %-5llu variant %d %s\n", (unsigned long long)batch, v, bad ? "DIFFERENT" : "same");
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

static void records_case(bulk_ctx *cpu, u128 first, u128 last)
{
    if (skip_cases("delays")) return;
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, cpu, 12, 8, 22);
    CHECK(st == BULK_OK, "engine: %d", st);
    if (st) return;
    bulk_collatz_record *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    st = bulk_collatz_records(cpu, e, BULK_COLLATZ_DELAY, U(first), U(last), &a, &na);
    CHECK(st == BULK_OK, "CPU records: %d", st);
    st = CZ_GPU->records(cz_gpu_ctx, e, BULK_COLLATZ_DELAY, U(first), U(last), &b, &nb, NULL, 0);
    CHECK(st == BULK_OK, "CUDA records: %d %s", st, bulk_ctx_last_error(cz_gpu_ctx));
    int ok = na == nb && (na == 0 || !memcmp(a, b, na * sizeof *a));
    CHECK(ok, "CUDA delay records differ: %zu vs %zu records", na, nb);
    printf("delay records, %zu of them: %s\n", na, ok ? "same" : "DIFFERENT");
    CHECK(CZ_GPU->records(cz_gpu_ctx, e, BULK_COLLATZ_GLIDE, U(first), U(last), &b, &nb, NULL, 0) == BULK_ERR_UNSUPPORTED,
          "glide records are the CPU's");
    free(a);
    free(b);
    bulk_collatz_engine_free(e);
}

/* The V5 delay loops (cg_delay5.h) at d where the other loops' variants do not all apply (d = 15:
 * V5's entries fill 128 KB of shared memory; d = 17: V5's largest d, entries in global memory). */
static void delays5_case(bulk_ctx *cpu, int d, int a, u128 first, uint64_t count, uint64_t batch)
{
    if (skip_cases("delays")) return;
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, cpu, d, 8, a);
    CHECK(st == BULK_OK, "engine d=%d a=%d: %d", d, a, st);
    if (st) return;
    const uint64_t nb = count / batch;
    uint32_t *ref = malloc(count * 4), *got = malloc(count * 4);
    uint64_t *rs = malloc(nb * 8), *gs = malloc(nb * 8);
    uint32_t *rmn = malloc(nb * 4), *rmx = malloc(nb * 4), *gmn = malloc(nb * 4), *gmx = malloc(nb * 4);
    st = bulk_collatz_delays(cpu, e, U(first), count, ref);
    CHECK(st == BULK_OK, "CPU delays: %d", st);
    st = bulk_collatz_delay_stats(cpu, e, U(first), batch, nb, rs, rmn, rmx);
    CHECK(st == BULK_OK, "CPU stats: %d", st);
    char s1[48];
    u128_str(U(first), s1);
    printf("delays (v5) d=%d a=%d from %s, %llu numbers, batch %llu\n", d, a, s1, (unsigned long long)count,
           (unsigned long long)batch);
    struct variant vs[] = {
        { "v5", { .delay_loop = BULK_CZ_CUDA_DELAY_V5 } },
        { "v5, 4 steps, global", { .delay_loop = BULK_CZ_CUDA_DELAY_V5, .delay_unroll = 4, .table_mem = BULK_CZ_CUDA_MEM_GLOBAL } },
        { "v5, 4 steps, tiny escapes", { .delay_loop = BULK_CZ_CUDA_DELAY_V5, .delay_unroll = 4, .escape_capacity = 1 } },
        { "v5, 8 steps, small launches", { .delay_loop = BULK_CZ_CUDA_DELAY_V5, .delay_unroll = 8, .launch_numbers = 100000 } },
        { "auto", { 0 } },
    };
    for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++) {
        CHECK(bulk_collatz_cuda_set_opts(cpu, &vs[v].o) == BULK_OK, "set opts");
        memset(got, 0xa5, count * 4);
        st = CZ_GPU->delays(cz_gpu_ctx, e, U(first), count, got, NULL, 0);
        CHECK(st == BULK_OK, "CUDA delays (%s): %d %s", vs[v].name, st, bulk_ctx_last_error(cz_gpu_ctx));
        uint64_t bad = 0, sbad = 0;
        for (uint64_t i = 0; i < count; i++) bad += got[i] != ref[i];
        memset(gs, 0xa5, nb * 8);
        st = CZ_GPU->delay_stats(cz_gpu_ctx, e, U(first), batch, nb, gs, gmn, gmx, NULL, 0);
        CHECK(st == BULK_OK, "CUDA stats (%s): %d %s", vs[v].name, st, bulk_ctx_last_error(cz_gpu_ctx));
        for (uint64_t i = 0; i < nb; i++) sbad += gs[i] != rs[i] || gmn[i] != rmn[i] || gmx[i] != rmx[i];
        CHECK(bad == 0 && sbad == 0, "CUDA delays (%s): %llu numbers, %llu batches differ", vs[v].name,
              (unsigned long long)bad, (unsigned long long)sbad);
        bulk_collatz_cuda_stats s;
        CZ_GPU->last_stats(cz_gpu_ctx, &s);
        printf("  %-30s delays and stats %s, loop %d, %s tables, %llu escapes\n", vs[v].name,
               bad || sbad ? "DIFFERENT" : "same", s.delay_loop, s.table_mem == BULK_CZ_CUDA_MEM_SHARED ? "shared" : "global",
               (unsigned long long)s.escapes);
    }
    bulk_ctx_set_tune(cpu, NULL);
    free(ref);
    free(got);
    free(rs);
    free(gs);
    free(rmn);
    free(rmx);
    free(gmn);
    free(gmx);
    bulk_collatz_engine_free(e);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), rs = seed;
    int skip = cz_gpu_open("the CUDA Collatz backend was");
    if (skip) return skip; /* 77: ctest SKIP_RETURN_CODE */
    bulk_ctx *cpu;
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) {
        fprintf(stderr, "cannot open a CPU context\n");
        return 1;
    }
    printf("%d CUDA device(s), %d CPU threads\n", bulk_cuda_device_count(), bulk_ctx_threads(cpu));
    const u128 two64 = (u128)1 << 64, two68 = (u128)1 << 68, top = ~(u128)0;
    u128 j1 = test_rand(&rs) % 100000, j2 = test_rand(&rs) % 100000;
    /* unaligned ends around 2^64: WALK pieces on both sides, ROWS between */
    verify_case(cpu, 12, 20, two64 - ((u128)1 << 29) + j1, two64 + ((u128)1 << 29) + j2, 0);
    /* many rows per entry: the ROWS layout (a block per entry, threads over rows) */
    verify_case(cpu, 12, 12, two68 + j2, two68 + ((u128)1 << 30) + j1, 0);
    /* near 2^68 with a larger sieve (few rows per entry: the ENTRY layout) */
    verify_case(cpu, 16, 24, two68 + j1, two68 + ((u128)1 << 31) + j2, 0);
    /* from 1: the number 1 and blocks of every level */
    verify_case(cpu, 12, 20, 1, ((u128)1 << 26) + j1, 0);
    /* the smallest n whose trajectory passes 2^64, few rows per entry (ENTRY layout) */
    verify_case(cpu, 8, 10, 12327829503ull - 5000, 12327829503ull + 20000, 0);
    /* trajectories beyond 2^128: escapes to the exact path (short ranges: every iterated
     * number there escapes, and the host's exact path takes microseconds each) */
    verify_case(cpu, 10, 16, top - ((u128)1 << 20), top, 1);
    verify_case(cpu, 14, 18, ((u128)1 << 127) + j1, ((u128)1 << 127) + ((u128)1 << 20), 0);
    /* d > 20: only the core kernel */
    verify_case(cpu, 22, 16, two64 + j1, two64 + ((u128)1 << 24), 0);
    /* sieve extensions: near 2^68 and across 2^64 (k_uni extension runs), near 2^128 (escapes
     * redone from the level-k state, overflows), d > 16 and small n (WALK over the K bits) */
    verify_case_x(cpu, 12, 16, 4, two68 + j1, two68 + ((u128)1 << 28) + j2, 0);
    verify_case_x(cpu, 12, 12, 8, two68 + j2, two68 + ((u128)1 << 26) + j1, 0); /* a longer extension (kx = 8) */
    verify_case_x(cpu, 10, 14, 6, two64 - ((u128)1 << 27) + j2, two64 + ((u128)1 << 27) + j1, 0);
    verify_case_x(cpu, 10, 12, 4, top - ((u128)1 << 20), top, 1);
    verify_case_x(cpu, 20, 12, 3, two68 + j2, two68 + ((u128)1 << 22) + j1, 0);
    verify_case_x(cpu, 12, 10, 4, 1, ((u128)1 << 22) + j1, 0);
    /* generated levels up to K = 40 (and 16 of them) on whole rows, GPU only (see above) */
    verify_case_x(cpu, 12, 8, 16, two68 + j2, two68 + ((u128)1 << 26) + j1, 0);
    verify_case_deep(cpu, 12, 24, 16, two68 + ((u128)j1 << 41), 2);
    verify_case_deep(cpu, 12, 28, 12, two68 + ((u128)j2 << 41), 1);
    /* K = 44: the classes with more than 40 odd steps escape to the host */
    verify_case_deep(cpu, 12, 28, 16, two68 + ((u128)j1 << 45), 1);
    /* convergence mode: rows (around 2^64, ragged ends), extension runs, generated
     * slices, escapes near 2^128, and from 1 (small n: the CPU fallback) */
    verify_case_m(cpu, 12, 20, 0, two64 - ((u128)1 << 29) + j1, two64 + ((u128)1 << 29) + j2, 0, 1);
    verify_case_m(cpu, 12, 16, 4, two68 + j1, two68 + ((u128)1 << 28) + j2, 0, 1);
    verify_case_m(cpu, 12, 12, 8, two68 + j2, two68 + ((u128)1 << 26) + j1, 0, 1);
    verify_case_m(cpu, 10, 14, 4, top - ((u128)1 << 20), top, 1, 1);
    verify_case_m(cpu, 12, 8, 16, two68 + j2, two68 + ((u128)1 << 26) + j1, 0, 1);
    verify_case_m(cpu, 12, 14, 4, 1, ((u128)1 << 22) + j1, 0, 1);
    /* delays and batch statistics */
    delays_case(cpu, 12, 24, two64 - 1000000 + j1, 1 << 22);
    delays_case(cpu, 10, 20, two68 + j2, 1 << 21);
    delays_case(cpu, 9, 16, top - (1 << 14), 1 << 14); /* escapes: every number there */
    delays_case(cpu, 12, 22, 1, 1 << 22);
    delays5_case(cpu, 15, 24, two64 + j2, 1 << 22, 1 << 20);
    delays5_case(cpu, 17, 22, two68 - j1, 1 << 21, 1000);
    delays5_case(cpu, 14, 20, ((u128)1 << 96) - (1 << 16), 1 << 16, 4096); /* the three-limb guard */
    delays5_case(cpu, 13, 13, 1, 1 << 20, 64);                           /* falls to <= 4 in a round */
    delays5_case(cpu, 14, 24, ((u128)1 << 94) - (1 << 15) - j1, 1 << 16, 1024); /* the lean round end's feed limit */
    /* delay records: from 1 (the true records), and a range near 2^64 with a partial batch */
    records_case(cpu, 1, ((u128)1 << 24) + 12345);
    records_case(cpu, two64 + j1, two64 + ((u128)1 << 22) + j2);
    bulk_ctx_close(cpu);
    cz_gpu_close();
    return test_finish();
}
