/* The public text conversions of bulk/int.h (bulk_int_from_str / _to_str and the bulk forms)
 * against GMP's mpz_set_str / mpz_get_str: random values of many widths (structured limbs too:
 * zeros, all-ones, single bits), in decimal and hex, with and without "0x", upper case hex,
 * leading zeros, one limb too narrow; random digit strings; the edge cases of the contract (0,
 * 2^64 - 1, 2^64, empty text, a lone prefix, signs, spaces, junk with its offset, bad bases and
 * widths, tight output buffers); the bulk forms on 1 and 2 threads with bad instances mixed in. */
#include <gmp.h>

#include "bulk/bulk.h"
#include "bulk/int.h"
#include "test_util.h"

static uint64_t rng;

/* v into a limbs-limb array (v fits) */
static void to_limbs(bulk_limb_t *a, size_t limbs, const mpz_t v)
{
    memset(a, 0, limbs * sizeof *a);
    mpz_export(a, NULL, -1, sizeof *a, 0, 0, v);
}

/* parse text in base into limbs limbs and compare with v (want BULK_OK) */
static void expect_parse(const char *text, int base, size_t limbs, const mpz_t v, const char *what)
{
    bulk_limb_t *got = malloc(limbs * sizeof *got), *want = malloc(limbs * sizeof *want);
    to_limbs(want, limbs, v);
    int st = bulk_int_from_str(got, text, limbs, base, NULL);
    CHECK(st == BULK_OK && !memcmp(got, want, limbs * sizeof *got),
          "%s: parse (base %d, %zu limbs) gave %d or another value", what, base, limbs, st);
    free(got);
    free(want);
}

static void check_value(const mpz_t v, size_t limbs, const char *what)
{
    bulk_limb_t *a = malloc(limbs * sizeof *a);
    to_limbs(a, limbs, v);
    char *dec = mpz_get_str(NULL, 10, v), *hex = mpz_get_str(NULL, 16, v);
    char *uhex = mpz_get_str(NULL, -16, v);
    size_t cap = bulk_int_str_size(limbs, 10) + 1, hcap = bulk_int_str_size(limbs, 16) + 1;
    char *buf = malloc(cap > hcap ? cap : hcap), *t = malloc(strlen(dec) + 64);
    size_t len = 0;
    int st = bulk_int_to_str(buf, cap, a, limbs, 10, &len);
    CHECK(st == BULK_OK && len == strlen(dec) && !strcmp(buf, dec), "%s: decimal printing differs", what);
    st = bulk_int_to_str(buf, hcap, a, limbs, 16, &len);
    CHECK(st == BULK_OK && len == strlen(hex) + 2 && !strncmp(buf, "0x", 2) && !strcmp(buf + 2, hex),
          "%s: hex printing differs (%s vs 0x%s)", what, buf, hex);
    expect_parse(dec, 10, limbs, v, what);
    expect_parse(dec, 0, limbs, v, what);
    expect_parse(hex, 16, limbs, v, what);
    expect_parse(uhex, 16, limbs, v, what);
    sprintf(t, "0x%s", hex);
    expect_parse(t, 16, limbs, v, what);
    expect_parse(t, 0, limbs, v, what);
    sprintf(t, "0X000%s", uhex);
    expect_parse(t, 0, limbs, v, what);
    sprintf(t, "0000000%s", dec);
    expect_parse(t, 10, limbs, v, what);
    /* one limb too narrow: overflow, result zero */
    size_t sig = mpz_size(v);
    if (sig >= 2) {
        for (int k = 0; k < 2; k++) {
            memset(a, 0xab, limbs * sizeof *a);
            st = bulk_int_from_str(a, k ? t : dec, sig - 1, k ? 0 : 10, NULL);
            int zero = 1;
            for (size_t i = 0; i < sig - 1; i++) zero &= a[i] == 0;
            CHECK(st == BULK_ERR_OVERFLOW && zero, "%s: %zu limbs: %d, not overflow with zero", what, sig - 1, st);
        }
    }
    free(a);
    free(buf);
    free(t);
    free(dec);
    free(hex);
    free(uhex);
}

