/* Checkpoint files of long verification runs (text, one field per line; docs/collatz.md):
 *
 *   bulk-collatz-checkpoint 2
 *   identity <the run's parameters, one line>
 *   next <first number not yet covered, decimal>   (last + 1 when the run is complete)
 *   covered / iterated / checksum <decimal>
 *   overflows <count>
 *   max_glide <glide> <n>
 *   overflow <n>        (one line per kept overflow value, ascending)
 *   peak <value> <n>    (the largest pre-drop peak and its smallest n; "peak none": a run
 *                        without peaks, then no hit lines follow)
 *   hits_lost <count>   (peak hits that did not fit the list)
 *   hit <n> <value>     (one line per peak hit, ascending)
 *   end
 *
 * Format 1 (no peak lines) is still read, for runs without peaks; a run with peaks refuses it,
 * and "peak none", with a message, as the prefix done has no peaks.
 *
 * Written atomically (util/atomic_file.h), so a kill at any moment leaves either the
 * previous or the new checkpoint, and both describe a consistent prefix of the range. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collatz/checkpoint.h"
#include "collatz/peak.h"
#include "atomic_file.h"

int bulk_cz_checkpoint_write(const char *path, const char *identity, bulk_u128 next, int peaks,
                             const bulk_collatz_verify_result *r)
{
    bulk_afile f;
    if (bulk_afile_open(&f, path, "w") != 0) return BULK_ERR_IO;
    char a[48], b[48], c[48], d[48];
    bulk_cz_u128_str(next, a);
    fprintf(f.fp, "bulk-collatz-checkpoint 2\nidentity %s\nnext %s\n", identity, a);
    bulk_cz_u128_str(r->covered, a);
    bulk_cz_u128_str(r->iterated, b);
    bulk_cz_u128_str(r->checksum, c);
    bulk_cz_u128_str(r->max_glide_n, d);
    fprintf(f.fp, "covered %s\niterated %s\nchecksum %s\noverflows %llu\nmax_glide %llu %s\n", a,
            b, c, (unsigned long long)r->overflows, (unsigned long long)r->max_glide, d);
    for (uint32_t i = 0; i < r->n_overflow_values; i++) {
        bulk_cz_u128_str(r->overflow_values[i], a);
        fprintf(f.fp, "overflow %s\n", a);
    }
    char w[BULK_CZ_WIDE_STR];
    bulk_cz_wide_str(&r->peak, w);
    bulk_cz_u128_str(r->peak_n, a);
    if (peaks) fprintf(f.fp, "peak %s %s\nhits_lost %u\n", w, a, r->peak_hits_lost);
    else fprintf(f.fp, "peak none\n");
    for (uint32_t i = 0; i < r->n_peak_hits; i++) {
        bulk_cz_u128_str(r->peak_hits[i].n, a);
        bulk_cz_wide_str(&r->peak_hits[i].value, w);
        fprintf(f.fp, "hit %s %s\n", a, w);
    }
    fprintf(f.fp, "end\n");
    if (ferror(f.fp)) {
        bulk_afile_abort(&f);
        return BULK_ERR_IO;
    }
    return bulk_afile_commit(&f) == 0 ? BULK_OK : BULK_ERR_IO;
}

/* Reads "key value" with a u128 value. */
static int read_u128(FILE *fp, const char *key, bulk_u128 *v, int *line)
{
    char buf[128], k[32], val[64];
    (*line)++;
    if (!fgets(buf, sizeof buf, fp)) return BULK_ERR_PARSE;
    if (sscanf(buf, "%31s %63s", k, val) != 2 || strcmp(k, key) != 0) return BULK_ERR_PARSE;
    return bulk_cz_u128_parse(val, v) == BULK_OK ? BULK_OK : BULK_ERR_PARSE;
}

int bulk_cz_state_open(const bulk_ctx *ctx, const char *fn, const char *path, const char *magic,
                       const char *identity, FILE **fpp, int *line)
{
    struct stat st; /* a device or FIFO could not give back what was written to it */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: checkpoint %s: is not a regular file (a checkpoint must be read back)",
                         fn, path);
    }
    FILE *fp = fopen(path, "r");
    if (!fp) return 1; /* no checkpoint: a fresh run */
    char buf[4096];
    *line = 1;
    if (!fgets(buf, sizeof buf, fp) || strcmp(buf, magic) != 0) goto bad;
    *line = 2;
    if (!fgets(buf, sizeof buf, fp) || strncmp(buf, "identity ", 9) != 0) goto bad;
    buf[strcspn(buf, "\n")] = 0;
    if (strcmp(buf + 9, identity) != 0) {
        fclose(fp);
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: checkpoint %s: belongs to another run (%s), not to this one (%s)",
                         fn, path, buf + 9, identity);
    }
    *fpp = fp;
    return BULK_OK;
