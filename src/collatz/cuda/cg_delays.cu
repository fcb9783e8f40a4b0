/* Delays on the GPUs (seed 004 section 5.4, Algorithm 2; seed 003 sections 4-9): every n of a
 * range, table steps B, C, J while the value is >= 2^a, then the delay table A (seed 003's
 * "large table in global memory", option 5: B, C, J in shared memory, A in global memory).
 * Bit-identical to bulk_collatz_delays / bulk_collatz_delay_stats: the kernels run cg_delay
 * (cg_core.h, mirrors cz_delay) or cz_delay itself; a number whose value would leave 128 bits
 * escapes to the host, which computes its delay on the engine's exact path.
 *
 * Layouts: OUT writes one u32 per number (coalesced); BATCH_BLOCK gives a batch of >= 256
 * numbers to a thread block (block reduction, one write per batch); BATCH_THREAD gives a whole
 * small batch to one thread (seed 003 section 5: one batch per thread was its fastest). */
#include <stdlib.h>
#include <string.h>

/* the loops (cg_delays_loops.cuh) and the kernels (cg_delays_kernels.cuh) */
#include "collatz/cuda/cg_delays_kernels.cuh"

/* A launch's buffers (device and pinned host) and events, two sets per device, kept between
 * calls in the context's bulk_collatz_cuda_state::dc (grown on demand, freed by the table's
 * release or after a failed run). */
struct cg_dbuf {
    uint32_t *d_out, *d_mn, *d_mx, *h_out, *h_mn, *h_mx;
    unsigned long long *d_sum, *h_sum, *d_esc, *h_esc;
    unsigned int *d_cnt, *h_cnt;
    cudaEvent_t ev, k0, k1; /* done; the kernel's start and end (timing) */
    uint64_t start, n;      /* units of the launch in flight, n = 0: none */
};
struct cg_dcache {
    cudaStream_t stream, copier;
    cg_dbuf b[2];
    uint64_t cap_out, cap_b; /* units the buffers hold (OUT numbers, batches) */
    uint32_t cap_esc;
    uint32_t *CJ; /* V5 entries of d = cj_d (0: none) */
    int cj_d;
    uint64_t *cls2;    /* the class path: classes (c, 3^j) and the residue map of M = cls_M bits */
    uint32_t *cmap;
    int cls_M;
    uint32_t cls_n;
    uint16_t *cd;      /* phase 1's class delays, cap_cd entries */
    uint64_t cap_cd;
};

