/* bulk collatz records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/collatz.h"
#include "bulk/int.h"
#include "cli_progress.h"
#include "collatz_cli.h"
#include "progress_line.h"

static const char records_usage[] =
    "usage: bulk collatz records --kind delay|glide|path --from A --to B [options]\n"
    "Prints `n value`, one per line, for every n in [A, B) whose value (delay, glide or peak)\n"
    "beats that of every smaller n of the range. With --from 1 these are the true records\n"
    "(OEIS A006877, A060412, A006884). glide(1) is undefined, so 1 is never a glide record.\n"
    "\n"
    "Path records compare peaks of any size (kept in 256 bits): from n >= 2A on the pre-drop\n"
    "peak decides (the largest value before the trajectory first drops below n), below 2A the\n"
    "whole trajectory's peak; numbers that drop within K steps are skipped once they cannot win.\n"
    "\n"
    "  --above V           path records only: list n whose pre-drop peak exceeds V and every\n"
    "                      smaller n's of the range; with V = the peak of the last record below\n"
    "                      A these are exactly the path records of [A, B), at full speed also\n"
    "                      far from 1 (V: a number or expression, below 2^256); a V below\n"
    "                      some peak under A may miss numbers that join a smaller one's\n"
    "                      trajectory, differently for other --k, threads or --part splits\n"
    "  --k K               path records: sieve bits (default min(30, log2(B-A) - 6), 0: none;\n"
    "                      on CUDA those of `verify`, the stored ones plus generated levels)\n"
    "  --d D  base bits of B, C, J (default 11; on CUDA for path and glide records that of\n"
    "         `verify`)   --a A  bits of tables A and P (default 20, at least D)\n"
    "  --threads N         CPU threads; 0 or absent: BULK_THREADS, else all online CPUs\n"
    "  --backend cpu|cuda|auto  (default auto; BULK_BACKEND); on CUDA path and glide records\n"
    "                      run in the GPU verify once a running maximum exists (path records\n"
    "                      from 2A on, or with --above; the first numbers on the CPU threads),\n"
    "                      delay records in the GPU class path\n"
    "  --checkpoint FILE   resume from / save the progress to FILE (atomic); a rerun after a\n"
    "                      kill goes on where the last checkpoint was written, and a FILE of\n"
    "                      another run is refused (exit 2); FILE: a regular file, a new one\n"
    "                      or a link to one\n"
    "  --checkpoint-every S  seconds between checkpoints (default 5)\n"
    "  --part I/N          only the I-th of N equal slices of [A, B), as `verify --part`: lists\n"
    "                      every record of [A, B) that lies in the slice (and maybe numbers that\n"
    "                      beat only the slice's smaller ones); the slices' --json outputs\n"
    "                      combine with `collatz merge` into the records of [A, B). Path\n"
    "                      records of a slice decide as [A, B) does (pre-drop peaks from 2A on,\n"
    "                      so slices far from A run at full speed)\n"
    "  --json              one JSON object (kind, range, part, --above, records; the input of\n"
    "                      `merge`) instead of the lines\n"
    "A progress line (numbers done, rate, ETA) goes to stderr when it is a terminal\n"
    "(BULK_PROGRESS=1 forces it, BULK_PROGRESS=0 turns it off).\n";

typedef unsigned __int128 u128;
static u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }

/* The run itself: the records list of [first, last] (part pi/pn of a range from origin) or exits
 * with the library's message (2 for bad input, 1 otherwise). */
static void records_call(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind k, bulk_u128 origin,
                         bulk_u128 first, bulk_u128 last, const bulk_collatz_wide *above,
                         const bulk_collatz_run_opts *opts, int part, bulk_collatz_record **recs, size_t *n)
{
    int st;
    /* the library's own limit on what can be enumerated in memory: 2^60 numbers */
    u128 len = to128(last) - to128(first) + 1;
    if (!opts && (len == 0 || len > (u128)1 << 60))
        cli_die(CLI_EXIT_USAGE, "collatz records: the range is too long to enumerate");
    cli_progress_attach(ctx, "collatz records");
    if (part) st = bulk_collatz_records_part_run(ctx, e, k, origin, first, last, above, opts, recs, n);
    else if (above) st = bulk_collatz_path_records_run(ctx, e, first, last, above, opts, recs, n);
    else st = bulk_collatz_records_run(ctx, e, k, first, last, opts, recs, n);
    cli_progress_detach(ctx);
    if (st == BULK_ERR_IO) cli_die(CLI_EXIT_FAIL, "collatz records: %s", bulk_ctx_last_error(ctx));
    if (st == BULK_ERR_ARG || st == BULK_ERR_PARSE || st == BULK_ERR_UNSUPPORTED)
        cli_die(CLI_EXIT_USAGE, "collatz records: %s", bulk_ctx_last_error(ctx));
    if (st) cli_die(CLI_EXIT_FAIL, "collatz records: %s", bulk_ctx_last_error(ctx));
}

