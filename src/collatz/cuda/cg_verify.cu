/* bulk_collatz_cuda_verify_chunk: convergence verification of a range on the GPUs (seed 004
 * section 5, Algorithm 1), bit-identical to bulk_collatz_verify_chunk.
 *
 * The range is cut by cg_plan_chunk_x into the blocks verify.c visits. Level-k rows run, by
 * default, in the UNIFORM layout (k_uni: every trip of every lane the same code, cg_verify_uni.h),
 * in the lane-loop layout FLAT_BATCH (k_flat) where UNIFORM does not apply (d > 16 or small n),
 * and with the CORE kernel (d > 20) in the layouts of seed 004: the
 * ROWS layout of seed 004 Figure 4: a thread block takes one sieve entry (r, c, j), read once
 * and broadcast to all its threads, and its threads take consecutive rows nH, so every thread
 * of the block starts from the same k low bits; those k bits are consumed at once by the
 * entry's state 3^j nH + c (the limit of Figure 4's broadcast: no table lookup at all for the
 * shared bits). With few rows per entry the ENTRY layout (a thread per entry, rows in a loop)
 * keeps the threads busy instead. Blocks of level L < k (the two ends of a range) run in the
 * WALK layout: a thread per number walks the L-bit sieve itself. With a sieve extension
 * (sieve_ext.c) the level-(k + kx) rows run k_uni's extension runs (cg_ext_state).
 *
 * Tables B, C, J (packed BC + J for the fast kernel) sit in shared memory or are read from
 * global memory (option); the sieve S is resident whole when it fits the device, else streamed
 * in slices. Interim values live in registers (four 32-bit limbs, PTX carry chains). A number
 * whose value would leave 128 bits is written to an escape buffer in global memory; the host
 * finishes it with the engine's exact path while the GPU runs the next wave (section 5.1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/cuda/cg_host.h"
#include "collatz/cuda/cg_kernels.h"
#include "collatz/cuda/cg_plan.h"
#include "collatz/cuda/cg_verify_uni.h"

namespace {

/* ROWS, ENTRY: the CORE kernel's rows; WALK: range ends (both kernels); FLAT_BATCH: k_flat;
 * UNI: k_uni on stored rows, UNI_EXT: k_uni on extension rows (the unsorted runs) */
enum { MODE_ROWS = 0, MODE_ENTRY = 1, MODE_WALK = 2, MODE_FLAT_BATCH = 3, MODE_UNI = 4, MODE_UNI_EXT = 5 };
#define CG_NMODES 6

/* FLAT layout: rows of one entry per run (a thread's unit of work between entry loads) */
#define CG_FLAT_RUN 64

struct vparams {
    cg_ktables tb;
    int k, L;
    /* ROWS / ENTRY: entries [0, ne) of the resident slice, rows nH0 .. nH0 + nrows - 1 */
    const uint64_t *Sr, *Sc;
    const uint8_t *Sj;
    uint64_t ne;
    uint64_t nH0_lo, nH0_hi;
    uint64_t nrows, upe;
    uint32_t rpu;
    /* WALK: residues p0 .. p0 + np - 1 of the level-L block of row nH0 */
    uint64_t p0, np;
    /* outputs */
    cg_acc *acc;
    unsigned long long *esc;
    unsigned int *esc_count;
    uint32_t esc_cap;
    /* FLAT_BATCH: idle lanes of a warp that trigger a refill (cg_refill_now) */
    uint32_t refill;
    /* UNIFORM: the table of cg_uni_build (16-byte entries), 2^k (n of an entry's next row) and
     * 2^d - 1, as parameters so that the loop reads them as constant operands */
    const uint4 *uni;
    uint64_t nstep;
    uint32_t mask;
    /* the block level whose sieve state the host redoes an escape from (WALK: L; the WALK
     * fallback of extension rows: k, as verify.c block_extended) */
    int esc_L;
    /* sieve extension (EXT pieces, k_uni<D, true>): the engine's tables of kx bits on the device,
     * xmax = the longest survivor list (runs = entries x xmax x row chunks) */
    int kx;
    uint32_t xmax;
    const uint64_t *xB, *xC, *xinv;
    const uint32_t *xoff;
    const uint16_t *xL;
    const uint8_t *xdj;
    /* k_uni: the level the host redoes an escape from, plus one (0: p.k). The generated level-K
     * slices (run_ext_gen) run with k = K but escape from the stored level, as block_extended */
    int esc_k1;
    /* convergence mode (k_uni only, as verify.c block_stored/block_extended): rows with
     * n = 2, 4, 5, 8 mod 9 are skipped; s9 = nstep mod 9, the change of n mod 9 per row */
    int conv;
    uint32_t s9;
};

/* n mod 9 from the four limbs (2^32 = 4, 2^64 = 7, 2^96 = 1 mod 9). */
__device__ __forceinline__ uint32_t n_mod9(const cg_u128 &n)
{
    return (n.x0 % 9 + 4 * (n.x1 % 9) + 7 * (n.x2 % 9) + n.x3 % 9) % 9;
}

/* A mandatory number from its sieve state: the fast kernel (cg_core.h) or the engine's own
 * collatz_core.h functions. -1: escape. */
template <int KV>
__device__ __forceinline__ int64_t iterate(const cg_tabs &t, int d, cg_u128 n, uint64_t nH_lo,
                                           uint64_t nH_hi, uint64_t pow3j, uint64_t c, int64_t done)
{
    if (KV == BULK_CZ_CUDA_KERNEL_FAST)
        return cg_iterate(n, nH_lo, nH_hi, pow3j, c, done, (unsigned)d, t.BC, t.BM, t.J);
    cz_u128 v, nn = cz_make(cg_lo64(n), cg_hi64(n));
    if (!cz_sieve_start(&v, cz_make(nH_lo, nH_hi), pow3j, c)) return -1;
    return cz_glide_from(v, nn, done, d, t.B, t.C, t.J);
}

/* An escape record: n and the level L of its block (the host redoes n from its sieve state). */
__device__ __forceinline__ void escape(const vparams &p, cg_u128 n, int L)
{
    unsigned int i = atomicAdd(p.esc_count, 1u);
    if (i < p.esc_cap) {
        p.esc[3 * (size_t)i] = cg_lo64(n);
        p.esc[3 * (size_t)i + 1] = cg_hi64(n);
        p.esc[3 * (size_t)i + 2] = (unsigned long long)L;
    }
}

__device__ __forceinline__ void book(cg_acc &a, const vparams &p, cg_u128 n, int64_t g, int L)
{
    if (g < 0) {
        escape(p, n, L);
    } else {
        a.sum += (uint64_t)g;
        cg_acc_note(&a, (uint64_t)g, n);
    }
}

template <int KV, bool SH, int MODE> __global__ void __launch_bounds__(CG_MAX_THREADS) k_verify(vparams p)
{
    const cg_tabs t = cg_setup_tables<KV, SH>(p.tb);
    cg_acc a;
    cg_acc_init(&a);
    if (MODE == MODE_ROWS) {
        const uint64_t units = p.ne * p.upe;
        for (uint64_t u = blockIdx.x; u < units; u += gridDim.x) {
            uint64_t e, row0;
            cg_unit_map(u, p.upe, p.rpu, &e, &row0);
            /* one entry per block: the same address for every thread (broadcast) */
            const uint64_t r = p.Sr[e], c = p.Sc[e];
            const int j = p.Sj[e];
            const uint64_t pow3j = t.pow3[j];
            const int64_t done = (int64_t)p.k + j;
            for (uint32_t i = threadIdx.x; i < p.rpu; i += blockDim.x) {
                const uint64_t row = row0 + i;
                if (row >= p.nrows) break;
                const uint64_t lo = p.nH0_lo + row, hi = p.nH0_hi + (lo < row);
                const cg_u128 n = cg_form_n(lo, hi, p.k, r);
                a.iter++;
                book(a, p, n, iterate<KV>(t, p.tb.d, n, lo, hi, pow3j, c, done), p.k);
            }
        }
    } else if (MODE == MODE_ENTRY) {
        for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < p.ne;
             e += (uint64_t)gridDim.x * blockDim.x) {
            const uint64_t r = p.Sr[e], c = p.Sc[e];
            const int j = p.Sj[e];
            const uint64_t pow3j = t.pow3[j];
            const int64_t done = (int64_t)p.k + j;
            for (uint64_t row = 0; row < p.nrows; row++) {
                const uint64_t lo = p.nH0_lo + row, hi = p.nH0_hi + (lo < row);
                const cg_u128 n = cg_form_n(lo, hi, p.k, r);
                a.iter++;
                book(a, p, n, iterate<KV>(t, p.tb.d, n, lo, hi, pow3j, c, done), p.k);
            }
        }
    } else {
        for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.np;
             i += (uint64_t)gridDim.x * blockDim.x) {
            const uint64_t q = p.p0 + i;
            const cg_u128 n = cg_form_n(p.nH0_lo, p.nH0_hi, p.L, q);
            int j;
            uint64_t c;
            int64_t g;
            if (!cg_walk(t.pow3, q, p.L, &j, &c, &g)) {
                a.iter++;
                g = iterate<KV>(t, p.tb.d, n, p.nH0_lo, p.nH0_hi, t.pow3[j], c, (int64_t)p.L + j);
            }
            book(a, p, n, g, p.esc_L);
        }
    }
    cg_block_store(a, p.acc);
}

/* The UNIFORM kernel's runs: up to CG_FLAT_RUN consecutive rows of one entry, taken grid-stride
 * by the threads; the entry of a lane's next run is loaded one run ahead (its latency hides
 * behind a run). The same bookkeeping as k_flat's, which keeps its own inline copy: through these
 * helpers ptxas gave the FLAT record kernels 80 -> 82..88 registers (nvcc 13, sm_90), i.e. 24 ->
 * 16 resident warps at 256 threads for the measured variants. */
struct flat_runs {
    uint64_t q;
    uint64_t nr, nc; /* the entry of run q (loaded ahead) */
    int nj, started;
};

__device__ __forceinline__ uint64_t runs_nch(const vparams &p) { return (p.nrows + CG_FLAT_RUN - 1) / CG_FLAT_RUN; }

