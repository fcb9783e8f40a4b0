/* The pictures (programs/pictures/): PNGs written by pic_png_write and pic_png_write_rgb decode,
 * with libpng's own reader, to exactly the pixels given; plots have their size and ink where
 * the axes, tick values and series go; the CLI's pictures (bulk given as argv[1]): a Life
 * picture equals the universe pixel for pixel (1-bit, scaled, shrunk), a 2000 x 2000 random
 * soup compresses under 1 MB, the delays plot of 1..2^16 is under 100 KB and labelled. */
#include <errno.h>
#include <png.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bulk/life.h"
#include "pictures/plot.h"
#include "pictures/png.h"
#include "test_util.h"

struct img {
    uint32_t w, h;
    int bit_depth, color_type; /* from IHDR */
    uint8_t *rgb;              /* decoded to 8-bit RGB */
    long bytes;                /* the file's size */
};

/* 0, or -1 (reported) when path is not a PNG libpng decodes */
static int decode(const char *path, struct img *im)
{
    memset(im, 0, sizeof *im);
    FILE *f = fopen(path, "rb");
    uint8_t hdr[26];
    if (!f || fread(hdr, 1, sizeof hdr, f) != sizeof hdr) {
        CHECK(0, "%s: cannot read", path);
        if (f) fclose(f);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    im->bytes = ftell(f);
    fclose(f);
    im->bit_depth = hdr[24];
    im->color_type = hdr[25];
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&pi, path)) {
        CHECK(0, "%s: %s", path, pi.message);
        return -1;
    }
    pi.format = PNG_FORMAT_RGB;
    im->w = pi.width;
    im->h = pi.height;
    im->rgb = test_xmalloc(PNG_IMAGE_SIZE(pi));
    if (!png_image_finish_read(&pi, NULL, im->rgb, 0, NULL)) {
        CHECK(0, "%s: %s", path, pi.message);
        free(im->rgb);
        im->rgb = NULL;
        return -1;
    }
    return 0;
}

static const uint8_t *px(const struct img *im, uint32_t x, uint32_t y)
{
    return im->rgb + ((size_t)y * im->w + x) * 3;
}

/* ---- the writer ------------------------------------------------------------------------------ */

struct indexed {
    uint32_t w;
    int bits;
    const uint8_t *idx; /* one index per pixel */
    uint32_t fail_at;   /* the row callback fails there (UINT32_MAX: never) */
};

static int indexed_row(void *ctx, uint32_t y, uint8_t *buf)
{
    const struct indexed *s = ctx;
    if (y == s->fail_at) {
        errno = EDOM;
        return -1;
    }
    memset(buf, 0, ((size_t)s->w * (size_t)s->bits + 7) / 8);
    for (uint32_t x = 0; x < s->w; x++) {
        size_t bit = (size_t)x * (size_t)s->bits;
        buf[bit / 8] |= (uint8_t)(s->idx[(size_t)y * s->w + x] << (8 - s->bits - bit % 8));
    }
    return 0;
}

static void test_indexed(const char *dir, uint64_t *rng)
{
    static const int bits[4] = { 1, 2, 4, 8 };
    char path[512];
    snprintf(path, sizeof path, "%s/indexed.png", dir);
    for (int round = 0; round < 16; round++) {
        int b = bits[round % 4];
        uint32_t w = 1 + (uint32_t)(test_rand(rng) % 70), h = 1 + (uint32_t)(test_rand(rng) % 40);
        int n = 1 + (int)(test_rand(rng) % (uint64_t)(1 << b));
        uint8_t pal[3 * 256], *idx = test_xmalloc((size_t)w * h);
        for (int i = 0; i < 3 * n; i++) pal[i] = (uint8_t)test_rand(rng);
        for (size_t i = 0; i < (size_t)w * h; i++) idx[i] = (uint8_t)(test_rand(rng) % (uint64_t)n);
        struct indexed s = { w, b, idx, UINT32_MAX };
        pic_image im = { w, h, PIC_INDEXED, b, pal, n, indexed_row, &s };
        CHECK(pic_png_write(path, &im) == 0, "indexed %d bits %ux%u: write: %s", b, w, h, strerror(errno));
        struct img d;
        if (decode(path, &d) == 0) {
            CHECK(d.w == w && d.h == h && d.bit_depth == b && d.color_type == PNG_COLOR_TYPE_PALETTE,
                  "indexed %d bits: %ux%u depth %d type %d", b, d.w, d.h, d.bit_depth, d.color_type);
            int bad = 0;
            for (uint32_t y = 0; y < h && d.w == w && d.h == h; y++)
                for (uint32_t x = 0; x < w; x++)
                    bad += memcmp(px(&d, x, y), pal + 3 * idx[(size_t)y * w + x], 3) != 0;
            CHECK(bad == 0, "indexed %d bits %ux%u: %d pixels differ", b, w, h, bad);
            free(d.rgb);
        }
        free(idx);
    }
}