int cmd_collatz_records(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, records_usage);
    const char *from = NULL, *to = NULL, *kind = NULL, *ckpt = NULL, *above_text = NULL, *part = NULL, *v;
    int d = 11, a = 20, threads = 0, ks = -1, json = 0, d_given = 0, k_given = 0, a_given = 0;
    double every = 5;
    bulk_backend backend = BULK_BACKEND_AUTO;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--from"))) from = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--to"))) to = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--kind"))) kind = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--d"))) d = (int)cli_parse_ll("--d", v, 1, BULK_COLLATZ_MAX_D), d_given = 1;
        else if ((v = cli_opt_value(argc, argv, &i, "--a"))) a = (int)cli_parse_ll("--a", v, 1, BULK_COLLATZ_MAX_A), a_given = 1;
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--above"))) above_text = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--k"))) ks = (int)cli_parse_ll("--k", v, 0, 30), k_given = 1;
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint"))) ckpt = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint-every"))) every = (double)cli_parse_ll("--checkpoint-every", v, 0, 86400);
        else if ((v = cli_opt_value(argc, argv, &i, "--part"))) part = v;
        else if (!strcmp(argv[i], "--json")) json = 1;
        else cli_die(CLI_EXIT_USAGE, "collatz records: unknown argument '%s'", argv[i]);
    }
    if (!kind) cli_die(CLI_EXIT_USAGE, "collatz records: --kind is required");
    bulk_collatz_kind k = czcli_kind(kind);
    if (a_given && d_given && a < d) cli_die(CLI_EXIT_USAGE, "--a %d must be at least --d %d", a, d);
    if ((above_text || ks >= 0) && k != BULK_COLLATZ_PATH)
        cli_die(CLI_EXIT_USAGE, "collatz records: %s applies to --kind path only", above_text ? "--above" : "--k");
    czcli_records_info h = { k, from, to, 1, 1, { 0, 0 }, { 0, 0 }, above_text != NULL, { { 0, 0, 0, 0 } } };
    if (above_text) h.above = czcli_wide("--above", above_text);
    czcli_range(from, to, &h.first, &h.last);
    const bulk_u128 origin = h.first; /* the range's first number: the parts decide by it */
    if (part) czcli_part(part, &h.first, &h.last, &h.pi, &h.pn);
    /* the engine of the library's defaults for the kind, range and backend */
    bulk_ctx *ctx = cli_open_ctx(backend, threads);
    bulk_collatz_engine *e = NULL;
    int st = bulk_collatz_records_engine(ctx, k, origin, h.first, h.last, above_text != NULL, d_given ? d : -1,
                                         k_given ? ks : -1, a_given ? a : -1, &e);
    if (st) cli_die(st == BULK_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL, "collatz records: %s", bulk_ctx_last_error(ctx));
    /* the run's identity names the options as given: the records do not depend on the sizes,
     * so a checkpoint resumes on either backend */
    char identity[512];
    snprintf(identity, sizeof identity, "collatz records kind=%s from=%s to=%s d=%d a=%d%s%s", kind, from, to, d, a,
             above_text ? " above=" : "", above_text ? above_text : "");
    if (part) /* without --part the identity is that of the checkpoints before parts existed */
        snprintf(identity + strlen(identity), sizeof identity - strlen(identity), " part=%llu/%llu", h.pi, h.pn);
    if (ckpt && (strlen(identity) >= sizeof identity - 1 || strchr(identity, '\n')))
        cli_die(CLI_EXIT_USAGE, "collatz records: bounds too long");
    bulk_collatz_run_opts opts = { ckpt, identity, every > 0 ? every : 0.001, 0 };
    bulk_collatz_record *recs;
    size_t n;
    double t0 = bulk_now();
    /* records in slices (bulk_collatz_records_run), with a progress line after every slice */
    records_call(ctx, e, k, origin, h.first, h.last, above_text ? &h.above : NULL, ckpt ? &opts : NULL,
                 part != NULL, &recs, &n);
    czcli_print_records(stdout, json, &h, recs, n, bulk_now() - t0, NULL);
    free(recs);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    return CLI_EXIT_OK;
}

