/* The host-memory entry points of the CUDA integer backend (int_cuda.h): stream a batch of any
 * size through the GPU.
 *
 * The batch is cut into chunks that fit the device (operands + results + the op's scratch,
 * within 40% of the free memory, split over two slots) and the pinned staging buffers (256 MiB
 * per slot). Two slots, each with its own stream, alternate: while the GPU computes chunk k in
 * one slot, the host packs chunk k+1 into the other slot's pinned buffers (on the context's
 * threads) and its copies queue behind; a slot's results are unpacked to the user's arrays once
 * its stream is done. Chunks are disjoint instance ranges, read before any result of theirs is
 * written back, so r == a (add, sub, shifts) is safe. The slots are the context's
 * (ctx->cuda->ints, on the context's device): one call at a time per context, as bulk.h says
 * (a mutex guards them); other contexts run at once. Results never depend on the chunking. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <initializer_list>

extern "C" { /* C headers without C++ guards */
#include "common/parallel.h"
#include "int/cpu/prime.h"
}
#include "backend/report.h"
#include "int/cuda/core/lucas_coop.h"
#include "int/cuda/int_cuda_internal.cuh"

namespace {

const int kSlots = 2;
const size_t kPinnedPerSlot = (size_t)256 << 20;
const int kMaxIo = 4;

struct io {
    const void *in[kMaxIo];
    size_t in_bytes[kMaxIo]; /* per instance */
    int nin;
    void *out[kMaxIo];
    size_t out_bytes[kMaxIo];
    int nout;
    size_t scratch_bytes; /* per instance, on top of in and out */
};

/* The operation on cnt instances of device memory: din/dout in io order; bad: device flag. */
typedef int (*op_fn)(void *const *dout, const void *const *din, size_t cnt, int *bad,
                     const void *arg, cudaStream_t st);

struct slot {
    cudaStream_t st;
    char *pinned;  /* inputs then outputs, chunk instances each */
    char *dev;     /* same layout on the device */
    int *bad_dev;
    int *bad_host; /* pinned */
    size_t cap_pinned, cap_dev;
};

} // namespace

/* The context's int GPU state (ctx->cuda->ints): the slots, created on first use on the
 * context's device and kept for the next call, and the device copy of the last trial-division
 * table (kept for the next isprime call with the same limit: a nextprime run makes one call a
 * round). `lock` keeps two threads that share one context (against bulk.h's rule of one thread
 * per context at a time) from using the same slots; two contexts never share them. */
struct bulk_int_cuda_state {
    pthread_mutex_t lock;
    slot slots[kSlots];
    bool ready;           /* streams and flags made */
    bg_trial_table trial; /* trial.g NULL: none yet */
};

