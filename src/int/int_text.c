/* The text conversions of bulk/int.h: bulk_int_from_str / bulk_int_to_str and their bulk forms.
 * Argument checks and the base rules here; the digits are converted by int/numtext.c (hex,
 * and decimal up to the divide-and-conquer sizes) and int/cpu/radix.c (decimal above them). */
#include <stdlib.h>
#include <string.h>

#include "backend/report.h"
#include "int/int_parallel.h"
#include "int/numtext.h"

size_t bulk_int_str_size(size_t limbs, int base)
{
    if ((base != 10 && base != 16) || limbs > BULK_INT_MAX_LIMBS) return 0;
    return bulk_format_uint_size(limbs ? limbs : 1, base == 16);
}

static int hex_digit(char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* The checks of from_str / from_strn / from_strs, reported under `fn`. */
static int text_args(const char *fn, const bulk_limb_t *r, const char *s, size_t limbs, int base)
{
    if (!r) return bulk_fail(NULL, BULK_ERR_ARG, "%s: r: must not be NULL", fn);
    if (!s) return bulk_fail(NULL, BULK_ERR_ARG, "%s: s: must not be NULL", fn);
    if (limbs == 0 || limbs > BULK_INT_MAX_LIMBS)
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: limbs %zu: must be 1..%zu", fn, limbs,
                         (size_t)BULK_INT_MAX_LIMBS);
    if (base != 0 && base != 10 && base != 16)
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: base %d: must be 0, 10 or 16", fn, base);
    return BULK_OK;
}

/* Parses s[0..len) (arguments checked); the failure is reported under `fn`. */
static int parse_text(const char *fn, bulk_limb_t *r, const char *s, size_t len, size_t limbs,
                      int base, size_t *err_pos)
{
    memset(r, 0, limbs * sizeof *r);
    size_t p = 0;
    int hex = base == 16;
    if (base != 10 && len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) p = 2, hex = 1;
    /* every character must be a digit (a sign, a space, an empty text: BULK_ERR_PARSE at its
     * offset) before the value's size is looked at */
    size_t end = p;
    for (; end < len; end++) {
        if (hex ? !hex_digit(s[end]) : (s[end] < '0' || s[end] > '9')) {
            if (err_pos) *err_pos = end;
            return bulk_fail(NULL, BULK_ERR_PARSE, "%s: character %zu: not a %s digit", fn,
                             end + 1, hex ? "hex" : "decimal");
        }
    }
    if (end == p) {
        if (err_pos) *err_pos = p;
        return bulk_fail(NULL, BULK_ERR_PARSE, "%s: character %zu: a digit is missing", fn, p + 1);
    }
    while (p + 1 < end && s[p] == '0') p++; /* leading zeros carry nothing */
    /* more digits than the width can hold at all (2^64 < 10^20 = 16^(16 + 0.6)): too wide,
     * without converting a long text first */
    int st = BULK_ERR_OVERFLOW;
    if (end - p <= limbs * (hex ? 16 : 20))
        st = hex ? bulk_parse_hex_digits(s + p, end - p, r, limbs, NULL)
                 : bulk_parse_uint(s + p, end - p, r, limbs, NULL);
    if (st < 0) {
        memset(r, 0, limbs * sizeof *r);
        if (st == BULK_ERR_OVERFLOW)
            return bulk_fail(NULL, st, "%s: value: wider than %zu limbs", fn, limbs);
        return bulk_fail(NULL, st, "%s: value: %s", fn, bulk_status_string(st));
    }
    return BULK_OK;
}

int bulk_int_from_str(bulk_limb_t *r, const char *s, size_t limbs, int base, size_t *err_pos)
{
    int st = text_args("bulk_int_from_str", r, s, limbs, base);
    if (st != BULK_OK) return st;
    return parse_text("bulk_int_from_str", r, s, strlen(s), limbs, base, err_pos);
}

