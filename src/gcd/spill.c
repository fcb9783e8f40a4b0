/* Tree levels in memory or in spill files (contract: gcd_internal.h). A spill file holds the
 * raw limbs of data[0 .. off[count]); offsets and lengths stay in memory (16 bytes per node). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcd/gcd_internal.h"

int gcd_level_init(gcd_level *L, size_t count)
{
    memset(L, 0, sizeof *L);
    L->count = count;
    L->off = calloc(count + 1, sizeof *L->off);
    L->len = calloc(count ? count : 1, sizeof *L->len);
    if (!L->off || !L->len) {
        gcd_level_free(L);
        return BULK_ERR_NOMEM;
    }
    return BULK_OK;
}

int gcd_level_alloc_data(gcd_level *L)
{
    L->data = calloc(L->off[L->count] ? L->off[L->count] : 1, sizeof *L->data);
    return L->data ? BULK_OK : BULK_ERR_NOMEM;
}

int gcd_level_spill(gcd_level *L, const char *dir)
{
    if (L->borrowed || !L->data) return BULK_OK;
    if (!dir) dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    size_t plen = strlen(dir) + 32;
    char *path = malloc(plen);
    if (!path) return BULK_ERR_NOMEM;
    snprintf(path, plen, "%s/bulk-gcd-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        free(path);
        return BULK_ERR_IO;
    }
    FILE *fp = fdopen(fd, "wb");
    size_t n = L->off[L->count];
    int ok = fp && fwrite(L->data, sizeof *L->data, n, fp) == n;
    if (fp) ok = (fclose(fp) == 0) && ok;
    else close(fd);
    if (!ok) {
        unlink(path);
        free(path);
        return BULK_ERR_IO;
    }
    free(L->path);
    L->path = path;
    free(L->data);
    L->data = NULL;
    return BULK_OK;
}

int gcd_level_load(gcd_level *L)
{
    if (L->data) return BULK_OK;
    if (!L->path) return BULK_ERR_INTERNAL;
    int st = gcd_level_alloc_data(L);
    if (st != BULK_OK) return st;
    FILE *fp = fopen(L->path, "rb");
    size_t n = L->off[L->count];
    int ok = fp && fread(L->data, sizeof *L->data, n, fp) == n;
    if (fp) fclose(fp);
    if (!ok) {
        free(L->data);
        L->data = NULL;
        return BULK_ERR_IO;
    }
    return BULK_OK;
}

void gcd_level_drop(gcd_level *L)
{
    if (!L->borrowed && L->path) { /* only spilled data can be dropped: it can come back */
        free(L->data);
        L->data = NULL;
    }
}

void gcd_level_free(gcd_level *L)
{
    if (!L->borrowed) free(L->data);
    if (L->path) unlink(L->path);
    free(L->path);
    free(L->off);
    free(L->len);
    memset(L, 0, sizeof *L);
}