__device__ __forceinline__ void runs_load(const vparams &p, flat_runs &f, uint64_t q)
{
    const uint64_t nch = runs_nch(p);
    if (q < p.ne * nch) {
        const uint64_t e = nch == 1 ? q : q / nch;
        f.nr = p.Sr[e];
        f.nc = p.Sc[e];
        f.nj = p.Sj[e];
    }
}

__device__ __forceinline__ void runs_init(const vparams &p, flat_runs &f)
{
    f.q = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    f.nr = f.nc = 0;
    f.nj = f.started = 0;
    runs_load(p, f, f.q);
}

/* The lane's next run: 0 when none is left, else 1 with its entry (r, c, j), first row row0
 * (relative to the launch's nH0) and number of rows. */
__device__ __forceinline__ int runs_next(const vparams &p, flat_runs &f, uint64_t &r, uint64_t &c, int &j,
                                         uint64_t &row0, uint32_t &len)
{
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x, nch = runs_nch(p);
    if (f.started) f.q += T;
    f.started = 1;
    if (f.q >= p.ne * nch) return 0;
    const uint64_t e = nch == 1 ? f.q : f.q / nch;
    row0 = (f.q - e * nch) * CG_FLAT_RUN;
    len = (uint32_t)(p.nrows - row0 < CG_FLAT_RUN ? p.nrows - row0 : CG_FLAT_RUN);
    r = f.nr;
    c = f.nc;
    j = f.nj;
    runs_load(p, f, f.q + T);
    return 1;
}

/* Marks a generated entry (k_ext_gen) that convergence mode proved by a predecessor: no rows run. */
#define CG_GEN_SKIP 0xff
/* The layout of vcache::d_conv: 3^0..3^40, CZ_CONV_POW3E chain counts, then the chains (8-aligned). */
#define CG_CONV_CH_OFF ((41 * 8 + CZ_CONV_POW3E + 7) / 8 * 8)

/* runs_next, passing over the runs of entries marked CG_GEN_SKIP. */
__device__ __forceinline__ int runs_next_kept(const vparams &p, flat_runs &f, uint64_t &r, uint64_t &c, int &j,
                                              uint64_t &row0, uint32_t &len)
{
    int got;
    while ((got = runs_next(p, f, r, c, j, row0, len)) && j == CG_GEN_SKIP) {
    }
    return got;
}

/* FLAT_BATCH layout (the fast kernel's rows where k_uni does not apply): the launch's entries x rows are cut into
 * runs of up to CG_FLAT_RUN consecutive rows of one entry; threads take runs grid-stride. A
 * thread's loop is cg_lane_iter (cg_core.h): one uniform iteration per trip, and a lane whose
 * number ends starts its next one (next row, or next run) in the same trip, so a warp no longer
 * waits for its slowest lane on every number, nor serialises the table-step and replay
 * branches. The next run's entry is loaded one run ahead (its latency hides behind a run). */
/* INC kernels are compiled for blocks of at most CG_INC_THREADS threads and 4 blocks per SM,
 * i.e. 64 registers (the incremental state took them from 63 to 71-83 registers, which would
 * cost a third of the resident warps; at 64 a few bytes spill, in the setup path) */
#define CG_INC_THREADS 256

/* A lane's next row of the same run takes its prefix as the previous row's plus 3^j (cg_add64, 4
 * adds) instead of the 128x64 multiply (cg_prefix), when the previous row's prefix did not
 * overflow: the setup runs with the few lanes that need it, so its length counts
 * (docs/collatz-gpu.md "Incremental setup"). Same v, same overflow: the same results. Idle lanes
 * refill together (cg_refill_now) and a flagged operation replays by its record lows
 * (cg_lane_iter_rec; docs/perf/collatz-gpu.md). */
template <bool SH>
__global__ void __launch_bounds__(CG_INC_THREADS, 4) k_flat(vparams p)
{
    const cg_tabs t = cg_setup_tables<BULK_CZ_CUDA_KERNEL_FAST, SH>(p.tb);
    cg_acc a;
    cg_acc_init(&a);
    const unsigned d = (unsigned)p.tb.d, lim = cg_limit_bits(d);
    const uint32_t mask = (1u << d) - 1;
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t nch = (p.nrows + CG_FLAT_RUN - 1) / CG_FLAT_RUN, runs = p.ne * nch;
    uint64_t q = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    /* the entry of run q (loaded ahead), the run in progress */
    uint64_t nr_ = 0, nc_ = 0;
    int nj_ = 0;
    if (q < runs) {
        const uint64_t e = nch == 1 ? q : q / nch;
        nr_ = p.Sr[e];
        nc_ = p.Sc[e];
        nj_ = p.Sj[e];
    }
    uint64_t r = 0, c = 0, pow3j = 0, hlo = 0, hhi = 0, left = 0;
    uint32_t done0 = 0;
    int started = 0, busy = 0, live = 1, have0 = 0;
    cg_u128 v0 = cg_make(0, 0); /* the prefix of the lane's last row (valid when have0) */
    cg_lane s;
    /* Every lane runs every trip (a lane without work idles through it) and the trip ends in a
     * warp vote: the warp reconverges once per trip. Without it (first FLAT build, measured
     * with ncu on the H200) the lanes drifted apart in the branches and ran as separate groups
     * of ~8 threads, one group at a time. */
    while (__any_sync(0xffffffffu, live)) {
        /* cg_core.h cg_refill_now: idle lanes set up their next numbers only when >= p.refill of
         * them are idle or no lane of the warp is busy */
        int refill = 1;
        {
            const uint32_t idle = (uint32_t)__popc(__ballot_sync(0xffffffffu, live && !busy));
            refill = cg_refill_now(idle, __any_sync(0xffffffffu, busy), p.refill);
        }
        if (refill && live && !busy) {
            if (left == 0) {
                if (started) q += T;
                started = 1;
                if (q >= runs) {
                    live = 0;
                } else {
                    const uint64_t e = nch == 1 ? q : q / nch, row0 = (q - e * nch) * CG_FLAT_RUN;
                    r = nr_;
                    c = nc_;
                    pow3j = t.pow3[nj_];
                    done0 = (uint32_t)(p.k + nj_);
                    left = p.nrows - row0 < CG_FLAT_RUN ? p.nrows - row0 : CG_FLAT_RUN;
                    hlo = p.nH0_lo + row0;
                    hhi = p.nH0_hi + (hlo < row0);
                    have0 = 0;
                    const uint64_t q2 = q + T;
                    if (q2 < runs) {
                        const uint64_t e2 = nch == 1 ? q2 : q2 / nch;
                        nr_ = p.Sr[e2];
                        nc_ = p.Sc[e2];
                        nj_ = p.Sj[e2];
                    }
                }
            }
            if (live) {
                const cg_u128 n = cg_form_n(hlo, hhi, p.k, r);
                cg_u128 v;
                int ovf;
                if (have0) {
                    v = v0;
                    ovf = cg_add64(&v, pow3j);
                } else {
                    ovf = cg_prefix(&v, hlo, hhi, pow3j, c);
                }
                {
                    v0 = v;
                    have0 = !ovf;
                }
                hlo++;
                hhi += hlo == 0;
                left--;
                a.iter++;
                if (ovf) {
                    escape(p, n, p.k);
                } else {
                    cg_lane_start(&s, v, n, done0, d, 1);
                    busy = 1;
                }
            }
        }
        if (busy) {
            /* replays by record lows (cg_lane_iter_rec), tables in global memory */
            const int rc = cg_lane_iter_rec(&s, d, lim, mask, t.BC, t.BM, t.J, p.tb.ROFF, p.tb.REC, p.tb.RST);
            if (rc) {
                busy = 0;
                if (rc == 1) {
                    a.sum += s.done;
                    cg_acc_note(&a, s.done, s.n);
                } else {
                    escape(p, s.n, p.k);
                }
            }
        }
    }
    cg_block_store(a, p.acc);
}

/* A run of extension rows: entry (r, c) with j odd steps, list residue L (3^-j = xinv), row
 * chunk ch: the lane's row "-1" (cg_ext_state: the state after K + j2 steps), which the common
 * path of k_uni advances by one row. */
__device__ __forceinline__ void ext_run_start(const vparams &p, const uint64_t *pow3, int j, uint64_t r, uint64_t c,
                                              uint64_t xinv, uint64_t L, uint32_t ch, cg_uni &s, cg_u128 &v0,
                                              uint64_t &pow3j, uint32_t &done0, uint32_t &left, int &ovf0)
{
    const int K = p.k + p.kx;
    uint64_t rr, c2;
    cg_ext_state(p.k, p.kx, r, c, pow3[j], xinv, L, p.xB[L], p.xC[L], &rr, &c2);
    const int j2 = j + p.xdj[L];
    pow3j = pow3[j2];
    done0 = (uint32_t)(K + j2);
    const uint64_t row0 = (uint64_t)ch * CG_FLAT_RUN;
    left = (uint32_t)(p.nrows - row0 < CG_FLAT_RUN ? p.nrows - row0 : CG_FLAT_RUN);
    const uint64_t h1 = p.nH0_lo + row0 - 1, hlo = p.nH0_lo + row0;
    const uint64_t hhi = p.nH0_hi + (hlo < row0) - (hlo == 0);
    s.n = cg_form_n(h1, hhi, K, rr);
    ovf0 = cg_prefix(&v0, h1, hhi, pow3j, c2);
}

/* The next run of an EXT launch (rows of level-K blocks, K = k + kx): runs are (entry x, list
 * position i, chunk of CG_FLAT_RUN rows), chunk fastest, then i, so neighbouring lanes share an
 * entry; a position beyond its entry's list (lists differ in length by j) is skipped. Sets the
 * lane's row "-1" like the plain run start (cg_ext_state: the state after K + j2 steps) and
 * returns 1, or 0 when the lane has no run left. The host keeps entries x xmax x chunks below
 * 2^32 per launch (32-bit divisions). */