namespace {

typedef cg_dbuf dbuf;
typedef cg_dcache dcache;

void dbuf_free_out(dbuf *b)
{
    cudaFree(b->d_out);
    cudaFreeHost(b->h_out);
    b->d_out = b->h_out = NULL;
}
void dbuf_free_b(dbuf *b)
{
    cudaFree(b->d_mn);
    cudaFree(b->d_mx);
    cudaFree(b->d_sum);
    cudaFreeHost(b->h_mn);
    cudaFreeHost(b->h_mx);
    cudaFreeHost(b->h_sum);
    b->d_mn = b->d_mx = b->h_mn = b->h_mx = NULL;
    b->d_sum = b->h_sum = NULL;
}
void dcache_free(dcache *c)
{
    for (int i = 0; i < 2; i++) {
        dbuf *b = &c->b[i];
        dbuf_free_out(b);
        dbuf_free_b(b);
        cudaFree(b->d_esc);
        cudaFree(b->d_cnt);
        cudaFreeHost(b->h_esc);
        cudaFreeHost(b->h_cnt);
        if (b->ev) cudaEventDestroy(b->ev);
        if (b->k0) cudaEventDestroy(b->k0);
        if (b->k1) cudaEventDestroy(b->k1);
    }
    if (c->stream) cudaStreamDestroy(c->stream);
    if (c->copier) cudaStreamDestroy(c->copier);
    cudaFree(c->CJ);
    cudaFree(c->cls2);
    cudaFree(c->cmap);
    cudaFree(c->cd);
    memset(c, 0, sizeof *c);
}

struct djob {
    bulk_ctx *ctx;
    const bulk_collatz_engine *e;
    u128 first;
    uint64_t count;    /* numbers (OUT) or batches */
    uint64_t batch;    /* 0: OUT */
    uint32_t *out;
    uint64_t *sum;
    uint32_t *mn, *mx;
};

/* Host share of one escaped number: its exact delay into the outputs. */
int settle(const djob &j, uint64_t off)
{
    u128 n = j.first + off;
    uint64_t w[2] = { (uint64_t)n, (uint64_t)(n >> 64) }, dl = 0;
    int s = bulk_cz_exact(w, 2, 0, &dl, NULL, NULL, 0, NULL);
    if (s != BULK_OK) return s;
    if (dl > UINT32_MAX) return BULK_ERR_OVERFLOW;
    if (!j.batch) {
        j.out[off] = (uint32_t)dl;
    } else {
        uint64_t b = off / j.batch;
        j.sum[b] += dl;
        if ((uint32_t)dl < j.mn[b]) j.mn[b] = (uint32_t)dl;
        if ((uint32_t)dl > j.mx[b]) j.mx[b] = (uint32_t)dl;
    }
    return BULK_OK;
}

/* Device g's share [u0, u0 + un) of the units (numbers or batches), in launches; each launch's
 * outputs and escapes come back before the next one's are needed (two buffer sets, so the host
 * copies and settles one launch while the GPU runs the next). */
/* A device's share of a call as delays_device runs it: its units, the loop, kernels, placement
 * and launch shape, and the merge-class path's kernels when it applies. */
struct dplan {
    bulk_collatz_cuda_opts o;
    uint64_t u0, un;   /* the device's units (numbers or batches) */
    int kv, sh, v5, mode;
    kfn f;             /* the kernel (no class path) */
    size_t smem, span_bytes;
    int grid;
    uint32_t span, lgb;
    uint64_t ub;       /* numbers per unit */
    int cls;           /* the class path: phase 1 f1, phase 2 f2 */
    kfn f1, f2;
    size_t smem1;
    int grid1, grid2;
    uint64_t per, piece, upb; /* units per launch, numbers per warp piece, pieces per batch */
};

/* The loop, kernel, placement and grid for device g's share of j (dplan's first part). */
int delays_plan_kernel(const djob &j, cg_worker &w, const cg_dev *dv, dplan &pl)
{
    const bulk_collatz_engine *e = j.e;
    bulk_collatz_cuda_stats *st = &w.stats;
    int s;
    u128 u0w, unw;
    cg_split_rows((u128)j.count, w.G, w.g, &u0w, &unw);
    const uint64_t u0 = (uint64_t)u0w, un = (uint64_t)unw;
    bulk_collatz_cuda_opts o = cg_opts(e);
    int kv, sh;
    /* V5 takes d <= 17 and batches of >= 32 numbers (or none); elsewhere V4X2 runs */
    const int v5 = v5_lanes(o.delay_loop) && e->d <= CG5_MAX_D && o.kernel != BULK_CZ_CUDA_KERNEL_CORE &&
                   (!j.batch || j.batch >= 32);
    if (v5_lanes(o.delay_loop) && !v5) o.delay_loop = BULK_CZ_CUDA_DELAY_V4X2;
    if (v5) {
        /* V5's own placement: its 4-byte entries in shared memory while they fit (d <= 15 on an
         * H200: 128 KB), unless global memory is asked for */
        kv = BULK_CZ_CUDA_KERNEL_FAST;
        const int fits = cg5_smem_bytes(e->d) + 1024 <= (size_t)dv->smem_optin;
        if (o.table_mem == BULK_CZ_CUDA_MEM_SHARED && !fits)
            return bulk_fail(NULL, BULK_ERR_ARG, "V5 delay entries of d = %d do not fit in shared memory (%zu of %d bytes)",
                             e->d, cg5_smem_bytes(e->d), dv->smem_optin);
        sh = o.table_mem == BULK_CZ_CUDA_MEM_GLOBAL ? 0 : fits;
    } else if ((s = cg_choose(e, dv, &kv, &sh))) {
        return s;
    }
    if (v5) {
        /* the round length: as asked, else V5's own default (cg5_default_unroll), not V4's */
        bulk_collatz_cuda_opts raw;
        bulk_collatz_cuda_get_opts(e->ctx, &raw);
        o.delay_unroll = raw.delay_unroll ? raw.delay_unroll : (int)cg5_default_unroll((unsigned)e->d, (unsigned)e->a);
        /* blocks of 1024 threads unless asked otherwise: with the entries in shared memory (64 KB
         * at d = 14, 128 KB at d = 15) blocks of 256 would leave 24 or 8 warps per SM */
        if (!raw.threads_per_block) o.threads_per_block = CG5_THREADS;
    }
    st->kernel = kv;
    st->table_mem = sh ? BULK_CZ_CUDA_MEM_SHARED : BULK_CZ_CUDA_MEM_GLOBAL;
    const int v4 = kv == BULK_CZ_CUDA_KERNEL_FAST && o.delay_loop != BULK_CZ_CUDA_DELAY_V3 && !v5;
    st->delay_loop = kv == BULK_CZ_CUDA_KERNEL_FAST ? o.delay_loop : 0;
    const int mode = !j.batch     ? MODE_OUT
                     : v4 || v5 ? (j.batch >= 32 ? MODE_BATCH_WARP : MODE_BATCH_THREAD)
                              : (j.batch >= (uint64_t)o.threads_per_block ? MODE_BATCH_BLOCK : MODE_BATCH_THREAD);
    kfn f = pick(kv, sh, mode, o.delay_loop, o.delay_unroll);
    /* v4: BC + J in shared memory (no BM), and AUTO takes shared only while 4 blocks fit
     * (d <= 12 on an H200); else the tables stay in global memory (L1/L2), which keeps all
     * resident warps (measured 2026-11-21: d = 12 shared with BM, 24 warps per SM, the delay
     * kernels' issue rate was bound by the step's dependent chain) */
    if (v4 && o.table_mem == BULK_CZ_CUDA_MEM_AUTO)
        sh = cg_smem_bytes_nobm(e->d, 1) + 2048 <= (size_t)dv->smem_optin / 4;
    if (v4) st->table_mem = sh ? BULK_CZ_CUDA_MEM_SHARED : BULK_CZ_CUDA_MEM_GLOBAL;
    if (v4) f = pick(kv, sh, mode, o.delay_loop, o.delay_unroll);
    /* V5, batches of 2^lgb < CG_DELAY_PIECE5 numbers: a warp takes span whole batches (delays_span),
     * their statistics in shared memory after the table (12 bytes per batch per warp) */
    uint32_t span = 1, lgb = 0;
    if (v5 && mode == MODE_BATCH_WARP && j.batch < CG_DELAY_PIECE5 && !(j.batch & (j.batch - 1))) {
        while (((uint64_t)1 << lgb) < j.batch) lgb++;
        span = (uint32_t)(CG_DELAY_PIECE5 >> lgb);
        if (span > 32) span = 32; /* 12 KB of statistics per block of 1024 threads at most */
    }
    const size_t span_bytes = span > 1 ? (size_t)(o.threads_per_block / 32) * span * 12 : 0;
    const size_t smem = v5 ? (sh ? cg5_smem_bytes(e->d) : 0) + span_bytes
                       : v4 ? cg_smem_bytes_nobm(e->d, sh)
                            : cg_smem_bytes(e->d, kv, sh);
    if (v5 && smem + 1024 > (size_t)dv->smem_optin)
        return bulk_fail(NULL, BULK_ERR_ARG, "V5 delay kernel needs %zu bytes of shared memory (%d per block)", smem,
                         dv->smem_optin);
    if ((s = cg_smem_limit((const void *)f, smem))) return s;
    int per_sm = 0;
    BULK_CUDA_CHECK(NULL, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, o.threads_per_block, smem));
    const int grid = dv->sms * (per_sm > 0 ? per_sm : 1);
    pl.o = o;
    pl.u0 = u0;
    pl.un = un;
    pl.kv = kv;
    pl.sh = sh;
    pl.v5 = v5;
    pl.mode = mode;
    pl.f = f;
    pl.smem = smem;
    pl.span_bytes = span_bytes;
    pl.grid = grid;
    pl.span = span;
    pl.lgb = lgb;
    return BULK_OK;
}

