/* Helpers shared by the `bulk collatz` subcommands and `bulk dist collatz` (collatz_cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/collatz.h"
#include "bulk/int.h"
#include "collatz_cli.h"

bulk_u128 czcli_bound(const char *opt, const char *text, uint64_t *top)
{
    uint64_t v[3];
    size_t pos = 0;
    int st = bulk_collatz_parse_bound(text, v, &pos);
    if (st == BULK_ERR_OVERFLOW)
        cli_die(CLI_EXIT_USAGE, "%s: '%s' is too large (more than 192 bits)", opt, text);
    if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "%s: '%s' is negative", opt, text);
    if (st != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "%s: '%s' is not a number or expression (at character %zu)",
                opt, text, pos + 1);
    *top = v[2];
    bulk_u128 r = { v[0], v[1] };
    return r;
}

void czcli_wide_text(const bulk_collatz_wide *v, char buf[80])
{
    if (bulk_int_to_str(buf, 80, v->limb, BULK_COLLATZ_WIDE_LIMBS, 10, NULL) != BULK_OK) strcpy(buf, "?");
}

bulk_collatz_wide czcli_wide(const char *opt, const char *text)
{
    bulk_collatz_wide w;
    size_t pos = 0;
    int st = bulk_int_from_expr(w.limb, text, BULK_COLLATZ_WIDE_LIMBS, &pos);
    if (st == BULK_ERR_OVERFLOW)
        cli_die(CLI_EXIT_USAGE, "%s: '%s' is too large (2^256 or more; peaks are kept in 256 bits)", opt, text);
    if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "%s: '%s' is negative", opt, text);
    if (st != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "%s: '%s' is not a number or expression (at character %zu)", opt, text, pos + 1);
    return w;
}

void czcli_range(const char *from, const char *to, bulk_u128 *first, bulk_u128 *last)
{
    if (!from) cli_die(CLI_EXIT_USAGE, "--from is required");
    if (!to) cli_die(CLI_EXIT_USAGE, "--to is required");
    uint64_t ftop, ttop;
    bulk_u128 a = czcli_bound("--from", from, &ftop), b = czcli_bound("--to", to, &ttop);
    if (ftop) cli_die(CLI_EXIT_USAGE, "--from %s: starting values must be below 2^128", from);
    if (ttop > 1 || (ttop == 1 && (b.lo | b.hi)))
        cli_die(CLI_EXIT_USAGE, "--to %s: the range must end at 2^128 or below", to);
    if (!a.lo && !a.hi) cli_die(CLI_EXIT_USAGE, "--from must be at least 1");
    unsigned __int128 A = ((unsigned __int128)a.hi << 64) | a.lo;
    unsigned __int128 B = ((unsigned __int128)b.hi << 64) | b.lo; /* 0 here means 2^128 */
    if (ttop == 0 && B <= A)
        cli_die(CLI_EXIT_USAGE, "the range [%s, %s) is empty: --to must be above --from", from,
                to);
    B -= 1; /* inclusive; 2^128 wraps to 2^128 - 1 */
    *first = a;
    first->lo = (uint64_t)A;
    first->hi = (uint64_t)(A >> 64);
    last->lo = (uint64_t)B;
    last->hi = (uint64_t)(B >> 64);
}

void czcli_part(const char *text, bulk_u128 *first, bulk_u128 *last, unsigned long long *pi,
                unsigned long long *pn)
{
    unsigned long long i, n;
    char extra;
    if (sscanf(text, "%llu/%llu%c", &i, &n, &extra) != 2 || n == 0 || i < 1 || i > n ||
        n > (1ull << 32))
        cli_die(CLI_EXIT_USAGE, "--part: '%s' is not I/N with 1 <= I <= N <= 2^32", text);
    int st = czcli_part_range(first, last, i, n);
    if (st == -2) cli_die(CLI_EXIT_USAGE, "--part: the range is too long to split");
    if (st) cli_die(CLI_EXIT_USAGE, "--part %s: this part of the range is empty", text);
    *pi = i;
    *pn = n;
}