__device__ __forceinline__ int ext_next(const vparams &p, flat_runs &f, const uint64_t *pow3, cg_uni &s, cg_u128 &v0,
                                        uint64_t &pow3j, uint32_t &done0, uint32_t &left, int &ovf0)
{
    const uint32_t T = gridDim.x * blockDim.x, nch = (uint32_t)runs_nch(p);
    const uint32_t runs = (uint32_t)p.ne * p.xmax * nch;
    for (;;) {
        if (f.started) f.q += T;
        f.started = 1;
        if (f.q >= runs) return 0;
        const uint32_t q = (uint32_t)f.q, t = nch == 1 ? q : q / nch, ch = q - t * nch;
        const uint32_t x = t / p.xmax, i = t - x * p.xmax;
        const int j = p.Sj[x];
        const uint32_t o0 = p.xoff[j];
        if (i >= p.xoff[j + 1] - o0) continue;
        ext_run_start(p, pow3, j, p.Sr[x], p.Sc[x], p.xinv[j], p.xL[o0 + i], ch, s, v0, pow3j, done0, left, ovf0);
        return 1;
    }
}

/* UNIFORM layout (verify_layout = BULK_CZ_CUDA_LAYOUT_UNIFORM; docs/collatz-gpu.md "Uniform
 * trips"): FLAT's work split (runs of up to CG_FLAT_RUN rows of one entry, taken grid-stride),
 * but every trip of every lane runs the same instructions, cg_uni_trip (cg_verify_uni.h) on one
 * 16-byte entry of the UNIFORM table: table step and dip test in one, or two record tests. A lane
 * whose number ended sets up the next row at the start of the next trip: n + 2^k and the
 * previous prefix + 3^j (4 adds each; a prefix that overflowed stays overflowed, as the
 * multiply would find), a few predicated instructions that all lanes would otherwise wait for;
 * only a run's start (the 128x64 prefix, once per 64 numbers) branches. Launched only when the
 * launch's smallest n >= 2^(3d+2) and d <= CG_UNI_MAX_D (cg_uni_ok), else FLAT_BATCH runs. */
/* Two trips per pass of the loop (the votes and the setup once per pass), the first record in
 * the dip trip (cg_uni1_trip, its own table in p.uni), at most 64 registers (32 warps per SM).
 * The variants measured against it are listed in docs/perf/collatz-gpu.md "Deleted variants".
 * D: d as a compile-time constant (shifts, masks, the margin and the record stride folded), 0: d
 * from the parameters. */
template <int D, bool EXT> __global__ void __launch_bounds__(CG_INC_THREADS, 4) k_uni(vparams p)
{
    constexpr int U = 2; /* trips per loop pass (the setup once per pass) */
    const cg_tabs t = cg_setup_tables<BULK_CZ_CUDA_KERNEL_FAST, false>(p.tb);
    /* the accumulator in its narrowest form (a glide < 2^32; the count per launch < 2^32) */
    uint64_t sum = 0;
    uint32_t maxg = 0;
    cg_u128 maxn = cg_make(0, 0);
    const unsigned d = D ? (unsigned)D : (unsigned)p.tb.d, lim = cg_limit_bits(d);
    const uint32_t pairs = cg_uni_pairs(d), mask = D ? (1u << D) - 1 : p.mask;
    const int escL = p.esc_k1 ? p.esc_k1 - 1 : p.k;
    flat_runs f;
    if (EXT) {
        f.q = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
        f.started = 0;
        f.nr = f.nc = 0;
    } else {
        runs_init(p, f);
    }
    uint64_t pow3j = 0;
    uint32_t done0 = 0, cnt = 0, left = 0, n9 = 0;
    int live = 1, need = 1, ovf0 = 0;
    cg_u128 v0 = cg_make(0, 0); /* the prefix 3^j nH + c of the lane's last row */
    cg_uni s;
    s.v = s.n = cg_make(0, 0);
    s.done = s.ri = 0;
    while (__any_sync(0xffffffffu, live)) {
        int rc = 0;
#pragma unroll
        for (int u = 0; u < U; u++) {
            /* U >= 2: a number that ends in a trip idles through the rest of the pass */
            if (!need) {
                {
                    const uint32_t ix = cg_uni1_index(&s, mask);
                    const uint4 e = __ldg(p.uni + ix);
                    const uint2 f = __ldg((const uint2 *)(p.uni + ix + 1));
                    rc = cg_uni1_trip(&s, d, lim, mask, pairs, e.x, e.y, e.z, e.w, f.x, f.y);
                }
                /* convergence mode: the dip test proved a value below n (the lane entered
                 * record mode): done, the exact glide is not needed */
                if (p.conv && rc == 0 && s.ri != 0) rc = 1;
                need = rc != 0;
            }
        }
        /* the number that ended in this pass (at most one per lane), booked once per pass */
        if (rc == 1) sum += s.done;
        const int note = rc == 1 && s.done >= maxg;
        if (rc == 2) escape(p, s.n, escL);
        /* a lane's new maximum is rare after its first numbers: the warp skips the 128-bit
         * compare unless some lane may need it (the vote with every lane of the warp) */
        if (__any_sync(0xffffffffu, note)) {
            if (note && cg_acc_better(s.done, s.n, maxg, maxn)) {
                maxg = s.done;
                maxn = s.n;
            }
        }
        /* the next number, in the trip where the last one ended */
        if (need && live) {
            if (left == 0) {
                /* a run's start: its row "-1" (nH >= 1, so nH - 1 >= 0), which the common path
                 * below advances by one row */
                uint64_t r, c, row0;
                int j;
                if (EXT) {
                    if (!ext_next(p, f, t.pow3, s, v0, pow3j, done0, left, ovf0)) live = 0;
                } else if (!runs_next_kept(p, f, r, c, j, row0, left)) {
                    live = 0;
                } else {
                    /* j > 40 only in generated slices of K > 40 (cg_ext_gen_one: 3^j and c beyond
                     * 64 bits): every row of the run escapes to the host's exact redo */
                    const int wide = j > 40;
                    pow3j = t.pow3[wide ? 40 : j];
                    done0 = (uint32_t)(p.k + j);
                    const uint64_t h1 = p.nH0_lo + row0 - 1, hlo = p.nH0_lo + row0;
                    const uint64_t hhi = p.nH0_hi + (hlo < row0) - (hlo == 0);
                    s.n = cg_form_n(h1, hhi, p.k, r);
                    ovf0 = cg_prefix(&v0, h1, hhi, pow3j, c) | wide;
                }
                if (live && p.conv) n9 = n_mod9(s.n); /* of the run's row "-1" */
            }
            if (live) {
                /* the next row (convergence mode: the next row not proved by a smaller number,
                 * at most 3 rows on; a run whose last rows are all proved ends without one) */
                int skip;
                do {
                    /* n < 2^128: the plan's rows */
                    {
                        cg_add64(&s.n, p.nstep);
                        ovf0 |= cg_add64(&v0, pow3j);
                    }
                    left--;
                    n9 += p.s9;
                    if (n9 >= 9) n9 -= 9;
                    skip = p.conv && cz_conv_row_skip(n9);
                } while (skip && left > 0);
                if (!skip) {
                    cnt++;
                    s.v = v0;
                    s.done = done0;
                    s.ri = 0;
                    need = ovf0;
                    if (ovf0) escape(p, s.n, escL);
                }
            }
        }
    }
    cg_acc a;
    a.sum = sum;
    a.iter = cnt;
    a.maxg = maxg;
    a.maxn = maxn;
    cg_block_store(a, p.acc);
}

typedef void (*kfn)(vparams);

/* Parameters of k_ext_gen: entries t0 .. t0 + cnt - 1 of the group of stored entries with j odd
 * steps (xsr, xsc: the group of the j-sorted S; lists of len residues from xLj) into out*. */
struct xgen {
    const uint64_t *xsr, *xsc, *xB, *xC;
    const uint16_t *xLj;
    const uint8_t *xdj;
    uint64_t t0, cnt, pow3j, xiv;
    uint32_t len;
    int k, X, j;
    uint64_t *osr, *osc;
    uint8_t *osj;
    /* convergence mode: an entry whose level-K class a predecessor proves (cz_conv_pred_core,
     * as verify.c block_extended) gets j = CG_GEN_SKIP, and k_uni skips its runs */
    int conv;
    const uint8_t *cnch;
    const cz_chain *cch;
    const uint64_t *cpow3;
};

/* A slice of the sieve of K = k + kx bits generated from the stored one (cg_ext_gen_one): one
 * thread per entry, grid-stride; consecutive entries share a stored entry (coalesced writes). */
__global__ void __launch_bounds__(256) k_ext_gen(xgen g)
{
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t u = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; u < g.cnt; u += T) {
        uint64_t rr, c2;
        uint8_t j2;
        cg_ext_gen_one(g.k, g.X, g.t0 + u, g.len, g.xsr, g.xsc, g.j, g.pow3j, g.xiv, g.xLj, g.xB, g.xC, g.xdj, &rr,
                       &c2, &j2);
        if (g.conv && cz_conv_pred_core(g.cnch, g.cch, g.cpow3, g.k + g.X, j2, c2, rr, 0)) j2 = CG_GEN_SKIP;
        g.osr[u] = rr;
        g.osc[u] = c2;
        g.osj[u] = j2;
    }
}

kfn pick(int kv, int sh, int mode, int e_d)
{
    if (mode == MODE_UNI || mode == MODE_UNI_EXT) {
        const int d = e_d, x = mode == MODE_UNI_EXT;
        return x ? (d == 10 ? k_uni<10, true> : d == 12 ? k_uni<12, true> : d == 14 ? k_uni<14, true>
                    : d == 16 ? k_uni<16, true> : k_uni<0, true>)
                 : (d == 10 ? k_uni<10, false> : d == 12 ? k_uni<12, false> : d == 14 ? k_uni<14, false>
                    : d == 16 ? k_uni<16, false> : k_uni<0, false>);
    }
    if (mode == MODE_FLAT_BATCH) return sh ? k_flat<true> : k_flat<false>;
    /* the fast kernel's rows run k_flat or k_uni: it takes only WALK pieces here */
    if (kv == BULK_CZ_CUDA_KERNEL_FAST)
        return sh ? k_verify<BULK_CZ_CUDA_KERNEL_FAST, true, MODE_WALK> : k_verify<BULK_CZ_CUDA_KERNEL_FAST, false, MODE_WALK>;
#define CG_K(SH)                                                                                   \
    (mode == MODE_ROWS ? k_verify<BULK_CZ_CUDA_KERNEL_CORE, SH, MODE_ROWS>                         \
                       : mode == MODE_ENTRY ? k_verify<BULK_CZ_CUDA_KERNEL_CORE, SH, MODE_ENTRY>   \
                                            : k_verify<BULK_CZ_CUDA_KERNEL_CORE, SH, MODE_WALK>)
    return sh ? CG_K(true) : CG_K(false);
#undef CG_K
}