namespace {

/* The context's state, made on first use (NULL when out of memory). */
bulk_int_cuda_state *int_state(bulk_ctx *ctx)
{
    bulk_cuda_state *cs = ctx->cuda;
    if (!cs->ints) {
        bulk_int_cuda_state *x = (bulk_int_cuda_state *)calloc(1, sizeof *x);
        if (!x) return NULL;
        pthread_mutex_init(&x->lock, NULL);
        cs->ints = x;
    }
    return cs->ints;
}

/* With S->lock held, on the context's device: every slot has a stream, its flags, and at least
 * the given pinned and device bytes. */
int ensure_slots(bulk_ctx *ctx, bulk_int_cuda_state *S, size_t pinned_bytes, size_t dev_bytes)
{
    for (int s = 0; s < kSlots; s++) {
        slot &x = S->slots[s];
        if (!S->ready) {
            BULK_CUDA_CHECK(ctx, cudaStreamCreateWithFlags(&x.st, cudaStreamNonBlocking));
            BULK_CUDA_CHECK(ctx, cudaMalloc((void **)&x.bad_dev, sizeof(int)));
            BULK_CUDA_CHECK(ctx, cudaHostAlloc((void **)&x.bad_host, sizeof(int), cudaHostAllocDefault));
        }
        if (x.cap_pinned < pinned_bytes) {
            if (x.pinned) cudaFreeHost(x.pinned);
            x.pinned = NULL;
            x.cap_pinned = 0;
            BULK_CUDA_CHECK(ctx, cudaHostAlloc((void **)&x.pinned, pinned_bytes, cudaHostAllocDefault));
            x.cap_pinned = pinned_bytes;
        }
        if (x.cap_dev < dev_bytes) {
            if (x.dev) cudaFree(x.dev);
            x.dev = NULL;
            x.cap_dev = 0;
            BULK_CUDA_CHECK(ctx, cudaMalloc((void **)&x.dev, dev_bytes));
            x.cap_dev = dev_bytes;
        }
    }
    S->ready = true;
    return BULK_OK;
}

/* A parallel memcpy on the context's threads (one thread cannot keep up with PCIe). */
struct pcopy {
    char *dst;
    const char *src;
};
void pcopy_range(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    const pcopy *p = (const pcopy *)arg;
    memcpy(p->dst + begin, p->src + begin, end - begin);
}
void copy_host(int threads, void *dst, const void *src, size_t bytes)
{
    if (bytes < ((size_t)4 << 20) || threads <= 1) {
        memcpy(dst, src, bytes);
        return;
    }
    pcopy p = {(char *)dst, (const char *)src};
    if (bulk_parallel_for(threads, bytes, (size_t)1 << 20, pcopy_range, &p) != BULK_OK)
        memcpy(dst, src, bytes);
}

int run_streamed(bulk_ctx *ctx, const io &d, size_t n, op_fn fn, const void *arg, int err_status)
{
    if (n == 0) return BULK_OK;
    size_t in_b = 0, out_b = 0;
    for (int k = 0; k < d.nin; k++) in_b += d.in_bytes[k];
    for (int k = 0; k < d.nout; k++) out_b += d.out_bytes[k];
    size_t io_b = in_b + out_b;
    BULK_CUDA_CHECK(ctx, cudaSetDevice(ctx->cuda->device));
    bulk_int_cuda_state *S = int_state(ctx);
    if (!S) return bulk_fail(ctx, BULK_ERR_NOMEM, "bulk_int (CUDA): the context's staging slots: out of memory");
    size_t free_b = 0, total_b = 0;
    BULK_CUDA_CHECK(ctx, cudaMemGetInfo(&free_b, &total_b));
    size_t dev_budget = free_b / 10 * 4 / kSlots;
    size_t chunk = dev_budget / (io_b + d.scratch_bytes + 1);
    if (chunk > kPinnedPerSlot / io_b) chunk = kPinnedPerSlot / io_b;
    if (chunk == 0) chunk = 1;
    if (chunk > n) chunk = n;
    int threads = bulk_ctx_threads(ctx);

    pthread_mutex_lock(&S->lock);
    int rc = ensure_slots(ctx, S, chunk * io_b, chunk * io_b);
    size_t begin[kSlots] = {0, 0}, count[kSlots] = {0, 0};
    bool busy[kSlots] = {false, false};
    bool any_bad = false;

    /* unpacks a finished slot's results into the user's arrays */
    auto drain = [&](int s) -> int {
        slot &x = S->slots[s];
        if (!busy[s]) return BULK_OK;
        busy[s] = false;
        BULK_CUDA_CHECK(ctx, cudaStreamSynchronize(x.st));
        if (*x.bad_host) any_bad = true;
        char *p = x.pinned + count[s] * in_b;
        for (int k = 0; k < d.nout; k++) {
            if (d.out[k])
                copy_host(threads, (char *)d.out[k] + begin[s] * d.out_bytes[k], p,
                          count[s] * d.out_bytes[k]);
            p += count[s] * d.out_bytes[k];
        }
        return BULK_OK;
    };

    int k = 0;
    for (size_t first = 0; first < n && rc == BULK_OK; first += chunk, k++) {
        int s = k % kSlots;
        slot &x = S->slots[s];
        rc = drain(s);
        if (rc != BULK_OK) break;
        size_t cnt = n - first < chunk ? n - first : chunk;
        const void *din[kMaxIo];
        void *dout[kMaxIo];
        char *hp = x.pinned, *dp = x.dev;
        for (int j = 0; j < d.nin; j++) {
            copy_host(threads, hp, (const char *)d.in[j] + first * d.in_bytes[j],
                      cnt * d.in_bytes[j]);
            din[j] = dp;
            hp += cnt * d.in_bytes[j];
            dp += cnt * d.in_bytes[j];
        }
        for (int j = 0; j < d.nout; j++) {
            dout[j] = d.out[j] ? dp : NULL;
            dp += cnt * d.out_bytes[j];
        }
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpyAsync(x.dev, x.pinned, cnt * in_b, cudaMemcpyHostToDevice, x.st), rc);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemsetAsync(x.bad_dev, 0, sizeof(int), x.st), rc);
        rc = fn(dout, din, cnt, x.bad_dev, arg, x.st);
        if (rc != BULK_OK) break;
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpyAsync(x.pinned + cnt * in_b, x.dev + cnt * in_b, cnt * out_b,
                                                  cudaMemcpyDeviceToHost, x.st), rc);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpyAsync(x.bad_host, x.bad_dev, sizeof(int), cudaMemcpyDeviceToHost, x.st), rc);
        begin[s] = first;
        count[s] = cnt;
        busy[s] = true;
    }
