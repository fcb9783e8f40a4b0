/* bulk collatz records. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "collatz/runstate.h"
#include "collatz_cli.h"
#include "progress_line.h"

static const char records_usage[] =
    "usage: bulk collatz records --kind delay|glide|path --from A --to B [options]\n"
    "Prints `n value`, one per line, for every n in [A, B) whose value (delay, glide or peak)\n"
    "beats that of every smaller n of the range. With --from 1 these are the true records\n"
    "(OEIS A006877, A060412, A006884). glide(1) is undefined, so 1 is never a glide record.\n"
    "\n"
    "  --d D  base bits of B, C, J (default 11)   --a A  bits of tables A and P (default 20)\n"
    "  --threads N         CPU threads; 0 or absent: BULK_THREADS, else all online CPUs\n"
    "  --backend cpu|cuda|auto  (default auto; BULK_BACKEND)\n"
    "  --checkpoint FILE   resume from / save the progress to FILE (atomic); a rerun after a\n"
    "                      kill goes on where the last checkpoint was written, and a FILE of\n"
    "                      another run is refused (exit 2); FILE: a regular file, a new one\n"
    "                      or a link to one\n"
    "  --checkpoint-every S  seconds between checkpoints (default 5)\n"
    "A progress line (numbers done, rate, ETA) goes to stderr when it is a terminal\n"
    "(BULK_PROGRESS=1 forces it, BULK_PROGRESS=0 turns it off).\n";

typedef unsigned __int128 u128;
static u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static bulk_u128 from128(u128 v) { return (bulk_u128){ (uint64_t)v, (uint64_t)(v >> 64) }; }

/* Records of [first, last] in slices (2^24 numbers per CPU thread, 2^34 on a GPU context), each
 * slice's records filtered against the running maximum (a record of the range is a record of
 * its slice, so the list is exact and does not depend on the slice size), with a progress line
 * after every slice. With `ckpt` (else NULL) the state is saved there at most every `every`
 * seconds and at the end, and a rerun resumes from the saved slice boundary. */
static int records_sliced(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind k,
                          bulk_u128 first, bulk_u128 last, const char *ckpt,
                          const char *identity, double every, bulk_collatz_record **recs,
                          size_t *n)
{
    bulk_cz_runstate s = { first, 0, 0, { 0, 0 }, NULL, 0 };
    size_t cap = 0;
    int st = ckpt ? bulk_cz_runstate_read(ckpt, identity, &s) : 1;
    if (st < 0) return st;
    u128 next = to128(s.next), end = to128(last);
    if (st == BULK_OK) {
        cap = s.nrecs;
        if (next < to128(first) || (next > end + 1 && end + 1 != 0)) {
            free(s.recs);
            bulk_cz_set_error("checkpoint %s: next is outside the range", ckpt);
            return BULK_ERR_PARSE;
        }
    } else if (ckpt && bulk_cz_runstate_write(ckpt, identity, &s) != BULK_OK) {
        bulk_cz_set_error("cannot write the checkpoint file %s: %s", ckpt, strerror(errno ? errno : EIO));
        return BULK_ERR_IO;
    }
    int done = next == end + 1;
    u128 slice = bulk_ctx_backend(ctx) == BULK_BACKEND_CUDA ? (u128)1 << 34
                                                             : (u128)bulk_ctx_threads(ctx) << 24;
    double last_ckpt = bulk_now();
    progress_line prog;
    progress_line_init_count(&prog, "collatz records", (double)(end - to128(first)) + 1, "numbers", NULL);
    progress_line_update_count(&prog, (double)(next - to128(first)), 0);
    while (!done) {
        u128 hi = next + slice - 1;
        if (hi > end || hi < next) hi = end;
        bulk_collatz_record *r;
        size_t m;
        st = bulk_collatz_records(ctx, e, k, from128(next), from128(hi), &r, &m);
        if (st) break;
        for (size_t i = 0; i < m && st == BULK_OK; i++) {
            if (s.have_best && to128(r[i].value) <= to128(s.best)) continue;
            if (s.nrecs == cap) {
                size_t nc = cap ? 2 * cap : 64;
                bulk_collatz_record *p = realloc(s.recs, nc * sizeof *p);
                if (!p) {
                    st = BULK_ERR_NOMEM;
                    break;
                }
                s.recs = p;
                cap = nc;
            }
            s.recs[s.nrecs++] = r[i];
            s.best = r[i].value;
            s.have_best = 1;
        }
        free(r);
        if (st) break;
        done = hi == end;
        next = hi + 1;
        s.next = from128(next);
        progress_line_update_count(&prog, (double)(next - to128(first)), 0);
        double now = bulk_now();
        if (ckpt && (done || now - last_ckpt >= every)) {
            if (bulk_cz_runstate_write(ckpt, identity, &s) != BULK_OK) {
                bulk_cz_set_error("cannot write the checkpoint file %s: %s", ckpt, strerror(errno ? errno : EIO));
                st = BULK_ERR_IO;
                break;
            }
            last_ckpt = now;
        }
    }
    progress_line_finish(&prog);
    if (st) {
        free(s.recs);
        return st;
    }
    *recs = s.recs;
    *n = s.nrecs;
    return BULK_OK;
}

