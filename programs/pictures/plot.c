/* Line plots with cairo; see plot.h. A panel is laid out from its text: the left margin holds
 * the widest y tick value and the y label, the top the title, the legend row and the y axis's
 * common factor, the bottom the x tick values, the x label and the x axis's factor. */
#include "pictures/plot.h"

#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pictures/png.h"

static const double palette[PIC_PLOT_MAX_SERIES][3] = {
    { 31, 119, 180 }, { 214, 39, 40 }, { 44, 160, 44 },   { 255, 127, 14 },
    { 148, 103, 189 }, { 140, 86, 75 }, { 227, 119, 194 }, { 23, 190, 207 },
};

/* ---- axes: range, nice ticks, tick text ---------------------------------------------------- */

struct axis {
    double lo, hi;  /* the axis's span, in data units (decades for a log axis) */
    double step;    /* between ticks */
    double first;   /* the first tick >= lo */
    int exp10;      /* tick values are shown divided by 10^exp10 (0: as they are) */
    int decimals;   /* digits after the point in the tick text */
    int log;
};

/* 1, 2 or 5 times a power of ten, near range / target */
static double nice_step(double range, double target)
{
    double raw = range / target, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

static double tick_at(const struct axis *a, int i)
{
    double v = a->first + i * a->step;
    return fabs(v) < a->step * 1e-9 ? 0 : v;
}

static int tick_count(const struct axis *a)
{
    return (int)floor((a->hi - a->first) / a->step + 1e-9) + 1;
}

/* The first tick and the tick text of an axis whose span and step are set. */
static void axis_labels(struct axis *a)
{
    a->first = ceil(a->lo / a->step - 1e-9) * a->step;
    if (a->log) return;
    double last = tick_at(a, tick_count(a) - 1), m = fmax(fabs(a->first), fabs(last));
    a->exp10 = 0;
    if (m >= 1e6 || (m > 0 && m < 1e-3)) a->exp10 = (int)floor(log10(m));
    double s = a->step / pow(10, a->exp10);
    a->decimals = s >= 1 ? 0 : (int)ceil(-log10(s) - 1e-9);
}

/* Ticks and their text for an axis spanning lo..hi (hi > lo). */
static void axis_ticks(struct axis *a, double target)
{
    a->step = a->log ? ceil((a->hi - a->lo) / 8) : nice_step(a->hi - a->lo, target);
    axis_labels(a);
}

/* The tick text of v (linear axes); "−" (U+2212) for negative values. */
static void tick_text(const struct axis *a, double v, char *buf, size_t size)
{
    double s = v / pow(10, a->exp10);
    if (fabs(s) < 0.5 * pow(10, -a->decimals)) s = 0;
    char t[48];
    snprintf(t, sizeof t, "%.*f", a->decimals, s);
    if (t[0] == '-') snprintf(buf, size, "\xe2\x88\x92%s", t + 1);
    else snprintf(buf, size, "%s", t);
}

/* ---- text ------------------------------------------------------------------------------------- */

static double text_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

/* s with its left edge at x + (-ha * width) and its middle (of the digits' height) at y */
static void text_at(cairo_t *cr, double x, double y, const char *s, double ha)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    cairo_move_to(cr, x - ha * text_width(cr, s), y + 0.35 * fe.ascent);
    cairo_show_text(cr, s);
}

/* "base" followed by a superscript exponent: its width at the current size */
static double power_width(cairo_t *cr, double fs, const char *base, int exponent)
{
    char e[16];
    snprintf(e, sizeof e, "%d", exponent);
    double w = text_width(cr, base);
    cairo_set_font_size(cr, 0.7 * fs);
    w += text_width(cr, e);
    cairo_set_font_size(cr, fs);
    return w;
}

static void power_at(cairo_t *cr, double fs, double x, double y, const char *base, int exponent,
                     double ha)
{
    char e[16];
    snprintf(e, sizeof e, "%d", exponent);
    double x0 = x - ha * power_width(cr, fs, base, exponent);
    text_at(cr, x0, y, base, 0);
    double bw = text_width(cr, base);
    cairo_set_font_size(cr, 0.7 * fs);
    text_at(cr, x0 + bw, y - 0.45 * fs, e, 0);
    cairo_set_font_size(cr, fs);
}

