/* The verify kernels of the CUDA Collatz backend (CUDA C++, included by cg_verify.cu only): the
 * launch parameters (vparams), the per-lane helpers, the CORE kernel's ROWS / ENTRY layouts and
 * the WALK layout of range ends (k_verify), the FLAT_BATCH lane loop (k_flat), the UNIFORM trips
 * (k_uni) on stored and extension rows, the generation of level-K sieve slices (k_ext_gen), and
 * pick(), which maps a launch mode to its kernel. */
#ifndef BULK_COLLATZ_CUDA_CG_VERIFY_KERNELS_CUH
#define BULK_COLLATZ_CUDA_CG_VERIFY_KERNELS_CUH

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
    /* the escape threshold of a table operation's start state (cg_core.h cg_esc_of): the margin
     * of 2^128, lower with pre-drop peaks (the host finishes those numbers and their peaks) */
    cg_u128 vesc;
    /* glide hits (full-glide mode, cg_verify.cu bulk_collatz_cuda_verify_chunk_glides): a number
     * whose glide exceeds gfloor escapes to the host, which books it and lists it; UINT32_MAX
     * (no glide is larger): none */
    uint32_t gfloor;
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
                                           uint64_t nH_hi, uint64_t pow3j, uint64_t c, int64_t done,
                                           cg_u128 vesc)
{
    /* (the CORE kernel never runs with pre-drop peaks: launch() refuses it, vesc is the margin) */
    if (KV == BULK_CZ_CUDA_KERNEL_FAST)
        return cg_iterate_esc(n, nH_lo, nH_hi, pow3j, c, done, (unsigned)d, t.BC, t.BM, t.J, vesc);
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
    if (g < 0 || (uint64_t)g > p.gfloor) {
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
                book(a, p, n, iterate<KV>(t, p.tb.d, n, lo, hi, pow3j, c, done, p.vesc), p.k);
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
                book(a, p, n, iterate<KV>(t, p.tb.d, n, lo, hi, pow3j, c, done, p.vesc), p.k);
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
                g = iterate<KV>(t, p.tb.d, n, p.nH0_lo, p.nH0_hi, t.pow3[j], c, (int64_t)p.L + j, p.vesc);
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
 * (docs/collatz-gpu.md "Incremental set-up"). Same v, same overflow: the same results. Idle lanes
 * refill together (cg_refill_now) and a flagged operation replays by its record lows
 * (cg_lane_iter_rec; docs/perf/collatz-gpu.md). */
template <bool SH>
__global__ void __launch_bounds__(CG_INC_THREADS, 4) k_flat(vparams p)
{
    const cg_tabs t = cg_setup_tables<BULK_CZ_CUDA_KERNEL_FAST, SH>(p.tb);
    cg_acc a;
    cg_acc_init(&a);
    const unsigned d = (unsigned)p.tb.d;
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
            const int rc = cg_lane_iter_rec(&s, d, p.vesc, mask, t.BC, t.BM, t.J, p.tb.ROFF, p.tb.REC, p.tb.RST);
            if (rc) {
                busy = 0;
                if (rc == 1 && s.done <= p.gfloor) {
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
 * from the parameters. PK: pre-drop peaks, the escape threshold p.vesc (else the margin of 2^128,
 * folded to one compare). */
template <int D, bool EXT, bool PK> __global__ void __launch_bounds__(CG_INC_THREADS, 4) k_uni(vparams p)
{
    constexpr int U = 2; /* trips per loop pass (the setup once per pass) */
    const cg_tabs t = cg_setup_tables<BULK_CZ_CUDA_KERNEL_FAST, false>(p.tb);
    /* the accumulator in its narrowest form (a glide < 2^32; the count per launch < 2^32) */
    uint64_t sum = 0;
    uint32_t maxg = 0;
    cg_u128 maxn = cg_make(0, 0);
    const unsigned d = D ? (unsigned)D : (unsigned)p.tb.d;
    const cg_u128 vesc = PK ? p.vesc : cg_esc_of(cg_limit_bits(d));
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
                    rc = cg_uni1_trip(&s, d, vesc, mask, pairs, e.x, e.y, e.z, e.w, f.x, f.y);
                }
                /* convergence mode: the dip test proved a value below n (the lane entered
                 * record mode): done, the exact glide is not needed */
                if (p.conv && rc == 0 && s.ri != 0) rc = 1;
                need = rc != 0;
            }
        }
        /* the number that ended in this pass (at most one per lane), booked once per pass; a
         * glide hit escapes to the host instead */
        if (rc == 1 && s.done > p.gfloor) rc = 2;
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

template <bool PK> kfn pick_uni(int x, int d)
{
    return x ? (d == 10 ? k_uni<10, true, PK> : d == 12 ? k_uni<12, true, PK> : d == 14 ? k_uni<14, true, PK>
                : d == 16 ? k_uni<16, true, PK> : k_uni<0, true, PK>)
             : (d == 10 ? k_uni<10, false, PK> : d == 12 ? k_uni<12, false, PK> : d == 14 ? k_uni<14, false, PK>
                : d == 16 ? k_uni<16, false, PK> : k_uni<0, false, PK>);
}

/* pk: pre-drop peaks (k_uni's PK; the other kernels read p.vesc whatever it is) */
kfn pick(int kv, int sh, int mode, int e_d, int pk)
{
    if (mode == MODE_UNI || mode == MODE_UNI_EXT)
        return pk ? pick_uni<true>(mode == MODE_UNI_EXT, e_d) : pick_uni<false>(mode == MODE_UNI_EXT, e_d);
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

} // namespace
#endif
