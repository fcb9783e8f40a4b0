/* The verify driver's per-device state (CUDA C++, included by cg_verify.cu only): the cached
 * streams, events and buffers of a device (cg_vcache, kept between calls on the context's
 * Collatz state) and the uploads into
 * them (UNIFORM table, sieve extension, j-sorted S), the state of one device's run (vrun), the
 * escape waves (end_wave, drain: the host finishes a wave's escapes exactly while the GPU runs
 * the next one) and the launches (launch, launch_tiles). */
#ifndef BULK_COLLATZ_CUDA_CG_VERIFY_RUN_CUH
#define BULK_COLLATZ_CUDA_CG_VERIFY_RUN_CUH

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/cuda/cg_verify_kernels.cuh"

/* A device's streams, events and buffers, kept between calls (the context's
 * bulk_collatz_cuda_state::vc; grown on demand, freed by the table's release or after a failed
 * run). */
struct cg_vcache {
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
    int xs_k, xs_conv;
    /* a generated level-K slice (run_ext_gen): gcap entries of (r, c, j) */
    uint64_t *d_gsr, *d_gsc;
    uint8_t *d_gsj;
    uint64_t gcap;
    /* convergence mode: the predecessor chains (converge_core.h; the same for every engine) and
     * 3^0..3^40, uploaded on first use */
    unsigned char *d_conv;
};

namespace {

typedef cg_vcache vcache;

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

/* The glide hits of one device: n and glide of each, in the order the host finished them; at
 * most max (more: BULK_ERR_OVERFLOW). */
struct cg_ghits {
    bulk_collatz_record *v;
    size_t n, cap, max;
};

/* Per-device run state: buffers, streams, the wave being filled and the one being drained. */
struct vrun {
    cg_worker *w; /* the device's share: its state slot, its statistics */
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
    /* pre-drop peaks (engines with peaks on): the device's running maximum and hit candidates
     * on res; its threshold vlim sets each launch's escape threshold, and the escapes (those
     * near 2^128 and those whose peak could matter) are finished here with their peaks */
    int peaks;
    struct cz_peaks pk;
    /* with peaks the waves start at one launch and double up to o.wave_numbers, so that the
     * threshold, raised after each drained wave, soon follows the maximum (0: o.wave_numbers) */
    uint64_t wave_limit;
    /* glide hits (bulk_collatz_cuda_verify_chunk_glides; gh NULL: none): the kernels escape every
     * number whose glide exceeds gfloor, and the host lists those it finishes above it in *gh */
    uint32_t gfloor;
    cg_ghits *gh;
};

/* Books an escaped number n of a level-L block into r.res and lists it in *r.gh when its glide
 * exceeds r.gfloor: its glide is what the host's booking adds to the checksum. */
int ghit_book(vrun &r, u128 n, int L)
{
    const u128 sum0 = cg_w_of(r.res->checksum);
    int s = cg_host_iterate(r.e, n, L, r.res);
    if (s) return s;
    const u128 g = cg_w_of(r.res->checksum) - sum0;
    if (g <= r.gfloor) return BULK_OK;
    cg_ghits &h = *r.gh;
    if (h.n == h.max) return BULK_ERR_OVERFLOW;
    if (h.n == h.cap) {
        size_t cap = h.cap ? 2 * h.cap : 1024;
        if (cap > h.max) cap = h.max;
        bulk_collatz_record *v = (bulk_collatz_record *)realloc(h.v, cap * sizeof *v);
        if (!v) return BULK_ERR_NOMEM;
        h.v = v;
        h.cap = cap;
    }
    bulk_collatz_record *x = &h.v[h.n++];
    memset(x, 0, sizeof *x);
    x->n = cg_u_of(n);
    x->value.limb[0] = (uint64_t)g;
    return BULK_OK;
}

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
        BULK_CUDA_CHECK(NULL, cudaMalloc(&c.d_ext, l.total));
        c.ext_cap = l.total;
    }
    const size_t n = (size_t)1 << e->kx;
    BULK_CUDA_CHECK(NULL, cudaMemcpy(c.d_ext + l.xB, e->xB, 8 * n, cudaMemcpyHostToDevice));
    BULK_CUDA_CHECK(NULL, cudaMemcpy(c.d_ext + l.xC, e->xC, 8 * n, cudaMemcpyHostToDevice));
    BULK_CUDA_CHECK(NULL, cudaMemcpy(c.d_ext + l.xinv, e->xinv, 8 * 41, cudaMemcpyHostToDevice));
    BULK_CUDA_CHECK(NULL, cudaMemcpy(c.d_ext + l.xoff, e->xoff, 4 * 42, cudaMemcpyHostToDevice));
    BULK_CUDA_CHECK(NULL, cudaMemcpy(c.d_ext + l.xL, e->xL, 2 * (size_t)e->xoff[41], cudaMemcpyHostToDevice));
    BULK_CUDA_CHECK(NULL, cudaMemcpy(c.d_ext + l.xdj, e->xdj, n, cudaMemcpyHostToDevice));
    return BULK_OK;
}

