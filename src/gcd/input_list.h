/* Appending to a bulk_gcd_input (input_list.c), for the readers of input.c and keys.c. */
#ifndef BULK_GCD_INPUT_LIST_H
#define BULK_GCD_INPUT_LIST_H

#include "bulk/gcd.h"

/* Appends one modulus of mn significant limbs that starts at `line` (repacking to a wider
 * width when needed). BULK_OK or BULK_ERR_NOMEM (then *in is unchanged). */
int gcd_input_push(bulk_gcd_input *in, const bulk_limb_t *m, size_t mn, uint64_t line);

#endif
