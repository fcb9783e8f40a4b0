/* The CPU backend of Life: bit-sliced 64-bit words (life_core.h), rows processed whole so that
 * gcc vectorizes the word loops (AVX-512, AVX2 or SSE2 versions chosen at run time), several
 * generations per pass over memory (temporal blocking), bands of rows spread over all threads.
 *
 * A pass of t generations reads grid G and writes a new grid D. Each band of rows [r0, r1) is
 * computed from rows [r0 - t, r1 + t) of G (the halo, wrapped on a torus, dead rows outside a
 * dead-boundary grid): generation k is computed for local rows [k, n - k), so after t
 * generations exactly the band's own rows are right (seed 001 section 6.4's clean and dirty
 * cells, in one dimension). Generation 1 reads G directly and generation t writes D directly;
 * the ones between use two band buffers per thread, small enough to stay in the L2 cache. */
#include <stdlib.h>
#include <string.h>

#include "bpbc/life/life_core.h"
#include "bpbc/life/life_internal.h"
#include "common/parallel.h"

/* ---- row kernels, compiled for three instruction sets ---------------------------------- */

/* Row sum (s1 s0) = L + C + R of one row c[0..nw). Word 0 and word nw - 1 get their outer
 * neighbour from the boundary: the other end of the row on a torus, 0 on a dead boundary. */
#define LIFE_ROW_KERNELS(SFX, ATTR)                                                                 \
    ATTR static void row_sum3_##SFX(const uint64_t *restrict c, uint64_t nw, uint64_t width,        \
                                    int torus, uint64_t *restrict s0, uint64_t *restrict s1)        \
    {                                                                                               \
        for (uint64_t j = 1; j + 1 < nw; j++) {                                                     \
            uint64_t l = (c[j] << 1) | (c[j - 1] >> 63);                                            \
            uint64_t r = (c[j] >> 1) | (c[j + 1] << 63);                                            \
            life_sum3_64(l, c[j], r, &s0[j], &s1[j]);                                               \
        }                                                                                           \
        unsigned b = (unsigned)((width - 1) % 64);                                                  \
        uint64_t last = c[nw - 1];                                                                  \
        uint64_t cw = torus ? (last >> b) & 1 : 0;    /* the cell left of cell 0 */                 \
        uint64_t c0 = torus ? (c[0] & 1) << b : 0;    /* the cell right of cell width-1, at b */    \
        if (nw == 1) {                                                                              \
            uint64_t l = (last << 1) | cw, r = (last >> 1) | c0;                                     \
            life_sum3_64(l, last, r, &s0[0], &s1[0]);                                               \
            return;                                                                                 \
        }                                                                                           \
        uint64_t l = (c[0] << 1) | cw, r = (c[0] >> 1) | (c[1] << 63);                               \
        life_sum3_64(l, c[0], r, &s0[0], &s1[0]);                                                   \
        l = (last << 1) | (c[nw - 2] >> 63);                                                        \
        r = (last >> 1) | c0;                                                                       \
        life_sum3_64(l, last, r, &s0[nw - 1], &s1[nw - 1]);                                         \
    }                                                                                               \
    ATTR static void row_out_conway_##SFX(                                                          \
        const uint64_t *restrict a0, const uint64_t *restrict a1, const uint64_t *restrict b0,      \
        const uint64_t *restrict b1, const uint64_t *restrict c0, const uint64_t *restrict c1,      \
        const uint64_t *restrict self, uint64_t *restrict out, uint64_t nw, uint64_t lastmask)      \
    {                                                                                               \
        for (uint64_t j = 0; j < nw; j++) {                                                         \
            uint64_t x0, z0, w4, w8;                                                                \
            life_sum9_64(a0[j], a1[j], b0[j], b1[j], c0[j], c1[j], &x0, &z0, &w4, &w8);             \
            out[j] = life_conway_64(self[j], x0, z0, w4);                                           \
        }                                                                                           \
        out[nw - 1] &= lastmask;                                                                    \
    }                                                                                               \
    ATTR static void row_out_generic_##SFX(                                                         \
        const uint64_t *restrict a0, const uint64_t *restrict a1, const uint64_t *restrict b0,      \
        const uint64_t *restrict b1, const uint64_t *restrict c0, const uint64_t *restrict c1,      \
        const uint64_t *restrict self, uint64_t *restrict out, uint64_t nw, uint64_t lastmask,      \
        const uint64_t *restrict tab)                                                               \
    {                                                                                               \
        for (uint64_t j = 0; j < nw; j++) {                                                         \
            uint64_t x0, z0, w4, w8;                                                                \
            life_sum9_64(a0[j], a1[j], b0[j], b1[j], c0[j], c1[j], &x0, &z0, &w4, &w8);             \
            out[j] = life_generic_64(self[j], x0, z0, w4, w8, tab);                                 \
        }                                                                                           \
        out[nw - 1] &= lastmask;                                                                    \
    }

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
LIFE_ROW_KERNELS(avx512, __attribute__((target("avx512f,avx512vl"))))
LIFE_ROW_KERNELS(avx2, __attribute__((target("avx2"))))
#define LIFE_HAVE_X86_VERSIONS 1
#endif
LIFE_ROW_KERNELS(base, )