int cmd_collatz_records(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, records_usage);
    const char *from = NULL, *to = NULL, *kind = NULL, *ckpt = NULL, *v;
    int d = 11, a = 20, threads = 0;
    double every = 5;
    bulk_backend backend = BULK_BACKEND_AUTO;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--from"))) from = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--to"))) to = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--kind"))) kind = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--d"))) d = (int)cli_parse_ll("--d", v, 1, BULK_COLLATZ_MAX_D);
        else if ((v = cli_opt_value(argc, argv, &i, "--a"))) a = (int)cli_parse_ll("--a", v, 1, BULK_COLLATZ_MAX_A);
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint"))) ckpt = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint-every"))) every = (double)cli_parse_ll("--checkpoint-every", v, 0, 86400);
        else cli_die(CLI_EXIT_USAGE, "collatz records: unknown argument '%s'", argv[i]);
    }
    if (!kind) cli_die(CLI_EXIT_USAGE, "collatz records: --kind is required");
    bulk_collatz_kind k;
    if (!strcmp(kind, "delay")) k = BULK_COLLATZ_DELAY;
    else if (!strcmp(kind, "glide")) k = BULK_COLLATZ_GLIDE;
    else if (!strcmp(kind, "path")) k = BULK_COLLATZ_PATH;
    else cli_die(CLI_EXIT_USAGE, "--kind: '%s' is not delay, glide or path", kind);
    if (a < d) cli_die(CLI_EXIT_USAGE, "--a %d must be at least --d %d", a, d);
    bulk_u128 first, last;
    czcli_range(from, to, &first, &last);
    bulk_ctx *ctx = cli_open_ctx(backend, threads);
    bulk_collatz_engine *e = czcli_engine(ctx, d, 0, a);
    bulk_collatz_record *recs;
    size_t n;
    int st;
    if (!ckpt) {
        /* the library's own limit on what can be enumerated: 2^60 numbers */
        u128 len = to128(last) - to128(first) + 1;
        st = len == 0 || len > (u128)1 << 60 ? BULK_ERR_ARG
                                             : records_sliced(ctx, e, k, first, last, NULL, NULL, 0, &recs, &n);
    } else {
        char identity[512];
        snprintf(identity, sizeof identity, "collatz records kind=%s from=%s to=%s d=%d a=%d", kind,
                 from, to, d, a);
        if (strlen(identity) >= sizeof identity - 1 || strchr(identity, '\n'))
            cli_die(CLI_EXIT_USAGE, "collatz records: bounds too long");
        st = records_sliced(ctx, e, k, first, last, ckpt, identity, every > 0 ? every : 0.001, &recs,
                            &n);
        if (st == BULK_ERR_IO || st == BULK_ERR_PARSE || st == BULK_ERR_UNSUPPORTED)
            cli_die(st == BULK_ERR_IO ? CLI_EXIT_FAIL : CLI_EXIT_USAGE, "collatz records: %s",
                    bulk_collatz_last_error());
    }
    if (st == BULK_ERR_ARG && ckpt) cli_die(CLI_EXIT_USAGE, "collatz records: %s", bulk_collatz_last_error());
    if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "collatz records: the range is too long to enumerate");
    if (st) cli_die(CLI_EXIT_FAIL, "collatz records: %s", bulk_status_string(st));
    for (size_t i = 0; i < n; i++)
        printf("%s %s\n", czcli_str(recs[i].n, 0), czcli_str(recs[i].value, 1));
    free(recs);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    return CLI_EXIT_OK;
}
