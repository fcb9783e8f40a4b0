/* Distributed Collatz runs (dist.h, docs/scale-out.md): verify, delays --stats and records cut
 * into chunks that rank 0 hands out; results merged in chunk order, printed as the one-process
 * commands print them (verify --json output is accepted by `bulk collatz merge`).
 *
 * Chunks: [first + i*C, first + (i+1)*C) ∩ range, C from --chunk or a default that depends only
 * on the range (never on the rank count), so a run restarted with another -np reuses its
 * checkpoint. Merging: verify results add up (bulk_collatz_verify_result_merge, in order);
 * statistics batches concatenate (a chunk is a whole number of batches); a chunk of records runs
 * as a part of the whole range (bulk_collatz_records_part_run: path records decide by the
 * range's first number, so chunks far from it run on the pre-drop engine), and its list is kept
 * where it beats the maximum kept from chunks 0..j-1, which leaves exactly the records of the
 * range. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bulk/collatz.h"
#include "bulk/int.h"
#include "collatz_cli.h"
#include "collatz_plot.h"
#include "atomic_file.h"
#include "progress_line.h"
#include "dist.h"
#include "dist_comm.h"
#include "pictures/png.h"

typedef unsigned __int128 u128;

static u128 U(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static bulk_u128 B(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

enum job_kind { J_VERIFY, J_STATS, J_RECORDS };

struct cz_job {
    enum job_kind kind;
    bulk_ctx *ctx;
    bulk_collatz_engine *e;
    u128 first, last; /* inclusive */
    u128 chunk;       /* numbers per chunk */
    uint64_t batch;   /* J_STATS */
    bulk_collatz_kind rkind;
    const bulk_collatz_wide *above; /* J_RECORDS, path: --above (NULL: none) */
};

/* ---- text payloads ---- */

struct sbuf {
    char *p;
    size_t n, cap;
};
static void sb_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (b->p && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        size_t nc = b->cap * 2 + (size_t)k + 256;
        char *q = realloc(b->p, nc);
        if (!q) cli_die(CLI_EXIT_FAIL, "out of memory");
        b->p = q;
        b->cap = nc;
    }
}

static int run_chunk(dist_job *job, uint64_t i, char **out, size_t *len)
{
    struct cz_job *j = job->state;
    u128 a = j->first + (u128)i * j->chunk, b = a + j->chunk - 1;
    if (b > j->last || b < a) b = j->last;
    struct sbuf sb = { 0 };
    char s0[48], s1[48];
    int st;
    if (j->kind == J_VERIFY) {
        bulk_collatz_verify_result *r = malloc(sizeof *r);
        if (!r) return BULK_ERR_NOMEM;
        bulk_collatz_run_opts opts = { NULL, job->identity, 0, 0 };
        st = bulk_collatz_verify(j->ctx, j->e, B(a), B(b), &opts, r);
        if (st == BULK_OK) {
            czcli_u128_text(r->covered, s0);
            czcli_u128_text(r->iterated, s1);
            sb_add(&sb, "covered %s\niterated %s\n", s0, s1);
            czcli_u128_text(r->checksum, s0);
            czcli_u128_text(r->max_glide_n, s1);
            sb_add(&sb, "checksum %s\noverflows %" PRIu64 "\nmax_glide %" PRIu64 " %s\nvalues %u",
                   s0, r->overflows, r->max_glide, s1, r->n_overflow_values);
            for (uint32_t k = 0; k < r->n_overflow_values; k++) {
                czcli_u128_text(r->overflow_values[k], s0);
                sb_add(&sb, " %s", s0);
            }
            /* pre-drop peaks: peak V N, then the hits (n value pairs) */
            char w[80];
            czcli_wide_text(&r->peak, w);
            czcli_u128_text(r->peak_n, s0);
            sb_add(&sb, "\npeak %s %s %u %u", w, s0, r->peak_hits_lost, r->n_peak_hits);
            for (uint32_t k = 0; k < r->n_peak_hits; k++) {
                czcli_u128_text(r->peak_hits[k].n, s0);
                czcli_wide_text(&r->peak_hits[k].value, w);
                sb_add(&sb, " %s %s", s0, w);
            }
            sb_add(&sb, "\n");
        }
        free(r);
    } else if (j->kind == J_STATS) {
        uint64_t nb = (uint64_t)((b - a + 1) / j->batch);
        uint64_t *sum = malloc(nb * sizeof *sum);
        uint32_t *mn = malloc(nb * sizeof *mn), *mx = malloc(nb * sizeof *mx);
        if (!sum || !mn || !mx) st = BULK_ERR_NOMEM;
        else st = bulk_collatz_delay_stats(j->ctx, j->e, B(a), j->batch, nb, sum, mn, mx);
        if (st == BULK_OK)
            for (uint64_t k = 0; k < nb; k++)
                sb_add(&sb, "%" PRIu64 " %u %u\n", sum[k], mn[k], mx[k]);
        free(sum);
        free(mn);
        free(mx);
    } else {
        bulk_collatz_record *recs = NULL;
        size_t n = 0;
        st = bulk_collatz_records_part_run(j->ctx, j->e, j->rkind, B(j->first), B(a), B(b), j->above, NULL, &recs, &n);
        if (st == BULK_OK) {
            sb_add(&sb, "records %zu\n", n);
            for (size_t k = 0; k < n; k++) {
                czcli_u128_text(recs[k].n, s0);
                char sv[80];
                czcli_wide_text(&recs[k].value, sv);
                sb_add(&sb, "%s %s\n", s0, sv);
            }
        }
        free(recs);
    }
    if (st != BULK_OK) {
        free(sb.p);
        return st;
    }
    if (!sb.p) sb_add(&sb, "%s", "");
    *out = sb.p;
    *len = sb.n;
    return BULK_OK;
}