static void random_value(mpz_t v, size_t limbs, int kind)
{
    size_t sig = 1 + test_rand(&rng) % limbs;
    bulk_limb_t *a = calloc(limbs, sizeof *a);
    for (size_t i = 0; i < sig; i++) a[i] = test_structured_limb(&rng, kind + (int)(test_rand(&rng) % 3));
    mpz_import(v, limbs, -1, sizeof *a, 0, 0, a);
    free(a);
}

/* one parse error: code and (for BULK_ERR_PARSE) the offset */
static void expect_error(const char *text, int base, size_t limbs, int code, size_t pos)
{
    bulk_limb_t r[4] = { 1, 2, 3, 4 };
    size_t at = 9999;
    int st = bulk_int_from_str(r, text, limbs, base, &at);
    CHECK(st == code, "'%s' base %d, %zu limbs: %d, expected %d", text, base, limbs, st, code);
    if (code == BULK_ERR_PARSE) CHECK(at == pos, "'%s' base %d: error at %zu, expected %zu", text, base, at, pos);
    if (code != BULK_ERR_ARG) CHECK(!r[0] && (limbs < 2 || !r[1]), "'%s': result not zeroed", text);
}

static void edge_cases(void)
{
    mpz_t v;
    mpz_init(v);
    const char *zeros[] = { "0", "000", "0x0", "0x0000", "0X0" };
    for (int i = 0; i < 5; i++) expect_parse(zeros[i], 0, 2, v, zeros[i]);
    check_value(v, 1, "zero");
    mpz_set_str(v, "18446744073709551615", 10); /* 2^64 - 1 */
    check_value(v, 1, "2^64-1");
    expect_parse("0xFFFFFFFFFFFFFFFF", 0, 1, v, "2^64-1 hex");
    expect_parse("0x00000000000000000000000000000000ffffffffffffffff", 0, 1, v, "hex leading zeros");
    expect_parse("000000000000000000000000000000000000000000000018446744073709551615", 10, 1, v,
                 "decimal leading zeros past the width");
    expect_error("18446744073709551616", 10, 1, BULK_ERR_OVERFLOW, 0);
    expect_error("0x10000000000000000", 0, 1, BULK_ERR_OVERFLOW, 0);
    mpz_set_str(v, "18446744073709551616", 10);
    check_value(v, 2, "2^64");
    expect_error("", 10, 1, BULK_ERR_PARSE, 0);
    expect_error("", 0, 1, BULK_ERR_PARSE, 0);
    expect_error("0x", 0, 1, BULK_ERR_PARSE, 2);
    expect_error("0x", 16, 1, BULK_ERR_PARSE, 2);
    expect_error("-1", 10, 1, BULK_ERR_PARSE, 0);
    expect_error("+1", 0, 1, BULK_ERR_PARSE, 0);
    expect_error("-0x1", 0, 1, BULK_ERR_PARSE, 0);
    expect_error(" 1", 10, 1, BULK_ERR_PARSE, 0);
    expect_error("1 ", 10, 1, BULK_ERR_PARSE, 1);
    expect_error("12a", 10, 1, BULK_ERR_PARSE, 2);
    expect_error("0x10", 10, 1, BULK_ERR_PARSE, 1);
    expect_error("0x1g", 0, 1, BULK_ERR_PARSE, 3);
    expect_error("0x0x1", 0, 1, BULK_ERR_PARSE, 3);
    expect_error("1_000", 0, 1, BULK_ERR_PARSE, 1);
    expect_error("abc", 0, 1, BULK_ERR_PARSE, 0); /* hex digits need the prefix in base 0 */
    /* junk after a too-wide number: the junk is reported, not the width */
    expect_error("99999999999999999999999999999999999999999x", 10, 1, BULK_ERR_PARSE, 41);
    expect_error("1", 7, 1, BULK_ERR_ARG, 0);
    expect_error("1", 10, 0, BULK_ERR_ARG, 0);
    expect_error("1", 10, ((size_t)1 << 20) + 1, BULK_ERR_ARG, 0);
    bulk_limb_t r[2] = { 0, 0 };
    CHECK(bulk_int_from_str(r, NULL, 1, 10, NULL) == BULK_ERR_ARG, "NULL text accepted");
    CHECK(bulk_int_from_str(NULL, "1", 1, 10, NULL) == BULK_ERR_ARG, "NULL result accepted");
    /* a long decimal text that cannot fit is refused without converting it */
    char *big = malloc(2000001);
    memset(big, '9', 2000000);
    big[2000000] = 0;
    expect_error(big, 10, 1, BULK_ERR_OVERFLOW, 0);
    free(big);

    /* printing: bad arguments, exact and short buffers */
    bulk_limb_t a[2] = { 0, 1 }; /* 2^64 = 18446744073709551616: 20 digits */
    char buf[64];
    size_t len = 0;
    CHECK(bulk_int_to_str(buf, 21, a, 2, 10, &len) == BULK_OK && len == 20 &&
          !strcmp(buf, "18446744073709551616"), "exact buffer");
    len = 0;
    CHECK(bulk_int_to_str(buf, 20, a, 2, 10, &len) == BULK_ERR_OVERFLOW && len == 20 && buf[0] == 0,
          "short buffer: %zu", len);
    CHECK(bulk_int_to_str(buf, 20, a, 2, 16, &len) == BULK_OK && !strcmp(buf, "0x10000000000000000"),
          "hex: %s", buf);
    CHECK(bulk_int_to_str(buf, 19, a, 2, 16, &len) == BULK_ERR_OVERFLOW && len == 19, "short hex buffer");
    CHECK(bulk_int_to_str(buf, sizeof buf, a, 2, 0, &len) == BULK_ERR_ARG, "base 0 printing accepted");
    CHECK(bulk_int_to_str(buf, sizeof buf, a, 0, 10, &len) == BULK_ERR_ARG, "0 limbs accepted");
    CHECK(bulk_int_to_str(NULL, 0, a, 2, 10, &len) == BULK_ERR_ARG, "NULL buffer accepted");
    CHECK(bulk_int_str_size(2, 8) == 0 && bulk_int_str_size(1, 10) >= 20 && bulk_int_str_size(1, 16) >= 18,
          "bulk_int_str_size");
    mpz_clear(v);
}