/* ---- the host side of one device ----------------------------------------------------------- */
struct vjob {
    const bulk_collatz_engine *e;
    const cg_piece *pieces;
    int np, G;
    bulk_collatz_verify_result *res; /* G results, one per device */
};

/* A device's streams, events and buffers, kept between calls (g_vc; grown on demand, freed by
 * bulk_collatz_cuda_release or after a failed run). */
struct vcache {
    cudaStream_t s, s2;
    cudaEvent_t done_ev[2], reset_ev[2];
    unsigned long long *d_esc[2], *h_esc;
    unsigned int *d_cnt[2], *h_cnt;
    cg_acc *d_acc, *h_acc;
    uint32_t esc_cap; /* escapes each d_esc holds */
    int acc_cap;      /* accumulator slots (grid) */
    uint32_t *d_uni1; /* k_uni's table (cg_uni1_build) of uni1_d bits, or NULL */
    int uni1_d;
    unsigned char *d_ext; /* the sieve extension's tables (ext_upload), ext_cap bytes */
    size_t ext_cap;
    /* S sorted by j for extension rows (ext_sort_upload): r and c of the engine's entries in the
     * order of j, group j = [xs_goff[j], xs_goff[j + 1]); kept for the engine of xs_key (the
     * generated level-K slices start from it) */
    uint64_t *d_xsr, *d_xsc;
    uint64_t xs_goff[42];
    const void *xs_key;
    uint64_t xs_n;
    int xs_k;
    /* a generated level-K slice (run_ext_gen): gcap entries of (r, c, j) */
    uint64_t *d_gsr, *d_gsc;
    uint8_t *d_gsj;
    uint64_t gcap;
    /* convergence mode: the predecessor chains (converge_core.h; the same for every engine) and
     * 3^0..3^40, uploaded on first use */
    unsigned char *d_conv;
};
#define CG_MAX_VDEV 64
vcache g_vc[CG_MAX_VDEV];

void vcache_free(vcache *c)
{
    if (c->s) cudaStreamSynchronize(c->s);
    if (c->s2) cudaStreamSynchronize(c->s2);
    for (int i = 0; i < 2; i++) {
        cudaFree(c->d_esc[i]);
        cudaFree(c->d_cnt[i]);
        if (c->done_ev[i]) cudaEventDestroy(c->done_ev[i]);
        if (c->reset_ev[i]) cudaEventDestroy(c->reset_ev[i]);
    }
    cudaFree(c->d_acc);
    cudaFree(c->d_uni1);
    cudaFree(c->d_ext);
    cudaFree(c->d_xsr);
    cudaFree(c->d_xsc);
    cudaFree(c->d_gsr);
    cudaFree(c->d_gsc);
    cudaFree(c->d_gsj);
    cudaFree(c->d_conv);
    cudaFreeHost(c->h_acc);
    cudaFreeHost(c->h_esc);
    cudaFreeHost(c->h_cnt);
    if (c->s) cudaStreamDestroy(c->s);
    if (c->s2) cudaStreamDestroy(c->s2);
    memset(c, 0, sizeof *c);
}

/* Per-device run state: buffers, streams, the wave being filled and the one being drained. */
struct vrun {
    vcache *cache;
    const bulk_collatz_engine *e;
    bulk_collatz_verify_result *res;
    bulk_collatz_cuda_opts o;
    int kv, sh, threads, grid;
    size_t smem;
    cudaStream_t s, s2;
    cudaEvent_t done_ev[2], reset_ev[2];
    cg_acc *d_acc;
    cg_acc *h_acc;
    unsigned long long *d_esc[2], *h_esc;
    unsigned int *d_cnt[2], *h_cnt;
    int wave, pending;   /* wave index being filled; 1 when wave - 1 awaits draining */
    uint64_t wave_fill;  /* numbers launched in the current wave */
    int overflowed;      /* an escape buffer overflowed: the device's work is redone */
};

/* The engine's sieve extension tables (kx bits) into the device cache, one allocation laid out
 * xB[2^kx] xC[2^kx] xinv[41] (u64), xoff[42] (u32), xL[xoff[41]] (u16), xdj[2^kx] (u8); a few
 * hundred KB, uploaded for every call with an extension (the engine may differ between calls). */
struct ext_layout {
    size_t xB, xC, xinv, xoff, xL, xdj, total;
};
ext_layout ext_offsets(const bulk_collatz_engine *e)
{
    ext_layout l;
    const size_t n = (size_t)1 << e->kx;
    l.xB = 0;
    l.xC = l.xB + 8 * n;
    l.xinv = l.xC + 8 * n;
    l.xoff = l.xinv + 8 * 41;
    l.xL = l.xoff + 4 * 42;
    l.xdj = l.xL + ((2 * (size_t)e->xoff[41] + 7) & ~(size_t)7);
    l.total = l.xdj + n;
    return l;
}

int ext_upload(vcache &c, const bulk_collatz_engine *e)
{
    const ext_layout l = ext_offsets(e);
    if (c.ext_cap < l.total) {
        cudaFree(c.d_ext);
        c.d_ext = NULL;
        c.ext_cap = 0;
        CG_CHECK(cudaMalloc(&c.d_ext, l.total));
        c.ext_cap = l.total;
    }
    const size_t n = (size_t)1 << e->kx;
    CG_CHECK(cudaMemcpy(c.d_ext + l.xB, e->xB, 8 * n, cudaMemcpyHostToDevice));
    CG_CHECK(cudaMemcpy(c.d_ext + l.xC, e->xC, 8 * n, cudaMemcpyHostToDevice));
    CG_CHECK(cudaMemcpy(c.d_ext + l.xinv, e->xinv, 8 * 41, cudaMemcpyHostToDevice));
    CG_CHECK(cudaMemcpy(c.d_ext + l.xoff, e->xoff, 4 * 42, cudaMemcpyHostToDevice));
    CG_CHECK(cudaMemcpy(c.d_ext + l.xL, e->xL, 2 * (size_t)e->xoff[41], cudaMemcpyHostToDevice));
    CG_CHECK(cudaMemcpy(c.d_ext + l.xdj, e->xdj, n, cudaMemcpyHostToDevice));
    return BULK_OK;
}

/* A launch's parameters for extension rows: the device tables and the longest list. */
void ext_params(const vrun &r, vparams &p)
{
    const bulk_collatz_engine *e = r.e;
    const ext_layout l = ext_offsets(e);
    const unsigned char *b = r.cache->d_ext;
    p.kx = e->kx;
    p.xB = (const uint64_t *)(b + l.xB);
    p.xC = (const uint64_t *)(b + l.xC);
    p.xinv = (const uint64_t *)(b + l.xinv);
    p.xoff = (const uint32_t *)(b + l.xoff);
    p.xL = (const uint16_t *)(b + l.xL);
    p.xdj = b + l.xdj;
    uint32_t m = 1;
    for (int j = 0; j <= 40; j++)
        if (e->xoff[j + 1] - e->xoff[j] > m) m = e->xoff[j + 1] - e->xoff[j];
    p.xmax = m;
}

/* The engine's stored sieve sorted by j (a counting sort of (r, c); the order of the entries does
 * not change any result: sums, counts, and the maximum with its smallest n) on the device, from
 * which run_ext_gen generates level-K slices (every list of a group has one length, and 3^j,
 * 3^-j are parameters). 16 bytes per entry (k = 32: 0.66 GB); returns 0 (and the driver takes
 * the unsorted runs, run_ext) when that would take more than half of the free device memory. */
int ext_sort_upload(vcache &c, const bulk_collatz_engine *e, int *ok)
{
    *ok = 0;
    if (c.xs_key == (const void *)e->Sr && c.xs_n == e->s_k && c.xs_k == e->k && c.d_xsr) {
        *ok = 1;
        return BULK_OK;
    }
    cudaFree(c.d_xsr);
    cudaFree(c.d_xsc);
    c.d_xsr = c.d_xsc = NULL;
    c.xs_key = NULL;
    size_t freeb = 0, totalb = 0;
    CG_CHECK(cudaMemGetInfo(&freeb, &totalb));
    const size_t bytes = (size_t)e->s_k * 8;
    if (2 * bytes > freeb / 2) return BULK_OK;
    uint64_t cnt[42] = { 0 };
    for (uint64_t i = 0; i < e->s_k; i++) cnt[e->Sj[i] + 1]++;
    for (int j = 0; j < 41; j++) cnt[j + 1] += cnt[j];
    memcpy(c.xs_goff, cnt, sizeof cnt);
    uint64_t *hr = (uint64_t *)malloc(bytes ? bytes : 8), *hc = (uint64_t *)malloc(bytes ? bytes : 8);
    if (!hr || !hc) {
        free(hr);
        free(hc);
        return BULK_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < e->s_k; i++) {
        const uint64_t at = cnt[e->Sj[i]]++;
        hr[at] = e->Sr[i];
        hc[at] = e->Sc[i];
    }
    cudaError_t ce = cudaMalloc(&c.d_xsr, bytes);
    if (ce == cudaSuccess) ce = cudaMalloc(&c.d_xsc, bytes);
    if (ce == cudaSuccess) ce = cudaMemcpy(c.d_xsr, hr, bytes, cudaMemcpyHostToDevice);
    if (ce == cudaSuccess) ce = cudaMemcpy(c.d_xsc, hc, bytes, cudaMemcpyHostToDevice);
    free(hr);
    free(hc);
    if (ce != cudaSuccess) {
        cg_note_error(ce, "sorted S", __FILE__, __LINE__);
        return BULK_ERR_CUDA;
    }
    c.xs_key = (const void *)e->Sr;
    c.xs_n = e->s_k;
    c.xs_k = e->k;
    *ok = 1;
    return BULK_OK;
}

