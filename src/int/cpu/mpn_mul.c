/* The multiplication dispatch: method by size (thresholds of mul_thresholds.h, measured by
 * bench/int/tune_mul.c), scratch at the top level (stack or malloc, see int/mpn.h), forced
 * methods for tests and benchmarks, and unbalanced products. */
#include <stdlib.h>

#include "int/cpu/mpn_mul_internal.h"
#include "int/cpu/mul_thresholds.h"
#include "int/mul_fft.h"

struct bulk_mul_tuning bulk_mul_tuning = {
    BULK_MUL_COMBA_MAX,
    { BULK_MUL_KARATSUBA_THRESHOLD, BULK_MUL_TOOM3_THRESHOLD, BULK_MUL_TOOM4_THRESHOLD,
      BULK_MUL_TOOM6_THRESHOLD, BULK_MUL_TOOM8_THRESHOLD },
    { BULK_SQR_KARATSUBA_THRESHOLD, BULK_SQR_TOOM3_THRESHOLD, BULK_SQR_TOOM4_THRESHOLD,
      BULK_SQR_TOOM6_THRESHOLD, BULK_SQR_TOOM8_THRESHOLD },
    BULK_MULLO_THRESHOLD,
};

/* The k of each fast method, index 0..4 as in the threshold arrays. */
static const unsigned method_k[5] = { 2, 3, 4, 6, 8 };

/* Index of the method AUTO uses at size n: -1 for the basecase, else the largest method whose
 * threshold n reaches and that applies at n (n >= k). */
static int pick(size_t n, const size_t thr[5])
{
    int c = -1;
    for (int i = 0; i < 5; i++)
        if (n >= thr[i] && n >= method_k[i]) c = i;
    return c;
}

static size_t itch_of(size_t n, int idx, int sqr)
{
    if (idx < 0) return 0;
    if (idx == 0) return bulk_mpn_karatsuba_itch(n, sqr);
    if (idx == 1 && bulk_mpn_toom3_applies(n)) return bulk_mpn_toom3_itch(n, sqr);
    return bulk_mpn_toom_itch(n, method_k[idx], sqr);
}

size_t bulk_mpn_mul_n_itch(size_t n) { return itch_of(n, pick(n, bulk_mul_tuning.mul_thr), 0); }
size_t bulk_mpn_sqr_itch(size_t n) { return itch_of(n, pick(n, bulk_mul_tuning.sqr_thr), 1); }

/* AUTO's product of at most comba_max limbs: the MULX/ADX rows where the processor has them
 * and both operands fit them (mpn_mul_adx.c), else Comba. Forcing BULK_MUL_COMBA runs Comba. */
static void small(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b, size_t bn)
{
    if (bulk_mpn_adx && an <= BULK_MPN_ADX_MAX && bn <= BULK_MPN_ADX_MAX) {
        if (an >= bn) bulk_mpn_mul_adx(r, a, an, b, bn);
        else bulk_mpn_mul_adx(r, b, bn, a, an);
    } else {
        bulk_mpn_mul_comba(r, a, an, b, bn);
    }
}

static void basecase(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    if (n <= bulk_mul_tuning.comba_max) small(r, a, n, b, n);
    else bulk_mpn_mul_schoolbook(r, a, n, b, n);
}

/* Runs method idx (-1 = basecase) on n limbs with scratch tmp; b == NULL squares. */
static void run(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n, int idx,
                bulk_limb_t *tmp)
{
    if (idx < 0) {
        if (b) basecase(r, a, b, n);
        else bulk_mpn_sqr_basecase(r, a, n);
    } else if (idx == 0) {
        if (b) bulk_mpn_mul_karatsuba(r, a, b, n, tmp);
        else bulk_mpn_sqr_karatsuba(r, a, n, tmp);
    } else if (idx == 1 && bulk_mpn_toom3_applies(n)) {
        bulk_mpn_mul_toom3(r, a, b, n, tmp);
    } else {
        bulk_mpn_mul_toom(r, a, b, n, method_k[idx], tmp);
    }
}

