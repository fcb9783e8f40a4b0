/* Multiplication thresholds (in limbs) of the AUTO dispatch in mpn_mul.c.
 *
 * MEASURED, not guessed: by bench/int/tune_mul.c (`build-intmul/bench/int/tune_mul --out
 * bench/results/int-tune-mul-vm.txt`, Release -O3 build, one thread), on the project's
 * 2-core "AMD EPYC" KVM machine (family 26, gcc 12.2, GMP 6.2.1), 2026-11-21; the full table of
 * times behind each value is in that results file. Each threshold is the first size from which
 * the method at the top level (sub-products by AUTO) beat the AUTO of the methods below it at
 * three successive sampled sizes and at >= 80% of the larger ones (once it had won three in a
 * row from T, its later timings used T for its sub-products too; thread CPU time, minimum over
 * 7 interleaved batches; the machine had a load average of 10-20 from the other engineers'
 * builds during the run). Near some crossovers the two methods stay within a few percent of
 * each other over a wide range (Toom-3 vs Karatsuba from ~130 to ~500 limbs, Toom-4/6/8 vs
 * Toom-3 from ~1200 limbs on), so those thresholds move between runs (Toom-3 came out at 137
 * and 260, Toom-4 at 3649 and 10852 in the last two runs); the choice costs little there.
 * Re-run tune_mul and copy its #define block here when the code or the machine changes.
 *
 * Reading the values: AUTO uses the method with the largest threshold <= n. When two methods
 * share a threshold, the higher one won at the lower one's crossover and the lower one is never
 * picked (Toom-4 here: the general Toom-6 overtook it at the size where it overtook Toom-3). */
#ifndef BULK_INT_CPU_MUL_THRESHOLDS_H
#define BULK_INT_CPU_MUL_THRESHOLDS_H

#include <stdint.h>

/* basecase: Comba (product scanning) for n <= this, schoolbook (addmul_2 rows) above;
 * SIZE_MAX: schoolbook never won (sampled up to 160 limbs) */
#define BULK_MUL_COMBA_MAX SIZE_MAX
/* first n at which each method is used for balanced n x n products */
#define BULK_MUL_KARATSUBA_THRESHOLD 17
#define BULK_MUL_TOOM3_THRESHOLD 260
#define BULK_MUL_TOOM4_THRESHOLD 10852
#define BULK_MUL_TOOM6_THRESHOLD 10852
#define BULK_MUL_TOOM8_THRESHOLD 13828
/* the same for squaring */
#define BULK_SQR_KARATSUBA_THRESHOLD 17
#define BULK_SQR_TOOM3_THRESHOLD 260
#define BULK_SQR_TOOM4_THRESHOLD 10852
#define BULK_SQR_TOOM6_THRESHOLD 10852
#define BULK_SQR_TOOM8_THRESHOLD SIZE_MAX /* never won up to 16384 limbs */
/* short product: split recursively from this n on, basecase below */
#define BULK_MULLO_THRESHOLD 17

#endif