/* ---- merging (rank 0) ---- */

static void bad_payload(uint64_t i) __attribute__((noreturn));
static void bad_payload(uint64_t i)
{
    cli_die(CLI_EXIT_FAIL, "chunk %" PRIu64 ": malformed result (a bug or a damaged message)", i);
}

static u128 parse_u128_tok(char **p, uint64_t i)
{
    while (**p == ' ' || **p == '\n') (*p)++;
    char tok[48];
    size_t n = strcspn(*p, " \n");
    if (n == 0 || n >= sizeof tok) bad_payload(i);
    memcpy(tok, *p, n);
    tok[n] = 0;
    *p += n;
    bulk_u128 v;
    if (czcli_u128_parse(tok, &v)) bad_payload(i);
    return U(v);
}

/* a decimal value below 2^256 */
static void parse_wide_tok(char **p, uint64_t i, bulk_collatz_wide *w)
{
    while (**p == ' ' || **p == '\n') (*p)++;
    char tok[96];
    size_t n = strcspn(*p, " \n");
    if (n == 0 || n >= sizeof tok) bad_payload(i);
    memcpy(tok, *p, n);
    tok[n] = 0;
    *p += n;
    if (bulk_int_from_str(w->limb, tok, BULK_COLLATZ_WIDE_LIMBS, 10, NULL) != BULK_OK) bad_payload(i);
}

static void expect(char **p, const char *word, uint64_t i)
{
    while (**p == ' ' || **p == '\n') (*p)++;
    size_t n = strlen(word);
    if (strncmp(*p, word, n)) bad_payload(i);
    *p += n;
}

static void parse_verify(char *p, uint64_t i, bulk_collatz_verify_result *r)
{
    bulk_collatz_verify_result_init(r);
    expect(&p, "covered", i);
    r->covered = B(parse_u128_tok(&p, i));
    expect(&p, "iterated", i);
    r->iterated = B(parse_u128_tok(&p, i));
    expect(&p, "checksum", i);
    r->checksum = B(parse_u128_tok(&p, i));
    expect(&p, "overflows", i);
    r->overflows = (uint64_t)parse_u128_tok(&p, i);
    expect(&p, "max_glide", i);
    r->max_glide = (uint64_t)parse_u128_tok(&p, i);
    r->max_glide_n = B(parse_u128_tok(&p, i));
    expect(&p, "values", i);
    u128 nv = parse_u128_tok(&p, i);
    if (nv > BULK_COLLATZ_OVERFLOW_KEEP) bad_payload(i);
    r->n_overflow_values = (uint32_t)nv;
    for (uint32_t k = 0; k < r->n_overflow_values; k++)
        r->overflow_values[k] = B(parse_u128_tok(&p, i));
    expect(&p, "peak", i);
    parse_wide_tok(&p, i, &r->peak);
    r->peak_n = B(parse_u128_tok(&p, i));
    u128 lost = parse_u128_tok(&p, i), nh = parse_u128_tok(&p, i);
    if (lost > UINT32_MAX || nh > BULK_COLLATZ_PEAK_KEEP) bad_payload(i);
    r->peak_hits_lost = (uint32_t)lost;
    r->n_peak_hits = (uint32_t)nh;
    for (uint32_t k = 0; k < r->n_peak_hits; k++) {
        r->peak_hits[k].n = B(parse_u128_tok(&p, i));
        parse_wide_tok(&p, i, &r->peak_hits[k].value);
    }
}

