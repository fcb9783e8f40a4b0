/* bulk life: run Life-like cellular automata on bit-packed universes. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/life.h"
#include "cli.h"
#include "commands.h"
#include "atomic_file.h"
#include "pictures/png.h"
#include "life_checkpoint.h"
#include "run_progress.h"

static const char life_usage[] =
    "usage: bulk life run --in PATTERN --steps N [options]\n"
    "\n"
    "Reads a pattern (RLE as Golly writes it, or plain text with . and O), runs it N generations\n"
    "and writes the final generation as RLE with a '#CXRLE Pos=x,y Gen=g' line (the position of\n"
    "the top-left cell of the live cells' bounding box), so it compares with Golly cell for cell.\n"
    "\n"
    "  --in FILE          the pattern (RLE: header 'x = W, y = H, rule = R'; #CXRLE Pos/Gen kept).\n"
    "                     W x H is the frame the runs must stay in, not a size: memory follows\n"
    "                     the live cells, so a large frame around a few cells costs nothing;\n"
    "                     '-' reads standard input\n"
    "  --steps N          generations to run (>= 0)\n"
    "  --rule R           B/S rule (B3/S23, B36/S23, B3678/S34678, S23/B3, 23/3); overrides the\n"
    "                     file's rule; default: the file's, else B3/S23\n"
    "  --torus WxH        a W x H torus with the top-left cell of the pattern's frame at (0, 0),\n"
    "                     x to the right, y down; the frame must fit. Only this option sizes a\n"
    "                     torus. Without it the universe is the unbounded plane\n"
    "  --out FILE         write the final RLE there (a regular file atomically, a device or FIFO\n"
    "                     straight through: docs/cli.md); default: to stdout\n"
    "  --png FILE         draw the final generation (live cells black on white; a 1-bit PNG)\n"
    "  --png-region X,Y,W,H  the rectangle to draw (default: the torus, or the live cells on the\n"
    "                     plane, with a border of 2 cells)\n"
    "  --png-scale S      pixels per cell (default: up to 8, keeping the image near 1024 pixels;\n"
    "                     regions wider than 4096 cells are shrunk, a pixel alive if any cell is)\n"
    "  --every K          print 'generation population' every K generations (from the start,\n"
    "                     and the last one) on stdout, before the RLE when that goes to stdout\n"
    "  --backend B        cpu, cuda or auto (default auto; environment BULK_BACKEND)\n"
    "  --threads N        CPU threads; 0 or absent: BULK_THREADS, else all online CPUs\n"
    "  --max-memory BYTES keep at most about BYTES (suffix K, M, G, T allowed) of cells in memory;\n"
    "                     larger universes are\n"
    "                     streamed in tiles from files in --tmp-dir (default $TMPDIR or /tmp)\n"
    "  --tmp-dir DIR      where the out-of-core files go (they are unlinked at once)\n"
    "  --per-pass T       generations per pass over memory (default: chosen by size)\n"
    "  --checkpoint FILE  save the run to FILE (atomically: generation, rule, topology, the\n"
    "                     live cells and the --every lines so far) every --checkpoint-every\n"
    "                     seconds and at the end; the same command run again resumes from it\n"
    "                     and ends exactly as an uninterrupted run. A FILE of another run\n"
    "                     (other input, rule, torus or --every, or a generation beyond this\n"
    "                     run's last) is refused with exit 2. Not with --torus and --max-memory\n"
    "  --checkpoint-every S  seconds between checkpoints (default 60; 0: after every chunk of\n"
    "                     generations, about one a second)\n"
    "\n"
    "A progress line (generations done / total, cell updates per second, ETA) goes to stderr\n"
    "when it is a terminal (BULK_PROGRESS=1 forces it, BULK_PROGRESS=0 turns it off).\n"
    "Coordinates: the pattern's top-left cell is (0, 0) unless its file has #CXRLE Pos=x,y, whose\n"
    "coordinates are then used (also on a torus, shifted by the same amount).\n"
    "Exit codes: 0 done; 1 run-time failure (I/O, device); 2 bad input or usage (malformed RLE,\n"
    "unknown rule, a torus smaller than the pattern: the message names file, line and column).\n";

static int parse_dims(const char *opt, const char *s, uint64_t *w, uint64_t *h)
{
    char *end;
    unsigned long long a = strtoull(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X') || s[0] == '-') return -1;
    const char *t = end + 1;
    unsigned long long b = strtoull(t, &end, 10);
    if (end == t || *end || t[0] == '-' || a == 0 || b == 0) return -1;
    (void)opt;
    *w = a;
    *h = b;
    return 0;
}

/* BYTES with an optional K, M, G or T suffix (powers of 1024). */
static uint64_t parse_bytes(const char *text)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    uint64_t mul = 1;
    if (*end == 'k' || *end == 'K') mul = 1ull << 10, end++;
    else if (*end == 'm' || *end == 'M') mul = 1ull << 20, end++;
    else if (*end == 'g' || *end == 'G') mul = 1ull << 30, end++;
    else if (*end == 't' || *end == 'T') mul = 1ull << 40, end++;
    if (errno || end == text || *end || text[0] == '-' || v == 0 || v > UINT64_MAX / mul)
        cli_die(CLI_EXIT_USAGE, "life: --max-memory: '%s' is not a byte count (e.g. 1048576 or 64M)", text);
    return (uint64_t)v * mul;
}