void bulk_mpn_mul_n_rec(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                        bulk_limb_t *tmp)
{
    /* a == b stays on the multiplication path: tmp was sized by bulk_mpn_mul_n_itch */
    run(r, a, b, n, pick(n, bulk_mul_tuning.mul_thr), tmp);
}

void bulk_mpn_sqr_rec(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t *tmp)
{
    run(r, a, NULL, n, pick(n, bulk_mul_tuning.sqr_thr), tmp);
}

/* Top level: finds `need` limbs of scratch and runs method idx; without memory, the
 * scratch-free schoolbook (or basecase squaring) gives the same result. */
static void top(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n, int idx,
                size_t need)
{
    if (!BULK_MPN_EXACT_SCRATCH && need <= BULK_MPN_STACK_SCRATCH / sizeof(bulk_limb_t)) {
        bulk_limb_t buf[BULK_MPN_STACK_SCRATCH / sizeof(bulk_limb_t)];
        run(r, a, b, n, idx, buf);
        return;
    }
    bulk_limb_t *tmp = malloc(need * sizeof *tmp);
    if (tmp) {
        run(r, a, b, n, idx, tmp);
        free(tmp);
    } else if (b) {
        bulk_mpn_mul_schoolbook(r, a, n, b, n);
    } else {
        bulk_mpn_sqr_basecase(r, a, n);
    }
}

void bulk_mpn_mul_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    if (a == b) {
        bulk_mpn_sqr(r, a, n);
        return;
    }
    /* far above the Toom range the three-prime NTT wins (mul_fft.h); it never calls back
     * into this dispatch, and without memory it fails cleanly and Toom runs instead */
    if (n >= BULK_MUL_FFT_THRESHOLD && bulk_mpn_mul_fft(r, a, n, b, n) == BULK_OK) return;
    if (n <= bulk_mul_tuning.comba_max && n < bulk_mul_tuning.mul_thr[0]) {
        small(r, a, n, b, n); /* the common small case, without the dispatch */
        return;
    }
    int idx = pick(n, bulk_mul_tuning.mul_thr);
    if (idx < 0) basecase(r, a, b, n);
    else top(r, a, b, n, idx, itch_of(n, idx, 0));
}

void bulk_mpn_sqr(bulk_limb_t *r, const bulk_limb_t *a, size_t n)
{
    if (n >= BULK_MUL_FFT_THRESHOLD && bulk_mpn_mul_fft(r, a, n, a, n) == BULK_OK) return;
    int idx = pick(n, bulk_mul_tuning.sqr_thr);
    if (idx < 0) bulk_mpn_sqr_basecase(r, a, n);
    else top(r, a, NULL, n, idx, itch_of(n, idx, 1));
}

size_t bulk_mpn_method_min_n(bulk_mul_method m)
{
    switch (m) {
    case BULK_MUL_KARATSUBA: return 2;
    case BULK_MUL_TOOM3: return bulk_mpn_toom_min_n(3);
    case BULK_MUL_TOOM4: return bulk_mpn_toom_min_n(4);
    case BULK_MUL_TOOM6: return bulk_mpn_toom_min_n(6);
    case BULK_MUL_TOOM8: return bulk_mpn_toom_min_n(8);
    default: return 1;
    }
}

/* Index in method_k of a forced fast method, -1 for the others. */
static int method_index(bulk_mul_method m)
{
    switch (m) {
    case BULK_MUL_KARATSUBA: return 0;
    case BULK_MUL_TOOM3: return 1;
    case BULK_MUL_TOOM4: return 2;
    case BULK_MUL_TOOM6: return 3;
    case BULK_MUL_TOOM8: return 4;
    default: return -1;
    }
}

