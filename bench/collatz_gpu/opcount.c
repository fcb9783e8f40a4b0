/* Operation counts of the CUDA Collatz kernels, measured on the CPU (METHOD.md: count first).
 *
 * Runs the kernels' own per-number functions (cg_core.h, with its CG_COUNT hook switched on)
 * on sampled numbers near 2^68 (verify) and 2^64 (delays) and reports, per iterated number,
 * the table steps (phase A: v >= n 2^d), the dip tests with the BM table (phase B) and the
 * single steps of the one replayed operation; per delay, the table steps. With the per-event
 * instruction counts of the fast kernel (docs/collatz-gpu.md derives them from the code:
 * 26 per table step, 15 per dip test, 12 per single step, 60 per number; 15 per two-limb delay
 * step) it predicts the
 * rate on an H100 from its integer issue rate (132 SMs x 64 INT32 lanes x 1.755 GHz = 1.48e13
 * instructions/s on one pipe; the fast loop mixes IMAD (FMA pipe) and IADD3/LOP3/SHF (ALU
 * pipe), so up to 2x that).
 *
 * Usage: bench_collatz_gpu_opcount [--kmax K (<= 32)] [--rows R]. CPU only; prints a table. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t cnt_table_step, cnt_bm_check, cnt_single_step, cnt_delay_step, cnt_t_step, cnt_rec_test;
#define CG_COUNT(event) (cnt_##event++)

#include "collatz/collatz_internal.h"
#include "collatz/cuda/cg_core.h"
#include "collatz/cuda/cg_plan.h"
#include "collatz/cuda/cg_verify_uni.h"

typedef unsigned __int128 u128;

/* instructions per event of the fast kernel (see docs/collatz-gpu.md) */
#define I_NUMBER 60.0
#define I_TABLE 26.0
#define I_BM 15.0
#define I_SINGLE 12.0
#define I_DELAY 15.0 /* the two-limb step (values below 2^64: nearly all steps) */
#define INT_RATE 1.48e13 /* one integer pipe of an H100 SXM at 1.755 GHz */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    int kmax = 28, rows = 2;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--kmax")) kmax = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rows")) rows = atoi(argv[++i]);
    }
    if (kmax < 8 || kmax > 32 || rows < 1) {
        fprintf(stderr, "usage: bench_collatz_gpu_opcount [--kmax 8..32] [--rows R]\n");
        return 2;
    }
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 0) != BULK_OK) return 1;
    printf("## verify, n near 2^68: events per iterated number, predicted H100 rate (one pipe .. two)\n");
    printf("%-3s %-3s %9s %8s %8s %8s %8s %10s %12s %12s\n", "k", "d", "s_k/2^k", "table", "dip", "single",
           "escape%", "instr/it", "pred lo/s", "pred hi/s");
    for (int k = 16; k <= kmax; k += 4) {
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, ctx, 12, k, 0) != BULK_OK) return 1;
        for (int d = 8; d <= 20; d += 2) {
            uint64_t *B = malloc(((size_t)8) << d), *C = malloc(((size_t)8) << d),
                     *MX = malloc(((size_t)8) << d), *BC = malloc(((size_t)8) << d),
                     *BM = malloc(((size_t)8) << d);
            uint8_t *J = malloc((size_t)1 << d);
            bulk_cz_build_tables(d, B, C, J, MX);
            cg_pack_tables(d, B, C, BC, BM);
            const uint64_t nrec = cg_rec_total(d);
            uint32_t *ROFF = malloc((((size_t)1 << d) + 1) * sizeof *ROFF);
            uint64_t *REC = malloc(nrec * sizeof *REC + 8);
            uint8_t *RST = malloc(nrec + 1);
            cg_rec_tables(d, ROFF, REC, RST);
            uint64_t rec_it = 0, uni_it = 0, uni_hist[17] = { 0 }; /* trips per number, 16 = more */
            uint64_t uni1_it = 0; /* the same with the first record in the dip trip (variant 5) */
            /* the UNIFORM table (d <= CG_UNI_MAX_D; n near 2^68 >= 2^(3d+2) for d <= 16) */
            uint32_t *UT = d <= CG_UNI_MAX_D ? malloc(cg_uni_entries((unsigned)d) * 16) : NULL;
            if (UT) cg_uni_build((unsigned)d, B, C, J, UT);
            uint32_t *UT1 = d <= CG_UNI_MAX_D ? malloc(cg_uni1_entries((unsigned)d) * 16) : NULL;
            if (UT1) cg_uni1_build((unsigned)d, B, C, J, UT1);
            cnt_table_step = cnt_bm_check = cnt_single_step = cnt_t_step = 0;
            uint64_t numbers = 0, escapes = 0;
            /* warp model of the one-number-per-lane loop: 32 lanes (consecutive entries, as in
             * the ENTRY layout) pay the slowest lane's cost; lane_it: iterations of the lane form */
            double warp_cost = 0, group_max = 0, lane_cost = 0;
            uint64_t lane_it = 0, lane_tables = 0;
            int in_group = 0;
            uint64_t stride = e->s_k > 200000 ? e->s_k / 200000 : 1; /* sample the entries */
            for (int r = 0; r < rows; r++) {
                u128 nH = ((u128)1 << (68 - k)) + (rnd() >> (64 - (68 - k - 1)));
                for (uint64_t i = rnd() % stride; i < e->s_k; i += stride) {
                    cg_u128 n = cg_form_n((uint64_t)nH, (uint64_t)(nH >> 64), k, e->Sr[i]);
                    int64_t g = cg_iterate(n, (uint64_t)nH, (uint64_t)(nH >> 64),
                                           bulk_cz_pow3[e->Sj[i]], e->Sc[i], (int64_t)k + e->Sj[i],
                                           (unsigned)d, BC, BM, J);
                    numbers++;
                    escapes += g < 0;
                    cg_u128 v;
                    if (!cg_prefix(&v, (uint64_t)nH, (uint64_t)(nH >> 64), bulk_cz_pow3[e->Sj[i]], e->Sc[i])) {
                        uint64_t t0 = cnt_table_step, s0 = cnt_t_step, b0 = cnt_bm_check;
                        int64_t g2 = cg_glide_lane(v, n, (int64_t)k + e->Sj[i], (unsigned)d, BC, BM, J);
                        if (g2 != g) {
                            fprintf(stderr, "opcount: lane form differs\n");
                            return 1;
                        }
                        uint64_t it = (cnt_table_step - t0) + (cnt_t_step - s0);
                        lane_tables += cnt_table_step - t0;
                        /* the record-replay lane form: its iterations, counters restored */
                        const uint64_t t1 = cnt_table_step, r1 = cnt_rec_test, s1 = cnt_t_step;
                        if (cg_glide_lane_rec(v, n, (int64_t)k + e->Sj[i], (unsigned)d, BC, BM, J, ROFF, REC, RST) != g) {
                            fprintf(stderr, "opcount: record lane form differs\n");
                            return 1;
                        }
                        rec_it += (cnt_table_step - t1) + (cnt_rec_test - r1) + (cnt_t_step - s1);
                        const uint64_t u0 = uni_it;
                        if (UT && cg_glide_uni(v, n, (int64_t)k + e->Sj[i], (unsigned)d, UT, &uni_it) != g) {
                            fprintf(stderr, "opcount: uniform trips differ\n");
                            return 1;
                        }
                        if (UT) uni_hist[uni_it - u0 < 16 ? uni_it - u0 : 16]++;
                        if (UT1 && cg_glide_uni1(v, n, (int64_t)k + e->Sj[i], (unsigned)d, UT1, &uni1_it) != g) {
                            fprintf(stderr, "opcount: uniform trips with the first record differ\n");
                            return 1;
                        }
                        lane_tables += cnt_table_step - t1;
                        cnt_t_step = s1;
                        cnt_rec_test = r1;
                        cnt_bm_check = b0;
                        lane_it += it;
                        double c = (double)it; /* cost in lane iterations */
                        lane_cost += c;
                        if (c > group_max) group_max = c;
                        if (++in_group == 32) {
                            warp_cost += 32 * group_max;
                            group_max = 0;
                            in_group = 0;
                        }
                    }
                }
            }
            cnt_table_step -= lane_tables;
            double ta = (double)cnt_table_step / numbers, tb = (double)cnt_bm_check / numbers,
                   ts = (double)cnt_single_step / numbers;
            double instr = I_NUMBER + ta * I_TABLE + tb * I_BM + ts * I_SINGLE;
            double frac = (double)e->s_k / (double)((uint64_t)1 << k);
            printf("%-3d %-3d %9.5f %8.2f %8.2f %8.2f %8.4f %10.1f %12.3g %12.3g\n", k, d, frac, ta, tb, ts,
                   100.0 * escapes / numbers, instr, INT_RATE / (instr * frac), 2 * INT_RATE / (instr * frac));
            printf("    lane form: %.2f iterations / number (record replays: %.2f; uniform trips: %.2f, with the "
                   "first record in the dip trip %.2f); one-number-per-lane warps pay %.2fx the mean (max of 32 lanes)\n",
                   (double)lane_it / numbers, (double)rec_it / numbers, (double)uni_it / numbers, (double)uni1_it / numbers,
                   lane_cost > 0 ? warp_cost / (lane_cost - 0) : 0.0);
            if (UT && d == 12) {
                /* the trip distribution: what a two-phase design (P fixed trips, the rest queued)
                 * would waste and queue (docs/collatz-gpu.md "Uniform trips", direction (a)) */
                printf("    uniform trips per number (d = 12):");
                double cum = 0;
                for (int t = 1; t <= 16; t++) {
                    cum += (double)uni_hist[t] / numbers;
                    if (uni_hist[t]) printf(" %s%d: %.3f", t == 16 ? ">=" : "<=", t, cum);
                }
                printf("\n");
            }
            free(UT);
            free(UT1);
            free(ROFF);
            free(REC);
            free(RST);
            free(B);
            free(C);
            free(MX);
            free(BC);
            free(BM);
            free(J);
        }
        bulk_collatz_engine_free(e);
    }
    printf("\n## delays, n near 2^64: table steps per number, predicted H100 rate (compute only)\n");
    printf("%-3s %-3s %8s %10s %12s\n", "a", "d", "steps", "instr/n", "pred lo/s");
    for (int a = 16; a <= 28; a += 4) {
        for (int d = 8; d <= 20 && d <= a; d += 4) {
            uint64_t *B = malloc(((size_t)8) << d), *C = malloc(((size_t)8) << d),
                     *MX = malloc(((size_t)8) << d), *BC = malloc(((size_t)8) << d);
            uint8_t *J = malloc((size_t)1 << d);
            uint16_t *A = calloc((size_t)1 << a, 2); /* values do not matter for the counts */
            bulk_cz_build_tables(d, B, C, J, MX);
            cg_pack_tables(d, B, C, BC, NULL);
            cnt_delay_step = 0;
            const int N = 200000;
            for (int i = 0; i < N; i++) {
                u128 n = ((u128)1 << 64) + rnd();
                (void)cg_delay(cg_make((uint64_t)n, (uint64_t)(n >> 64)), (unsigned)d, (unsigned)a, BC, J, A);
            }
            double st = (double)cnt_delay_step / N, instr = 20 + st * I_DELAY;
            printf("%-3d %-3d %8.2f %10.1f %12.3g\n", a, d, st, instr, INT_RATE / instr);
            free(B);
            free(C);
            free(MX);
            free(BC);
            free(J);
            free(A);
        }
    }
    bulk_ctx_close(ctx);
    return 0;
}