typedef void (*row_sum3_fn)(const uint64_t *, uint64_t, uint64_t, int, uint64_t *, uint64_t *);
typedef void (*row_conway_fn)(const uint64_t *, const uint64_t *, const uint64_t *,
                              const uint64_t *, const uint64_t *, const uint64_t *,
                              const uint64_t *, uint64_t *, uint64_t, uint64_t);
typedef void (*row_generic_fn)(const uint64_t *, const uint64_t *, const uint64_t *,
                               const uint64_t *, const uint64_t *, const uint64_t *,
                               const uint64_t *, uint64_t *, uint64_t, uint64_t, const uint64_t *);

typedef struct row_kernels {
    row_sum3_fn sum3;
    row_conway_fn conway;
    row_generic_fn generic;
} row_kernels;

/* The widest instruction set this CPU runs; BULK_LIFE_ISA=base|avx2|avx512 forces one. */
static row_kernels pick_kernels(void)
{
    row_kernels k = { row_sum3_base, row_out_conway_base, row_out_generic_base };
#ifdef LIFE_HAVE_X86_VERSIONS
    const char *env = getenv("BULK_LIFE_ISA");
    int want512 = 1, want2 = 1;
    if (env && strcmp(env, "base") == 0) want512 = want2 = 0;
    if (env && strcmp(env, "avx2") == 0) want512 = 0;
    __builtin_cpu_init();
    if (want512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) {
        k.sum3 = row_sum3_avx512;
        k.conway = row_out_conway_avx512;
        k.generic = row_out_generic_avx512;
    } else if (want2 && __builtin_cpu_supports("avx2")) {
        k.sum3 = row_sum3_avx2;
        k.conway = row_out_conway_avx2;
        k.generic = row_out_generic_avx2;
    }
#endif
    return k;
}

/* ---- one pass of t generations over a band ------------------------------------------------ */

typedef struct pass_ctx {
    const uint64_t *src;
    uint64_t *dst;
    uint64_t width, height, nw, lastmask;
    int torus, conway;
    unsigned t;           /* generations in this pass */
    uint64_t band;        /* rows per band */
    const uint64_t *zero; /* a row of dead cells */
    uint64_t tab[20];
    row_kernels k;
    uint64_t **scratch;   /* per worker: 6 sum rows, then 2 band buffers (when t > 1) */
} pass_ctx;

/* Computes generation k of local rows [lo, hi) of a band from generation k-1 rows
 * [lo - 1, hi + 1) (pointers in `in`), writing to the rows `out[i]` (NULL: a row that stays dead). */
static void band_level(const pass_ctx *pc, const uint64_t *const *in, uint64_t *const *out,
                       int64_t lo, int64_t hi, uint64_t *sums)
{
    uint64_t nw = pc->nw;
    uint64_t *s0[3], *s1[3];
    for (int i = 0; i < 3; i++) {
        s0[i] = sums + (2 * i) * nw;
        s1[i] = sums + (2 * i + 1) * nw;
    }
    pc->k.sum3(in[lo - 1], nw, pc->width, pc->torus, s0[0], s1[0]);
    pc->k.sum3(in[lo], nw, pc->width, pc->torus, s0[1], s1[1]);
    int a = 0, b = 1, c = 2;
    for (int64_t i = lo; i < hi; i++) {
        pc->k.sum3(in[i + 1], nw, pc->width, pc->torus, s0[c], s1[c]);
        if (out[i]) {
            if (pc->conway)
                pc->k.conway(s0[a], s1[a], s0[b], s1[b], s0[c], s1[c], in[i], out[i], nw, pc->lastmask);
            else
                pc->k.generic(s0[a], s1[a], s0[b], s1[b], s0[c], s1[c], in[i], out[i], nw,
                              pc->lastmask, pc->tab);
        }
        int t = a;
        a = b;
        b = c;
        c = t;
    }
}