static void test_rgb(const char *dir, uint64_t *rng)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rgb.png", dir);
    /* many colours: RGB; three colours: a 2-bit palette; one colour: 1 bit */
    const int ncol[3] = { 1 << 20, 3, 1 };
    for (int t = 0; t < 3; t++) {
        uint32_t w = 37, h = 23;
        uint8_t *rgb = test_xmalloc((size_t)w * h * 3), pal[9];
        for (int i = 0; i < 9; i++) pal[i] = (uint8_t)test_rand(rng);
        for (size_t i = 0; i < (size_t)w * h; i++) {
            if (ncol[t] > 256) {
                for (int c = 0; c < 3; c++) rgb[3 * i + c] = (uint8_t)test_rand(rng);
            } else {
                memcpy(rgb + 3 * i, pal + 3 * (test_rand(rng) % (uint64_t)ncol[t]), 3);
            }
        }
        CHECK(pic_png_write_rgb(path, w, h, rgb) == 0, "rgb write: %s", strerror(errno));
        struct img d;
        if (decode(path, &d) == 0) {
            int want_type = ncol[t] > 256 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_PALETTE;
            int want_depth = ncol[t] > 256 ? 8 : ncol[t] > 2 ? 2 : 1;
            CHECK(d.color_type == want_type && d.bit_depth == want_depth,
                  "rgb with %d colours: type %d depth %d", ncol[t], d.color_type, d.bit_depth);
            CHECK(d.w == w && d.h == h && memcmp(d.rgb, rgb, (size_t)w * h * 3) == 0,
                  "rgb with %d colours: the pixels differ", ncol[t]);
            free(d.rgb);
        }
        free(rgb);
    }
}

/* a failed row or path leaves the target as it was and no temporary file */
static void test_failures_keep_files(const char *dir)
{
    char path[512], cmd[700];
    snprintf(path, sizeof path, "%s/keep.png", dir);
    FILE *f = fopen(path, "wb");
    fputs("old", f);
    fclose(f);
    uint8_t pal[6] = { 255, 255, 255, 0, 0, 0 }, idx[64] = { 0 };
    struct indexed s = { 8, 1, idx, 5 };
    pic_image im = { 8, 8, PIC_INDEXED, 1, pal, 2, indexed_row, &s };
    errno = 0;
    CHECK(pic_png_write(path, &im) == -1 && errno == EDOM, "a failing row: errno %d", errno);
    f = fopen(path, "rb");
    char buf[8] = { 0 };
    CHECK(f && fread(buf, 1, sizeof buf, f) == 3 && !strcmp(buf, "old"), "a failed write replaced the file");
    if (f) fclose(f);
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -q 'keep.png.'", dir);
    CHECK(system(cmd) != 0, "a failed write left a temporary file in %s", dir);
    im.bits = 3;
    CHECK(pic_png_write(path, &im) == -1 && errno == EINVAL, "3 bits per pixel accepted");
    im.bits = 1;
    im.ncolors = 3;
    CHECK(pic_png_write(path, &im) == -1 && errno == EINVAL, "3 colours in 1 bit accepted");
    s.fail_at = UINT32_MAX;
    im.ncolors = 2;
    CHECK(pic_png_write("/nonexistent-dir/x.png", &im) == -1 && errno == ENOENT, "unwritable path: errno %d", errno);
}

/* ---- plots ----------------------------------------------------------------------------------- */

static int is_white(const uint8_t *p)
{
    return p[0] == 255 && p[1] == 255 && p[2] == 255;
}