/* The merge-class path where it applies, and the units per launch (dplan's second part). */
int delays_plan_launch(const djob &j, const cg_dev *dv, dplan &pl)
{
    const bulk_collatz_engine *e = j.e;
    const bulk_collatz_cuda_opts &o = pl.o;
    const int v5 = pl.v5, sh = pl.sh, mode = pl.mode, grid = pl.grid;
    const uint32_t span = pl.span;
    const size_t span_bytes = pl.span_bytes;
    const uint64_t un = pl.un;
    int s = BULK_OK;
    /* the class path (merge classes of M bits, cg_delay6.h; docs/collatz-gpu.md "The lean
     * round end and the class path"; the tuning cz.classes=0 turns it off): V5 with the lean round end, every n of
     * the call in [2^40, 2^79) (nH < 2^57: three-limb start values; small n would leave the
     * class trajectories short), at least 2^23 numbers in the call and 2^M per launch (phase 1
     * runs every class of every block a launch touches: a smaller launch pays for a block's
     * classes without its numbers) */
    const uint64_t ub = j.batch ? j.batch : 1;
    const u128 total_n = (u128)j.count * ub, last_n = j.first + total_n - 1;
    int cls = v5 && !bulk_ctx_tune(e->ctx)->cz_classes_off && e->M > 0 &&
              e->M <= 22 && (j.first >> 40) != 0 && (last_n >> 79) == 0 && (total_n >> 23) != 0 &&
              o.launch_numbers >= ((uint64_t)1 << e->M);
    kfn f1 = NULL, f2 = NULL;
    size_t smem1 = 0;
    int grid1 = 0, grid2 = 0;
    if (cls && ((s = bulk_cz_need_classes(e)) != BULK_OK || e->ncls >= (1u << CG6_CLS_BITS))) {
        if (s != BULK_OK) return s;
        cls = 0;
    }
    if (cls) {
        f1 = pick_classes(sh, o.delay_unroll);
        f2 = pick_members(mode);
        smem1 = sh ? cg5_smem_bytes(e->d) : 0;
        int per1 = 0, per2 = 0;
        if ((s = cg_smem_limit((const void *)f1, smem1)) || (s = cg_smem_limit((const void *)f2, span_bytes))) return s;
        BULK_CUDA_CHECK(NULL, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per1, f1, o.threads_per_block, smem1));
        BULK_CUDA_CHECK(NULL, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per2, f2, o.threads_per_block, span_bytes));
        grid1 = dv->sms * (per1 > 0 ? per1 : 1);
        grid2 = dv->sms * (per2 > 0 ? per2 : 1);
    }
    /* units per launch: about launch_numbers numbers */
    uint64_t per = j.batch ? o.launch_numbers / j.batch : o.launch_numbers;
    if (per < 1) per = 1;
    /* BATCH_WARP: at least a piece per warp of the grid in each launch (large batches, e.g. the
     * CLI's --stats 1048576, would otherwise leave most of the GPU idle; the V3 layout ran a
     * block per batch, 128 blocks per launch of 2^27 numbers at batch 2^20) */
    const uint64_t pmax = v5 ? CG_DELAY_PIECE5 : CG_DELAY_PIECE;
    const uint64_t piece = j.batch < pmax ? j.batch : pmax;
    const uint64_t upb = j.batch ? (j.batch + piece - 1) / piece : 1;
    if (mode == MODE_BATCH_WARP) {
        const uint64_t warps = (uint64_t)grid * (uint64_t)(o.threads_per_block / 32);
        if (span > 1) {
            if (per < warps * span) per = warps * span;
        } else if (per * upb < warps) {
            per = (warps + upb - 1) / upb;
        }
    }
    if (per > un) per = un ? un : 1;
    pl.ub = ub;
    pl.cls = cls;
    pl.f1 = f1;
    pl.f2 = f2;
    pl.smem1 = smem1;
    pl.grid1 = grid1;
    pl.grid2 = grid2;
    pl.per = per;
    pl.piece = piece;
    pl.upb = upb;
    return BULK_OK;
}