bad:
    fclose(fp);
    return bulk_fail(ctx, BULK_ERR_PARSE, "%s: checkpoint %s: line %d is malformed", fn, path, *line);
}

static int no_peaks(const bulk_ctx *ctx, const char *fn, const char *path)
{
    return bulk_fail(ctx, BULK_ERR_ARG,
                     "%s: checkpoint %s: written by a run without pre-drop peaks: resume it without peaks "
                     "(verify --no-peaks) or remove it to start afresh",
                     fn, path);
}

int bulk_cz_checkpoint_read(const bulk_ctx *ctx, const char *fn, const char *path, const char *identity,
                            int peaks, bulk_u128 *next, bulk_collatz_verify_result *r)
{
    static const char v1[] = "bulk-collatz-checkpoint 1\n";
    int old = 0;
    FILE *fp = fopen(path, "r");
    if (fp) {
        char head[64];
        old = fgets(head, sizeof head, fp) && strcmp(head, v1) == 0;
        fclose(fp);
        fp = NULL;
    }
    if (old && peaks) return no_peaks(ctx, fn, path);
    int line, st = bulk_cz_state_open(ctx, fn, path, old ? v1 : "bulk-collatz-checkpoint 2\n", identity, &fp, &line);
    if (st == 1) return 1;
    bulk_collatz_verify_result_init(r);
    if (st != BULK_OK) return st;
    st = BULK_ERR_PARSE;
    char buf[4096];
    bulk_u128 tmp;
    if (read_u128(fp, "next", next, &line)) goto bad;
    if (read_u128(fp, "covered", &r->covered, &line)) goto bad;
    if (read_u128(fp, "iterated", &r->iterated, &line)) goto bad;
    if (read_u128(fp, "checksum", &r->checksum, &line)) goto bad;
    if (read_u128(fp, "overflows", &tmp, &line) || tmp.hi) goto bad;
    r->overflows = tmp.lo;
    line++;
    {
        char t1[96], v2[96], kw[32];
        unsigned long long g;
        if (!fgets(buf, sizeof buf, fp) || sscanf(buf, "max_glide %llu %95s", &g, v2) != 2)
            goto bad;
        r->max_glide = g;
        if (bulk_cz_u128_parse(v2, &r->max_glide_n)) goto bad;
        for (;;) {
            line++;
            if (!fgets(buf, sizeof buf, fp)) goto bad;
            if (strcmp(buf, "end\n") == 0) break;
            int nf = sscanf(buf, "%31s %95s %95s", kw, t1, v2);
            if (nf == 2 && !strcmp(kw, "overflow")) {
                if (r->n_overflow_values >= BULK_COLLATZ_OVERFLOW_KEEP) goto bad;
                if (bulk_cz_u128_parse(t1, &r->overflow_values[r->n_overflow_values++])) goto bad;
            } else if (!old && nf == 2 && !strcmp(kw, "peak") && !strcmp(t1, "none")) {
                if (peaks) {
                    fclose(fp);
                    return no_peaks(ctx, fn, path);
                }
            } else if (!old && nf == 3 && !strcmp(kw, "peak")) {
                if (bulk_cz_wide_parse(t1, &r->peak) || bulk_cz_u128_parse(v2, &r->peak_n)) goto bad;
                if (!peaks) { /* a run without peaks resumes a run with them: it reports none */
                    memset(&r->peak, 0, sizeof r->peak);
                    memset(&r->peak_n, 0, sizeof r->peak_n);
                }
            } else if (!old && nf == 2 && !strcmp(kw, "hits_lost")) {
                if (bulk_cz_u128_parse(t1, &tmp) || tmp.hi || tmp.lo > UINT32_MAX) goto bad;
                r->peak_hits_lost = peaks ? (uint32_t)tmp.lo : 0;
            } else if (!old && nf == 3 && !strcmp(kw, "hit")) {
                if (r->n_peak_hits >= BULK_COLLATZ_PEAK_KEEP) goto bad;
                bulk_collatz_record *h = &r->peak_hits[r->n_peak_hits];
                if (bulk_cz_u128_parse(t1, &h->n) || bulk_cz_wide_parse(v2, &h->value)) goto bad;
                if (peaks) r->n_peak_hits++;
            } else {
                goto bad;
            }
        }
    }
    fclose(fp);
    return BULK_OK;
bad:
    fclose(fp);
    return bulk_fail(ctx, st, "%s: checkpoint %s: line %d is malformed", fn, path, line);
}
