/* The picture writers of a build without libpng and cairo (cmake/pictures.cmake): every one
 * fails with ENOTSUP, and pic_available() tells callers to refuse --png up front. */
#include <errno.h>

#include "pictures/plot.h"
#include "pictures/png.h"

int pic_available(void)
{
    return 0;
}

int pic_png_write(const char *path, const pic_image *im)
{
    (void)path;
    (void)im;
    errno = ENOTSUP;
    return -1;
}

int pic_png_write_rgb(const char *path, uint32_t width, uint32_t height, const uint8_t *rgb)
{
    (void)path;
    (void)width;
    (void)height;
    (void)rgb;
    errno = ENOTSUP;
    return -1;
}

int pic_plot_grid_png(const char *path, int width, int height, int cols, const pic_plot *panels, int n)
{
    (void)path;
    (void)width;
    (void)height;
    (void)cols;
    (void)panels;
    (void)n;
    errno = ENOTSUP;
    return -1;
}

int pic_plot_png(const char *path, int width, int height, const pic_plot *p)
{
    return pic_plot_grid_png(path, width, height, 1, p, 1);
}
