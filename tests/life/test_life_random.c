#define _GNU_SOURCE
/* Random universes against the byte-per-cell reference: tori and dead-boundary grids of many
 * sizes (widths 1..200, not only multiples of 64), several rules, generations per pass and thread
 * counts, hundreds of generations; and the unbounded plane (bulk_life) against a reference grid
 * large enough that nothing reaches its edge. */
#include "life/life_internal.h"
#include "bulk/life.h"
#include "life_ref.h"
#include "test_util.h"

static const bulk_life_rule rules[] = {
    { 0x8, 0xc },     /* B3/S23 */
    { 0x48, 0xc },    /* B36/S23 HighLife */
    { 0x1c8, 0x1d8 }, /* B3678/S34678 Day & Night */
    { 0x4, 0 },       /* B2/S Seeds */
    { 0x1, 0x1ff },   /* B0/S012345678: everything born and surviving */
};

static void grid_case(bulk_ctx *ctx, uint64_t *rs, uint64_t w, uint64_t h, int torus,
                      const bulk_life_rule *rule, unsigned per_pass, unsigned gens)
{
    uint64_t nw = (w + 63) / 64;
    uint8_t *g = malloc(w * h);
    uint64_t *cells = malloc(nw * h * 8);
    unsigned density = (unsigned)(test_rand(rs) % 4); /* 1/2, 1/4, 1/8, 3/4 */
    for (uint64_t i = 0; i < w * h; i++) {
        uint64_t r = test_rand(rs);
        g[i] = (uint8_t)(density == 0 ? r & 1 : density == 1 ? (r & 3) == 0 : density == 2 ? (r & 7) == 0 : (r & 3) != 0);
    }
    ref_to_bits(g, w, h, cells);
    unsigned done = 0;
    while (done < gens) {
        unsigned chunk = 1 + (unsigned)(test_rand(rs) % 40);
        if (chunk > gens - done) chunk = gens - done;
        int st = bulk_life_grid_step(ctx, cells, w, h, torus, rule, chunk, per_pass);
        CHECK(st == BULK_OK, "status %d", st);
        for (unsigned k = 0; k < chunk; k++) ref_step(g, w, h, torus, rule->birth, rule->survive);
        done += chunk;
        int64_t bad = ref_compare(g, w, h, cells);
        if (bad >= 0) {
            CHECK(0, "%" PRIu64 "x%" PRIu64 " torus %d rule B%x/S%x per_pass %u threads %d: differs at cell %" PRId64
                  " after %u generations", w, h, torus, rule->birth, rule->survive, per_pass,
                  bulk_ctx_threads(ctx), bad, done);
            break;
        }
    }
    free(g);
    free(cells);
}

/* The plane: a random soup run through bulk_life in uneven chunks, against a reference grid
 * with a margin of gens + 2 cells. */
