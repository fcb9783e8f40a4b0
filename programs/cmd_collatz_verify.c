/* bulk collatz verify / merge. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/collatz.h"
#include "bulk/int.h"
#include "cli_progress.h"
#include "collatz_cli.h"
#include "progress_line.h"
#include "read_stream.h"

static const char verify_usage[] =
    "usage: bulk collatz verify --from A --to B [options]\n"
    "Shows that every n in [A, B) reaches a value below n (so, by induction from 1, reaches 1):\n"
    "sieve S of mandatory residues mod 2^k, table steps of d bits on 128-bit interim values, and\n"
    "an exact multi-limb path for every n whose trajectory leaves 128 bits (an overflow).\n"
    "A and B: decimal, 0x hex, or expressions with + - * ^ (2^64, 3*2^60, 2^68+2^40); B <= 2^128.\n"
    "\n"
    "  --d D               base bits of tables B, C, J (1..24, default 10, 16 with --converge on\n"
    "                      a GPU; d = 8..11 are within a few percent of each other on the CPU,\n"
    "                      bench/results/*-cpu-collatz.txt)\n"
    "  --k K               sieve bits (0..46; default min(37, log2(B-A) - 6), at least 0;\n"
    "                      with --backend cuda min(40, log2(B-A) - 4), one less where that\n"
    "                      level eliminates nothing: K = 33, 36, 38; with --converge 43 on\n"
    "                      ranges of 2^48 and more)\n"
    "  --k-stored S        bits of the sieve kept in memory (0..39; default min(K, 28), at least\n"
    "                      K - 16); levels S+1..K are generated on the fly (at most 16)\n"
    "  --converge          convergence only: skip the numbers a smaller number is proved to\n"
    "                      reach or to merge with (3-adic predecessors, equal sieve states,\n"
    "                      n = 2, 4, 5, 8 mod 9; ~3x fewer numbers iterated), and stop each\n"
    "                      number at the table operation that proves a value below it: no\n"
    "                      glides, so no checksum and max glide (docs/collatz.md)\n"
    "  --peak-above V      also list every n whose pre-drop peak exceeds V and that of every\n"
    "                      smaller n of the range (V = the peak of the last path record below A:\n"
    "                      exactly the new path records; at most 256; V below 2^256)\n"
    "  --peaks             compute the pre-drop peaks (the default)\n"
    "  --no-peaks          skip the pre-drop peaks (and resume a checkpoint written without them)\n"
    "  --json              one JSON object instead of the text summary (input of `merge`)\n"
    "  --checkpoint FILE   save progress atomically; rerunning the same command resumes\n"
    "                      (FILE: a regular file, a new one or a link to one)\n"
    "  --checkpoint-every S  seconds between checkpoints (default 5)\n"
    "  --part I/N          only the I-th of N equal slices of [A, B) (combine with `merge`)\n"
    "  --threads N         worker threads; 0 or absent: BULK_THREADS, else all online CPUs\n"
    "  --backend cpu|cuda|auto\n"
    "\n"
    "Reports numbers covered, numbers iterated individually (the rest are eliminated by the\n"
    "sieve), overflows (count and the smallest values, each resolved exactly), the largest glide,\n"
    "and checksum = the sum of glide(n) over the range mod 2^128, which is the same for every\n"
    "thread count, backend, d and k; and the largest pre-drop peak (the largest value before the\n"
    "trajectory first drops below n, exact at any size) with its smallest n (with --converge over\n"
    "the numbers not proved by a smaller one). Exit 0 when every n was verified.\n";

int cmd_collatz_verify(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, verify_usage);
    const char *from = NULL, *to = NULL, *ckpt = NULL, *part = NULL, *above_text = NULL, *v;
    int d = -1, k = -1, ks = -1, json = 0, threads = 0, conv = 0, peaks = -1;
    double every = 5;
    bulk_backend backend = BULK_BACKEND_AUTO;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--from"))) from = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--to"))) to = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--d"))) d = (int)cli_parse_ll("--d", v, 1, BULK_COLLATZ_MAX_D);
        else if ((v = cli_opt_value(argc, argv, &i, "--k"))) k = (int)cli_parse_ll("--k", v, 0, BULK_COLLATZ_MAX_K_GEN);
        else if ((v = cli_opt_value(argc, argv, &i, "--k-stored"))) ks = (int)cli_parse_ll("--k-stored", v, 0, BULK_COLLATZ_MAX_K_GEN);
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint"))) ckpt = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint-every"))) every = (double)cli_parse_ll("--checkpoint-every", v, 0, 86400);
        else if ((v = cli_opt_value(argc, argv, &i, "--part"))) part = v;
        else if (!strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(argv[i], "--converge")) conv = 1;
        else if (!strcmp(argv[i], "--no-peaks")) peaks = 0;
        else if (!strcmp(argv[i], "--peaks")) peaks = 1;
        else if ((v = cli_opt_value(argc, argv, &i, "--peak-above"))) above_text = v;
        else cli_die(CLI_EXIT_USAGE, "collatz verify: unknown argument '%s'", argv[i]);
    }
    if (above_text && !peaks) cli_die(CLI_EXIT_USAGE, "collatz verify: --peak-above needs the peaks (drop --no-peaks)");
    bulk_collatz_wide above;
    if (above_text) above = czcli_wide("--peak-above", above_text);
    bulk_u128 first, last;
    czcli_range(from, to, &first, &last);
    unsigned long long pi = 1, pn = 1;
    if (part) czcli_part(part, &first, &last, &pi, &pn);
    bulk_ctx *ctx = cli_open_ctx(backend, threads);
    if (peaks < 0) peaks = 1; /* every backend computes them inside verify */
    /* the defaults of the library (bulk_collatz_choose: sizes for the range and backend) */
    bulk_collatz_params prm = { d, k, ks };
    if (bulk_collatz_choose(ctx, first, last, conv, &prm) != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "collatz verify: %s", bulk_ctx_last_error(ctx));
    d = prm.d;
    k = prm.k;
    ks = prm.k_stored;
    char identity[512];
    /* with or without peaks the identity is the same, so that --no-peaks resumes a checkpoint
     * written before peaks existed (the checkpoint says whether its prefix has peaks) */
    snprintf(identity, sizeof identity, "collatz verify from=%s to=%s part=%llu/%llu d=%d k=%d%s%s%s",
             from, to, pi, pn, d, k, conv ? " converge" : "", above_text ? " peak-above=" : "",
             above_text ? above_text : "");
    if (strlen(identity) >= sizeof identity - 1 || strchr(identity, '\n'))
        cli_die(CLI_EXIT_USAGE, "collatz verify: bounds too long");
    double t0 = bulk_now();
    bulk_collatz_engine *e = czcli_engine(ctx, d, ks, 0);
    if (conv && bulk_collatz_engine_set_converge(e) != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "collatz verify --converge: %s", bulk_ctx_last_error(ctx));
    if (ks < k && bulk_collatz_engine_extend(e, k - ks) != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "collatz verify: %s", bulk_ctx_last_error(ctx));
    if (peaks && bulk_collatz_engine_set_peaks(e, above_text ? &above : NULL) != BULK_OK)
        cli_die(CLI_EXIT_FAIL, "collatz verify: %s", bulk_ctx_last_error(ctx));
    bulk_collatz_run_opts opts = { ckpt, identity, every > 0 ? every : 0.001, 0 };
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    if (!r) cli_die(CLI_EXIT_FAIL, "out of memory");
    cli_progress_attach(ctx, "collatz verify");
    int st = bulk_collatz_verify(ctx, e, first, last, &opts, r);
    cli_progress_detach(ctx);
    double secs = bulk_now() - t0;
    bulk_collatz_engine_free(e);
    if (st == BULK_ERR_ARG || st == BULK_ERR_PARSE || st == BULK_ERR_IO) /* IO: the checkpoint */
        cli_die(st == BULK_ERR_IO ? CLI_EXIT_FAIL : CLI_EXIT_USAGE, "collatz verify: %s",
                bulk_ctx_last_error(ctx));
    if (st != BULK_OK) cli_die(CLI_EXIT_FAIL, "collatz verify: %s", bulk_ctx_last_error(ctx));
    bulk_ctx_close(ctx);
    czcli_print_verify(stdout, json, from, to, pi, pn, first, last, d, k, conv, r, secs, NULL, NULL);
    free(r);
    return CLI_EXIT_OK;
}

