/* bulk collatz: dispatch to the subcommands, and their shared helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"
#include "collatz_cli.h"
#include "commands.h"
#include "dist.h"

static const char collatz_usage[] =
    "usage: bulk collatz SUBCOMMAND [ARGS...]   (bulk collatz SUBCOMMAND --help for details)\n"
    "\n"
    "  verify   --from A --to B   show every n in [A, B) drops below itself (checksum, overflows)\n"
    "  merge    FILE...           combine the --json results of verify --part runs\n"
    "  delay    N...              delay, glide and peak of each N (exact, any size)\n"
    "  delays   --from A --to B   delays of a range (--out, --stats BATCH, --png)\n"
    "  records  --kind K --from A --to B   delay, glide or path records of a range\n"
    "  sieve    --k K             sizes s_j of the sieve of mandatory residues, j = 0..K\n"
    "\n"
    "Map: n even -> n/2, n odd -> 3n+1, one step each. Bounds accept decimal, 0x hex and\n"
    "expressions with + - * ^ such as 2^64, 3*2^60, 2^68+2^40, 2^90-1. See docs/collatz.md.\n";

int cmd_collatz(int argc, char **argv)
{
    if (argc < 2) {
        fputs(collatz_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help") || !strcmp(sub, "help")) {
        fputs(collatz_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (dist_launched() && (!strcmp(sub, "verify") || !strcmp(sub, "delays") || !strcmp(sub, "records")))
        return dist_collatz_main(argc, argv); /* under mpirun: docs/scale-out.md */
    if (!strcmp(sub, "verify")) return cmd_collatz_verify(argc - 1, argv + 1);
    if (!strcmp(sub, "merge")) return cmd_collatz_merge(argc - 1, argv + 1);
    if (!strcmp(sub, "delay")) return cmd_collatz_delay(argc - 1, argv + 1);
    if (!strcmp(sub, "delays")) return cmd_collatz_delays(argc - 1, argv + 1);
    if (!strcmp(sub, "records")) return cmd_collatz_records(argc - 1, argv + 1);
    if (!strcmp(sub, "sieve")) return cmd_collatz_sieve(argc - 1, argv + 1);
    fprintf(stderr, "bulk: collatz: unknown subcommand '%s'\n", sub);
    fputs(collatz_usage, stderr);
    return CLI_EXIT_USAGE;
}

bulk_u128 czcli_bound(const char *opt, const char *text, uint64_t *top)
{
    uint64_t v[3];
    size_t pos = 0;
    int st = bulk_cz_parse_bound(text, v, &pos);
    if (st == BULK_ERR_OVERFLOW)
        cli_die(CLI_EXIT_USAGE, "%s: '%s' is too large (more than 192 bits)", opt, text);
    if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "%s: '%s' is negative", opt, text);
    if (st != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "%s: '%s' is not a number or expression (at character %zu)",
                opt, text, pos + 1);
    *top = v[2];
    bulk_u128 r = { v[0], v[1] };
    return r;
}

void czcli_range(const char *from, const char *to, bulk_u128 *first, bulk_u128 *last)
{
    if (!from) cli_die(CLI_EXIT_USAGE, "--from is required");
    if (!to) cli_die(CLI_EXIT_USAGE, "--to is required");
    uint64_t ftop, ttop;
    bulk_u128 a = czcli_bound("--from", from, &ftop), b = czcli_bound("--to", to, &ttop);
    if (ftop) cli_die(CLI_EXIT_USAGE, "--from %s: starting values must be below 2^128", from);
    if (ttop > 1 || (ttop == 1 && (b.lo | b.hi)))
        cli_die(CLI_EXIT_USAGE, "--to %s: the range must end at 2^128 or below", to);
    if (!a.lo && !a.hi) cli_die(CLI_EXIT_USAGE, "--from must be at least 1");
    unsigned __int128 A = ((unsigned __int128)a.hi << 64) | a.lo;
    unsigned __int128 B = ((unsigned __int128)b.hi << 64) | b.lo; /* 0 here means 2^128 */
    if (ttop == 0 && B <= A)
        cli_die(CLI_EXIT_USAGE, "the range [%s, %s) is empty: --to must be above --from", from,
                to);
    B -= 1; /* inclusive; 2^128 wraps to 2^128 - 1 */
    *first = a;
    first->lo = (uint64_t)A;
    first->hi = (uint64_t)(A >> 64);
    last->lo = (uint64_t)B;
    last->hi = (uint64_t)(B >> 64);
}