/* the width of the text of tick i */
static double tick_width(cairo_t *cr, double fs, const struct axis *a, int i)
{
    if (a->log) return power_width(cr, fs, "10", (int)lround(tick_at(a, i)));
    char t[64];
    tick_text(a, tick_at(a, i), t, sizeof t);
    return text_width(cr, t);
}

static void tick_label(cairo_t *cr, double fs, const struct axis *a, int i, double x, double y,
                       double ha)
{
    if (a->log) {
        power_at(cr, fs, x, y, "10", (int)lround(tick_at(a, i)), ha);
        return;
    }
    char t[64];
    tick_text(a, tick_at(a, i), t, sizeof t);
    text_at(cr, x, y, t, ha);
}

/* ---- one panel -------------------------------------------------------------------------------- */

static double xval(const pic_series *s, size_t i)
{
    return s->x ? s->x[i] : (double)i;
}

static int usable(const pic_plot *p, const pic_series *s, size_t i)
{
    double x = xval(s, i), y = s->y[i];
    return isfinite(x) && isfinite(y) && (!p->ylog || y > 0);
}

/* The data's extent: x over all series, y likewise (log10 of y for ylog). */
static void data_range(const pic_plot *p, struct axis *ax, struct axis *ay)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int k = 0; k < p->nseries; k++) {
        const pic_series *s = &p->series[k];
        for (size_t i = 0; i < s->n; i++) {
            if (!usable(p, s, i)) continue;
            double x = xval(s, i), y = p->ylog ? log10(s->y[i]) : s->y[i];
            x0 = fmin(x0, x);
            x1 = fmax(x1, x);
            y0 = fmin(y0, y);
            y1 = fmax(y1, y);
        }
    }
    if (!(x0 <= x1)) x0 = 0, x1 = 1;
    if (!(y0 <= y1)) y0 = 0, y1 = 1;
    if (x1 <= x0) x0 -= 0.5 + fabs(x0) * 0.01, x1 += 0.5 + fabs(x1) * 0.01;
    memset(ax, 0, sizeof *ax);
    memset(ay, 0, sizeof *ay);
    ax->lo = x0;
    ax->hi = x1;
    axis_ticks(ax, 8);
    /* data that starts just past a tick (n from 1) starts the axis at that tick */
    double below = floor(x0 / ax->step) * ax->step;
    if (below < x0 && x0 - below < 0.02 * (x1 - x0)) {
        ax->lo = below;
        axis_labels(ax);
    }
    ay->log = p->ylog;
    if (p->ylog) {
        ay->lo = floor(y0);
        ay->hi = ceil(y1);
        if (ay->hi <= ay->lo) ay->hi = ay->lo + 1;
        axis_ticks(ay, 6);
        return;
    }
    if (p->y_from_zero && y0 >= 0) y0 = 0;
    if (y1 <= y0) y1 = y0 + 1;
    y1 += 0.03 * (y1 - y0); /* a little air above the highest point */
    ay->lo = y0;
    ay->hi = y1;
    axis_ticks(ay, 6);
    ay->lo = floor(y0 / ay->step + 1e-9) * ay->step; /* extended to whole ticks */
    ay->hi = ceil(y1 / ay->step - 1e-9) * ay->step;
    axis_labels(ay);
}

struct frame {
    double X0, X1, Y0, Y1; /* the plot area, device pixels, Y0 at the top */
};

static double map_x(const struct frame *f, const struct axis *a, double v)
{
    return f->X0 + (v - a->lo) / (a->hi - a->lo) * (f->X1 - f->X0);
}

static double map_y(const struct frame *f, const struct axis *a, double v)
{
    return f->Y1 - (v - a->lo) / (a->hi - a->lo) * (f->Y1 - f->Y0);
}

/* One series, clipped to the plot area. Dense series (more points than 4 per pixel column)
 * are drawn as each column's range of values, joined, which looks the same and is bounded. */
