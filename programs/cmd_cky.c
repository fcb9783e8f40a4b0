/* bulk cky: decide for every line of a file whether a context-free grammar derives it
 * (bit-parallel CKY, seed 001 chapter 7). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/cky.h"
#include "cli.h"
#include "commands.h"
#include "atomic_file.h"
#include "cli_progress.h"

static const char cky_usage[] =
    "usage: bulk cky --grammar G.cfg --in STRINGS [--tokens] [--out OUT] [--max-length N]\n"
    "                [--backend cpu|cuda|auto] [--threads N]\n"
    "\n"
    "Prints, for every line of STRINGS ('-' = standard input), 1 when the grammar derives it and\n"
    "0 when not, one answer per line, to standard output or OUT (a regular file is replaced\n"
    "atomically, a device or FIFO written straight through: docs/cli.md).\n"
    "Terminals are single bytes of the line by default (a trailing CR is ignored); with --tokens\n"
    "they are the white-space separated tokens of the line. A symbol that no rule produces makes\n"
    "its line 0. An empty line is derivable iff the start symbol derives the empty string.\n"
    "\n"
    "  --max-length N  refuse (exit 2, naming file:line) a string of more than N terminals\n"
    "                  (default 2048). A string of length n needs a table of n(n+1)/2 cells of\n"
    "                  8 bytes per non-terminal for each group of up to 64 strings: 1.1 GB at\n"
    "                  n = 2048 for a grammar of 64 non-terminals, 4 times that at 4096, and\n"
    "                  time grows as n^3; raise N when the memory is there.\n"
    "\n"
    "Grammar text (NLTK style): 'LHS -> A B | \\'a\\' | ...', one rule per line, the first\n"
    "left-hand side is the start symbol, terminals quoted with ' or \", '#' starts a comment, an\n"
    "empty alternative derives the empty string, a line starting with '|' continues the rule\n"
    "before it. Grammars are converted to Chomsky normal form automatically.\n"
    "\n"
    "  --threads N  CPU threads; 0 or absent: BULK_THREADS, else all online CPUs. --backend: default auto (BULK_BACKEND)\n"
    "\n"
    "Exit status: 0 success, 1 run-time failure, 2 bad grammar or usage (message names file and\n"
    "line: a rule without '->', an undefined non-terminal, an empty grammar, ...).\n"
    "A progress line (strings done / total, rate, ETA) goes to stderr when it is a terminal\n"
    "(BULK_PROGRESS=1 forces it, BULK_PROGRESS=0 turns it off).\n";

/* The default --max-length: the CKY table of one group of 64 strings of length n is
 * n(n+1)/2 cells x 8 bytes per non-terminal, 1.07 GiB at n = 2048 for a grammar of 64
 * non-terminals (the size of seed 001's experiments); 4096 would take 4.3 GiB per group and
 * thread, and 8 times the time. */
enum { CKY_MAX_LENGTH = 2048 };

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

int cmd_cky(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, cky_usage);
    const char *gpath = NULL, *inpath = NULL, *outpath = NULL, *v;
    int tokens = 0, threads = 0;
    long long max_length = CKY_MAX_LENGTH;
    bulk_backend be = BULK_BACKEND_AUTO;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--grammar"))) gpath = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--max-length"))) max_length = cli_parse_ll("--max-length", v, 1, 1ll << 24);
        else if ((v = cli_opt_value(argc, argv, &i, "--in"))) inpath = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--out"))) outpath = v;
        else if (cli_backend_threads_opt(argc, argv, &i, &be, &threads)) continue;
        else if (strcmp(argv[i], "--tokens") == 0) tokens = 1;
        else cli_die(CLI_EXIT_USAGE, "cky: unknown argument '%s' (see bulk cky --help)", argv[i]);
    }
    if (!gpath || !inpath) cli_die(CLI_EXIT_USAGE, "cky needs --grammar and --in (see bulk cky --help)");
    bulk_grammar *g = NULL;
    int st = bulk_grammar_read(&g, gpath, tokens ? BULK_CKY_TOKENS : BULK_CKY_CHARS);
    if (st == BULK_ERR_NOMEM) cli_die(CLI_EXIT_FAIL, "%s", cli_lib_error(NULL));
    if (st != BULK_OK) cli_die(CLI_EXIT_USAGE, "%s", cli_lib_error(NULL));
    size_t len;
    char *text = cli_read_file(inpath, &len);
    /* lines -> terminal indices; at most one symbol per byte */
    size_t nlines = 0;
    for (size_t p = 0; p < len; p++)
        if (text[p] == '\n') nlines++;
    if (len && text[len - 1] != '\n') nlines++;
    int32_t *syms = malloc(sizeof(int32_t) * (len + 1));
    size_t *off = malloc(sizeof(size_t) * (nlines + 1));
    uint8_t *acc = malloc(nlines + 1);
    if (!syms || !off || !acc) cli_die(CLI_EXIT_FAIL, "out of memory");
    size_t ns = 0, li = 0;
    for (size_t p = 0; p < len;) {
        const char *e = memchr(text + p, '\n', len - p);
        size_t q = e ? (size_t)(e - text) : len, n = q - p;
        off[li++] = ns;
        if (n && text[p + n - 1] == '\r') n--;
        if (tokens) {
            for (size_t k = 0; k < n;) {
                while (k < n && is_ws(text[p + k])) k++;
                size_t b = k;
                while (k < n && !is_ws(text[p + k])) k++;
                if (k > b) syms[ns++] = bulk_grammar_terminal(g, text + p + b, k - b);
            }
        } else {
            for (size_t k = 0; k < n; k++) syms[ns++] = bulk_grammar_terminal(g, text + p + k, 1);
        }
        if (ns - off[li - 1] > (size_t)max_length)
            cli_die(CLI_EXIT_USAGE, "%s:%zu: the string has %zu %s, more than --max-length %lld", inpath, li,
                    ns - off[li - 1], tokens ? "tokens" : "terminals", max_length);
        p = q + 1;
    }
    off[li] = ns;
    bulk_ctx *ctx = cli_open_ctx(be, threads);
    cli_progress_attach(ctx, "cky");
    st = bulk_cky_parse(ctx, g, acc, syms, off, nlines);
    cli_progress_detach(ctx);
    if (st != BULK_OK) cli_die(CLI_EXIT_FAIL, "parsing failed: %s", cli_lib_error(ctx));
    char *outbuf = malloc(2 * nlines + 1);
    if (!outbuf) cli_die(CLI_EXIT_FAIL, "out of memory");
    for (size_t i = 0; i < nlines; i++) outbuf[2 * i] = (char)('0' + acc[i]), outbuf[2 * i + 1] = '\n';
    if (outpath && strcmp(outpath, "-") != 0) {
        if (bulk_write_file_atomic(outpath, outbuf, 2 * nlines) != 0) cli_die(CLI_EXIT_FAIL, "%s: %s", outpath, strerror(errno));
    } else {
        if (fwrite(outbuf, 1, 2 * nlines, stdout) != 2 * nlines) cli_stdout_error(errno);
        cli_flush_stdout();
    }
    free(outbuf), free(syms), free(off), free(acc), free(text);
    bulk_grammar_free(g);
    bulk_ctx_close(ctx);
    return CLI_EXIT_OK;
}
