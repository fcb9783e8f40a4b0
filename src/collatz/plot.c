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

int bulk_cz_plot_into(uint8_t *img, int W, int H, int px0, int py0, int w, int h,
                      const double *x, const double *const *ys, int nseries, size_t npoints)
{
    static const uint8_t colors[8][3] = { { 31, 119, 180 }, { 214, 39, 40 }, { 44, 160, 44 },
                                          { 255, 127, 14 }, { 148, 103, 189 }, { 140, 86, 75 },
                                          { 227, 119, 194 }, { 23, 190, 207 } };
    if (w < 32 || h < 32 || nseries < 1 || nseries > 8 || npoints == 0) return -1;
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
    ymax += pad;
    const int m = 12;
    const uint8_t grid[3] = { 225, 225, 225 }, frame[3] = { 0, 0, 0 };
    int X0 = px0 + m, X1 = px0 + w - m, Y0 = py0 + m, Y1 = py0 + h - m;
    for (int g = 1; g < 10; g++) {
        int gy = Y0 + (Y1 - Y0) * g / 10, gx = X0 + (X1 - X0) * g / 10;
        line(img, W, H, X0, gy, X1, gy, grid);
        line(img, W, H, gx, Y0, gx, Y1, grid);
    }
    line(img, W, H, X0, Y0, X1, Y0, frame);
    line(img, W, H, X0, Y1, X1, Y1, frame);
    line(img, W, H, X0, Y0, X0, Y1, frame);
    line(img, W, H, X1, Y0, X1, Y1, frame);
    for (int s = 0; s < nseries; s++) {
        int qx = 0, qy = 0;
        for (size_t i = 0; i < npoints; i++) {
            double xv = x ? x[i] : (double)i;
            int cx = X0 + (int)lround((xv - xmin) / (xmax - xmin) * (X1 - X0));
            int cy = Y1 - (int)lround((ys[s][i] - ymin) / (ymax - ymin) * (Y1 - Y0));
            if (i) line(img, W, H, qx, qy, cx, cy, colors[s]);
            else put(img, W, H, cx, cy, colors[s]);
            if (npoints < 64) /* mark the points of short series */
                for (int dx = -2; dx <= 2; dx++)
                    for (int dy = -2; dy <= 2; dy++) put(img, W, H, cx + dx, cy + dy, colors[s]);
            qx = cx;
            qy = cy;
        }
    }
    return 0;
}

int bulk_cz_plot(const char *path, int w, int h, const double *x, const double *const *ys,
                 int nseries, size_t npoints)
{
    if (w < 32 || h < 32) return -1;
    uint8_t *img = malloc((size_t)w * (size_t)h * 3);
    if (!img) return -1;
    memset(img, 255, (size_t)w * (size_t)h * 3);
    int st = bulk_cz_plot_into(img, w, h, 0, 0, w, h, x, ys, nseries, npoints);
    if (st == 0) st = bulk_png_write_rgb(path, (uint32_t)w, (uint32_t)h, img);
    free(img);
    return st;
}
