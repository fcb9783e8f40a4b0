/* RLE and plain text: round trips of random patterns, Golly's conventions, and malformed input
 * reported with line and column. */
#include "bulk/life.h"
#include "test_util.h"

/* The calling thread's last error: where reading failed. */
static const char *err;

static int read_text(const char *text, bulk_life_pattern *p)
{
    return bulk_life_pattern_read(p, text, strlen(text), "t.rle");
}

static void bad(const char *text, unsigned long line, unsigned long col, const char *what)
{
    bulk_life_pattern p;
    int st = read_text(text, &p);
    CHECK(st == BULK_ERR_PARSE, "%s: status %d", what, st);
    unsigned long got_line = 0, got_col = 0;
    int n = sscanf(err, "bulk_life_pattern_read: t.rle:%lu:%lu: ", &got_line, &got_col);
    CHECK(n == 2 && got_line == line && got_col == col, "%s: '%s', want t.rle:%lu:%lu", what, err, line, col);
}

static int cell(const bulk_life_pattern *p, uint64_t x, uint64_t y)
{
    return (int)((p->cells[y * bulk_life_words(p->width) + x / 64] >> (x % 64)) & 1);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), rs = seed;
    bulk_life_pattern p, q;
    err = bulk_ctx_last_error(NULL);

    /* Golly's glider */
    CHECK(read_text("#N Glider\n#C x\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n", &p) == BULK_OK,
          "glider: %s", err);
    CHECK(p.width == 3 && p.height == 3 && cell(&p, 1, 0) && cell(&p, 2, 1) && cell(&p, 0, 2) &&
              cell(&p, 1, 2) && cell(&p, 2, 2) && !cell(&p, 0, 0) && p.x == 0 && !p.has_pos,
          "glider cells");
    char *text;
    size_t len;
    p.generation = 7;
    CHECK(bulk_life_pattern_write_rle(&p, &text, &len) == BULK_OK, "write");
    CHECK(strcmp(text, "#CXRLE Pos=0,0 Gen=7\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n") == 0, "written: %s", text);
    free(text);
    bulk_life_pattern_free(&p);

    /* #CXRLE position and generation, other rules, blank rows, CRLF, plain text */
    CHECK(read_text("#CXRLE Pos=-5,12 Gen=100\r\nx = 4, y = 4, rule = b36/s23\r\no2$3bo\r\n!", &p) == BULK_OK,
          "cxrle: %s", err);
    CHECK(p.has_pos && p.x == -5 && p.y == 12 && p.generation == 100 && p.rule.birth == 0x48 &&
              cell(&p, 0, 0) && cell(&p, 3, 2) && !cell(&p, 0, 1),
          "cxrle fields");
    bulk_life_pattern_free(&p);
    CHECK(read_text("!Name: glider\n.O.\n..O\nOOO\n", &p) == BULK_OK, "plain: %s", err);
    CHECK(p.width == 3 && p.height == 3 && cell(&p, 1, 0) && cell(&p, 0, 2), "plain cells");
    bulk_life_pattern_free(&p);

    /* the header is a frame to check, not a size: only the live cells' box is kept */
    CHECK(read_text("x = 30, y = 20\n5$10b3o$!\n", &p) == BULK_OK, "frame: %s", err);
    CHECK(p.width == 3 && p.height == 1 && p.x == 10 && p.y == 5 && p.frame_width == 30 &&
              p.frame_height == 20 && p.frame_dx == 10 && p.frame_dy == 5 && cell(&p, 0, 0) && cell(&p, 2, 0),
          "frame fields: %" PRIu64 "x%" PRIu64 " at %" PRId64 ",%" PRId64, p.width, p.height, p.x, p.y);
    bulk_life_pattern_free(&p);
    CHECK(read_text("x = 3, y = 900000000\r\n3o!\r\n", &p) == BULK_OK, "huge frame: %s", err);
    CHECK(p.width == 3 && p.height == 1 && p.frame_height == 900000000 && p.y == 0, "huge frame fields");
    bulk_life_pattern_free(&p);
    CHECK(read_text("#CXRLE Pos=-7,3\nx = 4000000000, y = 4000000000\n3999999999$3999999997b3o!\n", &p) == BULK_OK,
          "far cells: %s", err);
    CHECK(p.width == 3 && p.height == 1 && p.x == 3999999990 && p.y == 4000000002 && p.frame_dy == 3999999999,
          "far cells fields");
    bulk_life_pattern_free(&p);
    CHECK(read_text("x = 5, y = 5\n5b$5b!\n", &p) == BULK_OK, "no live cells: %s", err);
    CHECK(p.width == 0 && p.height == 0 && p.frame_width == 5 && p.frame_height == 5 && p.x == 0, "no live cells fields");
    bulk_life_pattern_free(&p);
    /* runs across word boundaries: cells 3..192 of a 200-wide row */
    CHECK(read_text("x = 200, y = 2\n$3b190o!\n", &p) == BULK_OK, "long run: %s", err);
    CHECK(p.width == 190 && p.height == 1 && p.x == 3 && p.y == 1, "long run box");
    for (uint64_t x = 0; x < 190; x++) CHECK(cell(&p, x, 0), "long run cell %" PRIu64, x);
    bulk_life_pattern_free(&p);
    CHECK(read_text("...\n.O.\n...\n", &p) == BULK_OK, "plain frame: %s", err);
    CHECK(p.width == 1 && p.height == 1 && p.x == 1 && p.y == 1 && p.frame_width == 3 && p.frame_height == 3,
          "plain frame fields");
    /* cropping keeps the stated frame where it was */
    CHECK(bulk_life_pattern_crop(&p) == BULK_OK && p.frame_dx == 1 && p.x == 1, "crop of a read pattern");
    bulk_life_pattern_free(&p);
    bad("x = 3, y = 900000000\n899999999$4o!\n", 2, 11, "past the width of a huge frame");
    bad("x = 3, y = 3\n18446744073709551600$18$o!\n", 2, 25, "row count saturates, never wraps");

    /* malformed input */
    bad("x = 3, y = 3\nbo$2bo$3o\n", 2, 10, "missing !");
    bad("x = 3, y = 3\nbo$2bo$3q!\n", 2, 9, "unknown character");
    bad("x = 3, y = 3\nbo$2bo$4o!\n", 2, 8, "past the width");
    bad("x = 3, y = 2\nbo$2bo$3o!\n", 2, 8, "past the height");
    bad("x = 3, y = 3, rule = B3/Q23\nbo!\n", 1, 25, "bad rule");
    bad("x = 3, y = 3, rule = Life\nbo!\n", 1, 22, "unknown rule");
    bad("x = 3, z = 3\nbo!\n", 1, 8, "bad header");
    bad("x = 3\nbo!\n", 1, 1, "no y");
    bad("x = 3, y = 3\nb0o!\n", 2, 2, "count 0");
    bad("..O\n.x.\n", 2, 2, "plain unknown character");

    /* random round trips: write, read back, same cells and position */
    for (int it = 0; it < 300; it++) {
        memset(&p, 0, sizeof p);
        p.width = 1 + test_rand(&rs) % 200;
        p.height = 1 + test_rand(&rs) % 30;
        p.x = (int64_t)(test_rand(&rs) % 2001) - 1000;
        p.y = (int64_t)(test_rand(&rs) % 2001) - 1000;
        p.generation = test_rand(&rs) % 100000;
        p.rule.birth = (uint16_t)(test_rand(&rs) & 0x1ff);
        p.rule.survive = (uint16_t)(test_rand(&rs) & 0x1ff);
        uint64_t nw = bulk_life_words(p.width);
        p.cells = calloc(nw * p.height, 8);
        int kind = it % 4;
        for (uint64_t y = 0; y < p.height; y++)
            for (uint64_t x = 0; x < p.width; x++) {
                uint64_t r = test_rand(&rs);
                int alive = kind == 0 ? r % 2 : kind == 1 ? r % 17 == 0 : kind == 2 ? (y % 5 == 0 && r % 3) : r % 5 != 0;
                if (alive) p.cells[y * nw + x / 64] |= 1ull << (x % 64);
            }
        CHECK(bulk_life_pattern_crop(&p) == BULK_OK, "crop");
        CHECK(bulk_life_pattern_write_rle(&p, &text, &len) == BULK_OK, "write");
        /* no line longer than 70 characters */
        size_t run = 0;
        for (size_t i = 0; i < len; i++) {
            run = text[i] == '\n' ? 0 : run + 1;
            if (text[i] != '\n' && text[0] != '#') CHECK(run <= 70 || i < 80, "long line");
        }
        int st = bulk_life_pattern_read(&q, text, len, "written.rle");
        CHECK(st == BULK_OK, "read back: %s\n%s", err, text);
        if (st == BULK_OK) {
            CHECK(q.width == p.width && q.height == p.height && q.x == p.x && q.y == p.y &&
                      q.generation == p.generation && q.rule.birth == p.rule.birth &&
                      q.rule.survive == p.rule.survive,
                  "round trip header (%" PRIu64 "x%" PRIu64 " at %" PRId64 ",%" PRId64 ")", q.width, q.height, q.x, q.y);
            if (q.width == p.width && q.height == p.height)
                CHECK(memcmp(q.cells, p.cells, bulk_life_words(p.width) * p.height * 8) == 0, "round trip cells");
            bulk_life_pattern_free(&q);
        }
        free(text);
        bulk_life_pattern_free(&p);
    }
    return test_finish();
}