static void plane_case(bulk_ctx *ctx, uint64_t *rs, uint64_t pw, uint64_t ph, const bulk_life_rule *rule,
                       unsigned per_pass, unsigned gens)
{
    bulk_life_pattern p;
    memset(&p, 0, sizeof p);
    uint64_t pnw = (pw + 63) / 64;
    p.width = pw;
    p.height = ph;
    p.x = (int64_t)(test_rand(rs) % 1000) - 500;
    p.y = (int64_t)(test_rand(rs) % 1000) - 500;
    p.cells = calloc(pnw * ph, 8);
    p.rule = *rule;
    uint64_t m = gens + 2, W = pw + 2 * m, H = ph + 2 * m;
    uint8_t *g = calloc(W * H, 1);
    for (uint64_t y = 0; y < ph; y++)
        for (uint64_t x = 0; x < pw; x++)
            if (test_rand(rs) % 3 == 0) {
                p.cells[y * pnw + x / 64] |= 1ull << (x % 64);
                g[(y + m) * W + x + m] = 1;
            }
    bulk_life_options opt;
    memset(&opt, 0, sizeof opt);
    opt.rule = *rule;
    opt.per_pass = per_pass;
    bulk_life *u;
    int st = bulk_life_create(&u, ctx, &p, &opt);
    CHECK(st == BULK_OK, "create: %d", st);
    if (st) return;
    unsigned done = 0;
    while (done < gens) {
        unsigned chunk = 1 + (unsigned)(test_rand(rs) % 60);
        if (chunk > gens - done) chunk = gens - done;
        CHECK(bulk_life_step(u, chunk) == BULK_OK, "step");
        done += chunk;
    }
    for (unsigned k = 0; k < gens; k++) ref_step(g, W, H, 0, rule->birth, rule->survive);
    bulk_life_pattern out;
    st = bulk_life_extract(u, &out);
    CHECK(st == BULK_OK, "extract: %d", st);
    CHECK(out.generation == gens, "generation %" PRIu64, out.generation);
    /* every cell of the reference grid, in plane coordinates, against the extracted pattern */
    uint64_t onw = (out.width + 63) / 64, ref_pop = 0, pop = 0;
    for (uint64_t y = 0; y < H; y++)
        for (uint64_t x = 0; x < W; x++) {
            int64_t px = (int64_t)x - (int64_t)m + p.x, py = (int64_t)y - (int64_t)m + p.y;
            int got = 0;
            if (px >= out.x && py >= out.y && px < out.x + (int64_t)out.width && py < out.y + (int64_t)out.height) {
                uint64_t ox = (uint64_t)(px - out.x), oy = (uint64_t)(py - out.y);
                got = (int)((out.cells[oy * onw + ox / 64] >> (ox % 64)) & 1);
            }
            ref_pop += g[y * W + x];
            if (got != g[y * W + x]) {
                CHECK(0, "plane %" PRIu64 "x%" PRIu64 " rule B%x/S%x: cell (%" PRId64 ", %" PRId64 ") differs after %u", pw,
                      ph, rule->birth, rule->survive, px, py, gens);
                goto done;
            }
        }
    CHECK(bulk_life_population(u, &pop) == BULK_OK && pop == ref_pop, "population %" PRIu64 " want %" PRIu64, pop, ref_pop);
done:
    bulk_life_pattern_free(&out);
    bulk_life_free(u);
    bulk_life_pattern_free(&p);
    free(g);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), rs = seed;
    const char *san = getenv("BULK_SANITIZED");
    int small = san && *san && strcmp(san, "0") != 0;
    const uint64_t ws[] = { 1, 2, 3, 5, 31, 63, 64, 65, 100, 127, 128, 129, 191, 200, 257, 577, 640, 1000 };
    const uint64_t hs[] = { 1, 2, 3, 7, 40, 65 };
    /* seed 001's SINGLE-WORD and DOUBLE-WORD (the benchmark's peers) against the reference */
    for (int dw = 0; dw < 2; dw++)
        for (int torus = 0; torus < 2; torus++)
            for (uint64_t w = 1; w < 200; w += 1 + w / 3)
                for (uint64_t h = 1; h < 40; h += 1 + h) {
                    uint64_t nw = (w + 63) / 64;
                    uint8_t *g = malloc(w * h);
                    uint64_t *cells = malloc(nw * h * 8);
                    for (uint64_t i = 0; i < w * h; i++) g[i] = (uint8_t)(test_rand(&rs) % 3 == 0);
                    ref_to_bits(g, w, h, cells);
                    unsigned gens = small ? 10 : 60;
                    CHECK(life_cpu_step_seed(cells, w, h, torus, gens, dw) == BULK_OK, "seed step");
                    for (unsigned k = 0; k < gens; k++) ref_step(g, w, h, torus, 0x8, 0xc);
                    int64_t bad = ref_compare(g, w, h, cells);
                    CHECK(bad < 0, "seed %s %" PRIu64 "x%" PRIu64 " torus %d: cell %" PRId64, dw ? "DOUBLE-WORD" : "SINGLE-WORD",
                          w, h, torus, bad);
                    free(g);
                    free(cells);
                }
    /* each instruction-set version of the CPU kernels (the CPU may lack some: then the widest it
     * has runs), with 1 and 2 threads */
    const char *isas[] = { "avx512", "avx2", "base" };
    for (int run = 0; run < 4; run++) {
        int threads = run == 3 ? 2 : 1;
        printf("kernels %s, %d thread(s)\n", isas[run % 3], threads);
        bulk_ctx *ctx;
        if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, threads) != BULK_OK) return 1;
        char tune[32];
        snprintf(tune, sizeof tune, "life.isa=%s", isas[run % 3]);
        CHECK(bulk_ctx_set_tune(ctx, tune) == BULK_OK, "%s: %s", tune, bulk_ctx_last_error(ctx));
        for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++)
            for (size_t hi = 0; hi < sizeof hs / sizeof hs[0]; hi++)
                for (int torus = 0; torus < 2; torus++) {
                    const bulk_life_rule *rule = &rules[test_rand(&rs) % 5];
                    unsigned pp = (unsigned[]){ 0, 1, 2, 3, 8, 17 }[test_rand(&rs) % 6];
                    unsigned gens = ws[wi] * hs[hi] > 4000 ? 100 : 300;
                    if (run > 0 && ws[wi] * hs[hi] > 20000) continue; /* the big ones once */
                    if (small) gens /= 6;
                    grid_case(ctx, &rs, ws[wi], hs[hi], torus, rule, pp, gens);
                }
        for (int i = 0; i < (small ? 3 : 12); i++) {
            const bulk_life_rule *rule = &rules[test_rand(&rs) % 4];
            unsigned pp = (unsigned[]){ 0, 1, 4, 16 }[i % 4];
            plane_case(ctx, &rs, 1 + test_rand(&rs) % 70, 1 + test_rand(&rs) % 40, rule, pp,
                       small ? 40 : 100 + (unsigned)(test_rand(&rs) % 100));
        }
        bulk_ctx_close(ctx);
    }
    return test_finish();
}