/* The device's streams, events, tables and buffers for the plan (kept in dc between calls, grown
 * when a call needs more). */
int delays_buffers(dcache &dc, const djob &j, const dplan &pl)
{
    const bulk_collatz_engine *e = j.e;
    const bulk_collatz_cuda_opts &o = pl.o;
    const int v5 = pl.v5, cls = pl.cls;
    const uint64_t per = pl.per;
    dbuf *b = dc.b;
    /* streams, events and buffers are kept between calls (per device, grown when a call needs
     * more): the CLI calls once per 2^30 numbers, and creating them cost a few ms per call */
    if (!dc.stream) {
        BULK_CUDA_CHECK(NULL, cudaStreamCreateWithFlags(&dc.stream, cudaStreamNonBlocking));
        BULK_CUDA_CHECK(NULL, cudaStreamCreateWithFlags(&dc.copier, cudaStreamNonBlocking));
        for (int i = 0; i < 2; i++) {
            BULK_CUDA_CHECK(NULL, cudaMalloc(&b[i].d_cnt, 64));
            BULK_CUDA_CHECK(NULL, cudaMallocHost(&b[i].h_cnt, 64));
            BULK_CUDA_CHECK(NULL, cudaEventCreateWithFlags(&b[i].ev, cudaEventDisableTiming));
            BULK_CUDA_CHECK(NULL, cudaEventCreate(&b[i].k0));
            BULK_CUDA_CHECK(NULL, cudaEventCreate(&b[i].k1));
        }
    }
    if (v5 && dc.cj_d != e->d) {
        /* the packed entries j | C << 5 of the engine's tables (J = d + j), once per d */
        const size_t n = (size_t)1 << e->d;
        uint32_t *h = (uint32_t *)malloc(n * 4);
        if (!h) {
            return BULK_ERR_NOMEM;
        }
        for (size_t L = 0; L < n; L++) h[L] = cg5_entry((unsigned)(e->J[L] - e->d), e->C[L]);
        cudaFree(dc.CJ);
        dc.CJ = NULL;
        dc.cj_d = 0;
        cudaError_t ce = cudaMalloc(&dc.CJ, n * 4);
        if (ce == cudaSuccess) ce = cudaMemcpy(dc.CJ, h, n * 4, cudaMemcpyHostToDevice);
        free(h);
        BULK_CUDA_CHECK(NULL, ce);
        dc.cj_d = e->d;
    }
    if (cls && (dc.cls_M != e->M || dc.cls_n != e->ncls)) {
        /* the classes (c, 3^j) and the residue map, once per device (they depend on M only) */
        const size_t R = (size_t)1 << e->M, Q = e->ncls;
        uint32_t *hm = (uint32_t *)malloc(R * 4);
        uint64_t *hc = (uint64_t *)malloc(Q * 16);
        if (!hm || !hc) {
            free(hm);
            free(hc);
            return BULK_ERR_NOMEM;
        }
        cg6_class_tables(e->M, e->ncls, e->cls, e->cls_j, e->cls_c, bulk_cz_pow3, hm, hc);
        cudaFree(dc.cls2);
        cudaFree(dc.cmap);
        dc.cls2 = NULL;
        dc.cmap = NULL;
        dc.cls_M = 0;
        cudaError_t ce = cudaMalloc(&dc.cls2, Q * 16);
        if (ce == cudaSuccess) ce = cudaMalloc(&dc.cmap, R * 4);
        if (ce == cudaSuccess) ce = cudaMemcpy(dc.cls2, hc, Q * 16, cudaMemcpyHostToDevice);
        if (ce == cudaSuccess) ce = cudaMemcpy(dc.cmap, hm, R * 4, cudaMemcpyHostToDevice);
        free(hm);
        free(hc);
        BULK_CUDA_CHECK(NULL, ce);
        dc.cls_M = e->M;
        dc.cls_n = (uint32_t)Q;
    }
    if (cls) {
        /* phase 1's class delays for the blocks one launch touches */
        const uint64_t need = ((per * (j.batch ? j.batch : 1) >> e->M) + 2) * (uint64_t)e->ncls;
        if (dc.cap_cd < need) {
            cudaFree(dc.cd);
            dc.cd = NULL;
            dc.cap_cd = 0;
            BULK_CUDA_CHECK(NULL, cudaMalloc(&dc.cd, need * 2));
            dc.cap_cd = need;
        }
    }
    for (int i = 0; i < 2; i++) {
        b[i].n = 0;
        if (!j.batch && dc.cap_out < per) {
            dbuf_free_out(&b[i]);
            BULK_CUDA_CHECK(NULL, cudaMalloc(&b[i].d_out, per * 4));
            BULK_CUDA_CHECK(NULL, cudaMallocHost(&b[i].h_out, per * 4));
        }
        if (j.batch && dc.cap_b < per) {
            dbuf_free_b(&b[i]);
            BULK_CUDA_CHECK(NULL, cudaMalloc(&b[i].d_mn, per * 4));
            BULK_CUDA_CHECK(NULL, cudaMalloc(&b[i].d_mx, per * 4));
            BULK_CUDA_CHECK(NULL, cudaMalloc(&b[i].d_sum, per * 8));
            BULK_CUDA_CHECK(NULL, cudaMallocHost(&b[i].h_mn, per * 4));
            BULK_CUDA_CHECK(NULL, cudaMallocHost(&b[i].h_mx, per * 4));
            BULK_CUDA_CHECK(NULL, cudaMallocHost(&b[i].h_sum, per * 8));
        }
        if (dc.cap_esc < o.escape_capacity) {
            cudaFree(b[i].d_esc);
            cudaFreeHost(b[i].h_esc);
            b[i].d_esc = b[i].h_esc = NULL;
            BULK_CUDA_CHECK(NULL, cudaMalloc(&b[i].d_esc, (size_t)o.escape_capacity * 8));
            BULK_CUDA_CHECK(NULL, cudaMallocHost(&b[i].h_esc, (size_t)o.escape_capacity * 8));
        }
    }
    if (!j.batch && dc.cap_out < per) dc.cap_out = per;
    if (j.batch && dc.cap_b < per) dc.cap_b = per;
    if (dc.cap_esc < o.escape_capacity) dc.cap_esc = o.escape_capacity;
    return BULK_OK;
}

