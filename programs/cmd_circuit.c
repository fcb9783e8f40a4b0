/* bulk circuit: evaluate an AIGER circuit on many input vectors (BPBC) and write the
 * ripple-carry adder of seed 001 section 5.1. (Its Table 5.1 is rerun by bench/bpbc.) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/circuit.h"
#include "cli.h"
#include "commands.h"
#include "atomic_file.h"
#include "run_progress.h"

static const char circuit_usage[] =
    "usage: bulk circuit eval --circuit C.aag|C.aig --in INPUTS [--out OUT] [--binary]\n"
    "                         [--backend cpu|cuda|auto] [--threads N]\n"
    "       bulk circuit adder --bits K [--out OUT] [--binary]\n"
    "\n"
    "eval: evaluates a combinational AIGER circuit (ASCII .aag or binary .aig; latches are an\n"
    "  error) on every input vector of INPUTS ('-' = standard input), 64 vectors per machine word.\n"
    "  Text (default): one vector per line, one '0'/'1' character per circuit input in the order\n"
    "  the AIGER file lists its inputs (a trailing CR is ignored); output: one line per vector\n"
    "  with one '0'/'1' per circuit output, in the file's output order.\n"
    "  --binary: each vector is ceil(I/8) bytes, input j in byte j/8, bit j%8 (least significant\n"
    "  bit first); the input size must be a multiple of that. The output is packed the same way,\n"
    "  ceil(O/8) bytes per vector (unused high bits zero).\n"
    "  The AIGER header's counts are bounds, not sizes: a header declaring more inputs, latches,\n"
    "  outputs or gates than the file holds is an error at the line where the file ends.\n"
    "  A progress line (vectors done / total, rate, ETA) goes to stderr when it is a terminal\n"
    "  (BULK_PROGRESS=1 forces it, BULK_PROGRESS=0 turns it off).\n"
    "adder: writes the ripple-carry adder for two K-bit numbers (1 <= K <= 4096) as AIGER (ASCII,\n"
    "  binary with --binary) to standard output or OUT. Inputs a0..a{K-1} then b0..b{K-1}, least\n"
    "  significant bit first; outputs s0..sK (K+1 sum bits, sK = carry out); 7K-4 AND gates.\n"
    "--threads N: CPU threads; 0 or absent: BULK_THREADS, else all online CPUs. --backend: default auto\n"
    "(BULK_BACKEND). Every subcommand takes --help.\n"
    "\n"
    "OUT: a regular file is replaced atomically, a device or FIFO written straight through\n"
    "(docs/cli.md).\n"
    "Exit status: 0 success, 1 run-time failure, 2 bad input (message names file and line).\n";

/* The output: an atomic file when a path is given, else stdout. */
typedef struct output {
    bulk_afile af;
    FILE *fp;
    int atomic;
} output;

static void out_open(output *o, const char *path, int binary)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->fp = stdout;
        return;
    }
    if (bulk_afile_open(&o->af, path, binary ? "wb" : "w") != 0) cli_die(CLI_EXIT_FAIL, "%s: %s", path, strerror(errno));
    o->fp = o->af.fp;
    o->atomic = 1;
}

static void out_commit(output *o, const char *path)
{
    if (o->atomic) {
        if (bulk_afile_commit(&o->af) != 0) cli_die(CLI_EXIT_FAIL, "%s: %s", path, strerror(errno));
    } else {
        cli_flush_stdout();
    }
}

