/* Checkpoint files of delays/records runs: format and contract in runstate.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/checkpoint.h"
#include "collatz/peak.h"
#include "collatz/runstate.h"
#include "atomic_file.h"

int bulk_cz_runstate_write(const char *path, const char *identity, const bulk_cz_runstate *s)
{
    bulk_afile f;
    if (bulk_afile_open(&f, path, "w") != 0) return BULK_ERR_IO;
    char a[48], b[BULK_CZ_WIDE_STR];
    bulk_cz_u128_str(s->next, a);
    fprintf(f.fp, "bulk-collatz-run 1\nidentity %s\nnext %s\nout_bytes %llu\n", identity, a,
            (unsigned long long)s->out_bytes);
    if (s->have_best) {
        bulk_cz_wide_str(&s->best, b);
        fprintf(f.fp, "best %s\n", b);
    } else {
        fprintf(f.fp, "best none\n");
    }
    for (size_t i = 0; i < s->nrecs; i++) {
        bulk_cz_u128_str(s->recs[i].n, a);
        bulk_cz_wide_str(&s->recs[i].value, b);
        fprintf(f.fp, "record %s %s\n", a, b);
    }
    fprintf(f.fp, "end\n");
    if (ferror(f.fp)) {
        bulk_afile_abort(&f);
        return BULK_ERR_IO;
    }
    return bulk_afile_commit(&f) == 0 ? BULK_OK : BULK_ERR_IO;
}

int bulk_cz_runstate_read(const bulk_ctx *ctx, const char *fn, const char *path, const char *identity,
                          bulk_cz_runstate *s)
{
    FILE *fp = NULL;
    int line, st = bulk_cz_state_open(ctx, fn, path, "bulk-collatz-run 1\n", identity, &fp, &line);
    if (st != BULK_OK) return st; /* 1 (no file), or the header's error */
    st = BULK_ERR_PARSE;
    char buf[4096], k[32], v1[96], v2[96];
    size_t cap = 0;
    bulk_cz_runstate r;
    memset(&r, 0, sizeof r);
    line++;
    if (!fgets(buf, sizeof buf, fp) || sscanf(buf, "next %63s", v1) != 1 ||
        bulk_cz_u128_parse(v1, &r.next))
        goto bad;
    line++;
    {
        unsigned long long ob;
        if (!fgets(buf, sizeof buf, fp) || sscanf(buf, "out_bytes %llu", &ob) != 1) goto bad;
        r.out_bytes = ob;
    }
    line++;
    if (!fgets(buf, sizeof buf, fp) || sscanf(buf, "best %95s", v1) != 1) goto bad;
    if (strcmp(v1, "none") != 0) {
        if (bulk_cz_wide_parse(v1, &r.best)) goto bad;
        r.have_best = 1;
    }
    for (;;) {
        line++;
        if (!fgets(buf, sizeof buf, fp)) goto bad;
        if (strcmp(buf, "end\n") == 0) break;
        if (sscanf(buf, "%31s %95s %95s", k, v1, v2) != 3 || strcmp(k, "record") != 0) goto bad;
        if (r.nrecs == cap) {
            size_t nc = cap ? 2 * cap : 64;
            bulk_collatz_record *p = realloc(r.recs, nc * sizeof *p);
            if (!p) {
                st = BULK_ERR_NOMEM;
                goto bad;
            }
            r.recs = p;
            cap = nc;
        }
        if (bulk_cz_u128_parse(v1, &r.recs[r.nrecs].n) ||
            bulk_cz_wide_parse(v2, &r.recs[r.nrecs].value))
            goto bad;
        r.nrecs++;
    }
    fclose(fp);
    *s = r;
    return BULK_OK;
bad:
    fclose(fp);
    free(r.recs);
    if (st == BULK_ERR_PARSE) return bulk_fail(ctx, st, "%s: checkpoint %s: line %d is malformed", fn, path, line);
    return bulk_fail(ctx, st, "%s: checkpoint %s: out of memory", fn, path);
}
