/* Internal interface of the Collatz area: the engine (tables), the sieve, the exact path, the
 * checkpoint file and bound parsing. Not installed; programs and tests may include it. */
#ifndef BULK_COLLATZ_INTERNAL_H
#define BULK_COLLATZ_INTERNAL_H
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/report.h"
#include "bulk/collatz.h"
#include "collatz/collatz_core.h"
#include "collatz/converge_core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bulk_collatz_engine {
    int d, k, a;
    int threads;
    const bulk_ctx *ctx; /* the context it was made on: the CUDA paths read its tuning */
    /* tables of d base bits (2^d entries each), see collatz_core.h; MB the dip table */
    uint64_t *B, *C, *MX, *MB;
    uint64_t MXmax; /* the largest MX entry (at least 1): the bound of any one table operation */
    uint8_t *J;
    /* sieve of k bits: s_k mandatory residues r with their state after k halvings:
     * n = 2^k nH + r  ->  3^Sj[i] * nH + Sc[i]. Stored in the order the sieve walk found them. */
    uint64_t s_k;
    uint64_t *Sr, *Sc;
    uint8_t *Sj;
    /* sum of the glides of all eliminated residues mod 2^k (one aligned block's share) */
    uint64_t G_k;
    /* delays A[n] and peaks P[n] of all n < 2^a (a > 0) */
    uint16_t *A;
    uint64_t *P;
    /* merge classes of M bits for delays (a > 0): n = 2^M nH + r becomes 3^j nH + c after M
     * halvings and j odd steps; residues with equal (j, c) share the rest of the trajectory.
     * cls[r] (2^M entries) is r's class; class q has cls_j[q], cls_c[q]; ncls classes. */
    int M;
    uint32_t ncls;
    uint32_t *cls;
    uint64_t *cls_c;
    uint8_t *cls_j;
    /* the classes are built by the first CPU delays call that needs them (0.1 s, 24 MB that
     * `delay N`, records and GPU runs never use): cls_lock guards that one build; cls_status
     * keeps its outcome (1 = not built yet) */
    pthread_mutex_t cls_lock;
    int cls_status;
    /* dip-scan tables of the CPU glide kernel (cpu/glide_fast.h; built for d <= 16, else NULL):
     * for operation L the state after its t-th halving (t = 1..d) is b_t vH + c_t after
     * Ts[16 L + t - 1] steps, with b_t = Tb[16 L + t - 1] (<= 3^d < 2^31) and
     * c_t = Tc[16 L + t - 1] < b_t; entries t > d hold Tb = INT32_MAX (never a dip). */
    int32_t *Tb;
    uint32_t *Tc;
    uint8_t *Ts;
    /* sieve extension (collatz/sieve_ext.c; CPU verify only, the GPU uses the stored level k):
     * kx bits above the stored sieve, so verify works in blocks of 2^(k + kx). xB, xC, xdj: the
     * tables of kx base bits (xdj = odd steps); the surviving kx-bit residues L for a stored
     * state with j odd steps are xL[xoff[j] .. xoff[j+1]); xinv[j] = 3^-j mod 2^kx; G_x the
     * glide sum of the residues eliminated at depths k+1..k+kx of one block of 2^(k+kx);
     * s_kx = s_(k+kx), the numbers iterated per such block. */
    int kx;
    uint64_t *xB, *xC;
    uint8_t *xdj;
    uint16_t *xL;
    uint32_t xoff[42];
    uint64_t xinv[41];
    uint64_t G_x, s_kx;
    /* convergence mode (bulk_collatz_engine_set_converge, converge.c): the stored sieve also
     * drops the classes proved by a smaller number, and verify skips the rows with n = 2, 4, 5, 8
     * mod 9; conv = 1, cv its tables */
    int conv;
    struct cz_conv *cv;
    /* pre-drop peaks in verify (bulk_collatz_engine_set_peaks, verify.c): peaks = 1; with
     * have_above, the hits above `above` */
    int peaks, have_above;
    bulk_collatz_wide above;
};

