/* bulk_int_from_expr (bound expressions: literals with + - * ^) and bulk_int_from_strn against
 * GMP. Random expressions at 1..5 limbs are evaluated by an mpz twin of the grammar that applies
 * the same rules (every intermediate must fit the width, a negative difference is BULK_ERR_ARG);
 * fixed cases pin the CLI's bounds (2^68+2^40, 2^128 at 192 bits) and the error offsets.
 * usage: test_int_expr [--seed S] */
#include <gmp.h>

#include "bulk/bulk.h"
#include "bulk/int.h"
#include "test_util.h"

static uint64_t rng;

/* ---- the mpz twin --------------------------------------------------------------------------- */

struct twin {
    const char *s;
    size_t pos;
    size_t bits; /* the width */
};

static int fits(const struct twin *t, const mpz_t v) { return mpz_sizeinbase(v, 2) <= t->bits || mpz_sgn(v) == 0; }

static int t_literal(struct twin *t, mpz_t out)
{
    size_t start = t->pos;
    int hex = t->s[t->pos] == '0' && (t->s[t->pos + 1] == 'x' || t->s[t->pos + 1] == 'X');
    if (hex) t->pos += 2;
    while (hex ? strchr("0123456789abcdefABCDEF", t->s[t->pos]) && t->s[t->pos] : t->s[t->pos] >= '0' && t->s[t->pos] <= '9')
        t->pos++;
    char tmp[256];
    size_t len = t->pos - start - (hex ? 2 : 0);
    memcpy(tmp, t->s + start + (hex ? 2 : 0), len);
    tmp[len] = 0;
    mpz_set_str(out, tmp, hex ? 16 : 10);
    return fits(t, out) ? BULK_OK : BULK_ERR_OVERFLOW;
}

static int t_power(struct twin *t, mpz_t out)
{
    int st = t_literal(t, out);
    if (st || t->s[t->pos] != '^') return st;
    t->pos++;
    mpz_t e;
    mpz_init(e);
    st = t_power(t, e);
    if (!st) {
        if (mpz_cmp_ui(out, 1) <= 0) {
            if (mpz_sgn(e) == 0) mpz_set_ui(out, 1);
        } else if (mpz_cmp_ui(e, (unsigned long)t->bits) > 0) {
            st = BULK_ERR_OVERFLOW;
        } else {
            mpz_pow_ui(out, out, mpz_get_ui(e));
            if (!fits(t, out)) st = BULK_ERR_OVERFLOW;
        }
    }
    mpz_clear(e);
    return st;
}

static int t_product(struct twin *t, mpz_t out)
{
    int st = t_power(t, out);
    mpz_t f;
    mpz_init(f);
    while (!st && t->s[t->pos] == '*') {
        t->pos++;
        st = t_power(t, f);
        if (!st) {
            mpz_mul(out, out, f);
            if (!fits(t, out)) st = BULK_ERR_OVERFLOW;
        }
    }
    mpz_clear(f);
    return st;
}

static int t_sum(struct twin *t, mpz_t out)
{
    int st = t_product(t, out);
    mpz_t f;
    mpz_init(f);
    while (!st && (t->s[t->pos] == '+' || t->s[t->pos] == '-')) {
        char op = t->s[t->pos++];
        st = t_product(t, f);
        if (st) break;
        if (op == '+') mpz_add(out, out, f);
        else mpz_sub(out, out, f);
        if (mpz_sgn(out) < 0) st = BULK_ERR_ARG;
        else if (!fits(t, out)) st = BULK_ERR_OVERFLOW;
    }
    mpz_clear(f);
    return st;
}

/* ---- random expressions --------------------------------------------------------------------- */

static void put_literal(char *s, size_t *n)
{
    int kind = (int)(test_rand(&rng) % 4);
    if (kind == 0) { /* a small exponent or factor */
        *n += (size_t)sprintf(s + *n, "%u", (unsigned)(test_rand(&rng) % 70));
        return;
    }
    int hex = kind == 3, digits = 1 + (int)(test_rand(&rng) % (hex ? 30 : 40));
    if (hex) *n += (size_t)sprintf(s + *n, test_rand(&rng) & 1 ? "0x" : "0X");
    for (int i = 0; i < digits; i++)
        s[(*n)++] = "0123456789abcdefABCDEF"[test_rand(&rng) % (hex ? 22 : 10)];
    s[*n] = 0;
}

static void random_expr(char *s)
{
    size_t n = 0;
    int terms = 1 + (int)(test_rand(&rng) % 5);
    for (int i = 0; i < terms; i++) {
        if (i) s[n++] = "+-*^"[test_rand(&rng) % 4];
        put_literal(s, &n);
    }
    s[n] = 0;
}

static size_t seen_ok, seen_overflow, seen_negative;

static void compare(const char *s, size_t limbs, const char *what)
{
    bulk_limb_t got[8], want[8];
    mpz_t v;
    mpz_init(v);
    struct twin t = { s, 0, 64 * limbs };
    int wst = t_sum(&t, v);
    size_t pos = 0;
    int st = bulk_int_from_expr(got, s, limbs, &pos);
    CHECK(st == wst, "%s: '%s' at %zu limbs: status %d, GMP twin %d", what, s, limbs, st, wst);
    seen_ok += st == BULK_OK;
    seen_overflow += st == BULK_ERR_OVERFLOW;
    seen_negative += st == BULK_ERR_ARG;
    if (st == BULK_OK && wst == BULK_OK) {
        memset(want, 0, sizeof want);
        mpz_export(want, NULL, -1, sizeof *want, 0, 0, v);
        CHECK(!memcmp(got, want, limbs * sizeof *got), "%s: '%s' at %zu limbs: value differs", what, s, limbs);
    }
    mpz_clear(v);
}