fail:
    for (int s = 0; s < kSlots; s++) {
        int r2 = drain(s);
        if (rc == BULK_OK) rc = r2;
    }
    pthread_mutex_unlock(&S->lock);
    if (rc == BULK_OK && any_bad) rc = err_status;
    return rc;
}

/* ---- the operations as op_fn ---------------------------------------------------------------- */

struct args {
    size_t limbs, a_limbs, bits;
    int flag; /* sub / left / lo / square */
    const bulk_tune *tune; /* the context's (stream_op fills it in) */
    const void *aux;       /* the op's own (trial: its bg_trial_table) */
};

int op_addsub(void *const *o, const void *const *i, size_t cnt, int *, const void *p, cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_addsub((bg_limb *)o[0], (uint8_t *)o[1], (const bg_limb *)i[0],
                            (const bg_limb *)i[1], cnt, g->limbs, g->flag, st);
}
int op_cmp(void *const *o, const void *const *i, size_t cnt, int *, const void *p, cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_cmp((int8_t *)o[0], (const bg_limb *)i[0], (const bg_limb *)i[1], cnt,
                         g->limbs, st);
}
int op_shift(void *const *o, const void *const *i, size_t cnt, int *, const void *p, cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_shift((bg_limb *)o[0], (const bg_limb *)i[0], g->bits, cnt, g->limbs,
                           g->flag, st);
}
int op_mul(void *const *o, const void *const *i, size_t cnt, int *, const void *p, cudaStream_t st)
{
    const args *g = (const args *)p;
    const bg_limb *b = (const bg_limb *)(g->flag == 2 ? i[0] : i[1]); /* 2: square */
    return bg_launch_mul((bg_limb *)o[0], (const bg_limb *)i[0], b, cnt, g->limbs, g->flag == 1,
                         g->tune, st);
}
int op_divmod(void *const *o, const void *const *i, size_t cnt, int *bad, const void *p,
              cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_divmod((bg_limb *)o[0], (bg_limb *)o[1], (const bg_limb *)i[0], g->a_limbs,
                            (const bg_limb *)i[1], cnt, g->limbs, (int8_t *)o[2], bad, st);
}
int op_gcd(void *const *o, const void *const *i, size_t cnt, int *, const void *p, cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_gcd((bg_limb *)o[0], (const bg_limb *)i[0], (const bg_limb *)i[1], cnt,
                         g->limbs, g->tune->int_gcd_approx, st);
}
int op_powmod(void *const *o, const void *const *i, size_t cnt, int *bad, const void *p,
              cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_powmod((bg_limb *)o[0], (const bg_limb *)i[0], (const bg_limb *)i[1],
                            (const bg_limb *)i[2], cnt, g->limbs, (int8_t *)o[1], bad, g->tune, st);
}
int op_invmod(void *const *o, const void *const *i, size_t cnt, int *bad, const void *p,
              cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_invmod((bg_limb *)o[0], (const bg_limb *)i[0], (const bg_limb *)i[1], cnt,
                            g->limbs, (int8_t *)o[1], bad, g->tune, st);
}

