/* Line plots for `delays --png` and the benchmark figures: up to 8 series over a common x
 * axis, scaled to the data's range, on a white background with a frame and faint grid lines.
 * No text (the caller prints the legend/axis meaning next to the file). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/plot.h"
#include "common/png.h"

static void put(uint8_t *img, int w, int h, int x, int y, const uint8_t rgb[3])
{
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    memcpy(img + ((size_t)y * (size_t)w + (size_t)x) * 3, rgb, 3);
}

static void line(uint8_t *img, int w, int h, int x0, int y0, int x1, int y1, const uint8_t c[3])
{
    int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
        put(img, w, h, x0, y0, c);
        if (x0 == x1 && y0 == y1) break;
        int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

int bulk_cz_plot(const char *path, int w, int h, const double *x, const double *const *ys,
                 int nseries, size_t npoints)
{
    static const uint8_t colors[8][3] = { { 31, 119, 180 }, { 214, 39, 40 }, { 44, 160, 44 },
                                          { 255, 127, 14 }, { 148, 103, 189 }, { 140, 86, 75 },
                                          { 227, 119, 194 }, { 23, 190, 207 } };
    if (w < 32 || h < 32 || nseries < 1 || nseries > 8 || npoints == 0) return -1;
    uint8_t *img = malloc((size_t)w * (size_t)h * 3);
    if (!img) return -1;
    memset(img, 255, (size_t)w * (size_t)h * 3);
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (size_t i = 0; i < npoints; i++) {
        double xv = x ? x[i] : (double)i;
        if (xv < xmin) xmin = xv;
        if (xv > xmax) xmax = xv;
        for (int s = 0; s < nseries; s++) {
            if (ys[s][i] < ymin) ymin = ys[s][i];
            if (ys[s][i] > ymax) ymax = ys[s][i];
        }
    }
    if (ymin > 0) ymin = 0; /* non-negative data: the y axis starts at 0 */
    if (xmax <= xmin) xmax = xmin + 1;
    if (ymax <= ymin) ymax = ymin + 1;
    double pad = (ymax - ymin) * 0.05;
    ymin -= pad;
    ymax += pad;
    const int m = 16;
    const uint8_t grid[3] = { 225, 225, 225 }, frame[3] = { 0, 0, 0 };
    for (int g = 1; g < 10; g++) {
        int gy = m + (h - 2 * m) * g / 10, gx = m + (w - 2 * m) * g / 10;
        line(img, w, h, m, gy, w - m, gy, grid);
        line(img, w, h, gx, m, gx, h - m, grid);
    }
    line(img, w, h, m, m, w - m, m, frame);
    line(img, w, h, m, h - m, w - m, h - m, frame);
    line(img, w, h, m, m, m, h - m, frame);
    line(img, w, h, w - m, m, w - m, h - m, frame);
    for (int s = 0; s < nseries; s++) {
        int px = 0, py = 0;
        for (size_t i = 0; i < npoints; i++) {
            double xv = x ? x[i] : (double)i;
            int cx = m + (int)lround((xv - xmin) / (xmax - xmin) * (w - 2 * m));
            int cy = h - m - (int)lround((ys[s][i] - ymin) / (ymax - ymin) * (h - 2 * m));
            if (i) line(img, w, h, px, py, cx, cy, colors[s]);
            else put(img, w, h, cx, cy, colors[s]);
            if (npoints < 64) /* mark the points of short series */
                for (int dx = -2; dx <= 2; dx++)
                    for (int dy = -2; dy <= 2; dy++) put(img, w, h, cx + dx, cy + dy, colors[s]);
            px = cx;
            py = cy;
        }
    }
    int st = bulk_png_write_rgb(path, (uint32_t)w, (uint32_t)h, img);
    free(img);
    return st;
}
