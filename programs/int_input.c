/* Reading `bulk int` instances in bounded batches; see int_input.h for the contract.
 *
 * A batch is made in two steps. The sequential step reads lines, splits them into tokens and
 * bounds each operand's width from its text alone (that is what decides how many lines fit the
 * memory budget). The parallel step parses the tokens straight into the limb arrays and checks
 * each line; the first bad line of the batch (the lowest line number, whatever the thread
 * count) is reported. Without a fixed width the arrays are first laid out at the text bound and
 * then packed to the exact widest operand. */
#define _POSIX_C_SOURCE 200809L
#include "int_input.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli.h"
#include "cli_parallel.h"

/* Text kept per batch; one longer line is still taken alone. */
#define INT_TEXT_BYTES ((size_t)64 << 20)

enum line_error {
    LE_NONE = 0,
    LE_EMPTY,   /* no operand at all */
    LE_MISSING, /* fewer operands than the op takes */
    LE_EXTRA,   /* more operands than the op takes */
    LE_BADCHAR, /* not a decimal or 0x-hex non-negative integer */
    LE_WIDE,    /* wider than the fixed width */
    LE_ZERO,    /* a zero divisor */
    LE_EVEN     /* an even (or zero) modulus */
};

struct line_info {
    size_t ntok;                               /* tokens on the line, counted up to operands + 1 */
    size_t tok[INT_MAX_OPERANDS + 1];          /* offset of each token in the text arena */
    size_t len[INT_MAX_OPERANDS + 1];
};

struct line_check {
    uint8_t kind;     /* enum line_error */
    uint8_t operand;  /* 0-based operand the error is about */
    size_t pos;       /* offset of a bad character within the operand */
    size_t sig;       /* significant limbs of the widest operand (auto width) */
};

struct int_reader {
    FILE *fp;
    int own_fp;
    char *name;
    int_rules rules;
    size_t fixed_limbs;
    int threads;

    char *line;          /* getline buffer */
    size_t line_cap;
    ssize_t pending;     /* >= 0: `line` holds this many bytes not yet placed in a batch */
    uint64_t next_line;  /* number of the next line to place (1-based) */

    char *text;
    size_t text_len, text_cap;
    struct line_info *lines;
    struct line_check *checks;
    bulk_limb_t *op[INT_MAX_OPERANDS];
    size_t op_cap; /* limbs allocated per operand array */
};

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Limbs that surely hold the number written as s[0..len) (a bad token gets some bound too; the
 * parse rejects it later). Decimal: d significant digits are < 10^d <= 2^(3.322 d). */
static size_t token_limb_bound(const char *s, size_t len)
{
    size_t bits;
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        size_t i = 2;
        while (i < len && s[i] == '0') i++;
        bits = (len - i) * 4;
    } else {
        size_t i = 0;
        while (i < len && s[i] == '0') i++;
        size_t d = len - i;
        bits = d ? d * 3322 / 1000 + 1 : 0;
    }
    size_t limbs = (bits + 63) / 64;
    return limbs ? limbs : 1;
}

int_reader *int_reader_open(const char *path, const int_rules *rules, size_t fixed_limbs,
                            int threads)
{
    int_reader *r = calloc(1, sizeof *r);
    if (!r) {
        cli_warn("int %s: out of memory", rules->op);
        return NULL;
    }
    r->rules = *rules;
    r->fixed_limbs = fixed_limbs;
    r->threads = threads < 1 ? 1 : threads;
    r->pending = -1;
    r->next_line = 1;
    if (!path || strcmp(path, "-") == 0) {
        r->fp = stdin;
        r->name = strdup("stdin");
    } else {
        r->fp = fopen(path, "r");
        r->own_fp = 1;
        r->name = strdup(path);
        if (!r->fp) {
            cli_warn("int %s: cannot open input '%s': %s", rules->op, path, strerror(errno));
            free(r->name);
            free(r);
            return NULL;
        }
    }
    r->lines = malloc(INT_BATCH_MAX * sizeof *r->lines);
    r->checks = malloc(INT_BATCH_MAX * sizeof *r->checks);
    if (!r->name || !r->lines || !r->checks) {
        cli_warn("int %s: out of memory", rules->op);
        int_reader_close(r);
        return NULL;
    }
    return r;
}