/* ---- merge ---------------------------------------------------------------------------------- */

static const char merge_usage[] =
    "usage: bulk collatz merge [--json] FILE...   ('-': one result on standard input)\n"
    "Combines the `verify --json` outputs of the parts 1/N .. N/N of one range into the totals\n"
    "of the whole range (the same as one run; --converge results have no checksum, and their\n"
    "`iterated` depends on where the parts cut blocks). Every part must be present exactly\n"
    "once, and all parts must be of the same mode.\n"
    "The `records --json` outputs of the parts of one range (one kind, one --above) combine\n"
    "into the records of the whole range, printed as `records` prints them (--json: one\n"
    "result, part 1/1): each part lists every record of the range that lies in it, and the\n"
    "lists read in order against the running maximum leave exactly those. Results of another\n"
    "range, kind or split, a part given twice or missing: exit 2.\n";

/* The whole text of a result file ('-': standard input); exits 2 naming it when unreadable. */
static char *merge_read(const char *file)
{
    const int std = !strcmp(file, "-");
    FILE *fp = std ? stdin : fopen(file, "r");
    if (!fp) cli_die(CLI_EXIT_USAGE, "merge: cannot open %s: %s", file, strerror(errno));
    char *text;
    size_t n;
    errno = 0;
    int st = bulk_read_stream(fp, &text, &n);
    if (st == BULK_ERR_NOMEM) cli_die(CLI_EXIT_FAIL, "out of memory");
    if (st != BULK_OK) cli_die(CLI_EXIT_USAGE, "merge: %s: %s", std ? "stdin" : file, strerror(errno ? errno : EIO));
    if (!std) fclose(fp);
    return text;
}