int op_trial(void *const *o, const void *const *i, size_t cnt, int *, const void *p,
             cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_trial((uint8_t *)o[0], (const bg_limb *)i[0], cnt, g->limbs,
                           (const bg_trial_table *)g->aux, st);
}

int op_sprp2(void *const *o, const void *const *i, size_t cnt, int *, const void *p,
             cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_sprp2((uint8_t *)o[0], (const bg_limb *)i[0], cnt, g->limbs, st);
}

int op_lucas(void *const *o, const void *const *i, size_t cnt, int *, const void *p,
             cudaStream_t st)
{
    const args *g = (const args *)p;
    return bg_launch_lucas((bg_limb *)o[0], (bg_limb *)o[1], (bg_limb *)o[2], (const bg_limb *)i[0],
                           (const int64_t *)i[1], cnt, g->limbs, st);
}

int check_ctx(bulk_ctx *ctx)
{
    if (!ctx) return BULK_ERR_ARG;
    if (bulk_ctx_backend(ctx) != BULK_BACKEND_CUDA) return BULK_ERR_NO_BACKEND;
    return BULK_OK;
}

/* One entry of the io list: pointer and bytes per instance; bytes 0 leaves the entry out (the
 * second operand of a square). */
struct part {
    const void *p;
    size_t bytes;
};

/* One host-API operation on a checked context: the inputs and outputs in the op's io order,
 * the op's scratch per instance, then run_streamed. */
int stream_op(bulk_ctx *ctx, size_t n, op_fn fn, const args &g, int err_status,
              std::initializer_list<part> ins, std::initializer_list<part> outs,
              size_t scratch_bytes = 0)
{
    io d;
    memset(&d, 0, sizeof d);
    for (const part &x : ins)
        if (x.bytes) {
            d.in[d.nin] = x.p;
            d.in_bytes[d.nin++] = x.bytes;
        }
    for (const part &x : outs) {
        d.out[d.nout] = const_cast<void *>(x.p);
        d.out_bytes[d.nout++] = x.bytes;
    }
    d.scratch_bytes = scratch_bytes;
    args gt = g;
    gt.tune = bulk_ctx_tune(ctx);
    return run_streamed(ctx, d, n, fn, &gt, err_status);
}

/* Runs op(codes) with per-instance status codes (the caller's err, else a temporary array) and
 * turns its failure status into the CPU path's message, "<fn>: instance <first failing>:
 * <status>": instances fail with different codes (invmod: zero modulus, no inverse), and the
 * streamed batches report only that some instance failed. */
template <class Op>
int with_codes(bulk_ctx *ctx, const char *fn, int8_t *err, size_t n, int fail_status, Op op)
{
    int8_t *codes = err ? err : (int8_t *)malloc(n ? n : 1);
    if (!codes) return bulk_fail(ctx, BULK_ERR_NOMEM, "%s: %zu status bytes: out of memory", fn, n);
    int rc = op(codes);
    if (rc == fail_status) rc = bg_first_failure(ctx, fn, codes, n);
    if (codes != err) free(codes);
    return rc;
}

} // namespace

int bg_first_failure(bulk_ctx *ctx, const char *fn, const int8_t *codes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (codes[i]) return bulk_fail(ctx, codes[i], "%s: instance %zu: %s", fn, i, bulk_status_string(codes[i]));
    return BULK_OK;
}