/* Largest sieve extension (bits above the stored sieve): the survivor lists hold u16 residues. */
#define BULK_CZ_MAX_EXT BULK_COLLATZ_MAX_EXT
/* Largest generated sieve K = k + kx (sieve_ext.c: beyond 40 the rare states with more than 40
 * odd steps take the exact reference path, whose count grows to ~1.5e6 per block at K = 46). */
#define BULK_CZ_MAX_K_GEN BULK_COLLATZ_MAX_K_GEN

/* Adds a sieve extension of x bits (0: none) to an engine with a stored sieve; e->k + x must be
 * at most BULK_CZ_MAX_K_GEN (bulk_collatz_engine_extend). BULK_ERR_ARG or BULK_ERR_NOMEM, with
 * the message on the engine's context. */
int bulk_cz_build_extension(struct bulk_collatz_engine *e, int x);

/* ---- convergence mode (converge.c) ---- */
/* Bits of the merge test (the chain depth E and the chains: converge_core.h). */
#define CZ_CONV_MERGE_BITS 20
struct cz_conv;
/* The tables for a stored sieve of k bits (BULK_ERR_NOMEM). */
int bulk_cz_conv_new(int k, struct cz_conv **out);
void bulk_cz_conv_free(struct cz_conv *cv);
/* The class n = 2^D m + p -> 3^j m + c (m >= 2^(k - D), D <= k) is proved by a smaller
 * predecessor (1) or not (0). */
int bulk_cz_conv_pred(const struct cz_conv *cv, int D, int j, uint64_t c, uint64_t p);
/* The same for m >= 2^m0_bits (D + m0_bits + 8 <= 120 keeps the products in 128 bits). */
int bulk_cz_conv_pred_m0(const struct cz_conv *cv, int D, int j, uint64_t c, uint64_t p, int m0_bits);
/* The chain tables (converge_core.h layout: CZ_CONV_POW3E counts, CZ_CONV_MAX_CHAINS chains
 * per residue), for the device copy. */
const uint8_t *bulk_cz_conv_nch(const struct cz_conv *cv);
const struct cz_chain *bulk_cz_conv_chains(const struct cz_conv *cv);
/* The residue p of depth D is the merge test's depth and shares its state with a smaller one. */
int bulk_cz_conv_merged(const struct cz_conv *cv, int D, uint64_t p);
/* n = 2, 4, 5, 8 mod 9: proved by (2n - 1) / 3 or (8n - 5) / 9 (1), else 0. */
int bulk_cz_conv_row_skip(unsigned n_mod_9);
/* Convergence mode reports no glides: checksum and the largest glide of r are set to 0 (every
 * backend, verify.c; the GPU stops each number at the table operation that proves a value below
 * n, without its exact glide). */
void bulk_cz_conv_clear_glides(bulk_collatz_verify_result *r);

/* Bits of the delay merge classes (889180 classes of 2^22 residues, 21.2%; 20 bits: 23.5%,
 * measured 1.1x slower, 16 bits: 29.4%, 1.3x slower; one-word class loop near 2^64). */
#define BULK_CZ_MERGE_BITS 22

/* Builds the merge classes of e->M bits (collatz/delays.c). */
int bulk_cz_build_classes(struct bulk_collatz_engine *e);
/* The classes, built on first use (thread-safe; the engine is otherwise read-only): BULK_OK or
 * the status of the failed build, the same for every later call. */
int bulk_cz_need_classes(const struct bulk_collatz_engine *e);

/* 3^j for j <= 40. */
extern const uint64_t bulk_cz_pow3[41];

/* Tables B, C, J, MX of d bits into arrays of 2^d entries (allocated by the caller). */
void bulk_cz_build_tables(int d, uint64_t *B, uint64_t *C, uint8_t *J, uint64_t *MX);
/* The dip table of d bits (collatz_core.h, cz_glide_step): MB[L] = the smallest b after a
 * halving inside operation L, the last state included. */
