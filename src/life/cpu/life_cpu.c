/* The CPU backend of Life: bit-sliced 64-bit words (life_core.h) in GCC vector types (AVX-512,
 * AVX2 and SSE2 versions, the widest the CPU has chosen at run time), blocks of words carried down
 * the rows in registers, several generations per pass over memory (temporal blocking), bands of
 * rows spread over all threads.
 *
 * A pass of t generations reads grid G and writes a new grid D. Each band of rows [r0, r1) is
 * computed from rows [r0 - t, r1 + t) of G (the halo, wrapped on a torus, dead rows outside a
 * dead-boundary grid): generation k is computed for local rows [k, n - k), so after t
 * generations exactly the band's own rows are right (seed 001 section 6.4's clean and dirty
 * cells, in one dimension). Generation 1 reads G directly and generation t writes D directly;
 * the ones between use two band buffers per thread, small enough to stay in the L2 cache. */
#include <stdlib.h>
#include <string.h>

#include "life/life_core.h"
#include "life/life_internal.h"
#include "common/parallel.h"

/* ---- the band kernels ------------------------------------------------------------------- */

typedef struct pass_ctx pass_ctx;
typedef void (*band_level_fn)(const pass_ctx *pc, const uint64_t *const *in, uint64_t *const *out,
                              int64_t lo, int64_t hi);

struct pass_ctx {
    const uint64_t *src;
    uint64_t *dst;
    uint64_t width, height, nw, lastmask;
    int torus, conway;
    unsigned t;           /* generations in this pass */
    uint64_t band;        /* rows per band */
    const uint64_t *zero; /* a row of dead cells */
    uint64_t tab[20];     /* life_rule_table_64 of the rule */
    band_level_fn level;
    uint64_t **scratch;   /* per worker: 2 band buffers (when t > 1) */
};

/* Row sum of word j of row c, its outer neighbours from the grid's boundary at the row ends
 * (the other end of the row on a torus, at bit granularity; dead cells otherwise). */
static inline void word_sum3(const uint64_t *c, uint64_t j, const pass_ctx *pc, uint64_t *s0, uint64_t *s1)
{
    uint64_t nw = pc->nw, w = c[j];
    unsigned b = (unsigned)((pc->width - 1) % 64); /* bit of the row's last cell */
    uint64_t prev = j > 0 ? c[j - 1] >> 63 : pc->torus ? (c[nw - 1] >> b) & 1 : 0;
    uint64_t next = j + 1 < nw ? c[j + 1] << 63 : pc->torus ? (c[0] & 1) << b : 0;
    uint64_t l = (w << 1) | prev, r = (w >> 1) | next;
    LIFE_SUM3(uint64_t, l, w, r, *s0, *s1);
}

/* Generation k+1 of word j of local row i, one word at a time (row ends, narrow grids). */
static inline uint64_t word_next(const pass_ctx *pc, const uint64_t *const *in, int64_t i, uint64_t j)
{
    uint64_t a0, a1, b0, b1, c0, c1, x0, z0, w4, w8, o;
    word_sum3(in[i - 1], j, pc, &a0, &a1);
    word_sum3(in[i], j, pc, &b0, &b1);
    word_sum3(in[i + 1], j, pc, &c0, &c1);
    LIFE_SUM9(uint64_t, a0, a1, b0, b1, c0, c1, x0, z0, w4, w8);
    uint64_t self = in[i][j];
    if (pc->conway) o = LIFE_CONWAY(self, x0, z0, w4);
    else LIFE_GENERIC(uint64_t, self, x0, z0, w4, w8, pc->tab, o);
    return j == pc->nw - 1 ? o & pc->lastmask : o;
}

/* One generation of local rows [lo, hi) of a band (from rows [lo - 1, hi + 1) of `in`; rows with
 * out[i] == NULL stay dead and are not written), for vectors of VW words. A block of VW words is
 * carried down all the rows, the row sums of the two rows above kept in registers, so each row
 * is loaded once per block (three overlapping loads for the shifted neighbours) and each output
 * stored once: seed 001's "several rows per pass" in the CPU's registers. Blocks cover words
 * [1, nw - 1) (the last block overlaps its neighbour rather than running past the row); the
 * two end words of each row, which wrap or see the dead boundary, go one at a time. */