/* Launches the next units of the device's share, from done_u, into the buffer set cur (whose
 * previous contents were settled); *np gets the units launched. */
int delays_launch(dcache &dc, dbuf &cur, const djob &j, const cg_dev *dv, const dplan &pl, uint64_t done_u,
                  uint64_t *np, bulk_collatz_cuda_stats *st)
{
    const bulk_collatz_engine *e = j.e;
    const bulk_collatz_cuda_opts &o = pl.o;
    const uint64_t u0 = pl.u0, un = pl.un, per = pl.per, ub = pl.ub, piece = pl.piece, upb = pl.upb;
    const int cls = pl.cls, mode = pl.mode, grid = pl.grid, grid1 = pl.grid1, grid2 = pl.grid2;
    const uint32_t span = pl.span, lgb = pl.lgb;
    const size_t smem = pl.smem, smem1 = pl.smem1, span_bytes = pl.span_bytes;
    const kfn f = pl.f, f1 = pl.f1, f2 = pl.f2;
    cudaStream_t stream = dc.stream;
    uint64_t n = un - done_u < per ? un - done_u : per;
    if (cls && done_u + n < un && ub <= ((uint64_t)1 << e->M) && (((uint64_t)1 << e->M) % ub) == 0) {
        /* end the launch on a class block's boundary where the units allow it (else
         * both launches run the classes of the block they share) */
        const uint64_t rem = (uint64_t)((j.first + (u128)(u0 + done_u + n) * ub) & (((u128)1 << e->M) - 1));
        if (rem % ub == 0 && rem / ub < n / 2) n -= rem / ub;
    }
    dparams p;
    memset(&p, 0, sizeof p);
    cg_ktables_fill(&p.tb, dv);
    p.first_lo = (uint64_t)j.first;
    p.first_hi = (uint64_t)(j.first >> 64);
    p.off0 = j.batch ? (u0 + done_u) * j.batch : u0 + done_u;
    p.count = n;
    p.batch = j.batch;
    p.piece = piece;
    p.span = span;
    p.lgb = lgb;
    p.CJ = dc.CJ;
    p.mask4 = ((1u << e->d) - 1) << 2;
    p.dmask = cg5_done_mask((unsigned)e->a);
    p.gsh = 32 - cg5_guard_bits((unsigned)e->d);
    p.out = cur.d_out;
    p.mn = cur.d_mn;
    p.mx = cur.d_mx;
    p.sum = cur.d_sum;
    p.esc = cur.d_esc;
    p.esc_count = cur.d_cnt;
    p.esc_cap = o.escape_capacity;
    BULK_CUDA_CHECK(NULL, cudaMemsetAsync(cur.d_cnt, 0, 64, stream));
    if (mode == MODE_BATCH_WARP && upb > 1) {
        /* the pieces of a batch merge by atomics into (0, UINT32_MAX, 0) */
        BULK_CUDA_CHECK(NULL, cudaMemsetAsync(cur.d_sum, 0, n * 8, stream));
        BULK_CUDA_CHECK(NULL, cudaMemsetAsync(cur.d_mn, 0xff, n * 4, stream));
        BULK_CUDA_CHECK(NULL, cudaMemsetAsync(cur.d_mx, 0, n * 4, stream));
    }
    BULK_CUDA_CHECK(NULL, cudaEventRecord(cur.k0, stream));
    if (cls) {
        /* phase 1 for every block the launch touches, then phase 2 */
        const u128 n0 = j.first + (u128)p.off0, nn = (u128)n * (j.batch ? j.batch : 1);
        p.B0 = (uint64_t)(n0 >> e->M);
        p.nbk = (uint32_t)(((n0 + nn - 1) >> e->M) - (n0 >> e->M) + 1);
        p.cls2 = dc.cls2;
        p.cmap = dc.cmap;
        p.cd = dc.cd;
        p.ncls = dc.cls_n;
        p.M = (uint32_t)e->M;
        st->classes += (uint64_t)p.nbk * p.ncls;
        f1<<<grid1, o.threads_per_block, smem1, stream>>>(p);
        BULK_CUDA_CHECK(NULL, cudaGetLastError());
        f2<<<grid2, o.threads_per_block, span_bytes, stream>>>(p);
    } else {
        f<<<grid, o.threads_per_block, smem, stream>>>(p);
    }
    BULK_CUDA_CHECK(NULL, cudaGetLastError());
    BULK_CUDA_CHECK(NULL, cudaEventRecord(cur.k1, stream));
    st->launches++;
    if (!j.batch) {
        BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(cur.h_out, cur.d_out, n * 4, cudaMemcpyDeviceToHost, stream));
    } else {
        BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(cur.h_mn, cur.d_mn, n * 4, cudaMemcpyDeviceToHost, stream));
        BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(cur.h_mx, cur.d_mx, n * 4, cudaMemcpyDeviceToHost, stream));
        BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(cur.h_sum, cur.d_sum, n * 8, cudaMemcpyDeviceToHost, stream));
    }
    BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(cur.h_cnt, cur.d_cnt, 4, cudaMemcpyDeviceToHost, stream));
    BULK_CUDA_CHECK(NULL, cudaEventRecord(cur.ev, stream));
    cur.start = u0 + done_u;
    cur.n = n;
    *np = n;
    return BULK_OK;
}

