/* The public facts of tests/data/life (their #C lines), on the unbounded plane and on tori. */
#include "bulk/life.h"
#include "test_util.h"

static bulk_ctx *ctx;

static int load(const char *name, bulk_life_pattern *p)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", LIFE_DATA_DIR, name);
    int st = bulk_life_pattern_read_file(p, path);
    CHECK(st == BULK_OK, "%s: %d %s", path, st, bulk_ctx_last_error(NULL));
    return st;
}

static bulk_life *make(const bulk_life_pattern *p, int torus, uint64_t tw, uint64_t th, unsigned per_pass)
{
    bulk_life_options opt;
    memset(&opt, 0, sizeof opt);
    opt.rule = p->rule;
    opt.torus = torus;
    opt.torus_width = tw;
    opt.torus_height = th;
    opt.per_pass = per_pass;
    bulk_life *u = NULL;
    int st = bulk_life_create(&u, ctx, p, &opt);
    CHECK(st == BULK_OK, "create: %d", st);
    return u;
}

static uint64_t pop(bulk_life *u)
{
    uint64_t n = 0;
    CHECK(bulk_life_population(u, &n) == BULK_OK, "population");
    return n;
}

/* a and b hold the same cells, b shifted by (dx, dy) */
static int same_shape(const bulk_life_pattern *a, const bulk_life_pattern *b, int64_t dx, int64_t dy)
{
    if (a->width != b->width || a->height != b->height) return 0;
    if (b->x - a->x != dx || b->y - a->y != dy) return 0;
    uint64_t nw = (a->width + 63) / 64;
    return memcmp(a->cells, b->cells, nw * a->height * 8) == 0;
}

/* A spaceship returns to its shape after `period` generations, displaced by (dx, dy). */
static void spaceship(const char *name, int period, int64_t dx, int64_t dy)
{
    bulk_life_pattern p, a, b;
    if (load(name, &p)) return;
    bulk_life *u = make(&p, 0, 0, 0, 0);
    CHECK(bulk_life_extract(u, &a) == BULK_OK, "extract");
    for (int k = 1; k <= 3; k++) {
        CHECK(bulk_life_step(u, (uint64_t)period) == BULK_OK, "step");
        CHECK(bulk_life_extract(u, &b) == BULK_OK, "extract");
        CHECK(same_shape(&a, &b, k * dx, k * dy), "%s: after %d generations at (%" PRId64 ", %" PRId64 "), want (%" PRId64 ", %" PRId64 ")",
              name, k * period, b.x, b.y, a.x + k * dx, a.y + k * dy);
        bulk_life_pattern_free(&b);
    }
    /* on a small torus it comes back to where it started after crossing it */
    bulk_life_free(u);
    uint64_t T = 20;
    u = make(&p, 1, T, T, 3);
    bulk_life_pattern a2, b2;
    CHECK(bulk_life_extract(u, &a2) == BULK_OK, "extract");
    uint64_t n = (uint64_t)period * T / (uint64_t)(dx ? llabs(dx) : llabs(dy));
    CHECK(bulk_life_step(u, n) == BULK_OK, "step");
    CHECK(bulk_life_extract(u, &b2) == BULK_OK, "extract");
    CHECK(same_shape(&a2, &b2, 0, 0), "%s: not back after %" PRIu64 " generations on a %" PRIu64 " torus", name, n, T);
    bulk_life_pattern_free(&a2);
    bulk_life_pattern_free(&b2);
    bulk_life_free(u);
    bulk_life_pattern_free(&a);
    bulk_life_pattern_free(&p);
}

static void populations(const char *name, const uint64_t *gens, const uint64_t *pops, int n, int torus_too)
{
    bulk_life_pattern p;
    if (load(name, &p)) return;
    for (int torus = 0; torus <= torus_too; torus++) {
        bulk_life *u = torus ? make(&p, 1, 1000, 999, 0) : make(&p, 0, 0, 0, 0);
        uint64_t at = 0;
        for (int i = 0; i < n; i++) {
            CHECK(bulk_life_step(u, gens[i] - at) == BULK_OK, "step");
            at = gens[i];
            uint64_t got = pop(u);
            CHECK(got == pops[i], "%s (%s): population %" PRIu64 " at generation %" PRIu64 ", want %" PRIu64, name,
                  torus ? "torus" : "plane", got, gens[i], pops[i]);
        }
        bulk_life_free(u);
    }
    bulk_life_pattern_free(&p);
}

