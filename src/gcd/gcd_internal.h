/* Internal pieces of the shared-factor area (src/gcd): large division with the NTT
 * multiplication, the levels of the product and remainder trees and their spilling to disk.
 * Numbers are mpn (int/mpn.h): 64-bit limbs, least significant first, explicit lengths. */
#ifndef BULK_GCD_INTERNAL_H
#define BULK_GCD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "backend/context.h"
#include "backend/report.h"
#include "bulk/gcd.h"
#include "atomic_file.h"
#include "int/mpn.h"

/* ---- large division (bigdiv.c) ------------------------------------------------------------ */

/* Divisor size (limbs) from which gcd_mod uses its own Newton reciprocal and Barrett step on
 * bulk_mpn_mul_big (NTT) instead of bulk_mpn_divmod (whose Newton division multiplies with
 * Toom until the NTT is hooked into bulk_mpn_mul). */
#define GCD_BIGDIV_THRESHOLD 2000

/* v (n + 2 limbs, zero-padded) = floor(B^(2n) / d), B = 2^64, d of n >= 1 limbs with
 * d[n-1] != 0. Exact: a Newton step on the reciprocal of the top half, then a check of
 * B^(2n) - d v that moves v to the exact floor. Returns BULK_OK or BULK_ERR_NOMEM. */
int gcd_recip(bulk_limb_t *v, const bulk_limb_t *d, size_t n);

/* r (dn limbs, zero-padded) = a mod d; an >= 1, dn >= 1, d[dn-1] != 0, r disjoint from a and d.
 * threads: passed to the products (gcd_mul: CPU threads, | GCD_MUL_GPU to allow the GPU NTT).
 * Returns BULK_OK or BULK_ERR_NOMEM. */
int gcd_mod(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *d, size_t dn,
            int threads);

/* A divisor prepared for several reductions (gcd_mod_by): d (dn limbs, d[dn-1] != 0, not
 * copied: it must outlive D) and, from GCD_BIGDIV_THRESHOLD limbs, the reciprocal of all its
 * limbs (one Newton reciprocal instead of one per reduction). BULK_OK or BULK_ERR_NOMEM. */
typedef struct gcd_divisor {
    const bulk_limb_t *d;
    size_t dn;
    bulk_limb_t *v;
} gcd_divisor;
int gcd_divisor_init(gcd_divisor *D, const bulk_limb_t *d, size_t dn, int threads);
void gcd_divisor_free(gcd_divisor *D);
/* r (dn limbs, zero-padded) = a mod D->d, as gcd_mod (any an >= 1). */
int gcd_mod_by(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const gcd_divisor *D, int threads);

/* Largest correction (in units) that gcd_recip's final check has had to apply since the start
 * of the process (relaxed counter for the tests: it proves that the Newton recursion, which
 * runs without checks below the top, is accurate). */
unsigned long long gcd_recip_max_fix(void);
/* The same for gcd_mod's quotient correction (steps of d after the Barrett estimate). */
unsigned long long gcd_mod_max_fix(void);
/* How many reductions gave up an estimate more than 64 steps off and divided exactly
 * (bulk_mpn_divmod) instead: a guard against a wrong reciprocal or product; 0 in every run. */
unsigned long long gcd_mod_exact_count(void);

/* ---- large products (gcd_mul.c) ---------------------------------------------------------- */

/* A flag OR'd into the `threads` arguments of gcd_mul, gcd_mod and the trees' per-node work:
 * products of at least 2^((mt >> GCD_MUL_GPU_LOG_SHIFT) & 31) limbs (an + bn) may run on the GPU
 * NTT of device (mt >> GCD_MUL_DEVICE_SHIFT) & GCD_MUL_DEVICE_MASK (gcd_mul_flags puts the
 * context's threshold and device there). The thread count is mt & GCD_MUL_THREADS_MASK. */
#define GCD_MUL_THREADS_MASK 0xffff
#define GCD_MUL_DEVICE_SHIFT 16
#define GCD_MUL_DEVICE_MASK 0xff
#define GCD_MUL_GPU (1 << 24)
#define GCD_MUL_GPU_LOG_SHIFT 25
/* Default for gcd_gpu_ntt_limbs (an + bn limbs; 0: never). intntt's round-1 table (H200,
 * bulk_int_cuda_mul_big with the copies): 16384 x 16384 limbs 0.4 ms against 4.2 ms for GMP
 * on one core, 1M x 1M 11 ms against 333 ms for the CPU NTT on 3 threads. */
