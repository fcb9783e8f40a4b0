/* The picture of `bulk collatz delays --stats BATCH --png FILE` (and of `bulk dist collatz
 * delays`), programs/collatz_plot.c. */
#ifndef BULK_PROGRAMS_COLLATZ_PLOT_H
#define BULK_PROGRAMS_COLLATZ_PLOT_H
#include <stdint.h>

#include "bulk/collatz.h"

/* The average, minimum and maximum delay of nb batches of `batch` numbers from `first` (the
 * range [from, to) as the user wrote it names the plot) against n, as a 1024 x 600 PNG at
 * path. 0, or -1 with errno set. */
int czcli_plot_delays(const char *path, const char *from, const char *to, bulk_u128 first,
                      uint64_t batch, uint64_t nb, const double *avg, const double *mn,
                      const double *mx);

#endif
