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

/* the kernels (cg_verify_kernels.cuh), the device state, waves and launches
 * (cg_verify_run.cuh), the extension rows (cg_verify_ext.cuh) */
#include "collatz/cuda/cg_verify_ext.cuh"

namespace {

struct vjob {
    const bulk_collatz_engine *e;
    const cg_piece *pieces;
    int np, G;
    bulk_collatz_verify_result *res; /* G results, one per device */
    const bulk_collatz_wide *floor;  /* pre-drop peaks: the caller's maximum so far (or NULL) */
    const bulk_collatz_wide *seed;   /* and the maximum expected (or NULL; peak.h) */
    cg_ghits *gh;                    /* glide hits: G lists, one per device (or NULL) */
    uint32_t gfloor;                 /* and their floor */
};

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
         * range of fewer rows than rl: with el = ln / rl a launch of 4 rows held 2^23 numbers,
         * ~30 per thread, and the launches' tails cost ~30% at K = 40; docs/perf/collatz-gpu.md) */
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

/* A ROWS or EXT piece's rows against a slice of S. */
int run_piece(vrun &r, vparams &base, const cg_piece &pc, u128 nH, u128 rows, const uint64_t *Sr, const uint64_t *Sc,
              const uint8_t *Sj, uint64_t ne)
{
    if (pc.kind == CG_PIECE_EXT) return run_ext(r, base, nH, rows, Sr, Sc, Sj, ne);
    return run_rows(r, base, nH, rows, Sr, Sc, Sj, ne);
}

/* A ROWS or EXT piece's rows [r0, r0 + rn) against S streamed from the host: slices of `slice`
 * entries through two buffers; a slice is uploaded while the previous slice's launches run
 * (copy stream s2, ordered by events). */
int run_streamed(vrun &r, vparams &base, const cg_piece &pc, u128 r0, u128 rn)
{
    const bulk_collatz_engine *e = r.e;
    size_t freeb = 0, totalb = 0;
    BULK_CUDA_CHECK(NULL, cudaMemGetInfo(&freeb, &totalb));
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
            st = bulk_cuda_fail(NULL, cudaGetLastError(), "S slice buffers", __FILE__, __LINE__);
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
            st = bulk_cuda_fail(NULL, cudaGetLastError(), "S slice upload", __FILE__, __LINE__);
            break;
        }
        r.w->stats.upload_seconds += cg_now() - t0;
        st = run_piece(r, base, pc, pc.nH + r0, rn, sr[bb], sc[bb], sj[bb], cnt);
        if (st == BULK_OK && cudaEventRecord(used[bb], r.s) != cudaSuccess) {
            st = bulk_cuda_fail(NULL, cudaGetLastError(), "cudaEventRecord", __FILE__, __LINE__);
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
    return st;
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
            if (e->k + e->kx > 40)
                return bulk_fail(NULL, BULK_ERR_NOMEM, "K = %d needs the stored sieve sorted by j on the device (%.1f GB)",
                                 e->k + e->kx, (double)e->s_k * 16 / 1e9);
        }
        if (dv->s_whole && !r.o.s_slice_entries) {
            int s = run_piece(r, base, pc, pc.nH + r0, rn, dv->Sr, dv->Sc, dv->Sj, dv->s_k);
            if (s) return s;
            continue;
        }
        int st = run_streamed(r, base, pc, r0, rn);
        if (st) return st;
    }
    return end_wave(r, 1);
}