#define GCD_GPU_NTT_LIMBS 4096
/* GCD_GPU_NTT_LIMBS, or the context's tuning gcd.gpu_ntt (limbs, 0 or a power of two; 0 = off). */
size_t gcd_gpu_ntt_limbs(const bulk_ctx *ctx);
/* GCD_MUL_GPU with the threshold's logarithm on a CUDA context when gcd_gpu_ntt_limbs(ctx) > 0,
 * else 0. */
int gcd_mul_flags(const bulk_ctx *ctx);
/* r (an + bn limbs) = a * b, r disjoint from a and b (a == b with an == bn allowed). mt: CPU
 * threads for the CPU NTT, optionally | gcd_mul_flags (then the GPU NTT from
 * the threshold the flags carry, its result checked modulo 2^64 - 1; the CPU on any failure or
 * mismatch). Never fails. */
void gcd_mul(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b, size_t bn, int mt);
/* Products that went to the GPU, GPU calls that failed and ran on the CPU, and GPU products
 * that came back wrong (checked modulo 2^64 - 1) and were redone on the CPU, since the start of
 * the process (statistics for the tests and the benchmark). */
void gcd_mul_counts(unsigned long long *gpu, unsigned long long *fallback, unsigned long long *bad);

/* ---- tree levels (spill.c) ---------------------------------------------------------------- */

/* Where and how levels are spilled, and what went wrong (shared by the two trees). */
typedef struct gcd_spill {
    const char *dir;      /* directory of the spill files ($TMPDIR or /tmp when NULL) */
    int err;              /* errno of the first failure (EIO: short read or bad checksum) */
    uint64_t bytes;       /* bytes written (statistics) */
    size_t levels;        /* product levels written (statistics) */
    size_t rem_levels;    /* remainder levels written (statistics) */
    uint64_t fail_at;     /* the context's gcd_spill_fail_at (gcd_test_spill_fail_at; 0: never) */
} gcd_spill;

/* Limbs per spill chunk and per node block: a level is written, checksummed and read back in
 * chunks of consecutive nodes holding at most this many limbs (a larger node is a chunk of its
 * own), and the remainder tree works through a level in blocks cut by the same rule
 * (gcd_level_block_end), so that a spilled product level is read one chunk per block. 64 MiB;
 * gcd_block_limbs is the value in force (the tests make it small to get many chunks). */
#define GCD_BLOCK_LIMBS ((size_t)1 << 23)
extern size_t gcd_block_limbs;
/* Fault injection for the tests (the context's tune.gcd_spill_fail_at, which no tuning key
 * sets): when nonzero, a spill write that would take the run's spilled bytes past this many
 * fails as a full disk would (ENOSPC); so does a checkpoint write past this many checkpoint
 * bytes (counted apart). 0 in normal use. */
void gcd_test_spill_fail_at(bulk_ctx *ctx, uint64_t bytes);

/* One level of a tree: `count` numbers; number j lives at limbs off[j] .. off[j] + len[j] of
 * the level (normalized: len[j] >= 1 and the top limb is nonzero, except the number 0 with
 * len 1), with room up to off[j + 1]. In memory: data holds the limbs dbase .. of the nodes
 * [wlo, whi) (the window; the whole level: dbase = 0, [0, count)); data is NULL when nothing
 * is loaded. Spilled: the off[count] limbs are in the file open as fd, in nchunk chunks of
 * nodes [chunk[c], chunk[c + 1]), each with its checksum sum[c]. */
typedef struct gcd_level {
    size_t count;
    size_t *off; /* count + 1 entries */
    size_t *len; /* count entries */
    bulk_limb_t *data;
    size_t dbase, wlo, whi; /* data[0] is limb dbase; nodes [wlo, whi) are in data */
    int borrowed; /* data belongs to the caller (the leaves): never freed nor spilled */
    int view;     /* off and len belong to another level too: gcd_level_free frees nothing */
    int fd;       /* spill file (already unlinked), -1 when never spilled */
    int saved;    /* fd is a finished checkpoint file holding the whole level (checkpoint.c) */
    size_t nchunk, chunk_cap;
    size_t *chunk;   /* nchunk + 1 node boundaries of the chunks written so far */
    uint64_t *sum;   /* checksum of each chunk */
} gcd_level;