int czcli_part_range(bulk_u128 *first, bulk_u128 *last, unsigned long long i, unsigned long long n)
{
    typedef unsigned __int128 u128;
    u128 A = ((u128)first->hi << 64) | first->lo, B = ((u128)last->hi << 64) | last->lo;
    u128 len1 = B - A; /* length - 1, so that the full 2^128 range also fits */
    /* slice i covers [A + floor(L (i-1) / N), A + floor(L i / N)) with L = len1 + 1; computed
     * as q*x + floor(r*x / N) to stay inside 128 bits (r*x < 2^32 * 2^32 * ... bounded) */
    u128 L = len1 + 1; /* 0 when the range is all 2^128 numbers: not supported by parts */
    if (L == 0) return -2;
    u128 q = L / n, r = L % n;
    u128 lo = A + q * (i - 1) + r * (i - 1) / n;
    u128 hi = A + q * i + r * i / n; /* exclusive */
    if (hi == lo) return -1;
    first->lo = (uint64_t)lo;
    first->hi = (uint64_t)(lo >> 64);
    hi -= 1;
    last->lo = (uint64_t)hi;
    last->hi = (uint64_t)(hi >> 64);
    return 0;
}

void czcli_u128_text(bulk_u128 v, char buf[48])
{
    const bulk_limb_t w[2] = { v.lo, v.hi };
    if (bulk_int_to_str(buf, 48, w, 2, 10, NULL) != BULK_OK)
        cli_die(CLI_EXIT_FAIL, "internal error: printing a 128-bit number");
}

const char *czcli_str(bulk_u128 v, int slot)
{
    static char buf[4][48];
    czcli_u128_text(v, buf[slot & 3]);
    return buf[slot & 3];
}

int czcli_u128_parse(const char *text, bulk_u128 *v)
{
    bulk_limb_t w[2];
    if (bulk_int_from_str(w, text, 2, 10, NULL) != BULK_OK) return -1;
    v->lo = w[0];
    v->hi = w[1];
    return 0;
}

bulk_collatz_engine *czcli_engine(bulk_ctx *ctx, int d, int k, int a)
{
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, ctx, d, k, a);
    if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "%s", bulk_ctx_last_error(ctx));
    if (st != BULK_OK)
        cli_die(CLI_EXIT_FAIL, "cannot build the Collatz tables (d=%d k=%d a=%d): %s", d, k, a,
                bulk_status_string(st));
    return e;
}

/* ---- the verify result (verify, merge, dist collatz verify) ---- */

static int cz_is_set(bulk_u128 v) { return (v.lo | v.hi) != 0; }

