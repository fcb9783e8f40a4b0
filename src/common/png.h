/* A dependency-free PNG writer (8-bit RGB, stored deflate blocks: larger files than zlib
 * would make, but exact and readable by every viewer). Written atomically. */
#ifndef BULK_COMMON_PNG_H
#define BULK_COMMON_PNG_H
#include <stdint.h>

/* rgb: height rows of width*3 bytes, top row first. Returns 0, or -1 with errno set. */
int bulk_png_write_rgb(const char *path, uint32_t width, uint32_t height, const uint8_t *rgb);

#endif