extern "C" {

size_t bulk_int_cuda_max_limbs(int op)
{
    switch (op) {
    case BULK_INT_CUDA_ADD: case BULK_INT_CUDA_SUB: case BULK_INT_CUDA_CMP:
    case BULK_INT_CUDA_SHL: case BULK_INT_CUDA_SHR:
        return (size_t)1 << 20;
    case BULK_INT_CUDA_MUL: case BULK_INT_CUDA_SQR: case BULK_INT_CUDA_MUL_LO:
        return BG_MAX_LIMBS_MUL;
    case BULK_INT_CUDA_DIVMOD: case BULK_INT_CUDA_GCD:
        return BG_MAX_LIMBS_OTHER;
    case BULK_INT_CUDA_POWMOD: /* the cooperative kernel's widest shape (32 lanes of 8 words) */
        return BG_MC_MAX_WORDS / 2;
    case BULK_INT_CUDA_INVMOD: /* one thread per instance; the crossover with the CPU is to be
                                * measured (bench_int_gpu_powmod's invmod rows) */
        return 128;
    default: return 0;
    }
}

static int addsub(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *flag, const bulk_limb_t *a,
                  const bulk_limb_t *b, size_t n, size_t limbs, int sub)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    args g = {limbs, limbs, 0, sub, NULL, NULL};
    return stream_op(ctx, n, op_addsub, g, BULK_OK, {{a, limbs * 8}, {b, limbs * 8}},
                     {{r, limbs * 8}, {flag, 1}});
}

int bulk_int_cuda_add(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *carry, const bulk_limb_t *a,
                      const bulk_limb_t *b, size_t n, size_t limbs)
{
    return addsub(ctx, r, carry, a, b, n, limbs, 0);
}

int bulk_int_cuda_sub(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *borrow, const bulk_limb_t *a,
                      const bulk_limb_t *b, size_t n, size_t limbs)
{
    return addsub(ctx, r, borrow, a, b, n, limbs, 1);
}

static int mul_common(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs, int mode)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    if (limbs > BG_MAX_LIMBS_MUL) return BULK_ERR_UNSUPPORTED;
    args g = {limbs, limbs, 0, mode, NULL, NULL};
    return stream_op(ctx, n, op_mul, g, BULK_OK, {{a, limbs * 8}, {b, mode != 2 ? limbs * 8 : 0}},
                     {{r, (mode == 1 ? 1 : 2) * limbs * 8}},
                     bg_scratch_bytes(BULK_INT_CUDA_MUL_LO, limbs, NULL));
}

int bulk_int_cuda_mul(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs)
{
    return mul_common(ctx, r, a, b, n, limbs, 0);
}

int bulk_int_cuda_sqr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t n, size_t limbs)
{
    return mul_common(ctx, r, a, NULL, n, limbs, 2);
}

int bulk_int_cuda_mul_lo(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a,
                         const bulk_limb_t *b, size_t n, size_t limbs)
{
    return mul_common(ctx, r, a, b, n, limbs, 1);
}

int bulk_int_cuda_cmp(bulk_ctx *ctx, int8_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    args g = {limbs, limbs, 0, 0, NULL, NULL};
    return stream_op(ctx, n, op_cmp, g, BULK_OK, {{a, limbs * 8}, {b, limbs * 8}}, {{r, 1}});
}

static int shift(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits, size_t n,
                 size_t limbs, int left)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    args g = {limbs, limbs, bits, left, NULL, NULL};
    return stream_op(ctx, n, op_shift, g, BULK_OK, {{a, limbs * 8}}, {{r, limbs * 8}});
}

int bulk_int_cuda_shl(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits, size_t n,
                      size_t limbs)
{
    return shift(ctx, r, a, bits, n, limbs, 1);
}

int bulk_int_cuda_shr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits, size_t n,
                      size_t limbs)
{
    return shift(ctx, r, a, bits, n, limbs, 0);
}