void bulk_cz_build_dip(int d, uint64_t *MB);

/* The dip-scan tables Tb, Tc, Ts of d <= 16 bits (16 entries per residue, see the engine). */
void bulk_cz_build_scan(int d, int32_t *Tb, uint32_t *Tc, uint8_t *Ts);

/* Delay and peak tables of all n < 2^a (A[0] = P[0] = 0). 0, or BULK_ERR_INTERNAL when a peak
 * would not fit 64 bits (it does for a <= 32). */
int bulk_cz_build_small(int a, uint16_t *A, uint64_t *P);

/* One mandatory number of a level-L walk booked as a CPU verify run books it, except its
 * `iterated` (verify.c; the GPU backend's host redo of escaped numbers). */
int bulk_cz_verify_mandatory(const bulk_collatz_engine *e, bulk_u128 n, int L,
                             bulk_collatz_verify_result *r);
/* The same with pre-drop peaks against the caller's running maximum and hit candidates (pk on
 * the result r, collatz/peak.h; NULL: as bulk_cz_verify_mandatory). */
struct cz_peaks;
int bulk_cz_verify_mandatory_pk(const bulk_collatz_engine *e, bulk_u128 n, int L,
                                bulk_collatz_verify_result *r, struct cz_peaks *pk);

/* One level of the sieve walk (seed 004 section 3.1, in the (j, c) form): the low i bits p of n
 * are fixed and n = 2^i m + p has become 3^j m + c after i halvings and j odd steps, with
 * 3^j' >= 2^i' at every depth so far. Fixing bit i to `bit` gives the state at depth i+1;
 * returns 1 when that state is eliminated (3^j < 2^(i+1)); then every n of the class with
 * m >= 1 drops below itself exactly at step (i+1) + j, its glide. */
BULK_HD int cz_sieve_child(int i, int *j, uint64_t *c, int bit)
{
    uint64_t c1 = *c + (bit ? bulk_cz_pow3[*j] : 0);
    if (c1 & 1) {
        c1 = 3 * c1 + 1;
        (*j)++;
    }
    *c = c1 >> 1;
    /* 3^j < 2^(i+1) */
    return (i + 1 >= 64) ? 1 : bulk_cz_pow3[*j] < ((uint64_t)1 << (i + 1));
}

/* The stored sieve of k bits (engine fields Sr, Sc, Sj, s_k, G_k), on `threads` threads. */
int bulk_cz_build_sieve(struct bulk_collatz_engine *e, int threads);

/* Exact multi-limb trajectory of n[0..nl). stop_at_glide: stop at the first value below n
 * (then *delay is not computed). Outputs may be NULL. BULK_ERR_OVERFLOW when the peak does not
 * fit peak_cap limbs, BULK_ERR_NOMEM. */
int bulk_cz_exact(const uint64_t *n, size_t nl, int stop_at_glide, uint64_t *delay,
                  uint64_t *glide, uint64_t *peak, size_t peak_cap, size_t *peak_limbs);

/* delay(n) for n >= 1 with the engine's tables (exact path on overflow); negative status on
 * failure. The engine needs a > 0. */
int64_t bulk_cz_delay_of(const struct bulk_collatz_engine *e, cz_u128 n);

/* glide(n) (n >= 2) and peak(n) (n >= 1, engine with a > 0) exactly into *out; the fast
 * 128-bit paths with the exact path behind them. BULK_ERR_OVERFLOW when a peak passes 2^128. */
int bulk_cz_glide_of(const struct bulk_collatz_engine *e, cz_u128 n, u128 *out);
int bulk_cz_peak_of(const struct bulk_collatz_engine *e, cz_u128 n, u128 *out);

/* Glide of a 128-bit n by the exact path (for overflows). */
int bulk_cz_exact_glide128(cz_u128 n, uint64_t *glide);

