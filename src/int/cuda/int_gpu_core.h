/* Per-instance step logic of the CUDA integer kernels, written once as BULK_HD functions so the
 * CPU tests (tests/int_gpu/test_int_gpu_core.c) run exactly the code the GPU runs, against GMP.
 *
 * Words are 32 bits (the GPU's native multiply width: one IMAD gives 32 bits of a 32x32
 * product). A number of nw words is addressed as p[j * s] for j < nw, least significant first;
 * s (the stride, in words) is 1 for the users' instance-major layout read as 32-bit words, and
 * the padded instance count for the column-major layout the per-thread kernels use on the GPU
 * (word j of every instance side by side, so a warp's accesses are coalesced: seed 001 ch. 3).
 *
 * Carry flags: on the device the bg_mad* / bg_addc* functions are single PTX instructions that
 * read and write the hardware carry flag (mad.lo.cc, madc.hi.cc, addc: seed 001 ch. 4's "64-bit
 * PTX multiply" idea at 32 bits); on the host the same functions emulate that flag in *f. A chain
 * of them must therefore be written without other carry-using code in between (nothing in C or
 * CUDA C lowers to PTX carry instructions, so the compiler never interleaves its own). */
#ifndef BULK_INT_CUDA_INT_GPU_CORE_H
#define BULK_INT_CUDA_INT_GPU_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "common/hd.h"

#if defined(__CUDA_ARCH__) /* the device pass only: the host compiler warns on the pragma */
#define BG_UNROLL _Pragma("unroll")
#define BG_NOUNROLL _Pragma("unroll 1")
#else
#define BG_UNROLL
#define BG_NOUNROLL
#endif

#if defined(__CUDA_ARCH__)
#define BG_DEVICE 1
#else
#define BG_DEVICE 0
#endif

typedef uint32_t bg_word;

#define BG_AT(p, s, j) ((p)[(size_t)(j) * (s)])

/* The emulated carry flag (host); unused on the device, where the flag is in hardware. */
typedef struct bg_cc {
    uint32_t c;
} bg_cc;

/* ---- carry-flag primitives ------------------------------------------------------------- */

/* lo(a*b) + c, sets the flag. */
BULK_HD bg_word bg_mad_lo_cc(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (uint64_t)(bg_word)(a * b) + c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* lo(a*b) + c + flag, sets the flag. */
BULK_HD bg_word bg_madc_lo_cc(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (uint64_t)(bg_word)(a * b) + c + f->c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* lo(a*b) + c + flag; the flag is not written (the top word of a truncated chain). */
BULK_HD bg_word bg_madc_lo(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("madc.lo.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    return (bg_word)(a * b) + c + f->c;
#endif
}

/* hi(a*b) + c, sets the flag. */
BULK_HD bg_word bg_mad_hi_cc(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (((uint64_t)a * b) >> 32) + c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* hi(a*b) + c + flag, sets the flag. */
BULK_HD bg_word bg_madc_hi_cc(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (((uint64_t)a * b) >> 32) + c + f->c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* hi(a*b) + c + flag; the caller guarantees no carry out; the flag is not written. */
BULK_HD bg_word bg_madc_hi(bg_word a, bg_word b, bg_word c, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    uint64_t t = (((uint64_t)a * b) >> 32) + c + f->c;
    return (bg_word)t; /* like the hardware: the flag is left as it was */
#endif
}

/* a + b + flag; does not set the flag. */
BULK_HD bg_word bg_addc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    return a + b + f->c; /* like the hardware: the flag is left as it was */
#endif
}

/* a - b, sets the flag to the borrow (PTX sub.cc). */
BULK_HD bg_word bg_sub_cc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    f->c = a < b;
    return a - b;
#endif
}

/* a - b - flag, sets the flag to the borrow (PTX subc.cc). */
BULK_HD bg_word bg_subc_cc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    uint64_t t = (uint64_t)a - b - f->c;
    f->c = (uint32_t)(t >> 63);
    return (bg_word)t;
#endif
}

/* a - b - flag; does not set the flag (PTX subc). */
BULK_HD bg_word bg_subc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    return a - b - f->c;
#endif
}

/* a * b + c as a 64-bit number (PTX mad.wide.u32: one IMAD.WIDE.U32 on sm_90). */
BULK_HD uint64_t bg_mad_wide(bg_word a, bg_word b, uint64_t c)
{
#if BG_DEVICE
    uint64_t d;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(d) : "r"(a), "r"(b), "l"(c));
    return d;
#else
    return (uint64_t)a * b + c;
#endif
}

/* a + b, sets the flag (PTX add.cc). */
BULK_HD bg_word bg_add_cc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    uint64_t t = (uint64_t)a + b;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* a + b + flag, sets the flag. */
BULK_HD bg_word bg_addc_cc(bg_word a, bg_word b, bg_cc *f)
{
#if BG_DEVICE
    bg_word d;
    (void)f;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#else
    uint64_t t = (uint64_t)a + b + f->c;
    f->c = (uint32_t)(t >> 32);
    return (bg_word)t;
#endif
}

/* ---- even/odd rows: one fused multiply-add per word product ---------------------------------
 *
 * Emmart and Weems' split of a row a * b_i into its even and odd words of a: the products
 * a_j b_i with j of one parity are two words each at j and do not overlap, so adding them into
 * an accumulator is a single carry chain that alternates madc.lo.cc and madc.hi.cc on the same
 * operands - which ptxas (nvcc 13, sm_90) fuses into ONE IMAD.WIDE.U32.X per word product
 * (carry in and out through a predicate), against IMAD + IMAD.HI + about two IADD3.X for
 * carry-flag rows (mad.lo / mad.hi chains). Two accumulators keep the 64-bit register pairs aligned (no moves): e holds
 * the chains whose products start at even columns (j of the parity of i), o[k] column k + 1
 * (the others); a row is one chain into each. */

/* The widest operand of the even/odd rows, in words (1280 bits: the kernels' 20-limb capacity). */
#define BG_EO_MAXW 40

/* x[o ..] += sum over j = par, par + 2, .. < nw of a_j bi D^(j - par) (D = 2^32) as one carry
 * chain; its carry goes into the word above the last one written when that word is below xn.
 * The caller guarantees that the sum after the chain, carry included, is below D^(top + 2)
 * (top the last word written), so neither the last high multiply-add (when top + 1 = xn) nor
 * the carry word overflows. */
BULK_HD void bg_eo_chain(bg_word *x, int xn, int o, const bg_word *a, int par, bg_word bi, int nw)
{
    bg_cc f = {0};
    if (par >= nw || o >= xn) return;
    int last = par + 2 * ((nw - 1 - par) / 2); /* the last j of this parity */
    if (o + last - par >= xn) last = par + 2 * ((xn - 1 - o) / 2); /* a low half: x ends first */
    const int hi_last = o + last - par + 1 < xn; /* the last product's high word is inside x */
    const int top = o + last - par + hi_last;     /* the last word written */
    BG_UNROLL
    for (int q = 0; q < BG_EO_MAXW; q += 2) { /* a fixed trip count: nvcc unrolls it always */
        const int j = par + q, w = o + q;
        if (j > last) break;
        const int hi = j < last || hi_last; /* this product's high word is written */
        if (q == 0 && hi) x[w] = bg_mad_lo_cc(a[j], bi, x[w], &f);
        else if (q == 0) x[w] += a[j] * bi; /* a single low word: no chain */
        else if (hi) x[w] = bg_madc_lo_cc(a[j], bi, x[w], &f);
        else x[w] = bg_madc_lo(a[j], bi, x[w], &f); /* the top word: its carry is dropped */
        if (!hi) break;
        if (j < last || top + 1 < xn) x[w + 1] = bg_madc_hi_cc(a[j], bi, x[w + 1], &f);
        else x[w + 1] = bg_madc_hi(a[j], bi, x[w + 1], &f);
    }
    if (hi_last && top + 1 < xn) x[top + 1] = bg_addc(x[top + 1], 0, &f);
}

/* Word k of e + o D: e[k] + o[k - 1] + *c (o[-1] = 0), *c the carry (0 or 1) of that
 * addition below word k, kept in a register (the flag does not survive the next chain). Four
 * flag instructions, no 64-bit C addition: with those between the rows' chains ptxas (nvcc 13)
 * reordered the multiply-adds by columns and spilled carry predicates to registers (about 2.6
 * LOP3 per word product). */
BULK_HD bg_word bg_eo_word(const bg_word *e, const bg_word *o, int k, bg_word *c)
{
    bg_cc f = {0};
    if (k == 0) return e[0];
    const bg_word w = bg_add_cc(e[k], *c, &f);
    const bg_word t = bg_addc(0, 0, &f);
    const bg_word v = bg_add_cc(w, o[k - 1], &f);
    *c = bg_addc(t, 0, &f);
    return v;
}

/* How many rows the addition e + o D runs behind the rows in bg_mul_rows_eo. 2: with 0, 4 or 8
 * ptxas (nvcc 13, sm_90, 1024 bits) reordered the chains by columns and spilled carry
 * predicates (1.6 .. 3.5x the instructions), with 2 it kept rows (1832 instructions, 112
 * registers for the whole staged 1024-bit kernel body). */
#define BG_EO_LAG 2