const char *int_reader_name(const int_reader *r) { return r->name; }

long long int_reader_size(const int_reader *r)
{
    struct stat st;
    if (fstat(fileno(r->fp), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    return (long long)st.st_size;
}

long long int_reader_pos(const int_reader *r)
{
    off_t pos = ftello(r->fp);
    return pos < 0 ? -1 : (long long)pos;
}

void int_reader_close(int_reader *r)
{
    if (!r) return;
    if (r->own_fp && r->fp) fclose(r->fp);
    free(r->name);
    free(r->line);
    free(r->text);
    free(r->lines);
    free(r->checks);
    for (int k = 0; k < INT_MAX_OPERANDS; k++) free(r->op[k]);
    free(r);
}

/* Splits line[0..len) into tokens (offsets relative to the line); counts up to operands + 1. */
static void split_line(const char *line, size_t len, int operands, struct line_info *li)
{
    li->ntok = 0;
    size_t i = 0;
    while (li->ntok < (size_t)operands + 1) {
        while (i < len && is_space(line[i])) i++;
        if (i == len) break;
        size_t start = i;
        while (i < len && !is_space(line[i])) i++;
        li->tok[li->ntok] = start;
        li->len[li->ntok] = i - start;
        li->ntok++;
    }
}

/* Makes room for `extra` more bytes of text; the arena exists afterwards even when nothing has
 * been placed yet (an empty first line copies 0 bytes to r->text + 0: r->text must not be NULL). */
static int reserve_text(int_reader *r, size_t extra)
{
    if (r->text && r->text_len + extra <= r->text_cap) return 0;
    size_t cap = r->text_cap ? r->text_cap : 1 << 16;
    while (cap < r->text_len + extra) cap *= 2;
    char *t = realloc(r->text, cap);
    if (!t) return -1;
    r->text = t;
    r->text_cap = cap;
    return 0;
}

struct parse_job {
    int_reader *r;
    size_t limbs; /* per operand, as laid out for this parse */
};

static int is_zero(const bulk_limb_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i]) return 0;
    return 1;
}

static void parse_range(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct parse_job *job = arg;
    int_reader *r = job->r;
    const int_rules *ru = &r->rules;
    size_t limbs = job->limbs;
    for (size_t i = begin; i < end; i++) {
        const struct line_info *li = &r->lines[i];
        struct line_check *c = &r->checks[i];
        memset(c, 0, sizeof *c);
        if (li->ntok == 0) {
            c->kind = LE_EMPTY;
            continue;
        }
        if (li->ntok < (size_t)ru->operands) {
            c->kind = LE_MISSING;
            c->operand = (uint8_t)li->ntok;
            continue;
        }
        /* a bad or too wide operand is reported before an extra one on the same line */
        for (int k = 0; k < ru->operands && !c->kind; k++) {
            bulk_limb_t *dst = r->op[k] + i * limbs;
            size_t pos = 0, skip = 0;
            if (ru->negative && li->len[k] > 1 && r->text[li->tok[k]] == '-') skip = 1;
            int st = bulk_int_from_strn(dst, r->text + li->tok[k] + skip, li->len[k] - skip,
                                        limbs, 0, &pos);
            pos += skip;
            if (skip && st == BULK_ERR_OVERFLOW) st = BULK_OK; /* dst is 0 */
            if (skip && st == BULK_OK) memset(dst, 0, limbs * sizeof *dst);
            if (st == BULK_ERR_PARSE) {
                c->kind = LE_BADCHAR;
                c->operand = (uint8_t)k;
                /* "0x" without digits: the 'x' is the bad character */
                c->pos = pos < li->len[k] ? pos : li->len[k] - 1;
            } else if (st == BULK_ERR_OVERFLOW) {
                c->kind = LE_WIDE;
                c->operand = (uint8_t)k;
            } else if (st != BULK_OK) {
                c->kind = LE_BADCHAR; /* not reached: the arguments are valid */
                c->operand = (uint8_t)k;
            } else {
                size_t sig = limbs;
                while (sig && dst[sig - 1] == 0) sig--;
                if (sig > c->sig) c->sig = sig;
            }
        }
        if (c->kind) continue;
        if (li->ntok > (size_t)ru->operands) {
            c->kind = LE_EXTRA;
            c->operand = (uint8_t)ru->operands;
        } else if (ru->nonzero >= 0 && is_zero(r->op[ru->nonzero] + i * limbs, limbs)) {
            c->kind = LE_ZERO;
            c->operand = (uint8_t)ru->nonzero;
        } else if (ru->odd >= 0 && (r->op[ru->odd][i * limbs] & 1) == 0) {
            c->kind = LE_EVEN;
            c->operand = (uint8_t)ru->odd;
        }
    }
}