int bulk_int_from_strn(bulk_limb_t *r, const char *s, size_t len, size_t limbs, int base,
                       size_t *err_pos)
{
    int st = text_args("bulk_int_from_strn", r, s, limbs, base);
    if (st != BULK_OK) return st;
    return parse_text("bulk_int_from_strn", r, s, len, limbs, base, err_pos);
}

size_t bulk_int_str_limbs(size_t len)
{
    return bulk_parse_uint_limbs_bound(len);
}

int bulk_int_to_str(char *buf, size_t cap, const bulk_limb_t *a, size_t limbs, int base,
                    size_t *len)
{
    static const char fn[] = "bulk_int_to_str";
    if (!buf) return bulk_fail(NULL, BULK_ERR_ARG, "%s: buf: must not be NULL", fn);
    if (!a) return bulk_fail(NULL, BULK_ERR_ARG, "%s: a: must not be NULL", fn);
    if (limbs == 0 || limbs > BULK_INT_MAX_LIMBS)
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: limbs %zu: must be 1..%zu", fn, limbs,
                         (size_t)BULK_INT_MAX_LIMBS);
    if (base != 10 && base != 16)
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: base %d: must be 10 or 16", fn, base);
    const int hex = base == 16;
    size_t n = limbs;
    while (n > 1 && a[n - 1] == 0) n--;
    size_t need = bulk_format_uint_size(n, hex) + 1;
    char *out = cap >= need ? buf : malloc(need); /* a tight buffer: print aside, then copy */
    if (!out) return bulk_fail(NULL, BULK_ERR_NOMEM, "%s: %zu bytes of text: out of memory", fn, need);
    size_t k = bulk_format_uint(out, a, n, hex);
    /* numtext prints hex when decimal printing runs out of memory: decimal never has an 'x' */
    int st = !hex && k > 1 && out[1] == 'x' ? BULK_ERR_NOMEM : BULK_OK;
    if (st == BULK_OK && out != buf) {
        if (k + 1 <= cap) memcpy(buf, out, k + 1);
        else st = BULK_ERR_OVERFLOW;
    }
    if (out != buf) free(out);
    if (st == BULK_OK || st == BULK_ERR_OVERFLOW) {
        if (len) *len = k;
    }
    if (st != BULK_OK && cap) buf[0] = 0;
    if (st == BULK_ERR_OVERFLOW)
        return bulk_fail(NULL, st, "%s: cap %zu: the text needs %zu bytes", fn, cap, k + 1);
    if (st != BULK_OK) return bulk_fail(NULL, st, "%s: decimal printing: out of memory", fn);
    return st;
}

/* ---- bulk forms ------------------------------------------------------------------------------ */

struct text_job {
    bulk_limb_t *r;
    const char *const *s;
    const bulk_limb_t *a;
    char *buf;
    size_t stride, limbs;
    int base;
    int8_t *err;
    size_t *first_bad; /* per worker: the lowest failing instance (SIZE_MAX: none) and its code */
    int *first_code;
};

static void note(const struct text_job *j, size_t i, int st, int worker)
{
    if (j->err) j->err[i] = (int8_t)st;
    if (st != BULK_OK && i < j->first_bad[worker]) {
        j->first_bad[worker] = i;
        j->first_code[worker] = st;
    }
}

static void from_range(void *p, size_t begin, size_t end, int worker)
{
    const struct text_job *j = p;
    for (size_t i = begin; i < end; i++) {
        bulk_limb_t *r = j->r + i * j->limbs;
        int st = BULK_ERR_ARG;
        if (j->s[i]) st = parse_text("bulk_int_from_strs", r, j->s[i], strlen(j->s[i]), j->limbs, j->base, NULL);
        else memset(r, 0, j->limbs * sizeof *r);
        note(j, i, st, worker);
    }
}