/* r[0 .. n) = a[0 .. na) * b[0 .. nb) mod D^n (1 <= na, nb <= BG_EO_MAXW; nb <= n <= na + nb;
 * n = na + nb: the full product) by even/odd rows: row i adds the products a_j b_i with i + j even into
 * e (from column i + (i & 1)) and the others into o (word k = column k + 1, from word
 * i - (i & 1)); r = e + o D. na nb fused multiply-adds on sm_90 (fewer when n truncates),
 * 2 nb carry words, an n-word addition. Bounds for bg_eo_chain (full product): after row i, e
 * and o D are each at most a (b mod D^(i+1)) < D^(na + i + 1), and every chain's top + 2 is at
 * least na + i + 1 for e (na + i for o); truncated at n, bg_eo_chain drops what lies above and
 * nothing needs to fit. Column k is final
 * after row k (no later row reaches it), so word k of r is written BG_EO_LAG rows later - each
 * word of r exactly once, in order, and b[i] read once, at row i: the kernel passes
 * shared-memory rows for r and b, and the finished words leave the registers as they complete
 * (e and o hold about na + 4 live words each). */
BULK_HD void bg_mul_rect_eo(bg_word *r, const bg_word *a, int na, const bg_word *b, int nb,
                            int n)
{
    bg_word e[2 * BG_EO_MAXW], o[2 * BG_EO_MAXW - 1], c = 0;
    BG_UNROLL
    for (int j = 0; j < n; j++) e[j] = 0;
    BG_UNROLL
    for (int j = 0; j < n - 1; j++) o[j] = 0;
    BG_UNROLL
    for (int i = 0; i < nb; i++) {
        const int p = i & 1;
        const bg_word bi = b[i];
        bg_eo_chain(e, n, i + p, a, p, bi, na);
        bg_eo_chain(o, n - 1, i - p, a, 1 - p, bi, na);
        if (i >= BG_EO_LAG) r[i - BG_EO_LAG] = bg_eo_word(e, o, i - BG_EO_LAG, &c);
    }
    BG_UNROLL
    for (int k = nb - BG_EO_LAG > 0 ? nb - BG_EO_LAG : 0; k < n; k++)
        r[k] = bg_eo_word(e, o, k, &c);
}

/* r[0 .. 2nw) = a[0 .. nw) * b[0 .. nw) (1 <= nw <= BG_EO_MAXW): bg_mul_rect_eo. */
BULK_HD void bg_mul_rows_eo(bg_word *r, const bg_word *a, const bg_word *b, int nw)
{
    bg_mul_rect_eo(r, a, nw, b, nw, 2 * nw);
}

/* r[k] = word k of 2 s + d + *c2: sk = s[k], *sprev = s[k - 1] (the doubled sum's bit shifted
 * in; updated to sk), d the diagonal sum a_i^2 D^(2i), *c2 the carry (0 or 1) of the addition
 * below word k. Flag instructions as in bg_eo_word (no 64-bit C addition). */
BULK_HD void bg_eo_sqr_emit(bg_word *r, bg_word sk, bg_word *sprev, const bg_word *a, int k,
                            bg_word *c2)
{
    bg_cc f = {0};
    const bg_word w = (sk << 1) | (*sprev >> 31);
    const uint64_t sq = (uint64_t)a[k >> 1] * a[k >> 1];
    const bg_word d = (k & 1) ? (bg_word)(sq >> 32) : (bg_word)sq;
    *sprev = sk;
    const bg_word t = bg_add_cc(w, d, &f);
    const bg_word x = bg_addc(0, 0, &f);
    r[k] = bg_add_cc(t, *c2, &f);
    *c2 = bg_addc(x, 0, &f);
}

/* r[0 .. 2nw) = a[0 .. nw)^2 (1 <= nw <= BG_EO_MAXW) by even/odd rows over the products a_i
 * a_j, i < j, once: row i adds a_i (a_(i+1) .. a_(nw-1)) - the words j - i - 1 odd into e
 * (from column 2i + 2), the even ones into o (word k = column k + 1, from word 2i) - so
 * s = e + o D is the sum of the off-diagonal products, then r = 2 s + sum a_i^2 D^(2i). nw (nw - 1) / 2 fused
 * multiply-adds and nw wide squares on sm_90. Bounds for bg_eo_chain: after row i, e and o D
 * are each at most sum over i' <= i of a_i' (a >> 32 (i' + 1)) D^(2i' + 1) < D^(nw + i + 1),
 * and every chain's top + 2 is at least nw + i + 1 for e (nw + i for o). Columns up to 2i + 2
 * are final after row i; words of r are written in order, 4 columns behind. */
BULK_HD void bg_sqr_rows_eo(bg_word *r, const bg_word *a, int nw)
{
    bg_word e[2 * BG_EO_MAXW], o[2 * BG_EO_MAXW - 1], c1 = 0, c2 = 0, sprev = 0;
    BG_UNROLL
    for (int j = 0; j < 2 * nw; j++) e[j] = 0;
    BG_UNROLL
    for (int j = 0; j < 2 * nw - 1; j++) o[j] = 0;
    BG_UNROLL
    for (int i = 0; i < nw - 1; i++) {
        bg_eo_chain(e, 2 * nw, 2 * i + 2, a + i + 1, 1, a[i], nw - i - 1);
        bg_eo_chain(o, 2 * nw - 1, 2 * i, a + i + 1, 0, a[i], nw - i - 1);
        /* words 2i - 3 and 2i - 2 (fixed trip counts: with bounds that depend on i, or a
         * counter carried across the rows, nvcc left loops and put e and o on the stack) */
        BG_UNROLL
        for (int d = 0; d < 2; d++) {
            const int k = 2 * i - 3 + d;
            if (k >= 0) bg_eo_sqr_emit(r, bg_eo_word(e, o, k, &c1), &sprev, a, k, &c2);
        }
    }
    BG_UNROLL
    for (int d = 0; d < 5; d++) { /* words max(0, 2nw - 5) .. 2nw - 1 */
        const int k = 2 * nw - 5 + d;
        if (k >= 0) bg_eo_sqr_emit(r, bg_eo_word(e, o, k, &c1), &sprev, a, k, &c2);
    }
}

/* r[0 .. nw) = a * b mod D^nw (1 <= nw <= BG_EO_MAXW): bg_mul_rect_eo truncated at word nw.
 * nw (nw + 1) / 2 products. */
BULK_HD void bg_mullo_rows_eo(bg_word *r, const bg_word *a, const bg_word *b, int nw)
{
    bg_mul_rect_eo(r, a, nw, b, nw, nw);
}

/* ---- the warp-column multiplication (large W) ----------------------------------------------
 *
 * Product scanning, balanced per column as in seed 002's convolution multiplication: lane l of a
 * warp owns the four columns k0 .. k0+3 (k0 = 128 t + 4 l for the warp's task t), and for every
 * i of the warp's common range adds a_i * b_{k-i} into a 96-bit accumulator per column. a_i is
 * the same for all lanes (a shared-memory broadcast); the four b words slide by one per step, so
 * each step loads one new b word per lane. b lives in shared memory padded by BG_PAD zero words on
 * both sides (so the warp-wide range needs no bounds checks) and split into four phases (word
 * j at (j & 3) * q + (j >> 2)), so the lanes' loads, four words apart in j, fall in 32 distinct
 * banks. N = number of words of a and b. */
#define BG_PAD 128
#define BG_COLS_PER_TASK 128

/* Words of the phased, padded b buffer, and where padded word j (= index + BG_PAD) lives. */
BULK_HD int bg_bpad_q(int N) { return (N + 2 * BG_PAD + 3) / 4 + 1; }
BULK_HD int bg_bpad_pos(int jpad, int q) { return (jpad & 3) * q + (jpad >> 2); }

/* The common i range of task t: lanes' columns span [kmin, kmin + 127]. */
BULK_HD void bg_task_range(int t, int N, int *ilo, int *ihi)
{
    int kmin = t * BG_COLS_PER_TASK, kmax = kmin + BG_COLS_PER_TASK - 1;
    *ilo = kmin - (N - 1) > 0 ? kmin - (N - 1) : 0;
    *ihi = kmax < N - 1 ? kmax : N - 1;
}

/* acc[3c .. 3c+2] += a_i * w_c for c = 0..3: one carry chain of 12 instructions. */
BULK_HD void bg_col4_mac(bg_word acc[12], bg_word ai, bg_word w0, bg_word w1, bg_word w2,
                         bg_word w3, bg_cc *f)
{
    acc[0] = bg_mad_lo_cc(ai, w0, acc[0], f);
    acc[1] = bg_madc_hi_cc(ai, w0, acc[1], f);
    acc[2] = bg_addc(acc[2], 0, f);
    acc[3] = bg_mad_lo_cc(ai, w1, acc[3], f);
    acc[4] = bg_madc_hi_cc(ai, w1, acc[4], f);
    acc[5] = bg_addc(acc[5], 0, f);
    acc[6] = bg_mad_lo_cc(ai, w2, acc[6], f);
    acc[7] = bg_madc_hi_cc(ai, w2, acc[7], f);
    acc[8] = bg_addc(acc[8], 0, f);
    acc[9] = bg_mad_lo_cc(ai, w3, acc[9], f);
    acc[10] = bg_madc_hi_cc(ai, w3, acc[10], f);
    acc[11] = bg_addc(acc[11], 0, f);
}

