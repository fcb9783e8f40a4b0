/* bulk int OP in one process: exact big-integer arithmetic on every line of a file, in bulk
 * (cmd_int.c sends a run under an MPI launcher to dist_int.c, which runs this on each slice).
 *
 * The contract (issue 2, docs/int.md "CLI"): input lines of operands -> one output line per
 * instance, computed batch by batch (int_input.h) by one library call per op and batch, then
 * formatted on all threads (int_output.h). Exit 0 on success, 2 for bad input or usage (the
 * message names the file, the line and the operand; an --out file is not created or, if it
 * existed, left as it was), 1 when the library or the output fails at run time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "int_run.h"
#include "progress_line.h"
#include "int_input.h"
#include "int_ops.h"
#include "int_output.h"

static const char int_usage[] =
    "usage: bulk int OP [--bits W] [--in FILE] [--out FILE] [--hex] [--backend cpu|cuda|auto]\n"
    "                [--threads N] [--rounds K]\n"
    "\n"
    "Computes OP for every line of the input (default stdin) and prints one line per line\n"
    "(default stdout). A line holds the operands of one instance, separated by white space;\n"
    "each is a non-negative integer in decimal or 0x hex. Empty lines are errors.\n"
    "\n"
    "  add A B          A + B, exact (the carry out of W bits included)\n"
    "  sub A B          A - B, exact and signed (e.g. -5)\n"
    "  mul A B          A * B, the full product\n"
    "  sqr A            A * A\n"
    "  div A D          floor(A / D)\n"
    "  mod A D          A mod D\n"
    "  divmod A D       'q r': floor(A / D) and A mod D\n"
    "  gcd A B          gcd(A, B), gcd(0, 0) = 0\n"
    "  powmod B E M     B^E mod M; M must be odd\n"
    "  cmp A B          -1, 0 or 1 as A < B, A = B, A > B\n"
    "  isprime N        1 when N is a probable prime (Baillie-PSW and K more Miller-Rabin\n"
    "                   rounds with bases derived from N), else 0; N may be negative (0)\n"
    "  nextprime N      the least probable prime > N (same test; 2 for N < 2)\n"
    "\n"
    "options:\n"
    "  --bits W         operand width, a multiple of 64 (>= 64); an operand wider than W is\n"
    "                   an error. Default: the smallest multiple of 64 that holds the\n"
    "                   operands (results are exact either way, so only speed differs)\n"
    "  --in FILE        read FILE instead of stdin ('-': stdin)\n"
    "  --out FILE       write FILE instead of stdout: a regular file (also through a link)\n"
    "                   atomically, complete or not at all; a device, FIFO or /dev/stdout\n"
    "                   straight through (docs/cli.md)\n"
    "  --hex            print results in hex with a 0x prefix (lowercase digits)\n"
    "  --backend B      cpu, cuda or auto (default auto; also BULK_BACKEND)\n"
    "  --threads N      CPU threads; 0 or absent: BULK_THREADS, else all online CPUs\n"
    "  --rounds K       isprime, nextprime: K extra Miller-Rabin rounds, 0..1024 (default 0)\n"
    "\n"
    "Bad input (a non-digit, an operand wider than --bits, a missing or extra operand, an\n"
    "empty line, division by zero, an even powmod modulus) stops the run with a message\n"
    "naming the file (or stdin), the line and the operand, exit code 2, and no --out file.\n"
    "Instances are computed in batches of up to 65536 lines, so inputs of any length work\n"
    "in bounded memory.\n";

/* Results of one batch (arrays grow as needed and are reused). */
struct results {
    bulk_limb_t *r, *q;     /* main result; the quotient of divmod */
    uint8_t *flag;          /* carry / borrow; isprime's answers */
    int8_t *i8;             /* cmp results, per-instance errors */
    size_t r_cap, q_cap, flag_cap, i8_cap;
};

struct fmt_ctx {
    int_op op;
    int hex;
    size_t limbs;
    const struct results *res;
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    free(*p);
    *p = malloc(need * elem);
    *cap = *p ? need : 0;
    return *p ? 0 : -1;
}

/* ---- formatting one instance ---------------------------------------------------------------- */

/* a (n limbs) in decimal, or "0x" hex, at out (room for num_size(n, hex) + 1 bytes); returns
 * the length. Decimal printing that runs out of memory prints hex (which needs none). */
