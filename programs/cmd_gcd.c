/* bulk gcd pairs|batch: moduli that share a factor (issue 6, docs/gcd.md).
 *
 * Reads every FILE (text, PEM or DER through bulk_gcd_input_add), reports duplicate moduli,
 * then runs all-pairs GCD (bulk_gcd_pairs) or batch GCD (bulk_gcd_batch) on the distinct
 * moduli. Indices are 0-based positions in the input (the line number minus one for text).
 * Exit 0 on success (whether or not shared factors were found), 2 for bad input or usage
 * (the message names the file and the line; an --out file is not created), 1 at run time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bulk/gcd.h"
#include "cli.h"
#include "commands.h"
#include "atomic_file.h"
#include "cli_progress.h"
#include "progress_line.h"

static const char gcd_usage[] =
    "usage: bulk gcd pairs FILE... [--format text|pem|der] [--out FILE] [--hex] [--tile N]\n"
    "                [--backend cpu|cuda|auto] [--threads N]\n"
    "       bulk gcd batch FILE... [--format text|pem|der] [--out FILE] [--hex]\n"
    "                [--max-memory BYTES] [--tmp-dir DIR] [--checkpoint DIR] [--backend B]\n"
    "                [--threads N]\n"
    "\n"
    "Finds moduli (e.g. RSA public keys) that share a factor.\n"
    "  pairs   gcd(x_i, x_j) of every pair, in tiles of pairs through the bulk GCD (the GPU\n"
    "          when present); prints 'i j gcd' for every pair with gcd != 1, by (i, j)\n"
    "  batch   Bernstein's batch GCD (product tree, remainder tree): for every modulus,\n"
    "          g = gcd(x_i, product of the others); prints 'i factor cofactor' (factor = g,\n"
    "          cofactor = x_i / g) for every modulus with g != 1, by i. factor = x_i (cofactor 1)\n"
    "          means every prime of x_i is shared: 'pairs' then tells with which moduli.\n"
    "          On the GPU (--backend cuda): the lower tree levels in batches, the large\n"
    "          products on the GPU's NTT, the rest on the host cores\n"
    "Both first print 'i j duplicate' for every modulus j equal to an earlier one i; the\n"
    "copies are left out of the search (a copy would share everything with its original).\n"
    "Indices are 0-based: the position of the modulus in the input (for text: line - 1;\n"
    "several FILEs count on from one to the next). FILE '-' reads standard input.\n"
    "\n"
    "input:\n"
    "  --format text   one modulus per line, decimal or 0x hex (default)\n"
    "  --format pem    PEM blocks: PUBLIC KEY, RSA PUBLIC KEY or CERTIFICATE (RSA), read by\n"
    "                  OpenSSL's libcrypto; other text between blocks is ignored\n"
    "  --format der    one DER public key (SubjectPublicKeyInfo or PKCS#1) or certificate\n"
    "                  per FILE\n"
    "options:\n"
    "  --out FILE        write FILE instead of stdout: a regular file atomically (complete or\n"
    "                    not at all), a device or FIFO straight through (docs/cli.md)\n"
    "  --hex             print numbers in hex (0x...) instead of decimal\n"
    "  --tile N          pairs: moduli per tile side (N^2 pairs per library call; default\n"
    "                    256 on the CPU, 1024 on the GPU)\n"
    "  --max-memory B    batch: memory budget; the product-tree levels that do not fit are\n"
    "                    written to spill files and read back (checksummed) for the remainder\n"
    "                    tree; when none fits, the remainder-tree levels are spilled too\n"
    "                    (computed and written in blocks). B in bytes (suffix k, M, G, T) or a share of the physical\n"
    "                    memory ('25%'); default 50%. Below the floor of one tree (about\n"
    "                    35-60x the input: the NTT buffers at the top of the trees) the moduli\n"
    "                    go in k groups whose trees fit (about k times the work, k <= 64); a\n"
    "                    note says when even that does not fit\n"
    "  --tmp-dir DIR     batch: where spill files go (default $TMPDIR or /tmp). They are\n"
    "                    unlinked at once, so nothing is left behind on any exit; a full\n"
    "                    disk stops the run with exit 1 and no output\n"
    "  --checkpoint DIR  batch: keep every finished tree level in DIR (created when missing; a\n"
    "                    file per level, written atomically); the same command run again\n"
    "                    after a kill goes on from the finished levels and prints the same\n"
    "                    result. A DIR of other moduli is refused (exit 2), and so is a memory\n"
    "                    budget below one tree's floor (the grouped method keeps no levels).\n"
    "                    A finished run leaves the last level there (the size of the moduli)\n"
    "  --backend B       cpu, cuda or auto (default auto; BULK_BACKEND)\n"
    "  --threads N       CPU threads; 0 or absent: BULK_THREADS, else all online CPUs\n"
    "  --memory, --spill, --spill-dir: the old names of --max-memory and --tmp-dir (--spill\n"
    "                    takes the directory too); still accepted, with a notice on stderr\n"
    "\n"
    "A malformed line (bad character, empty line, modulus below 2, undecodable key) stops\n"
    "the run before any output with 'FILE:LINE: line LINE: what' and exit code 2.\n"
    "Run-time failures (memory, spill I/O) exit 1 and write no --out file.\n"
    "A summary (counts, time, pairs/s) goes to stderr.\n";

typedef struct out_ctx {
    FILE *fp;
    int hex;
    char *buf;
    size_t bufcap;
    const size_t *orig; /* distinct index -> input index */
    size_t found;
} out_ctx;