/* acc[3c .. 3c+2] = sum over i in [ilo, ihi] of a[i] * b[k0 + c - i], c = 0..3 (b from the
 * phased buffer bq, zero outside [0, N)). k0 must be a multiple of 4. 3 instructions per
 * product, 1 b load per 4 products. The window w0..w3 = b[k0 - i .. k0 + 3 - i] slides down one
 * word per step. Steps come in groups of four starting at i = 0 mod 4: there the padded index
 * j = k0 - i + BG_PAD is 0 mod 4 (k0 and BG_PAD are), so the group's four new words are the
 * phases 3, 2, 1, 0 of one row of bq - fixed offsets from one pointer - and a[i .. i+3] is one
 * aligned 16-byte load; no index arithmetic and no register moves remain once unrolled. */
BULK_HD void bg_col4_lane(bg_word acc[12], const bg_word *a, const bg_word *bq, int q, int k0,
                          int ilo, int ihi)
{
    bg_cc f = {0};
    for (int c = 0; c < 12; c++) acc[c] = 0;
    int j = k0 - ilo + BG_PAD; /* padded index of b_{k0 - i} */
    bg_word w0 = bq[bg_bpad_pos(j, q)], w1 = bq[bg_bpad_pos(j + 1, q)];
    bg_word w2 = bq[bg_bpad_pos(j + 2, q)], w3 = bq[bg_bpad_pos(j + 3, q)];
    int i = ilo;
    for (; i <= ihi && (i & 3); i++) { /* up to the first multiple of 4 */
        bg_col4_mac(acc, a[i], w0, w1, w2, w3, &f);
        w3 = w2;
        w2 = w1;
        w1 = w0;
        j--;
        w0 = bq[bg_bpad_pos(j, q)]; /* j >= k0 - ihi - 1 + BG_PAD >= 0: within the padding */
    }
    /* groups: here j = 0 mod 4, row r = j / 4; the next words are b(j-1) .. b(j-4) = phases
     * 3, 2, 1, 0 of row r - 1 */
    const bg_word *row = bq + (j >> 2) - 1;
    for (; i + 3 <= ihi; i += 4, row--) {
        bg_word a0, a1, a2, a3;
#if BG_DEVICE
        uint4 av = *(const uint4 *)(a + i); /* i = 0 mod 4, a 16-byte aligned */
        a0 = av.x, a1 = av.y, a2 = av.z, a3 = av.w;
#else
        a0 = a[i], a1 = a[i + 1], a2 = a[i + 2], a3 = a[i + 3];
#endif
        bg_word n3 = row[3 * q], n2 = row[2 * q], n1 = row[q], n0 = row[0];
        bg_col4_mac(acc, a0, w0, w1, w2, w3, &f);
        bg_col4_mac(acc, a1, n3, w0, w1, w2, &f);
        bg_col4_mac(acc, a2, n2, n3, w0, w1, &f);
        bg_col4_mac(acc, a3, n1, n2, n3, w0, &f);
        w3 = n3;
        w2 = n2;
        w1 = n1;
        w0 = n0;
        j -= 4;
    }
    for (; i <= ihi; i++) { /* the rest */
        bg_col4_mac(acc, a[i], w0, w1, w2, w3, &f);
        w3 = w2;
        w2 = w1;
        w1 = w0;
        j--;
        w0 = bq[bg_bpad_pos(j, q)];
    }
}

/* W = sum_c col_c 2^(32c) (7 words): low four words to L, high three to H. */
BULK_HD void bg_col4_finish(const bg_word acc[12], bg_word L[4], bg_word H[3])
{
    uint64_t w[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int c = 0; c < 4; c++)
        for (int e = 0; e < 3; e++) w[c + e] += acc[3 * c + e]; /* each w < 2^34 */
    uint64_t carry = 0;
    for (int k = 0; k < 7; k++) {
        uint64_t t = w[k] + carry;
        w[k] = (uint32_t)t;
        carry = t >> 32;
    }
    for (int k = 0; k < 4; k++) L[k] = (bg_word)w[k];
    for (int k = 0; k < 3; k++) H[k] = (bg_word)w[4 + k];
}

/* L += Hprev (a 3-word number); returns the carry out of the 4 words (0 or 1). */
BULK_HD bg_word bg_add_h(bg_word L[4], const bg_word Hp[3])
{
    uint64_t c = 0;
    for (int k = 0; k < 4; k++) {
        uint64_t t = (uint64_t)L[k] + (k < 3 ? Hp[k] : 0) + c;
        L[k] = (bg_word)t;
        c = t >> 32;
    }
    return (bg_word)c;
}

/* Carry lookahead over the 32 lanes of a warp in one integer addition: lane l generates a carry
 * (bit l of G) or propagates one (bit l of P, its 128 bits all ones). With A = G | P and B = G,
 * the carries of A + B + cin are exactly the lanes' carries in. Returns the carry-in mask (bit l:
 * lane l receives a carry) and the carry out of lane 31 in *cout. */
BULK_HD uint32_t bg_warp_carries(uint32_t G, uint32_t P, uint32_t cin, uint32_t *cout)
{
    uint64_t A = (uint64_t)(G | P), B = G;
    uint64_t S = A + B + cin;
    uint64_t C = S ^ A ^ B; /* bit l = carry into bit l */
    *cout = (uint32_t)(C >> 32) & 1;
    return (uint32_t)C;
}

/* The same over a group of `width` <= 32 lanes (G, P < 2^width): carry out at bit `width`. */
BULK_HD uint32_t bg_lane_carries(uint32_t G, uint32_t P, uint32_t cin, int width, uint32_t *cout)
{
    uint64_t A = (uint64_t)(G | P), B = G;
    uint64_t S = A + B + cin;
    uint64_t C = S ^ A ^ B;
    *cout = (uint32_t)(C >> width) & 1;
    return (uint32_t)(C & ((width < 32 ? ((uint64_t)1 << width) : ((uint64_t)1 << 32)) - 1));
}

/* ---- sum-rotate multiplication (a group of G lanes per instance, mid-size W) ---------------
 *
 * Seed 000's sum-rotate method with G = 8, 16 or 32 lanes per instance (32 / G instances per
 * warp, as seed 000 runs several small instances per warp) and P words of a per lane: lane l
 * holds a[P l .. P l + P) and P column accumulators (96 bits each) for columns i + P l + q at
 * row i. Each row adds a_j b_i into them (b_i a shared-memory broadcast), then the lowest column
 * of every lane is complete for that lane and moves to lane l - 1 (a rotation by shuffle),
 * whose top slot it becomes; the column leaving lane 0 is final and is written out. No product
 * is computed twice and no lane idles: (G P)^2 products for an instance padded to G P words.
 * Slots rotate through the physical registers (slot q of row u is register (q + u) mod P), so
 * after unrolling P rows the shift is free. */

/* Row u (mod P) of the sum-rotate method: acc[3 ((q + u) mod P) ..] += a[q] * bi, q < P. */
BULK_HD void bg_sr_row(bg_word *acc, const bg_word *a, bg_word bi, int u, int P)
{
    bg_cc f = {0};
    BG_UNROLL
    for (int q = 0; q < P; q++) {
        int ph = (q + u) % P;
        acc[3 * ph] = bg_mad_lo_cc(a[q], bi, acc[3 * ph], &f);
        acc[3 * ph + 1] = bg_madc_hi_cc(a[q], bi, acc[3 * ph + 1], &f);
        acc[3 * ph + 2] = bg_addc(acc[3 * ph + 2], 0, &f);
    }
}

/* Predicted issue cost (lane instruction slots per instance) of the large-W kernels, for
 * choosing between them until measured thresholds replace it: the warp-column kernel computes
 * the parallelogram of each 128-column task (3.5 slots per product); sum-rotate with G lanes of
 * P words computes the padded square, G P rows of 3 P slots per lane plus about 11 for the
 * broadcast, the three shuffles and selects, the three stores of the finished column and the
 * loop - so fewer lanes with more words each amortise that overhead better. */
BULK_HD double bg_cost_cols(int N)
{
    int T = (2 * N + BG_COLS_PER_TASK - 1) / BG_COLS_PER_TASK;
    double prod = 0;
    for (int t = 0; t < T; t++) {
        int ilo, ihi;
        bg_task_range(t, N, &ilo, &ihi);
        if (ihi >= ilo) prod += (double)BG_COLS_PER_TASK * (ihi - ilo + 1);
    }
    return prod * 3.5;
}
BULK_HD double bg_cost_sr(int P, int G)
{
    double rows = (double)G * P; /* words of the padded instance */
    return rows * G * (3.0 * P + 11.0);
}

/* ---- Karatsuba over the batch (large W): the per-instance glue on 64-bit limbs --------------
 *
 * a = a1 B^h + a0, b = b1 B^h + b0 (B = 2^64, h = limbs / 2). The three half-size products
 * z0 = a0 b0, z2 = a1 b1, z1 = sa sb with sa = a0 + a1 = ca B^h + (h limbs), likewise sb, run as
 * batched multiplications; then a b = z0 + (z1' - z0 - z2) B^h + z2 B^2h with
 * z1' = z1 + (ca sb + cb sa) B^h + ca cb B^2h. All of it is computed modulo B^(4h): the true
 * product fits, so the wrap-arounds of the partial sums cancel. */