/* Settles the launch of buffer set prev on the host (its outputs, its escapes exactly) while the
 * GPU runs the next one; tail: nothing runs meanwhile (the time counts as tail_seconds). */
int delays_collect(dcache &dc, dbuf &prev, const djob &j, const dplan &pl, int tail, bulk_collatz_cuda_stats *st)
{
    const bulk_collatz_engine *e = j.e;
    const bulk_collatz_cuda_opts &o = pl.o;
    cudaStream_t copier = dc.copier;
    int status = BULK_OK;
    double t0 = cg_now();
    BULK_CUDA_CHECK(NULL, cudaEventSynchronize(prev.ev));
    float kms = 0;
    if (cudaEventElapsedTime(&kms, prev.k0, prev.k1) == cudaSuccess) st->kernel_seconds += 1e-3 * kms;
    unsigned int cnt = prev.h_cnt[0];
    if (cnt && cnt <= o.escape_capacity) {
        /* only the escapes written; the GPU meanwhile runs the next launch */
        BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(prev.h_esc, prev.d_esc, (size_t)cnt * 8, cudaMemcpyDeviceToHost, copier));
        BULK_CUDA_CHECK(NULL, cudaStreamSynchronize(copier));
    }
    if (!j.batch) {
        memcpy(j.out + prev.start, prev.h_out, prev.n * 4);
    } else {
        memcpy(j.sum + prev.start, prev.h_sum, prev.n * 8);
        memcpy(j.mn + prev.start, prev.h_mn, prev.n * 4);
        memcpy(j.mx + prev.start, prev.h_mx, prev.n * 4);
    }
    if (cnt > o.escape_capacity) {
        /* more escapes than the buffer kept: settle the whole piece on the host */
        st->reruns++;
        for (uint64_t u = prev.start; u < prev.start + prev.n && status == BULK_OK; u++) {
            uint64_t nb = j.batch ? j.batch : 1;
            if (j.batch) {
                j.sum[u] = 0;
                j.mn[u] = UINT32_MAX;
                j.mx[u] = 0;
            }
            for (uint64_t i = 0; i < nb && status == BULK_OK; i++) {
                uint64_t off = j.batch ? u * j.batch + i : u;
                int64_t dl = bulk_cz_delay_of(e, cz_make((uint64_t)(j.first + off), (uint64_t)((j.first + off) >> 64)));
                if (dl < 0 || dl > UINT32_MAX) status = dl < 0 ? (int)dl : BULK_ERR_OVERFLOW;
                else if (!j.batch) j.out[u] = (uint32_t)dl;
                else {
                    j.sum[u] += (uint64_t)dl;
                    if ((uint32_t)dl < j.mn[u]) j.mn[u] = (uint32_t)dl;
                    if ((uint32_t)dl > j.mx[u]) j.mx[u] = (uint32_t)dl;
                }
            }
        }
    } else {
        for (unsigned int i = 0; i < cnt && status == BULK_OK; i++) status = settle(j, prev.h_esc[i]);
        st->escapes += cnt;
    }
    prev.n = 0;
    double dt = cg_now() - t0;
    if (tail) st->tail_seconds += dt;
    else st->escape_seconds += dt;
    return status;
}