static size_t put_num(char *out, const bulk_limb_t *a, size_t n, int hex)
{
    size_t len = 0;
    int base = hex ? 16 : 10;
    if (bulk_int_to_str(out, bulk_int_str_size(n, base) + 1, a, n, base, &len) != BULK_OK)
        bulk_int_to_str(out, bulk_int_str_size(n, 16) + 1, a, n, 16, &len);
    return len;
}

static size_t num_size(size_t n, int hex) { return bulk_int_str_size(n, hex ? 16 : 10); }

static size_t fmt_line(void *arg, size_t i, char *out, bulk_limb_t *scratch)
{
    const struct fmt_ctx *f = arg;
    const struct results *res = f->res;
    size_t L = f->limbs;
    switch (f->op) {
    case INT_OP_ADD:
        /* the W-bit sum plus its carry: W + 1 bits, printed exactly */
        memcpy(scratch, res->r + i * L, L * sizeof *scratch);
        scratch[L] = res->flag[i];
        return put_num(out, scratch, L + 1, f->hex);
    case INT_OP_SUB: {
        const bulk_limb_t *d = res->r + i * L;
        if (!res->flag[i]) return put_num(out, d, L, f->hex);
        /* a < b: r = 2^W - (b - a), so b - a is the two's complement of r (and not 0) */
        unsigned carry = 1;
        for (size_t k = 0; k < L; k++) {
            bulk_limb_t v = ~d[k] + carry;
            carry = carry && v == 0;
            scratch[k] = v;
        }
        out[0] = '-';
        return 1 + put_num(out + 1, scratch, L, f->hex);
    }
    case INT_OP_MUL:
    case INT_OP_SQR:
        return put_num(out, res->r + i * 2 * L, 2 * L, f->hex);
    case INT_OP_DIV:
        return put_num(out, res->q + i * L, L, f->hex);
    case INT_OP_DIVMOD: {
        size_t len = put_num(out, res->q + i * L, L, f->hex);
        out[len++] = ' ';
        return len + put_num(out + len, res->r + i * L, L, f->hex);
    }
    case INT_OP_MOD:
    case INT_OP_GCD:
    case INT_OP_POWMOD:
        return put_num(out, res->r + i * L, L, f->hex);
    case INT_OP_ISPRIME:
        out[0] = res->flag[i] ? '1' : '0';
        return 1;
    case INT_OP_NEXTPRIME:
        return put_num(out, res->r + i * (L + 1), L + 1, f->hex);
    case INT_OP_CMP: {
        int c = res->i8[i];
        if (c < 0) {
            memcpy(out, "-1", 2);
            return 2;
        }
        out[0] = c > 0 ? '1' : '0';
        return 1;
    }
    default:
        return 0;
    }
}

/* Longest line of `op` at L limbs per operand (without the newline). */
static size_t line_cap(int_op op, size_t L, int hex)
{
    switch (op) {
    case INT_OP_ADD: return num_size(L + 1, hex);
    case INT_OP_SUB: return 1 + num_size(L, hex);
    case INT_OP_MUL:
    case INT_OP_SQR: return num_size(2 * L, hex);
    case INT_OP_DIVMOD: return 2 * num_size(L, hex) + 1;
    case INT_OP_CMP: return 2;
    case INT_OP_ISPRIME: return 1;
    case INT_OP_NEXTPRIME: return num_size(L + 1, hex);
    default: return num_size(L, hex);
    }
}

/* ---- computing one batch -------------------------------------------------------------------- */

/* Runs the library on batch b. Returns BULK_OK or the library's status; for a per-instance
 * error *bad is set to the failing instance. */