/* The peak fields of a result ("peak", "peak_n", "peak_hits"; absent or null in results without
 * peaks); every part must agree on having them (*peaks from the first). */
static void json_peaks(const char *file, const char *text, bulk_collatz_verify_result *r, int first_file, int *peaks)
{
    const char *p = strstr(text, "\"peak\":\"");
    if (first_file) *peaks = p != NULL;
    else if (*peaks != (p != NULL))
        cli_die(CLI_EXIT_USAGE, "merge: %s: mixes results with and without peaks (--no-peaks)", file);
    if (!p) return;
    char buf[96];
    czcli_json_str(file, text, "peak", buf, sizeof buf);
    if (bulk_int_from_str(r->peak.limb, buf, BULK_COLLATZ_WIDE_LIMBS, 10, NULL) != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "merge: %s: \"peak\" is not a number below 2^256", file);
    r->peak_n = czcli_json_u128(file, text, "peak_n");
    const char *h = strstr(text, "\"peak_hits\":[");
    if (!h) cli_die(CLI_EXIT_USAGE, "merge: %s: no peak_hits", file);
    h += strlen("\"peak_hits\":[");
    while (*h == '[') {
        char a[48], b[96];
        int nb = 0;
        if (sscanf(h, "[\"%47[0-9]\",\"%95[0-9]\"]%n", a, b, &nb) != 2 || !nb || r->n_peak_hits >= BULK_COLLATZ_PEAK_KEEP)
            cli_die(CLI_EXIT_USAGE, "merge: %s: bad peak_hits", file);
        bulk_collatz_record *q = &r->peak_hits[r->n_peak_hits++];
        if (czcli_u128_parse(a, &q->n) || bulk_int_from_str(q->value.limb, b, BULK_COLLATZ_WIDE_LIMBS, 10, NULL))
            cli_die(CLI_EXIT_USAGE, "merge: %s: bad peak hit '%s'", file, a);
        h += nb;
        if (*h == ',') h++;
    }
}