/* non-white pixels in [x0, x1) x [y0, y1) */
static long ink(const struct img *d, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1)
{
    long n = 0;
    for (uint32_t y = y0; y < y1 && y < d->h; y++)
        for (uint32_t x = x0; x < x1 && x < d->w; x++) n += !is_white(px(d, x, y));
    return n;
}

/* pixels of exactly colour c */
static long count_colour(const struct img *d, uint8_t r, uint8_t g, uint8_t b)
{
    long n = 0;
    for (size_t i = 0; i < (size_t)d->w * d->h; i++)
        n += d->rgb[3 * i] == r && d->rgb[3 * i + 1] == g && d->rgb[3 * i + 2] == b;
    return n;
}

/* The axes' text and ticks are in the margins (left: y values, label; bottom: x values,
 * label; top: title, legend); the plot area's frame is a black rectangle. */
static void check_plot_layout(const struct img *d, const char *what)
{
    CHECK(ink(d, 0, d->h / 5, d->w / 14, d->h * 4 / 5) > 200, "%s: no y tick values or label", what);
    CHECK(ink(d, d->w / 5, d->h - d->h / 10, d->w * 4 / 5, d->h) > 200, "%s: no x tick values or label", what);
    CHECK(ink(d, d->w / 4, 0, d->w * 3 / 4, d->h / 12) > 200, "%s: no title or legend", what);
    CHECK(count_colour(d, 0, 0, 0) > (long)(d->w + d->h), "%s: no black frame and text", what);
}

static void test_plot(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/plot.png", dir);
    enum { N = 500 };
    static double x[N], y1[N], y2[N];
    for (int i = 0; i < N; i++) {
        x[i] = 1e9 * i; /* values that need a common factor */
        y1[i] = (double)i * i;
        y2[i] = 1 + 1e3 * i;
    }
    pic_plot p;
    memset(&p, 0, sizeof p);
    p.title = "test plot";
    p.xlabel = "x";
    p.ylabel = "y";
    p.nseries = 2;
    p.series[0] = (pic_series){ "squares", x, y1, N };
    p.series[1] = (pic_series){ "line", x, y2, N };
    CHECK(pic_plot_png(path, 800, 500, &p) == 0, "plot: %s", strerror(errno));
    struct img d;
    if (decode(path, &d) == 0) {
        CHECK(d.w == 800 && d.h == 500, "plot size %ux%u", d.w, d.h);
        check_plot_layout(&d, "plot");
        CHECK(count_colour(&d, 31, 119, 180) > 300, "plot: the first series (blue) is missing");
        CHECK(count_colour(&d, 214, 39, 40) > 300, "plot: the second series (red) is missing");
        free(d.rgb);
    }
    p.ylog = 1; /* decades, and the non-positive value left out */
    y1[0] = 0;
    CHECK(pic_plot_png(path, 640, 400, &p) == 0, "log plot: %s", strerror(errno));
    if (decode(path, &d) == 0) {
        check_plot_layout(&d, "log plot");
        free(d.rgb);
    }
    pic_plot four[4] = { p, p, p, p };
    four[0].ylog = 0;
    CHECK(pic_plot_grid_png(path, 1000, 700, 2, four, 4) == 0, "grid: %s", strerror(errno));
    if (decode(path, &d) == 0) {
        CHECK(d.w == 1000 && d.h == 700, "grid size");
        CHECK(ink(&d, 0, 0, 500, 350) > 1000 && ink(&d, 500, 350, 1000, 700) > 1000, "grid: empty panels");
        free(d.rgb);
    }
    p.nseries = 0;
    CHECK(pic_plot_png(path, 640, 400, &p) == -1 && errno == EINVAL, "a plot of no series accepted");
}

/* ---- the CLI --------------------------------------------------------------------------------- */

static const char *bulk;

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
    char cmd[2048];
    int n = snprintf(cmd, sizeof cmd, "'%s' ", bulk);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd + n, sizeof cmd - (size_t)n, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The universe of `pattern` after `steps` (torus tw x th when tw), read through the library. */
