/* The CLI's own loop over index ranges on several threads (formatting and parsing lines of
 * text in parallel). fn(arg, begin, end, worker) is called for disjoint ranges that together
 * cover [0, n) exactly once; worker is in [0, threads) and never shared by two concurrent
 * calls, so per-worker scratch is safe. Ranges of `grain` indices (0: about 16 per thread) are
 * taken dynamically. When threads cannot be started the calling thread does the rest: the
 * work always completes. */
#ifndef BULK_CLI_PARALLEL_H
#define BULK_CLI_PARALLEL_H
#include <stddef.h>

typedef void (*cli_range_fn)(void *arg, size_t begin, size_t end, int worker);

void cli_parallel_for(int threads, size_t n, size_t grain, cli_range_fn fn, void *arg);

#endif