/* r[off ..] += x (len limbs), carry propagated to r[n - 1], dropped beyond (mod B^n). */
BULK_HD void bg_add64_at(uint64_t *r, int n, const uint64_t *x, int len, int off)
{
    uint64_t c = 0;
    int k = off;
    for (int j = 0; j < len && k < n; j++, k++) {
        uint64_t s = r[k] + x[j];
        uint64_t c1 = s < x[j];
        uint64_t t = s + c;
        c = c1 | (t < s);
        r[k] = t;
    }
    for (; c && k < n; k++) c = ++r[k] == 0;
}

/* r[off ..] -= x (len limbs), borrow propagated to r[n - 1], dropped beyond (mod B^n). */
BULK_HD void bg_sub64_at(uint64_t *r, int n, const uint64_t *x, int len, int off)
{
    uint64_t br = 0;
    int k = off;
    for (int j = 0; j < len && k < n; j++, k++) {
        uint64_t xj = x[j], rk = r[k];
        uint64_t d = rk - xj;
        uint64_t b1 = rk < xj;
        uint64_t t = d - br;
        br = b1 | (d < br);
        r[k] = t;
    }
    for (; br && k < n; k++) br = r[k]-- == 0;
}

/* s = x + y (h limbs each), returns the carry (0 or 1). */
BULK_HD uint64_t bg_add64_n(uint64_t *s, const uint64_t *x, const uint64_t *y, int h)
{
    uint64_t c = 0;
    for (int j = 0; j < h; j++) {
        uint64_t t = x[j] + y[j];
        uint64_t c1 = t < x[j];
        uint64_t u = t + c;
        c = c1 | (u < t);
        s[j] = u;
    }
    return c;
}

/* r (4h limbs) = the product, from z0, z2, z1 (2h limbs each), sa, sb (h limbs), ca, cb. */
BULK_HD void bg_kara_combine(uint64_t *r, const uint64_t *z0, const uint64_t *z1,
                             const uint64_t *z2, const uint64_t *sa, const uint64_t *sb, int ca,
                             int cb, int h)
{
    const int n = 4 * h;
    for (int j = 0; j < 2 * h; j++) {
        r[j] = z0[j];
        r[2 * h + j] = z2[j];
    }
    bg_add64_at(r, n, z1, 2 * h, h);
    if (ca) bg_add64_at(r, n, sb, h, 2 * h);
    if (cb) bg_add64_at(r, n, sa, h, 2 * h);
    if (ca && cb) {
        const uint64_t one = 1;
        bg_add64_at(r, n, &one, 1, 3 * h);
    }
    bg_sub64_at(r, n, z0, 2 * h, h);
    bg_sub64_at(r, n, z2, 2 * h, h);
}

/* ---- multi-word helpers over strided words ------------------------------------------------- */

/* Number of significant words (0 for zero). */
BULK_HD int bg_len(const bg_word *a, size_t s, int n)
{
    while (n > 0 && BG_AT(a, s, n - 1) == 0) n--;
    return n;
}