static int circuit_eval(int argc, char **argv)
{
    const char *cpath = NULL, *inpath = NULL, *outpath = NULL, *v;
    int binary = 0, threads = 0;
    bulk_backend be = BULK_BACKEND_AUTO;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--circuit"))) cpath = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--in"))) inpath = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--out"))) outpath = v;
        else if (cli_backend_threads_opt(argc, argv, &i, &be, &threads)) continue;
        else if (strcmp(argv[i], "--binary") == 0) binary = 1;
        else cli_die(CLI_EXIT_USAGE, "circuit eval: unknown argument '%s' (see bulk circuit --help)", argv[i]);
    }
    if (!cpath || !inpath) cli_die(CLI_EXIT_USAGE, "circuit eval needs --circuit and --in (see bulk circuit --help)");
    bulk_circuit *c = NULL;
    int st = bulk_circuit_read(&c, cpath);
    if (st == BULK_ERR_NOMEM) cli_die(CLI_EXIT_FAIL, "%s", cli_lib_error(NULL));
    if (st != BULK_OK) cli_die(CLI_EXIT_USAGE, "%s", cli_lib_error(NULL));
    if (c->latches)
        cli_die(CLI_EXIT_USAGE, "%s: the circuit has %u latch(es); only combinational circuits are evaluated", cpath,
                c->latches);
    const size_t I = c->inputs, O = c->outputs;
    size_t len;
    char *text = cli_read_file(inpath, &len);
    /* pass 1: validate and count the vectors, so that bad input leaves no partial output */
    size_t nvec = 0;
    const size_t inbytes = (I + 7) / 8;
    if (binary) {
        if (I == 0) cli_die(CLI_EXIT_USAGE, "%s: --binary needs a circuit with at least one input", inpath);
        if (len % inbytes)
            cli_die(CLI_EXIT_USAGE, "%s: %zu bytes is not a multiple of %zu bytes per vector (%zu inputs)", inpath, len,
                    inbytes, I);
        nvec = len / inbytes;
    } else {
        size_t line = 0;
        for (size_t p = 0; p < len;) {
            const char *e = memchr(text + p, '\n', len - p);
            size_t q = e ? (size_t)(e - text) : len, n = q - p;
            line++;
            if (n && text[p + n - 1] == '\r') n--;
            if (n != I)
                cli_die(CLI_EXIT_USAGE, "%s:%zu: %zu characters, but the circuit has %zu inputs", inpath, line, n, I);
            for (size_t k = 0; k < n; k++)
                if (text[p + k] != '0' && text[p + k] != '1')
                    cli_die(CLI_EXIT_USAGE, "%s:%zu: character %zu is '%c', expected '0' or '1'", inpath, line, k + 1,
                            text[p + k]);
            nvec++;
            p = q + 1;
        }
    }
    bulk_ctx *ctx = cli_open_ctx(be, threads);
    output out;
    out_open(&out, outpath, binary);
    /* pass 2: batches of 64 * bwords vectors: transpose in, evaluate, transpose out. A batch
     * has at most BATCH_WORDS words, no more than the input needs, and fewer when the circuit
     * is wide, so that its bit planes stay near BATCH_BYTES (and one word, at least): the
     * header's counts alone never size them. */
    enum { BATCH_WORDS = 4096, BATCH_BYTES = 64 << 20 };
    size_t bwords = (nvec + 63) / 64, wide = BATCH_BYTES / (sizeof(uint64_t) * (I + O + 1));
    if (bwords > BATCH_WORDS) bwords = BATCH_WORDS;
    if (bwords > wide) bwords = wide ? wide : 1;
    const size_t nin = bwords * I, nres = bwords * O;
    uint64_t *in = malloc(sizeof(uint64_t) * (nin ? nin : 1));
    uint64_t *res = malloc(sizeof(uint64_t) * (nres ? nres : 1));
    const size_t outbytes = (O + 7) / 8;
    char *line = malloc(O + outbytes + 2);
    if (!in || !res || !line) cli_die(CLI_EXIT_FAIL, "out of memory");
    size_t pos = 0;
    run_progress prog;
    run_progress_start(&prog, ctx, "circuit eval", (double)nvec, 0, "vectors", NULL);
    for (size_t v0 = 0; v0 < nvec; v0 += 64 * bwords) {
        size_t m = nvec - v0 < 64 * bwords ? nvec - v0 : 64 * bwords;
        size_t nw = (m + 63) / 64;
        memset(in, 0, sizeof(uint64_t) * nw * I);
        for (size_t k = 0; k < m; k++) {
            const uint64_t bit = 1ull << (k % 64);
            const size_t w = k / 64;
            if (binary) {
                const unsigned char *b = (const unsigned char *)text + (v0 + k) * inbytes;
                for (size_t j = 0; j < I; j++)
                    if ((b[j / 8] >> (j % 8)) & 1) in[j * nw + w] |= bit;
            } else {
                for (size_t j = 0; j < I; j++)
                    if (text[pos + j] == '1') in[j * nw + w] |= bit;
                const char *e = memchr(text + pos, '\n', len - pos);
                pos = e ? (size_t)(e - text) + 1 : len;
            }
        }
        run_progress_next(&prog, (double)v0, 0, 0);
        st = bulk_circuit_eval(ctx, c, res, in, nw);
        if (st != BULK_OK) {
            if (out.atomic) bulk_afile_abort(&out.af);
            cli_die(CLI_EXIT_FAIL, "evaluation failed: %s", cli_lib_error(ctx));
        }
        for (size_t k = 0; k < m; k++) {
            const size_t w = k / 64, sh = k % 64;
            if (binary) {
                memset(line, 0, outbytes);
                for (size_t o = 0; o < O; o++) line[o / 8] |= (char)(((res[o * nw + w] >> sh) & 1) << (o % 8));
                fwrite(line, 1, outbytes, out.fp);
            } else {
                for (size_t o = 0; o < O; o++) line[o] = (char)('0' + ((res[o * nw + w] >> sh) & 1));
                line[O] = '\n';
                fwrite(line, 1, O + 1, out.fp);
            }
        }
        if (ferror(out.fp)) { /* stop at the first failed write, not after the whole input */
            if (!out.atomic) cli_check_output(stdout, NULL);
            int err = errno;
            bulk_afile_abort(&out.af);
            cli_die(CLI_EXIT_FAIL, "writing %s: %s", outpath, strerror(err ? err : EIO));
        }
    }
    run_progress_end(&prog);
    out_commit(&out, outpath);
    free(in), free(res), free(line), free(text);
    bulk_circuit_free(c);
    bulk_ctx_close(ctx);
    return CLI_EXIT_OK;
}