/* Allocates off, len (count entries), no data, fd = -1. Returns BULK_OK or BULK_ERR_NOMEM. */
int gcd_level_init(gcd_level *L, size_t count);
/* Allocates data for all off[count] limbs after the caller has filled off (window: all). */
int gcd_level_alloc_data(gcd_level *L);
/* Allocates data for the nodes [j0, j1) only (a window; the limbs off[j0] .. off[j1]). */
int gcd_level_alloc_window(gcd_level *L, size_t j0, size_t j1);
/* A view of L that shares its arrays and owns nothing (gcd_level_free on it frees nothing). */
gcd_level gcd_level_view(const gcd_level *L);
/* The end of the block of nodes that starts at j0: the most nodes from j0 whose limbs fit
 * GCD_BLOCK_LIMBS, at least one. Spill chunks and the remainder tree's blocks follow it. */
size_t gcd_level_block_end(const gcd_level *L, size_t j0);
/* Writes the whole level (resident) to a new spill file in sp->dir, in chunks, and frees its
 * data (a level already written whole to a file, a checkpoint's, only frees its data). The file is unlinked right after it is created (O_TMPFILE where the file system has
 * it): it lives only as long as the open fd, so no path ever names a partial level and nothing
 * is left behind on any exit. BULK_ERR_IO (sp->err = errno: ENOSPC for a full disk, EFBIG past
 * a file size limit) or BULK_ERR_NOMEM. Counts a product level in sp->levels. */
int gcd_level_spill(gcd_level *L, gcd_spill *sp);
/* A level written piece by piece (the remainder tree's spilled levels): stream_begin opens its
 * file (no data); stream_put appends the current window (which must start where the chunks
 * written so far end) as one chunk and frees it. Errors as for gcd_level_spill. stream_begin
 * counts a remainder level in sp->rem_levels. */
int gcd_level_stream_begin(gcd_level *L, gcd_spill *sp);
/* The same with the caller's file fd (open for writing; the level owns it from here on): an
 * empty chunk table, nothing counted. BULK_OK or BULK_ERR_NOMEM. */
int gcd_level_file_begin(gcd_level *L, int fd);
/* Writes the whole resident level to L's file (after gcd_level_file_begin) in chunks, keeping
 * its data. Errors as for gcd_level_spill. */
int gcd_level_write_chunks(gcd_level *L, gcd_spill *sp);
int gcd_level_stream_put(gcd_level *L, gcd_spill *sp);
/* Reads a spilled level back whole and checks its length and checksums (BULK_ERR_IO, sp->err
 * = EIO, when either is wrong: a damaged spill never becomes a wrong answer). A no-op when the
 * level is resident. */
int gcd_level_load(gcd_level *L, gcd_spill *sp);
/* Makes the nodes [j0, j1) resident: nothing when the window holds them, else the window is
 * replaced by the chunks that cover them (checked as in gcd_level_load). */
int gcd_level_load_range(gcd_level *L, gcd_spill *sp, size_t j0, size_t j1);
/* Frees the data of a spilled level (its file stays, it can be loaded again). */
void gcd_level_drop(gcd_level *L);
/* Frees everything and closes the spill file. */
void gcd_level_free(gcd_level *L);
static inline bulk_limb_t *gcd_level_num(const gcd_level *L, size_t j)
{
    return L->data + (L->off[j] - L->dbase);
}
/* Checksum of the spill files (a 64-bit multiply-xorshift hash of the limbs in order). */
uint64_t gcd_limbs_sum(const bulk_limb_t *a, size_t n);

/* ---- checkpoints (checkpoint.c) ------------------------------------------------------------ */

/* A checkpoint directory of bulk_gcd_batch (opts->checkpoint_dir): the finished levels of the
 * product tree ("product-K", 1 <= K < levels - 1) and of the remainder tree ("value-K"), each a
 * file written atomically in the spill layout (chunks with checksums) plus a trailer, and a
 * "manifest" naming the inputs (their count, width and a 128-bit hash). A resumed level is
 * opened as a spilled level whose file is the checkpoint's. Errors of the checkpoint's own
 * writes go to sp (sp.err: the errno). */