static void draw_series(cairo_t *cr, const pic_plot *p, const pic_series *s, const struct frame *f,
                        const struct axis *ax, const struct axis *ay, double lw, double fs)
{
    double cols = f->X1 - f->X0;
    int dense = (double)s->n > 4 * cols, pen = 0;
    double col = -1, cmin = 0, cmax = 0, clast = 0;
    cairo_set_line_width(cr, dense ? fmax(1.0, 0.7 * lw) : lw);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (size_t i = 0; i < s->n; i++) {
        if (!usable(p, s, i)) {
            pen = 0; /* a gap (a value a log axis cannot show) */
            continue;
        }
        double x = map_x(f, ax, xval(s, i)), y = map_y(f, ay, p->ylog ? log10(s->y[i]) : s->y[i]);
        if (!dense) {
            if (pen) cairo_line_to(cr, x, y);
            else cairo_move_to(cr, x, y);
            pen = 1;
            continue;
        }
        double c = floor(x) + 0.5;
        if (pen && c == col) {
            cmin = fmin(cmin, y);
            cmax = fmax(cmax, y);
            clast = y;
            continue;
        }
        if (pen) {
            cairo_line_to(cr, col, cmin);
            cairo_line_to(cr, col, cmax);
            cairo_line_to(cr, col, clast);
            cairo_line_to(cr, c, y);
        } else {
            cairo_move_to(cr, c, y);
        }
        pen = 1;
        col = c;
        cmin = cmax = clast = y;
    }
    if (dense && pen) {
        cairo_line_to(cr, col, cmin);
        cairo_line_to(cr, col, cmax);
        cairo_line_to(cr, col, clast);
    }
    cairo_stroke(cr);
    if (s->n >= 64) return;
    for (size_t i = 0; i < s->n; i++) {
        if (!usable(p, s, i)) continue;
        double x = map_x(f, ax, xval(s, i)), y = map_y(f, ay, p->ylog ? log10(s->y[i]) : s->y[i]);
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, fmax(2.5, 0.22 * fs), 0, 2 * M_PI);
    }
    cairo_fill(cr);
}

static void set_font(cairo_t *cr, double fs, int bold)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, fs);
}

