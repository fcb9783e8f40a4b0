/* Rules: parsing and formatting; every 3x3 neighbourhood under several rules (and random ones)
 * against the rule's definition, at every bit position class of a 64-bit word. */
#include "bulk/life.h"
#include "test_util.h"

static void check_parse(const char *text, unsigned b, unsigned s)
{
    bulk_life_rule r;
    size_t col = 0;
    int st = bulk_life_rule_parse(&r, text, &col);
    CHECK(st == BULK_OK, "parse '%s': status %d col %zu", text, st, col);
    if (st == BULK_OK) CHECK(r.birth == b && r.survive == s, "parse '%s': B %x S %x", text, r.birth, r.survive);
}

static void check_bad(const char *text, size_t want_col)
{
    bulk_life_rule r;
    size_t col = 0;
    int st = bulk_life_rule_parse(&r, text, &col);
    CHECK(st == BULK_ERR_PARSE, "'%s' should not parse", text);
    CHECK(col == want_col, "'%s': error column %zu, want %zu", text, col, want_col);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), rs = seed;
    check_parse("B3/S23", 0x8, 0xc);
    check_parse("b3/s23", 0x8, 0xc);
    check_parse("S23/B3", 0x8, 0xc);
    check_parse("23/3", 0x8, 0xc);
    check_parse("B36/S23", 0x48, 0xc);
    check_parse("B3678/S34678", 0x1c8, 0x1d8);
    check_parse("B2/S", 0x4, 0);
    check_parse("B/S012345678", 0, 0x1ff);
    check_parse(" B3S23 ", 0x8, 0xc);
    check_bad("B9/S23", 2);
    check_bad("B3/X23", 4);
    check_bad("B33/S23", 3);
    check_bad("Life", 1);
    check_bad("B3/S23x", 7);
    check_bad("", 1);
    char buf[32];
    bulk_life_rule r = { 0x1c8, 0x1d8 };
    CHECK(bulk_life_rule_format(&r, buf, sizeof buf) == BULK_OK && strcmp(buf, "B3678/S34678") == 0,
          "format: %s", buf);

    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1) != BULK_OK) return 1;
    bulk_life_rule rules[40] = {
        { 0x8, 0xc }, { 0x48, 0xc }, { 0x1c8, 0x1d8 }, { 0x4, 0 }, { 0, 0x1ff }, { 0x1ff, 0x1ff },
        { 0x1fe, 0 }, { 0x1, 0x1 }, { 0x1, 0 },
    };
    int nr = 9;
    while (nr < 40) {
        rules[nr].birth = (uint16_t)(test_rand(&rs) & 0x1ff);
        rules[nr].survive = (uint16_t)(test_rand(&rs) & 0x1ff);
        nr++;
    }
    /* Grids 130 cells wide: the 3x3 block sits with its centre at x in {1, 62, 63, 64, 65, 128}
     * (word edges on both sides), the rest dead; dead boundary and torus. */
    const uint64_t W = 130, H = 5, nw = 3;
    const int xs[] = { 1, 62, 63, 64, 65, 128 };
    uint64_t cells[15];
    for (int ri = 0; ri < nr; ri++) {
        unsigned B = rules[ri].birth, S = rules[ri].survive;
        for (int xi = 0; xi < 6; xi++)
            for (int torus = 0; torus < 2; torus++)
                for (unsigned m = 0; m < 512; m++) {
                    memset(cells, 0, sizeof cells);
                    for (int k = 0; k < 9; k++)
                        if ((m >> k) & 1) {
                            uint64_t x = (uint64_t)(xs[xi] - 1 + k % 3), y = (uint64_t)(1 + k / 3);
                            cells[y * nw + x / 64] |= 1ull << (x % 64);
                        }
                    int st = bulk_life_grid_step(ctx, cells, W, H, torus, &rules[ri], 1, 1);
                    CHECK(st == BULK_OK, "step status %d", st);
                    int self = (m >> 4) & 1, n = __builtin_popcount(m & ~16u);
                    int want = self ? (S >> n) & 1 : (B >> n) & 1;
                    uint64_t x = (uint64_t)xs[xi];
                    int got = (int)((cells[2 * nw + x / 64] >> (x % 64)) & 1);
                    CHECK(got == want, "rule B%x/S%x block %03x at x %d torus %d: got %d want %d", B,
                          S, m, xs[xi], torus, got, want);
                }
    }
    bulk_ctx_close(ctx);
    return test_finish();
}
