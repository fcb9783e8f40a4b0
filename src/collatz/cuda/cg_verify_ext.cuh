/* Extension rows of the verify driver (CUDA C++, included by cg_verify.cu only): rows of
 * level-K blocks, K = k + kx (collatz/sieve_ext.c), run as generated level-K slices of the
 * j-sorted stored sieve (run_ext_gen, the default) or, where that copy does not fit the device,
 * as the unsorted runs of k_uni over the stored entries (run_ext). */
#ifndef BULK_COLLATZ_CUDA_CG_VERIFY_EXT_CUH
#define BULK_COLLATZ_CUDA_CG_VERIFY_EXT_CUH

#include "collatz/cuda/cg_verify_run.cuh"

namespace {

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

/* Extension rows run k_uni (the dip test needs every n >= 2^(3d+2), and d <= CG_UNI_MAX_D);
 * otherwise the WALK layout walks their K bits per number. */
int ext_uni(const bulk_collatz_engine *e, u128 nH)
{
    const int K = e->k + e->kx;
    const u128 n = K < 128 ? nH << K : 0;
    return e->d <= CG_UNI_MAX_D && cg_uni_ok((unsigned)e->d, cg_make((uint64_t)n, (uint64_t)(n >> 64)));
}

/* Rows [0, rows) of level-K blocks (K = k + kx, the sieve extension) from row nH against the
 * resident slice through the unsorted runs of k_uni<D, true> (the form where the j-sorted S does
 * not fit the device, ext_sort_upload; K <= 40): launches of about launch_numbers iterated
 * numbers (an entry and a row hold s_K / s_k of them on average), at least CG_FLAT_RUN rows each
 * when the range has them, runs per launch (entries x xmax x row chunks) below 2^31. */
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
        BULK_CUDA_CHECK(NULL, cudaMemGetInfo(&freeb, &totalb));
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
        BULK_CUDA_CHECK(NULL, cudaMalloc(&c.d_gsr, cap * 8));
        BULK_CUDA_CHECK(NULL, cudaMalloc(&c.d_gsc, cap * 8));
        BULK_CUDA_CHECK(NULL, cudaMalloc(&c.d_gsj, cap));
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
        BULK_CUDA_CHECK(NULL, ce); /* the convergence tables */
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
            BULK_CUDA_CHECK(NULL, cudaGetLastError());
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
 * not fit the device. The tuning cz.ext=unsorted forces them (tests). */
int ext_method(const vrun &r)
{
    const int K = r.e->k + r.e->kx;
    if (K > 40) return 1;
    return bulk_ctx_tune(r.e->ctx)->cz_ext_unsorted ? 0 : 1;
}

} // namespace
#endif
