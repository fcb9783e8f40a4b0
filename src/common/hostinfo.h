/* What the benchmarks print about the machine they ran on (bench/int, bench/life): the CPU
 * model and clock as /proc/cpuinfo states them. Linux only; elsewhere the lookups report
 * nothing found and the callers print their own "unknown". */
#ifndef BULK_COMMON_HOSTINFO_H
#define BULK_COMMON_HOSTINFO_H
#include <stddef.h>

/* Copies the first "model name" of /proc/cpuinfo (without the newline) into buf (cap bytes,
 * truncated, NUL-terminated) and returns 1; returns 0 and leaves buf alone when there is none. */
int bulk_host_cpu_model(char *buf, size_t cap);

/* The first "cpu MHz" of /proc/cpuinfo, or 0 when there is none. */
double bulk_host_cpu_mhz(void);

#endif
