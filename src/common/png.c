#include "common/png.h"
#include "common/atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint32_t crc_table[256];
static int crc_ready;

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
    crc_ready = 1;
}

static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return crc;
}

struct buf {
    uint8_t *p;
    size_t len, cap;
    int failed;
};

static void put(struct buf *b, const void *data, size_t n)
{
    if (b->failed) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n) cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_be32(struct buf *b, uint32_t v)
{
    uint8_t x[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
    put(b, x, 4);
}

/* Appends a chunk: length, type, data, CRC over type and data. */
static void put_chunk(struct buf *b, const char type[4], const uint8_t *data, size_t n)
{
    put_be32(b, (uint32_t)n);
    size_t start = b->len;
    put(b, type, 4);
    if (n) put(b, data, n);
    if (b->failed) return;
    put_be32(b, crc_update(0xffffffffu, b->p + start, n + 4) ^ 0xffffffffu);
}

int bulk_png_write_rgb(const char *path, uint32_t width, uint32_t height, const uint8_t *rgb)
{
    if (!crc_ready) crc_init();
    if (width == 0 || height == 0) {
        errno = EINVAL;
        return -1;
    }
    size_t row = (size_t)width * 3 + 1; /* filter byte 0 (None) before each row */
    size_t raw_len = row * height;
    struct buf z = { 0 }, out = { 0 };
    /* zlib stream: header, stored blocks of at most 65535 bytes, Adler-32 */
    uint8_t hdr[2] = { 0x78, 0x01 };
    put(&z, hdr, 2);
    uint32_t s1 = 1, s2 = 0;
    size_t done = 0;
    uint8_t *block = malloc(65535);
    if (!block) z.failed = 1;
    while (!z.failed && done < raw_len) {
        size_t n = raw_len - done < 65535 ? raw_len - done : 65535;
        for (size_t i = 0; i < n; i++) {
            size_t pos = done + i, y = pos / row, x = pos % row;
            uint8_t v = x == 0 ? 0 : rgb[y * (size_t)width * 3 + x - 1];
            block[i] = v;
            s1 = (s1 + v) % 65521;
            s2 = (s2 + s1) % 65521;
        }
        uint8_t bh[5] = { (uint8_t)(done + n == raw_len), (uint8_t)n, (uint8_t)(n >> 8),
                          (uint8_t)~n, (uint8_t)(~n >> 8) };
        put(&z, bh, 5);
        put(&z, block, n);
        done += n;
    }
    free(block);
    put_be32(&z, (s2 << 16) | s1);

    static const uint8_t sig[8] = { 137, 80, 78, 71, 13, 10, 26, 10 };
    put(&out, sig, 8);
    uint8_t ihdr[13] = { (uint8_t)(width >> 24), (uint8_t)(width >> 16), (uint8_t)(width >> 8),
                         (uint8_t)width, (uint8_t)(height >> 24), (uint8_t)(height >> 16),
                         (uint8_t)(height >> 8), (uint8_t)height, 8, 2, 0, 0, 0 };
    put_chunk(&out, "IHDR", ihdr, 13);
    if (!z.failed) put_chunk(&out, "IDAT", z.p, z.len);
    put_chunk(&out, "IEND", NULL, 0);
    int rc = -1;
    if (z.failed || out.failed) errno = ENOMEM;
    else rc = bulk_write_file_atomic(path, out.p, out.len);
    free(z.p);
    free(out.p);
    return rc;
}