/* The --every lines printed so far, kept for the checkpoint. */
typedef struct life_lines {
    char *buf;
    size_t len, cap;
} life_lines;

/* Prints u's 'generation population' line; appends it to l when l is not NULL. */
static void print_population(bulk_life *u, life_lines *l)
{
    uint64_t pop;
    int st = bulk_life_population(u, &pop);
    if (st) cli_die(CLI_EXIT_FAIL, "life: population: %s", bulk_status_string(st));
    char line[48];
    int n = snprintf(line, sizeof line, "%" PRIu64 " %" PRIu64 "\n", bulk_life_generation(u), pop);
    fputs(line, stdout);
    cli_check_output(stdout, NULL); /* a long run stops at the first failed write */
    if (!l) return;
    if (l->len + (size_t)n + 1 > l->cap) {
        size_t cap = l->cap > 2048 ? 2 * l->cap : 4096;
        while (cap < l->len + (size_t)n + 1) cap *= 2;
        char *b = realloc(l->buf, cap);
        if (!b) cli_die(CLI_EXIT_FAIL, "life: out of memory");
        l->buf = b;
        l->cap = cap;
    }
    memcpy(l->buf + l->len, line, (size_t)n + 1);
    l->len += (size_t)n;
}

/* The universe of a run: from the checkpoint `ckpt` when it exists and belongs to this run
 * (id: input, rule, topology, every; its generation at most `target`), whose --every lines are
 * printed again and kept in *lines; else from the pattern p. *resumed tells which. */
