/* The delays plot: three series against n, one point per batch at the batch's first n. */
#include "collatz_plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pictures/plot.h"

/* "A" as a label term: in parentheses when it is an expression */
static void term(char *buf, size_t size, const char *a)
{
    snprintf(buf, size, strpbrk(a, "+-*") ? "(%s)" : "%s", a);
}

int czcli_plot_delays(const char *path, const char *from, const char *to, bulk_u128 first,
                      uint64_t batch, uint64_t nb, const double *avg, const double *mn,
                      const double *mx)
{
    double *x = malloc((nb ? nb : 1) * sizeof *x);
    if (!x) return -1;
    /* x is n itself while doubles hold it and its digits say something; for a range far from
     * 0 (near 2^64, say) or narrow beside its start, x is n - A and the label says so */
    double A = (double)first.hi * 18446744073709551616.0 + (double)first.lo;
    double span = (double)nb * (double)batch;
    int offset = A >= 9007199254740992.0 || span * 100 < A;
    for (uint64_t b = 0; b < nb; b++) x[b] = (offset ? 0 : A) + (double)b * (double)batch;
    char title[512], xlabel[256], fr[160];
    snprintf(title, sizeof title, "Collatz delays of n in [%s, %s), batches of %llu", from, to,
             (unsigned long long)batch);
    term(fr, sizeof fr, from);
    if (offset) snprintf(xlabel, sizeof xlabel, "n \xe2\x88\x92 %s", fr);
    else snprintf(xlabel, sizeof xlabel, "n");
    pic_plot p;
    memset(&p, 0, sizeof p);
    p.title = title;
    p.xlabel = xlabel;
    p.ylabel = "delay (steps to reach 1)";
    p.y_from_zero = 1;
    p.nseries = 3;
    p.series[0] = (pic_series){ "average", x, avg, nb };
    p.series[1] = (pic_series){ "minimum", x, mn, nb };
    p.series[2] = (pic_series){ "maximum", x, mx, nb };
    int st = pic_plot_png(path, 1024, 600, &p);
    int e = errno;
    free(x);
    errno = e;
    return st;
}
