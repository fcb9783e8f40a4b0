/* PNG files for the CLI and the benchmarks, written through libpng (zlib level 9) and the
 * atomic output rules of util/atomic_file.h. Not part of libbulk: the library never draws.
 * Built without libpng and cairo (cmake/pictures.cmake), every writer fails with ENOTSUP and
 * pic_available() is 0, so that a caller can refuse --png before doing any work. */
#ifndef BULK_PICTURES_PNG_H
#define BULK_PICTURES_PNG_H
#include <stdint.h>

/* What a build without the picture libraries says (after "--png: "). */
#define PIC_MISSING                                                                              \
    "this bulk was built without PNG support; install libpng-dev and libcairo2-dev (Debian, "    \
    "Ubuntu) and configure again"

/* 1 when PNGs can be written, 0 when the build lacks libpng/cairo. */
int pic_available(void);

enum pic_kind {
    PIC_RGB8 = 0, /* 3 bytes per pixel, R G B */
    PIC_INDEXED   /* `bits` (1, 2, 4 or 8) bits per pixel, packed MSB first, into `palette` */
};

/* An image produced row by row, top first, so that a large picture needs one row of memory.
 * row(ctx, y, buf) fills row y (width pixels in the kind's packed layout: 3 * width bytes, or
 * (width * bits + 7) / 8 bytes) and returns 0, or nonzero with errno set to give up. */
typedef struct pic_image {
    uint32_t width, height;
    enum pic_kind kind;
    int bits;
    const uint8_t *palette; /* PIC_INDEXED: ncolors R G B triples, 1 <= ncolors <= 2^bits */
    int ncolors;
    int (*row)(void *ctx, uint32_t y, uint8_t *buf);
    void *ctx;
} pic_image;

/* Writes the image to path (atomically for a regular file). 0, or -1 with errno set (EINVAL
 * for a bad description; the file is then untouched). */
int pic_png_write(const char *path, const pic_image *im);

/* rgb: height rows of width * 3 bytes. Written as a palette image when it has at most 256
 * colours (1, 2, 4 or 8 bits per pixel, as few as hold them), else as 8-bit RGB. 0 or -1. */
int pic_png_write_rgb(const char *path, uint32_t width, uint32_t height, const uint8_t *rgb);

#endif
