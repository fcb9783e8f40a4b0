/* The text conversions of bulk/int.h: bulk_int_from_str / bulk_int_to_str and their bulk forms.
 * Argument checks and the base rules here; the digits are converted by common/numtext.c (hex,
 * and decimal up to the divide-and-conquer sizes) and int/cpu/radix.c (decimal above them). */
#include <stdlib.h>
#include <string.h>

#include "common/numtext.h"
#include "int/int_parallel.h"

size_t bulk_int_str_size(size_t limbs, int base)
{
    if ((base != 10 && base != 16) || limbs > BULK_INT_MAX_LIMBS) return 0;
    return bulk_format_uint_size(limbs ? limbs : 1, base == 16);
}

static int hex_digit(char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

int bulk_int_from_str(bulk_limb_t *r, const char *s, size_t limbs, int base, size_t *err_pos)
{
    if (!r || !s || limbs == 0 || limbs > BULK_INT_MAX_LIMBS) return BULK_ERR_ARG;
    if (base != 0 && base != 10 && base != 16) return BULK_ERR_ARG;
    memset(r, 0, limbs * sizeof *r);
    size_t p = 0;
    int hex = base == 16;
    if (base != 10 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) p = 2, hex = 1;
    /* every character must be a digit (a sign, a space, an empty text: BULK_ERR_PARSE at its
     * offset) before the value's size is looked at */
    size_t end = p;
    for (; s[end]; end++) {
        if (hex ? !hex_digit(s[end]) : (s[end] < '0' || s[end] > '9')) {
            if (err_pos) *err_pos = end;
            return BULK_ERR_PARSE;
        }
    }
    if (end == p) {
        if (err_pos) *err_pos = p;
        return BULK_ERR_PARSE;
    }
    while (p + 1 < end && s[p] == '0') p++; /* leading zeros carry nothing */
    /* more digits than the width can hold at all (2^64 < 10^20 = 16^(16 + 0.6)): too wide,
     * without converting a long text first */
    if (end - p > limbs * (hex ? 16 : 20)) return BULK_ERR_OVERFLOW;
    int st = hex ? bulk_parse_hex_digits(s + p, end - p, r, limbs, NULL)
                 : bulk_parse_uint(s + p, end - p, r, limbs, NULL);
    if (st < 0) {
        memset(r, 0, limbs * sizeof *r);
        return st;
    }
    return BULK_OK;
}

int bulk_int_to_str(char *buf, size_t cap, const bulk_limb_t *a, size_t limbs, int base,
                    size_t *len)
{
    if (!buf || !a || limbs == 0 || limbs > BULK_INT_MAX_LIMBS) return BULK_ERR_ARG;
    if (base != 10 && base != 16) return BULK_ERR_ARG;
    const int hex = base == 16;
    size_t n = limbs;
    while (n > 1 && a[n - 1] == 0) n--;
    size_t need = bulk_format_uint_size(n, hex) + 1;
    char *out = cap >= need ? buf : malloc(need); /* a tight buffer: print aside, then copy */
    if (!out) return BULK_ERR_NOMEM;
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
        int st = j->s[i] ? bulk_int_from_str(r, j->s[i], j->limbs, j->base, NULL) : BULK_ERR_ARG;
        if (!j->s[i]) memset(r, 0, j->limbs * sizeof *r);
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
static int run_text_job(const bulk_ctx *ctx, struct text_job *j, size_t n, bulk_range_fn fn)
{
    int workers = ctx->threads > 0 ? ctx->threads : 1;
    j->first_bad = malloc((size_t)workers * sizeof *j->first_bad);
    j->first_code = malloc((size_t)workers * sizeof *j->first_code);
    if (!j->first_bad || !j->first_code) {
        free(j->first_bad);
        free(j->first_code);
        return BULK_ERR_NOMEM;
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
    return code;
}

int bulk_int_from_strs(bulk_ctx *ctx, bulk_limb_t *r, const char *const *s, size_t n,
                       size_t limbs, int base, int8_t *err)
{
    int st = bulk_int_check_shape(ctx, n, limbs, 1);
    if (st != BULK_OK) return st;
    if (base != 0 && base != 10 && base != 16) return BULK_ERR_ARG;
    if (n == 0) return BULK_OK;
    if (!r || !s) return BULK_ERR_ARG;
    struct text_job j = { .r = r, .s = s, .limbs = limbs, .base = base, .err = err };
    return run_text_job(ctx, &j, n, from_range);
}

int bulk_int_to_strs(bulk_ctx *ctx, char *buf, size_t stride, const bulk_limb_t *a, size_t n,
                     size_t limbs, int base)
{
    int st = bulk_int_check_shape(ctx, n, limbs, 1);
    if (st != BULK_OK) return st;
    if (base != 10 && base != 16) return BULK_ERR_ARG;
    if (stride < bulk_int_str_size(limbs, base) + 1 || n > SIZE_MAX / stride) return BULK_ERR_ARG;
    if (n == 0) return BULK_OK;
    if (!buf || !a || bulk_int_overlap(buf, n * stride, a, n * limbs * sizeof *a))
        return BULK_ERR_ARG;
    struct text_job j = { .a = a, .buf = buf, .stride = stride, .limbs = limbs, .base = base };
    return run_text_job(ctx, &j, n, to_range);
}