enum { GCD_CKPT_PRODUCT = 0, GCD_CKPT_VALUE = 1, GCD_CKPT_OTHER = 1 };
typedef struct gcd_ckpt {
    char *dir;
    uint64_t id[2];     /* hash of the inputs */
    gcd_spill sp;       /* errors and bytes of the checkpoint's writes */
    bulk_afile af;      /* the level file being written */
    int writing;
    size_t read_levels; /* levels taken from the checkpoint */
} gcd_ckpt;
/* Creates dir (when missing) and its manifest, or checks the manifest against the inputs.
 * BULK_OK, GCD_CKPT_OTHER (the directory holds another run's checkpoint), BULK_ERR_IO (c->sp.err)
 * or BULK_ERR_NOMEM. gcd_ckpt_close in every case. fail_at: the spill's fault injection
 * (gcd_spill.fail_at), applied to the checkpoint's own bytes. */
int gcd_ckpt_open(gcd_ckpt *c, const char *dir, const bulk_limb_t *x, size_t n, size_t limbs,
                  uint64_t fail_at);
void gcd_ckpt_close(gcd_ckpt *c);
/* Starts the file of level k of `kind` (written through the atomic file module): L's file is
 * its temporary from here on (gcd_level_stream_put appends to it). */
int gcd_ckpt_begin(gcd_ckpt *c, gcd_level *L, int kind, size_t k);
/* Appends the trailer, commits the file under its name and reopens it (read-only) as L's file:
 * L is then a spilled level that gcd_level_load reads back (resident data stays). */
int gcd_ckpt_end(gcd_ckpt *c, gcd_level *L, int kind, size_t k);
/* begin, every chunk of the resident level L, end. */
int gcd_ckpt_save(gcd_ckpt *c, gcd_level *L, int kind, size_t k);
/* L (count nodes) = the saved level k of `kind`, spilled (nothing resident). 1 when there is no
 * such file or it does not check out (other inputs, other shape, a damaged trailer); BULK_OK;
 * BULK_ERR_NOMEM. */
int gcd_ckpt_load(gcd_ckpt *c, gcd_level *L, int kind, size_t k, size_t count);
/* Removes the file of level k of `kind` (a level no longer needed to resume). */
void gcd_ckpt_remove(gcd_ckpt *c, int kind, size_t k);

/* ---- memory budget (batch.c) --------------------------------------------------------------- */

/* The plan of a batch run: which product levels stay in memory. Estimates in bytes for inputs
 * of in_bytes (n * limbs * 8) and a tree whose levels hold level_bytes (S) each (the sum of the
 * inputs' significant limbs: a product has as many limbs as its factors together):
 *   floor = 3 in_bytes + (10 + 12 min(threads, 4)) S: the inputs and the final arrays (q, g),
 *           a product level and two remainder levels of 2 S each, and the scratch of the nodes
 *           in flight near the top of the remainder tree, where one node is S / c for c nodes
 *           and its square, reciprocal and Barrett products need NTT buffers of up to about
 *           48 S / c each (min(threads, c) nodes at once). Calibrated on 1e5 moduli, 2
 *           threads: peak RSS 499 MB with every level spilled, about 35 S
 *           (a16ed0f:bench/results/2026-11-21-cpu-gcd-spill.txt);
 *   need  = floor + (levels - 2) S: every product level resident.
 * keep = how many of the spillable levels (1 .. levels - 2) stay resident: the top `keep`
 * ones (the remainder tree meets them first and frees them early).
 * Below the floor (and with n >= 4), groups = the least k in 2 .. GCD_MAX_GROUPS (and
 * <= n / 2) for which the grouped method's floor, 3 in_bytes + (44 + 12 min(threads, 4)) S_k
 * with S_k the level size of a group of ceil(n / k) inputs, fits the budget (gcd_batch_grouped);
 * when none does, groups = the largest allowed and over_budget is set. Otherwise groups = 1.
 * The group floor is larger per level than one tree's: the cross-group remainder trees start
 * at P_j mod P_i^2, as large as P_i^2, so their top divisions have full-size quotients
 * (calibrated: 1e5 moduli, 2 threads, 3 groups, peak RSS about 330 MB = 3 I + 68 S_k).
 * These estimates were calibrated with an earlier remainder tree (squares, remainder levels of
 * 2 S, cross trees started at P_j mod P_i^2; docs/perf/gcd.md); the Q form (remainder_tree.c)
 * needs less, so they err on the safe side. */
