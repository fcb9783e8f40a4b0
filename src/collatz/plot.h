/* Line plots to PNG (collatz/plot.c). */
#ifndef BULK_COLLATZ_PLOT_H
#define BULK_COLLATZ_PLOT_H
#include <stddef.h>
#include <stdint.h>

/* Series ys[0..nseries) (nseries <= 8) of npoints values over x (NULL: 0, 1, 2, ...), colours
 * blue, red, green, orange, ... in series order. 0, or -1 with errno set. */
int bulk_cz_plot(const char *path, int w, int h, const double *x, const double *const *ys,
                 int nseries, size_t npoints);

/* The same drawn into the panel [px0, px0 + w) x [py0, py0 + h) of an RGB image of W x H
 * (rows of W*3 bytes, already filled with the background). 0 or -1 (bad arguments). */
int bulk_cz_plot_into(uint8_t *img, int W, int H, int px0, int py0, int w, int h,
                      const double *x, const double *const *ys, int nseries, size_t npoints);

#endif