void czcli_print_verify(FILE *out, int json, const char *from, const char *to, unsigned long long pi,
                        unsigned long long pn, bulk_u128 first, bulk_u128 last, int d, int k, int conv,
                        const bulk_collatz_verify_result *r, double secs, const char *extra_json,
                        const char *extra_text)
{
    double covered = (double)r->covered.hi * 18446744073709551616.0 + (double)r->covered.lo;
    double rate = secs > 0 ? covered / secs : 0;
    if (json) {
        fprintf(out, "{\"command\":\"collatz verify\",\"from\":\"%s\",\"to\":\"%s\",\"part\":\"%llu/%llu\",", from, to, pi, pn);
        fprintf(out, "\"first\":\"%s\",\"last\":\"%s\",\"d\":%d,\"k\":%d,\"mode\":\"%s\",", czcli_str(first, 0),
                czcli_str(last, 1), d, k, conv ? "converge" : "glides");
        fprintf(out, "\"covered\":\"%s\",\"iterated\":\"%s\",\"overflows\":%llu,\"overflow_values\":[",
                czcli_str(r->covered, 0), czcli_str(r->iterated, 1),
                (unsigned long long)r->overflows);
        for (uint32_t i = 0; i < r->n_overflow_values; i++)
            fprintf(out, "%s\"%s\"", i ? "," : "", czcli_str(r->overflow_values[i], 0));
        if (conv) /* convergence mode computes no glides */
            fprintf(out, "],\"max_glide\":null,\"max_glide_n\":null,\"checksum\":null,");
        else
            fprintf(out, "],\"max_glide\":%llu,\"max_glide_n\":\"%s\",\"checksum\":\"%s\",",
                    (unsigned long long)r->max_glide, czcli_str(r->max_glide_n, 0),
                    czcli_str(r->checksum, 1));
        char w[80];
        if (cz_is_set(r->peak_n)) {
            czcli_wide_text(&r->peak, w);
            fprintf(out, "\"peak\":\"%s\",\"peak_n\":\"%s\",\"peak_hits\":[", w, czcli_str(r->peak_n, 0));
        } else {
            fprintf(out, "\"peak\":null,\"peak_n\":null,\"peak_hits\":[");
        }
        for (uint32_t i = 0; i < r->n_peak_hits; i++) {
            czcli_wide_text(&r->peak_hits[i].value, w);
            fprintf(out, "%s[\"%s\",\"%s\"]", i ? "," : "", czcli_str(r->peak_hits[i].n, 0), w);
        }
        fprintf(out, "],\"seconds\":%.3f,\"rate\":%.4g%s}\n", secs, rate, extra_json ? extra_json : "");
        return;
    }
    fprintf(out, "range       [%s, %s]", czcli_str(first, 0), czcli_str(last, 1));
    if (pn > 1) fprintf(out, "  (part %llu/%llu of [%s, %s))", pi, pn, from, to);
    fprintf(out, "\ntables      d=%d k=%d\n", d, k);
    if (conv) fprintf(out, "mode        converge (proofs of convergence only: no glides computed)\n");
    fprintf(out, "covered     %s\niterated    %s\n", czcli_str(r->covered, 0),
            czcli_str(r->iterated, 1));
    fprintf(out, "overflows   %llu", (unsigned long long)r->overflows);
    for (uint32_t i = 0; i < r->n_overflow_values && i < 10; i++)
        fprintf(out, "%s%s", i ? " " : "  (", czcli_str(r->overflow_values[i], 0));
    if (r->n_overflow_values) fprintf(out, "%s)", r->overflows > 10 ? " ..." : "");
    if (conv) {
        fprintf(out, "\nmax glide   -\nchecksum    -\n");
    } else {
        fprintf(out, "\nmax glide   %llu at n = %s\n", (unsigned long long)r->max_glide,
                czcli_str(r->max_glide_n, 0));
        fprintf(out, "checksum    %s\n", czcli_str(r->checksum, 0));
    }
    if (cz_is_set(r->peak_n)) {
        char w[80];
        czcli_wide_text(&r->peak, w);
        fprintf(out, "peak        %s at n = %s  (largest pre-drop peak)\n", w, czcli_str(r->peak_n, 0));
        for (uint32_t i = 0; i < r->n_peak_hits; i++) {
            czcli_wide_text(&r->peak_hits[i].value, w);
            fprintf(out, "peak hit    %s %s\n", czcli_str(r->peak_hits[i].n, 0), w);
        }
    }
    if (secs > 0) fprintf(out, "time        %.3f s  (%.4g numbers/s)%s\n", secs, rate, extra_text ? extra_text : "");
    fprintf(out, "verified    yes\n");
}


/* ---- records results (records, merge, dist collatz records) ---- */

bulk_collatz_kind czcli_kind(const char *text)
{
    if (!strcmp(text, "delay")) return BULK_COLLATZ_DELAY;
    if (!strcmp(text, "glide")) return BULK_COLLATZ_GLIDE;
    if (!strcmp(text, "path")) return BULK_COLLATZ_PATH;
    cli_die(CLI_EXIT_USAGE, "--kind: '%s' is not delay, glide or path", text);
}