#define GCD_MAX_GROUPS 64
typedef struct gcd_plan {
    uint64_t budget, floor, need, level_bytes;
    size_t levels, keep, groups;
    int over_budget;
} gcd_plan;
void gcd_plan_make(gcd_plan *p, size_t n, size_t levels, uint64_t in_bytes, uint64_t level_bytes,
                   int threads, size_t max_memory, int force_spill);
/* Half the physical memory (the default budget); 4 GiB when the system does not say. */
uint64_t gcd_default_budget(void);

/* ---- trees (product_tree.c, remainder_tree.c) ---------------------------------------------- */

/* A product tree: level 0 the leaves, level k+1 node j = level k nodes 2j and 2j+1 multiplied
 * (a last node without a sibling is carried up unchanged); the top level has one node. */
typedef struct gcd_tree {
    size_t levels;
    gcd_level *lv;
} gcd_tree;

/* Builds the tree over the leaves (a borrowed, resident level 0). Level k (1 <= k < levels - 1
 * - keep) is spilled as soon as level k + 1 is built. A level whose nodes have at most
 * gcd_batched_limbs(ctx, 0) limbs is built by batched bulk_int_mul calls (the GPU on a CUDA
 * context), the others node by node on the context's threads (the NTT for large nodes). !need_top:
 * the root (the product of all leaves, which the Q form of the remainder tree never reads) is
 * not computed: the top level holds a placeholder 0. o (may be NULL): the progress callback.
 * ck (may be NULL): the levels 1 .. K that the checkpoint holds are taken from it (as spilled
 * levels), the tree goes on from level K, and every level built below the root is saved there.
 * Returns BULK_OK, BULK_ERR_NOMEM or BULK_ERR_IO; on error the tree is freed. */
int gcd_product_tree(gcd_tree *T, const gcd_level *leaves, bulk_ctx *ctx, size_t keep,
                     int need_top, gcd_spill *sp, bulk_progress_run *o, gcd_ckpt *ck);
void gcd_tree_free(gcd_tree *T);

/* *out (allocated here: count = leaves, limbs limbs each, zero-padded) = (P / x_i) mod x_i for
 * every leaf x_i (P the product of the leaves: the top of T), descending level by level with
 * Q_top = 1 and Q_y = ((Q_z mod y) (y' mod y)) mod y for a node y with parent z and sibling y'
 * (remainder_tree.c says why). plain (with start): instead R_top = start's one number, which
 * must be below P, and R_y = R_z mod y: *out = start mod x_i. Spilled product levels are
 * loaded; each product level and each value level is freed as soon as the next is done (T is
 * consumed). A level whose nodes have at most gcd_batched_limbs(ctx, 1) limbs goes through
 * batched bulk_int_divmod and bulk_int_mul calls (the GPU on a CUDA context), the others node
 * by node. spill_rem: the value levels 1 .. top - 1 are spilled too: each is computed in
 * blocks of nodes (gcd_level_block_end of its product level, whole sibling pairs), reading the
 * product level and the parent values a chunk at a time and writing each block to the level's
 * spill file, so that only blocks are resident (the top levels, whose nodes are larger than a
 * block, run one pair of nodes at a time then). ck (may be NULL): every value level is saved
 * there as it is finished, and the levels that resuming no longer needs (the value level above,
 * the product levels above) are removed. from (may be NULL, taken over): the values of level
 * from_k (from the checkpoint), where the descent starts instead of the top; T's levels from_k
 * and above are then empty. Returns BULK_OK, BULK_ERR_NOMEM or BULK_ERR_IO. */
int gcd_remainder_tree(bulk_limb_t **out, size_t limbs, gcd_tree *T, const gcd_level *start,
                       int plain, bulk_ctx *ctx, int spill_rem, gcd_spill *sp,
                       bulk_progress_run *o, gcd_ckpt *ck, gcd_level *from, size_t from_k);

/* ---- batched levels (tree_batched.c) ------------------------------------------------------- */

/* Default widest node (limbs) of a level whose products (product tree) or reductions and
 * products (remainder tree) go through batched bulk_int calls on a CUDA context: chosen per
 * level from the GPU rounds' per-level times (docs/gcd.md). The GPU kernels take up to 8192
 * limbs per number (a remainder level divides numbers of twice the node width by the nodes). */