static bulk_life *life_start(bulk_ctx *ctx, const bulk_life_pattern *p, const bulk_life_options *opt,
                             const char *ckpt, const life_ckpt *id, uint64_t target, life_lines *lines,
                             int *resumed)
{
    bulk_life *u;
    life_ckpt c;
    char err[512];
    int r = ckpt ? life_ckpt_read(ckpt, &c, err, sizeof err) : 1;
    if (r == -2) cli_die(CLI_EXIT_FAIL, "life run: cannot read the checkpoint %s", err);
    if (r == -1) cli_die(CLI_EXIT_USAGE, "life run: checkpoint %s", err);
    *resumed = r == 0;
    bulk_life_pattern q = *p;
    if (r == 0) {
        const char *what = c.input != id->input ? "input pattern"
                           : strcmp(c.rule, id->rule)         ? "rule"
                           : strcmp(c.topology, id->topology) ? "topology (--torus)"
                           : c.every != id->every             ? "--every"
                                                              : NULL;
        if (what)
            cli_die(CLI_EXIT_USAGE, "life run: %s is the checkpoint of another run (its %s differs); "
                    "remove it or name another --checkpoint FILE", ckpt, what);
        if (c.generation > target)
            cli_die(CLI_EXIT_USAGE, "life run: %s is at generation %" PRIu64 ", beyond this run's last (%" PRIu64
                    "): more --steps, or another --checkpoint FILE", ckpt, c.generation, target);
        if (opt->torus && c.box.width &&
            (c.box.x < 0 || c.box.y < 0 || (uint64_t)c.box.x + c.box.width > opt->torus_width ||
             (uint64_t)c.box.y + c.box.height > opt->torus_height))
            cli_die(CLI_EXIT_USAGE, "life run: checkpoint %s: its box is outside the torus", ckpt);
        q = c.box;
        q.rule = opt->rule;
        q.generation = c.generation;
        if (opt->torus) { /* the universe places a pattern at (0, 0): widen the box to start there */
            q.x = q.y = 0;
            q.width = c.box.width ? (uint64_t)c.box.x + c.box.width : 0;
            q.height = c.box.height ? (uint64_t)c.box.y + c.box.height : 0;
            uint64_t qw = bulk_life_words(q.width), bw = bulk_life_words(c.box.width);
            q.cells = calloc((size_t)(qw * q.height + 1), sizeof *q.cells);
            if (!q.cells) cli_die(CLI_EXIT_FAIL, "life: out of memory");
            for (uint64_t y = 0; y < c.box.height; y++)
                for (uint64_t j = 0; j < bw; j++)
                    for (uint64_t w = c.box.cells[y * bw + j]; w; w &= w - 1) {
                        uint64_t x = (uint64_t)c.box.x + 64 * j + (uint64_t)__builtin_ctzll(w);
                        q.cells[(y + (uint64_t)c.box.y) * qw + x / 64] |= 1ull << (x % 64);
                    }
        }
        fwrite(c.lines, 1, c.lines_len, stdout);
        lines->buf = c.lines;
        lines->len = c.lines_len;
        lines->cap = c.lines_len + 1; /* what life_ckpt_read allocated */
        c.lines = NULL;
        cli_warn("life run: resuming from %s at generation %" PRIu64, ckpt, c.generation);
    }
    int st = bulk_life_create(&u, ctx, &q, opt);
    if (r == 0) {
        if (opt->torus) free(q.cells);
        life_ckpt_free(&c);
    }
    if (st == BULK_ERR_ARG)
        cli_die(CLI_EXIT_USAGE, "life: cannot place the pattern in this universe (--max-memory too small?)");
    if (st) cli_die(CLI_EXIT_FAIL, "life: %s", bulk_status_string(st));
    return u;
}

/* Saves u (with id's identity and the lines so far) to ckpt. */
static void life_save(bulk_life *u, const char *ckpt, const life_ckpt *id, const life_lines *lines)
{
    life_ckpt c = *id;
    int st = bulk_life_extract(u, &c.box);
    if (st) cli_die(CLI_EXIT_FAIL, "life: %s", bulk_status_string(st));
    c.generation = bulk_life_generation(u);
    c.lines = lines->buf;
    c.lines_len = lines->len;
    if (life_ckpt_write(ckpt, &c) != 0)
        cli_die(CLI_EXIT_FAIL, "life run: cannot write the checkpoint %s: %s", ckpt, strerror(errno));
    bulk_life_pattern_free(&c.box);
}

/* Runs u (on ctx) from its generation to `target`: --every lines at g0 + k every (g0: the
 * input's generation) and at the end, a progress line (fed by the library's progress callback),
 * checkpoints every ckpt_every seconds and at the end. With checkpoints the generations go in
 * chunks sized to take about half a second to a second each; the result does not depend on the
 * chunks. */
static void life_steps(bulk_ctx *ctx, bulk_life *u, uint64_t g0, uint64_t target, uint64_t every, const char *ckpt,
                       double ckpt_every, const life_ckpt *id, life_lines *lines, uint64_t max_memory)
{
    uint64_t gen = bulk_life_generation(u);
    run_progress prog;
    run_progress_start(&prog, ctx, "life run", (double)(target - g0), (double)(gen - g0),
                       "generations", "cell updates");
    uint64_t chunk_max = 16;
    double work = 0, last_ckpt = bulk_now();
    while (gen < target) {
        uint64_t chunk = target - gen;
        if (every) {
            uint64_t next = g0 + ((gen - g0) / every + 1) * every;
            if (next - gen < chunk) chunk = next - gen;
        }
        if (ckpt && chunk > chunk_max) chunk = chunk_max;
        double cells = (double)bulk_life_grid_cells(u), t0 = bulk_now();
        run_progress_next(&prog, (double)(gen - g0), work, cells);
        int st = bulk_life_step(u, chunk);
        if (st == BULK_ERR_ARG)
            cli_die(CLI_EXIT_USAGE, "life: --max-memory %" PRIu64 " is too small for one tile of this universe", max_memory);
        if (st) cli_die(CLI_EXIT_FAIL, "life: step: %s", cli_lib_error(ctx));
        double now = bulk_now();
        if (chunk == chunk_max && now - t0 < 0.5 && chunk_max < (1ull << 40)) chunk_max *= 2;
        else if (now - t0 > 1 && chunk_max > 1) chunk_max /= 2;
        gen += chunk;
        work += cells * (double)chunk;
        if (every && (gen - g0) % every == 0) print_population(u, lines);
        if (ckpt && (gen == target || now - last_ckpt >= ckpt_every)) {
            life_save(u, ckpt, id, lines);
            last_ckpt = bulk_now();
        }
    }
    run_progress_end(&prog);
    if (every && (gen - g0) % every != 0) print_population(u, NULL); /* the last generation */
}