static bulk_life *universe(const char *pattern, uint64_t steps, uint64_t tw, uint64_t th, bulk_ctx *ctx)
{
    bulk_life_pattern p;
    bulk_life *u = NULL;
    if (bulk_life_pattern_read_file(&p, pattern) != BULK_OK) {
        CHECK(0, "%s", bulk_ctx_last_error(NULL));
        return NULL;
    }
    bulk_life_options opt;
    memset(&opt, 0, sizeof opt);
    opt.rule = p.rule;
    opt.torus = tw != 0;
    opt.torus_width = tw;
    opt.torus_height = th;
    if (bulk_life_create(&u, ctx, &p, &opt) != BULK_OK || bulk_life_step(u, steps) != BULK_OK) {
        CHECK(0, "%s: cannot run it", pattern);
        u = NULL;
    }
    bulk_life_pattern_free(&p);
    return u;
}

/* The picture at png shows the rectangle (x, y, w, h) of u: pixel (i, j) is black exactly when
 * one of the cells [i / s * k, + k) x [j / s * k, + k) is alive (k = shrink, s = scale). */
static void check_life_png(const char *png, bulk_life *u, int64_t x, int64_t y, uint64_t w, uint64_t h,
                           uint64_t k, uint64_t s, const char *what)
{
    struct img d;
    if (!u || decode(png, &d) != 0) return;
    uint64_t pw = (w + k - 1) / k, ph = (h + k - 1) / k;
    CHECK(d.w == pw * s && d.h == ph * s, "%s: %ux%u, want %llux%llu", what, d.w, d.h,
          (unsigned long long)(pw * s), (unsigned long long)(ph * s));
    CHECK(d.color_type == PNG_COLOR_TYPE_PALETTE && d.bit_depth == 1, "%s: type %d depth %d, want 1-bit palette",
          what, d.color_type, d.bit_depth);
    bulk_life_pattern r;
    if (d.w != pw * s || d.h != ph * s || bulk_life_region(u, x, y, w, h, &r) != BULK_OK) {
        free(d.rgb);
        return;
    }
    uint64_t nw = bulk_life_words(w), bad = 0, live = 0;
    for (uint64_t j = 0; j < d.h; j++)
        for (uint64_t i = 0; i < d.w; i++) {
            int alive = 0;
            for (uint64_t cy = j / s * k; cy < (j / s + 1) * k && cy < h; cy++)
                for (uint64_t cx = i / s * k; cx < (i / s + 1) * k && cx < w; cx++)
                    alive |= (int)((r.cells[cy * nw + cx / 64] >> (cx % 64)) & 1);
            const uint8_t *p = px(&d, (uint32_t)i, (uint32_t)j);
            int black = p[0] == 0 && p[1] == 0 && p[2] == 0, white = is_white(p);
            bad += alive ? !black : !white;
            live += black;
        }
    CHECK(bad == 0, "%s: %llu pixels differ from the universe", what, (unsigned long long)bad);
    CHECK(live > 0, "%s: no live pixel", what);
    bulk_life_pattern_free(&r);
    free(d.rgb);
}