#define GCD_GPU_MUL_LIMBS 4096
#define GCD_GPU_REM_LIMBS 1024
/* ... and only levels of at least this many nodes: the GPU's division is one thread per
 * instance, so a level of few wide nodes leaves it latency-bound (H200: 1500 moduli, levels
 * of 23 .. 1500 nodes, took 2.35 s on the GPU against 0.49 s on the host cores; docs/perf/gcd.md). */
#define GCD_GPU_MIN_NODES 4096
/* The widest node for which level work is batched on this context: GCD_GPU_*_LIMBS on a
 * CUDA context, 0 (never: one CPU product or division per node) on the CPU; the tuning keys
 * gcd.batched_mul and gcd.batched_rem (limbs) override it on any context
 * (the tests batch on the CPU backend, the GPU rounds measure thresholds). rem: 0 product
 * tree, 1 remainder tree. */
size_t gcd_batched_limbs(const bulk_ctx *ctx, int rem);
/* 1 when level L (the lower level of a product step, or the product level of a remainder
 * step) goes through the batched path: gcd_batched_limbs(ctx, rem) > 0, all its nodes at most
 * that wide, and at least GCD_GPU_MIN_NODES nodes (the tuning gcd.batched_min overrides it; the
 * tests set 1). */
int gcd_level_batched(const bulk_ctx *ctx, int rem, const gcd_level *L);
/* The largest len[j] for j in [j0, j1). */
size_t gcd_level_max_len(const gcd_level *L, size_t j0, size_t j1);
/* hi nodes [h0, h1) = products of lo nodes 2j and 2j + 1 (a last node without a sibling
 * copied), through one bulk_int_mul at the widest width; lo's nodes resident, hi's room set by
 * the product tree. BULK_OK or BULK_ERR_NOMEM (nothing else can fail). */
int gcd_product_nodes_batched(bulk_ctx *ctx, const gcd_level *lo, gcd_level *hi, size_t h0,
                              size_t h1);
/* rem nodes [j0, j1) (j0 even; j1 even or the level's end) = ((up[j / 2] mod y) (y' mod y))
 * mod y for y = node[j], y' its sibling (1 when it has none or plain is set), through
 * bulk_int_divmod and bulk_int_mul at the widest width (nodes, their parents' values and the
 * rem window resident). */
int gcd_remainder_nodes_batched(bulk_ctx *ctx, const gcd_level *node, const gcd_level *up,
                                gcd_level *rem, int plain, size_t j0, size_t j1);

/* ---- grouped batch GCD (grouped.c) ---------------------------------------------------------- */

/* bulk_gcd_batch for inputs whose whole tree exceeds the memory budget: the n inputs in k
 * groups (k >= 2) of consecutive inputs, g_i = gcd(x_i, a_i * prod_{j != G(i)} (P_j mod x_i)
 * mod x_i) with a_i = (P_G(i) mod x_i^2) / x_i and P_j the product of group j: equal to
 * gcd(x_i, (P / x_i) mod x_i), P the product of all inputs. The group products go to spill
 * files; every (group, group) pair rebuilds the group's tree (every spillable level spilled)
 * and runs one remainder tree: about k times the work of the plain method, for trees of n / k
 * leaves. Statistics go to sp. Returns BULK_OK, BULK_ERR_NOMEM or BULK_ERR_IO; g is written
 * only on success. */
int gcd_batch_grouped(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *x, size_t n,
                      size_t limbs, size_t k, gcd_spill *sp, bulk_progress_run *o);
/* Argument checks of the public functions (batch.c), reported under fn: ctx, x, limbs, n;
 * every input >= 2. */
int gcd_check_args(const char *fn, const bulk_ctx *ctx, const void *x, size_t n, size_t limbs);
int gcd_check_inputs(const char *fn, const bulk_ctx *ctx, const bulk_limb_t *x, size_t n,
                     size_t limbs);

/* Progress of the two trees ("gcd.batch", started by bulk_gcd_batch with 2 (levels - 1) + 1
 * tree levels in all): done levels so far. o NULL (a group's trees): nothing. Returns BULK_OK,
 * or BULK_ERR_CANCELLED once the callback asked to stop. */
static inline int gcd_tree_progress(bulk_progress_run *o, size_t done, size_t levels)
{
    (void)levels;
    return o ? bulk_progress_step(o, (double)done, 0) : BULK_OK;
}

#endif