const char *czcli_kind_name(bulk_collatz_kind k)
{
    return k == BULK_COLLATZ_DELAY ? "delay" : k == BULK_COLLATZ_GLIDE ? "glide" : "path";
}

int czcli_wide_cmp(const bulk_collatz_wide *a, const bulk_collatz_wide *b)
{
    for (int i = BULK_COLLATZ_WIDE_LIMBS - 1; i >= 0; i--)
        if (a->limb[i] != b->limb[i]) return a->limb[i] < b->limb[i] ? -1 : 1;
    return 0;
}

void czcli_print_records(FILE *out, int json, const czcli_records_info *h, const bulk_collatz_record *recs,
                         size_t n, double secs, const char *extra_json)
{
    char w[80];
    if (!json) {
        for (size_t i = 0; i < n; i++) {
            czcli_wide_text(&recs[i].value, w);
            fprintf(out, "%s %s\n", czcli_str(recs[i].n, 0), w);
        }
        return;
    }
    fprintf(out, "{\"command\":\"collatz records\",\"kind\":\"%s\",", czcli_kind_name(h->kind));
    fprintf(out, "\"from\":\"%s\",\"to\":\"%s\",\"part\":\"%llu/%llu\",", h->from, h->to, h->pi, h->pn);
    fprintf(out, "\"first\":\"%s\",\"last\":\"%s\",\"above\":", czcli_str(h->first, 0), czcli_str(h->last, 1));
    if (h->has_above) {
        czcli_wide_text(&h->above, w);
        fprintf(out, "\"%s\"", w);
    } else {
        fputs("null", out);
    }
    fputs(",\"records\":[", out);
    /* delays and glides are numbers, peaks (up to 78 digits) strings, as in verify's output */
    const char *q = h->kind == BULK_COLLATZ_PATH ? "\"" : "";
    for (size_t i = 0; i < n; i++) {
        czcli_wide_text(&recs[i].value, w);
        fprintf(out, "%s[\"%s\",%s%s%s]", i ? "," : "", czcli_str(recs[i].n, 0), q, w, q);
    }
    fputs("]", out);
    if (secs >= 0) fprintf(out, ",\"seconds\":%.3f", secs);
    fprintf(out, "%s}\n", extra_json ? extra_json : "");
}

void czcli_rlist_offer(czcli_rlist *l, bulk_u128 n, const bulk_collatz_wide *v)
{
    if (l->n && czcli_wide_cmp(v, &l->r[l->n - 1].value) <= 0) return;
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        bulk_collatz_record *p = realloc(l->r, nc * sizeof *p);
        if (!p) cli_die(CLI_EXIT_FAIL, "out of memory");
        l->r = p;
        l->cap = nc;
    }
    l->r[l->n].n = n;
    l->r[l->n].value = *v;
    l->n++;
}

const char *czcli_json_str(const char *file, const char *text, const char *key, char *buf, size_t cap)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(text, pat);
    if (!p) cli_die(CLI_EXIT_USAGE, "merge: %s: no \"%s\" (not a verify or records --json result?)", file, key);
    p += strlen(pat);
    int quoted = *p == '"';
    if (quoted) p++;
    size_t n = 0;
    while (p[n] && (quoted ? p[n] != '"' : (p[n] != ',' && p[n] != '}'))) n++;
    if (n >= cap) cli_die(CLI_EXIT_USAGE, "merge: %s: the value of \"%s\" is too long", file, key);
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

bulk_u128 czcli_json_u128(const char *file, const char *text, const char *key)
{
    char buf[64];
    bulk_u128 v;
    if (czcli_u128_parse(czcli_json_str(file, text, key, buf, sizeof buf), &v))
        cli_die(CLI_EXIT_USAGE, "merge: %s: \"%s\" is not a number", file, key);
    return v;
}