/* The rows of a --png picture: pixel row r shows cell rows [r / s * shrink, + shrink) of the
 * region (a pixel is alive when any of its shrink x shrink cells is), each cell pixel s pixels
 * wide and high; one band of cell rows is read at a time. Index 1 (black) is alive. */
struct life_pic {
    bulk_life *u;
    int64_t x, y;
    uint64_t w, h, shrink, s, pw;
    uint64_t band;  /* the pixel row of cells held in bits, UINT64_MAX: none yet */
    uint8_t *bits;  /* that row, packed as the PNG wants it (MSB first) */
    int st;         /* a failed bulk_life_region */
};

static int life_pic_row(void *ctx, uint32_t row, uint8_t *buf)
{
    struct life_pic *lp = ctx;
    uint64_t py = row / lp->s, nbytes = (lp->pw * lp->s + 7) / 8;
    if (py != lp->band) {
        bulk_life_pattern band;
        uint64_t rows = lp->shrink;
        if (py * lp->shrink + rows > lp->h) rows = lp->h - py * lp->shrink;
        lp->st = bulk_life_region(lp->u, lp->x, lp->y + (int64_t)(py * lp->shrink), lp->w, rows, &band);
        if (lp->st) {
            errno = EIO;
            return -1;
        }
        uint64_t nw = bulk_life_words(lp->w);
        memset(lp->bits, 0, (size_t)nbytes);
        for (uint64_t px = 0; px < lp->pw; px++) {
            int alive = 0;
            for (uint64_t r = 0; r < rows && !alive; r++)
                for (uint64_t c = px * lp->shrink; c < (px + 1) * lp->shrink && c < lp->w && !alive; c++)
                    alive = (int)((band.cells[r * nw + c / 64] >> (c % 64)) & 1);
            for (uint64_t i = px * lp->s; alive && i < (px + 1) * lp->s; i++)
                lp->bits[i / 8] |= (uint8_t)(0x80u >> (i % 8));
        }
        bulk_life_pattern_free(&band);
        lp->band = py;
    }
    memcpy(buf, lp->bits, (size_t)nbytes);
    return 0;
}