/* -1, 0, 1 as a <, =, > b (n words each). */
BULK_HD int bg_cmp(const bg_word *a, size_t as, const bg_word *b, size_t bs, int n)
{
    for (int j = n - 1; j >= 0; j--) {
        bg_word x = BG_AT(a, as, j), y = BG_AT(b, bs, j);
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

BULK_HD void bg_copy(bg_word *r, size_t rs, const bg_word *a, size_t as, int n)
{
    for (int j = 0; j < n; j++) BG_AT(r, rs, j) = BG_AT(a, as, j);
}

BULK_HD void bg_zero(bg_word *r, size_t rs, int n)
{
    for (int j = 0; j < n; j++) BG_AT(r, rs, j) = 0;
}

/* r -= b (n words), returns the borrow. r and b may be the same only if the caller wants 0. */
BULK_HD bg_word bg_sub_inplace(bg_word *r, size_t rs, const bg_word *b, size_t bs, int n)
{
    uint64_t br = 0;
    for (int j = 0; j < n; j++) {
        uint64_t t = (uint64_t)BG_AT(r, rs, j) - BG_AT(b, bs, j) - br;
        BG_AT(r, rs, j) = (bg_word)t;
        br = (t >> 32) & 1;
    }
    return (bg_word)br;
}

/* ---- the approximate Euclidean GCD (seed 001 chapter 4), 32-bit words ---------------------- */

/* a >>= (all trailing zero bits); a is nonzero, n words; returns the new length. */
BULK_HD int bg_strip_twos(bg_word *a, size_t s, int n)
{
    int wz = 0;
    while (BG_AT(a, s, wz) == 0) wz++;
    int bz = 0;
    bg_word w = BG_AT(a, s, wz);
    while (((w >> bz) & 1) == 0) bz++;
    for (int j = 0; j + wz < n; j++) {
        bg_word lo = BG_AT(a, s, j + wz) >> bz;
        bg_word hi = (j + wz + 1 < n && bz) ? BG_AT(a, s, j + wz + 1) << (32 - bz) : 0;
        BG_AT(a, s, j) = lo | hi;
    }
    for (int j = n - wz; j < n; j++) BG_AT(a, s, j) = 0;
    return bg_len(a, s, n);
}

/* The trailing zero bits of a nonzero number. */
BULK_HD int bg_tz(const bg_word *a, size_t s)
{
    int k = 0;
    while (BG_AT(a, s, k) == 0) k++;
    int b = 0;
    bg_word w = BG_AT(a, s, k);
    while (((w >> b) & 1) == 0) b++;
    return 32 * k + b;
}

/* approx(X, Y) of seed 001 with d = 32 (X >= Y > 0 of lx >= ly significant words): a pair
 * (alpha, beta) with alpha D^beta <= X div Y, 1 <= alpha < 2^32 where beta > 0. One 64-bit
 * division. */
BULK_HD void bg_approx(const bg_word *X, const bg_word *Y, size_t s, int lx, int ly,
                       uint64_t *alpha, int *beta)
{
    uint64_t x12 = lx >= 2 ? ((uint64_t)BG_AT(X, s, lx - 1) << 32) | BG_AT(X, s, lx - 2)
                           : BG_AT(X, s, lx - 1);
    uint64_t y12 = ly >= 2 ? ((uint64_t)BG_AT(Y, s, ly - 1) << 32) | BG_AT(Y, s, ly - 2)
                           : BG_AT(Y, s, ly - 1);
    uint64_t x1 = BG_AT(X, s, lx - 1), y1 = BG_AT(Y, s, ly - 1);
    if (lx <= 2) { /* case 1: X div Y exactly (it may exceed 2^32: then beta = 0 still) */
        *alpha = x12 / y12;
        *beta = 0;
    } else if (ly == 1) {
        if (x1 >= y1) { *alpha = x1 / y1; *beta = lx - 1; }         /* 2-A */
        else { *alpha = x12 / y1; *beta = lx - 2; }                  /* 2-B */
    } else if (ly == 2) {
        if (x12 >= y12) { *alpha = x12 / y12; *beta = lx - 2; }      /* 3-A */
        else { *alpha = x12 / (y1 + 1); *beta = lx - 3; }            /* 3-B */
    } else if (x12 > y12) {
        *alpha = x12 / (y12 + 1); *beta = lx - ly;                   /* 4-A */
    } else if (lx > ly) {
        *alpha = x12 / (y1 + 1); *beta = lx - ly - 1;                /* 4-B */
    } else {
        *alpha = 1; *beta = 0;                                        /* 4-C */
    }
}

/* X = X - Y * alpha * D^beta + (beta > 0 ? Y : 0), for X, Y of nx words (the result is
 * non-negative by the choice of alpha). alpha < 2^64 only in case 1 (lx <= 2, beta = 0). */
BULK_HD void bg_submul_shift(bg_word *X, const bg_word *Y, size_t s, int nx, uint64_t alpha,
                             int beta, int addY)
{
    bg_word alo = (bg_word)alpha, ahi = (bg_word)(alpha >> 32);
    uint64_t mc = 0; /* carry of the product Y * alpha (shifted by beta words) */
    int64_t sc = 0;  /* signed carry of the running sum */
    bg_word yprev = 0;
    for (int j = 0; j < nx; j++) {
        int yi = j - beta;
        bg_word y = yi >= 0 ? BG_AT(Y, s, yi) : 0;
        /* product word: y * alo + yprev * ahi + mc, kept in 64 + 1 bits through two steps */
        uint64_t p = (uint64_t)y * alo + (mc & 0xffffffffu);
        uint64_t p2 = (uint64_t)yprev * ahi + (p >> 32) + (mc >> 32);
        bg_word pw = (bg_word)p;
        mc = p2; /* < 2^64: (2^32-1)^2 + 2 (2^32 - 1) */
        yprev = y;
        int64_t t = (int64_t)BG_AT(X, s, j) - (int64_t)pw + sc;
        if (addY) t += BG_AT(Y, s, j);
        BG_AT(X, s, j) = (bg_word)t;
        sc = t >> 32; /* arithmetic shift: -1, 0 or +1 */
    }
}

/* g = gcd(a, b) (n words each; gcd(0, 0) = 0). X and Y are scratch of n words each. The same
 * code runs per thread on the GPU over the column-major layout: every iteration touches words
 * 0 .. lx-1 in order, so the accesses are those of seed 001's semi-oblivious execution. */
BULK_HD void bg_gcd(bg_word *g, const bg_word *a, const bg_word *b, bg_word *X, bg_word *Y,
                    size_t s, int n)
{
    int la = bg_len(a, s, n), lb = bg_len(b, s, n);
    if (la == 0 || lb == 0) {
        bg_copy(g, s, la == 0 ? b : a, s, n);
        return;
    }
    int ta = bg_tz(a, s), tb = bg_tz(b, s);
    int k = ta < tb ? ta : tb; /* the common power of two */
    bg_copy(X, s, a, s, n);
    bg_copy(Y, s, b, s, n);
    int lx = bg_strip_twos(X, s, n), ly = bg_strip_twos(Y, s, n);
    if (lx < ly || (lx == ly && bg_cmp(X, s, Y, s, lx) < 0)) {
        bg_word *tp = X; X = Y; Y = tp;
        int tl = lx; lx = ly; ly = tl;
    }
    /* X >= Y, both odd */
    while (ly > 0) {
        uint64_t alpha;
        int beta;
        bg_approx(X, Y, s, lx, ly, &alpha, &beta);
        if (beta == 0) {
            if ((alpha & 1) == 0) alpha--; /* X - Y alpha even */
            bg_submul_shift(X, Y, s, lx, alpha, 0, 0);
        } else {
            bg_submul_shift(X, Y, s, lx, alpha, beta, 1);
        }
        lx = bg_len(X, s, lx);
        if (lx > 0) lx = bg_strip_twos(X, s, lx);
        if (lx < ly || (lx == ly && bg_cmp(X, s, Y, s, lx) < 0)) {
            bg_word *tp = X; X = Y; Y = tp;
            int tl = lx; lx = ly; ly = tl;
        }
    }
    /* g = X << k */
    int wk = k >> 5, bk = k & 31;
    for (int j = n - 1; j >= 0; j--) {
        int src = j - wk;
        bg_word lo = src >= 0 && src < lx ? BG_AT(X, s, src) : 0;
        bg_word lo2 = src - 1 >= 0 && src - 1 < lx ? BG_AT(X, s, src - 1) : 0;
        BG_AT(g, s, j) = bk ? (lo << bk) | (lo2 >> (32 - bk)) : lo;
    }
}

/* ---- schoolbook division (Knuth D, 32-bit words) -------------------------------------------- */

/* q (na words) = floor(u / v), r (nv words) = u mod v, for u of na words and v of nv words.
 * Returns 1 (and q = r = 0) when v = 0. un is scratch of na + 1 words, vn of nv words. The
 * quotient digit estimate is Knuth's (one 64/32 division and at most two corrections). */
BULK_HD int bg_divmod(bg_word *q, bg_word *r, const bg_word *u, int na, const bg_word *v, int nv,
                      bg_word *un, bg_word *vn, size_t s)
{
    int n = bg_len(v, s, nv), m = bg_len(u, s, na);
    if (q) bg_zero(q, s, na);
    if (n == 0) {
        if (r) bg_zero(r, s, nv);
        return 1;
    }
    if (m < n) {
        if (r) {
            bg_copy(r, s, u, s, m);
            bg_zero(r + (size_t)m * s, s, nv - m);
        }
        return 0;
    }
    if (n == 1) {
        uint64_t d = BG_AT(v, s, 0), k = 0;
        for (int j = m - 1; j >= 0; j--) {
            uint64_t t = (k << 32) | BG_AT(u, s, j);
            if (q) BG_AT(q, s, j) = (bg_word)(t / d);
            k = t % d;
        }
        if (r) {
            bg_zero(r, s, nv);
            BG_AT(r, s, 0) = (bg_word)k;
        }
        return 0;
    }
    int sh = 0;
    while (((BG_AT(v, s, n - 1) << sh) & 0x80000000u) == 0) sh++;
    for (int i = n - 1; i > 0; i--)
        BG_AT(vn, s, i) = (BG_AT(v, s, i) << sh) | (sh ? BG_AT(v, s, i - 1) >> (32 - sh) : 0);
    BG_AT(vn, s, 0) = BG_AT(v, s, 0) << sh;
    BG_AT(un, s, m) = sh ? BG_AT(u, s, m - 1) >> (32 - sh) : 0;
    for (int i = m - 1; i > 0; i--)
        BG_AT(un, s, i) = (BG_AT(u, s, i) << sh) | (sh ? BG_AT(u, s, i - 1) >> (32 - sh) : 0);
    BG_AT(un, s, 0) = BG_AT(u, s, 0) << sh;
    uint64_t vtop = BG_AT(vn, s, n - 1), vnext = BG_AT(vn, s, n - 2);
    for (int j = m - n; j >= 0; j--) {
        uint64_t num = ((uint64_t)BG_AT(un, s, j + n) << 32) | BG_AT(un, s, j + n - 1);
        uint64_t qhat = num / vtop, rhat = num - qhat * vtop;
        while (qhat >> 32 || qhat * vnext > ((rhat << 32) | BG_AT(un, s, j + n - 2))) {
            qhat--;
            rhat += vtop;
            if (rhat >> 32) break;
        }
        int64_t k = 0, t;
        for (int i = 0; i < n; i++) {
            uint64_t p = qhat * BG_AT(vn, s, i);
            t = (int64_t)BG_AT(un, s, i + j) - k - (int64_t)(p & 0xffffffffu);
            BG_AT(un, s, i + j) = (bg_word)t;
            k = (int64_t)(p >> 32) - (t >> 32);
        }
        t = (int64_t)BG_AT(un, s, j + n) - k;
        BG_AT(un, s, j + n) = (bg_word)t;
        if (t < 0) { /* qhat was one too large (rare): add v back */
            qhat--;
            uint64_t c = 0;
            for (int i = 0; i < n; i++) {
                uint64_t x = (uint64_t)BG_AT(un, s, i + j) + BG_AT(vn, s, i) + c;
                BG_AT(un, s, i + j) = (bg_word)x;
                c = x >> 32;
            }
            BG_AT(un, s, j + n) += (bg_word)c;
        }
        if (q) BG_AT(q, s, j) = (bg_word)qhat;
    }
    if (r) {
        for (int i = 0; i < n; i++)
            BG_AT(r, s, i) = (BG_AT(un, s, i) >> sh) | (sh ? BG_AT(un, s, i + 1) << (32 - sh) : 0);
        bg_zero(r + (size_t)n * s, s, nv - n);
    }
    return 0;
}

/* ---- schoolbook division with the numbers in registers (divisors up to 1024 bits) ----------- */

#define BG_DIV_MAXW 32

BULK_HD int bg_clz32(bg_word x)
{
#if BG_DEVICE
    return __clz((int)x);
#else
    return x ? __builtin_clz(x) : 32;
#endif
}

/* The high word of (hi B + lo) << sh, 0 <= sh < 32 (one funnel shift on the device). */
BULK_HD bg_word bg_shl2(bg_word hi, bg_word lo, int sh)
{
#if BG_DEVICE
    return __funnelshift_l(lo, hi, (unsigned)sh);
#else
    return sh ? (hi << sh) | (lo >> (32 - sh)) : hi;
#endif
}

/* The low word of (hi B + lo) >> sh, 0 <= sh < 32 (one funnel shift on the device). */
BULK_HD bg_word bg_shr2(bg_word hi, bg_word lo, int sh)
{
#if BG_DEVICE
    return __funnelshift_r(lo, hi, (unsigned)sh);
#else
    return sh ? (lo >> sh) | (hi << (32 - sh)) : lo;
#endif
}

/* The quotient's zero words above NW and the remainder un >> (32 dw + sh) into r (wa = NW - dw
 * words). */
BULK_HD void bg_divregs_store(bg_word *q, bg_word *r, const bg_word *un, int nu, size_t s, int NW,
                              int dw, int sh)
{
    if (q)
        for (int j = NW + 1; j < nu; j++) BG_AT(q, s, j) = 0;
    if (r) {
        BG_UNROLL
        for (int k = 0; k < NW; k++) {
            int dst = k - dw;
            bg_word val = bg_shr2(un[k + 1], un[k], sh);
            if (dst >= 0) BG_AT(r, s, dst) = val;
        }
    }
}

/* Moller and Granlund's reciprocal of a normalised word d (top bit set):
 * floor((B^2 - 1) / d) - B, B = 2^32. One 64-bit division per divisor, not per quotient word. */
BULK_HD bg_word bg_recip32(bg_word d)
{
    return (bg_word)(UINT64_MAX / d - ((uint64_t)1 << 32));
}

/* ---- schoolbook division by even/odd rows --------------------------------------------------- */

/* Moller and Granlund's reciprocal of a normalised two-word divisor d1 B + d0 (d1's top bit
 * set): floor((B^3 - 1) / (d1 B + d0)) - B, B = 2^32 (GMP's invert_pi1, 32-bit words): the
 * one-word reciprocal of d1 corrected for d0 - no division beyond bg_recip32's. */
BULK_HD bg_word bg_recip3by2(bg_word d1, bg_word d0)
{
    bg_word v = bg_recip32(d1), p = d1 * v + d0;
    if (p < d0) {
        v--;
        const bg_word mask = (bg_word)0 - (bg_word)(p >= d1);
        p -= d1;
        v += mask;
        p -= mask & d1;
    }
    const uint64_t t = (uint64_t)d0 * v;
    const bg_word t1 = (bg_word)(t >> 32), t0 = (bg_word)t;
    p += t1;
    if (p < t1) {
        v--;
        if (p >= d1 && (p > d1 || t0 >= d0)) v--;
    }
    return v;
}

/* floor((n2 B^2 + n1 B + n0) / (d1 B + d0)) for (n2, n1) < (d1, d0), d1's top bit set, dinv =
 * bg_recip3by2(d1, d0): Moller-Granlund's 3-by-2 division (GMP's udiv_qr_3by2), the quotient
 * only. Two 32x32 -> 64 products, one plain product and 64-bit adds; the exact 3-by-2 quotient,
 * so in Knuth's loop it is the estimate after both qhat corrections, with no loop. */
BULK_HD bg_word bg_div3by2(bg_word n2, bg_word n1, bg_word n0, bg_word d1, bg_word d0,
                           bg_word dinv)
{
    const uint64_t qq = (uint64_t)n2 * dinv + (((uint64_t)n2 << 32) | n1);
    const uint64_t d = ((uint64_t)d1 << 32) | d0;
    bg_word q = (bg_word)(qq >> 32);
    const bg_word q0 = (bg_word)qq, r1 = n1 - d1 * q;
    uint64_t r = ((((uint64_t)r1 << 32) | n0) - d) - (uint64_t)d0 * q; /* mod 2^64 */
    q++;
    const bg_word mask = (bg_word)0 - (bg_word)((bg_word)(r >> 32) >= q0);
    q += mask;
    r += d & (((uint64_t)mask << 32) | mask);
    if (r >= d) q++; /* unlikely */
    return q;
}

/* The remainder of bg_divmod_regs_eor lives in 64-bit pairs of words (word k in x2[k / 2], the
 * low half when k is even): the fused multiply-add IMAD.WIDE.U32.X reads and writes a 64-bit
 * register pair, and with 32-bit words ptxas (nvcc 13, sm_90) placed the words written by the
 * other chain's 32-bit adds in unaligned registers and spent two moves per fused product
 * building pairs for the next row. As halves of one 64-bit value the two words of a pair stay
 * in one aligned register pair (device: mov.b64 packs and unpacks, which cost nothing). */
BULK_HD uint64_t bg_pack(bg_word lo, bg_word hi)
{
#if BG_DEVICE
    uint64_t d;
    asm("mov.b64 %0, {%1, %2};" : "=l"(d) : "r"(lo), "r"(hi));
    return d;
#else
    return ((uint64_t)hi << 32) | lo;
#endif
}

BULK_HD bg_word bg_pget(const uint64_t *x2, int k)
{
#if BG_DEVICE
    bg_word lo, hi;
    asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(x2[k >> 1]));
    return (k & 1) ? hi : lo;
#else
    return (bg_word)(x2[k >> 1] >> (32 * (k & 1)));
#endif
}

BULK_HD void bg_pset(uint64_t *x2, int k, bg_word w)
{
    const bg_word lo = bg_pget(x2, k & ~1), hi = bg_pget(x2, k | 1);
    x2[k >> 1] = (k & 1) ? bg_pack(lo, w) : bg_pack(w, hi);
}

/* x[j .. j + NW] += qw vn modulo B^(NW + 1) (the carry out of word j + NW dropped), x in pairs:
 * - the products qw vn_i with j + i even start on the low word of a pair: one fused chain
 *   (madc.lo.cc and madc.hi.cc on the pair's halves: one IMAD.WIDE.U32.X each);
 * - the others (j + i odd) straddle two pairs: independent 32x32 -> 64 products (mul.wide)
 *   added by one add chain.
 * NW even (4 .. 32). About 2 instructions a word. */
BULK_HD void bg_divregs_row_eo(uint64_t *x2, const bg_word *vn, bg_word qw, int j, int NW)
{
    const int p = j & 1;
    {
        bg_cc f = {0};
        BG_UNROLL
        for (int i = p; i < NW; i += 2) {
            const int k = j + i; /* even */
            bg_word lo = bg_pget(x2, k), hi = bg_pget(x2, k + 1);
            lo = i == p ? bg_mad_lo_cc(qw, vn[i], lo, &f) : bg_madc_lo_cc(qw, vn[i], lo, &f);
            hi = k + 1 == j + NW ? bg_madc_hi(qw, vn[i], hi, &f) : bg_madc_hi_cc(qw, vn[i], hi, &f);
            x2[k >> 1] = bg_pack(lo, hi);
        }
        if (p == 0) bg_pset(x2, j + NW, bg_addc(bg_pget(x2, j + NW), 0, &f));
    }
    {
        bg_cc f = {0};
        const int par = 1 - p;
        BG_UNROLL
        for (int i = par; i < NW; i += 2) {
            const uint64_t t = bg_mad_wide(qw, vn[i], 0);
            const int k = j + i; /* odd */
            const bg_word w0 = i == par ? bg_add_cc(bg_pget(x2, k), (bg_word)t, &f)
                                        : bg_addc_cc(bg_pget(x2, k), (bg_word)t, &f);
            const bg_word w1 = k + 1 == j + NW ? bg_addc(bg_pget(x2, k + 1), (bg_word)(t >> 32), &f)
                                               : bg_addc_cc(bg_pget(x2, k + 1), (bg_word)(t >> 32), &f);
            bg_pset(x2, k, w0);
            bg_pset(x2, k + 1, w1);
        }
        if (par == 0) bg_pset(x2, j + NW, bg_addc(bg_pget(x2, j + NW), 0, &f));
    }
}

/* x[j .. j + NW] -= vn modulo B^(NW + 1), x in pairs (the complement form's add-back): one
 * subtract chain (one IADD3.X a word; the 64-bit C version took three). */
BULK_HD void bg_divregs_subback(uint64_t *x2, const bg_word *vn, int j, int NW)
{
    bg_cc f = {0};
    BG_UNROLL
    for (int i = 0; i < NW; i++) {
        const bg_word w = i == 0 ? bg_sub_cc(bg_pget(x2, j), vn[0], &f)
                                 : bg_subc_cc(bg_pget(x2, i + j), vn[i], &f);
        bg_pset(x2, i + j, w);
    }
    bg_pset(x2, j + NW, bg_subc(bg_pget(x2, j + NW), 0, &f));
}

/* Word k of u shifted left by 32 dw + sh bits (u normalised as bg_divmod_regs_eor does). */
BULK_HD bg_word bg_divregs_uword(const bg_word *u, int nu, size_t s, int k, int dw, int sh)
{
    const int src = k - dw;
    const bg_word hi = (src >= 0 && src < nu) ? BG_AT(u, s, src) : 0;
    const bg_word lo = (src >= 1 && src - 1 < nu) ? BG_AT(u, s, src - 1) : 0;
    return bg_shl2(hi, lo, sh);
}

/* One quotient step of bg_divmod_regs_eor on the window y[b .. b + NW] (b = 0 or 1, a
 * compile-time constant), quotient word j: qhat, the row, the rare add-back, q[j]. */
BULK_HD void bg_divregs_step_eo(uint64_t *y2, const bg_word *vn, bg_word d1, bg_word d0,
                                bg_word dinv, int b, int NW, bg_word *q, size_t s, int nu, int j)
{
    /* Knuth's invariant: the window's top two words are at most (d1, d0) */
    const bg_word n2 = ~bg_pget(y2, b + NW), n1 = ~bg_pget(y2, b + NW - 1);
    const bg_word n0 = ~bg_pget(y2, b + NW - 2);
    bg_word qw = bg_div3by2(n2, n1, n0, d1, d0, dinv);
    if (n2 == d1 && n1 == d0) qw = 0xffffffffu;
    bg_divregs_row_eo(y2, vn, qw, b, NW);
    if (bg_pget(y2, b + NW) != 0xffffffffu) { /* rare: qhat was one too large */
        qw--;
        bg_divregs_subback(y2, vn, b, NW);
    }
    if (q && j < nu) BG_AT(q, s, j) = qw;
}

/* q (nu words) = floor(u / v), r (wa words) = u mod v, for u of nu <= 2 wa words and v of wa
 * words whose top word v[wa - 1] is nonzero; returns -1 (nothing written) when it is zero, for
 * the caller to take the general path (bg_divmod). NW >= wa, NW >= 4, is the register capacity:
 * v is shifted left by 32 (NW - wa) + clz(v[wa-1]) bits to fill exactly NW words with its top
 * bit set, u by the same (then it fits 2 NW + 1 words), and Knuth's loop runs over compile-time
 * word positions (NW + 1 quotient words of NW steps each), so under nvcc with a constant NW
 * both numbers stay in registers. The shifts are applied while loading and storing, where a
 * run-time offset indexes memory, not registers. q may alias u and r may alias v (the staged
 * kernel): q[j] is written after step j and no later load reads a word at or above j.
 * The multiply-subtract u -= qhat v is one fused multiply-add per two word products:
 * - the remainder is kept complemented, x = ~u (so u - qhat v = ~(x + qhat v) within the window
 *   j .. j + NW, modulo B^(NW + 1)): the row becomes an ADDITION of qhat v, which madc.lo.cc /
 *   madc.hi.cc pairs do with one IMAD.WIDE.U32.X per word product, as in the even/odd rows of
 *   the multiplication (bg_eo_chain), for the half of the products that start on an even word;
 *   the other half are added by one add chain (bg_divregs_row_eo): about 2 instructions a
 *   word, against about 6 for carry-flag rows (IMAD, IMAD.HI and three or four IADD3);
 * - qhat is the exact 3-by-2 quotient of the window's top three words by vn's top two
 *   (bg_div3by2, one reciprocal per instance: no correction loop), B - 1 when the top two
 *   words equal vn's; it is then the true quotient word or one more, which the window's top
 *   word after the row shows (x's top word not all ones: negative) and one subtraction of v
 *   from x (an add-back to u) repairs - rare on random data.
 * The quotient loop is ROLLED, U steps an iteration (the kernel: U = 8): the window stays at
 * fixed registers: y holds words j0 .. j0 + NW + U - 1 of the complemented remainder (j0
 * even), an iteration runs the steps j0 + U - 1 .. j0 (window y[j - j0 ..]) and then shifts y
 * up by U words (U / 2 pairs; NW / 2 64-bit moves), the U words of u below entering at the
 * bottom (loaded one iteration ahead). Why: fully unrolled, the kernel is ~190 KB of SASS (33
 * steps of ~215 instructions, the add-back inline), and ncu found 37 % of its stall cycles
 * waiting for instruction fetch; this loop body is U steps (~2.4 KB each). The cost: the
 * moves, ~NW / U per step. U even, U <= NW (NW >= 4: U is lowered to NW). Measurements:
 * docs/perf/int-gpu.md "Division". */
BULK_HD int bg_divmod_regs_eor(bg_word *q, bg_word *r, const bg_word *u, int nu, const bg_word *v,
                               int wa, size_t s, int NW, int U)
{
    bg_word vtop = BG_AT(v, s, wa - 1);
    if (vtop == 0) return -1;
    if (U > NW) U = NW;
    const int dw = NW - wa, sh = bg_clz32(vtop), P = U / 2; /* P pairs a shift */
    bg_word vn[BG_DIV_MAXW], un[BG_DIV_MAXW + 1];
    uint64_t y2[BG_DIV_MAXW / 2 + 4], nx[4];
    BG_UNROLL
    for (int k = 0; k < NW; k++) { /* v normalised */
        const int src = k - dw;
        vn[k] = bg_shl2(src >= 0 ? BG_AT(v, s, src) : 0, src >= 1 ? BG_AT(v, s, src - 1) : 0, sh);
    }
    const bg_word d1 = vn[NW - 1], d0 = vn[NW - 2], dinv = bg_recip3by2(d1, d0);
    /* y = words NW - U + 2 .. 2 NW + 1 (word 2 NW + 1 is above u: complement of 0); the first
     * step (j = NW) at local base U - 2 */
    const int jb = NW - U + 2;
    BG_UNROLL
    for (int m = 0; m < NW / 2 + P; m++)
        y2[m] = bg_pack(~bg_divregs_uword(u, nu, s, jb + 2 * m, dw, sh),
                        jb + 2 * m + 1 <= 2 * NW ? ~bg_divregs_uword(u, nu, s, jb + 2 * m + 1, dw, sh)
                                                 : 0xffffffffu);
    bg_divregs_step_eo(y2, vn, d1, d0, dinv, U - 2, NW, q, s, nu, NW);
    /* one pair down: y = words NW - U .. 2 NW - 1 (the dropped pair is above the remainder) */
    BG_UNROLL
    for (int m = NW / 2 + P - 1; m > 0; m--) y2[m] = y2[m - 1];
    y2[0] = bg_pack(~bg_divregs_uword(u, nu, s, NW - U, dw, sh),
                    ~bg_divregs_uword(u, nu, s, NW - U + 1, dw, sh));
    BG_UNROLL
    for (int m = 0; m < P; m++) /* the words below, for the first shift */
        nx[m] = NW - 2 * U >= 0 ? bg_pack(~bg_divregs_uword(u, nu, s, NW - 2 * U + 2 * m, dw, sh),
                                           ~bg_divregs_uword(u, nu, s, NW - 2 * U + 2 * m + 1, dw, sh))
                                 : 0;
    BG_NOUNROLL
    for (int j0 = NW - U;; j0 -= U) {
        BG_UNROLL
        for (int b = U - 1; b >= 0; b--) bg_divregs_step_eo(y2, vn, d1, d0, dinv, b, NW, q, s, nu, j0 + b);
        if (j0 == 0) break;
        BG_UNROLL
        for (int m = NW / 2 + P - 1; m >= P; m--) y2[m] = y2[m - P];
        BG_UNROLL
        for (int m = 0; m < P; m++) y2[m] = nx[m];
        if (j0 >= 2 * U) /* the U words below j0 - U, for the next shift (u words < j0 - U) */
            BG_UNROLL
            for (int m = 0; m < P; m++)
                nx[m] = bg_pack(~bg_divregs_uword(u, nu, s, j0 - 2 * U + 2 * m, dw, sh),
                                ~bg_divregs_uword(u, nu, s, j0 - 2 * U + 2 * m + 1, dw, sh));
    }
    BG_UNROLL
    for (int k = 0; k <= NW; k++) un[k] = ~bg_pget(y2, k);
    bg_divregs_store(q, r, un, nu, s, NW, dw, sh);
    return 0;
}

/* ---- Montgomery arithmetic (powmod) --------------------------------------------------------- */

/* -m0^-1 mod 2^32 for odd m0 (Newton: each step doubles the correct low bits). */
BULK_HD bg_word bg_mont_minv(bg_word m0)
{
    bg_word x = (3 * m0) ^ 2; /* 5 bits */
    x *= 2 - m0 * x;
    x *= 2 - m0 * x;
    x *= 2 - m0 * x;
    return (bg_word)0 - x;
}

/* r = a * b * 2^(-32 n) mod m (CIOS), for odd m, a < 2^(32 n), b < m; then r < m.
 * t is scratch of n + 2 words; r may alias a or b (it is written only at the end). */
BULK_HD void bg_mont_mul(bg_word *r, const bg_word *a, const bg_word *b, const bg_word *m,
                         bg_word *t, size_t s, int n, bg_word minv)
{
    for (int j = 0; j < n + 2; j++) BG_AT(t, s, j) = 0;
    for (int i = 0; i < n; i++) {
        uint64_t bi = BG_AT(b, s, i), c = 0;
        for (int j = 0; j < n; j++) {
            uint64_t x = BG_AT(a, s, j) * bi + BG_AT(t, s, j) + c;
            BG_AT(t, s, j) = (bg_word)x;
            c = x >> 32;
        }
        uint64_t x = (uint64_t)BG_AT(t, s, n) + c;
        BG_AT(t, s, n) = (bg_word)x;
        BG_AT(t, s, n + 1) = (bg_word)(x >> 32);
        uint64_t mq = (bg_word)(BG_AT(t, s, 0) * minv);
        x = mq * BG_AT(m, s, 0) + BG_AT(t, s, 0);
        c = x >> 32;
        for (int j = 1; j < n; j++) {
            x = mq * BG_AT(m, s, j) + BG_AT(t, s, j) + c;
            BG_AT(t, s, j - 1) = (bg_word)x;
            c = x >> 32;
        }
        x = (uint64_t)BG_AT(t, s, n) + c;
        BG_AT(t, s, n - 1) = (bg_word)x;
        BG_AT(t, s, n) = BG_AT(t, s, n + 1) + (bg_word)(x >> 32);
    }
    /* t < 2m: subtract m once if t >= m */
    int ge = BG_AT(t, s, n) != 0 || bg_cmp(t, s, m, s, n) >= 0;
    if (ge) bg_sub_inplace(t, s, m, s, n);
    bg_copy(r, s, t, s, n);
}

/* Words of scratch bg_powmod needs (all with the common stride s). */
#define BG_POWMOD_WINDOW 4
#define BG_POWMOD_TABLE (1 << (BG_POWMOD_WINDOW - 1))
BULK_HD size_t bg_powmod_scratch_words(int n) { return (size_t)(BG_POWMOD_TABLE + 4) * n + 2; }
/* (the table's 8n words also hold the 5n + 3 words of the R^2 division, done before it) */

BULK_HD int bg_bit(const bg_word *e, size_t s, int i) { return (BG_AT(e, s, i >> 5) >> (i & 31)) & 1; }

/* The set-up of a powmod: checks m (returns 1 for even or zero m, 2 for m = 1, with r = 0),
 * else returns 0 after filling, in scratch: tab[k] = base^(2k+1) R mod m (k < BG_POWMOD_TABLE),
 * acc = R mod m (Montgomery 1), one = 1, and *minv. R = 2^(32 n); base may exceed m. */
BULK_HD int bg_powmod_setup(bg_word *r, const bg_word *base, const bg_word *m, bg_word *scratch,
                            size_t s, int n, bg_word *minv)
{
    if ((BG_AT(m, s, 0) & 1) == 0) {
        bg_zero(r, s, n);
        return 1;
    }
    if (bg_len(m, s, n) == 1 && BG_AT(m, s, 0) == 1) {
        bg_zero(r, s, n);
        return 2;
    }
    bg_word *tab = scratch;                                   /* BG_POWMOD_TABLE numbers */
    bg_word *acc = scratch + (size_t)BG_POWMOD_TABLE * n * s; /* the running power */
    bg_word *x = acc + (size_t)n * s;                         /* R^2 mod m, then b^2 R */
    bg_word *one = x + (size_t)n * s;
    bg_word *t = one + (size_t)n * s; /* n + 2 words */
    *minv = bg_mont_minv(BG_AT(m, s, 0));

    /* x = R^2 mod m = 2^(64 n) mod m: one schoolbook division of 2n+1 words by m, its
     * operands in the (not yet used) table space: u 2n+1, un 2n+2, vn n <= 8n words */
    {
        bg_word *u = tab, *un = u + (size_t)(2 * n + 1) * s, *vn = un + (size_t)(2 * n + 2) * s;
        bg_zero(u, s, 2 * n);
        BG_AT(u, s, 2 * n) = 1;
        bg_divmod(NULL, x, u, 2 * n + 1, m, n, un, vn, s);
    }
    bg_zero(one, s, n);
    BG_AT(one, s, 0) = 1;
    bg_mont_mul(tab, base, x, m, t, s, n, *minv); /* base R mod m */
    bg_mont_mul(acc, x, one, m, t, s, n, *minv);  /* R mod m */
    bg_mont_mul(x, tab, tab, m, t, s, n, *minv);  /* base^2 R */
    for (int k = 1; k < BG_POWMOD_TABLE; k++)
        bg_mont_mul(tab + (size_t)k * n * s, tab + (size_t)(k - 1) * n * s, x, m, t, s, n, *minv);
    return 0;
}

/* The sliding-window walk over the exponent, one Montgomery product per call, so that a
 * kernel has a single product site (one inlined copy of a fully unrolled product). */
typedef struct bg_expwalk {
    int i;   /* next exponent bit to look at */
    int sq;  /* squarings pending before the multiplication */
    int mul; /* table index of the pending multiplication, -1 none */
} bg_expwalk;

BULK_HD void bg_expwalk_init(bg_expwalk *w, const bg_word *e, size_t s, int n)
{
    int i = bg_len(e, s, n) * 32 - 1;
    while (i >= 0 && !bg_bit(e, s, i)) i--;
    w->i = i;
    w->sq = 0;
    w->mul = -1;
}

/* 0: done; 1: square acc; 2: multiply acc by table entry *idx. */
BULK_HD int bg_expwalk_next(bg_expwalk *w, const bg_word *e, size_t s, int *idx)
{
    if (w->sq == 0 && w->mul < 0) {
        int i = w->i;
        if (i < 0) return 0;
        if (!bg_bit(e, s, i)) {
            w->sq = 1;
            w->i = i - 1;
        } else {
            int l = i - BG_POWMOD_WINDOW + 1;
            if (l < 0) l = 0;
            while (!bg_bit(e, s, l)) l++; /* the window ends on a one bit */
            int v = 0;
            for (int k = i; k >= l; k--) v = (v << 1) | bg_bit(e, s, k);
            w->sq = i - l + 1;
            w->mul = v >> 1;
            w->i = l - 1;
        }
    }
    if (w->sq > 0) {
        w->sq--;
        return 1;
    }
    *idx = w->mul;
    w->mul = -1;
    return 2;
}

/* r = base^e mod m (n words each), sliding window of BG_POWMOD_WINDOW bits over Montgomery
 * products. Returns 0, or 1 when m is even or zero (r = 0 then). base may exceed m. r must not
 * overlap the inputs; scratch holds bg_powmod_scratch_words(n) words at stride s. */
BULK_HD int bg_powmod(bg_word *r, const bg_word *base, const bg_word *e, const bg_word *m,
                      bg_word *scratch, size_t s, int n)
{
    bg_word minv;
    int st = bg_powmod_setup(r, base, m, scratch, s, n, &minv);
    if (st) return st == 1;
    bg_word *tab = scratch, *acc = scratch + (size_t)BG_POWMOD_TABLE * n * s;
    bg_word *one = acc + (size_t)2 * n * s, *t = one + (size_t)n * s;
    bg_expwalk w;
    bg_expwalk_init(&w, e, s, n);
    int op, idx = 0;
    while ((op = bg_expwalk_next(&w, e, s, &idx)) != 0)
        bg_mont_mul(acc, acc, op == 1 ? acc : tab + (size_t)idx * n * s, m, t, s, n, minv);
    bg_mont_mul(r, acc, one, m, t, s, n, minv); /* out of Montgomery form */
    return 0;
}

/* ---- Montgomery products in registers (powmod up to 1024 bits) ------------------------------- */

#define BG_REG_MAXW 32

/* r = a b R^-1 mod m (R = 2^(32 nw), odd m, a < R, b < m; r < m; r may be a or b), CIOS with
 * a, b, r and the accumulator in registers under nvcc (nw a compile-time constant <=
 * BG_REG_MAXW); m is read from memory at stride ms (cached: the same words every row), which
 * keeps the register count near 3 nw. Per word of b four carry chains - lo and hi halves of
 * a b_i, then of q m - so 4 nw^2 + O(nw) instructions. */
BULK_HD void bg_mont_mul_regs(bg_word *r, const bg_word *a, const bg_word *b, const bg_word *m,
                              size_t ms, bg_word minv, int nw)
{
    bg_word t[BG_REG_MAXW + 2];
    bg_cc f = {0};
    BG_UNROLL
    for (int j = 0; j < nw + 2; j++) t[j] = 0;
    BG_UNROLL
    for (int i = 0; i < nw; i++) {
        bg_word bi = b[i];
        /* t += a b_i (t < 2m before: t[nw + 1] = 0 here) */
        t[0] = bg_mad_lo_cc(a[0], bi, t[0], &f);
        BG_UNROLL
        for (int j = 1; j < nw; j++) t[j] = bg_madc_lo_cc(a[j], bi, t[j], &f);
        t[nw] = bg_addc_cc(t[nw], 0, &f);
        t[nw + 1] = bg_addc(t[nw + 1], 0, &f);
        t[1] = bg_mad_hi_cc(a[0], bi, t[1], &f);
        BG_UNROLL
        for (int j = 1; j < nw; j++) t[j + 1] = bg_madc_hi_cc(a[j], bi, t[j + 1], &f);
        t[nw + 1] = bg_addc(t[nw + 1], 0, &f);
        /* t += q m with q = -t / m mod 2^32: the low word becomes 0 */
        bg_word q = t[0] * minv;
        t[0] = bg_mad_lo_cc(BG_AT(m, ms, 0), q, t[0], &f);
        BG_UNROLL
        for (int j = 1; j < nw; j++) t[j] = bg_madc_lo_cc(BG_AT(m, ms, j), q, t[j], &f);
        t[nw] = bg_addc_cc(t[nw], 0, &f);
        t[nw + 1] = bg_addc(t[nw + 1], 0, &f);
        t[1] = bg_mad_hi_cc(BG_AT(m, ms, 0), q, t[1], &f);
        BG_UNROLL
        for (int j = 1; j < nw; j++) t[j + 1] = bg_madc_hi_cc(BG_AT(m, ms, j), q, t[j + 1], &f);
        t[nw + 1] = bg_addc(t[nw + 1], 0, &f);
        /* divide by 2^32 (a renaming once unrolled) */
        BG_UNROLL
        for (int j = 0; j <= nw; j++) t[j] = t[j + 1];
        t[nw + 1] = 0;
    }
    /* t < 2m: subtract m when t >= m (first the comparison's borrow, then the subtraction) */
    uint64_t br = 0;
    BG_UNROLL
    for (int j = 0; j < nw; j++) br = (((uint64_t)t[j] - BG_AT(m, ms, j) - br) >> 32) & 1;
    bg_word take = (t[nw] != 0 || br == 0) ? 0xffffffffu : 0;
    br = 0;
    BG_UNROLL
    for (int j = 0; j < nw; j++) {
        uint64_t x = (uint64_t)t[j] - (BG_AT(m, ms, j) & take) - br;
        r[j] = (bg_word)x;
        br = (x >> 32) & 1;
    }
}

/* The exponent loop of powmod with acc in registers: after bg_powmod_setup, acc (at stride
 * s) = acc * tab-products as the walk says; the operand of each multiplication is loaded from
 * the table. nw <= BG_REG_MAXW; one product site. */
BULK_HD void bg_powmod_regs_loop(bg_word *acc_s, const bg_word *tab, const bg_word *e,
                                 const bg_word *m_s, size_t s, int nw, bg_word minv)
{
    bg_word acc[BG_REG_MAXW], op[BG_REG_MAXW];
    BG_UNROLL
    for (int j = 0; j < nw; j++) acc[j] = BG_AT(acc_s, s, j);
    bg_expwalk w;
    bg_expwalk_init(&w, e, s, nw);
    int o, idx = 0;
    while ((o = bg_expwalk_next(&w, e, s, &idx)) != 0) {
        const bg_word *src = tab + (size_t)idx * nw * s;
        BG_UNROLL
        for (int j = 0; j < nw; j++) op[j] = o == 1 ? acc[j] : BG_AT(src, s, j);
        bg_mont_mul_regs(acc, acc, op, m_s, s, minv, nw);
    }
    BG_UNROLL
    for (int j = 0; j < nw; j++) BG_AT(acc_s, s, j) = acc[j];
}

/* powmod through the register loop (n <= BG_REG_MAXW); same contract as bg_powmod. */
BULK_HD int bg_powmod_regs(bg_word *r, const bg_word *base, const bg_word *e, const bg_word *m,
                           bg_word *scratch, size_t s, int n)
{
    bg_word minv;
    int st = bg_powmod_setup(r, base, m, scratch, s, n, &minv);
    if (st) return st == 1;
    bg_word *tab = scratch, *acc = scratch + (size_t)BG_POWMOD_TABLE * n * s;
    bg_word *one = acc + (size_t)2 * n * s, *t = one + (size_t)n * s;
    bg_powmod_regs_loop(acc, tab, e, m, s, n, minv);
    bg_mont_mul(r, acc, one, m, t, s, n, minv);
    return 0;
}

#endif