static void to_range(void *p, size_t begin, size_t end, int worker)
{
    const struct text_job *j = p;
    for (size_t i = begin; i < end; i++)
        note(j, i,
             bulk_int_to_str(j->buf + i * j->stride, j->stride, j->a + i * j->limbs, j->limbs,
                             j->base, NULL),
             worker);
}

/* Runs fn over the n instances and returns the code of the lowest failing one (BULK_OK: none),
 * the same whatever the thread count. */
static int run_text_job(const bulk_ctx *ctx, const char *name, struct text_job *j, size_t n,
                        bulk_range_fn fn)
{
    int workers = ctx->threads > 0 ? ctx->threads : 1;
    j->first_bad = malloc((size_t)workers * sizeof *j->first_bad);
    j->first_code = malloc((size_t)workers * sizeof *j->first_code);
    if (!j->first_bad || !j->first_code) {
        free(j->first_bad);
        free(j->first_code);
        return bulk_fail(ctx, BULK_ERR_NOMEM, "%s: %d workers: out of memory", name, workers);
    }
    for (int w = 0; w < workers; w++) j->first_bad[w] = SIZE_MAX, j->first_code[w] = BULK_OK;
    /* the cost of one instance in limb operations: decimal text is O(M(L) log L), hex linear */
    double L = (double)j->limbs, cost = j->base == 16 ? 4 * L : L * L / 2 + 20 * L;
    bulk_int_parallel(ctx, n, cost, fn, j);
    size_t bad = SIZE_MAX;
    int code = BULK_OK;
    for (int w = 0; w < workers; w++)
        if (j->first_bad[w] < bad) bad = j->first_bad[w], code = j->first_code[w];
    free(j->first_bad);
    free(j->first_code);
    if (code != BULK_OK)
        return bulk_fail(ctx, code, "%s: instance %zu: %s", name, bad, bulk_status_string(code));
    return code;
}

int bulk_int_from_strs(bulk_ctx *ctx, bulk_limb_t *r, const char *const *s, size_t n,
                       size_t limbs, int base, int8_t *err)
{
    static const char fn[] = "bulk_int_from_strs";
    int st = bulk_int_check_args(fn, ctx, n, limbs, 1);
    if (st != BULK_OK) return st;
    if (base != 0 && base != 10 && base != 16)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: base %d: must be 0, 10 or 16", fn, base);
    if (n == 0) return BULK_OK;
    if (!r) return bulk_fail(ctx, BULK_ERR_ARG, "%s: r: must not be NULL", fn);
    if (!s) return bulk_fail(ctx, BULK_ERR_ARG, "%s: s: must not be NULL", fn);
    struct text_job j = { .r = r, .s = s, .limbs = limbs, .base = base, .err = err };
    return run_text_job(ctx, fn, &j, n, from_range);
}

int bulk_int_to_strs(bulk_ctx *ctx, char *buf, size_t stride, const bulk_limb_t *a, size_t n,
                     size_t limbs, int base)
{
    static const char fn[] = "bulk_int_to_strs";
    int st = bulk_int_check_args(fn, ctx, n, limbs, 1);
    if (st != BULK_OK) return st;
    if (base != 10 && base != 16)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: base %d: must be 10 or 16", fn, base);
    if (stride < bulk_int_str_size(limbs, base) + 1 || n > SIZE_MAX / stride)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: stride %zu: must be at least %zu", fn, stride,
                         bulk_int_str_size(limbs, base) + 1);
    if (n == 0) return BULK_OK;
    if (!buf) return bulk_fail(ctx, BULK_ERR_ARG, "%s: buf: must not be NULL", fn);
    if (!a) return bulk_fail(ctx, BULK_ERR_ARG, "%s: a: must not be NULL", fn);
    if (bulk_int_overlap(buf, n * stride, a, n * limbs * sizeof *a))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: buf: overlaps a", fn);
    struct text_job j = { .a = a, .buf = buf, .stride = stride, .limbs = limbs, .base = base };
    return run_text_job(ctx, fn, &j, n, to_range);
}
