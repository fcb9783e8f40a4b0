/* PNG writing through libpng; see png.h. Errors inside libpng come back by longjmp to
 * pic_png_write, which removes the temporary file and reports errno. */
#include "pictures/png.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"

int pic_available(void)
{
    return 1;
}

struct sink {
    FILE *fp;
    int err; /* errno of a failed write */
};

static void on_error(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static void on_write(png_structp png, png_bytep data, size_t n)
{
    struct sink *s = png_get_io_ptr(png);
    if (fwrite(data, 1, n, s->fp) != n) {
        s->err = errno ? errno : EIO;
        png_error(png, "write failed");
    }
}

static void on_flush(png_structp png)
{
    (void)png; /* bulk_afile_commit flushes and syncs once at the end */
}

static size_t row_bytes(const pic_image *im)
{
    return im->kind == PIC_RGB8 ? (size_t)im->width * 3 : ((size_t)im->width * (size_t)im->bits + 7) / 8;
}

static int valid(const pic_image *im)
{
    if (!im || im->width == 0 || im->height == 0 || !im->row) return 0;
    if (im->width > PNG_USER_WIDTH_MAX || im->height > PNG_USER_HEIGHT_MAX) return 0;
    if (im->kind == PIC_RGB8) return 1;
    if (im->kind != PIC_INDEXED) return 0;
    if (im->bits != 1 && im->bits != 2 && im->bits != 4 && im->bits != 8) return 0;
    return im->palette && im->ncolors >= 1 && im->ncolors <= (1 << im->bits);
}

/* Everything between the setjmp and the end of the image; returns 0 or an errno value. The
 * caller owns png/info/buf, so a longjmp out of libpng leaks nothing. */
static int encode(png_structp png, png_infop info, const pic_image *im, uint8_t *buf,
                  struct sink *sink)
{
    volatile int err = 0;
    if (setjmp(png_jmpbuf(png))) return sink->err ? sink->err : (err ? err : EIO);
    png_set_write_fn(png, sink, on_write, on_flush);
    png_set_compression_level(png, 9);
    if (im->kind == PIC_RGB8) {
        png_set_IHDR(png, info, im->width, im->height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    } else {
        png_color pal[256];
        for (int i = 0; i < im->ncolors; i++) {
            pal[i].red = im->palette[3 * i];
            pal[i].green = im->palette[3 * i + 1];
            pal[i].blue = im->palette[3 * i + 2];
        }
        png_set_IHDR(png, info, im->width, im->height, im->bits, PNG_COLOR_TYPE_PALETTE,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_set_PLTE(png, info, pal, im->ncolors);
        /* palette rows compress best unfiltered (the PNG specification's advice) */
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < im->height; y++) {
        errno = 0;
        if (im->row(im->ctx, y, buf) != 0) {
            err = errno ? errno : EIO;
            return err;
        }
        png_write_row(png, buf);
    }
    png_write_end(png, NULL);
    return 0;
}

int pic_png_write(const char *path, const pic_image *im)
{
    if (!valid(im)) {
        errno = EINVAL;
        return -1;
    }
    uint8_t *buf = malloc(row_bytes(im));
    if (!buf) return -1;
    bulk_afile f;
    if (bulk_afile_open(&f, path, "wb") != 0) {
        int e = errno;
        free(buf);
        errno = e;
        return -1;
    }
    struct sink sink = { f.fp, 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int err = png && info ? encode(png, info, im, buf, &sink) : ENOMEM;
    png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
    free(buf);
    if (err) {
        bulk_afile_abort(&f);
        errno = err;
        return -1;
    }
    return bulk_afile_commit(&f);
}

/* ---- RGB buffers, as a palette when they have few colours ----------------------------------- */

#define SLOTS 1024 /* open addressing over at most 257 colours */

struct rgb_src {
    const uint8_t *rgb;
    uint32_t width;
    int bits;
    uint32_t key[SLOTS]; /* colour + 1, 0 = empty */
    uint8_t index[SLOTS];
};

static uint32_t slot_of(const struct rgb_src *s, uint32_t c)
{
    uint32_t h = (c * 2654435761u) >> 22; /* 10 bits */
    while (s->key[h] && s->key[h] != c + 1) h = (h + 1) & (SLOTS - 1);
    return h;
}

static int rgb_row(void *ctx, uint32_t y, uint8_t *buf)
{
    const struct rgb_src *s = ctx;
    memcpy(buf, s->rgb + (size_t)y * s->width * 3, (size_t)s->width * 3);
    return 0;
}

static int indexed_row(void *ctx, uint32_t y, uint8_t *buf)
{
    const struct rgb_src *s = ctx;
    const uint8_t *p = s->rgb + (size_t)y * s->width * 3;
    memset(buf, 0, ((size_t)s->width * (size_t)s->bits + 7) / 8);
    for (uint32_t x = 0; x < s->width; x++, p += 3) {
        uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        uint32_t v = s->index[slot_of(s, c)];
        size_t bit = (size_t)x * (size_t)s->bits;
        buf[bit / 8] |= (uint8_t)(v << (8 - s->bits - bit % 8));
    }
    return 0;
}

int pic_png_write_rgb(const char *path, uint32_t width, uint32_t height, const uint8_t *rgb)
{
    struct rgb_src *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->rgb = rgb;
    s->width = width;
    uint8_t palette[3 * 256];
    int n = 0;
    size_t npix = (size_t)width * height;
    for (size_t i = 0; i < npix && n <= 256; i++) {
        const uint8_t *p = rgb + 3 * i;
        uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        uint32_t h = slot_of(s, c);
        if (s->key[h]) continue;
        if (n < 256) memcpy(palette + 3 * n, p, 3);
        s->key[h] = c + 1;
        s->index[h] = (uint8_t)n;
        n++;
    }
    pic_image im = { width, height, PIC_RGB8, 8, NULL, 0, rgb_row, s };
    if (n <= 256) {
        im.kind = PIC_INDEXED;
        im.bits = n <= 2 ? 1 : n <= 4 ? 2 : n <= 16 ? 4 : 8;
        im.palette = palette;
        im.ncolors = n;
        im.row = indexed_row;
        s->bits = im.bits;
    }
    int st = pic_png_write(path, &im);
    int e = errno;
    free(s);
    errno = e;
    return st;
}
