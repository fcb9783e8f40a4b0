/* Reading and writing patterns: RLE as Golly reads and writes it, and plain text (.cells).
 *
 * RLE: '#' lines (only "#CXRLE Pos=x,y Gen=g" is interpreted), then the header
 * "x = W, y = H[, rule = R]", then runs "[count]tag" with tag b or . (dead), o or A (alive), $ (end
 * of row) and ! (end of pattern; the rest of the file is ignored). Whitespace between runs is
 * allowed. The header's W x H is the frame: a run that goes past it is an error. The header is
 * a bound, never a size: the text is read twice, once to check it and find the live cells'
 * bounding box, once to fill a bitmap of that box, so memory follows the cells in the file. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/report.h"
#include "bulk/life.h"
#include "read_stream.h"

/* The largest rectangle a pattern file may state (bytes of its bitmap). */
#define PATTERN_MAX_BYTES (1ull << 33)

/* Where and why reading failed (line and column 1-based); the public functions turn it into the
 * last error "function: name:line:column: message". */
typedef struct rle_error {
    unsigned long line, column;
    char message[200];
} rle_error;

typedef struct reader {
    const char *s;
    size_t len, pos;
    unsigned long line, col; /* of s[pos], 1-based */
    rle_error *err;
} reader;

static int fail_at(rle_error *err, unsigned long line, unsigned long col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(rle_error *err, unsigned long line, unsigned long col, const char *fmt, ...)
{
    if (err) {
        err->line = line;
        err->column = col;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return BULK_ERR_PARSE;
}

static int peek(const reader *r) { return r->pos < r->len ? (unsigned char)r->s[r->pos] : -1; }

static void advance(reader *r)
{
    if (r->pos >= r->len) return;
    if (r->s[r->pos] == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
    r->pos++;
}

/* End of the line that starts at s + pos (index of '\n' or len). */
static size_t line_end(const reader *r)
{
    const char *nl = memchr(r->s + r->pos, '\n', r->len - r->pos);
    return nl ? (size_t)(nl - r->s) : r->len;
}

static void skip_line(reader *r)
{
    size_t e = line_end(r);
    while (r->pos < e) advance(r);
    advance(r);
}

/* The live cells' bounding box [x0, x1) x [y0, y1), empty while x0 == x1. */
typedef struct box {
    uint64_t x0, x1, y0, y1;
} box;

static void box_add(box *b, uint64_t x, uint64_t y, uint64_t n)
{
    if (b->x0 == b->x1) {
        *b = (box){ x, x + n, y, y + 1 };
        return;
    }
    if (x < b->x0) b->x0 = x;
    if (x + n > b->x1) b->x1 = x + n;
    if (y < b->y0) b->y0 = y;
    if (y + 1 > b->y1) b->y1 = y + 1;
}

/* Allocates p->cells for the box b and records where it lies in the stated w x h frame. The
 * bitmap is sized by the live cells only, so a header that states a huge rectangle around a few
 * cells costs nothing; the box still may not exceed PATTERN_MAX_BYTES. */
static int alloc_cells(bulk_life_pattern *p, const box *b, uint64_t w, uint64_t h)
{
    uint64_t bw = b->x1 - b->x0, bh = b->y1 - b->y0;
    uint64_t words = bulk_life_words(bw);
    if (bh && words > PATTERN_MAX_BYTES / 8 / bh) return BULK_ERR_OVERFLOW;
    size_t n = (size_t)(words * bh);
    p->cells = calloc(n ? n : 1, sizeof(uint64_t));
    if (!p->cells) return BULK_ERR_NOMEM;
    p->width = bw;
    p->height = bh;
    p->frame_width = w;
    p->frame_height = h;
    p->frame_dx = bh ? b->x0 : 0;
    p->frame_dy = bh ? b->y0 : 0;
    p->x += (int64_t)p->frame_dx;
    p->y += (int64_t)p->frame_dy;
    return BULK_OK;
}

/* Sets the n cells from (x, y) of the frame; they lie in the box the bitmap was sized for. */
static void set_cells(bulk_life_pattern *p, uint64_t x, uint64_t y, uint64_t n)
{
    uint64_t *row = p->cells + (y - p->frame_dy) * bulk_life_words(p->width);
    uint64_t i = x - p->frame_dx, e = i + n;
    while (i < e) {
        uint64_t k = 64 - i % 64 < e - i ? 64 - i % 64 : e - i; /* cells in this word */
        row[i / 64] |= (k == 64 ? ~0ull : ((1ull << k) - 1)) << (i % 64);
        i += k;
    }
}

/* Parses a signed decimal integer at s (no spaces); returns chars used or 0. */
static size_t parse_i64(const char *s, size_t n, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    uint64_t v = 0;
    size_t d0 = i;
    while (i < n && isdigit((unsigned char)s[i])) {
        if (v > (UINT64_MAX - 9) / 10) return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
        i++;
    }
    if (i == d0 || v > (uint64_t)INT64_MAX) return 0;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return i;
}

/* "#CXRLE Pos=x,y Gen=g": fills p->x, p->y, p->has_pos, p->generation. */
static int parse_cxrle(reader *r, bulk_life_pattern *p)
{
    size_t e = line_end(r);
    const char *s = r->s;
    for (size_t i = r->pos + 6; i < e;) {
        if (isspace((unsigned char)s[i])) {
            i++;
            continue;
        }
        unsigned long col = r->col + (unsigned long)(i - r->pos);
        if (e - i > 4 && strncmp(s + i, "Pos=", 4) == 0) {
            int64_t x, y;
            size_t a = parse_i64(s + i + 4, e - i - 4, &x);
            if (!a || i + 4 + a >= e || s[i + 4 + a] != ',')
                return fail_at(r->err, r->line, col, "bad #CXRLE Pos (want Pos=x,y)");
            size_t b = parse_i64(s + i + 5 + a, e - i - 5 - a, &y);
            if (!b) return fail_at(r->err, r->line, col, "bad #CXRLE Pos (want Pos=x,y)");
            p->x = x;
            p->y = y;
            p->has_pos = 1;
            i += 5 + a + b;
        } else if (e - i > 4 && strncmp(s + i, "Gen=", 4) == 0) {
            int64_t g;
            size_t a = parse_i64(s + i + 4, e - i - 4, &g);
            if (!a || g < 0) return fail_at(r->err, r->line, col, "bad #CXRLE Gen (want Gen=g)");
            p->generation = (uint64_t)g;
            i += 4 + a;
        } else {
            while (i < e && !isspace((unsigned char)s[i])) i++; /* other keys: ignored, as Golly */
        }
    }
    skip_line(r);
    return BULK_OK;
}

/* The header line "x = W, y = H[, rule = R]". */
static int parse_header(reader *r, bulk_life_pattern *p, uint64_t *w, uint64_t *h)
{
    size_t e = line_end(r);
    if (e > r->pos && r->s[e - 1] == '\r') e--;
    const char *s = r->s;
    int have_x = 0, have_y = 0;
    size_t i = r->pos;
    while (i < e) {
        while (i < e && (isspace((unsigned char)s[i]) || s[i] == ',')) i++;
        if (i >= e) break;
        unsigned long col = r->col + (unsigned long)(i - r->pos);
        size_t k = i;
        while (k < e && isalpha((unsigned char)s[k])) k++;
        size_t klen = k - i;
        const char *key = s + i;
        while (k < e && isspace((unsigned char)s[k])) k++;
        if (klen == 0 || k >= e || s[k] != '=')
            return fail_at(r->err, r->line, col, "bad RLE header (want x = W, y = H, rule = R)");
        k++;
        while (k < e && isspace((unsigned char)s[k])) k++;
        unsigned long vcol = r->col + (unsigned long)(k - r->pos);
        if (klen == 1 && (key[0] == 'x' || key[0] == 'y')) {
            int64_t v;
            size_t a = parse_i64(s + k, e - k, &v);
            if (!a || v < 0)
                return fail_at(r->err, r->line, vcol, "bad %c in RLE header (want a number >= 0)",
                               key[0]);
            if (key[0] == 'x') *w = (uint64_t)v, have_x = 1;
            else *h = (uint64_t)v, have_y = 1;
            i = k + a;
        } else if (klen == 4 && strncmp(key, "rule", 4) == 0) {
            size_t v0 = k;
            while (k < e && s[k] != ',') k++;
            char buf[80];
            size_t n = k - v0;
            if (n >= sizeof buf)
                return fail_at(r->err, r->line, vcol, "rule too long");
            memcpy(buf, s + v0, n);
            buf[n] = 0;
            size_t ecol = 0;
            if (bulk_life_rule_parse(&p->rule, buf, &ecol) != BULK_OK)
                return fail_at(r->err, r->line, vcol + (ecol ? ecol - 1 : 0),
                               "unknown rule '%s' (want B/S notation such as B3/S23)", buf);
            p->has_rule = 1;
            i = k;
        } else {
            return fail_at(r->err, r->line, col, "unknown RLE header field '%.*s'", (int)klen, key);
        }
    }
    if (!have_x || !have_y)
        return fail_at(r->err, r->line, r->col, "RLE header needs both x = W and y = H");
    skip_line(r);
    return BULK_OK;
}

/* The runs after the header, up to '!': checked against the stated w x h. First (p == NULL) to
 * validate and find the live cells' box, then (p != NULL, from the same reader state) to set
 * the cells in the bitmap sized for that box. */
static int scan_runs(reader *r, bulk_life_pattern *p, uint64_t w, uint64_t h, box *b)
{
    uint64_t x = 0, y = 0;
    unsigned long end_line = r->line, end_col = r->col; /* just past the last run */
    for (;;) {
        int c = peek(r);
        if (c < 0)
            return fail_at(r->err, end_line, end_col, "RLE ends without '!'");
        if (isspace(c)) {
            advance(r);
            continue;
        }
        if (c == '#') { /* comment lines may appear between runs too */
            if (r->col == 1) {
                skip_line(r);
                continue;
            }
        }
        unsigned long line = r->line, col = r->col;
        uint64_t n = 1;
        if (isdigit(c)) {
            n = 0;
            while (isdigit(peek(r))) {
                if (n > (UINT64_MAX - 9) / 10)
                    return fail_at(r->err, line, col, "run count too large");
                n = n * 10 + (uint64_t)(peek(r) - '0');
                advance(r);
            }
            if (n == 0) return fail_at(r->err, line, col, "run count 0");
            c = peek(r);
            if (c < 0) return fail_at(r->err, r->line, r->col, "RLE ends without '!'");
            if (isspace(c)) return fail_at(r->err, r->line, r->col, "a run count must be followed by b, o or $");
        }
        unsigned long tcol = r->col, tline = r->line;
        if (c == '!') break;
        if (c == '$') {
            y = n > UINT64_MAX - y ? UINT64_MAX : y + n; /* only a later run can be past h */
            x = 0;
        } else if (c == 'b' || c == '.' || c == 'o' || c == 'A') {
            if (y >= h)
                return fail_at(r->err, line, col, "row %" PRIu64 " is past the stated height y = %" PRIu64,
                               y + 1, h);
            if (n > w - x)
                return fail_at(r->err, line, col,
                               "run of %" PRIu64 " at x = %" PRIu64 " goes past the stated width x = %" PRIu64,
                               n, x, w);
            if (c == 'o' || c == 'A') {
                if (p) set_cells(p, x, y, n);
                else box_add(b, x, y, n);
            }
            x += n;
        } else {
            if (isprint(c))
                return fail_at(r->err, tline, tcol, "unknown character '%c' in RLE", c);
            return fail_at(r->err, tline, tcol, "unknown character (byte 0x%02x) in RLE", c);
        }
        advance(r);
        end_line = r->line;
        end_col = r->col;
    }
    return BULK_OK;
}

static int read_rle(reader *r, bulk_life_pattern *p)
{
    uint64_t w = 0, h = 0;
    int st = parse_header(r, p, &w, &h);
    if (st) return st;
    unsigned long hline = r->line - 1;
    reader body = *r;
    box b = { 0, 0, 0, 0 };
    if ((st = scan_runs(r, NULL, w, h, &b)) != BULK_OK) return st;
    st = alloc_cells(p, &b, w, h);
    if (st == BULK_ERR_OVERFLOW)
        return fail_at(r->err, hline, 1,
                       "the live cells span %" PRIu64 " x %" PRIu64 " cells, more than a pattern may hold",
                       b.x1 - b.x0, b.y1 - b.y0);
    if (st) return st;
    return scan_runs(&body, p, w, h, &b);
}

/* The rows of a plain-text pattern. First (p == NULL) to check the characters and measure the
 * frame (*w, *h: the longest row, the last row with cells or dots) and the live cells' box, then
 * (p != NULL) to set the cells in the bitmap sized for that box. */
static int scan_plain(reader *r, bulk_life_pattern *p, uint64_t *w, uint64_t *h, box *b)
{
    uint64_t rows = 0;
    unsigned long line = r->line;
    for (size_t i = r->pos; i < r->len; line++) {
        const char *nl = memchr(r->s + i, '\n', r->len - i);
        size_t e = nl ? (size_t)(nl - r->s) : r->len;
        size_t le = e;
        while (le > i && isspace((unsigned char)r->s[le - 1])) le--;
        if (!(le > i && (r->s[i] == '!' || r->s[i] == '#'))) { /* not a comment: a row */
            for (size_t k = i; k < le; k++) {
                char c = r->s[k];
                if (c == 'O' || c == 'o' || c == '*') {
                    if (p) set_cells(p, k - i, rows, 1);
                    else box_add(b, k - i, rows, 1);
                } else if (c != '.' && c != ' ' && c != '\t') {
                    return fail_at(r->err, line, (unsigned long)(k - i + 1),
                                   "unknown character '%c' in a plain-text pattern (want . or O)", c);
                }
            }
            rows++;
            if (le > i && !p) {
                *h = rows;
                if (le - i > *w) *w = le - i;
            }
        }
        i = e + 1;
    }
    return BULK_OK;
}

static int read_plain(reader *r, bulk_life_pattern *p)
{
    uint64_t w = 0, h = 0;
    box b = { 0, 0, 0, 0 };
    int st = scan_plain(r, NULL, &w, &h, &b);
    if (st) return st;
    st = alloc_cells(p, &b, w, h);
    if (st == BULK_ERR_OVERFLOW) return fail_at(r->err, r->line, 1, "pattern is too large");
    if (st) return st;
    return scan_plain(r, p, &w, &h, &b);
}

static int read_text(bulk_life_pattern *p, const char *text, size_t len, rle_error *err)
{
    memset(p, 0, sizeof *p);
    p->rule = bulk_life_rule_conway();
    if (err) memset(err, 0, sizeof *err);
    reader r = { text, len, 0, 1, 1, err };
    /* leading comment lines; the first other line decides RLE (x = ...) or plain text */
    int st;
    for (;;) {
        int c = peek(&r);
        if (c == '#') {
            if (r.len - r.pos >= 6 && strncmp(r.s + r.pos, "#CXRLE", 6) == 0) {
                if ((st = parse_cxrle(&r, p)) != BULK_OK) goto fail;
            } else {
                skip_line(&r);
            }
        } else if (c == '\n' || c == '\r' || c == ' ' || c == '\t') {
            advance(&r);
        } else {
            break;
        }
    }
    size_t i = r.pos;
    int rle = 0;
    if (i < r.len && r.s[i] == 'x') {
        i++;
        while (i < r.len && (r.s[i] == ' ' || r.s[i] == '\t')) i++;
        rle = i < r.len && r.s[i] == '=';
    }
    if (rle) {
        /* back to the start of the line for column numbers */
        st = read_rle(&r, p);
    } else {
        if (r.pos < r.len) {
            /* rewind to the line start so columns are counted from 1 */
            r.pos -= r.col - 1;
            r.col = 1;
        }
        st = read_plain(&r, p);
    }
    if (st == BULK_OK) return BULK_OK;
fail:
    bulk_life_pattern_free(p);
    return st;
}

/* Reads text; a failure becomes the calling thread's last error, named after `fn` and `name`. */
static int read_named(const char *fn, bulk_life_pattern *p, const char *text, size_t len, const char *name)
{
    rle_error err;
    int st = read_text(p, text, len, &err);
    if (st == BULK_ERR_NOMEM) return bulk_fail(NULL, st, "%s: %s: out of memory", fn, name);
    if (st) return bulk_fail(NULL, st, "%s: %s:%lu:%lu: %s", fn, name, err.line, err.column, err.message);
    return BULK_OK;
}

int bulk_life_pattern_read(bulk_life_pattern *p, const char *text, size_t len, const char *name)
{
    static const char fn[] = "bulk_life_pattern_read";
    if (!p) return bulk_fail(NULL, BULK_ERR_ARG, "%s: p is NULL", fn);
    if (!text && len) return bulk_fail(NULL, BULK_ERR_ARG, "%s: text is NULL with len %zu", fn, len);
    return read_named(fn, p, text, len, name ? name : "pattern");
}

int bulk_life_pattern_read_file(bulk_life_pattern *p, const char *path)
{
    static const char fn[] = "bulk_life_pattern_read_file";
    if (!p) return bulk_fail(NULL, BULK_ERR_ARG, "%s: p is NULL", fn);
    if (!path) return bulk_fail(NULL, BULK_ERR_ARG, "%s: path is NULL", fn);
    memset(p, 0, sizeof *p);
    char *buf;
    size_t len;
    int open_errno, rs = bulk_read_path(path, &buf, &len, &open_errno);
    if (rs == BULK_ERR_NOMEM) return bulk_fail(NULL, rs, "%s: %s: out of memory", fn, path);
    if (rs != BULK_OK) {
        if (open_errno) return bulk_fail(NULL, BULK_ERR_IO, "%s: %s: cannot open: %s", fn, path, strerror(open_errno));
        return bulk_fail(NULL, BULK_ERR_IO, "%s: %s: read error", fn, path);
    }
    int st = read_named(fn, p, buf, len, path);
    free(buf);
    return st;
}

/* ---- writing ------------------------------------------------------------------------------ */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    size_t line_len; /* characters on the current line */
    int oom;
} sbuf;

static void sb_put(sbuf *b, const char *t, size_t n)
{
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 256;
        while (nc < b->len + n + 1) nc *= 2;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->len, t, n);
    b->len += n;
    b->s[b->len] = 0;
}

/* One run "[n]tag", wrapped so that no line is longer than 70 characters (Golly's limit). */
static void sb_run(sbuf *b, uint64_t n, char tag)
{
    char t[32];
    int k = n > 1 ? snprintf(t, sizeof t, "%" PRIu64 "%c", n, tag) : snprintf(t, sizeof t, "%c", tag);
    if (b->line_len + (size_t)k > 70) {
        sb_put(b, "\n", 1);
        b->line_len = 0;
    }
    sb_put(b, t, (size_t)k);
    b->line_len += (size_t)k;
}

static int cell(const uint64_t *row, uint64_t x) { return (int)((row[x / 64] >> (x % 64)) & 1); }

int bulk_life_pattern_write_rle(const bulk_life_pattern *p, char **text, size_t *len)
{
    if (!p || !text) return bulk_fail(NULL, BULK_ERR_ARG, "bulk_life_pattern_write_rle: %s is NULL", p ? "text" : "p");
    sbuf b = { 0 };
    char rule[32], head[160];
    int st = bulk_life_rule_format(&p->rule, rule, sizeof rule);
    if (st) return st;
    int k = snprintf(head, sizeof head, "#CXRLE Pos=%" PRId64 ",%" PRId64 " Gen=%" PRIu64 "\n", p->x,
                     p->y, p->generation);
    sb_put(&b, head, (size_t)k);
    k = snprintf(head, sizeof head, "x = %" PRIu64 ", y = %" PRIu64 ", rule = %s\n", p->width,
                 p->height, rule);
    sb_put(&b, head, (size_t)k);
    uint64_t nw = bulk_life_words(p->width);
    uint64_t pending_rows = 0; /* '$' owed before the next live cell */
    for (uint64_t y = 0; y < p->height; y++) {
        const uint64_t *row = p->cells + y * nw;
        uint64_t x = 0;
        int any = 0;
        while (x < p->width) {
            int v = cell(row, x);
            uint64_t e = x + 1;
            while (e < p->width && cell(row, e) == v) e++;
            if (v) {
                if (pending_rows) sb_run(&b, pending_rows, '$');
                pending_rows = 0;
                if (x > 0 && !any) sb_run(&b, x, 'b');
                any = 1;
                sb_run(&b, e - x, 'o');
            } else if (any && e < p->width) {
                sb_run(&b, e - x, 'b');
            }
            x = e;
        }
        pending_rows++;
    }
    sb_run(&b, 1, '!');
    sb_put(&b, "\n", 1);
    if (b.oom) {
        free(b.s);
        return bulk_fail(NULL, BULK_ERR_NOMEM, "bulk_life_pattern_write_rle: out of memory");
    }
    *text = b.s;
    if (len) *len = b.len;
    return BULK_OK;
}