/* Operand text for a message: at most 40 characters, the rest elided. */
static void quote_token(char *out, size_t cap, const char *s, size_t len)
{
    size_t show = len <= 40 ? len : 36;
    size_t o = 0;
    for (size_t i = 0; i < show && o + 5 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (isprint(ch)) out[o++] = (char)ch;
        else o += (size_t)snprintf(out + o, cap - o, "\\x%02x", ch);
    }
    if (show < len && o + 4 < cap) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = 0;
}

/* Prints the message for bad line i of the batch being read (laid out at `limbs` per operand);
 * r->next_line is still the batch's first line number. */
static void report(const int_reader *r, size_t i, size_t limbs)
{
    const struct line_info *li = &r->lines[i];
    const struct line_check *c = &r->checks[i];
    const int_rules *ru = &r->rules;
    char where[512];
    /* "file:line:" as compilers write it, and the line number in words for readers */
    snprintf(where, sizeof where, "int %s: %s:%" PRIu64 ": line %" PRIu64, ru->op, r->name,
             r->next_line + i, r->next_line + i);
    char tok[200] = "";
    if (c->operand < li->ntok)
        quote_token(tok, sizeof tok, r->text + li->tok[c->operand], li->len[c->operand]);
    int k = c->operand + 1; /* operands are numbered from 1 in messages */
    switch (c->kind) {
    case LE_EMPTY:
        cli_warn("%s: empty line: missing operand (%s takes %d operand%s per line; "
                 "empty lines are errors)",
                 where, ru->op, ru->operands, ru->operands == 1 ? "" : "s");
        break;
    case LE_MISSING:
        cli_warn("%s: missing operand %d: %s takes %d operand%s per line, found %zu", where, k,
                 ru->op, ru->operands, ru->operands == 1 ? "" : "s", li->ntok);
        break;
    case LE_EXTRA:
        cli_warn("%s: extra operand %d '%s': %s takes %d operand%s per line", where, k, tok,
                 ru->op, ru->operands, ru->operands == 1 ? "" : "s");
        break;
    case LE_BADCHAR: {
        const char *s = r->text + li->tok[c->operand];
        char ch[8];
        unsigned char b = (unsigned char)s[c->pos < li->len[c->operand] ? c->pos : 0];
        if (isprint(b)) snprintf(ch, sizeof ch, "'%c'", b);
        else snprintf(ch, sizeof ch, "\\x%02x", b);
        cli_warn("%s: operand %d '%s' is not a%s integer (decimal or 0x hex): "
                 "bad character %s at position %zu",
                 where, k, tok, ru->negative ? "n" : " non-negative", ch, c->pos + 1);
        break;
    }
    case LE_WIDE:
        cli_warn("%s: operand %d '%s' is wider than %zu bits (--bits %zu)", where, k, tok,
                 r->fixed_limbs * 64, r->fixed_limbs * 64);
        break;
    case LE_ZERO:
        cli_warn("%s: division by zero (operand %d, the divisor, is 0)", where, k);
        break;
    case LE_EVEN:
        cli_warn("%s: operand %d, the modulus '%s', is %s; %s needs an odd modulus", where, k,
                 tok, is_zero(r->op[c->operand] + i * limbs, limbs) ? "zero" : "even", ru->op);
        break;
    default:
        break;
    }
}

