/* The error and progress model for Life (include/bulk/life.h): every public function's
 * bad-argument case gives its status and a last error naming the function; bulk_life_step
 * reports "life.run" progress in generations (one start at 0, nondecreasing, last == total) on
 * the plane and on a torus, and a cancelled run stops with BULK_ERR_CANCELLED at a consistent
 * generation from which it continues to the same result. */
#include <stdlib.h>

#include "bulk/life.h"
#include "report_check.h"

static const char acorn[] = "x = 7, y = 3\nbo5b$3bo3b$2o2b3o!\n";

static bulk_life *make(bulk_ctx *ctx, int torus)
{
    bulk_life_pattern p;
    CHECK(bulk_life_pattern_read(&p, acorn, sizeof acorn - 1, "acorn") == BULK_OK, "acorn: %s",
          bulk_ctx_last_error(NULL));
    bulk_life_options opt = { .rule = bulk_life_rule_conway(), .torus = torus, .torus_width = 200, .torus_height = 150 };
    bulk_life *u = NULL;
    CHECK(bulk_life_create(&u, ctx, &p, &opt) == BULK_OK, "create: %s", bulk_ctx_last_error(ctx));
    bulk_life_pattern_free(&p);
    return u;
}

static void bad_arguments(bulk_ctx *ctx)
{
    bulk_life_rule r = bulk_life_rule_conway(), bad_rule = { 1u << 9, 0 };
    size_t col;
    char buf[64];
    bulk_life_pattern p;
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_rule_parse", bulk_life_rule_parse(NULL, "B3/S23", &col));
    EXPECT_FAIL(NULL, BULK_ERR_PARSE, "bulk_life_rule_parse", bulk_life_rule_parse(&r, "B3/S2x", &col));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_rule_format", bulk_life_rule_format(NULL, buf, sizeof buf));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_rule_format", bulk_life_rule_format(&r, buf, 8));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_rule_format", bulk_life_rule_format(&bad_rule, buf, sizeof buf));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_pattern_read", bulk_life_pattern_read(NULL, "o!", 2, "t"));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_pattern_read", bulk_life_pattern_read(&p, NULL, 2, "t"));
    EXPECT_FAIL(NULL, BULK_ERR_PARSE, "bulk_life_pattern_read", bulk_life_pattern_read(&p, "x = 1, y = 1\nz!", 15, "t"));
    CHECK(strstr(bulk_ctx_last_error(NULL), "t:2:1:") != NULL, "no file:line:column in '%s'", bulk_ctx_last_error(NULL));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_pattern_read_file", bulk_life_pattern_read_file(NULL, "x.rle"));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_pattern_read_file", bulk_life_pattern_read_file(&p, NULL));
    EXPECT_FAIL(NULL, BULK_ERR_IO, "bulk_life_pattern_read_file",
                bulk_life_pattern_read_file(&p, "/nonexistent/dir/x.rle"));
    char *text;
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_pattern_write_rle", bulk_life_pattern_write_rle(NULL, &text, NULL));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_pattern_crop", bulk_life_pattern_crop(NULL));
    bulk_life_pattern_free(NULL); /* a no-op, like free(NULL) */

    uint64_t cells[4] = { 0 };
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_grid_step", bulk_life_grid_step(NULL, cells, 64, 4, 1, &r, 1, 0));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_grid_step", bulk_life_grid_step(ctx, NULL, 64, 4, 1, &r, 1, 0));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_grid_step", bulk_life_grid_step(ctx, cells, 0, 4, 1, &r, 1, 0));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_grid_step", bulk_life_grid_step(ctx, cells, 64, 4, 1, &bad_rule, 1, 0));
    EXPECT_FAIL(NULL, 0, "bulk_life_grid_population", bulk_life_grid_population(NULL, 64, 4));

    CHECK(bulk_life_pattern_read(&p, acorn, sizeof acorn - 1, "acorn") == BULK_OK, "acorn");
    bulk_life_options opt = { .rule = r };
    bulk_life *u = NULL;
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_create", bulk_life_create(NULL, ctx, &p, &opt));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_create", bulk_life_create(&u, NULL, &p, &opt));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_create", bulk_life_create(&u, ctx, NULL, &opt));
    opt.rule.birth |= 1; /* B0 on the plane */
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_create", bulk_life_create(&u, ctx, &p, &opt));
    opt.rule = bad_rule;
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_create", bulk_life_create(&u, ctx, &p, &opt));
    opt = (bulk_life_options){ .rule = r, .torus = 1, .torus_width = 4, .torus_height = 4 }; /* too small */
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_create", bulk_life_create(&u, ctx, &p, &opt));
    CHECK(u == NULL, "a failed create left a universe");
    bulk_life_pattern_free(&p);
    bulk_life_free(NULL);

    uint64_t pop;
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_step", bulk_life_step(NULL, 1));
    EXPECT_FAIL(NULL, 0, "bulk_life_generation", bulk_life_generation(NULL));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_population", bulk_life_population(NULL, &pop));
    EXPECT_FAIL(NULL, 0, "bulk_life_grid_cells", bulk_life_grid_cells(NULL));
    EXPECT_FAIL(NULL, 0, "bulk_life_out_of_core", bulk_life_out_of_core(NULL));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_extract", bulk_life_extract(NULL, &p));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_life_region", bulk_life_region(NULL, 0, 0, 1, 1, &p));
    u = make(ctx, 0);
    if (!u) return;
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_population", bulk_life_population(u, NULL));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_extract", bulk_life_extract(u, NULL));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_life_region", bulk_life_region(u, 0, 0, 1ull << 40, 1ull << 20, &p));
    bulk_life_free(u);
}