static int put_num(out_ctx *o, const bulk_limb_t *a, size_t n)
{
    int base = o->hex ? 16 : 10;
    size_t need = bulk_int_str_size(n ? n : 1, base) + 1;
    if (need > o->bufcap) {
        char *t = realloc(o->buf, need);
        if (!t) return BULK_ERR_NOMEM;
        o->buf = t;
        o->bufcap = need;
    }
    bulk_limb_t zero = 0;
    int st = bulk_int_to_str(o->buf, need, n ? a : &zero, n ? n : 1, base, NULL);
    if (st != BULK_OK) return st;
    fputs(o->buf, o->fp);
    return BULK_OK;
}

static int on_pair(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    out_ctx *o = arg;
    fprintf(o->fp, "%zu %zu ", o->orig[i], o->orig[j]);
    int st = put_num(o, g, gn);
    fputc('\n', o->fp);
    o->found++;
    if (st == BULK_OK && ferror(o->fp)) st = BULK_ERR_IO; /* stops the search: output failed */
    return st;
}

static size_t nsize(const bulk_limb_t *a, size_t n)
{
    while (n && a[n - 1] == 0) n--;
    return n;
}

/* --max-memory: a byte count with an optional k/M/G/T suffix (powers of 1024), or a percentage of
 * the physical memory ("25%"). 0 is refused: it would read as "the default". */
static size_t parse_bytes(const char *opt, const char *text)
{
    char *end;
    errno = 0;
    double pct = 0;
    unsigned long long v = 0, mul = 1;
    if (text[0] && text[strlen(text) - 1] == '%') {
        pct = strtod(text, &end);
        if (errno || end == text || strcmp(end, "%") != 0 || !(pct > 0 && pct <= 100))
            cli_die(CLI_EXIT_USAGE, "%s: '%s' is not a percentage in (0, 100]", opt, text);
        long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
        if (pages <= 0 || psize <= 0)
            cli_die(CLI_EXIT_USAGE, "%s: the physical memory size is unknown here: give bytes", opt);
        double b = (double)pages * (double)psize * pct / 100;
        return b < 1 ? 1 : (size_t)b;
    }
    v = strtoull(text, &end, 10);
    if (*end == 'k' || *end == 'K') mul = 1ull << 10, end++;
    else if (*end == 'M') mul = 1ull << 20, end++;
    else if (*end == 'G') mul = 1ull << 30, end++;
    else if (*end == 'T') mul = 1ull << 40, end++;
    if (errno || end == text || *end || text[0] == '-' || v == 0 || mul > ~0ull / v)
        cli_die(CLI_EXIT_USAGE, "%s: '%s' is not a byte count above 0 (suffix k, M, G, T or %%)", opt, text);
    return (size_t)(v * mul);
}

/* Bytes for messages: "512 B", "7.8 KiB", "1.5 GiB" (buf of 32 chars; returns buf). */
static const char *human(char *buf, uint64_t b)
{
    static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) v /= 1024, u++;
    snprintf(buf, 32, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
    return buf;
}