#define LIFE_BAND_KERNEL(SFX, ATTR, VW)                                                             \
    typedef uint64_t life_vec_##SFX __attribute__((vector_size(8 * (VW))));                         \
    ATTR static void band_level_##SFX(const pass_ctx *pc, const uint64_t *const *in,                 \
                                      uint64_t *const *out, int64_t lo, int64_t hi)                 \
    {                                                                                               \
        typedef life_vec_##SFX V;                                                                   \
        const uint64_t nw = pc->nw;                                                                 \
        if (nw < (VW) + 2) {                                                                        \
            for (int64_t i = lo; i < hi; i++)                                                       \
                if (out[i])                                                                         \
                    for (uint64_t j = 0; j < nw; j++) out[i][j] = word_next(pc, in, i, j);          \
            return;                                                                                 \
        }                                                                                           \
        V tab[20];                                                                                  \
        for (int k = 0; k < 20; k++)                                                                \
            for (int e = 0; e < (VW); e++) tab[k][e] = pc->tab[k];                                  \
        for (uint64_t j0 = 1; j0 < nw - 1; j0 += (VW)) {                                            \
            const uint64_t j = j0 + (VW) <= nw - 1 ? j0 : nw - 1 - (VW);                            \
            V a0, a1, b0, b1, self, unused;                                                         \
            LIFE_VSUM(V, in[lo - 1], j, a0, a1, unused);                                            \
            LIFE_VSUM(V, in[lo], j, b0, b1, self);                                                  \
            (void)unused;                                                                           \
            if (pc->conway) {                                                                       \
                for (int64_t i = lo; i < hi; i++) {                                                 \
                    V c0, c1, cv, x0, z0, w4, w8;                                                   \
                    LIFE_VSUM(V, in[i + 1], j, c0, c1, cv);                                         \
                    if (out[i]) {                                                                   \
                        LIFE_SUM9(V, a0, a1, b0, b1, c0, c1, x0, z0, w4, w8);                       \
                        V o = LIFE_CONWAY(self, x0, z0, w4);                                        \
                        (void)w8;                                                                   \
                        memcpy(out[i] + j, &o, sizeof o);                                           \
                    }                                                                               \
                    a0 = b0, a1 = b1, b0 = c0, b1 = c1, self = cv;                                  \
                }                                                                                   \
            } else {                                                                                \
                for (int64_t i = lo; i < hi; i++) {                                                 \
                    V c0, c1, cv, x0, z0, w4, w8, o;                                                \
                    LIFE_VSUM(V, in[i + 1], j, c0, c1, cv);                                         \
                    if (out[i]) {                                                                   \
                        LIFE_SUM9(V, a0, a1, b0, b1, c0, c1, x0, z0, w4, w8);                       \
                        LIFE_GENERIC(V, self, x0, z0, w4, w8, tab, o);                              \
                        memcpy(out[i] + j, &o, sizeof o);                                           \
                    }                                                                               \
                    a0 = b0, a1 = b1, b0 = c0, b1 = c1, self = cv;                                  \
                }                                                                                   \
            }                                                                                       \
        }                                                                                           \
        for (int64_t i = lo; i < hi; i++)                                                           \
            if (out[i]) {                                                                           \
                out[i][0] = word_next(pc, in, i, 0);                                                \
                out[i][nw - 1] = word_next(pc, in, i, nw - 1);                                      \
            }                                                                                       \
    }

/* Row sum of words [j, j + VW) of row `row` (all inside the row, not at its ends): the shifted
 * neighbours come from the overlapping loads at j - 1 and j + 1. cv receives the words. */
#define LIFE_VSUM(V, row, j, s0, s1, cv)                                                            \
    do {                                                                                            \
        V vc_, vl_, vr_;                                                                            \
        memcpy(&vc_, (row) + (j), sizeof vc_);                                                      \
        memcpy(&vl_, (row) + (j) - 1, sizeof vl_);                                                  \
        memcpy(&vr_, (row) + (j) + 1, sizeof vr_);                                                  \
        V vL_ = (vc_ << 1) | (vl_ >> 63);                                                           \
        V vR_ = (vc_ >> 1) | (vr_ << 63);                                                           \
        LIFE_SUM3(V, vL_, vc_, vR_, s0, s1);                                                        \
        (cv) = vc_;                                                                                 \
    } while (0)

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
LIFE_BAND_KERNEL(avx512, __attribute__((target("avx512f,avx512vl"))), 8)
LIFE_BAND_KERNEL(avx2, __attribute__((target("avx2"))), 4)
#define LIFE_HAVE_X86_VERSIONS 1
#endif
LIFE_BAND_KERNEL(base, , 2)

/* The widest instruction set this CPU runs, at most isa (BULK_TUNE_ISA_*; AUTO: no cap). */
static band_level_fn pick_kernel(int isa)
{
    band_level_fn k = band_level_base;
    (void)isa; /* no other kernel is compiled where the x86 versions are not */
#ifdef LIFE_HAVE_X86_VERSIONS
    int want512 = isa == BULK_TUNE_ISA_AUTO || isa == BULK_TUNE_ISA_AVX512;
    int want2 = isa != BULK_TUNE_ISA_BASE;
    __builtin_cpu_init();
    if (want512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) k = band_level_avx512;
    else if (want2 && __builtin_cpu_supports("avx2")) k = band_level_avx2;
#endif
    return k;
}

/* ---- one pass of t generations over a band ------------------------------------------------ */

static void pass_band(void *arg, size_t begin, size_t end, int worker)
{
    const pass_ctx *pc = arg;
    unsigned t = pc->t;
    uint64_t nw = pc->nw, H = pc->height;
    uint64_t *buf = pc->scratch[worker];
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
            pc->level(pc, (const uint64_t *const *)inrow, outrow, (int64_t)k, n - (int64_t)k);
            for (int64_t i = 0; i < n; i++)
                if (outrow[i]) inrow[i] = outrow[i];
        }
    }
}

int life_cpu_step(uint64_t *cells, uint64_t width, uint64_t height, int torus,
                  const bulk_life_rule *rule, uint64_t steps, unsigned per_pass, int threads, int isa)
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
    pc.level = pick_kernel(isa);
    pc.band = band;

    int st = BULK_ERR_NOMEM;
    uint64_t *other = malloc(grid_words * sizeof(uint64_t));
    uint64_t *zero = calloc(nw, sizeof(uint64_t));
    uint64_t **scratch = calloc((size_t)threads, sizeof *scratch);
    if (!other || !zero || !scratch) goto out;
    size_t scratch_words = (size_t)(1 + (t > 1 ? 2 * (band + 2 * (uint64_t)t) * nw : 0));
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