void czcli_part(const char *text, bulk_u128 *first, bulk_u128 *last, unsigned long long *pi,
                unsigned long long *pn)
{
    unsigned long long i, n;
    char extra;
    if (sscanf(text, "%llu/%llu%c", &i, &n, &extra) != 2 || n == 0 || i < 1 || i > n ||
        n > (1ull << 32))
        cli_die(CLI_EXIT_USAGE, "--part: '%s' is not I/N with 1 <= I <= N <= 2^32", text);
    typedef unsigned __int128 u128;
    u128 A = ((u128)first->hi << 64) | first->lo, B = ((u128)last->hi << 64) | last->lo;
    u128 len1 = B - A; /* length - 1, so that the full 2^128 range also fits */
    /* slice i covers [A + floor(L (i-1) / N), A + floor(L i / N)) with L = len1 + 1; computed
     * as q*x + floor(r*x / N) to stay inside 128 bits (r*x < 2^32 * 2^32 * ... bounded) */
    u128 L = len1 + 1; /* 0 when the range is all 2^128 numbers: not supported by parts */
    if (L == 0) cli_die(CLI_EXIT_USAGE, "--part: the range is too long to split");
    u128 q = L / n, r = L % n;
    u128 lo = A + q * (i - 1) + r * (i - 1) / n;
    u128 hi = A + q * i + r * i / n; /* exclusive */
    if (hi == lo)
        cli_die(CLI_EXIT_USAGE, "--part %s: this part of the range is empty", text);
    first->lo = (uint64_t)lo;
    first->hi = (uint64_t)(lo >> 64);
    hi -= 1;
    last->lo = (uint64_t)hi;
    last->hi = (uint64_t)(hi >> 64);
    *pi = i;
    *pn = n;
}

const char *czcli_str(bulk_u128 v, int slot)
{
    static char buf[4][48];
    bulk_cz_u128_str(v, buf[slot & 3]);
    return buf[slot & 3];
}

bulk_collatz_engine *czcli_engine(bulk_ctx *ctx, int d, int k, int a)
{
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, ctx, d, k, a);
    if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "%s", bulk_collatz_last_error());
    if (st != BULK_OK)
        cli_die(CLI_EXIT_FAIL, "cannot build the Collatz tables (d=%d k=%d a=%d): %s", d, k, a,
                bulk_status_string(st));
    return e;
}

static const char sieve_usage[] =
    "usage: bulk collatz sieve --k K [--threads N]\n"
    "Prints j and s_j, the number of mandatory residues modulo 2^j (seed 004 Table 3), for\n"
    "j = 0..K (K <= 39), without storing the sieve.\n"
    "  --threads N   CPU threads; 0 or absent: BULK_THREADS, else all online CPUs\n";

int cmd_collatz_sieve(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, sieve_usage);
    int k = -1, threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_opt_value(argc, argv, &i, "--k"))) k = (int)cli_parse_ll("--k", v, 0, BULK_COLLATZ_MAX_K);
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else cli_die(CLI_EXIT_USAGE, "collatz sieve: unknown argument '%s'", argv[i]);
    }
    if (k < 0) cli_die(CLI_EXIT_USAGE, "collatz sieve: --k is required");
    bulk_ctx *ctx = cli_open_ctx(BULK_BACKEND_CPU, threads);
    uint64_t counts[BULK_COLLATZ_MAX_K + 1];
    int st = bulk_collatz_sieve_count(ctx, k, counts);
    bulk_ctx_close(ctx);
    if (st) cli_die(CLI_EXIT_FAIL, "sieve: %s", bulk_status_string(st));
    for (int j = 0; j <= k; j++) printf("%d %llu\n", j, (unsigned long long)counts[j]);
    return CLI_EXIT_OK;
}