static void draw_panel(cairo_t *cr, double px, double py, double pw, double ph, const pic_plot *p)
{
    double fs = fmin(pw / 64, ph / 40);
    fs = fs < 8 ? 8 : fs > 15 ? 15 : fs;
    const double pad = 0.8 * fs, tick = 0.4 * fs, lw = fmax(1.25, fs / 9);
    struct axis ax, ay;
    data_range(p, &ax, &ay);
    int nx = tick_count(&ax), ny = tick_count(&ay), legend = 0;
    for (int k = 0; k < p->nseries; k++) legend |= p->series[k].name != NULL;
    set_font(cr, fs, 0);
    cairo_rectangle(cr, px, py, pw, ph);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill(cr);

    /* margins from the text they hold */
    double ywidest = 0;
    for (int i = 0; i < ny; i++) ywidest = fmax(ywidest, tick_width(cr, fs, &ay, i));
    double top = pad + (p->title ? 1.6 * fs : 0) + (legend ? 1.6 * fs : 0) + (ay.exp10 ? 1.3 * fs : 0) + 0.5 * fs;
    double left = pad + (p->ylabel ? 1.6 * fs : 0) + ywidest + tick + 0.4 * fs;
    double bottom = tick + 1.6 * fs + (p->xlabel || ax.exp10 ? 1.6 * fs : 0) + pad;
    double right = pad + 0.5 * tick_width(cr, fs, &ax, nx - 1);
    struct frame f = { floor(px + left) + 0.5, floor(px + pw - right) + 0.5, floor(py + top) + 0.5,
                       floor(py + ph - bottom) + 0.5 };
    if (f.X1 - f.X0 < 16 || f.Y1 - f.Y0 < 16) return; /* too small to draw anything useful */

    /* grid, series, frame */
    cairo_set_line_width(cr, 1);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    for (int i = 0; i < nx; i++) {
        double x = floor(map_x(&f, &ax, tick_at(&ax, i))) + 0.5;
        cairo_move_to(cr, x, f.Y0);
        cairo_line_to(cr, x, f.Y1);
    }
    for (int i = 0; i < ny; i++) {
        double y = floor(map_y(&f, &ay, tick_at(&ay, i))) + 0.5;
        cairo_move_to(cr, f.X0, y);
        cairo_line_to(cr, f.X1, y);
    }
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_rectangle(cr, f.X0, f.Y0, f.X1 - f.X0, f.Y1 - f.Y0);
    cairo_clip(cr);
    for (int k = 0; k < p->nseries; k++) {
        const double *c = palette[k];
        cairo_set_source_rgb(cr, c[0] / 255, c[1] / 255, c[2] / 255);
        draw_series(cr, p, &p->series[k], &f, &ax, &ay, lw, fs);
    }
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, f.X0, f.Y0, f.X1 - f.X0, f.Y1 - f.Y0);
    cairo_stroke(cr);

    /* ticks and their values */
    for (int i = 0; i < nx; i++) {
        double x = floor(map_x(&f, &ax, tick_at(&ax, i))) + 0.5;
        cairo_move_to(cr, x, f.Y1);
        cairo_line_to(cr, x, f.Y1 + tick);
        tick_label(cr, fs, &ax, i, x, f.Y1 + tick + 0.9 * fs, 0.5);
    }
    for (int i = 0; i < ny; i++) {
        double y = floor(map_y(&f, &ay, tick_at(&ay, i))) + 0.5;
        cairo_move_to(cr, f.X0, y);
        cairo_line_to(cr, f.X0 - tick, y);
        tick_label(cr, fs, &ay, i, f.X0 - tick - 0.3 * fs, y, 1);
    }
    cairo_stroke(cr);

    /* axis labels and the common factors of the tick values */
    double xrow = f.Y1 + tick + 2.5 * fs;
    if (p->xlabel) text_at(cr, (f.X0 + f.X1) / 2, xrow, p->xlabel, 0.5);
    if (ax.exp10) power_at(cr, fs, f.X1, xrow, "\xc3\x97" "10", ax.exp10, 1);
    if (ay.exp10) power_at(cr, fs, f.X0, f.Y0 - 0.8 * fs, "\xc3\x97" "10", ay.exp10, 0);
    if (p->ylabel) {
        cairo_save(cr);
        cairo_translate(cr, px + pad + 0.6 * fs, (f.Y0 + f.Y1) / 2);
        cairo_rotate(cr, -M_PI / 2);
        text_at(cr, 0, 0, p->ylabel, 0.5);
        cairo_restore(cr);
    }

    /* legend: one row, centred over the plot area, under the title */
    double row = py + pad + (p->title ? 1.6 * fs : 0) + 0.7 * fs;
    if (legend) {
        const double sample = 2.2 * fs, gap = 0.5 * fs, space = 1.6 * fs;
        double total = 0;
        for (int k = 0; k < p->nseries; k++)
            if (p->series[k].name) total += (total > 0 ? space : 0) + sample + gap + text_width(cr, p->series[k].name);
        double x = (f.X0 + f.X1) / 2 - total / 2;
        for (int k = 0; k < p->nseries; k++) {
            const pic_series *s = &p->series[k];
            if (!s->name) continue;
            const double *c = palette[k];
            cairo_set_source_rgb(cr, c[0] / 255, c[1] / 255, c[2] / 255);
            cairo_set_line_width(cr, 2 * lw);
            cairo_move_to(cr, x, row);
            cairo_line_to(cr, x + sample, row);
            cairo_stroke(cr);
            if (s->n < 64) {
                cairo_arc(cr, x + sample / 2, row, fmax(2.5, 0.22 * fs), 0, 2 * M_PI);
                cairo_fill(cr);
            }
            cairo_set_source_rgb(cr, 0, 0, 0);
            text_at(cr, x + sample + gap, row, s->name, 0);
            x += sample + gap + text_width(cr, s->name) + space;
        }
    }
    if (p->title) {
        set_font(cr, 1.15 * fs, 1);
        text_at(cr, (f.X0 + f.X1) / 2, py + pad + 0.6 * fs, p->title, 0.5);
        set_font(cr, fs, 0);
    }
}

/* ---- figures ---------------------------------------------------------------------------------- */