static void write_png(bulk_life *u, const char *path, const char *region, long long scale,
                      int torus, uint64_t tw, uint64_t th, int64_t dx, int64_t dy)
{
    int64_t x, y;
    uint64_t w, h;
    if (region) {
        long long a, b, c, d;
        char tail;
        if (sscanf(region, "%lld,%lld,%lld,%lld%c", &a, &b, &c, &d, &tail) != 4 || c <= 0 || d <= 0)
            cli_die(CLI_EXIT_USAGE, "life: --png-region: '%s' is not X,Y,W,H with W, H > 0", region);
        x = a - dx;
        y = b - dy;
        w = (uint64_t)c;
        h = (uint64_t)d;
    } else if (torus) {
        x = 0;
        y = 0;
        w = tw;
        h = th;
    } else {
        bulk_life_pattern box;
        int st = bulk_life_extract(u, &box);
        if (st) cli_die(CLI_EXIT_FAIL, "life: %s", bulk_status_string(st));
        x = box.x - 2;
        y = box.y - 2;
        w = box.width + 4;
        h = box.height + 4;
        bulk_life_pattern_free(&box);
    }
    uint64_t shrink = 1;
    while ((w + shrink - 1) / shrink > 4096 || (h + shrink - 1) / shrink > 4096) shrink++;
    uint64_t pw = (w + shrink - 1) / shrink, ph = (h + shrink - 1) / shrink;
    uint64_t s = (uint64_t)scale;
    if (scale <= 0) {
        s = 1;
        while (s < 8 && pw * (s + 1) <= 1024 && ph * (s + 1) <= 1024) s++;
    }
    if (pw * s > 65536 || ph * s > 65536)
        cli_die(CLI_EXIT_USAGE, "life: the PNG would be %" PRIu64 " x %" PRIu64 " pixels; use a smaller --png-scale",
                pw * s, ph * s);
    struct life_pic lp = { u, x, y, w, h, shrink, s, pw, UINT64_MAX, NULL, 0 };
    lp.bits = malloc((size_t)((pw * s + 7) / 8));
    if (!lp.bits) cli_die(CLI_EXIT_FAIL, "life: out of memory for the PNG");
    static const uint8_t white_black[6] = { 255, 255, 255, 0, 0, 0 };
    pic_image im = { (uint32_t)(pw * s), (uint32_t)(ph * s), PIC_INDEXED, 1, white_black, 2, life_pic_row, &lp };
    if (pic_png_write(path, &im) != 0) {
        if (lp.st) cli_die(CLI_EXIT_FAIL, "life: %s", bulk_status_string(lp.st));
        cli_die(CLI_EXIT_FAIL, "life: cannot write %s: %s", path, strerror(errno ? errno : EIO));
    }
    free(lp.bits);
}