/* Extension rows run k_uni (the dip test needs every n >= 2^(3d+2), and d <= CG_UNI_MAX_D);
 * otherwise the WALK layout walks their K bits per number. */
int ext_uni(const bulk_collatz_engine *e, u128 nH)
{
    const int K = e->k + e->kx;
    const u128 n = K < 128 ? nH << K : 0;
    return e->d <= CG_UNI_MAX_D && cg_uni_ok((unsigned)e->d, cg_make((uint64_t)n, (uint64_t)(n >> 64)));
}

/* k_uni's mode for stored rows or extension rows (ext). */
int uni_kind(int ext) { return ext ? MODE_UNI_EXT : MODE_UNI; }

/* The kernel of a fast-kernel launch (rows nH0 .. of level-k blocks): k_uni when the layout is
 * UNIFORM and it applies (cg_uni_ok on the smallest n), else FLAT_BATCH. */
int uni_mode(const vrun &r, u128 nH0)
{
    const int k = r.e->k;
    const u128 n_min = nH0 << k;
    if (r.o.verify_layout == BULK_CZ_CUDA_LAYOUT_UNIFORM && r.cache && r.cache->d_uni1 &&
        cg_uni_ok((unsigned)r.e->d, cg_make((uint64_t)n_min, (uint64_t)(n_min >> 64))))
        return uni_kind(0);
    return MODE_FLAT_BATCH;
}

int run_init(vrun &r, const cg_dev *dv)
{
    const int uni = r.kv == BULK_CZ_CUDA_KERNEL_FAST && r.o.verify_layout == BULK_CZ_CUDA_LAYOUT_UNIFORM &&
                    r.e->d <= CG_UNI_MAX_D;
    /* extension rows run k_uni whatever the layout (the WALK layout where it does not apply) */
    const int need_uni = (uni || r.e->kx > 0) && r.e->d <= CG_UNI_MAX_D;
    /* the grid: for the kernel most of the work runs in (with an extension, k_uni's) */
    const int mode_any = need_uni && r.e->kx > 0 ? MODE_UNI_EXT
                         : r.kv == BULK_CZ_CUDA_KERNEL_FAST ? (uni ? MODE_UNI : MODE_FLAT_BATCH) : MODE_ROWS;
    kfn f = pick(r.kv, r.sh, mode_any, r.e->d);
    r.smem = cg_smem_bytes(r.e->d, r.kv, r.sh);
    for (int m = r.kv == BULK_CZ_CUDA_KERNEL_FAST ? MODE_WALK : 0;
         m < (r.kv == BULK_CZ_CUDA_KERNEL_FAST ? CG_NMODES : MODE_WALK + 1); m++)
        CG_CHECK(cudaFuncSetAttribute(pick(r.kv, r.sh, m, r.e->d), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)r.smem));
    int per_sm = 0;
    CG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, r.threads, r.smem));
    if (per_sm < 1) per_sm = 1;
    r.grid = dv->sms * per_sm;
    /* streams, events and buffers come from the device's cache (kept between calls: creating
     * them, the pinned buffers above all, cost ~25 ms per call, measured by the lead with
     * `bulk dist collatz verify` on 2^37-number chunks) */
    if (dv->dev < 0 || dv->dev >= CG_MAX_VDEV) return BULK_ERR_ARG;
    vcache &c = g_vc[dv->dev];
    r.cache = &c;
    if (!c.s) {
        CG_CHECK(cudaStreamCreateWithFlags(&c.s, cudaStreamNonBlocking));
        CG_CHECK(cudaStreamCreateWithFlags(&c.s2, cudaStreamNonBlocking));
        for (int i = 0; i < 2; i++) {
            CG_CHECK(cudaEventCreateWithFlags(&c.done_ev[i], cudaEventDisableTiming));
            CG_CHECK(cudaEventCreateWithFlags(&c.reset_ev[i], cudaEventDisableTiming));
            CG_CHECK(cudaMalloc(&c.d_cnt[i], 64));
        }
        CG_CHECK(cudaMallocHost(&c.h_cnt, 2 * 64));
    }
    if (c.esc_cap < r.o.escape_capacity) {
        for (int i = 0; i < 2; i++) {
            cudaFree(c.d_esc[i]);
            c.d_esc[i] = NULL;
        }
        cudaFreeHost(c.h_esc);
        c.h_esc = NULL;
        c.esc_cap = 0;
        for (int i = 0; i < 2; i++) CG_CHECK(cudaMalloc(&c.d_esc[i], (size_t)r.o.escape_capacity * 24));
        CG_CHECK(cudaMallocHost(&c.h_esc, (size_t)r.o.escape_capacity * 24));
        c.esc_cap = r.o.escape_capacity;
    }
    if (c.acc_cap < r.grid) {
        cudaFree(c.d_acc);
        cudaFreeHost(c.h_acc);
        c.d_acc = NULL;
        c.h_acc = NULL;
        c.acc_cap = 0;
        CG_CHECK(cudaMalloc(&c.d_acc, (size_t)r.grid * sizeof(cg_acc)));
        CG_CHECK(cudaMallocHost(&c.h_acc, (size_t)r.grid * sizeof(cg_acc)));
        c.acc_cap = r.grid;
    }
    if (need_uni && c.uni1_d != r.e->d) {
        /* k_uni's table (the first record beside each operation; built on the host: 2^d
         * operations, ~0.1 s at d = 16) */
        cudaFree(c.d_uni1);
        c.d_uni1 = NULL;
        c.uni1_d = 0;
        const size_t bytes = (size_t)cg_uni1_entries((unsigned)r.e->d) * 16;
        uint32_t *h = (uint32_t *)malloc(bytes);
        if (!h) return BULK_ERR_NOMEM;
        cg_uni1_build((unsigned)r.e->d, r.e->B, r.e->C, r.e->J, h);
        cudaError_t ce = cudaMalloc(&c.d_uni1, bytes);
        if (ce == cudaSuccess) ce = cudaMemcpy(c.d_uni1, h, bytes, cudaMemcpyHostToDevice);
        free(h);
        if (ce != cudaSuccess) {
            cg_note_error(ce, "UNIFORM table", __FILE__, __LINE__);
            return BULK_ERR_CUDA;
        }
        c.uni1_d = r.e->d;
    }
    if (r.e->kx > 0) {
        int st = ext_upload(c, r.e);
        if (st) return st;
    }
    r.s = c.s;
    r.s2 = c.s2;
    for (int i = 0; i < 2; i++) {
        r.done_ev[i] = c.done_ev[i];
        r.reset_ev[i] = c.reset_ev[i];
        r.d_esc[i] = c.d_esc[i];
        r.d_cnt[i] = c.d_cnt[i];
        CG_CHECK(cudaMemsetAsync(r.d_cnt[i], 0, 64, r.s));
    }
    r.h_cnt = c.h_cnt;
    r.h_esc = c.h_esc;
    r.d_acc = c.d_acc;
    r.h_acc = c.h_acc;
    CG_CHECK(cudaMemsetAsync(r.d_acc, 0, (size_t)r.grid * sizeof(cg_acc), r.s));
    return BULK_OK;
}

/* The end of a device's run: its streams drained; the cached resources stay for the next call,
 * unless the run failed (then they are freed: nothing about them is trusted). */
void run_free(vrun &r, int failed)
{
    if (r.s) cudaStreamSynchronize(r.s);
    if (r.s2) cudaStreamSynchronize(r.s2);
    if (failed && r.cache) vcache_free(r.cache);
}

/* Ends the wave being filled (its accumulators and escape count go to the host side of the
 * buffers) and drains the previous one: while the GPU runs this wave, the host finishes the
 * previous wave's escapes exactly. */
int drain(vrun &r, int b, int tail)
{
    bulk_collatz_cuda_stats *st = cg_stats();
    CG_CHECK(cudaEventSynchronize(r.done_ev[b]));
    /* host time on escapes only: the wait for the GPU above is not counted (it was, up to the
     * H200 runs of 2026-11-21, which made "after the GPU" read ~98% of every run) */
    double t0 = cg_now();
    unsigned int cnt = r.h_cnt[b * 16];
    if (cnt > r.o.escape_capacity) {
        r.overflowed = 1;
        return BULK_OK;
    }
    if (cnt) {
        CG_CHECK(cudaMemcpyAsync(r.h_esc, r.d_esc[b], (size_t)cnt * 24, cudaMemcpyDeviceToHost, r.s2));
        CG_CHECK(cudaStreamSynchronize(r.s2));
    }
    /* the count back to zero before the buffer's next wave (that wave waits on reset_ev) */
    CG_CHECK(cudaMemsetAsync(r.d_cnt[b], 0, 64, r.s2));
    CG_CHECK(cudaEventRecord(r.reset_ev[b], r.s2));
    for (unsigned int i = 0; i < cnt; i++) {
        u128 n = (u128)r.h_esc[3 * (size_t)i + 1] << 64 | r.h_esc[3 * (size_t)i];
        int s = cg_host_iterate(r.e, n, (int)r.h_esc[3 * (size_t)i + 2], r.res);
        if (s != BULK_OK) return s;
    }
    st->escapes += cnt;
    double dt = cg_now() - t0;
    if (tail) st->tail_seconds += dt;
    else st->escape_seconds += dt;
    return BULK_OK;
}

int end_wave(vrun &r, int tail)
{
    const int b = r.wave & 1;
    CG_CHECK(cudaMemcpyAsync(&r.h_cnt[b * 16], r.d_cnt[b], sizeof(unsigned int), cudaMemcpyDeviceToHost, r.s));
    CG_CHECK(cudaEventRecord(r.done_ev[b], r.s));
    if (r.pending) {
        int s = drain(r, b ^ 1, 0);
        if (s) return s;
    }
    r.pending = 1;
    r.wave++;
    r.wave_fill = 0;
    /* the next wave writes buffer b ^ 1: wait until its count was reset */
    CG_CHECK(cudaStreamWaitEvent(r.s, r.reset_ev[b ^ 1], 0));
    if (tail) {
        int s = drain(r, b, 1);
        if (s) return s;
        r.pending = 0;
    }
    return BULK_OK;
}