static void pass_band(void *arg, size_t begin, size_t end, int worker)
{
    const pass_ctx *pc = arg;
    unsigned t = pc->t;
    uint64_t nw = pc->nw, H = pc->height;
    uint64_t *sums = pc->scratch[worker];
    uint64_t *buf = sums + 6 * nw;
    for (size_t bi = begin; bi < end; bi++) {
        int64_t r0 = (int64_t)(bi * pc->band);
        int64_t r1 = r0 + (int64_t)pc->band;
        if (r1 > (int64_t)H) r1 = (int64_t)H;
        int64_t n = (r1 - r0) + 2 * (int64_t)t; /* local rows: global r0 - t + i */
        const uint64_t *inrow[n];
        uint64_t *outrow[n];
        int live[n]; /* the global row exists (torus: always) */
        for (int64_t i = 0; i < n; i++) {
            int64_t g = r0 - (int64_t)t + i;
            if (pc->torus) {
                g %= (int64_t)H;
                if (g < 0) g += (int64_t)H;
                live[i] = 1;
            } else {
                live[i] = g >= 0 && g < (int64_t)H;
            }
            inrow[i] = live[i] ? pc->src + (uint64_t)g * nw : pc->zero;
        }
        for (unsigned k = 1; k <= t; k++) {
            for (int64_t i = 0; i < n; i++) {
                if (!live[i] || i < (int64_t)k || i >= n - (int64_t)k) outrow[i] = NULL;
                else if (k == t) outrow[i] = pc->dst + (uint64_t)(r0 - (int64_t)t + i) * nw;
                else outrow[i] = buf + ((k & 1) * (uint64_t)n + (uint64_t)i) * nw;
            }
            band_level(pc, inrow, outrow, (int64_t)k, n - (int64_t)k, sums);
            for (int64_t i = 0; i < n; i++)
                if (outrow[i]) inrow[i] = outrow[i];
        }
    }
}

int life_cpu_step(uint64_t *cells, uint64_t width, uint64_t height, int torus,
                  const bulk_life_rule *rule, uint64_t steps, unsigned per_pass, int threads)
{
    if (!cells || !rule || width == 0 || height == 0) return BULK_ERR_ARG;
    if (steps == 0) return BULK_OK;
    if (threads < 1) threads = 1;
    uint64_t nw = bulk_life_words(width);
    uint64_t grid_words = nw * height;
    /* Per pass: several generations only pay when the grid is larger than the caches. */
    unsigned t = per_pass;
    if (t == 0) t = grid_words * 8 > (4u << 20) ? 4 : 1;
    if (t > 64) t = 64;
    /* Bands: enough for the threads; tall enough that the halo (2t rows) is a small share;
     * short enough that 2 band buffers stay in a ~1 MiB L2 cache. */
    uint64_t band = 8 * (uint64_t)t;
    uint64_t fit = (512u << 10) / (16 * nw + 1);
    if (band < fit) band = fit > 256 ? 256 : fit;
    if (band < 4 * (uint64_t)t) band = 4 * (uint64_t)t;
    uint64_t per_thread = (height + (uint64_t)threads * 4 - 1) / ((uint64_t)threads * 4);
    if (band > per_thread && per_thread >= 2 * (uint64_t)t) band = per_thread;
    if (band > height) band = height;
    if (band == 0) band = 1;
    uint64_t nbands = (height + band - 1) / band;

    pass_ctx pc;
    memset(&pc, 0, sizeof pc);
    pc.width = width;
    pc.height = height;
    pc.nw = nw;
    pc.lastmask = width % 64 ? (1ull << (width % 64)) - 1 : ~0ull;
    pc.torus = torus;
    pc.conway = rule->birth == LIFE_CONWAY_BIRTH && rule->survive == LIFE_CONWAY_SURVIVE;
    life_rule_table_64(rule->birth, rule->survive, pc.tab);
    pc.k = pick_kernels();
    pc.band = band;

    int st = BULK_ERR_NOMEM;
    uint64_t *other = malloc(grid_words * sizeof(uint64_t));
    uint64_t *zero = calloc(nw, sizeof(uint64_t));
    uint64_t **scratch = calloc((size_t)threads, sizeof *scratch);
    if (!other || !zero || !scratch) goto out;
    size_t scratch_words = (size_t)(6 * nw + (t > 1 ? 2 * (band + 2 * (uint64_t)t) * nw : 0));
    for (int i = 0; i < threads; i++)
        if (!(scratch[i] = malloc(scratch_words * sizeof(uint64_t)))) goto out;
    pc.zero = zero;
    pc.scratch = scratch;

    uint64_t *a = cells, *b = other;
    for (uint64_t done = 0; done < steps;) {
        unsigned tp = steps - done < t ? (unsigned)(steps - done) : t;
        pc.t = tp;
        pc.src = a;
        pc.dst = b;
        bulk_parallel_for(threads, (size_t)nbands, 1, pass_band, &pc);
        uint64_t *tmp = a;
        a = b;
        b = tmp;
        done += tp;
    }
    if (a != cells) memcpy(cells, a, grid_words * sizeof(uint64_t));
    st = BULK_OK;
out:
    if (scratch)
        for (int i = 0; i < threads; i++) free(scratch[i]);
    free(scratch);
    free(zero);
    free(other);
    return st;
}