/* ---- merge of records results (`collatz merge`, cmd_collatz_verify.c hands them here) ---- */

/* One part's result as read. */
struct rpart {
    int seen;
    bulk_collatz_record *r;
    size_t n;
};

/* The "records" list of one result into p (exits 2 naming the file on anything malformed: not
 * [["n",v],..] with n inside [first, last] and increasing, v below 2^256). */
static void parse_records(const char *file, const char *text, bulk_u128 first, bulk_u128 last, struct rpart *p)
{
    const char *s = strstr(text, "\"records\":[");
    if (!s) cli_die(CLI_EXIT_USAGE, "merge: %s: no \"records\" (not a records --json result?)", file);
    s += strlen("\"records\":[");
    size_t cap = 0;
    while (*s == '[') {
        char a[48], b[96];
        int nb = 0;
        /* ["n","peak"] or ["n",delay] */
        if (sscanf(s, "[\"%47[0-9]\",%*[\"]%95[0-9]%n", a, b, &nb) != 2 &&
            sscanf(s, "[\"%47[0-9]\",%95[0-9]%n", a, b, &nb) != 2)
            cli_die(CLI_EXIT_USAGE, "merge: %s: bad records entry '%.40s'", file, s);
        s += nb;
        if (*s == '"') s++;
        if (*s++ != ']') cli_die(CLI_EXIT_USAGE, "merge: %s: bad records entry after %s", file, a);
        if (p->n == cap) {
            cap = cap ? 2 * cap : 64;
            bulk_collatz_record *q = realloc(p->r, cap * sizeof *q);
            if (!q) cli_die(CLI_EXIT_FAIL, "out of memory");
            p->r = q;
        }
        bulk_collatz_record *q = &p->r[p->n];
        if (czcli_u128_parse(a, &q->n) || bulk_int_from_str(q->value.limb, b, BULK_COLLATZ_WIDE_LIMBS, 10, NULL))
            cli_die(CLI_EXIT_USAGE, "merge: %s: bad record '%s %s'", file, a, b);
        const u128 x = to128(q->n);
        if (x < to128(first) || x > to128(last) || (p->n && x <= to128(p->r[p->n - 1].n)))
            cli_die(CLI_EXIT_USAGE, "merge: %s: record %s lies outside its part or out of order", file, a);
        p->n++;
        if (*s == ',') s++;
    }
    if (*s != ']') cli_die(CLI_EXIT_USAGE, "merge: %s: bad records list", file);
}

/* A bound of a result ("from", "to") as a number of at most 129 bits (2^128 is a valid "to"). */
static u128 json_bound(const char *file, const char *text, const char *key, int *top)
{
    char buf[256];
    uint64_t v[3];
    if (bulk_collatz_parse_bound(czcli_json_str(file, text, key, buf, sizeof buf), v, NULL) != BULK_OK || v[2] > 1)
        cli_die(CLI_EXIT_USAGE, "merge: %s: \"%s\" is not a bound", file, key);
    *top = (int)v[2];
    return ((u128)v[1] << 64) | v[0];
}

