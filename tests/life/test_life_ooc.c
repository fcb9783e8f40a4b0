/* Out of core == in memory: tori (widths not multiples of 64 included) and the plane, with
 * memory budgets that force full-width bands, narrow tiles and a single row, several
 * generations per pass. */
#include "bulk/life.h"
#include "test_util.h"

static bulk_ctx *ctx;

static void compare(uint64_t *rs, int torus, uint64_t tw, uint64_t th, uint64_t pw, uint64_t ph,
                    uint64_t max_memory, unsigned per_pass, unsigned gens, bulk_life_rule rule)
{
    bulk_life_pattern p;
    memset(&p, 0, sizeof p);
    p.width = pw;
    p.height = ph;
    uint64_t nw = bulk_life_words(pw);
    p.cells = calloc(nw * ph, 8);
    for (uint64_t y = 0; y < ph; y++)
        for (uint64_t x = 0; x < pw; x++)
            if (test_rand(rs) % 3 == 0) p.cells[y * nw + x / 64] |= 1ull << (x % 64);
    bulk_life_options opt;
    memset(&opt, 0, sizeof opt);
    opt.rule = rule;
    opt.torus = torus;
    opt.torus_width = tw;
    opt.torus_height = th;
    opt.tmp_dir = test_scratch_dir("life_ooc");
    bulk_life *mem, *disk;
    CHECK(bulk_life_create(&mem, ctx, &p, &opt) == BULK_OK, "create mem");
    opt.max_memory = max_memory;
    opt.per_pass = per_pass;
    CHECK(bulk_life_create(&disk, ctx, &p, &opt) == BULK_OK, "create disk");
    CHECK(bulk_life_out_of_core(disk), "max_memory %" PRIu64 " did not force out of core", max_memory);
    CHECK(!bulk_life_out_of_core(mem), "in memory");
    unsigned done = 0;
    while (done < gens) {
        unsigned c = 1 + (unsigned)(test_rand(rs) % 50);
        if (c > gens - done) c = gens - done;
        int st1 = bulk_life_step(mem, c), st2 = bulk_life_step(disk, c);
        CHECK(st1 == BULK_OK && st2 == BULK_OK, "step %d %d", st1, st2);
        done += c;
        bulk_life_pattern a, b;
        CHECK(bulk_life_extract(mem, &a) == BULK_OK && bulk_life_extract(disk, &b) == BULK_OK, "extract");
        int same = a.width == b.width && a.height == b.height && a.x == b.x && a.y == b.y &&
                   memcmp(a.cells, b.cells, bulk_life_words(a.width) * a.height * 8) == 0;
        CHECK(same, "torus %d %" PRIu64 "x%" PRIu64 " budget %" PRIu64 " per pass %u: differs after %u generations", torus,
              tw, th, max_memory, per_pass, done);
        bulk_life_pattern_free(&a);
        bulk_life_pattern_free(&b);
        if (!same) break;
    }
    bulk_life_free(mem);
    bulk_life_free(disk);
    bulk_life_pattern_free(&p);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), rs = seed;
    const char *san = getenv("BULK_SANITIZED");
    int small = san && *san && strcmp(san, "0") != 0;
    unsigned gens = small ? 40 : 150;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) != BULK_OK) return 1;
    bulk_life_rule conway = { 0x8, 0xc }, highlife = { 0x48, 0xc }, b0 = { 0x1, 0x1ff & ~0x10u };
    /* full-width bands */
    compare(&rs, 1, 200, 150, 120, 100, 9000, 8, gens, conway);
    compare(&rs, 1, 256, 64, 256, 64, 3000, 2, gens, highlife);
    compare(&rs, 1, 256, 64, 256, 64, 3000, 0, gens, highlife);
    /* narrow tiles: rows of 1000 cells (128 bytes) under a budget of a few rows */
    compare(&rs, 1, 1000, 90, 300, 90, 6000, 5, gens, conway);
    compare(&rs, 1, 1000, 90, 300, 90, 2500, 1, gens / 2, conway);
    compare(&rs, 1, 97, 33, 97, 33, 1000, 3, gens, b0);
    /* the plane */
    compare(&rs, 0, 0, 0, 60, 50, 8000, 0, gens, conway);
    compare(&rs, 0, 0, 0, 30, 30, 5000, 16, gens, highlife);
    bulk_ctx_close(ctx);
    return test_finish();
}