static int compute(bulk_ctx *ctx, int_op op, const int_batch *b, unsigned rounds,
                   struct results *res, size_t *bad)
{
    size_t n = b->n, L = b->limbs;
    size_t r_limbs = (op == INT_OP_MUL || op == INT_OP_SQR) ? 2 * L
                     : op == INT_OP_NEXTPRIME                ? L + 1 /* < 2N: one limb more */
                                                             : L;
    const size_t lb = sizeof(bulk_limb_t);
    int mem = grow((void **)&res->i8, &res->i8_cap, n, 1);
    if (op != INT_OP_CMP && op != INT_OP_DIV)
        mem |= grow((void **)&res->r, &res->r_cap, n * r_limbs, lb);
    if (op == INT_OP_DIV || op == INT_OP_DIVMOD)
        mem |= grow((void **)&res->q, &res->q_cap, n * L, lb);
    if (op == INT_OP_NEXTPRIME) /* q: the operands widened to L + 1 limbs */
        mem |= grow((void **)&res->q, &res->q_cap, n * (L + 1), lb);
    if (op == INT_OP_ADD || op == INT_OP_SUB || op == INT_OP_ISPRIME)
        mem |= grow((void **)&res->flag, &res->flag_cap, n, 1);
    *bad = (size_t)-1;
    if (mem) return BULK_ERR_NOMEM;
    const bulk_limb_t *a = b->op[0], *c = b->op[1];
    int st = BULK_ERR_INTERNAL;
    int per_instance = 0;
    switch (op) {
    case INT_OP_ADD: st = bulk_int_add(ctx, res->r, res->flag, a, c, n, L); break;
    case INT_OP_SUB: st = bulk_int_sub(ctx, res->r, res->flag, a, c, n, L); break;
    case INT_OP_MUL: st = bulk_int_mul(ctx, res->r, a, c, n, L); break;
    case INT_OP_SQR: st = bulk_int_sqr(ctx, res->r, a, n, L); break;
    case INT_OP_DIV:
        st = bulk_int_divmod(ctx, res->q, NULL, a, L, c, n, L, res->i8);
        per_instance = 1;
        break;
    case INT_OP_MOD:
        st = bulk_int_divmod(ctx, NULL, res->r, a, L, c, n, L, res->i8);
        per_instance = 1;
        break;
    case INT_OP_DIVMOD:
        st = bulk_int_divmod(ctx, res->q, res->r, a, L, c, n, L, res->i8);
        per_instance = 1;
        break;
    case INT_OP_GCD: st = bulk_int_gcd(ctx, res->r, a, c, n, L); break;
    case INT_OP_POWMOD:
        st = bulk_int_powmod(ctx, res->r, a, c, b->op[2], n, L, res->i8);
        per_instance = 1;
        break;
    case INT_OP_CMP: st = bulk_int_cmp(ctx, res->i8, a, c, n, L); break;
    case INT_OP_ISPRIME: st = bulk_int_isprime(ctx, res->flag, a, n, L, rounds); break;
    case INT_OP_NEXTPRIME:
        for (size_t i = 0; i < n; i++) {
            memcpy(res->q + i * (L + 1), a + i * L, L * lb);
            res->q[i * (L + 1) + L] = 0;
        }
        st = bulk_int_nextprime(ctx, res->r, res->q, n, L + 1, rounds, NULL);
        break;
    default: break;
    }
    if (st != BULK_OK && per_instance) {
        for (size_t i = 0; i < n; i++)
            if (res->i8[i] != 0) {
                *bad = i;
                return res->i8[i];
            }
    }
    return st;
}

/* ---- the command ---------------------------------------------------------------------------- */

struct int_args {
    int_op op;
    size_t bits; /* 0: automatic */
    const char *in, *out;
    int hex;
    bulk_backend backend;
    int threads;
    long long rounds; /* -1: not given */
};

static void parse_args(int argc, char **argv, struct int_args *a)
{
    memset(a, 0, sizeof *a);
    a->backend = BULK_BACKEND_AUTO;
    a->rounds = -1;
    int have_op = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        const char *arg = argv[i];
        if ((v = cli_opt_value(argc, argv, &i, "--bits"))) {
            long long w = cli_parse_ll("--bits", v, 1, (long long)(INT_MAX_LIMBS * 64));
            if (w < 64 || w % 64 != 0)
                cli_die(CLI_EXIT_USAGE, "int: --bits %lld: the width must be a multiple of 64, "
                        "at least 64", w);
            a->bits = (size_t)w;
        } else if ((v = cli_opt_value(argc, argv, &i, "--rounds"))) {
            a->rounds = cli_parse_ll("--rounds", v, 0, 1024);
        } else if ((v = cli_opt_value(argc, argv, &i, "--in"))) {
            a->in = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--out"))) {
            a->out = v;
        } else if (cli_backend_threads_opt(argc, argv, &i, &a->backend, &a->threads)) {
            continue;
        } else if (strcmp(arg, "--hex") == 0) {
            a->hex = 1;
        } else if (arg[0] == '-' && arg[1] != 0) {
            cli_die(CLI_EXIT_USAGE, "int: unknown option '%s' (bulk int --help)", arg);
        } else if (!have_op) {
            int op = int_op_find(arg);
            if (op < 0)
                cli_die(CLI_EXIT_USAGE, "int: unknown operation '%s' (one of: %s)", arg,
                        int_op_names());
            a->op = (int_op)op;
            have_op = 1;
        } else {
            cli_die(CLI_EXIT_USAGE, "int: unexpected argument '%s' (bulk int --help)", arg);
        }
    }
    if (!have_op)
        cli_die(CLI_EXIT_USAGE, "int: which operation? one of: %s (bulk int --help)",
                int_op_names());
    if (a->out && strcmp(a->out, "-") == 0) a->out = NULL;
    if (a->rounds >= 0 && a->op != INT_OP_ISPRIME && a->op != INT_OP_NEXTPRIME)
        cli_die(CLI_EXIT_USAGE, "int: --rounds applies to isprime and nextprime only");
}