/* random digit strings (not from limbs): decimal and hex, parsed at the width they need */
static void random_texts(int quick)
{
    mpz_t v;
    mpz_init(v);
    char *s = malloc(40000);
    for (int t = 0; t < (quick ? 60 : 300); t++) {
        int hex = t & 1;
        size_t d = 1 + test_rand(&rng) % (t % 10 == 0 ? 39000 : 200);
        for (size_t i = 0; i < d; i++) s[i] = "0123456789abcdef"[test_rand(&rng) % (hex ? 16 : 10)];
        s[d] = 0;
        mpz_set_str(v, s, hex ? 16 : 10);
        size_t limbs = mpz_size(v) ? mpz_size(v) : 1;
        char what[64];
        snprintf(what, sizeof what, "random %s text of %zu digits", hex ? "hex" : "decimal", d);
        expect_parse(s, hex ? 16 : 10, limbs, v, what);
        expect_parse(s, hex ? 16 : 0, limbs + 1, v, what);
    }
    free(s);
    mpz_clear(v);
}

static void bulk_forms(void)
{
    enum { N = 2000, L = 8, S = 200 }; /* enough work for bulk_int_parallel to use 2 threads */
    const char **txt = malloc(N * sizeof *txt);
    char **own = calloc(N, sizeof *own);
    bulk_limb_t *want = calloc(N * L, sizeof *want), *got = malloc(N * L * sizeof *got);
    int8_t *werr = calloc(N, 1), *gerr = malloc(N);
    int first = BULK_OK;
    mpz_t v;
    mpz_init(v);
    for (size_t i = 0; i < N; i++) {
        random_value(v, L, (int)i);
        own[i] = mpz_get_str(NULL, i % 3 ? 10 : 16, v);
        if (i % 3 == 0) { /* hex with the prefix, read by base 0 */
            char *p = malloc(strlen(own[i]) + 3);
            sprintf(p, "0x%s", own[i]);
            free(own[i]);
            own[i] = p;
        }
        txt[i] = own[i];
        to_limbs(want + i * L, L, v);
        int bad = i == 1777 ? BULK_ERR_PARSE : i == 150 ? BULK_ERR_OVERFLOW : i == 900 ? BULK_ERR_ARG : 0;
        if (bad == BULK_ERR_PARSE) txt[i] = "12z";
        if (bad == BULK_ERR_OVERFLOW) txt[i] = "0x1" "0000000000000000" "0000000000000000" "0000000000000000" "0000000000000000" "0000000000000000" "0000000000000000" "0000000000000000" "0000000000000000";
        if (bad == BULK_ERR_ARG) txt[i] = NULL;
        if (bad) memset(want + i * L, 0, L * sizeof *want);
        werr[i] = (int8_t)bad;
        if (bad && first == BULK_OK) first = bad;
    }
    char *out1 = malloc(N * S), *out2 = malloc(N * S);
    for (int threads = 1; threads <= 2; threads++) {
        bulk_ctx *ctx;
        CHECK(bulk_ctx_open(&ctx, BULK_BACKEND_CPU, threads) == BULK_OK, "ctx");
        memset(got, 0xcd, N * L * sizeof *got);
        int st = bulk_int_from_strs(ctx, got, txt, N, L, 0, gerr);
        CHECK(st == first, "from_strs (%d threads): %d, expected %d", threads, st, first);
        CHECK(!memcmp(got, want, N * L * sizeof *got), "from_strs (%d threads): values differ", threads);
        CHECK(!memcmp(gerr, werr, N), "from_strs (%d threads): err[] differs", threads);
        char *out = threads == 1 ? out1 : out2;
        CHECK(bulk_int_to_strs(ctx, out, S, got, N, L, 10) == BULK_OK, "to_strs");
        for (size_t i = 0; i < N; i++) {
            char one[S];
            bulk_int_to_str(one, sizeof one, got + i * L, L, 10, NULL);
            CHECK(!strcmp(one, out + i * S), "to_strs instance %zu: %s vs %s", i, out + i * S, one);
        }
        CHECK(bulk_int_to_strs(ctx, out, (size_t)bulk_int_str_size(L, 10), got, N, L, 10) == BULK_ERR_ARG,
              "to_strs with a short stride accepted");
        CHECK(bulk_int_from_strs(ctx, got, txt, N, L, 8, NULL) == BULK_ERR_ARG, "from_strs base 8 accepted");
        bulk_ctx_close(ctx);
    }
    for (size_t i = 0; i < N; i++)
        CHECK(!strcmp(out1 + i * S, out2 + i * S), "to_strs instance %zu: 1 and 2 threads differ", i);
    for (size_t i = 0; i < N; i++) free(own[i]);
    free(own);
    free(txt);
    free(want);
    free(got);
    free(werr);
    free(gerr);
    free(out1);
    free(out2);
    mpz_clear(v);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    int quick = getenv("BULK_SANITIZED") != NULL;
    mpz_t v;
    mpz_init(v);
    edge_cases();
    /* widths around the divide-and-conquer thresholds of numtext.c / radix.c (80 and 160 limbs)
     * and beyond */
    static const size_t widths[] = { 1, 2, 3, 4, 5, 7, 8, 16, 33, 64, 79, 80, 81, 159, 160, 161, 300, 700, 2000 };
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        if (quick && widths[w] > 700) continue;
        for (int k = 0; k < (widths[w] < 100 ? 24 : 4); k++) {
            random_value(v, widths[w], k);
            char what[64];
            snprintf(what, sizeof what, "%zu limbs, case %d", widths[w], k);
            check_value(v, widths[w], what);
        }
    }
    random_texts(quick);
    bulk_forms();
    mpz_clear(v);
    return test_finish();
}