/* Device g's share of the call j: plan, buffers, then launches of about launch_numbers numbers,
 * two in flight, each settled on the host (outputs, escapes) while the next one runs. */
int delays_device(cg_worker &w, void *arg)
{
    const djob &j = *(const djob *)arg;
    bulk_collatz_cuda_stats *st = &w.stats;
    cg_dev *dv;
    int s = cg_dev_prepare(w, j.e, 0, 1, &dv);
    if (s) return s;
    dplan pl;
    memset(&pl, 0, sizeof pl);
    if ((s = delays_plan_kernel(j, w, dv, pl))) return s;
    if ((s = delays_plan_launch(j, dv, pl))) return s;
    cg_dcache *&slot = w.cs->dc[w.dev]; /* touched by this device's worker only */
    if (!slot && !(slot = (cg_dcache *)calloc(1, sizeof(cg_dcache)))) return BULK_ERR_NOMEM;
    dcache &dc = *slot;
    dbuf *b = dc.b;
    int status = delays_buffers(dc, j, pl);
    for (uint64_t done_u = 0, it = 0; status == BULK_OK; it++) {
        dbuf &cur = b[it & 1], &prev = b[(it & 1) ^ 1];
        /* launch the next piece into cur (cur's previous contents were settled) */
        if (done_u < pl.un) {
            uint64_t n = 0;
            if ((status = delays_launch(dc, cur, j, dv, pl, done_u, &n, st)) != BULK_OK) break;
            done_u += n;
        }
        /* settle the previous piece on the host while the GPU runs this one */
        if (prev.n && (status = delays_collect(dc, prev, j, pl, done_u >= pl.un && !cur.n, st)) != BULK_OK) break;
        /* done when nothing is left to launch or to settle; otherwise the next round settles
         * cur (as its prev) */
        if (done_u >= pl.un && !cur.n && !prev.n) break;
    }
    if (dc.stream) cudaStreamSynchronize(dc.stream);
    /* after an error nothing is trusted: the next call starts from scratch */
    if (status != BULK_OK) dcache_free(&dc);
    return status;
}