int cmd_collatz_merge(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, merge_usage);
    int json = 0, nfiles = 0, conv = 0, nfiles_seen = 0, peaks = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (argv[i][0] == '-' && argv[i][1]) cli_die(CLI_EXIT_USAGE, "merge: unknown option '%s'", argv[i]);
        else nfiles++;
    }
    if (!nfiles) cli_die(CLI_EXIT_USAGE, "merge: no result files given");
    const char **names = malloc((size_t)nfiles * sizeof *names);
    char **texts = malloc((size_t)nfiles * sizeof *texts);
    if (!names || !texts) cli_die(CLI_EXIT_FAIL, "out of memory");
    for (int i = 1, f = 0; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) continue;
        texts[f] = merge_read(argv[i]);
        names[f++] = strcmp(argv[i], "-") ? argv[i] : "stdin";
    }
    /* records results (records --json) have their own merge */
    if (strstr(texts[0], "\"command\":\"collatz records\"")) {
        int code = czcli_merge_records(json, nfiles, names, texts);
        for (int f = 0; f < nfiles; f++) free(texts[f]);
        free(texts);
        free(names);
        return code;
    }
    bulk_collatz_verify_result *total = malloc(sizeof *total), *r = malloc(sizeof *r);
    if (!total || !r) cli_die(CLI_EXIT_FAIL, "out of memory");
    bulk_collatz_verify_result_init(total);
    char from0[256] = "", to0[256] = "", buf[256];
    unsigned long long nparts = 0;
    unsigned char *seen = NULL;
    int d = 0, k = 0;
    bulk_u128 first = { 0, 0 }, last = { 0, 0 };
    for (int fi = 0; fi < nfiles; fi++) {
        const char *file = names[fi], *text = texts[fi];
        if (strstr(text, "\"command\":\"collatz records\""))
            cli_die(CLI_EXIT_USAGE, "merge: %s: a records result among verify results", file);
        if (!strstr(text, "\"command\":\"collatz verify\""))
            cli_die(CLI_EXIT_USAGE, "merge: %s:1: not the output of `bulk collatz verify --json` or `records --json`", file);
        czcli_json_str(file, text, "from", buf, sizeof buf);
        if (!from0[0]) snprintf(from0, sizeof from0, "%s", buf);
        else if (strcmp(from0, buf)) cli_die(CLI_EXIT_USAGE, "merge: %s: from %s differs from %s", file, buf, from0);
        czcli_json_str(file, text, "to", buf, sizeof buf);
        if (!to0[0]) snprintf(to0, sizeof to0, "%s", buf);
        else if (strcmp(to0, buf)) cli_die(CLI_EXIT_USAGE, "merge: %s: to %s differs from %s", file, buf, to0);
        unsigned long long pi, pn;
        czcli_json_str(file, text, "part", buf, sizeof buf);
        if (sscanf(buf, "%llu/%llu", &pi, &pn) != 2 || pi < 1 || pi > pn || pn > (1u << 24))
            cli_die(CLI_EXIT_USAGE, "merge: %s: bad part '%s'", file, buf);
        if (!nparts) {
            nparts = pn;
            seen = calloc(pn + 1, 1);
            if (!seen) cli_die(CLI_EXIT_FAIL, "out of memory");
        } else if (pn != nparts) {
            cli_die(CLI_EXIT_USAGE, "merge: %s: part %s of a split into %llu parts", file, buf, nparts);
        }
        if (seen[pi]) cli_die(CLI_EXIT_USAGE, "merge: %s: part %llu/%llu given twice", file, pi, pn);
        seen[pi] = 1;
        bulk_collatz_verify_result_init(r);
        r->covered = czcli_json_u128(file, text, "covered");
        r->iterated = czcli_json_u128(file, text, "iterated");
        /* "mode" since session 5; older results are full-glide runs */
        const int fconv = strstr(text, "\"mode\":\"converge\"") != NULL;
        if (nfiles_seen++ == 0) conv = fconv;
        else if (fconv != conv) cli_die(CLI_EXIT_USAGE, "merge: %s: mixes --converge and full-glide results", file);
        if (!conv) { /* convergence mode has no glides */
            r->checksum = czcli_json_u128(file, text, "checksum");
            r->max_glide = czcli_json_u128(file, text, "max_glide").lo;
            r->max_glide_n = czcli_json_u128(file, text, "max_glide_n");
        }
        r->overflows = czcli_json_u128(file, text, "overflows").lo;
        const char *ov = strstr(text, "\"overflow_values\":[");
        if (!ov) cli_die(CLI_EXIT_USAGE, "merge: %s: no overflow_values", file);
        ov += strlen("\"overflow_values\":[");
        while (*ov == '"') {
            const char *q = strchr(ov + 1, '"');
            if (!q || q - ov - 1 >= 48) cli_die(CLI_EXIT_USAGE, "merge: %s: bad overflow_values", file);
            char num[48];
            memcpy(num, ov + 1, (size_t)(q - ov - 1));
            num[q - ov - 1] = 0;
            if (r->n_overflow_values >= BULK_COLLATZ_OVERFLOW_KEEP ||
                czcli_u128_parse(num, &r->overflow_values[r->n_overflow_values++]))
                cli_die(CLI_EXIT_USAGE, "merge: %s: bad overflow value '%s'", file, num);
            ov = q + 1;
            if (*ov == ',') ov++;
        }
        json_peaks(file, text, r, nfiles_seen == 1, &peaks);
        bulk_u128 f = czcli_json_u128(file, text, "first"), l = czcli_json_u128(file, text, "last");
        if (pi == 1) first = f;
        if (pi == pn) last = l;
        d = (int)czcli_json_u128(file, text, "d").lo;
        k = (int)czcli_json_u128(file, text, "k").lo;
        bulk_collatz_verify_result_merge(total, r);
    }
    for (unsigned long long p = 1; p <= nparts; p++)
        if (!seen[p]) cli_die(CLI_EXIT_USAGE, "merge: part %llu/%llu is missing", p, nparts);
    czcli_print_verify(stdout, json, from0, to0, 1, 1, first, last, d, k, conv, total, 0, NULL, NULL);
    for (int f = 0; f < nfiles; f++) free(texts[f]);
    free(texts);
    free(names);
    free(seen);
    free(total);
    free(r);
    return CLI_EXIT_OK;
}