int verify_device(cg_worker &w, void *arg)
{
    const vjob &job = *(const vjob *)arg;
    const bulk_collatz_engine *e = job.e;
    const int g = w.g;
    bulk_collatz_cuda_stats *st = &w.stats;
    int need_S = 0;
    for (int i = 0; i < job.np; i++) need_S |= job.pieces[i].kind == CG_PIECE_ROWS || job.pieces[i].kind == CG_PIECE_EXT;
    cg_dev *dv;
    int s = cg_dev_prepare(w, e, need_S, 0, &dv);
    if (s) return s;
    bulk_collatz_cuda_opts o = cg_opts(e);
    for (int attempt = 0;; attempt++) {
        vrun r;
        memset(&r, 0, sizeof r);
        r.w = &w;
        r.e = e;
        r.res = &job.res[g];
        r.o = o;
        r.threads = o.threads_per_block;
        r.peaks = e->peaks;
        r.gh = job.gh ? &job.gh[g] : NULL;
        r.gfloor = job.gfloor;
        if (r.gh) r.gh->n = 0; /* (a rerun lists the device's share again) */
        if (r.peaks) r.wave_limit = o.launch_numbers ? o.launch_numbers : 1;
        /* k_flat's and k_uni's launch bound */
        if (r.threads > CG_INC_THREADS) r.threads = CG_INC_THREADS;
        bulk_collatz_verify_result_init(r.res);
        if (r.peaks) bulk_cz_peaks_init_floor(&r.pk, e, r.res, job.floor, job.seed);
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
        if (s == BULK_OK && r.peaks && !r.overflowed) s = bulk_cz_peaks_flush(&r.pk);
        if (s == BULK_OK && !r.overflowed) {
            /* the device's accumulators: the sums, the counts, the largest glide */
            if (cudaMemcpy(r.h_acc, r.d_acc, (size_t)r.grid * sizeof(cg_acc), cudaMemcpyDeviceToHost) != cudaSuccess) {
                s = bulk_cuda_fail(NULL, cudaGetLastError(), "accumulators", __FILE__, __LINE__);
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
        if (r.peaks) bulk_cz_peaks_free(&r.pk);
        if (s != BULK_OK || !r.overflowed) return s;
        /* an escape buffer overflowed: redo this device's share with room for more */
        st->reruns++;
        if (o.escape_capacity >= (1u << 30))
            return bulk_fail(NULL, BULK_ERR_INTERNAL, "more than %u escapes in one wave", o.escape_capacity);
        o.escape_capacity *= 4;
        if (o.wave_numbers > 4096) o.wave_numbers /= 4;
    }
}

} // namespace

/* The verify driver's resources of one device (current on the calling thread). */
void cg_verify_free(cg_vcache *c) { vcache_free(c); }

/* Pre-drop peaks: 1 when no number that the pieces' sieves eliminated (each drops below itself
 * within its block's L halvings, so its pre-drop peak is below bulk_cz_prefix_bound(L, its
 * block's last n)) can beat the part's maximum or be a hit, i.e. every bound is at most the
 * threshold of the part's end: min(max(peak, floor) - 1, max(above, floor)), as
 * bulk_cz_peaks_block_end checks each block on the CPU. */
static int pieces_bounded(const bulk_collatz_engine *e, const cg_piece *pieces, int np,
                          const bulk_collatz_verify_result *part, const bulk_collatz_wide *floor,
                          const bulk_collatz_wide *seed)
{
    /* the threshold of a result holding the part's maximum, above the floor (bs = the floor) */
    bulk_collatz_verify_result t;
    bulk_collatz_verify_result_init(&t);
    t.peak = part->peak;
    t.peak_n = part->peak_n;
    struct cz_peaks pk;
    bulk_cz_peaks_init_floor(&pk, e, &t, floor, seed);
    int ok = 1;
    for (int i = 0; i < np && ok; i++) {
        const cg_piece &pc = pieces[i];
        int L;
        u128 last;
        if (pc.kind == CG_PIECE_ONE) continue; /* 1: never below the threshold of a larger peak, run exactly */
        if (pc.kind == CG_PIECE_WALK) {
            L = pc.L;
            last = ((pc.nH + 1) << L) - 1;
        } else {
            L = pc.kind == CG_PIECE_ROWS ? e->k : e->k + e->kx;
            last = ((pc.nH + pc.rows) << L) - 1;
        }
        ok = cz_wide_le128(bulk_cz_prefix_bound(L, last), &pk.t); /* (L > 80: never) */
    }
    bulk_cz_peaks_free(&pk);
    return ok;
}

/* One call of the devices on [first, last]; with pre-drop peaks above *floor and *seed (each
 * may be NULL; peak.h). */
static int verify_part(bulk_ctx *ctx, bulk_collatz_cuda_state *cs, const bulk_collatz_engine *e, u128 first,
                       u128 last, int G, bulk_collatz_verify_result *out, bulk_collatz_verify_result *res,
                       const bulk_collatz_wide *floor, const bulk_collatz_wide *seed, cg_ghits *gh = NULL,
                       uint32_t gfloor = UINT32_MAX)
{
    cg_piece pieces[CG_MAX_PIECES];
    int np = cg_plan_chunk_x(first, last, e->k, e->kx, e->Sr != NULL, pieces);
    for (int i = 0; i < np; i++)
        if (pieces[i].kind == CG_PIECE_EXT && !ext_uni(e, pieces[i].nH)) {
            /* the per-number walk of K bits holds its states in 64 bits: K <= 40 */
            if (e->k + e->kx > 40)
                return bulk_fail(ctx, BULK_ERR_UNSUPPORTED, "K = %d (> 40) on the GPU needs d <= %d and n >= 2^(3d+2) (d = %d)",
                                 e->k + e->kx, CG_UNI_MAX_D, e->d);
            pieces[i].kind = CG_PIECE_EXT_WALK;
        }
    int conv_cpu = 0; /* convergence mode where k_uni does not run every row: the CPU's path */
    for (int i = 0; i < np; i++) conv_cpu |= e->conv && pieces[i].kind == CG_PIECE_EXT_WALK;
    vjob job = { e, pieces, np, G, res, floor, seed, gh, gfloor };
    int s = conv_cpu ? BULK_ERR_UNSUPPORTED : cg_run_devices(ctx, cs, G, verify_device, &job);
    bulk_collatz_verify_result part;
    bulk_collatz_verify_result_init(&part);
    if (s == BULK_OK) {
        cg_fold_static_x(&part, first, last, pieces, np, e->G_k, e->kx, e->G_x);
        for (int g = 0; g < G; g++) bulk_collatz_verify_result_merge(&part, &res[g]);
        /* a sieved number whose pre-drop peak could matter (a small maximum near 1, a small
         * above value): the part again on the CPU, which reruns such blocks number by number */
        if (e->peaks && !pieces_bounded(e, pieces, np, &part, floor, seed)) s = BULK_ERR_UNSUPPORTED;
    }
    if (s == BULK_ERR_UNSUPPORTED && (e->conv || e->peaks)) {
        /* (launch(): a row kernel other than k_uni was chosen) the same results on the CPU,
         * one thread: a fallback for small n (< 2^(3d+2)), d > 16, the unsorted extension runs
         * or a forced layout; with pre-drop peaks also the CORE kernel and the case above */
        bulk_collatz_verify_result t;
        s = ctx->cpu->collatz->verify_chunk(ctx, e, cg_u_of(first), cg_u_of(last), &t);
        if (s == BULK_OK) bulk_collatz_verify_result_merge(out, &t);
        cs->stats.cpu_fallback = 1;
        return s;
    }
    if (s != BULK_OK) return s;
    if (e->conv) bulk_cz_conv_clear_glides(&part); /* k_uni stopped at the dip trips */
    bulk_collatz_verify_result_merge(out, &part);
    return BULK_OK;
}

/* ---- pre-drop peaks: the thresholds of a GPU call ----------------------------------------------
 * A number escapes to the host when a state reaches the threshold vlim of the device's running
 * maximum (peak.h). With nothing known the first launches would send every number to the host,
 * so a call starts from one of:
 * - the caller's floor (the maximum of the numbers before first: verify_run's earlier waves);
 * - a seed (verify_run.c peak_seed): the largest pre-drop peak of the first 2^28 numbers,
 *   computed on the CPU threads and thrown away (the GPU covers the whole range, so its blocks
 *   are those of the CPU backend's run), halved in convergence mode. The GPU's maximum must
 *   reach the seed, which it does unless almost every number of the range is below it; if not,
 *   the call is done again as below. The waves start small and double (vrun::wave_limit), so
 *   the threshold soon follows the maximum.
 * - segments (--peak-above V with V small against the range's peaks, or neither floor nor
 *   seed given): the hits need more than
 *   every smaller number's peak, which no seed can stand for, and with V small the threshold
 *   max(V, maximum before the segment) would send a large share to the host. So the first 2^20
 *   numbers (up to 2^28 near 1) run on the CPU, then segments sized by the maximum before each
 *   (segment_last). Their ends cut the blocks: in convergence mode `peak` may then cover
 *   numbers that the CPU backend's blocks prove by smaller ones (docs/collatz-peaks.md); the
 *   hits are those of the CPU backend. */
static u128 prefix_last(u128 first, u128 last)
{
    const u128 lo = (u128)1 << 28;
    u128 b = first + ((u128)1 << 20) - 1;
    if (b < lo - 1) b = lo - 1;
    return b > last || b < first ? last : b;
}

static double wide_double(const bulk_collatz_wide *w)
{
    double x = 0;
    for (int i = BULK_COLLATZ_WIDE_LIMBS; i-- > 0;) x = x * 18446744073709551616.0 + (double)w->limb[i];
    return x;
}

/* vlim / n for a threshold t near n: a random trajectory reaches y times its start with
 * probability about 1/y (the walk of log v drifts down; its excursions above y fall off as 1/y),
 * so about one number in y escapes. */
static double escape_ratio(const bulk_collatz_engine *e, const bulk_collatz_wide *t, u128 n)
{
    return wide_double(t) / (double)n * (double)((uint64_t)1 << e->d) / (double)e->MXmax;
}

/* The next segment after a maximum M at a: about 2^17 escapes (well inside a wave's escape
 * buffer); at least 2^24 numbers (the calls' fixed costs), at most 2^72 (verify_part); ends
 * aligned to whole blocks of 2^K once that large. */
static u128 segment_last(const bulk_collatz_engine *e, const bulk_collatz_wide *M, u128 a, u128 last)
{
    double sz = 131072.0 * escape_ratio(e, M, a);
    if (sz < 16777216.0) sz = 16777216.0;
    if (sz > 4.7e21) sz = 4.7e21; /* 2^72 */
    const u128 S = (u128)sz;
    const int K = e->k + e->kx;
    u128 b = a + S - 1;
    if (b < a || b > last) return last;
    if (K < 100 && (S >> K) != 0) {
        const u128 aligned = ((b + 1) >> K) << K;
        if (aligned > a) b = aligned - 1;
    }
    return b;
}

static int segments(bulk_ctx *ctx, bulk_collatz_cuda_state *cs, const bulk_collatz_engine *e, u128 a, u128 z,
                    const bulk_collatz_wide *floor, int G, bulk_collatz_verify_result *out,
                    bulk_collatz_verify_result *res)
{
    bulk_collatz_wide fl;
    memset(&fl, 0, sizeof fl);
    int s = BULK_OK, more = 1;
    if (floor) {
        fl = *floor;
    } else {
        const u128 b = prefix_last(a, z);
        bulk_collatz_verify_result t;
        s = ctx->cpu->collatz->verify_chunk(ctx, e, cg_u_of(a), cg_u_of(b), &t);
        if (s == BULK_OK) bulk_collatz_verify_result_merge(out, &t);
        more = s == BULK_OK && b != z;
        a = b + 1;
    }
    while (more) {
        const bulk_collatz_wide M = cz_wide_cmp(&fl, &out->peak) > 0 ? fl : out->peak;
        const u128 b = segment_last(e, &M, a, z);
        s = verify_part(ctx, cs, e, a, b, G, out, res, &M, NULL);
        more = s == BULK_OK && b != z;
        a = b + 1;
    }
    return s;
}

static int wide_zero(const bulk_collatz_wide *w) { return !(w->limb[0] | w->limb[1] | w->limb[2] | w->limb[3]); }

static int peaks_call(bulk_ctx *ctx, bulk_collatz_cuda_state *cs, const bulk_collatz_engine *e, u128 a, u128 z,
                      const bulk_collatz_wide *floor, const bulk_collatz_wide *seed_in, int G,
                      bulk_collatz_verify_result *out, bulk_collatz_verify_result *res)
{
    if (floor && wide_zero(floor)) floor = NULL;
    if (seed_in && wide_zero(seed_in)) seed_in = NULL;
    /* the hits' fixed threshold max(V, floor) against the numbers of the range: segments when it
     * would send more than about 2^18 numbers to the host */
    if (e->have_above) {
        const bulk_collatz_wide *h = floor && cz_wide_cmp(floor, &e->above) > 0 ? floor : &e->above;
        if (escape_ratio(e, h, z) < (double)(z - a + 1) / 262144.0) return segments(ctx, cs, e, a, z, floor, G, out, res);
    }
    /* neither floor nor seed (a caller other than verify_run.c, or its sample failed) */
    if (!floor && !seed_in) return segments(ctx, cs, e, a, z, NULL, G, out, res);
    const bulk_collatz_wide *seed = floor ? NULL : seed_in; /* a floor makes a seed needless */
    const u128 part = (u128)1 << 72;
    bulk_collatz_verify_result got;
    bulk_collatz_verify_result_init(&got);
    for (u128 x = a;;) {
        const u128 y = z - x >= part ? x + part - 1 : z;
        const bulk_collatz_wide *f = floor;
        if (!cz_is_zero(got.peak_n) && (!f || cz_wide_cmp(&got.peak, f) > 0)) f = &got.peak;
        int s = verify_part(ctx, cs, e, x, y, G, &got, res, f, seed);
        if (s != BULK_OK) return s;
        if (y == z) break;
        x = y + 1;
    }
    if (seed && (cz_is_zero(got.peak_n) || cz_wide_cmp(&got.peak, seed) < 0))
        return segments(ctx, cs, e, a, z, NULL, G, out, res); /* the seed was not reached */
    bulk_collatz_verify_result_merge(out, &got);
    return BULK_OK;
}

extern "C" int bulk_collatz_cuda_verify_chunk_peaks(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                                    bulk_u128 last, const bulk_collatz_wide *floor,
                                                    const bulk_collatz_wide *seed, bulk_collatz_verify_result *out)
{
    if (!e || !e->peaks) return bulk_collatz_cuda_verify_chunk(ctx, e, first, last, out);
    bulk_collatz_cuda_state *cs;
    int s = cg_state(ctx, &cs);
    if (s) return s;
    bulk_collatz_cuda_stats *st = &cs->stats;
    memset(st, 0, sizeof *st);
    if (!out || (first.lo == 0 && first.hi == 0) || cz_lt(last, first)) return BULK_ERR_ARG;
    const int G = cg_devices(ctx, e);
    if (G == 0) return bulk_fail(ctx, BULK_ERR_NO_BACKEND, "no CUDA device for the context's device %d", ctx->cuda->device);
    double t0 = cg_now();
    bulk_collatz_verify_result *res = (bulk_collatz_verify_result *)malloc((size_t)G * sizeof *res);
    if (!res) return BULK_ERR_NOMEM;
    bulk_collatz_verify_result_init(out);
    s = peaks_call(ctx, cs, e, cg_w_of(first), cg_w_of(last), floor, seed, G, out, res);
    free(res);
    st->devices = G;
    st->seconds = cg_now() - t0;
    return s;
}

extern "C" int bulk_collatz_cuda_verify_chunk(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                              bulk_u128 last, bulk_collatz_verify_result *out)
{
    bulk_collatz_cuda_state *cs;
    int s = cg_state(ctx, &cs);
    if (s) return s;
    bulk_collatz_cuda_stats *st = &cs->stats;
    memset(st, 0, sizeof *st);
    if (!e || !out || (first.lo == 0 && first.hi == 0) || cz_lt(last, first)) return BULK_ERR_ARG;
    const int G = cg_devices(ctx, e);
    if (G == 0) return bulk_fail(ctx, BULK_ERR_NO_BACKEND, "no CUDA device for the context's device %d", ctx->cuda->device);
    double t0 = cg_now();
    bulk_collatz_verify_result *res =
        (bulk_collatz_verify_result *)malloc((size_t)G * sizeof *res);
    if (!res) return BULK_ERR_NOMEM;
    bulk_collatz_verify_result_init(out);
    /* parts of at most 2^72 numbers: the per-block 64-bit glide sums on the device then stay
     * far from wrapping (2^72 * 0.03 mandatory * < 2^12 glide / 2^10 blocks < 2^64) */
    const u128 part = (u128)1 << 72;
    for (u128 a = cg_w_of(first), z = cg_w_of(last);;) {
        u128 b = z - a >= part ? a + part - 1 : z;
        s = verify_part(ctx, cs, e, a, b, G, out, res, NULL, NULL);
        if (s != BULK_OK || b == z) break;
        a = b + 1;
    }
    free(res);
    st->devices = G;
    st->seconds = cg_now() - t0;
    return s;
}

/* Glide hits in ascending n. */
static int ghit_cmp(const void *a, const void *b)
{
    const u128 x = cg_w_of(((const bulk_collatz_record *)a)->n), y = cg_w_of(((const bulk_collatz_record *)b)->n);
    return x < y ? -1 : x > y;
}

extern "C" int bulk_collatz_cuda_verify_chunk_glides(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                                     bulk_u128 last, uint64_t floor, size_t max,
                                                     bulk_collatz_record **hits, size_t *count,
                                                     bulk_collatz_verify_result *out)
{
    bulk_collatz_cuda_state *cs;
    int s = cg_state(ctx, &cs);
    if (s) return s;
    bulk_collatz_cuda_stats *st = &cs->stats;
    memset(st, 0, sizeof *st);
    if (!e || !out || !hits || !count || (first.lo == 0 && first.hi == 0) || cz_lt(last, first)) return BULK_ERR_ARG;
    /* the full-glide mode, and a floor that no number eliminated by the sieve reaches (one
     * eliminated at level L <= k + kx drops within L halvings and at most L odd steps) */
    if (e->conv || e->peaks || floor < 2 * (uint64_t)(e->k + e->kx) || floor >= UINT32_MAX) return BULK_ERR_ARG;
    *hits = NULL;
    *count = 0;
    const int G = cg_devices(ctx, e);
    if (G == 0) return bulk_fail(ctx, BULK_ERR_NO_BACKEND, "no CUDA device for the context's device %d", ctx->cuda->device);
    double t0 = cg_now();
    bulk_collatz_verify_result *res = (bulk_collatz_verify_result *)malloc((size_t)G * sizeof *res);
    cg_ghits *gh = (cg_ghits *)calloc((size_t)G, sizeof *gh);
    bulk_collatz_record *all = NULL;
    size_t n = 0;
    s = res && gh ? BULK_OK : BULK_ERR_NOMEM;
    for (int g = 0; g < G && gh; g++) gh[g].max = max;
    bulk_collatz_verify_result_init(out);
    /* parts of at most 2^72 numbers, as bulk_collatz_cuda_verify_chunk */
    const u128 part = (u128)1 << 72;
    for (u128 a = cg_w_of(first), z = cg_w_of(last); s == BULK_OK;) {
        u128 b = z - a >= part ? a + part - 1 : z;
        s = verify_part(ctx, cs, e, a, b, G, out, res, NULL, NULL, gh, (uint32_t)floor);
        for (int g = 0; s == BULK_OK && g < G; g++) {
            if (gh[g].n > max - n) {
                s = BULK_ERR_OVERFLOW;
                break;
            }
            bulk_collatz_record *v = (bulk_collatz_record *)realloc(all, (n + gh[g].n + 1) * sizeof *v);
            if (!v) {
                s = BULK_ERR_NOMEM;
                break;
            }
            all = v;
            if (gh[g].n) memcpy(all + n, gh[g].v, gh[g].n * sizeof *v);
            n += gh[g].n;
        }
        if (b == z) break;
        a = b + 1;
    }
    for (int g = 0; g < G && gh; g++) free(gh[g].v);
    free(gh);
    free(res);
    st->devices = G;
    st->seconds = cg_now() - t0;
    if (s != BULK_OK) {
        free(all);
        return s;
    }
    if (n > 1) qsort(all, n, sizeof *all, ghit_cmp);
    *hits = all;
    *count = n;
    return BULK_OK;
}
