/* Line plots to PNG (collatz/plot.c). */
#ifndef BULK_COLLATZ_PLOT_H
#define BULK_COLLATZ_PLOT_H
#include <stddef.h>

/* Series ys[0..nseries) (nseries <= 8) of npoints values over x (NULL: 0, 1, 2, ...), colours
 * blue, red, green, orange, ... in series order. 0, or -1 with errno set. */
int bulk_cz_plot(const char *path, int w, int h, const double *x, const double *const *ys,
                 int nseries, size_t npoints);

#endif
