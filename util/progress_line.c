#define _POSIX_C_SOURCE 200809L
#include "progress_line.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

double bulk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void progress_line_init(progress_line *p, const char *label, double total)
{
    p->label = label;
    p->total = total > 0 ? total : 1;
    p->start_time = bulk_now();
    p->last_print = 0;
    const char *env = getenv("BULK_PROGRESS");
    if (env && (env[0] == '0' || env[0] == '1')) p->enabled = env[0] == '1';
    else p->enabled = isatty(2);
}

void progress_line_update(progress_line *p, double done)
{
    if (!p->enabled) return;
    double now = bulk_now();
    if (now - p->last_print < 0.25) return;
    p->last_print = now;
    double elapsed = now - p->start_time;
    double rate = elapsed > 0 ? done / elapsed : 0;
    double eta = rate > 0 ? (p->total - done) / rate : 0;
    fprintf(stderr, "\r%s: %5.1f%%  %.3g/s  ETA %.0fs   ", p->label, 100.0 * done / p->total, rate,
            eta);
    fflush(stderr);
}

void progress_line_init_count(progress_line *p, const char *label, double total, const char *unit,
                              const char *work_unit)
{
    progress_line_init(p, label, total);
    p->unit = unit;
    p->work_unit = work_unit;
    p->done0 = p->work0 = 0;
    p->started = 0;
}

void progress_line_update_count(progress_line *p, double done, double work)
{
    if (!p->enabled) return;
    double now = bulk_now();
    if (!p->started) { /* the rate counts from here: a resumed run's earlier work is not its own */
        p->started = 1;
        p->done0 = done;
        p->work0 = work;
        p->start_time = now;
        p->last_print = 0;
    }
    if (now - p->last_print < 0.25 && done < p->total) return;
    p->last_print = now;
    double elapsed = now - p->start_time;
    double rate = elapsed > 0 ? (done - p->done0) / elapsed : 0;
    double wrate = elapsed > 0 ? (work - p->work0) / elapsed : 0;
    double eta = rate > 0 ? (p->total - done) / rate : 0;
    fprintf(stderr, "\r%s: %5.1f%%  %.0f/%.0f %s  %.3g %s/s  ETA %.0fs   ", p->label,
            100.0 * done / p->total, done, p->total, p->unit, p->work_unit ? wrate : rate,
            p->work_unit ? p->work_unit : p->unit, eta);
    fflush(stderr);
}

void progress_line_finish(progress_line *p)
{
    if (!p->enabled) return;
    fprintf(stderr, "\r%*s\r", 100, "");
    fflush(stderr);
}