/* Every pixel of a figure is white, an ink (black, the grid's grey, a series colour) or, at
 * the antialiased edges of lines and glyphs, an ink partly covering white. Mapping each pixel
 * to the nearest of 15 coverage levels of each ink gives at most 1 + 15 * 10 colours: a
 * palette image, a third of the bytes before compression and far fewer distinct runs after
 * it. Only edges where two inks meet change, by less than the eye sees. */
#define INK_LEVELS 15
static void quantize(uint8_t *rgb, size_t npix)
{
    double ink[PIC_PLOT_MAX_SERIES + 2][3] = { { 0, 0, 0 }, { 224.4, 224.4, 224.4 } };
    int ninks = PIC_PLOT_MAX_SERIES + 2;
    for (int k = 0; k < PIC_PLOT_MAX_SERIES; k++)
        for (int c = 0; c < 3; c++) ink[k + 2][c] = palette[k][c];
    for (size_t i = 0; i < npix; i++) {
        uint8_t *p = rgb + 3 * i;
        if (p[0] == 255 && p[1] == 255 && p[2] == 255) continue;
        double best = INFINITY, out[3] = { 255, 255, 255 };
        for (int k = 0; k < ninks; k++) {
            double d[3], q[3], dd = 0, qd = 0;
            for (int c = 0; c < 3; c++) {
                d[c] = 255 - ink[k][c];
                q[c] = 255 - p[c];
                dd += d[c] * d[c];
                qd += q[c] * d[c];
            }
            double level = round(fmin(fmax(qd / dd, 0), 1) * INK_LEVELS) / INK_LEVELS, err = 0;
            for (int c = 0; c < 3; c++) err += (q[c] - level * d[c]) * (q[c] - level * d[c]);
            if (err < best) {
                best = err;
                for (int c = 0; c < 3; c++) out[c] = 255 - level * d[c];
            }
        }
        for (int c = 0; c < 3; c++) p[c] = (uint8_t)lround(out[c]);
    }
}

static int valid_plot(const pic_plot *p)
{
    if (!p || p->nseries < 1 || p->nseries > PIC_PLOT_MAX_SERIES) return 0;
    for (int k = 0; k < p->nseries; k++)
        if (p->series[k].n && !p->series[k].y) return 0;
    return 1;
}

int pic_plot_grid_png(const char *path, int width, int height, int cols, const pic_plot *panels, int n)
{
    if (width < 64 || height < 64 || width > 16384 || height > 16384 || cols < 1 || n < 1) {
        errno = EINVAL;
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (!valid_plot(&panels[i])) {
            errno = EINVAL;
            return -1;
        }
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_t *cr = cairo_create(sf);
    int rows = (n + cols - 1) / cols, st = -1;
    double cw = (double)width / cols, ch = (double)height / rows;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    for (int i = 0; i < n; i++)
        draw_panel(cr, floor((i % cols) * cw), floor((i / cols) * ch), floor(cw), floor(ch), &panels[i]);
    cairo_surface_flush(sf);
    uint8_t *rgb = malloc((size_t)width * (size_t)height * 3);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS || !rgb) {
        errno = ENOMEM;
    } else {
        const unsigned char *data = cairo_image_surface_get_data(sf);
        int stride = cairo_image_surface_get_stride(sf);
        for (int y = 0; y < height; y++) {
            const uint32_t *src = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
            uint8_t *dst = rgb + (size_t)y * (size_t)width * 3;
            for (int x = 0; x < width; x++) {
                dst[3 * x] = (uint8_t)(src[x] >> 16);
                dst[3 * x + 1] = (uint8_t)(src[x] >> 8);
                dst[3 * x + 2] = (uint8_t)src[x];
            }
        }
        quantize(rgb, (size_t)width * (size_t)height);
        st = pic_png_write_rgb(path, (uint32_t)width, (uint32_t)height, rgb);
    }
    int e = errno;
    free(rgb);
    cairo_destroy(cr);
    cairo_surface_destroy(sf);
    errno = e;
    return st;
}

int pic_plot_png(const char *path, int width, int height, const pic_plot *p)
{
    return pic_plot_grid_png(path, width, height, 1, p, 1);
}