int launch(vrun &r, vparams &p, int mode, uint64_t numbers)
{
    const int b = r.wave & 1;
    p.acc = r.d_acc;
    p.esc = r.d_esc[b];
    p.esc_count = r.d_cnt[b];
    p.esc_cap = r.o.escape_capacity;
    p.refill = (uint32_t)r.o.refill_lanes;
    p.uni = r.cache ? (const uint4 *)r.cache->d_uni1 : NULL;
    p.nstep = p.k + p.kx < 64 ? (uint64_t)1 << (p.k + p.kx) : 0;
    p.mask = (1u << r.e->d) - 1;
    /* convergence mode: only k_uni skips the rows a smaller number proves (the WALK pieces at
     * a range's ends iterate every mandatory number, on the CPU too); other row kernels make
     * verify_part run the range on the CPU instead */
    p.conv = r.e->conv;
    p.s9 = (1u << ((p.k + p.kx) % 6)) % 9; /* 2^6 = 1 mod 9 */
    if (p.conv && ((mode < MODE_UNI && mode != MODE_WALK) || mode == MODE_UNI_EXT))
        return BULK_ERR_UNSUPPORTED; /* (the extension runs lack the level-K predecessor test) */
    pick(r.kv, r.sh, mode, r.e->d)<<<r.grid, r.threads, r.smem, r.s>>>(p);
    CG_CHECK(cudaGetLastError());
    cg_stats()->launches++;
    r.wave_fill += numbers;
    if (r.wave_fill >= r.o.wave_numbers) return end_wave(r, 0);
    return BULK_OK;
}

/* The launches over rows [0, rows) from row nH times entries [0, ne) of a slice: tiles of rl
 * rows by el entries; per(p) completes a tile's parameters and returns its kernel mode; a tile
 * counts cnt x nr x weight numbers toward the escape waves (weight: iterated numbers per entry
 * and row). */
template <class F>
int launch_tiles(vrun &r, vparams p, u128 nH, u128 rows, const uint64_t *Sr, const uint64_t *Sc, const uint8_t *Sj,
                 uint64_t ne, uint64_t rl, uint64_t el, double weight, F per)
{
    for (u128 done = 0; done < rows;) {
        u128 left = rows - done;
        uint64_t nr = left < rl ? (uint64_t)left : rl;
        u128 h = nH + done;
        for (uint64_t e0 = 0; e0 < ne; e0 += el) {
            uint64_t cnt = ne - e0 < el ? ne - e0 : el;
            p.Sr = Sr + e0;
            p.Sc = Sc + e0;
            p.Sj = Sj + e0;
            p.ne = cnt;
            p.nH0_lo = (uint64_t)h;
            p.nH0_hi = (uint64_t)(h >> 64);
            p.nrows = nr;
            const int mode = per(p);
            const uint64_t numbers = weight == 1.0 ? cnt * nr : (uint64_t)((double)cnt * (double)nr * weight) + 1;
            int s = launch(r, p, mode, numbers);
            if (s) return s;
        }
        done += nr;
    }
    return BULK_OK;
}

/* Rows [row0, row0 + rows) of level-k blocks from row nH against the resident slice. */
int run_rows(vrun &r, vparams &base, u128 nH, u128 rows, const uint64_t *Sr, const uint64_t *Sc,
             const uint8_t *Sj, uint64_t ne)
{
    if (r.kv == BULK_CZ_CUDA_KERNEL_FAST) {
        /* k_uni / FLAT_BATCH: a launch is el entries x rl rows, about launch_numbers iterated
         * numbers (2^27 by default: ~1000 per thread, so the lanes' loads even out). At least
         * CG_FLAT_RUN rows per launch (when the range has them): with one row per launch
         * (k = 37: 2^27 / s_k < 1) every number was a new run, its entry read from HBM with
         * the load's latency in the lane loop, and S streamed once per row. */
        const uint64_t ln = r.o.launch_numbers;
        uint64_t rl = ln / (ne ? ne : 1);
        if (rl < CG_FLAT_RUN) rl = CG_FLAT_RUN;
        rl = rl / CG_FLAT_RUN * CG_FLAT_RUN;
        /* entries per launch for launch_numbers numbers with the rows a launch really has (a
         * range of fewer rows than rl: until session 4 el was ln / rl, so a launch of 4 rows
         * held 2^23 numbers, ~30 per thread, and the launches' tails cost ~30% at K = 40) */
        const uint64_t rr = rows < (u128)rl ? (uint64_t)rows : rl;
        uint64_t el = ln / (rr ? rr : 1);
        if (el < 1) el = 1;
        return launch_tiles(r, base, nH, rows, Sr, Sc, Sj, ne, rl, el, 1.0, [&](vparams &p) {
            return uni_mode(r, (u128)p.nH0_hi << 64 | p.nH0_lo);
        });
    }
    const uint32_t rpu = (uint32_t)r.o.rows_per_thread * (uint32_t)r.threads;
    if (rows >= rpu) {
        /* (the CORE kernel) ROWS layout: a launch is el entries x rl rows, rl a multiple of rpu, together about
         * launch_numbers numbers (short launches keep the escape waves short) */
        uint64_t rl = r.o.launch_numbers / (ne ? ne : 1) / rpu * rpu;
        if (rl < rpu) rl = rpu;
        uint64_t el = r.o.launch_numbers / rl;
        if (el < 1) el = 1;
        return launch_tiles(r, base, nH, rows, Sr, Sc, Sj, ne, rl, el, 1.0, [&](vparams &p) {
            p.rpu = rpu;
            p.upe = cg_units_per_entry(p.nrows, rpu);
            return (int)MODE_ROWS;
        });
    }
    /* (the CORE kernel) ENTRY layout: fewer rows than one unit: a thread per entry, the rows in a loop */
    uint64_t el = r.o.launch_numbers / (uint64_t)rows;
    if (el < 1) el = 1;
    return launch_tiles(r, base, nH, rows, Sr, Sc, Sj, ne, (uint64_t)rows, el, 1.0,
                        [](vparams &) { return (int)MODE_ENTRY; });
}

/* Rows [0, rows) of level-K blocks (K = k + kx, the sieve extension) from row nH against the
 * resident slice: k_uni<D, true> launches of about launch_numbers iterated numbers (an entry and
 * a row hold s_K / s_k of them on average), at least CG_FLAT_RUN rows each when the range has
 * them, runs per launch (entries x xmax x row chunks) below 2^31. */
/* Rows [0, rows) of level-K blocks from row nH through the unsorted runs of k_uni<D, true>: the
 * form where the j-sorted S does not fit the device (ext_sort_upload), K <= 40. */
int run_ext(vrun &r, vparams &base, u128 nH, u128 rows, const uint64_t *Sr, const uint64_t *Sc, const uint8_t *Sj,
            uint64_t ne)
{
    vparams p = base;
    ext_params(r, p);
    const double avg = (double)r.e->s_kx / (double)(r.e->s_k ? r.e->s_k : 1);
    const double ln = (double)r.o.launch_numbers;
    const uint64_t rmax = ((uint64_t)1 << 30) / p.xmax * CG_FLAT_RUN;
    double rld = ln / ((double)(ne ? ne : 1) * avg + 1);
    uint64_t rl = rld > (double)rmax ? rmax : (uint64_t)rld;
    if (rl < CG_FLAT_RUN) rl = CG_FLAT_RUN;
    rl = rl / CG_FLAT_RUN * CG_FLAT_RUN;
    uint64_t el = (uint64_t)(ln / ((double)rl * avg + 1));
    const uint64_t elmax = ((uint64_t)1 << 31) / ((uint64_t)p.xmax * ((rl + CG_FLAT_RUN - 1) / CG_FLAT_RUN));
    if (el > elmax) el = elmax;
    if (el < 1) el = 1;
    return launch_tiles(r, p, nH, rows, Sr, Sc, Sj, ne, rl, el, avg, [&](vparams &q) {
        (void)q;
        return uni_kind(1);
    });
}

/* Rows [0, rows) of level-K blocks from row nH through generated slices of the K-bit sieve (the
 * "gen" form, the default): the j-sorted S and the survivor lists
 * expand on the device into slices of (r, c, j) entries of level K (k_ext_gen, cg_ext_gen_one),
 * each of which runs as a stored sieve of K bits in the stored-sieve kernel (k_uni<D, false>,
 * the loads of the next run's entry one run ahead, incremental rows) with k = K; escapes are
 * redone from the stored level k (esc_k1), as block_extended's reference path. A slice holds
 * o.s_slice_entries entries when set (tests), else up to 2^28 (4.5 GB) or a quarter of the free
 * memory. Only for K <= 40 (cg_ext_gen_one: 3^j2 < 2^64). */
