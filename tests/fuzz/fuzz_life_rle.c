/* libFuzzer target: Life patterns (RLE, or plain text when there is no RLE header) through
 * bulk_life_pattern_read. A pattern that was read is written back as RLE and read again; the
 * second reading must give the same rectangle, position, rule and cells. */
#include <string.h>

#include "bulk/life.h"
#include "fuzz_util.h"

/* Round trips only for patterns of at most this many words (the writer walks every cell). */
#define ROUND_TRIP_WORDS ((uint64_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bulk_life_pattern p, q;
    const char *err = bulk_ctx_last_error(NULL); /* the thread's last error */
    memset(&p, 0, sizeof p);
    memset(&q, 0, sizeof q);
    int st = bulk_life_pattern_read(&p, (const char *)data, size, "fuzz.rle");
    if (st != BULK_OK) {
        FUZZ_REQUIRE(st != BULK_ERR_PARSE || strncmp(err, "bulk_life_pattern_read: fuzz.rle:", 33) == 0,
                     "status %d without a message naming the place: '%s'", st, err);
        return 0;
    }
    uint64_t row = bulk_life_words(p.width);
    if (p.height <= ROUND_TRIP_WORDS && row <= ROUND_TRIP_WORDS && row * p.height <= ROUND_TRIP_WORDS) {
        uint64_t words = row * p.height;
        char *text = NULL;
        size_t len = 0;
        st = bulk_life_pattern_write_rle(&p, &text, &len);
        FUZZ_REQUIRE(st == BULK_OK, "writing a pattern that was read: status %d", st);
        st = bulk_life_pattern_read(&q, text, len, "written.rle");
        FUZZ_REQUIRE(st == BULK_OK, "the RLE written is not read back: %s\n%s", err, text);
        FUZZ_REQUIRE(q.width == p.width && q.height == p.height && q.x == p.x && q.y == p.y &&
                         q.generation == p.generation,
                     "RLE round trip changed the rectangle or position");
        FUZZ_REQUIRE(memcmp(&q.rule, &p.rule, sizeof p.rule) == 0, "RLE round trip changed the rule");
        FUZZ_REQUIRE(words == 0 || memcmp(q.cells, p.cells, words * sizeof *p.cells) == 0,
                     "RLE round trip changed the cells");
        free(text);
        bulk_life_pattern_free(&q);
    }
    bulk_life_pattern_free(&p);
    return 0;
}