/* ---- the CLI ---- */

static const char usage[] =
    "usage: mpirun -np N bulk collatz verify|delays|records ... [distributed options]\n"
    "       bulk dist collatz verify|delays|records ...   (the same, also without mpirun)\n"
    "\n"
    "The work is cut into chunks that rank 0 hands out on demand (faster ranks take more); one\n"
    "GPU per rank by local rank where GPUs are present, else the CPUs of the host shared by its\n"
    "ranks. Output as the one-process command (verify --json is accepted by `collatz merge`).\n"
    "\n"
    "  verify --from A --to B [--d D] [--k K] [--json] [--converge] [--peaks]\n"
    "         [--peak-above V]   (collatz verify --help; peaks and hits merge over the chunks;\n"
    "         computed only when asked for: each chunk starts its threshold afresh, on a GPU\n"
    "         from a CPU sample of 2^28 numbers)\n"
    "  delays --from A --to B --stats BATCH [--out FILE] [--png FILE] [--d D] [--a A]\n"
    "  records --kind delay|glide|path --from A --to B [--d D] [--a A] [--json]\n"
    "         [--k K] [--above V]   (collatz records --help; the chunks run as parts of the\n"
    "         range, so path records far from A run on the pre-drop engine)\n"
    "\n"
    "distributed options:\n"
    "  --checkpoint DIR       one file per finished chunk (written atomically, with the run's\n"
    "                         parameters); rerun the same command to compute only missing chunks\n"
    "  --chunk C              numbers per chunk (default: the range / 4096, at least 2^20; for\n"
    "                         delays a multiple of BATCH). Part of the run's identity\n"
    "  --verify-chunks F      recompute a random fraction F of the chunks on a different rank\n"
    "                         and compare (exit 1 on a difference)\n"
    "  --seed S               choice of those chunks (default: from the clock, printed)\n"
    "  --threads N            CPU threads per rank; 0 or absent: BULK_THREADS when set and\n"
    "                         not 0, else the host's online CPUs divided among its ranks\n"
    "  --backend cpu|cuda|auto  (default auto; BULK_BACKEND)\n";