/* The live cells of u as RLE (for comparing two universes). */
static char *cells_of(bulk_life *u)
{
    bulk_life_pattern p;
    char *text = NULL;
    if (bulk_life_extract(u, &p) != BULK_OK) return NULL;
    p.generation = 0;
    bulk_life_pattern_write_rle(&p, &text, NULL);
    bulk_life_pattern_free(&p);
    return text;
}

static void progress(bulk_ctx *ctx, int torus)
{
    const char *what = torus ? "torus" : "plane";
    const uint64_t steps = 600;
    bulk_life *u = make(ctx, torus), *v = make(ctx, torus);
    if (!u || !v) return;
    progress_log log = { 0 };
    bulk_ctx_set_progress(ctx, progress_log_fn, &log);
    CHECK(bulk_life_step(u, steps) == BULK_OK, "%s: step: %s", what, bulk_ctx_last_error(ctx));
    progress_log_check(&log, what, "life.run", "generations", (double)steps);

    /* cancelled at the first report after the start: a consistent generation, from which the
     * run continues to the same cells */
    log = (progress_log){ .cancel_at = 2 };
    int st = bulk_life_step(v, steps);
    CHECK(st == BULK_ERR_CANCELLED, "%s: cancel: status %d", what, st);
    CHECK(strncmp(bulk_ctx_last_error(ctx), "bulk_life_step: ", 16) == 0, "%s: cancel message '%s'", what,
          bulk_ctx_last_error(ctx));
    uint64_t g = bulk_life_generation(v);
    CHECK(g <= steps, "%s: cancelled at generation %" PRIu64 " of %" PRIu64, what, g, steps);
    bulk_ctx_set_progress(ctx, NULL, NULL);
    CHECK(bulk_life_step(v, steps - g) == BULK_OK, "%s: rest", what);
    char *a = cells_of(u), *b = cells_of(v);
    CHECK(a && b && strcmp(a, b) == 0, "%s: the cancelled and resumed run differs from the straight one", what);
    free(a), free(b);
    bulk_life_free(u), bulk_life_free(v);
}

int main(void)
{
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) != BULK_OK) {
        fprintf(stderr, "cannot open a CPU context: %s\n", bulk_ctx_last_error(NULL));
        return 1;
    }
    bad_arguments(ctx);
    progress(ctx, 0);
    progress(ctx, 1);
    bulk_ctx_close(ctx);
    return test_finish();
}
