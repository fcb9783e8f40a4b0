/* The statistics counters of mpn_div.h: how often the rare paths of division and GCD ran.
 * Relaxed atomics, so concurrent workers may bump them; they only ever grow. The two of
 * divide-and-conquer division are per thread (div_stats.h says why). */
#include "int/cpu/div_stats.h"

_Atomic unsigned long long bulk_div_stat_addbacks;
_Atomic unsigned long long bulk_div_stat_adjust[6];
_Atomic unsigned long long bulk_div_stat_fallbacks;
_Atomic unsigned long long bulk_div_stat_beta_pos;
_Thread_local unsigned long long bulk_div_stat_dc_adjust;
_Thread_local unsigned long long bulk_div_stat_dc_calls;

void bulk_div_stats_get(bulk_div_stats *out)
{
    out->knuth_addbacks = atomic_load_explicit(&bulk_div_stat_addbacks, memory_order_relaxed);
    for (int i = 0; i < 6; i++)
        out->newton_adjust[i] =
            atomic_load_explicit(&bulk_div_stat_adjust[i], memory_order_relaxed);
    out->newton_fallbacks = atomic_load_explicit(&bulk_div_stat_fallbacks, memory_order_relaxed);
    out->gcd_beta_pos = atomic_load_explicit(&bulk_div_stat_beta_pos, memory_order_relaxed);
    out->dc_adjust = bulk_div_stat_dc_adjust;
    out->dc_calls = bulk_div_stat_dc_calls;
}