int bulk_int_cuda_divmod(bulk_ctx *ctx, bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a,
                         size_t a_limbs, const bulk_limb_t *dv, size_t n, size_t limbs,
                         int8_t *err)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    if (limbs > BG_MAX_LIMBS_OTHER || (a_limbs != limbs && a_limbs != 2 * limbs))
        return limbs > BG_MAX_LIMBS_OTHER ? BULK_ERR_UNSUPPORTED : BULK_ERR_ARG;
    args g = {limbs, a_limbs, 0, 0, NULL, NULL};
    return with_codes(ctx, "bulk_int_divmod", err, n, BULK_ERR_DIVZERO, [&](int8_t *codes) {
        return stream_op(ctx, n, op_divmod, g, BULK_ERR_DIVZERO, {{a, a_limbs * 8}, {dv, limbs * 8}},
                         {{q, a_limbs * 8}, {r, limbs * 8}, {codes, 1}},
                         bg_scratch_bytes(BULK_INT_CUDA_DIVMOD, limbs, NULL));
    });
}

int bulk_int_cuda_gcd(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    args x = {limbs, limbs, 0, 0, NULL, NULL};
    return stream_op(ctx, n, op_gcd, x, BULK_OK, {{a, limbs * 8}, {b, limbs * 8}},
                     {{g, limbs * 8}},
                     bg_scratch_bytes(BULK_INT_CUDA_GCD, limbs, bulk_ctx_tune(ctx)));
}

int bulk_int_cuda_powmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *base,
                         const bulk_limb_t *exp, const bulk_limb_t *m, size_t n, size_t limbs,
                         int8_t *err)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    args g = {limbs, limbs, 0, 0, NULL, NULL};
    return with_codes(ctx, "bulk_int_powmod", err, n, BULK_ERR_EVEN_MODULUS, [&](int8_t *codes) {
        return stream_op(ctx, n, op_powmod, g, BULK_ERR_EVEN_MODULUS,
                         {{base, limbs * 8}, {exp, limbs * 8}, {m, limbs * 8}},
                         {{r, limbs * 8}, {codes, 1}},
                         bg_scratch_bytes(BULK_INT_CUDA_POWMOD, limbs, bulk_ctx_tune(ctx)));
    });
}

int bulk_int_cuda_invmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *m,
                         size_t n, size_t limbs, int8_t *err)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    args g = {limbs, limbs, 0, 0, NULL, NULL};
    return with_codes(ctx, "bulk_int_invmod", err, n, BULK_ERR_NOT_INVERTIBLE, [&](int8_t *codes) {
        return stream_op(ctx, n, op_invmod, g, BULK_ERR_NOT_INVERTIBLE, {{a, limbs * 8}, {m, limbs * 8}},
                         {{r, limbs * 8}, {codes, 1}},
                         bg_scratch_bytes(BULK_INT_CUDA_INVMOD, limbs, bulk_ctx_tune(ctx)));
    });
}

/* The device copy of the CPU's table t (bg_trial_build), in one allocation (tt->g) that the
 * context's state keeps; BULK_ERR_NOMEM or BULK_ERR_CUDA on failure (tt->g unchanged). */
static int trial_table_upload(bg_trial_table *tt, const bulk_prime_table *t)
{
    size_t ngmax = bg_trial_max_groups(t->count);
    size_t gb = ngmax * sizeof(bg_trial_group), bytes = gb + t->count * sizeof(bg_trial_prime);
    char *host = (char *)malloc(bytes);
    uint32_t *first = (uint32_t *)malloc((t->groups ? t->groups : 1) * sizeof *first);
    int rc = host && first ? BULK_OK : BULK_ERR_NOMEM;
    void *dev = NULL;
    if (rc == BULK_OK) {
        for (size_t k = 0; k < t->groups; k++) first[k] = t->g[k].first;
        tt->ng = bg_trial_build((bg_trial_group *)host, (bg_trial_prime *)(host + gb), t->p,
                                t->count, first, t->groups);
        tt->limit = t->limit;
        if (cudaMalloc(&dev, bytes) != cudaSuccess) rc = BULK_ERR_NOMEM;
        else if (cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
            cudaFree(dev);
            rc = BULK_ERR_CUDA;
        }
    }
    free(host);
    free(first);
    if (rc != BULK_OK) return rc;
    tt->g = (const bg_trial_group *)dev;
    tt->q = (const bg_trial_prime *)((char *)dev + gb);
    return BULK_OK;
}