int cmd_gcd(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, gcd_usage);
    if (argc < 2) cli_die(CLI_EXIT_USAGE, "gcd: which one, pairs or batch? (bulk gcd --help)");
    int batch = strcmp(argv[1], "batch") == 0;
    if (!batch && strcmp(argv[1], "pairs") != 0)
        cli_die(CLI_EXIT_USAGE, "gcd: unknown mode '%s' (pairs or batch)", argv[1]);
    const char *out_path = NULL, *spill_dir = NULL, *ckpt_dir = NULL, *v;
    bulk_gcd_format fmt = BULK_GCD_FORMAT_TEXT;
    int hex = 0, threads = 0;
    size_t tile = 0, max_mem = 0;
    bulk_backend backend = BULK_BACKEND_AUTO;
    const char **files = calloc((size_t)argc, sizeof *files);
    size_t nfiles = 0;
    for (int i = 2; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--format"))) {
            if (strcmp(v, "text") == 0) fmt = BULK_GCD_FORMAT_TEXT;
            else if (strcmp(v, "pem") == 0) fmt = BULK_GCD_FORMAT_PEM;
            else if (strcmp(v, "der") == 0) fmt = BULK_GCD_FORMAT_DER;
            else cli_die(CLI_EXIT_USAGE, "--format: '%s' is not one of text, pem, der", v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--out"))) out_path = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--tile")))
            tile = (size_t)cli_parse_ll("--tile", v, 1, 65536);
        else if ((v = cli_opt_value(argc, argv, &i, "--max-memory"))) max_mem = parse_bytes("--max-memory", v);
        else if ((v = cli_opt_value(argc, argv, &i, "--tmp-dir"))) spill_dir = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--memory"))) {
            cli_warn("gcd: --memory is deprecated; use --max-memory");
            max_mem = parse_bytes("--memory", v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--spill"))) {
            cli_warn("gcd: --spill is deprecated; use --tmp-dir");
            spill_dir = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--spill-dir"))) {
            cli_warn("gcd: --spill-dir is deprecated; use --tmp-dir");
            spill_dir = v;
        }
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint"))) ckpt_dir = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--threads")))
            threads = cli_parse_threads(v);
        else if (strcmp(argv[i], "--hex") == 0) hex = 1;
        else if (argv[i][0] == '-' && argv[i][1]) cli_die(CLI_EXIT_USAGE, "gcd: unknown option %s", argv[i]);
        else files[nfiles++] = argv[i];
    }
    if (nfiles == 0) cli_die(CLI_EXIT_USAGE, "gcd %s: no input FILE ('-' for stdin)", argv[1]);
    if (!batch && (max_mem || spill_dir || ckpt_dir))
        cli_die(CLI_EXIT_USAGE, "gcd pairs: --max-memory, --tmp-dir and --checkpoint are batch options");
    if (batch && tile) cli_die(CLI_EXIT_USAGE, "gcd batch: --tile is a pairs option");

    /* ---- input ---- */
    double t0 = bulk_now();
    bulk_gcd_input in = { 0 };
    for (size_t f = 0; f < nfiles; f++) {
        size_t len;
        char *data = cli_read_file(files[f], &len), msg[256];
        uint64_t line;
        int st = bulk_gcd_input_add(&in, data, len, fmt, &line, msg, sizeof msg);
        free(data);
        const char *name = strcmp(files[f], "-") == 0 ? "stdin" : files[f];
        if (st == BULK_ERR_PARSE)
            cli_die(CLI_EXIT_USAGE, "gcd: %s:%llu: line %llu: %s", name, (unsigned long long)line,
                    (unsigned long long)line, msg);
        if (st == BULK_ERR_UNSUPPORTED) cli_die(CLI_EXIT_USAGE, "gcd: %s: %s", name, msg);
        if (st != BULK_OK) cli_die(CLI_EXIT_FAIL, "gcd: reading %s: %s", name, bulk_status_string(st));
    }
    size_t n = in.n, limbs = in.limbs ? in.limbs : 1;

    /* ---- duplicates: the first copy of each value is kept (bulk_gcd_duplicates) ---- */
    bulk_ctx *ctx = cli_open_ctx(backend, threads);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx), *dup_of = malloc((n ? n : 1) * sizeof *dup_of);
    if (!idx || !dup_of) cli_die(CLI_EXIT_FAIL, "gcd: out of memory");
    int dst = bulk_gcd_duplicates(ctx, dup_of, in.x, n, limbs);
    if (dst != BULK_OK) cli_die(CLI_EXIT_FAIL, "gcd: %s", bulk_ctx_last_error(ctx));
    size_t ndup = 0, m = 0;
    for (size_t i = 0; i < n; i++) {
        if (dup_of[i] != i) {
            ndup++;
            continue;
        }
        dup_of[i] = SIZE_MAX;
        if (m != i) memcpy(in.x + m * limbs, in.x + i * limbs, limbs * sizeof *in.x);
        idx[m++] = i; /* idx maps distinct -> input index */
    }

    /* ---- output ---- */
    /* batch without --out: the lines are collected in memory and printed only after success,
     * so a failed run (e.g. a full spill disk) prints nothing on stdout either; pairs print
     * their hits as they are found (a run can take hours) */
    bulk_afile af = { 0 };
    char *mem = NULL;
    size_t memlen = 0;
    out_ctx o = { stdout, hex, NULL, 0, idx, 0 };
    if (out_path) {
        if (bulk_afile_open(&af, out_path, "w") != 0)
            cli_die(CLI_EXIT_FAIL, "gcd: cannot write %s: %s", out_path, strerror(errno));
        o.fp = af.fp;
    } else if (batch && !(o.fp = open_memstream(&mem, &memlen))) {
        cli_die(CLI_EXIT_FAIL, "gcd: out of memory");
    }
    for (size_t i = 0; i < n; i++)
        if (dup_of[i] != SIZE_MAX) fprintf(o.fp, "%zu %zu duplicate\n", dup_of[i], i);

    double t1 = bulk_now();
    int st = BULK_OK;
    bulk_gcd_batch_stats bs = { 0 };
    cli_progress_attach(ctx, batch ? "gcd batch (tree levels)" : "gcd pairs");
    if (!batch) {
        st = bulk_gcd_pairs(ctx, in.x, m, limbs, tile, on_pair, &o);
    } else if (m > 0) {
        bulk_limb_t *g = malloc(m * limbs * sizeof *g), *q = malloc(m * 2 * limbs * sizeof *q);
        bulk_limb_t *gw = malloc(m * 2 * limbs * sizeof *gw);
        st = g && q && gw ? BULK_OK : BULK_ERR_NOMEM;
        bulk_gcd_batch_opts opts = { max_mem, spill_dir, 0, ckpt_dir };
        if (st == BULK_OK) st = bulk_gcd_batch(ctx, g, in.x, m, limbs, &opts, &bs);
        if (st == BULK_OK) { /* cofactor = x_i / g_i, exact, by the bulk division */
            for (size_t i = 0; i < m; i++) {
                memcpy(gw + 2 * i * limbs, in.x + i * limbs, limbs * sizeof *gw);
                memset(gw + (2 * i + 1) * limbs, 0, limbs * sizeof *gw);
            }
            st = bulk_int_divmod(ctx, q, NULL, gw, 2 * limbs, g, m, limbs, NULL);
        }
        for (size_t i = 0; st == BULK_OK && i < m; i++) {
            const bulk_limb_t *gi = g + i * limbs;
            size_t gn = nsize(gi, limbs);
            if (gn == 1 && gi[0] == 1) continue;
            fprintf(o.fp, "%zu ", idx[i]);
            st = put_num(&o, gi, gn);
            fputc(' ', o.fp);
            if (st == BULK_OK) st = put_num(&o, q + 2 * i * limbs, nsize(q + 2 * i * limbs, 2 * limbs));
            fputc('\n', o.fp);
            o.found++;
        }
        free(g);
        free(q);
        free(gw);
    }
    double t2 = bulk_now();
    cli_progress_detach(ctx);
    if (st != BULK_OK) {
        if (st == BULK_ERR_IO && !batch && ferror(o.fp)) { /* on_pair stopped: output failed */
            if (!out_path) cli_check_output(stdout, NULL);
            int err = errno;
            bulk_afile_abort(&af);
            cli_die(CLI_EXIT_FAIL, "gcd: writing %s: %s", out_path, strerror(err ? err : EIO));
        }
        if (out_path) bulk_afile_abort(&af);
        if (bs.checkpoint_mismatch)
            cli_die(CLI_EXIT_USAGE, "gcd batch: %s holds the checkpoint of other moduli; remove it or name "
                    "another --checkpoint DIR", ckpt_dir);
        if (bs.checkpoint_refused) {
            char h1[32], h2[32];
            cli_die(CLI_EXIT_USAGE, "gcd batch: --checkpoint needs the whole tree in one piece, but the memory "
                    "budget %s is below its floor %s (the grouped method keeps no levels); give more "
                    "--max-memory or drop --checkpoint", human(h1, bs.memory_budget), human(h2, bs.memory_floor));
        }
        if (st == BULK_ERR_IO && bs.checkpoint_errno)
            cli_die(CLI_EXIT_FAIL, "gcd batch: writing the checkpoint in %s failed: %s; no result was written",
                    ckpt_dir, strerror(bs.checkpoint_errno));
        if (st == BULK_ERR_IO) {
            const char *dir = spill_dir ? spill_dir : getenv("TMPDIR");
            if (!dir || !*dir) dir = "/tmp";
            /* spill space in use at once: every spillable level of one tree, plus two
             * remainder levels (twice a product level each) when those are spilled too;
             * grouped: one group's levels and the group products (about one level of the
             * whole tree) */
            uint64_t lv = bs.memory_need - bs.memory_floor, level = bs.levels > 2 ? lv / (bs.levels - 2) : lv;
            uint64_t disk = bs.groups > 1 ? (lv + 4 * level) / bs.groups + level : lv + 4 * level;
            char h1[32], h2[32], h3[32];
            cli_die(CLI_EXIT_FAIL, "gcd batch: spilling tree levels to %s failed: %s (memory budget "
                    "%s, estimated need without spilling %s; give --tmp-dir a directory with about "
                    "%s free, or a larger --max-memory); no result was written",
                    dir, strerror(bs.spill_errno ? bs.spill_errno : EIO), human(h1, bs.memory_budget),
                    human(h2, bs.memory_need), human(h3, disk + disk / 4 + 1));
        }
        cli_die(CLI_EXIT_FAIL, "gcd %s: %s", argv[1], bulk_status_string(st));
    }
    if (out_path) {
        if (bulk_afile_commit(&af) != 0)
            cli_die(CLI_EXIT_FAIL, "gcd: cannot write %s: %s", out_path, strerror(errno));
    } else {
        if (batch && fclose(o.fp) != 0) cli_die(CLI_EXIT_FAIL, "gcd: out of memory");
        if (batch && fwrite(mem, 1, memlen, stdout) != memlen) cli_stdout_error(errno);
        cli_flush_stdout();
        free(mem);
    }
    double secs = t2 - t1;
    if (!batch) {
        double pairs = (double)m * (double)(m > 0 ? m - 1 : 0) / 2;
        fprintf(stderr, "gcd pairs: %zu moduli (%zu duplicates), %zu bits, %.0f pairs, %zu with a shared "
                "factor; %.3f s (read %.3f s), %.3g pairs/s on %s\n", n, ndup, 64 * limbs, pairs,
                o.found, secs, t1 - t0, secs > 0 ? pairs / secs : 0.0,
                bulk_backend_name(bulk_ctx_backend(ctx)));
    } else {
        char spill[640] = "", h1[32], h2[32], h3[32];
        size_t sl = 0;
        if (bs.groups > 1)
            sl = (size_t)snprintf(spill, sizeof spill, ", in %zu groups (the whole tree does not fit "
                                  "the memory budget)", bs.groups);
        if (bs.checkpoint_levels)
            sl += (size_t)snprintf(spill + sl, sizeof spill - sl, ", %zu levels from the checkpoint %s",
                                   bs.checkpoint_levels, ckpt_dir);
        if (bs.spilled && sl < sizeof spill)
            snprintf(spill + sl, sizeof spill - sl, ", %zu product and %zu remainder levels spilled to "
                     "disk (%s; memory budget %s, estimated need %s)", bs.spilled_levels,
                     bs.spilled_rem_levels, human(h1, bs.spill_bytes),
                     human(h2, bs.memory_budget), human(h3, bs.memory_need));
        fprintf(stderr, "gcd batch: %zu moduli (%zu duplicates), %zu bits, %zu with a shared factor; "
                "%.3f s (read %.3f s), %zu tree levels%s on %s\n", n, ndup, 64 * limbs, o.found,
                secs, t1 - t0, bs.levels, spill, bulk_backend_name(bulk_ctx_backend(ctx)));
        if (bs.over_budget)
            fprintf(stderr, "gcd batch: note: the memory budget (%s) is below the estimated floor "
                    "even with %zu groups of moduli (one tree needs %s: the top of the trees works on "
                    "numbers as large as all the moduli together); the run used more\n",
                    human(h1, bs.memory_budget), bs.groups, human(h2, bs.memory_floor));
    }
    bulk_ctx_close(ctx);
    free(o.buf);
    free(idx);
    free(dup_of);
    free(files);
    bulk_gcd_input_free(&in);
    return CLI_EXIT_OK;
}
