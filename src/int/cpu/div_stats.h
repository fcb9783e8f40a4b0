/* Internal: the counters behind bulk_div_stats_get (div_stats.c). */
#ifndef BULK_INT_CPU_DIV_STATS_H
#define BULK_INT_CPU_DIV_STATS_H
#include <stdatomic.h>

#include "int/mpn_div.h"

extern _Atomic unsigned long long bulk_div_stat_addbacks;
extern _Atomic unsigned long long bulk_div_stat_adjust[6];
extern _Atomic unsigned long long bulk_div_stat_fallbacks;
extern _Atomic unsigned long long bulk_div_stat_beta_pos;
/* Per thread: these fire on (nearly) every divide-and-conquer division, where one shared atomic
 * would move its cache line between all the workers of a bulk call on every small division. */
extern _Thread_local unsigned long long bulk_div_stat_dc_adjust;
extern _Thread_local unsigned long long bulk_div_stat_dc_calls;

#define BULK_DIV_STAT_INC(counter) atomic_fetch_add_explicit(&(counter), 1, memory_order_relaxed)
#define BULK_DIV_STAT_INC_THREAD(counter) ((counter)++)

#endif