int run(const djob &j)
{
    bulk_collatz_cuda_state *cs;
    int s = cg_state(j.ctx, &cs);
    if (s) return s;
    bulk_collatz_cuda_stats *st = &cs->stats;
    memset(st, 0, sizeof *st);
    const int G = cg_devices(j.ctx, j.e);
    if (G == 0)
        return bulk_fail(j.ctx, BULK_ERR_NO_BACKEND, "no CUDA device for the context's device %d", j.ctx->cuda->device);
    double t0 = cg_now();
    s = j.count ? cg_run_devices(j.ctx, cs, G, delays_device, (void *)&j) : BULK_OK;
    st->devices = G;
    st->seconds = cg_now() - t0;
    return s;
}

int check(const bulk_collatz_engine *e, bulk_u128 first, u128 count)
{
    if (!e || e->a == 0 || (first.lo == 0 && first.hi == 0)) return BULK_ERR_ARG;
    if (count && cg_w_of(first) + (count - 1) < cg_w_of(first)) return BULK_ERR_ARG;
    if (count >> 64) return BULK_ERR_ARG;
    return BULK_OK;
}

} // namespace

/* The delay driver's resources of one device (current on the calling thread). */
void cg_delays_free(cg_dcache *c) { dcache_free(c); }

extern "C" int bulk_collatz_cuda_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                        uint64_t count, uint32_t *out)
{
    if (!out && count) return BULK_ERR_ARG;
    int s = check(e, first, count);
    if (s) return s;
    djob j = { ctx, e, cg_w_of(first), count, 0, out, NULL, NULL, NULL };
    return run(j);
}

extern "C" int bulk_collatz_cuda_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                             uint64_t batch, uint64_t nbatches, uint64_t *sum,
                                             uint32_t *min, uint32_t *max)
{
    if (batch == 0 || (nbatches && (!sum || !min || !max))) return BULK_ERR_ARG;
    int s = check(e, first, (u128)batch * nbatches);
    if (s) return s;
    djob j = { ctx, e, cg_w_of(first), nbatches, batch, NULL, sum, min, max };
    return run(j);
}
