/* Small helpers shared by the benchmark programs (header only; each benchmark is one program):
 * a monotonic clock, a results table kept in memory while it is printed (written to the results
 * file atomically at the end), a line printer that writes to stdout and an open results file at
 * once, the membership test of a comma-separated --only list, and the CPU's model name. */
#ifndef BULK_BENCH_UTIL_H
#define BULK_BENCH_UTIL_H
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Seconds on the monotonic clock (differences only). */
static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The table printed so far (bench_table_printf): printed to stdout as it grows and kept here so
 * that the benchmark can write it to its results file in one atomic write at the end. Lines that
 * would overflow the buffer are still printed but no longer kept. */
static char bench_table[1 << 16];
static size_t bench_table_len;

static void bench_table_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void bench_table_printf(const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    size_t n = (size_t)k < sizeof line ? (size_t)k : sizeof line - 1;
    if (bench_table_len + n < sizeof bench_table) {
        memcpy(bench_table + bench_table_len, line, n);
        bench_table_len += n;
    }
    fputs(line, stdout);
    fflush(stdout);
}

/* A line to stdout and, when `file` is open, to it as well (the results file of benchmarks that
 * write as they go). */
static void bench_emit_to(FILE *file, const char *fmt, ...) __attribute__((format(printf, 2, 3), unused));
static void bench_emit_to(FILE *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
    if (file) {
        va_start(ap, fmt);
        vfprintf(file, fmt, ap);
        va_end(ap);
        fflush(file);
    }
}

/* 1 when `part` is one of the comma-separated names in `list`. */
static inline int bench_in_list(const char *list, const char *part)
{
    size_t n = strlen(part);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, part, n) == 0) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}


/* The "model name" of /proc/cpuinfo into buf (size > 0), or dflt where there is none. */
static inline void bench_cpu_model(char *buf, size_t size, const char *dflt)
{
    snprintf(buf, size, "%s", dflt);
    FILE *ci = fopen("/proc/cpuinfo", "r");
    if (!ci) return;
    char line[512];
    while (fgets(line, sizeof line, ci))
        if (!strncmp(line, "model name", 10)) {
            const char *c = strchr(line, ':');
            if (c) snprintf(buf, size, "%s", c + 2);
            buf[strcspn(buf, "\n")] = 0;
            break;
        }
    fclose(ci);
}

#endif