void bulk_mpn_mul_n_method(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                           bulk_mul_method m)
{
    if (m == BULK_MUL_SCHOOLBOOK) {
        bulk_mpn_mul_schoolbook(r, a, n, b, n);
        return;
    }
    if (m == BULK_MUL_COMBA) {
        bulk_mpn_mul_comba(r, a, n, b, n);
        return;
    }
    int idx = method_index(m);
    if (idx < 0 || n < bulk_mpn_method_min_n(m)) {
        bulk_mpn_mul_n(r, a, b, n);
        return;
    }
    /* a == b is allowed here too: the general code path is correct for it */
    top(r, a, b, n, idx, itch_of(n, idx, 0));
}

void bulk_mpn_sqr_method(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_mul_method m)
{
    if (m == BULK_MUL_SCHOOLBOOK) {
        bulk_mpn_mul_schoolbook(r, a, n, a, n);
        return;
    }
    if (m == BULK_MUL_COMBA) {
        bulk_mpn_mul_comba(r, a, n, a, n);
        return;
    }
    int idx = method_index(m);
    if (idx < 0 || n < bulk_mpn_method_min_n(m)) {
        bulk_mpn_sqr(r, a, n);
        return;
    }
    top(r, a, NULL, n, idx, itch_of(n, idx, 1));
}

/* The blocked unbalanced product (an > bn >= the Karatsuba threshold); its own function so
 * that the small cases of bulk_mpn_mul do not set up this stack frame. */
static __attribute__((noinline)) void mul_blocked(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                                                  const bulk_limb_t *b, size_t bn)
{
    size_t need = 2 * bn + bulk_mpn_mul_n_itch(bn);
    bulk_limb_t stackbuf[BULK_MPN_STACK_SCRATCH / sizeof(bulk_limb_t) / 2];
    bulk_limb_t *tmp = stackbuf, *heap = NULL;
    if (BULK_MPN_EXACT_SCRATCH || need > sizeof stackbuf / sizeof *stackbuf) {
        tmp = heap = malloc(need * sizeof *tmp);
        if (!heap) {
            bulk_mpn_mul_schoolbook(r, a, an, b, bn);
            return;
        }
    }
    bulk_limb_t *prod = tmp, *sub = tmp + 2 * bn;
    bulk_mpn_mul_n_rec(r, a, b, bn, sub);
    for (size_t off = bn; off < an; off += bn) {
        size_t c = an - off < bn ? an - off : bn;
        if (c == bn) bulk_mpn_mul_n_rec(prod, a + off, b, bn, sub);
        else bulk_mpn_mul(prod, b, bn, a + off, c);
        /* r is valid up to off + bn; add the block product (bn + c limbs) at off */
        bulk_limb_t cy = bulk_mpn_add_n(r + off, r + off, prod, bn);
        bulk_mpn_copy(r + off + bn, prod + bn, c);
        bulk_mpn_add_1(r + off + bn, r + off + bn, c, cy);
    }
    free(heap);
}

/* Unbalanced a (an limbs) times b (bn < an limbs): below the Karatsuba threshold a basecase
 * (Comba, or schoolbook rows of an limbs when b has at most 4 limbs); above, a is cut
 * into bn-limb blocks, each multiplied by b with the balanced code and added in. */
void bulk_mpn_mul(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b, size_t bn)
{
    if (an < bn) { /* outside the contract, but cheap to accept */
        const bulk_limb_t *t = a;
        a = b;
        b = t;
        size_t tn = an;
        an = bn;
        bn = tn;
    }
    if (an == bn) {
        bulk_mpn_mul_n(r, a, b, an);
        return;
    }
    int idx = pick(bn, bulk_mul_tuning.mul_thr);
    if (idx < 0) {
        /* rows win when b is very thin (measured: 100 x 3 limbs), columns otherwise */
        if (an <= bulk_mul_tuning.comba_max && bn > 4) small(r, a, an, b, bn);
        else bulk_mpn_mul_schoolbook(r, a, an, b, bn);
        return;
    }
    /* one NTT of the whole product when even the smaller operand is in the NTT range */
    if (bn >= BULK_MUL_FFT_THRESHOLD && bulk_mpn_mul_fft(r, a, an, b, bn) == BULK_OK) return;
    mul_blocked(r, a, an, b, bn);
}
