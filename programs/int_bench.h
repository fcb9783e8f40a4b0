/* bulk int bench: the benchmark subcommand of `bulk int` (cmd_int_bench.c). Takes argv with
 * argv[0] = "bench"; returns the exit code. */
#ifndef BULK_PROGRAMS_INT_BENCH_H
#define BULK_PROGRAMS_INT_BENCH_H

int cmd_int_bench(int argc, char **argv);

#endif