/* Records a failure with status st of a step of the public function fn that set no message of
 * its own: "<fn>: <what>: <status text>"; a BULK_ERR_CUDA keeps the message the CUDA check left
 * (backend/cuda/cuda_check.cuh). Returns st. */
int bulk_cz_fail_status(const bulk_ctx *ctx, int st, const char *fn, const char *what);

/* Bound expressions (the grammar of bulk_collatz_parse_bound, which wraps this one with its
 * argument checks and message). BULK_ERR_PARSE with *err_pos at the offending character,
 * BULK_ERR_OVERFLOW when the value or an intermediate needs more than 192 bits, BULK_ERR_ARG
 * when a subtraction goes below 0. Sets no message. */
int bulk_cz_parse_bound(const char *s, uint64_t out[3], size_t *err_pos);

/* u128 <-> decimal text (buf of 40 bytes suffices). */
void bulk_cz_u128_str(bulk_u128 v, char *buf);
int bulk_cz_u128_parse(const char *s, bulk_u128 *v);

/* The records of [first, last] (arguments checked by the caller) as bulk_collatz_records finds
 * them when origin = first; with origin < first the list of a slice of a run from origin, as
 * bulk_collatz_records_part_run describes (it holds every record of [origin, last] in the
 * slice). Progress, when pr is not NULL, goes to pr as done0 + numbers done (records.c). */
int bulk_cz_records(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                    bulk_u128 origin, bulk_u128 first, bulk_u128 last, bulk_collatz_record **recs,
                    size_t *count, bulk_progress_run *pr, double done0);
/* Records on a CUDA context (records_gpu.c). bulk_cz_records_gpu_takes: 1 when the GPU verify
 * runs the records of kind from `from` on in a run from origin whose records so far reach *best
 * (NULL: none yet; above: 1 for path records with --above): path records from 2 origin on (from
 * origin with above) once best > 0, on an engine with a stored sieve, in convergence mode only
 * with above or origin = 1; glide records once best reaches 2 (k + kx) (above every glide the
 * sieve eliminates; below 2^32 - 1), on an engine in full-glide mode.
 * bulk_cz_records_gpu: those records of [from, to] whose value beats *best, ascending (*recs
 * malloc'ed or NULL; BULK_ERR_INTERNAL when the CPU's check of a GPU candidate fails). */
int bulk_cz_records_gpu_takes(const bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                              bulk_u128 origin, bulk_u128 from, const bulk_collatz_wide *best, int above);
int bulk_cz_records_gpu(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind, bulk_u128 from,
                        bulk_u128 to, const bulk_collatz_wide *best, bulk_collatz_record **recs, size_t *count);
/* log2 of the numbers one GPU verify call takes (verify_run.c's waves, the GPU records' slices):
 * at least 2^44 and 64 blocks of the generated sieve's 2^(k + kx). */
int bulk_cz_gpu_wave_shift(const bulk_collatz_engine *e);
/* bulk_collatz_verify_chunk without its argument checks and message (any thread). */
int bulk_cz_verify_chunk(const bulk_collatz_engine *e, bulk_u128 first, bulk_u128 last,
                         bulk_collatz_verify_result *out);
/* The argument checks of the records functions (message naming fn). */
int bulk_cz_records_check(const bulk_ctx *ctx, const char *fn, const bulk_collatz_engine *e,
                          bulk_collatz_kind kind, bulk_u128 first, bulk_u128 last);
/* Delays and batch statistics likewise (delays.c; arguments checked by the caller). */
int bulk_cz_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first, uint64_t count,
                   uint32_t *out, bulk_progress_run *pr, double done0);
int bulk_cz_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                        uint64_t batch, uint64_t nbatches, uint64_t *sum, uint32_t *min,
                        uint32_t *max, bulk_progress_run *pr, double done0);

#ifdef __cplusplus
}
#endif
#endif