/* ---- the verify result (verify, merge, dist collatz verify) ---- */

void czcli_print_verify(FILE *out, int json, const char *from, const char *to, unsigned long long pi,
                        unsigned long long pn, bulk_u128 first, bulk_u128 last, int d, int k, int conv,
                        const bulk_collatz_verify_result *r, double secs, const char *extra_json,
                        const char *extra_text)
{
    double covered = (double)r->covered.hi * 18446744073709551616.0 + (double)r->covered.lo;
    double rate = secs > 0 ? covered / secs : 0;
    if (json) {
        fprintf(out, "{\"command\":\"collatz verify\",\"from\":\"%s\",\"to\":\"%s\",\"part\":\"%llu/%llu\",", from, to, pi, pn);
        fprintf(out, "\"first\":\"%s\",\"last\":\"%s\",\"d\":%d,\"k\":%d,\"mode\":\"%s\",", czcli_str(first, 0),
                czcli_str(last, 1), d, k, conv ? "converge" : "glides");
        fprintf(out, "\"covered\":\"%s\",\"iterated\":\"%s\",\"overflows\":%llu,\"overflow_values\":[",
                czcli_str(r->covered, 0), czcli_str(r->iterated, 1),
                (unsigned long long)r->overflows);
        for (uint32_t i = 0; i < r->n_overflow_values; i++)
            fprintf(out, "%s\"%s\"", i ? "," : "", czcli_str(r->overflow_values[i], 0));
        if (conv) /* convergence mode computes no glides */
            fprintf(out, "],\"max_glide\":null,\"max_glide_n\":null,\"checksum\":null,");
        else
            fprintf(out, "],\"max_glide\":%llu,\"max_glide_n\":\"%s\",\"checksum\":\"%s\",",
                    (unsigned long long)r->max_glide, czcli_str(r->max_glide_n, 0),
                    czcli_str(r->checksum, 1));
        fprintf(out, "\"seconds\":%.3f,\"rate\":%.4g%s}\n", secs, rate, extra_json ? extra_json : "");
        return;
    }
    fprintf(out, "range       [%s, %s]", czcli_str(first, 0), czcli_str(last, 1));
    if (pn > 1) fprintf(out, "  (part %llu/%llu of [%s, %s))", pi, pn, from, to);
    fprintf(out, "\ntables      d=%d k=%d\n", d, k);
    if (conv) fprintf(out, "mode        converge (proofs of convergence only: no glides computed)\n");
    fprintf(out, "covered     %s\niterated    %s\n", czcli_str(r->covered, 0),
            czcli_str(r->iterated, 1));
    fprintf(out, "overflows   %llu", (unsigned long long)r->overflows);
    for (uint32_t i = 0; i < r->n_overflow_values && i < 10; i++)
        fprintf(out, "%s%s", i ? " " : "  (", czcli_str(r->overflow_values[i], 0));
    if (r->n_overflow_values) fprintf(out, "%s)", r->overflows > 10 ? " ..." : "");
    if (conv) {
        fprintf(out, "\nmax glide   -\nchecksum    -\n");
    } else {
        fprintf(out, "\nmax glide   %llu at n = %s\n", (unsigned long long)r->max_glide,
                czcli_str(r->max_glide_n, 0));
        fprintf(out, "checksum    %s\n", czcli_str(r->checksum, 0));
    }
    if (secs > 0) fprintf(out, "time        %.3f s  (%.4g numbers/s)%s\n", secs, rate, extra_text ? extra_text : "");
    fprintf(out, "verified    yes\n");
}