static void fixed_cases(void)
{
    bulk_limb_t r[3];
    size_t pos = 99;
    CHECK(bulk_int_from_expr(r, "2^68+2^40", 3, &pos) == BULK_OK && r[0] == (1ull << 40) && r[1] == 16 &&
              r[2] == 0 && pos == 9, "2^68+2^40");
    CHECK(bulk_int_from_expr(r, "2^128", 3, NULL) == BULK_OK && !r[0] && !r[1] && r[2] == 1, "2^128 at 192 bits");
    CHECK(bulk_int_from_expr(r, "2^128", 2, NULL) == BULK_ERR_OVERFLOW && !r[0] && !r[1], "2^128 at 128 bits");
    CHECK(bulk_int_from_expr(r, "2^128-1", 2, NULL) == BULK_ERR_OVERFLOW, "2^128-1 at 128 bits: 2^128 overflows");
    CHECK(bulk_int_from_expr(r, "0x10^4-1", 1, NULL) == BULK_OK && r[0] == 65535, "0x10^4-1");
    CHECK(bulk_int_from_expr(r, "2^3^2", 1, NULL) == BULK_OK && r[0] == 512, "right-associative ^");
    CHECK(bulk_int_from_expr(r, "1+2*3^2", 1, NULL) == BULK_OK && r[0] == 19, "precedence");
    CHECK(bulk_int_from_expr(r, "0^100000000000000000000000", 3, NULL) == BULK_OK && !r[0], "0^huge");
    CHECK(bulk_int_from_expr(r, "1^100000000000000000000000", 3, NULL) == BULK_OK && r[0] == 1, "1^huge");
    CHECK(bulk_int_from_expr(r, "2^100000000000000000000000", 3, NULL) == BULK_ERR_OVERFLOW, "2^huge");
    CHECK(bulk_int_from_expr(r, "5-7", 1, &pos) == BULK_ERR_ARG && pos == 3, "5-7: ARG at %zu", pos);
    CHECK(bulk_int_from_expr(r, "", 1, &pos) == BULK_ERR_PARSE && pos == 0, "empty at %zu", pos);
    CHECK(bulk_int_from_expr(r, "0x", 1, &pos) == BULK_ERR_PARSE && pos == 1, "0x at %zu", pos);
    CHECK(bulk_int_from_expr(r, "2+", 1, &pos) == BULK_ERR_PARSE && pos == 2, "2+ at %zu", pos);
    CHECK(bulk_int_from_expr(r, "2 ", 1, &pos) == BULK_ERR_PARSE && pos == 1, "trailing space at %zu", pos);
    CHECK(bulk_int_from_expr(r, "(2)", 1, &pos) == BULK_ERR_PARSE && pos == 0, "parentheses at %zu", pos);
    CHECK(bulk_int_str_limbs(20) >= 2 && bulk_int_str_limbs(0) >= 1, "str_limbs");
}

/* from_strn on a window of a longer text equals mpz_set_str of the window */
static void strn_cases(void)
{
    char text[700], win[700];
    for (int iter = 0; iter < 2000; iter++) {
        int hex = (int)(test_rand(&rng) & 1);
        size_t len = 1 + test_rand(&rng) % 600, k = 0;
        if (hex) text[k++] = '0', text[k++] = 'x';
        while (k < len + 2) text[k++] = "0123456789abcdef"[test_rand(&rng) % (hex ? 16 : 10)];
        text[k] = 0;
        size_t wl = (hex ? 3 : 1) + test_rand(&rng) % (k - (hex ? 2 : 0)); /* a prefix, "0x" + 1 digit at least */
        if (wl > k) wl = k;
        memcpy(win, text, wl);
        win[wl] = 0;
        mpz_t v;
        mpz_init(v);
        mpz_set_str(v, hex ? win + 2 : win, hex ? 16 : 10);
        size_t limbs = (mpz_sizeinbase(v, 2) + 63) / 64 + (test_rand(&rng) % 2);
        if (limbs == 0) limbs = 1;
        bulk_limb_t *got = calloc(limbs + 1, sizeof *got), *want = calloc(limbs + 1, sizeof *want);
        mpz_export(want, NULL, -1, sizeof *want, 0, 0, v);
        int st = bulk_int_from_strn(got, text, wl, limbs, 0, NULL);
        CHECK(st == BULK_OK && !memcmp(got, want, limbs * sizeof *got), "from_strn '%.40s...' (%zu chars): %d",
              win, wl, st);
        if (mpz_sizeinbase(v, 2) > 64 && mpz_sgn(v)) {
            size_t narrow = (mpz_sizeinbase(v, 2) + 63) / 64 - 1;
            CHECK(bulk_int_from_strn(got, text, wl, narrow, 0, NULL) == BULK_ERR_OVERFLOW, "from_strn narrow");
        }
        free(got);
        free(want);
        mpz_clear(v);
    }
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    fixed_cases();
    strn_cases();
    char s[512];
    for (int iter = 0; iter < 20000; iter++) {
        random_expr(s);
        compare(s, 1 + (size_t)(test_rand(&rng) % 5), "random");
    }
    printf("random expressions: %zu values, %zu overflows, %zu negative\n", seen_ok, seen_overflow,
           seen_negative);
    CHECK(seen_ok > 1000 && seen_overflow > 1000 && seen_negative > 100, "too few of each outcome");
    return test_finish();
}
