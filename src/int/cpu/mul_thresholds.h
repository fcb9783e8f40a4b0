/* Multiplication thresholds (in limbs) of the AUTO dispatch in mpn_mul.c.
 *
 * PROVISIONAL values, to be replaced by the output of bench/int/tune_mul.c. */
#ifndef BULK_INT_CPU_MUL_THRESHOLDS_H
#define BULK_INT_CPU_MUL_THRESHOLDS_H

/* basecase: Comba (product scanning) for n <= this, schoolbook rows above */
#define BULK_MUL_COMBA_MAX 64
/* first n at which each method is used for balanced n x n products */
#define BULK_MUL_KARATSUBA_THRESHOLD 24
#define BULK_MUL_TOOM3_THRESHOLD 100
#define BULK_MUL_TOOM4_THRESHOLD 250
#define BULK_MUL_TOOM6_THRESHOLD 600
#define BULK_MUL_TOOM8_THRESHOLD 1200
/* the same for squaring */
#define BULK_SQR_KARATSUBA_THRESHOLD 32
#define BULK_SQR_TOOM3_THRESHOLD 120
#define BULK_SQR_TOOM4_THRESHOLD 300
#define BULK_SQR_TOOM6_THRESHOLD 700
#define BULK_SQR_TOOM8_THRESHOLD 1400
/* short product: split recursively from this n on, basecase below */
#define BULK_MULLO_THRESHOLD 40

#endif