static void test_life_cli(const char *dir, uint64_t *rng)
{
    char soup[512], png[512], glider[512];
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) != BULK_OK) {
        CHECK(0, "no context");
        return;
    }
    /* a 2000 x 2000 random soup at scale 1: every cell one pixel, well under 1 MB */
    snprintf(soup, sizeof soup, "%s/soup.cells", dir);
    snprintf(png, sizeof png, "%s/soup.png", dir);
    FILE *f = fopen(soup, "w");
    char row[2002];
    for (int y = 0; y < 2000; y++) {
        for (int x = 0; x < 2000; x++) row[x] = test_rand(rng) & 1 ? 'O' : '.';
        row[2000] = '\n';
        fwrite(row, 1, 2001, f);
    }
    fclose(f);
    CHECK(run("life run --in '%s' --torus 2000x2000 --steps 0 --png '%s' --png-scale 1 >/dev/null", soup, png) == 0,
          "life run --png of the soup failed");
    bulk_life *u = universe(soup, 0, 2000, 2000, ctx);
    check_life_png(png, u, 0, 0, 2000, 2000, 1, 1, "soup");
    struct stat sb;
    CHECK(stat(png, &sb) == 0 && sb.st_size < 1000000, "the soup picture has %lld bytes (want < 1 MB)",
          (long long)sb.st_size);
    printf("2000 x 2000 soup, scale 1: %lld bytes\n", (long long)sb.st_size);
    bulk_life_free(u);

    /* a glider on the plane after 9 steps at scale 3: the live cells with a 2-cell border */
    snprintf(glider, sizeof glider, "%s/glider.cells", dir);
    f = fopen(glider, "w");
    fputs(".O.\n..O\nOOO\n", f);
    fclose(f);
    snprintf(png, sizeof png, "%s/glider.png", dir);
    CHECK(run("life run --in '%s' --steps 9 --png '%s' --png-scale 3 >/dev/null", glider, png) == 0,
          "life run --png of the glider failed");
    u = universe(glider, 9, 0, 0, ctx);
    bulk_life_pattern box;
    if (u && bulk_life_extract(u, &box) == BULK_OK) {
        check_life_png(png, u, box.x - 2, box.y - 2, box.width + 4, box.height + 4, 1, 3, "glider");
        bulk_life_pattern_free(&box);
    }
    /* --png-region, default scale (8 here: 10 x 6 cells) */
    CHECK(run("life run --in '%s' --steps 9 --png '%s' --png-region 0,0,10,6 >/dev/null", glider, png) == 0,
          "life run --png-region failed");
    check_life_png(png, u, 0, 0, 10, 6, 1, 8, "glider region");
    bulk_life_free(u);

    /* a torus 8200 cells wide: shrunk 3 : 1 (a pixel alive when any of its 3 x 3 cells is) */
    snprintf(png, sizeof png, "%s/wide.png", dir);
    CHECK(run("life run --in '%s/soup.cells' --torus 8200x2003 --steps 2 --png '%s' --png-scale 1 >/dev/null", dir, png) == 0,
          "life run --png of the wide torus failed");
    u = universe(soup, 2, 8200, 2003, ctx);
    check_life_png(png, u, 0, 0, 8200, 2003, 3, 1, "wide torus");
    bulk_life_free(u);

    /* an unwritable --png is a run-time failure (exit 1) */
    CHECK(run("life run --in '%s' --steps 1 --png /nonexistent-dir/g.png >/dev/null 2>&1", glider) == 1,
          "an unwritable --png did not exit 1");
    bulk_ctx_close(ctx);
}

static void test_delays_cli(const char *dir)
{
    char png[512];
    snprintf(png, sizeof png, "%s/delays.png", dir);
    CHECK(run("collatz delays --from 1 --to 2^16+1 --stats 64 --png '%s' >/dev/null", png) == 0,
          "collatz delays --png failed");
    struct img d;
    if (decode(png, &d) == 0) {
        CHECK(d.w == 1024 && d.h == 600, "delays plot %ux%u, want 1024x600", d.w, d.h);
        CHECK(d.bytes < 100000, "the delays plot of 1..2^16 has %ld bytes (want < 100 KB)", d.bytes);
        printf("delays plot of 1..2^16, batches of 64: %ld bytes\n", d.bytes);
        check_plot_layout(&d, "delays plot");
        CHECK(count_colour(&d, 31, 119, 180) > 1000, "delays plot: no average (blue)");
        CHECK(count_colour(&d, 214, 39, 40) > 1000, "delays plot: no minimum (red)");
        CHECK(count_colour(&d, 44, 160, 44) > 1000, "delays plot: no maximum (green)");
        free(d.rgb);
    }
    /* near 2^64 the x axis is n - A: still a labelled plot */
    CHECK(run("collatz delays --from 2^64+1 --to 2^64+2^16+1 --stats 256 --png '%s' >/dev/null", png) == 0,
          "collatz delays --png near 2^64 failed");
    if (decode(png, &d) == 0) {
        check_plot_layout(&d, "delays plot near 2^64");
        free(d.rgb);
    }
    CHECK(run("collatz delays --from 1 --to 65 --stats 64 --png /nonexistent-dir/d.png >/dev/null 2>&1") == 1,
          "an unwritable --png did not exit 1");
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), rng = seed;
    const char *dir = test_scratch_dir("pictures");
    CHECK(pic_available(), "built without pictures, yet this test was built");
    test_indexed(dir, &rng);
    test_rgb(dir, &rng);
    test_failures_keep_files(dir);
    test_plot(dir);
    if (argc > 1 && argv[1][0] != '-') {
        bulk = argv[1];
        test_life_cli(dir, &rng);
        test_delays_cli(dir);
    }
    return test_finish();
}
