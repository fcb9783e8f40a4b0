/* Running one function over index ranges on several threads.
 *
 * Contract: fn(arg, begin, end, worker) is called for disjoint ranges that together cover
 * [0, n) exactly once; `worker` is in [0, threads) and no two concurrent calls share it,
 * so per-worker scratch space is safe. Ranges are handed out dynamically (faster threads
 * take more), so a caller that reduces must do so in an order-independent way (exact
 * integer sums, per-index outputs) to keep results independent of the thread count. */
#ifndef BULK_COMMON_PARALLEL_H
#define BULK_COMMON_PARALLEL_H
#include <stddef.h>

typedef void (*bulk_range_fn)(void *arg, size_t begin, size_t end, int worker);

/* grain: indices per hand-out (0 picks one). Returns 0, or BULK_ERR_NOMEM when threads
 * could not be started (the work is then done on the calling thread, still complete). */
int bulk_parallel_for(int threads, size_t n, size_t grain, bulk_range_fn fn, void *arg);

#endif