/* The engine's stored sieve sorted by j (a counting sort of (r, c); the order of the entries does
 * not change any result: sums, counts, and the maximum with its smallest n) on the device, from
 * which run_ext_gen generates level-K slices (every list of a group has one length, and 3^j,
 * 3^-j are parameters). 16 bytes per entry (k = 32: 0.66 GB); returns 0 (and the driver takes
 * the unsorted runs, run_ext) when that would take more than half of the free device memory. */
int ext_sort_upload(vcache &c, const bulk_collatz_engine *e, int *ok)
{
    *ok = 0;
    if (c.xs_key == (const void *)e->Sr && c.xs_n == e->s_k && c.xs_k == e->k && c.xs_conv == e->conv && c.d_xsr) {
        *ok = 1;
        return BULK_OK;
    }
    cudaFree(c.d_xsr);
    cudaFree(c.d_xsc);
    c.d_xsr = c.d_xsc = NULL;
    c.xs_key = NULL;
    size_t freeb = 0, totalb = 0;
    BULK_CUDA_CHECK(NULL, cudaMemGetInfo(&freeb, &totalb));
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
    BULK_CUDA_CHECK(NULL, ce); /* the sorted S */
    c.xs_key = (const void *)e->Sr;
    c.xs_n = e->s_k;
    c.xs_k = e->k;
    c.xs_conv = e->conv;
    *ok = 1;
    return BULK_OK;
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
    kfn f = pick(r.kv, r.sh, mode_any, r.e->d, r.peaks);
    r.smem = cg_smem_bytes(r.e->d, r.kv, r.sh);
    for (int m = r.kv == BULK_CZ_CUDA_KERNEL_FAST ? MODE_WALK : 0;
         m < (r.kv == BULK_CZ_CUDA_KERNEL_FAST ? CG_NMODES : MODE_WALK + 1); m++) {
        const int s = cg_smem_limit((const void *)pick(r.kv, r.sh, m, r.e->d, r.peaks), r.smem);
        if (s) return s;
    }
    int per_sm = 0;
    BULK_CUDA_CHECK(NULL, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, r.threads, r.smem));
    if (per_sm < 1) per_sm = 1;
    r.grid = dv->sms * per_sm;
    /* streams, events and buffers come from the device's cache (kept between calls: creating
     * them, the pinned buffers above all, cost ~25 ms per call, measured with `bulk dist
     * collatz verify` on 2^37-number chunks) */
    cg_vcache *&slot = r.w->cs->vc[r.w->dev]; /* touched by this device's worker only */
    if (!slot && !(slot = (cg_vcache *)calloc(1, sizeof(cg_vcache)))) return BULK_ERR_NOMEM;
    vcache &c = *slot;
    r.cache = &c;
    if (!c.s) {
        BULK_CUDA_CHECK(NULL, cudaStreamCreateWithFlags(&c.s, cudaStreamNonBlocking));
        BULK_CUDA_CHECK(NULL, cudaStreamCreateWithFlags(&c.s2, cudaStreamNonBlocking));
        for (int i = 0; i < 2; i++) {
            BULK_CUDA_CHECK(NULL, cudaEventCreateWithFlags(&c.done_ev[i], cudaEventDisableTiming));
            BULK_CUDA_CHECK(NULL, cudaEventCreateWithFlags(&c.reset_ev[i], cudaEventDisableTiming));
            BULK_CUDA_CHECK(NULL, cudaMalloc(&c.d_cnt[i], 64));
        }
        BULK_CUDA_CHECK(NULL, cudaMallocHost(&c.h_cnt, 2 * 64));
    }
    if (c.esc_cap < r.o.escape_capacity) {
        for (int i = 0; i < 2; i++) {
            cudaFree(c.d_esc[i]);
            c.d_esc[i] = NULL;
        }
        cudaFreeHost(c.h_esc);
        c.h_esc = NULL;
        c.esc_cap = 0;
        for (int i = 0; i < 2; i++) BULK_CUDA_CHECK(NULL, cudaMalloc(&c.d_esc[i], (size_t)r.o.escape_capacity * 24));
        BULK_CUDA_CHECK(NULL, cudaMallocHost(&c.h_esc, (size_t)r.o.escape_capacity * 24));
        c.esc_cap = r.o.escape_capacity;
    }
    if (c.acc_cap < r.grid) {
        cudaFree(c.d_acc);
        cudaFreeHost(c.h_acc);
        c.d_acc = NULL;
        c.h_acc = NULL;
        c.acc_cap = 0;
        BULK_CUDA_CHECK(NULL, cudaMalloc(&c.d_acc, (size_t)r.grid * sizeof(cg_acc)));
        BULK_CUDA_CHECK(NULL, cudaMallocHost(&c.h_acc, (size_t)r.grid * sizeof(cg_acc)));
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
        BULK_CUDA_CHECK(NULL, ce); /* the UNIFORM table */
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
        BULK_CUDA_CHECK(NULL, cudaMemsetAsync(r.d_cnt[i], 0, 64, r.s));
    }
    r.h_cnt = c.h_cnt;
    r.h_esc = c.h_esc;
    r.d_acc = c.d_acc;
    r.h_acc = c.h_acc;
    BULK_CUDA_CHECK(NULL, cudaMemsetAsync(r.d_acc, 0, (size_t)r.grid * sizeof(cg_acc), r.s));
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
    bulk_collatz_cuda_stats *st = &r.w->stats;
    BULK_CUDA_CHECK(NULL, cudaEventSynchronize(r.done_ev[b]));
    /* host time on escapes only: the wait for the GPU above is not counted (counted, it made
     * "after the GPU" read ~98% of every run) */
    double t0 = cg_now();
    unsigned int cnt = r.h_cnt[b * 16];
    if (cnt > r.o.escape_capacity) {
        r.overflowed = 1;
        return BULK_OK;
    }
    if (cnt) {
        BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(r.h_esc, r.d_esc[b], (size_t)cnt * 24, cudaMemcpyDeviceToHost, r.s2));
        BULK_CUDA_CHECK(NULL, cudaStreamSynchronize(r.s2));
    }
    /* the count back to zero before the buffer's next wave (that wave waits on reset_ev) */
    BULK_CUDA_CHECK(NULL, cudaMemsetAsync(r.d_cnt[b], 0, 64, r.s2));
    BULK_CUDA_CHECK(NULL, cudaEventRecord(r.reset_ev[b], r.s2));
    for (unsigned int i = 0; i < cnt; i++) {
        u128 n = (u128)r.h_esc[3 * (size_t)i + 1] << 64 | r.h_esc[3 * (size_t)i];
        const int L = (int)r.h_esc[3 * (size_t)i + 2];
        int s = r.gh      ? ghit_book(r, n, L)
                : r.peaks ? bulk_cz_verify_mandatory_pk(r.e, cg_u_of(n), L, r.res, &r.pk)
                          : cg_host_iterate(r.e, n, L, r.res);
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
    BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(&r.h_cnt[b * 16], r.d_cnt[b], sizeof(unsigned int), cudaMemcpyDeviceToHost, r.s));
    BULK_CUDA_CHECK(NULL, cudaEventRecord(r.done_ev[b], r.s));
    if (r.pending) {
        int s = drain(r, b ^ 1, 0);
        if (s) return s;
    }
    r.pending = 1;
    r.wave++;
    r.wave_fill = 0;
    if (r.wave_limit && r.wave_limit < r.o.wave_numbers) r.wave_limit *= 2;
    /* the next wave writes buffer b ^ 1: wait until its count was reset */
    BULK_CUDA_CHECK(NULL, cudaStreamWaitEvent(r.s, r.reset_ev[b ^ 1], 0));
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
    p.vesc = cg_esc_of(cg_limit_bits((unsigned)r.e->d));
    p.gfloor = r.gh ? r.gfloor : UINT32_MAX;
    if (r.peaks) {
        /* the CORE kernel runs the engine's own glide loop, which has no escape threshold */
        if (r.kv != BULK_CZ_CUDA_KERNEL_FAST) return BULK_ERR_UNSUPPORTED;
        const u128 margin = (u128)cg_hi64(p.vesc) << 64 | cg_lo64(p.vesc);
        if (r.pk.vlim < margin) p.vesc = cg_make((uint64_t)r.pk.vlim, (uint64_t)(r.pk.vlim >> 64));
    }
    pick(r.kv, r.sh, mode, r.e->d, r.peaks)<<<r.grid, r.threads, r.smem, r.s>>>(p);
    BULK_CUDA_CHECK(NULL, cudaGetLastError());
    r.w->stats.launches++;
    r.wave_fill += numbers;
    if (r.wave_fill >= (r.wave_limit && r.wave_limit < r.o.wave_numbers ? r.wave_limit : r.o.wave_numbers))
        return end_wave(r, 0);
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

} // namespace
#endif