int bulk_int_cuda_trial(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a, size_t n,
                        size_t limbs, const bulk_prime_table *t)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    if (n == 0) return BULK_OK;
    BULK_CUDA_CHECK(ctx, cudaSetDevice(ctx->cuda->device));
    bulk_int_cuda_state *S = int_state(ctx);
    if (!S)
        return bulk_fail(ctx, BULK_ERR_NOMEM, "bulk_int_isprime (CUDA): the context's state: "
                         "out of memory");
    pthread_mutex_lock(&S->lock);
    if (S->trial.g && S->trial.limit != t->limit) { /* another width's table */
        cudaFree((void *)S->trial.g);
        S->trial.g = NULL;
    }
    if (!S->trial.g) rc = trial_table_upload(&S->trial, t);
    const bg_trial_table tt = S->trial;
    pthread_mutex_unlock(&S->lock);
    if (rc != BULK_OK)
        return bulk_fail(ctx, rc, "bulk_int_isprime: the table of %zu small primes on the "
                         "device: %s", t->count, rc == BULK_ERR_NOMEM ? "out of memory"
                                                                     : "copy failed");
    args g = {limbs, limbs, 0, 0, NULL, &tt};
    return stream_op(ctx, n, op_trial, g, BULK_OK, {{a, limbs * 8}}, {{out, 1}},
                     bg_trial_scratch_words(limbs) * 4);
}

int bulk_int_cuda_sprp2(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *m, size_t n,
                        size_t limbs)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    if (limbs > BG_LC_MAX_WORDS / 2) return BULK_ERR_UNSUPPORTED;
    args g = {limbs, limbs, 0, 0, NULL, NULL};
    return stream_op(ctx, n, op_sprp2, g, BULK_OK, {{m, limbs * 8}}, {{out, 1}});
}

int bulk_int_cuda_lucas(bulk_ctx *ctx, bulk_limb_t *u, bulk_limb_t *v, bulk_limb_t *qk,
                        const bulk_limb_t *m, const int64_t *d, size_t n, size_t limbs)
{
    int rc = check_ctx(ctx);
    if (rc != BULK_OK) return rc;
    if (limbs > BG_LC_MAX_WORDS / 2) return BULK_ERR_UNSUPPORTED;
    args g = {limbs, limbs, 0, 0, NULL, NULL};
    return stream_op(ctx, n, op_lucas, g, BULK_OK, {{m, limbs * 8}, {d, 8}},
                     {{u, limbs * 8}, {v, limbs * 8}, {qk, limbs * 8}});
}

void bulk_int_cuda_release(bulk_cuda_state *cs)
{
    bulk_int_cuda_state *S = cs->ints;
    if (!S) return;
    cudaSetDevice(cs->device);
    for (int s = 0; s < kSlots; s++) {
        slot &x = S->slots[s];
        if (x.st) cudaStreamDestroy(x.st);
        if (x.bad_dev) cudaFree(x.bad_dev);
        if (x.bad_host) cudaFreeHost(x.bad_host);
        if (x.pinned) cudaFreeHost(x.pinned);
        if (x.dev) cudaFree(x.dev);
    }
    if (S->trial.g) cudaFree((void *)S->trial.g);
    cudaGetLastError(); /* a failure here leaves nothing to do: the memory goes with the process */
    pthread_mutex_destroy(&S->lock);
    free(S);
    cs->ints = NULL;
}

} // extern "C"