int dist_collatz_main(int argc, char **argv)
{
    if (argc < 2) cli_die(CLI_EXIT_USAGE, "dist collatz: give verify, delays or records");
    const char *sub = argv[1];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
        fputs(usage, stdout);
        return CLI_EXIT_OK;
    }
    argc--, argv++;
    cli_help_if_asked(argc, argv, usage);
    enum job_kind kind;
    if (!strcmp(sub, "verify")) kind = J_VERIFY;
    else if (!strcmp(sub, "delays")) kind = J_STATS;
    else if (!strcmp(sub, "records")) kind = J_RECORDS;
    else cli_die(CLI_EXIT_USAGE, "dist collatz: '%s' does not run distributed (verify, delays --stats, records)", sub);

    const char *from = NULL, *to = NULL, *rk = NULL, *outp = NULL, *png = NULL, *chunk_s = NULL, *v;
    const char *above_text = NULL;
    int d = kind == J_VERIFY ? 12 : 11, a = 20, k = -1, json = 0, threads = 0, conv = 0, peaks = -1, ks = -1;
    unsigned long long batch = 0;
    bulk_backend backend = BULK_BACKEND_AUTO;
    dist_opts o = { 0 };
    for (int i = 1; i < argc; i++) {
        if (dist_parse_opt(argc, argv, &i, &o)) continue;
        if ((v = cli_opt_value(argc, argv, &i, "--from"))) from = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--to"))) to = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--d"))) d = (int)cli_parse_ll("--d", v, 1, BULK_COLLATZ_MAX_D);
        else if (kind == J_VERIFY && (v = cli_opt_value(argc, argv, &i, "--k"))) k = (int)cli_parse_ll("--k", v, 0, BULK_COLLATZ_MAX_K);
        else if (kind != J_VERIFY && (v = cli_opt_value(argc, argv, &i, "--a"))) a = (int)cli_parse_ll("--a", v, 1, BULK_COLLATZ_MAX_A);
        else if (kind == J_RECORDS && (v = cli_opt_value(argc, argv, &i, "--kind"))) rk = v;
        else if (kind == J_RECORDS && (v = cli_opt_value(argc, argv, &i, "--k"))) ks = (int)cli_parse_ll("--k", v, 0, 30);
        else if (kind == J_RECORDS && (v = cli_opt_value(argc, argv, &i, "--above"))) above_text = v;
        else if (kind == J_RECORDS && !strcmp(argv[i], "--json")) json = 1;
        else if (kind == J_STATS && (v = cli_opt_value(argc, argv, &i, "--stats"))) batch = (unsigned long long)cli_parse_ll("--stats", v, 1, 1ll << 40);
        else if (kind == J_STATS && (v = cli_opt_value(argc, argv, &i, "--out"))) outp = v;
        else if (kind == J_STATS && (v = cli_opt_value(argc, argv, &i, "--png"))) png = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--chunk"))) chunk_s = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else if (kind == J_VERIFY && !strcmp(argv[i], "--json")) json = 1;
        else if (kind == J_VERIFY && !strcmp(argv[i], "--converge")) conv = 1;
        else if (kind == J_VERIFY && !strcmp(argv[i], "--no-peaks")) peaks = 0;
        else if (kind == J_VERIFY && !strcmp(argv[i], "--peaks")) peaks = 1;
        else if (kind == J_VERIFY && (v = cli_opt_value(argc, argv, &i, "--peak-above"))) above_text = v;
        else cli_die(CLI_EXIT_USAGE, "collatz %s (distributed): unknown or unsupported argument '%s'", sub, argv[i]);
    }
    /* Peaks only when asked for: every rank must agree (the chunks' results merge), and each
     * chunk is a run of its own whose threshold starts afresh (on a GPU from a CPU sample of
     * 2^28 numbers, tens of ms against a chunk's ~0.1 s of GPU work; collatz-gpu.md). */
    if (peaks < 0) peaks = above_text != NULL;
    bulk_collatz_wide above;
    if (above_text && kind == J_VERIFY) {
        if (!peaks) cli_die(CLI_EXIT_USAGE, "collatz verify: --peak-above needs the peaks (drop --no-peaks)");
        above = czcli_wide("--peak-above", above_text);
    }
    struct cz_job j = { 0 };
    j.kind = kind;
    bulk_u128 f, l;
    czcli_range(from, to, &f, &l);
    j.first = U(f);
    j.last = U(l);
    u128 len = j.last - j.first + 1;
    if (len == 0) cli_die(CLI_EXIT_USAGE, "the range is too long to cut into chunks");
    if (kind == J_STATS) {
        if (!batch) cli_die(CLI_EXIT_USAGE, "collatz delays (distributed): --stats BATCH is required (raw delays run in one process)");
        if (len % batch) cli_die(CLI_EXIT_USAGE, "--stats %llu: the range length is not a multiple of the batch", batch);
        if (png && !pic_available()) cli_die(CLI_EXIT_USAGE, "--png: " PIC_MISSING);
        j.batch = batch;
    }
    if (kind == J_RECORDS) {
        if (!rk) cli_die(CLI_EXIT_USAGE, "collatz records: --kind is required");
        j.rkind = czcli_kind(rk);
        if ((above_text || ks >= 0) && j.rkind != BULK_COLLATZ_PATH)
            cli_die(CLI_EXIT_USAGE, "collatz records: %s applies to --kind path only", above_text ? "--above" : "--k");
        if (above_text) {
            above = czcli_wide("--above", above_text);
            j.above = &above;
        }
    }
    if (kind != J_VERIFY && a < d) cli_die(CLI_EXIT_USAGE, "--a %d must be at least --d %d", a, d);
    if (chunk_s) {
        uint64_t top;
        j.chunk = U(czcli_bound("--chunk", chunk_s, &top));
        if (top || j.chunk == 0) cli_die(CLI_EXIT_USAGE, "--chunk %s: must be between 1 and 2^128 - 1", chunk_s);
    } else {
        j.chunk = len / 4096 + (len % 4096 != 0);
        if (j.chunk < ((u128)1 << 20)) j.chunk = (u128)1 << 20;
    }
    if (kind == J_STATS) {
        if (chunk_s && j.chunk % batch)
            cli_die(CLI_EXIT_USAGE, "--chunk %s: must be a multiple of --stats %llu", chunk_s, batch);
        j.chunk = (j.chunk + batch - 1) / batch * batch;
    }
    if (kind != J_VERIFY && j.chunk > ((u128)1 << 40))
        cli_die(CLI_EXIT_USAGE, "--chunk: at most 2^40 numbers per chunk for delays and records");
    u128 nch = len / j.chunk + (len % j.chunk != 0);
    if (nch > ((u128)1 << 26)) cli_die(CLI_EXIT_USAGE, "--chunk: more than 2^26 chunks; give a larger --chunk");
    if (kind == J_VERIFY && k < 0) {
        int lg = 0;
        for (u128 x = len - 1; x > 1; x >>= 1) lg++;
        k = lg - 6 > 32 ? 32 : (lg - 6 < 0 ? 0 : lg - 6);
    }
    if (!o.seed_given) o.seed = (uint64_t)time(NULL);
    /* the identity names the range by its numbers, not its spelling (2^40 = 1099511627776) */
    char ident[1024], cs[48], fs[48], ts[48];
    czcli_u128_text(B(j.chunk), cs);
    czcli_u128_text(f, fs);
    czcli_u128_text(l, ts);
    if (kind == J_VERIFY)
        snprintf(ident, sizeof ident, "collatz verify first=%s last=%s d=%d k=%d chunk=%s%s%s%s%s", fs, ts, d, k, cs,
                 conv ? " converge" : "", peaks ? "" : " no-peaks", above_text ? " peak-above=" : "",
                 above_text ? above_text : "");
    else if (kind == J_STATS)
        snprintf(ident, sizeof ident, "collatz delays first=%s last=%s stats=%llu d=%d a=%d chunk=%s", fs, ts, batch, d, a, cs);
    else { /* the sieve (--k) changes no chunk's list; --above does */
        char ab[96] = "";
        if (j.above) {
            strcpy(ab, " above=");
            czcli_wide_text(j.above, ab + 7);
        }
        snprintf(ident, sizeof ident, "collatz records kind=%s first=%s last=%s d=%d a=%d chunk=%s%s", rk, fs, ts, d, a,
                 cs, ab);
    }
    if (strlen(ident) >= sizeof ident - 1 || strchr(ident, '\n')) cli_die(CLI_EXIT_USAGE, "bounds too long");

    if (dist_comm_init(&argc, &argv)) return CLI_EXIT_FAIL;
    threads = dist_place(threads);
    j.ctx = cli_open_ctx(backend, threads);
    if (kind == J_RECORDS) {
        /* the engine of `collatz records` for a range of one chunk of the run (its sieve, the
         * convergence mode where valid, the GPU verify's sizes on CUDA) */
        const u128 cl = j.chunk - 1 > j.last - j.first ? j.last : j.first + j.chunk - 1;
        int st = bulk_collatz_records_engine(j.ctx, j.rkind, B(j.first), B(j.first), B(cl), j.above != NULL, d, ks, a,
                                             &j.e);
        if (st) cli_die(st == BULK_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL, "dist collatz records: %s",
                        bulk_ctx_last_error(j.ctx));
    } else {
        j.e = czcli_engine(j.ctx, d, kind == J_VERIFY ? k : 0, kind == J_VERIFY ? 0 : a);
    }
    if (conv && bulk_collatz_engine_set_converge(j.e) != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "dist collatz verify --converge: %s", bulk_ctx_last_error(j.ctx));
    if (kind == J_VERIFY && peaks && bulk_collatz_engine_set_peaks(j.e, above_text ? &above : NULL) != BULK_OK)
        cli_die(CLI_EXIT_FAIL, "dist collatz verify: %s", bulk_ctx_last_error(j.ctx));
    /* the time printed is that of the chunk phase: every rank builds its tables first, which
       does not shrink with more ranks and would hide the scaling of the distributed part */
    double t0 = bulk_now();
    dist_job job = { kind == J_VERIFY ? "collatz verify" : kind == J_STATS ? "collatz delays" : "collatz records",
                     ident, (uint64_t)nch, run_chunk, &j };
    char **pay;
    size_t *plen;
    int st = dist_run(&job, &o, &pay, &plen);
    bulk_collatz_engine_free(j.e);
    bulk_ctx_close(j.ctx);
    if (st != BULK_OK) {
        dist_comm_finalize();
        return st == BULK_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    if (!pay) { /* a worker rank: rank 0 prints */
        dist_comm_finalize();
        return CLI_EXIT_OK;
    }
    double secs = bulk_now() - t0;
    int code = CLI_EXIT_OK;
    if (kind == J_VERIFY) {
        bulk_collatz_verify_result *tot = malloc(sizeof *tot), *r = malloc(sizeof *r);
        if (!tot || !r) cli_die(CLI_EXIT_FAIL, "out of memory");
        bulk_collatz_verify_result_init(tot);
        for (uint64_t i = 0; i < job.nchunks; i++) {
            parse_verify(pay[i], i, r);
            bulk_collatz_verify_result_merge(tot, r);
        }
        char xj[96], xt[96];
        snprintf(xj, sizeof xj, ",\"ranks\":%d,\"chunks\":%" PRIu64, dist_comm_size(), job.nchunks);
        snprintf(xt, sizeof xt, "  %d ranks, %" PRIu64 " chunks", dist_comm_size(), job.nchunks);
        czcli_print_verify(stdout, json, from, to, 1, 1, f, l, d, k, conv, tot, secs, xj, xt);
        free(tot);
        free(r);
    } else if (kind == J_STATS) {
        uint64_t nb = (uint64_t)(len / batch), b = 0;
        double *ys[3] = { NULL, NULL, NULL };
        if (png)
            for (int s = 0; s < 3; s++)
                if (!(ys[s] = malloc(nb * sizeof(double)))) cli_die(CLI_EXIT_FAIL, "out of memory");
        bulk_afile af;
        FILE *out = stdout;
        if (outp) {
            if (bulk_afile_open(&af, outp, "w") != 0) cli_die(CLI_EXIT_FAIL, "cannot create %s: %s", outp, strerror(errno));
            out = af.fp;
        }
        for (uint64_t i = 0; i < job.nchunks; i++) {
            char *p = pay[i];
            uint64_t want = (uint64_t)(((i + 1 == job.nchunks) ? len - (u128)i * j.chunk : j.chunk) / batch);
            for (uint64_t q = 0; q < want; q++, b++) {
                unsigned long long sum;
                unsigned mn, mx;
                int used;
                if (sscanf(p, "%llu %u %u\n%n", &sum, &mn, &mx, &used) != 3) bad_payload(i);
                p += used;
                fprintf(out, "%s %.6f %u %u\n", czcli_str(B(j.first + (u128)b * batch), 0), (double)sum / (double)batch, mn, mx);
                if (png) ys[0][b] = (double)sum / (double)batch, ys[1][b] = mn, ys[2][b] = mx;
            }
            if (*p) bad_payload(i);
        }
        errno = 0;
        if (png && czcli_plot_delays(png, from, to, B(j.first), batch, nb, ys[0], ys[1], ys[2]) != 0) {
            int e = errno;
            if (outp) bulk_afile_abort(&af);
            cli_die(CLI_EXIT_FAIL, "cannot write %s: %s", png, strerror(e ? e : EIO));
        }
        for (int s = 0; s < 3; s++) free(ys[s]);
        if (outp && bulk_afile_commit(&af) != 0) cli_die(CLI_EXIT_FAIL, "cannot write %s: %s", outp, strerror(errno));
    } else {
        czcli_rlist out = { NULL, 0, 0 };
        for (uint64_t i = 0; i < job.nchunks; i++) {
            char *p = pay[i];
            expect(&p, "records", i);
            u128 n = parse_u128_tok(&p, i);
            for (u128 q = 0; q < n; q++) {
                bulk_collatz_wide val;
                u128 x = parse_u128_tok(&p, i);
                parse_wide_tok(&p, i, &val);
                czcli_rlist_offer(&out, B(x), &val); /* kept when no earlier chunk beats it */
            }
        }
        czcli_records_info h = { j.rkind, from, to, 1, 1, f, l, j.above != NULL, { { 0, 0, 0, 0 } } };
        if (j.above) h.above = *j.above;
        char xj[96];
        snprintf(xj, sizeof xj, ",\"ranks\":%d,\"chunks\":%" PRIu64, dist_comm_size(), job.nchunks);
        czcli_print_records(stdout, json, &h, out.r, out.n, secs, xj);
        free(out.r);
    }
    dist_free_payloads(pay, plen, job.nchunks);
    dist_comm_finalize();
    return code;
}