int czcli_merge_records(int json, int nfiles, const char *const *names, char *const *texts)
{
    char from0[256] = "", to0[256] = "", above0[96] = "", buf[256];
    const char *kind0 = NULL;
    struct rpart *parts = NULL;
    unsigned long long nparts = 0;
    czcli_records_info h = { BULK_COLLATZ_DELAY, from0, to0, 1, 1, { 0, 0 }, { 0, 0 }, 0, { { 0, 0, 0, 0 } } };
    for (int f = 0; f < nfiles; f++) {
        const char *file = names[f], *text = texts[f];
        if (!strstr(text, "\"command\":\"collatz records\""))
            cli_die(CLI_EXIT_USAGE, "merge: %s: not a records --json result (results of different commands)", file);
        czcli_json_str(file, text, "kind", buf, sizeof buf);
        if (f == 0) {
            if (strcmp(buf, "delay") && strcmp(buf, "glide") && strcmp(buf, "path"))
                cli_die(CLI_EXIT_USAGE, "merge: %s: kind '%s' is not delay, glide or path", file, buf);
            h.kind = czcli_kind(buf);
            kind0 = czcli_kind_name(h.kind);
        } else if (strcmp(buf, kind0)) {
            cli_die(CLI_EXIT_USAGE, "merge: %s: records of kind %s among records of kind %s", file, buf, kind0);
        }
        /* the same range, spelled the same way (as verify's merge), and the same --above */
        struct { const char *key; char *v; size_t cap; } same[3] = {
            { "from", from0, sizeof from0 }, { "to", to0, sizeof to0 }, { "above", above0, sizeof above0 }
        };
        for (int q = 0; q < 3; q++) {
            czcli_json_str(file, text, same[q].key, buf, same[q].cap);
            if (f == 0) snprintf(same[q].v, same[q].cap, "%s", buf);
            else if (strcmp(buf, same[q].v))
                cli_die(CLI_EXIT_USAGE, "merge: %s: %s %s differs from %s", file, same[q].key, buf, same[q].v);
        }
        unsigned long long pi, pn;
        char extra;
        czcli_json_str(file, text, "part", buf, sizeof buf);
        if (sscanf(buf, "%llu/%llu%c", &pi, &pn, &extra) != 2 || pi < 1 || pi > pn || pn > (1ull << 32))
            cli_die(CLI_EXIT_USAGE, "merge: %s: bad part '%s'", file, buf);
        if (!nparts) {
            nparts = pn;
            if (!(parts = calloc(pn + 1, sizeof *parts))) cli_die(CLI_EXIT_FAIL, "out of memory");
        } else if (pn != nparts) {
            cli_die(CLI_EXIT_USAGE, "merge: %s: part %s of a split into %llu parts", file, buf, nparts);
        }
        if (parts[pi].seen) cli_die(CLI_EXIT_USAGE, "merge: %s: part %llu/%llu given twice", file, pi, pn);
        parts[pi].seen = 1;
        /* the part covers exactly its slice of the range (no overlap, no gap) */
        int ftop, ttop;
        const u128 A = json_bound(file, text, "from", &ftop), B = json_bound(file, text, "to", &ttop);
        if (ftop || A == 0 || (!ttop && B <= A))
            cli_die(CLI_EXIT_USAGE, "merge: %s: bad range [%s, %s)", file, from0, to0);
        bulk_u128 lo = { (uint64_t)A, (uint64_t)(A >> 64) }, hi = { (uint64_t)(B - 1), (uint64_t)((B - 1) >> 64) };
        if (f == 0) h.first = lo, h.last = hi;
        const bulk_u128 pf = czcli_json_u128(file, text, "first"), pl = czcli_json_u128(file, text, "last");
        if (czcli_part_range(&lo, &hi, pi, pn) || to128(lo) != to128(pf) || to128(hi) != to128(pl))
            cli_die(CLI_EXIT_USAGE, "merge: %s: [%s, %s] is not part %llu/%llu of [%s, %s)", file, czcli_str(pf, 0),
                    czcli_str(pl, 1), pi, pn, from0, to0);
        parse_records(file, text, pf, pl, &parts[pi]);
    }
    for (unsigned long long p = 1; p <= nparts; p++)
        if (!parts[p].seen) cli_die(CLI_EXIT_USAGE, "merge: part %llu/%llu is missing", p, nparts);
    /* the lists in order of their parts against the running maximum (bulk_collatz_records_part_run) */
    czcli_rlist out = { NULL, 0, 0 };
    for (unsigned long long p = 1; p <= nparts; p++) {
        for (size_t i = 0; i < parts[p].n; i++) czcli_rlist_offer(&out, parts[p].r[i].n, &parts[p].r[i].value);
        free(parts[p].r);
    }
    if (strcmp(above0, "null")) {
        h.has_above = 1;
        if (bulk_int_from_str(h.above.limb, above0, BULK_COLLATZ_WIDE_LIMBS, 10, NULL) != BULK_OK)
            cli_die(CLI_EXIT_USAGE, "merge: %s: \"above\" is not a number below 2^256", names[0]);
    }
    czcli_print_records(stdout, json, &h, out.r, out.n, -1, NULL);
    free(out.r);
    free(parts);
    return CLI_EXIT_OK;
}
