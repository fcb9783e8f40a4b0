/* Checkpoint files of `bulk life run` (format: life_checkpoint.h). */
#include "life_checkpoint.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "splitmix.h"

static size_t pattern_words(const bulk_life_pattern *p)
{
    return (size_t)(bulk_life_words(p->width) * p->height);
}

uint64_t life_ckpt_pattern_hash(const bulk_life_pattern *p)
{
    uint64_t head[5] = { (uint64_t)p->x, (uint64_t)p->y, p->width, p->height, p->generation };
    return bulk_hash_words(bulk_hash_words(0x6c6966652d636b70ull, head, 5), p->cells, pattern_words(p));
}

int life_ckpt_write(const char *path, const life_ckpt *c)
{
    bulk_afile f;
    if (bulk_afile_open(&f, path, "wb") != 0) return -1;
    const bulk_life_pattern *b = &c->box;
    size_t nw = pattern_words(b);
    fprintf(f.fp,
            "bulk-life-checkpoint 1\ninput %016" PRIx64 "\nrule %s\ntopology %s\nevery %" PRIu64
            "\ngeneration %" PRIu64 "\nbox %" PRId64 " %" PRId64 " %" PRIu64 " %" PRIu64 "\nlines %zu\n",
            c->input, c->rule, c->topology, c->every, c->generation, b->x, b->y, b->width, b->height,
            c->lines_len);
    if (c->lines_len) fwrite(c->lines, 1, c->lines_len, f.fp);
    fprintf(f.fp, "cells %zu %016" PRIx64 "\n", nw, bulk_hash_words(0, b->cells, nw));
    for (size_t i = 0; i < nw; i++) {
        unsigned char le[8];
        for (int k = 0; k < 8; k++) le[k] = (unsigned char)(b->cells[i] >> (8 * k));
        fwrite(le, 1, 8, f.fp);
    }
    fputs("end\n", f.fp);
    if (ferror(f.fp)) {
        int e = errno ? errno : EIO;
        bulk_afile_abort(&f);
        errno = e;
        return -1;
    }
    return bulk_afile_commit(&f);
}

void life_ckpt_free(life_ckpt *c)
{
    bulk_life_pattern_free(&c->box);
    free(c->lines);
    c->lines = NULL;
    c->lines_len = 0;
}

/* The next header line into buf (without the newline), counted in *line; 0, or -1 at the end
 * of the file or for a line too long. */
static int get_line(FILE *fp, char *buf, size_t cap, int *line)
{
    (*line)++;
    if (!fgets(buf, (int)cap, fp)) return -1;
    size_t n = strlen(buf);
    if (n == 0 || buf[n - 1] != '\n') return -1;
    buf[n - 1] = 0;
    return 0;
}

int life_ckpt_read(const char *path, life_ckpt *c, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        if (errno == ENOENT) return 1;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -2;
    }
    memset(c, 0, sizeof *c);
    struct stat sb;
    uint64_t fsize = fstat(fileno(fp), &sb) == 0 ? (uint64_t)sb.st_size : 0; /* bounds the sizes */
    char buf[256];
    int line = 0, ok = 0;
    size_t nw = 0;
    uint64_t sum = 0;
    const char *what = "not a bulk life checkpoint (first line)";
    if (get_line(fp, buf, sizeof buf, &line) || strcmp(buf, "bulk-life-checkpoint 1") != 0) goto bad;
    what = "want 'input HASH'";
    if (get_line(fp, buf, sizeof buf, &line) || sscanf(buf, "input %" SCNx64, &c->input) != 1) goto bad;
    what = "want 'rule R'";
    if (get_line(fp, buf, sizeof buf, &line) || strncmp(buf, "rule ", 5) || strlen(buf + 5) >= sizeof c->rule)
        goto bad;
    strcpy(c->rule, buf + 5);
    what = "want 'topology plane|torus WxH'";
    if (get_line(fp, buf, sizeof buf, &line) || strncmp(buf, "topology ", 9) ||
        strlen(buf + 9) >= sizeof c->topology)
        goto bad;
    strcpy(c->topology, buf + 9);
    what = "want 'every K'";
    if (get_line(fp, buf, sizeof buf, &line) || sscanf(buf, "every %" SCNu64, &c->every) != 1) goto bad;
    what = "want 'generation G'";
    if (get_line(fp, buf, sizeof buf, &line) || sscanf(buf, "generation %" SCNu64, &c->generation) != 1)
        goto bad;
    bulk_life_pattern *b = &c->box;
    what = "want 'box X Y W H'";
    if (get_line(fp, buf, sizeof buf, &line) ||
        sscanf(buf, "box %" SCNd64 " %" SCNd64 " %" SCNu64 " %" SCNu64, &b->x, &b->y, &b->width, &b->height) != 4 ||
        b->width > fsize * 8 || b->height > fsize * 8 || (b->width == 0) != (b->height == 0) ||
        (b->height && bulk_life_words(b->width) > fsize / 8 / b->height))
        goto bad;
    what = "want 'lines BYTES' and that many bytes";
    if (get_line(fp, buf, sizeof buf, &line) || sscanf(buf, "lines %zu", &c->lines_len) != 1 ||
        c->lines_len > fsize)
        goto bad;
    c->lines = malloc(c->lines_len + 1);
    if (!c->lines || fread(c->lines, 1, c->lines_len, fp) != c->lines_len) goto bad;
    c->lines[c->lines_len] = 0;
    for (size_t i = 0; i < c->lines_len; i++)
        if (c->lines[i] == '\n') line++;
    what = "want 'cells WORDS CHECKSUM' matching the box";
    if (get_line(fp, buf, sizeof buf, &line) || sscanf(buf, "cells %zu %" SCNx64, &nw, &sum) != 2 ||
        nw != pattern_words(b) || nw > fsize / 8)
        goto bad;
    what = "the cells are short or their checksum is wrong";
    b->cells = calloc(nw ? nw : 1, sizeof *b->cells);
    if (!b->cells) goto bad;
    for (size_t i = 0; i < nw; i++) {
        unsigned char le[8];
        if (fread(le, 1, 8, fp) != 8) goto bad;
        for (int k = 0; k < 8; k++) b->cells[i] |= (uint64_t)le[k] << (8 * k);
    }
    if (bulk_hash_words(0, b->cells, nw) != sum) goto bad;
    what = "want 'end'";
    if (get_line(fp, buf, sizeof buf, &line) || strcmp(buf, "end") != 0 || fgetc(fp) != EOF) goto bad;
    ok = 1;
bad:
    if (!ok) {
        snprintf(err, errlen, "%s:%d: %s", path, line, what);
        life_ckpt_free(c);
    }
    fclose(fp);
    return ok ? 0 : -1;
}