static int circuit_adder(int argc, char **argv)
{
    const char *outpath = NULL, *v;
    long long bits = -1;
    int binary = 0;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--bits"))) bits = cli_parse_ll("--bits", v, 1, 4096);
        else if ((v = cli_opt_value(argc, argv, &i, "--out"))) outpath = v;
        else if (strcmp(argv[i], "--binary") == 0) binary = 1;
        else cli_die(CLI_EXIT_USAGE, "circuit adder: unknown argument '%s' (see bulk circuit --help)", argv[i]);
    }
    if (bits < 0) cli_die(CLI_EXIT_USAGE, "circuit adder needs --bits K");
    bulk_circuit *c = NULL;
    int st = bulk_circuit_adder(&c, (unsigned)bits);
    if (st != BULK_OK) cli_die(CLI_EXIT_FAIL, "adder: %s", bulk_status_string(st));
    output out;
    out_open(&out, outpath, binary);
    st = binary ? bulk_circuit_write_aig(c, out.fp) : bulk_circuit_write_aag(c, out.fp);
    if (st != BULK_OK) {
        int err = errno;
        if (out.atomic) bulk_afile_abort(&out.af);
        if (!out.atomic) cli_stdout_error(err);
        cli_die(CLI_EXIT_FAIL, "writing %s: %s", outpath, strerror(err ? err : EIO));
    }
    out_commit(&out, outpath);
    bulk_circuit_free(c);
    return CLI_EXIT_OK;
}

int cmd_circuit(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, circuit_usage);
    if (argc < 2) {
        fputs(circuit_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "eval") == 0) return circuit_eval(argc - 1, argv + 1);
    if (strcmp(argv[1], "adder") == 0) return circuit_adder(argc - 1, argv + 1);
    cli_die(CLI_EXIT_USAGE, "circuit: unknown subcommand '%s' (eval, adder)", argv[1]);
}
