/* Benchmark of pre-drop peaks in GPU verify and of the records runs built on it (targets: verify
 * with peaks within 15% of the rate without them; path records at 1e13 numbers/s near 2^68 on
 * 2^48; glide records at the full-glide verify rate): `bulk collatz verify` runs
 * (bulk_collatz_verify with the CLI's engine choice, bulk_collatz_choose) on a CUDA context,
 * convergence mode near 2^68 and full glides near 2^68, each without peaks, with peaks, and with
 * peaks and hits above a large value (the peak of the last path record below the range stands
 * for it: 2^140, above every peak of these ranges), alternating, best of --reps; then, as
 * `bulk collatz records` runs them, path records of the convergence range above 2^128 (published
 * path records below 2^68 already peak above 2^128) and glide records of the full-glide range
 * (a window: its first numbers on the CPU threads, then the GPU verify listing the numbers whose
 * glide beats the running maximum, with the records relative to the window's start). Prints a table (rate, ratio to verify without peaks, the last GPU
 * call's escapes and host seconds) and writes it to --out. The peaks and hits of the runs with
 * peaks must agree with each other.
 *
 * Usage: bench_collatz_gpu_peaks [--out FILE] [--reps N] [--conv-bits B] [--glide-bits B]
 * (defaults 2, 48, 44; the rows are 50 and 46). Without a CUDA device it says so and
 * exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/context.h"
#include "collatz/collatz_backend.h"
#include "collatz/cuda/collatz_cuda.h"

#include "../bench_util.h"

typedef unsigned __int128 u128;

static bulk_u128 U(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

/* verify's engine without peaks, with peaks, with peaks and hits above 2^140 */
static bulk_collatz_engine *engine(bulk_ctx *ctx, u128 first, u128 last, int conv, int peaks, int above)
{
    bulk_collatz_params p = { -1, -1, -1 };
    if (bulk_collatz_choose(ctx, U(first), U(last), conv, &p) != BULK_OK) return NULL;
    bulk_collatz_engine *e = NULL;
    if (bulk_collatz_engine_new(&e, ctx, p.d, p.k_stored, 0) != BULK_OK) return NULL;
    if (conv) bulk_collatz_engine_set_converge(e);
    if (p.k > p.k_stored) bulk_collatz_engine_extend(e, p.k - p.k_stored);
    const bulk_collatz_wide v = { { 0, 0, (uint64_t)1 << 12, 0 } }; /* 2^140 */
    if (peaks) bulk_collatz_engine_set_peaks(e, above ? &v : NULL);
    return e;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    int reps = 2, cbits = 48, gbits = 44;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--conv-bits") && i + 1 < argc) cbits = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--glide-bits") && i + 1 < argc) gbits = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_collatz_gpu_peaks [--out FILE] [--reps N] [--conv-bits B] [--glide-bits B]\n");
            return !!strcmp(argv[i], "--help");
        }
    }
    if (bulk_cuda_device_count() == 0) {
        printf("no CUDA device: nothing to measure\n");
        return 0;
    }
    bulk_ctx *ctx = NULL;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CUDA, 0) != BULK_OK) {
        fprintf(stderr, "cannot open a CUDA context: %s\n", bulk_ctx_last_error(NULL));
        return 1;
    }
    FILE *f = out ? fopen(out, "w") : NULL;
    char line[256];
    snprintf(line, sizeof line, "%-34s %-16s %12s %10s %8s %10s %9s\n", "range", "peaks", "numbers/s", "seconds",
             "vs none", "escapes", "host s");
    fputs(line, stdout);
    if (f) fputs(line, f);
    const char *pk_name[4] = { "none", "peaks", "peaks, hits>2^140", "" };
    int bad = 0;
    for (int conv = 1; conv >= 0; conv--) {
        const int bits = conv ? cbits : gbits;
        const u128 first = (u128)1 << 68, last = first + ((u128)1 << bits) - 1;
        double best[4] = { 0, 0, 0, 0 };
        bulk_collatz_cuda_stats st[4];
        bulk_collatz_verify_result r[3];
        size_t nrec = 0;
        memset(st, 0, sizeof st);
        for (int rep = 0; rep < reps; rep++)
            for (int m = 0; m < 4; m++) {
                /* the records rows: the engine of `bulk collatz records` */
                bulk_collatz_engine *e = NULL;
                if (m < 3) e = engine(ctx, first, last, conv, m == 1 || m == 2, m == 2);
                else if (bulk_collatz_records_engine(ctx, conv ? BULK_COLLATZ_PATH : BULK_COLLATZ_GLIDE, U(first), U(first),
                                                     U(last), conv, -1, -1, -1, &e) != BULK_OK)
                    e = NULL;
                if (!e) {
                    fprintf(stderr, "engine: %s\n", bulk_ctx_last_error(ctx));
                    return 1;
                }
                const double t0 = bench_now();
                int s;
                if (m < 3) {
                    s = bulk_collatz_verify(ctx, e, U(first), U(last), NULL, &r[m]);
                } else {
                    const bulk_collatz_wide v = { { 0, 0, 1, 0 } }; /* 2^128 */
                    bulk_collatz_record *recs = NULL;
                    s = conv ? bulk_collatz_path_records_run(ctx, e, U(first), U(last), &v, NULL, &recs, &nrec)
                             : bulk_collatz_records_run(ctx, e, BULK_COLLATZ_GLIDE, U(first), U(last), NULL, &recs, &nrec);
                    free(recs);
                }
                if (s != BULK_OK) {
                    fprintf(stderr, "%s: %s\n", m < 3 ? "verify" : "records", bulk_ctx_last_error(ctx));
                    return 1;
                }
                const double dt = bench_now() - t0;
                if (!best[m] || dt < best[m]) {
                    best[m] = dt;
                    ctx->gpu->collatz->last_stats(ctx, &st[m]);
                }
                bulk_collatz_engine_free(e);
            }
        bad += memcmp(&r[1].peak, &r[2].peak, sizeof r[1].peak) || memcmp(&r[1].peak_n, &r[2].peak_n, sizeof r[1].peak_n) ||
               r[2].n_peak_hits != 0;
        pk_name[3] = conv ? "path records" : "glide records";
        for (int m = 0; m < 4; m++) {
            char name[64];
            snprintf(name, sizeof name, "%s 2^68 + 2^%d", conv ? "converge" : "full glides", bits);
            if (m == 3)
                snprintf(name, sizeof name, "%s 2^68 + 2^%d (%zu)", conv ? "records >2^128" : "records", bits, nrec);
            const double rate = (double)((u128)1 << bits) / best[m];
            snprintf(line, sizeof line, "%-34s %-16s %12.4g %10.3f %8.3f %10llu %9.3f\n", name, pk_name[m], rate, best[m],
                     best[0] / best[m], (unsigned long long)st[m].escapes, st[m].escape_seconds + st[m].tail_seconds);
            fputs(line, stdout);
            if (f) fputs(line, f);
        }
    }
    if (f) fclose(f);
    bulk_ctx_close(ctx);
    if (bad) fprintf(stderr, "the runs with peaks disagree\n");
    return bad != 0;
}
