/* The growing list of moduli of bulk_gcd_input (bulk/gcd.h): what the text reader (input.c)
 * and the key reader (keys.c) both append to. */
#include <stdlib.h>
#include <string.h>

#include "gcd/input_list.h"

/* Appends one modulus (mn significant limbs) starting at `line`. */
int gcd_input_push(bulk_gcd_input *in, const bulk_limb_t *m, size_t mn, uint64_t line)
{
    if (mn > in->limbs || in->n == in->cap) {
        size_t limbs = mn > in->limbs ? mn : in->limbs;
        size_t cap = in->n == in->cap ? (in->cap ? 2 * in->cap : 1024) : in->cap;
        bulk_limb_t *x = calloc(cap * limbs, sizeof *x);
        uint64_t *ln = realloc(in->line, cap * sizeof *ln);
        if (!x || !ln) {
            free(x);
            if (ln) in->line = ln;
            return BULK_ERR_NOMEM;
        }
        for (size_t i = 0; i < in->n; i++)
            memcpy(x + i * limbs, in->x + i * in->limbs, in->limbs * sizeof *x);
        free(in->x);
        in->x = x;
        in->line = ln;
        in->limbs = limbs;
        in->cap = cap;
    }
    memcpy(in->x + in->n * in->limbs, m, mn * sizeof *m);
    in->line[in->n++] = line;
    return BULK_OK;
}

void bulk_gcd_input_free(bulk_gcd_input *in)
{
    free(in->x);
    free(in->line);
    memset(in, 0, sizeof *in);
}