int main(int argc, char **argv)
{
    (void)test_seed(argc, argv);
    const char *san = getenv("BULK_SANITIZED");
    int small = san && *san && strcmp(san, "0") != 0;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 0) != BULK_OK) return 1;

    spaceship("glider.rle", 4, 1, 1);
    spaceship("lwss.rle", 4, -2, 0);

    /* blinker: period 2 */
    uint64_t bg[] = { 1, 2, 3, 4 }, bp[] = { 3, 3, 3, 3 };
    populations("blinker.rle", bg, bp, 4, 1);
    /* pulsar: period 3, populations 48, 56, 72 */
    uint64_t pg[] = { 1, 2, 3, 4, 5, 6, 300 }, pp[] = { 56, 72, 48, 56, 72, 48, 48 };
    populations("pulsar.rle", pg, pp, 7, 1);
    {
        bulk_life_pattern p, a, b;
        if (load("pulsar.rle", &p) == BULK_OK) {
            bulk_life *u = make(&p, 0, 0, 0, 0);
            bulk_life_extract(u, &a);
            for (int k = 1; k <= 2; k++) {
                bulk_life_step(u, 1);
                bulk_life_extract(u, &b);
                CHECK(!same_shape(&a, &b, 0, 0), "pulsar repeats after %d", k);
                bulk_life_pattern_free(&b);
            }
            bulk_life_step(u, 1);
            bulk_life_extract(u, &b);
            CHECK(same_shape(&a, &b, 0, 0), "pulsar: not period 3");
            bulk_life_pattern_free(&a);
            bulk_life_pattern_free(&b);
            bulk_life_free(u);
            bulk_life_pattern_free(&p);
        }
    }
    /* diehard: alive at 129, gone at 130 */
    uint64_t dg[] = { 130, 200 }, dp[] = { 0, 0 };
    populations("diehard.rle", dg, dp, 2, 1);
    {
        /* the population at 129 is whatever it is, but it must not be 0 */
        bulk_life_pattern p;
        if (load("diehard.rle", &p) == BULK_OK) {
            bulk_life *u = make(&p, 0, 0, 0, 0);
            bulk_life_step(u, 129);
            CHECK(pop(u) > 0, "diehard died before 130");
            bulk_life_free(u);
            bulk_life_pattern_free(&p);
        }
    }
    /* Gosper gun: 36 cells, then +5 every 30 generations */
    uint64_t gg[] = { 30, 60, 90, 120 }, gp[] = { 41, 46, 51, 56 };
    populations("gosper-gun.rle", gg, gp, 4, 1);
    /* R-pentomino 116 at 1103 (118 at 1102); acorn 633 at 5206 (1057 at 4408) */
    uint64_t rg[] = { 1102, 1103 }, rp[] = { 118, 116 };
    uint64_t ag[] = { 4408, 5206 }, ap[] = { 1057, 633 };
    (void)small; /* about 35 s under the sanitizers: cheap enough to keep */
    {
        populations("r-pentomino.rle", rg, rp, 2, 0);
        populations("acorn.rle", ag, ap, 2, 0);
        /* bounding box 501 x 525 at 1103 */
        bulk_life_pattern p, b;
        if (load("r-pentomino.rle", &p) == BULK_OK) {
            bulk_life *u = make(&p, 0, 0, 0, 0);
            bulk_life_step(u, 1103);
            bulk_life_extract(u, &b);
            CHECK(b.width == 501 && b.height == 525, "R-pentomino box %" PRIu64 " x %" PRIu64, b.width, b.height);
            bulk_life_pattern_free(&b);
            bulk_life_free(u);
            bulk_life_pattern_free(&p);
        }
    }
    bulk_ctx_close(ctx);
    return test_finish();
}