/* Grows the operand arrays to `limbs` limbs each. */
static int reserve_ops(int_reader *r, size_t limbs)
{
    if (limbs <= r->op_cap) return 0;
    for (int k = 0; k < r->rules.operands; k++) {
        free(r->op[k]);
        r->op[k] = malloc(limbs * sizeof(bulk_limb_t));
        if (!r->op[k]) {
            r->op_cap = 0;
            return -1;
        }
    }
    r->op_cap = limbs;
    return 0;
}

int int_reader_next(int_reader *r, int_batch *b)
{
    const int ops = r->rules.operands;
    size_t n = 0, width = r->fixed_limbs; /* width: limbs per operand the batch will use */
    r->text_len = 0;
    for (;;) {
        ssize_t len;
        if (r->pending >= 0) {
            len = r->pending;
            r->pending = -1;
        } else {
            errno = 0;
            len = getline(&r->line, &r->line_cap, r->fp);
            if (len < 0) {
                if (ferror(r->fp)) {
                    cli_warn("int %s: reading %s: %s", r->rules.op, r->name,
                             strerror(errno ? errno : EIO));
                    return -1;
                }
                break;
            }
            if (len > 0 && r->line[len - 1] == '\n') len--;
        }
        struct line_info li;
        split_line(r->line, (size_t)len, ops, &li);
        size_t w = width;
        if (!r->fixed_limbs) {
            for (size_t k = 0; k < li.ntok && k < (size_t)ops; k++) {
                size_t t = token_limb_bound(r->line + li.tok[k], li.len[k]);
                if (t > w) w = t;
            }
            if (w == 0) w = 1;
        }
        /* the budget: (n + 1) instances at width w, and the text */
        if (n > 0 && ((n + 1) * w * INT_LIMB_FACTOR * sizeof(bulk_limb_t) > INT_BATCH_BYTES ||
                      r->text_len + (size_t)len > INT_TEXT_BYTES)) {
            r->pending = len;
            break;
        }
        if (reserve_text(r, (size_t)len) != 0) {
            cli_warn("int %s: out of memory reading %s", r->rules.op, r->name);
            return -1;
        }
        memcpy(r->text + r->text_len, r->line, (size_t)len);
        for (size_t k = 0; k < li.ntok; k++) li.tok[k] += r->text_len;
        r->text_len += (size_t)len;
        r->lines[n++] = li;
        width = w;
        if (n == INT_BATCH_MAX) break;
    }
    if (n == 0) return 0;

    if (reserve_ops(r, n * width) != 0) {
        cli_warn("int %s: out of memory (%zu instances of %zu bits)", r->rules.op, n, width * 64);
        return -1;
    }
    struct parse_job job = { r, width };
    cli_parallel_for(r->threads, n, 0, parse_range, &job);
    for (size_t i = 0; i < n; i++) {
        if (r->checks[i].kind != LE_NONE) {
            report(r, i, width);
            return -2;
        }
    }
    size_t limbs = width;
    if (!r->fixed_limbs) {
        /* pack to the widest operand actually present (at least one limb) */
        size_t sig = 1;
        for (size_t i = 0; i < n; i++)
            if (r->checks[i].sig > sig) sig = r->checks[i].sig;
        if (sig < width) {
            for (int k = 0; k < ops; k++)
                for (size_t i = 1; i < n; i++)
                    memmove(r->op[k] + i * sig, r->op[k] + i * width, sig * sizeof(bulk_limb_t));
        }
        limbs = sig;
    }
    b->n = n;
    b->limbs = limbs;
    b->first_line = r->next_line;
    for (int k = 0; k < INT_MAX_OPERANDS; k++) b->op[k] = k < ops ? r->op[k] : NULL;
    r->next_line += n;
    return 1;
}