int run_ext_gen(vrun &r, vparams &base, u128 nH, u128 rows)
{
    vcache &c = *r.cache;
    const bulk_collatz_engine *e = r.e;
    const int K = e->k + e->kx;
    uint64_t total = 0;
    for (int j = 0; j <= 40; j++) total += (c.xs_goff[j + 1] - c.xs_goff[j]) * (uint64_t)(e->xoff[j + 1] - e->xoff[j]);
    if (total == 0) return BULK_OK;
    uint64_t cap = r.o.s_slice_entries;
    if (!cap) {
        size_t freeb = 0, totalb = 0;
        CG_CHECK(cudaMemGetInfo(&freeb, &totalb));
        cap = (uint64_t)1 << 28;
        const uint64_t room = (uint64_t)(0.25 * (double)(freeb + (size_t)c.gcap * 17) / 17.0);
        if (cap > room) cap = room;
        if (cap < 4096) cap = 4096;
    }
    if (cap > total) cap = total;
    if (c.gcap < cap) {
        cudaFree(c.d_gsr);
        cudaFree(c.d_gsc);
        cudaFree(c.d_gsj);
        c.d_gsr = c.d_gsc = NULL;
        c.d_gsj = NULL;
        c.gcap = 0;
        CG_CHECK(cudaMalloc(&c.d_gsr, cap * 8));
        CG_CHECK(cudaMalloc(&c.d_gsc, cap * 8));
        CG_CHECK(cudaMalloc(&c.d_gsj, cap));
        c.gcap = cap;
    }
    if (e->conv && !c.d_conv) {
        /* 3^0..3^40 (at 0: read by cz_conv_pred_core as pow3), the chain counts, the chains */
        const size_t nb = CG_CONV_CH_OFF + (size_t)CZ_CONV_POW3E * CZ_CONV_MAX_CHAINS * sizeof(cz_chain);
        unsigned char *h = (unsigned char *)malloc(nb);
        if (!h) return BULK_ERR_NOMEM;
        memcpy(h, bulk_cz_pow3, 41 * sizeof(uint64_t));
        memcpy(h + 41 * sizeof(uint64_t), bulk_cz_conv_nch(e->cv), CZ_CONV_POW3E);
        memcpy(h + CG_CONV_CH_OFF, bulk_cz_conv_chains(e->cv), nb - CG_CONV_CH_OFF);
        cudaError_t ce = cudaMalloc((void **)&c.d_conv, nb);
        if (ce == cudaSuccess) ce = cudaMemcpy(c.d_conv, h, nb, cudaMemcpyHostToDevice);
        free(h);
        if (ce != cudaSuccess) {
            cg_note_error(ce, "convergence tables", __FILE__, __LINE__);
            return BULK_ERR_CUDA;
        }
    }
    vparams px = base;
    ext_params(r, px); /* the device tables of the extension */
    vparams p = base;
    p.k = K;
    p.kx = 0;
    p.esc_k1 = e->k + 1;
    /* the stored rows' launch shape (run_rows, FLAT branch) over a slice of ne entries */
    auto flush = [&](uint64_t ne) -> int {
        const uint64_t ln = r.o.launch_numbers;
        uint64_t rl = ln / (ne ? ne : 1);
        if (rl < CG_FLAT_RUN) rl = CG_FLAT_RUN;
        rl = rl / CG_FLAT_RUN * CG_FLAT_RUN;
        const uint64_t rr = rows < (u128)rl ? (uint64_t)rows : rl; /* as run_rows */
        uint64_t el = ln / (rr ? rr : 1);
        if (el < 1) el = 1;
        return launch_tiles(r, p, nH, rows, c.d_gsr, c.d_gsc, c.d_gsj, ne, rl, el, 1.0, [&](vparams &q) {
            (void)q;
            return uni_kind(0);
        });
    };
    uint64_t fill = 0;
    for (int j = 0; j <= 40; j++) {
        const uint64_t g0 = c.xs_goff[j], ne = c.xs_goff[j + 1] - g0;
        const uint32_t len = e->xoff[j + 1] - e->xoff[j];
        const uint64_t tj = ne * (uint64_t)len;
        for (uint64_t t = 0; t < tj;) {
            const uint64_t n = tj - t < cap - fill ? tj - t : cap - fill;
            xgen g;
            g.xsr = c.d_xsr + g0;
            g.xsc = c.d_xsc + g0;
            g.xB = px.xB;
            g.xC = px.xC;
            g.xLj = px.xL + e->xoff[j];
            g.xdj = px.xdj;
            g.t0 = t;
            g.cnt = n;
            g.pow3j = bulk_cz_pow3[j];
            g.xiv = e->xinv[j];
            g.len = len;
            g.k = e->k;
            g.X = e->kx;
            g.j = j;
            g.osr = c.d_gsr + fill;
            g.osc = c.d_gsc + fill;
            g.osj = c.d_gsj + fill;
            g.conv = e->conv;
            g.cnch = c.d_conv + 41 * sizeof(uint64_t);
            g.cch = (const cz_chain *)(c.d_conv + CG_CONV_CH_OFF);
            g.cpow3 = (const uint64_t *)c.d_conv;
            k_ext_gen<<<r.grid, 256, 0, r.s>>>(g);
            CG_CHECK(cudaGetLastError());
            fill += n;
            t += n;
            if (fill == cap) {
                int s = flush(fill);
                if (s) return s;
                fill = 0;
            }
        }
    }
    if (fill) return flush(fill);
    return BULK_OK;
}

/* How extension rows run: 1 = generated level-K slices (run_ext_gen; the default, and the only
 * form for K > 40), 0 = the unsorted runs (run_ext), which also run where the j-sorted S does
 * not fit the device. BULK_CZ_CUDA_EXT = unsorted forces them (read at each call; tests). */
int ext_method(const vrun &r)
{
    const char *ev = getenv("BULK_CZ_CUDA_EXT");
    const int K = r.e->k + r.e->kx;
    if (K > 40) return 1;
    if (ev && !strcmp(ev, "unsorted")) return 0;
    if (ev && *ev && strcmp(ev, "gen")) fprintf(stderr, "bulk: BULK_CZ_CUDA_EXT='%s' is not gen or unsorted: ignored\n", ev);
    return 1;
}

/* A ROWS or EXT piece's rows against a slice of S. */
int run_piece(vrun &r, vparams &base, const cg_piece &pc, u128 nH, u128 rows, const uint64_t *Sr, const uint64_t *Sc,
              const uint8_t *Sj, uint64_t ne)
{
    if (pc.kind == CG_PIECE_EXT) return run_ext(r, base, nH, rows, Sr, Sc, Sj, ne);
    return run_rows(r, base, nH, rows, Sr, Sc, Sj, ne);
}

int verify_work(vrun &r, const vjob &job, int g, cg_dev *dv)
{
    const bulk_collatz_engine *e = job.e;
    vparams base;
    memset(&base, 0, sizeof base);
    cg_ktables_fill(&base.tb, dv);
    base.k = e->k;
    /* WALK pieces: this device's share of each block's residues */
    for (int i = 0; i < job.np; i++) {
        const cg_piece &pc = job.pieces[i];
        if (pc.kind == CG_PIECE_EXT_WALK) {
            /* extension rows where k_uni does not apply: this device's rows, each walked over its
             * K bits; escapes redone from the level-k state, as verify.c block_extended does */
            u128 r0, rn;
            cg_split_rows(pc.rows, job.G, g, &r0, &rn);
            for (u128 row = r0; row < r0 + rn; row++)
                for (u128 done = 0; done < ((u128)1 << pc.L);) {
                    u128 rest = ((u128)1 << pc.L) - done;
                    uint64_t cnt = rest < r.o.launch_numbers ? (uint64_t)rest : r.o.launch_numbers;
                    vparams p = base;
                    p.L = pc.L;
                    p.esc_L = e->k;
                    p.nH0_lo = (uint64_t)(pc.nH + row);
                    p.nH0_hi = (uint64_t)((pc.nH + row) >> 64);
                    p.p0 = (uint64_t)done;
                    p.np = cnt;
                    int s = launch(r, p, MODE_WALK, cnt);
                    if (s) return s;
                    done += cnt;
                }
            continue;
        }
        if (pc.kind != CG_PIECE_WALK) continue;
        u128 q0, qn;
        cg_split_rows((u128)1 << pc.L, job.G, g, &q0, &qn);
        for (u128 done = 0; done < qn;) {
            uint64_t cnt = qn - done < r.o.launch_numbers ? (uint64_t)(qn - done) : r.o.launch_numbers;
            vparams p = base;
            p.L = pc.L;
            p.esc_L = pc.L;
            p.nH0_lo = (uint64_t)pc.nH;
            p.nH0_hi = (uint64_t)(pc.nH >> 64);
            p.p0 = (uint64_t)(q0 + done);
            p.np = cnt;
            int s = launch(r, p, MODE_WALK, cnt);
            if (s) return s;
            done += cnt;
        }
    }
    /* ROWS pieces: this device's share of the rows, against S whole or slice by slice */
    for (int i = 0; i < job.np; i++) {
        const cg_piece &pc = job.pieces[i];
        if (pc.kind != CG_PIECE_ROWS && pc.kind != CG_PIECE_EXT) continue;
        u128 r0, rn;
        cg_split_rows(pc.rows, job.G, g, &r0, &rn);
        if (rn == 0) continue;
        const int xm = pc.kind == CG_PIECE_EXT ? ext_method(r) : 0;
        if (xm) {
            /* extension rows through S sorted by j, when the device holds it: generated
             * level-K slices */
            int ok = 0, s = ext_sort_upload(*r.cache, e, &ok);
            if (s) return s;
            if (ok) {
                s = run_ext_gen(r, base, pc.nH + r0, rn);
                if (s) return s;
                continue;
            }
            if (e->k + e->kx > 40) {
                bulk_cz_set_error("K = %d needs the stored sieve sorted by j on the device (%.1f GB)",
                                  e->k + e->kx, (double)e->s_k * 16 / 1e9);
                return BULK_ERR_NOMEM;
            }
        }
        if (dv->s_whole && !r.o.s_slice_entries) {
            int s = run_piece(r, base, pc, pc.nH + r0, rn, dv->Sr, dv->Sc, dv->Sj, dv->s_k);
            if (s) return s;
            continue;
        }
        /* streamed S: slices of `slice` entries through two buffers; a slice is uploaded
         * while the previous slice's launches run (copy stream s2, ordered by events) */
        size_t freeb = 0, totalb = 0;
        CG_CHECK(cudaMemGetInfo(&freeb, &totalb));
        uint64_t slice = r.o.s_slice_entries ? r.o.s_slice_entries : (uint64_t)(0.2 * (double)freeb / 17.0);
        if (slice < 1024) slice = 1024;
        if (slice > e->s_k) slice = e->s_k;
        uint64_t *sr[2] = { NULL, NULL }, *sc[2] = { NULL, NULL };
        uint8_t *sj[2] = { NULL, NULL };
        cudaEvent_t used[2] = { NULL, NULL }, ready[2] = { NULL, NULL };
        int st = BULK_OK;
        for (int bb = 0; bb < 2 && st == BULK_OK; bb++) {
            if (cudaMalloc(&sr[bb], slice * 8) != cudaSuccess || cudaMalloc(&sc[bb], slice * 8) != cudaSuccess ||
                cudaMalloc(&sj[bb], slice) != cudaSuccess ||
                cudaEventCreateWithFlags(&used[bb], cudaEventDisableTiming) != cudaSuccess ||
                cudaEventCreateWithFlags(&ready[bb], cudaEventDisableTiming) != cudaSuccess) {
                cg_note_error(cudaGetLastError(), "S slice buffers", __FILE__, __LINE__);
                st = BULK_ERR_CUDA;
            }
        }
        for (uint64_t s0 = 0, si = 0; st == BULK_OK && s0 < e->s_k; s0 += slice, si++) {
            const int bb = (int)(si & 1);
            uint64_t cnt = e->s_k - s0 < slice ? e->s_k - s0 : slice;
            double t0 = cg_now();
            if (cudaStreamWaitEvent(r.s2, used[bb], 0) != cudaSuccess ||
                cudaMemcpyAsync(sr[bb], e->Sr + s0, cnt * 8, cudaMemcpyHostToDevice, r.s2) != cudaSuccess ||
                cudaMemcpyAsync(sc[bb], e->Sc + s0, cnt * 8, cudaMemcpyHostToDevice, r.s2) != cudaSuccess ||
                cudaMemcpyAsync(sj[bb], e->Sj + s0, cnt, cudaMemcpyHostToDevice, r.s2) != cudaSuccess ||
                cudaEventRecord(ready[bb], r.s2) != cudaSuccess || cudaStreamWaitEvent(r.s, ready[bb], 0) != cudaSuccess) {
                cg_note_error(cudaGetLastError(), "S slice upload", __FILE__, __LINE__);
                st = BULK_ERR_CUDA;
                break;
            }
            cg_stats()->upload_seconds += cg_now() - t0;
            st = run_piece(r, base, pc, pc.nH + r0, rn, sr[bb], sc[bb], sj[bb], cnt);
            if (st == BULK_OK && cudaEventRecord(used[bb], r.s) != cudaSuccess) {
                cg_note_error(cudaGetLastError(), "cudaEventRecord", __FILE__, __LINE__);
                st = BULK_ERR_CUDA;
            }
        }
        cudaStreamSynchronize(r.s);
        for (int bb = 0; bb < 2; bb++) {
            cudaFree(sr[bb]);
            cudaFree(sc[bb]);
            cudaFree(sj[bb]);
            if (used[bb]) cudaEventDestroy(used[bb]);
            if (ready[bb]) cudaEventDestroy(ready[bb]);
        }
        if (st) return st;
    }
    return end_wave(r, 1);
}

