/* libFuzzer target: integer text. The first byte picks an op and a width, the rest is an input
 * file of `bulk int` read by the CLI's reader (programs/int_input.c, compiled into this target)
 * batch by batch; every batch it returns must respect the op's rules. Every white-space
 * separated token is also parsed by bulk_parse_uint (int/numtext.c, int/cpu/radix.c above
 * BULK_RADIX_DC_PARSE_LIMBS limbs): a value it accepts must print (decimal and hex) and parse
 * back to itself, and a decimal one must equal the quadratic parser's reading. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "int/numtext.h"
#include "fuzz_util.h"
#include "int/mpn.h"
#include "int_input.h"

static const int_rules OPS[] = {
    { "sqr", 1, -1, -1, 0 },
    { "add", 2, -1, -1, 0 },
    { "div", 2, 1, -1, 0 },
    { "powmod", 3, -1, 2, 0 },
};
static const size_t WIDTHS[] = { 0, 1, 2, 16 }; /* --bits / 64; 0: per batch */

/* The reader's messages (int_input.c prints them through cli_warn) are not wanted here. */
void cli_warn(const char *fmt, ...)
{
    (void)fmt;
}

static void check_batch(const int_rules *ru, size_t fixed, const int_batch *b)
{
    FUZZ_REQUIRE(b->n >= 1 && b->limbs >= 1, "batch of %zu instances of %zu limbs", b->n, b->limbs);
    FUZZ_REQUIRE(!fixed || b->limbs == fixed, "batch width %zu, fixed %zu", b->limbs, fixed);
    for (size_t i = 0; i < b->n; i++) {
        if (ru->nonzero >= 0)
            FUZZ_REQUIRE(!bulk_mpn_is_zero(b->op[ru->nonzero] + i * b->limbs, b->limbs),
                         "a zero divisor passed, line %llu", (unsigned long long)(b->first_line + i));
        if (ru->odd >= 0)
            FUZZ_REQUIRE(b->op[ru->odd][i * b->limbs] & 1, "an even modulus passed, line %llu",
                         (unsigned long long)(b->first_line + i));
    }
}

static void read_file(int fd, const uint8_t *data, size_t size)
{
    if (size == 0) return;
    const int_rules *ru = &OPS[data[0] % 4];
    size_t fixed = WIDTHS[(data[0] / 4) % 4];
    FUZZ_REQUIRE(ftruncate(fd, 0) == 0 && pwrite(fd, data + 1, size - 1, 0) == (ssize_t)(size - 1),
                 "writing the memfd");
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int_reader *r = int_reader_open(path, ru, fixed, 1);
    FUZZ_REQUIRE(r != NULL, "int_reader_open");
    int_batch b;
    int st;
    while ((st = int_reader_next(r, &b)) == 1) check_batch(ru, fixed, &b);
    FUZZ_REQUIRE(st == 0 || st == -2, "int_reader_next: %d", st);
    int_reader_close(r);
}

static void check_token(const char *s, size_t len)
{
    size_t cap = bulk_parse_uint_limbs_bound(len);
    uint64_t *a = malloc(cap * sizeof *a), *b = malloc(cap * sizeof *b);
    FUZZ_REQUIRE(a && b, "out of memory");
    size_t pos = 0;
    int n = bulk_parse_uint(s, len, a, cap, &pos);
    FUZZ_REQUIRE(n != BULK_ERR_OVERFLOW, "'%.*s' overflows its own bound", (int)len, s);
    if (n < 0) {
        FUZZ_REQUIRE(n == BULK_ERR_PARSE && pos <= len, "status %d, error at %zu of %zu", n, pos, len);
    } else {
        size_t limbs = n ? (size_t)n : 1;
        for (int hex = 0; hex <= 1; hex++) {
            char *text = malloc(bulk_format_uint_size(limbs, hex) + 1);
            FUZZ_REQUIRE(text != NULL, "out of memory");
            size_t tl = bulk_format_uint(text, a, limbs, hex);
            FUZZ_REQUIRE(tl <= bulk_format_uint_size(limbs, hex) && text[tl] == 0, "format length");
            int m = bulk_parse_uint(text, tl, b, cap, NULL);
            FUZZ_REQUIRE(m == n && memcmp(a, b, cap * sizeof *a) == 0,
                         "'%.*s' printed as '%s' reads back differently", (int)len, s, text);
            free(text);
        }
        if (!(len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))) {
            /* decimal: the quadratic parser agrees */
            memset(b, 0, cap * sizeof *b);
            int m = bulk_parse_dec_basecase(b, cap, s, len);
            FUZZ_REQUIRE(m == n && memcmp(a, b, cap * sizeof *a) == 0,
                         "'%.*s': quadratic parser %d limbs, bulk_parse_uint %d", (int)len, s, m, n);
        }
    }
    free(a);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    if (fd < 0) fd = memfd_create("fuzz_int_text", 0);
    FUZZ_REQUIRE(fd >= 0, "memfd_create");
    read_file(fd, data, size);
    const char *s = (const char *)data + (size > 0);
    size_t len = size - (size > 0);
    for (size_t i = 0; i < len;) {
        while (i < len && strchr(" \t\r\n\v\f", s[i]) && s[i]) i++;
        size_t start = i;
        while (i < len && !(strchr(" \t\r\n\v\f", s[i]) && s[i])) i++;
        if (i > start) check_token(s + start, i - start);
    }
    return 0;
}