int int_run(int argc, char **argv)
{
    /* the benchmark against GMP is a bench program, so that the CLI does not link GMP */
    if (argc >= 2 && strcmp(argv[1], "bench") == 0)
        cli_die(CLI_EXIT_USAGE, "int: 'bench' is not an operation: the benchmark against GMP is "
                "the program bench/int/bench_int_ops of the build tree, same options (docs/int.md)");
    cli_help_if_asked(argc, argv, int_usage);
    struct int_args a;
    parse_args(argc, argv, &a);
    const int_op_desc *d = int_op_get(a.op);

    bulk_ctx *ctx = cli_open_ctx(a.backend, a.threads);
    int threads = bulk_ctx_threads(ctx);
    int_rules rules = { d->name, d->operands, d->nonzero, d->odd,
                        a.op == INT_OP_ISPRIME || a.op == INT_OP_NEXTPRIME };
    int_reader *rd = int_reader_open(a.in, &rules, a.bits / 64, threads);
    if (!rd) {
        bulk_ctx_close(ctx);
        return CLI_EXIT_USAGE; /* the input named cannot be read */
    }
    int_writer w;
    if (int_writer_open(&w, a.out, d->name, threads) != 0) {
        int_reader_close(rd);
        bulk_ctx_close(ctx);
        return CLI_EXIT_FAIL;
    }

    /* progress (on a terminal only) in input bytes, when the input is a file of known size */
    progress_line prog;
    long long in_size = int_reader_size(rd);
    char label[64];
    snprintf(label, sizeof label, "int %s (input)", d->name);
    progress_line_init(&prog, label, (double)in_size);
    if (in_size <= 0) prog.enabled = 0;

    struct results res = { 0 };
    int code = CLI_EXIT_OK;
    for (;;) {
        int_batch b;
        int got = int_reader_next(rd, &b);
        if (got == 0) break;
        if (got < 0) {
            code = got == -2 ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
            break;
        }
        size_t bad;
        int st = compute(ctx, a.op, &b, a.rounds > 0 ? (unsigned)a.rounds : 0, &res, &bad);
        if (st != BULK_OK) {
            if (bad != (size_t)-1) {
                /* the reader rejects zero divisors and even moduli first; kept as a guard */
                unsigned long long line = (unsigned long long)(b.first_line + bad);
                cli_warn("int %s: %s:%llu: line %llu: %s", d->name, int_reader_name(rd), line,
                         line, bulk_status_string(st));
                code = CLI_EXIT_USAGE;
            } else {
                cli_warn("int %s: the computation failed: %s", d->name, bulk_status_string(st));
                code = CLI_EXIT_FAIL;
            }
            break;
        }
        struct fmt_ctx f = { a.op, a.hex, b.limbs, &res };
        if (int_writer_lines(&w, b.n, line_cap(a.op, b.limbs, a.hex), 2 * b.limbs + 1,
                             fmt_line, &f) != 0) {
            code = CLI_EXIT_FAIL;
            break;
        }
        progress_line_update(&prog, (double)int_reader_pos(rd));
    }
    if (prog.enabled) progress_line_finish(&prog);
    if (code == CLI_EXIT_OK) {
        if (int_writer_commit(&w) != 0) code = CLI_EXIT_FAIL;
    } else {
        int_writer_abort(&w);
    }
    free(res.r);
    free(res.q);
    free(res.flag);
    free(res.i8);
    int_reader_close(rd);
    bulk_ctx_close(ctx);
    return code;
}