int verify_device(int g, void *arg)
{
    const vjob &job = *(const vjob *)arg;
    const bulk_collatz_engine *e = job.e;
    bulk_collatz_cuda_stats *st = cg_stats();
    int need_S = 0;
    for (int i = 0; i < job.np; i++) need_S |= job.pieces[i].kind == CG_PIECE_ROWS || job.pieces[i].kind == CG_PIECE_EXT;
    cg_dev *dv;
    int s = cg_dev_prepare(g, e, need_S, 0, &dv, &st->upload_seconds);
    if (s) return s;
    bulk_collatz_cuda_opts o = cg_opts();
    for (int attempt = 0;; attempt++) {
        vrun r;
        memset(&r, 0, sizeof r);
        r.e = e;
        r.res = &job.res[g];
        r.o = o;
        r.threads = o.threads_per_block;
        /* k_flat's and k_uni's launch bound */
        if (r.threads > CG_INC_THREADS) r.threads = CG_INC_THREADS;
        bulk_collatz_verify_result_init(r.res);
        s = cg_choose(e, dv, &r.kv, &r.sh);
        /* record replays read REC from global memory anyway; with BC, BM, J in shared memory
         * (d = 12: 70 KB, 3 blocks = 24 warps per SM) the replays' load latency was not hidden:
         * H200, k = 32, FLAT_BATCH refill 16 with records: shared 1.352e12, global 1.594e12
         * numbers/s (docs/perf/collatz-gpu.md "Record replays") */
        if (s == BULK_OK && o.table_mem == BULK_CZ_CUDA_MEM_AUTO && r.kv == BULK_CZ_CUDA_KERNEL_FAST) r.sh = 0;
        if (s == BULK_OK) s = run_init(r, dv);
        st->kernel = r.kv;
        st->table_mem = r.sh ? BULK_CZ_CUDA_MEM_SHARED : BULK_CZ_CUDA_MEM_GLOBAL;
        if (s == BULK_OK) s = verify_work(r, job, g, dv);
        if (s == BULK_OK && !r.overflowed) {
            /* the device's accumulators: the sums, the counts, the largest glide */
            if (cudaMemcpy(r.h_acc, r.d_acc, (size_t)r.grid * sizeof(cg_acc), cudaMemcpyDeviceToHost) != cudaSuccess) {
                cg_note_error(cudaGetLastError(), "accumulators", __FILE__, __LINE__);
                s = BULK_ERR_CUDA;
            } else {
                u128 sum = 0, iter = 0;
                cg_acc m;
                cg_acc_init(&m);
                for (int b = 0; b < r.grid; b++) {
                    sum += r.h_acc[b].sum;
                    iter += r.h_acc[b].iter;
                    cg_acc one = r.h_acc[b];
                    one.sum = one.iter = 0;
                    cg_acc_merge(&m, &one);
                }
                cg_fold(r.res, sum, iter, m.maxg, m.maxn);
            }
        }
        run_free(r, s != BULK_OK);
        if (s != BULK_OK || !r.overflowed) return s;
        /* an escape buffer overflowed: redo this device's share with room for more */
        st->reruns++;
        if (o.escape_capacity >= (1u << 30)) {
            bulk_cz_set_error("more than %u escapes in one wave", o.escape_capacity);
            return BULK_ERR_INTERNAL;
        }
        o.escape_capacity *= 4;
        if (o.wave_numbers > 4096) o.wave_numbers /= 4;
    }
}

} // namespace

/* The verify driver's cached resources of device dev (current on the calling thread). */
void cg_verify_release(int dev)
{
    if (dev >= 0 && dev < CG_MAX_VDEV) vcache_free(&g_vc[dev]);
}
int cg_verify_cached(int dev) { return dev >= 0 && dev < CG_MAX_VDEV && g_vc[dev].s != NULL; }

/* One call of the devices on [first, last]. */
static int verify_part(const bulk_collatz_engine *e, u128 first, u128 last, int G,
                       bulk_collatz_verify_result *out, bulk_collatz_verify_result *res)
{
    cg_piece pieces[CG_MAX_PIECES];
    int np = cg_plan_chunk_x(first, last, e->k, e->kx, e->Sr != NULL, pieces);
    for (int i = 0; i < np; i++)
        if (pieces[i].kind == CG_PIECE_EXT && !ext_uni(e, pieces[i].nH)) {
            /* the per-number walk of K bits holds its states in 64 bits: K <= 40 */
            if (e->k + e->kx > 40) {
                bulk_cz_set_error("K = %d (> 40) on the GPU needs d <= %d and n >= 2^(3d+2) (d = %d)",
                                  e->k + e->kx, CG_UNI_MAX_D, e->d);
                return BULK_ERR_UNSUPPORTED;
            }
            pieces[i].kind = CG_PIECE_EXT_WALK;
        }
    int conv_cpu = 0; /* convergence mode where k_uni does not run every row: the CPU's path */
    for (int i = 0; i < np; i++) conv_cpu |= e->conv && pieces[i].kind == CG_PIECE_EXT_WALK;
    vjob job = { e, pieces, np, G, res };
    int s = conv_cpu ? BULK_ERR_UNSUPPORTED : cg_run_devices(G, verify_device, &job);
    if (s == BULK_ERR_UNSUPPORTED && e->conv) {
        /* (launch(): a row kernel other than k_uni was chosen) the same results on the CPU,
         * one thread: a fallback for small n (< 2^(3d+2)), d > 16, the unsorted extension runs
         * or a forced layout */
        bulk_collatz_verify_result t;
        s = bulk_collatz_verify_chunk(e, cg_u_of(first), cg_u_of(last), &t);
        if (s == BULK_OK) bulk_collatz_verify_result_merge(out, &t);
        cg_stats()->cpu_fallback = 1;
        return s;
    }
    if (s != BULK_OK) return s;
    bulk_collatz_verify_result part;
    bulk_collatz_verify_result_init(&part);
    cg_fold_static_x(&part, first, last, pieces, np, e->G_k, e->kx, e->G_x);
    for (int g = 0; g < G; g++) bulk_collatz_verify_result_merge(&part, &res[g]);
    if (e->conv) bulk_cz_conv_clear_glides(&part); /* k_uni stopped at the dip trips */
    bulk_collatz_verify_result_merge(out, &part);
    return BULK_OK;
}

extern "C" int bulk_collatz_cuda_verify_chunk(const bulk_collatz_engine *e, bulk_u128 first,
                                              bulk_u128 last, bulk_collatz_verify_result *out)
{
    bulk_collatz_cuda_stats *st = cg_stats();
    memset(st, 0, sizeof *st);
    if (!e || !out || (first.lo == 0 && first.hi == 0) || cz_lt(last, first)) return BULK_ERR_ARG;
    const int G = cg_devices();
    if (G == 0) return BULK_ERR_NO_BACKEND;
    double t0 = cg_now();
    bulk_collatz_verify_result *res =
        (bulk_collatz_verify_result *)malloc((size_t)G * sizeof *res);
    if (!res) return BULK_ERR_NOMEM;
    bulk_collatz_verify_result_init(out);
    /* parts of at most 2^72 numbers: the per-block 64-bit glide sums on the device then stay
     * far from wrapping (2^72 * 0.03 mandatory * < 2^12 glide / 2^10 blocks < 2^64) */
    const u128 part = (u128)1 << 72;
    int s = BULK_OK;
    for (u128 a = cg_w_of(first), z = cg_w_of(last);;) {
        u128 b = z - a >= part ? a + part - 1 : z;
        s = verify_part(e, a, b, G, out, res);
        if (s != BULK_OK || b == z) break;
        a = b + 1;
    }
    free(res);
    st->devices = G;
    st->seconds = cg_now() - t0;
    return s;
}