static int life_run(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *png = NULL, *rule_text = NULL, *torus_text = NULL;
    const char *region = NULL, *tmp_dir = NULL, *ckpt = NULL;
    double ckpt_every = 60;
    long long steps = -1, every = 0, threads = 0, per_pass = 0, png_scale = 0;
    uint64_t max_memory = 0;
    bulk_backend backend = BULK_BACKEND_AUTO;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_opt_value(argc, argv, &i, "--in"))) in = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--steps"))) steps = cli_parse_ll("--steps", v, 0, INT64_MAX / 2);
        else if ((v = cli_opt_value(argc, argv, &i, "--rule"))) rule_text = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--torus"))) torus_text = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--out"))) out = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--png-region"))) region = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--png-scale"))) png_scale = cli_parse_ll("--png-scale", v, 1, 64);
        else if ((v = cli_opt_value(argc, argv, &i, "--png"))) png = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--every"))) every = cli_parse_ll("--every", v, 1, INT64_MAX / 2);
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--max-memory"))) max_memory = parse_bytes(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--tmp-dir"))) tmp_dir = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--per-pass"))) per_pass = cli_parse_ll("--per-pass", v, 1, 64);
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint-every"))) ckpt_every = (double)cli_parse_ll("--checkpoint-every", v, 0, 86400 * 365);
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint"))) ckpt = v;
        else cli_die(CLI_EXIT_USAGE, "life run: unknown argument '%s' (see bulk life --help)", argv[i]);
    }
    if (!in) cli_die(CLI_EXIT_USAGE, "life run: --in PATTERN is required");
    if (steps < 0) cli_die(CLI_EXIT_USAGE, "life run: --steps N is required");
    if (png && !pic_available()) cli_die(CLI_EXIT_USAGE, "life run: --png: " PIC_MISSING);

    bulk_life_pattern p;
    int st;
    if (strcmp(in, "-") == 0) { /* standard input */
        size_t len;
        char *text = cli_read_file(in, &len);
        in = "stdin";
        st = bulk_life_pattern_read(&p, text, len, in);
        free(text);
    } else {
        st = bulk_life_pattern_read_file(&p, in);
    }
    /* the library's message names the file (and line:column for malformed text) */
    if (st) cli_die(st == BULK_ERR_NOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE, "life: %s", cli_lib_error(NULL));

    bulk_life_options opt;
    memset(&opt, 0, sizeof opt);
    opt.rule = p.rule;
    if (rule_text) {
        size_t col = 0;
        if (bulk_life_rule_parse(&opt.rule, rule_text, &col) != BULK_OK)
            cli_die(CLI_EXIT_USAGE, "life: --rule '%s': unknown rule syntax at column %zu (want B/S notation such as B3/S23)",
                    rule_text, col);
    }
    if (torus_text) {
        opt.torus = 1;
        if (parse_dims("--torus", torus_text, &opt.torus_width, &opt.torus_height))
            cli_die(CLI_EXIT_USAGE, "life: --torus '%s': want WxH with W, H >= 1", torus_text);
        /* the frame the file states (its header's x and y), not only the live cells, must fit */
        if (p.frame_width > opt.torus_width || p.frame_height > opt.torus_height)
            cli_die(CLI_EXIT_USAGE,
                    "life: %s:1:1: the pattern (%" PRIu64 " x %" PRIu64 ") does not fit the torus %" PRIu64 " x %" PRIu64,
                    in, p.frame_width, p.frame_height, opt.torus_width, opt.torus_height);
    } else if (opt.rule.birth & 1) {
        cli_die(CLI_EXIT_USAGE, "life: a B0 rule fills the unbounded plane at once; use --torus WxH");
    }
    opt.max_memory = max_memory;
    opt.tmp_dir = tmp_dir;
    opt.per_pass = (unsigned)per_pass;

    if (ckpt && opt.torus && max_memory)
        cli_die(CLI_EXIT_USAGE, "life run: --checkpoint is not available for a --torus with --max-memory "
                "(an out-of-core torus is not saved); drop one of them");
    if ((uint64_t)steps > UINT64_MAX - p.generation)
        cli_die(CLI_EXIT_USAGE, "life run: generation %" PRIu64 " + --steps %lld is too large", p.generation, steps);
    uint64_t target = p.generation + (uint64_t)steps;
    life_ckpt id;
    memset(&id, 0, sizeof id);
    id.input = life_ckpt_pattern_hash(&p);
    bulk_life_rule_format(&opt.rule, id.rule, sizeof id.rule);
    if (opt.torus) snprintf(id.topology, sizeof id.topology, "torus %" PRIu64 "x%" PRIu64, opt.torus_width, opt.torus_height);
    else snprintf(id.topology, sizeof id.topology, "plane");
    id.every = (uint64_t)every;

    bulk_ctx *ctx = cli_open_ctx(backend, (int)threads);
    life_lines lines = { NULL, 0, 0 };
    int resumed;
    bulk_life *u = life_start(ctx, &p, &opt, ckpt, &id, target, &lines, &resumed);
    /* torus coordinates are the frame's, shifted to its #CXRLE Pos when it has one */
    int64_t dx = opt.torus ? p.x - (int64_t)p.frame_dx : 0, dy = opt.torus ? p.y - (int64_t)p.frame_dy : 0;
    if (every && !resumed) print_population(u, &lines);
    life_steps(ctx, u, p.generation, target, (uint64_t)every, ckpt, ckpt_every, &id, &lines, max_memory);
    free(lines.buf);

    bulk_life_pattern fin;
    st = bulk_life_extract(u, &fin);
    if (st) cli_die(CLI_EXIT_FAIL, "life: %s", cli_lib_error(ctx));
    fin.x += dx;
    fin.y += dy;
    char *text;
    size_t len;
    st = bulk_life_pattern_write_rle(&fin, &text, &len);
    if (st) cli_die(CLI_EXIT_FAIL, "life: %s", bulk_status_string(st));
    if (png) write_png(u, png, region, png_scale, opt.torus, opt.torus_width, opt.torus_height, dx, dy);
    if (out) {
        if (bulk_write_file_atomic(out, text, len) != 0)
            cli_die(CLI_EXIT_FAIL, "life: cannot write %s: %s", out, strerror(errno ? errno : EIO));
    } else {
        fwrite(text, 1, len, stdout);
    }
    free(text);
    bulk_life_pattern_free(&fin);
    bulk_life_free(u);
    bulk_ctx_close(ctx);
    bulk_life_pattern_free(&p);
    return CLI_EXIT_OK;
}

int cmd_life(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        fputs(life_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "run") == 0) {
        cli_help_if_asked(argc - 1, argv + 1, life_usage);
        return life_run(argc - 1, argv + 1);
    }
    cli_die(CLI_EXIT_USAGE, "life: unknown subcommand '%s' (want: run)", argv[1]);
}
