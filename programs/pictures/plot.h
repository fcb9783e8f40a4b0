/* Line plots as PNG files, drawn with cairo: axes with tick values, axis labels, a legend and
 * a title, antialiased lines; the file goes through pic_png_write_rgb (pictures/png.h). */
#ifndef BULK_PICTURES_PLOT_H
#define BULK_PICTURES_PLOT_H
#include <stddef.h>

#define PIC_PLOT_MAX_SERIES 8

typedef struct pic_series {
    const char *name; /* the legend's text (NULL: the series has no legend entry) */
    const double *x;  /* n values (NULL: 0, 1, 2, ...) */
    const double *y;  /* n values; with ylog, values <= 0 are left out */
    size_t n;
} pic_series;

/* One panel. Series colours in order: blue, red, green, orange, purple, brown, pink, cyan.
 * A series of fewer than 64 points has its points marked. The x axis spans the data; the y
 * axis spans the data extended to whole ticks (and to 0 when y_from_zero and no value is
 * negative). Tick values of 10^6 and more (or below 10^-3) share one "x10^k" factor shown at
 * the axis's end; ylog puts the y axis on decades. */
typedef struct pic_plot {
    const char *title, *xlabel, *ylabel; /* each may be NULL */
    int nseries;                         /* 1..PIC_PLOT_MAX_SERIES */
    pic_series series[PIC_PLOT_MAX_SERIES];
    int y_from_zero, ylog;
} pic_plot;

/* The plot as a width x height PNG at path. 0, or -1 with errno set (EINVAL: bad arguments,
 * ENOTSUP: built without cairo). */
int pic_plot_png(const char *path, int width, int height, const pic_plot *p);

/* n panels in a grid of cols columns (row by row) in one width x height PNG. 0 or -1. */
int pic_plot_grid_png(const char *path, int width, int height, int cols, const pic_plot *panels,
                      int n);

#endif
