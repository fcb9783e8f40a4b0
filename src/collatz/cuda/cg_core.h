/* Per-number logic of the CUDA Collatz kernels, as BULK_HD functions: the kernels call them on
 * the GPU and tests/collatz_gpu/test_collatz_gpu_twin.c calls the very same functions on the
 * CPU, where their results are compared with the CPU engine (collatz/verify.c, cz_delay).
 *
 * What must agree with the CPU engine bit for bit is the result: glides (a property of n, so
 * any exact method gives the same), which numbers were iterated (the sieve walk, mirrored by
 * cg_sieve_child <-> cz_sieve_child) and which overflowed 128 bits (a property of the CPU fast
 * path). The last one is kept identical by construction, whatever form the CPU fast path has:
 * the GPU *escapes* every number whose trajectory comes within a safety margin of 2^128
 * (cg_limit_bits), and the host finishes escaped numbers with the CPU engine's own functions
 * (cz_sieve_start, cz_glide_from, then the exact path exactly when those overflow). Below the
 * margin no value of the trajectory, inside a table operation or not, reaches 2^128, so the
 * CPU fast path cannot overflow on a number the GPU kept.
 *
 * Representation: values in four 32-bit limbs (cg_arith.h: PTX carry chains on the GPU), B and
 * C packed into one 64-bit word BC[L] = B | C << 32 (one load per step; needs d <= 20 so that
 * B = 3^j < 2^32), 3^j from a table passed in (shared memory on the GPU, bulk_cz_pow3 on the
 * host). A return value < 0 means "escape". */
#ifndef BULK_COLLATZ_CUDA_CG_CORE_H
#define BULK_COLLATZ_CUDA_CG_CORE_H

#include <stdint.h>

#include "collatz/cuda/cg_arith.h"
#include "common/hd.h"

/* Operation-count hook for bench/collatz_gpu/opcount.c (which defines it before including this
 * header); empty everywhere else. */
#ifndef CG_COUNT
#define CG_COUNT(event)
#endif

/* Largest d of the packed 32-bit tables (3^20 < 2^32 <= 3^21). */
#define CG_MAX_FAST_D 20

/* 3^j > ... : the sieve child of cz_sieve_child, with 3^j read from pow3 (41 entries). */
BULK_HD int cg_sieve_child(const uint64_t *pow3, int i, int *j, uint64_t *c, int bit)
{
    uint64_t c1 = *c + (bit ? pow3[*j] : 0);
    if (c1 & 1) {
        c1 = 3 * c1 + 1;
        (*j)++;
    }
    *c = c1 >> 1;
    return (i + 1 >= 64) ? 1 : pow3[*j] < ((uint64_t)1 << (i + 1));
}

/* v <- 3v + 1; 1 on overflow. */
BULK_HD int cg_odd(cg_u128 *v)
{
    /* 3v + 1 = step with d = 0 is not allowed by cg_step (d >= 1): B(2v) form instead would
     * lose the top bit, so use the general multiply on the unshifted value. */
#if defined(__CUDA_ARCH__)
    uint32_t t0 = __umulhi(v->x0, 3u), t1 = __umulhi(v->x1, 3u), t2 = __umulhi(v->x2, 3u),
             t3 = __umulhi(v->x3, 3u);
    uint32_t y0, y1, y2, y3, y4;
    asm("mad.lo.cc.u32  %0, %5, 3, 1;\n\t"
        "madc.lo.cc.u32 %1, %6, 3, %9;\n\t"
        "madc.lo.cc.u32 %2, %7, 3, %10;\n\t"
        "madc.lo.cc.u32 %3, %8, 3, %11;\n\t"
        "addc.u32       %4, %12, 0;"
        : "=&r"(y0), "=&r"(y1), "=&r"(y2), "=&r"(y3), "=r"(y4)
        : "r"(v->x0), "r"(v->x1), "r"(v->x2), "r"(v->x3), "r"(t0), "r"(t1), "r"(t2), "r"(t3));
    v->x0 = y0;
    v->x1 = y1;
    v->x2 = y2;
    v->x3 = y3;
    return y4 != 0;
#else
    u128 x = (u128)cg_hi64(*v) << 64 | cg_lo64(*v);
    if (x > (~(u128)0 - 1) / 3) return 1;
    x = 3 * x + 1;
    *v = cg_make((uint64_t)x, (uint64_t)(x >> 64));
    return 0;
#endif
}

/* v <- v / 2 */
BULK_HD void cg_half(cg_u128 *v)
{
#if defined(__CUDA_ARCH__)
    v->x0 = __funnelshift_r(v->x0, v->x1, 1);
    v->x1 = __funnelshift_r(v->x1, v->x2, 1);
    v->x2 = __funnelshift_r(v->x2, v->x3, 1);
    v->x3 >>= 1;
#else
    v->x0 = (v->x0 >> 1) | (v->x1 << 31);
    v->x1 = (v->x1 >> 1) | (v->x2 << 31);
    v->x2 = (v->x2 >> 1) | (v->x3 << 31);
    v->x3 >>= 1;
#endif
}

/* The safety margin: a trajectory value v < 2^(128 - cg_limit_bits(d)) at the start of a table
 * operation of d bits keeps every value inside it below 2^127. Inside values are b_t vH + c_t
 * with c_t < b_t = 2^(d-i) 3^j and j <= i + 1 (an odd rule is always followed by a halving), so
 * they are below (3 (3/2)^d + 2^-d) v < 2^(1.585 + 0.585 d + 0.01) v. */
BULK_HD unsigned cg_limit_bits(unsigned d) { return (1585u + 585u * d) / 1000u + 2u; }

/* v >= 2^(128 - lim) */
BULK_HD int cg_over(cg_u128 v, unsigned lim) { return (v.x3 >> (32 - lim)) != 0; }

/* The escape threshold of the verify loops: a number escapes to the host when its state at the
 * start of a table operation is >= vesc. Without pre-drop peaks vesc = cg_esc_of(lim), i.e.
 * cg_over; with them the smaller of that and the host's peak threshold vlim (collatz/peak.h:
 * below vlim no value of the next operation can beat the running maximum), so the numbers
 * whose peak could matter are finished on the host like those near 2^128. */
BULK_HD cg_u128 cg_esc_of(unsigned lim)
{
    cg_u128 r;
    r.x0 = r.x1 = r.x2 = 0;
    r.x3 = 1u << (32 - lim);
    return r;
}

/* a >= b, as 64-bit halves: with b = cg_esc_of(lim) known at compile time the compiler folds it
 * to cg_over's one compare */
BULK_HD int cg_ge(cg_u128 a, cg_u128 b)
{
    const uint64_t ah = cg_hi64(a), bh = cg_hi64(b);
    return ah > bh || (ah == bh && cg_lo64(a) >= cg_lo64(b));
}

/* The threshold of the test (v >> d) < n as v < nd: nd = n * 2^d, or sat = 1 when
 * n >= 2^(128-d) (then the test is always true). */
BULK_HD cg_u128 cg_glide_bound(cg_u128 n, unsigned d, int *sat)
{
    cg_u128 r;
    *sat = (n.x3 >> (32 - d)) != 0;
#if defined(__CUDA_ARCH__)
    r.x3 = __funnelshift_l(n.x2, n.x3, d);
    r.x2 = __funnelshift_l(n.x1, n.x2, d);
    r.x1 = __funnelshift_l(n.x0, n.x1, d);
    r.x0 = n.x0 << d;
#else
    r.x3 = (n.x3 << d) | (n.x2 >> (32 - d));
    r.x2 = (n.x2 << d) | (n.x1 >> (32 - d));
    r.x1 = (n.x1 << d) | (n.x0 >> (32 - d));
    r.x0 = n.x0 << d;
#endif
    return r;
}

/* n >= 2^(3d+2): then vH = v >> d >= 2^(2d+2) > 3^d >= every b of an operation, for v >= n. */
BULK_HD int cg_bm_ok(cg_u128 n, unsigned d)
{
    const unsigned lo = 3 * d + 2;
    uint64_t nlo = cg_lo64(n), nhi = cg_hi64(n);
    return lo >= 64 ? (nhi >> (lo - 64)) != 0 : (nhi != 0 || (nlo >> lo) != 0);
}

/* Glide of n from the state v after `done` steps (v >= n so far), d <= 20, or -1 (escape) when
 * a value reaches the margin of 2^128 first.
 *
 * While v >= n 2^d no value inside the next table operation can be below n (one step at most
 * halves): a table step. Below that, cz_glide_from-style single steps would take about
 * (d/2) / 0.138 steps per number (the walk drifts down 0.138 bits per step). Instead, when BM is
 * given and n >= 2^(3d+2), BM[L] = bmin | cmin << 32 is the inside state of operation L with
 * the smallest b (every state after the start, the last included): inside values are
 * b_t vH + c_t with c_t < b_t <= 3^d < vH, so the smallest b gives the smallest value, and some
 * inside value is below n exactly when bmin vH + cmin < n. Then, and only then, that one
 * operation is replayed step by step to find the drop. Without BM (or for small n) every
 * operation with v < n 2^d is replayed. */
BULK_HD int64_t cg_glide_esc(cg_u128 v, cg_u128 n, int64_t done, unsigned d, const uint64_t *BC,
                             const uint64_t *BM, const uint8_t *J, cg_u128 vesc)
{
    const uint32_t mask = (1u << d) - 1;
    int sat;
    const cg_u128 nd = cg_glide_bound(n, d, &sat);
    const int use_bm = BM != 0 && cg_bm_ok(n, d);
    for (;;) {
        if (cg_ge(v, vesc)) return -1;
        uint32_t L = v.x0 & mask;
        unsigned jl = J[L];
        if (sat || cg_lt(v, nd)) {
            int replay = 1;
            if (use_bm) {
                CG_COUNT(bm_check);
                uint64_t bm = BM[L];
                cg_u128 w = v;
                cg_step(&w, d, (uint32_t)bm, (uint32_t)(bm >> 32)); /* w <= v */
                replay = cg_lt(w, n);
            }
            if (replay) {
                /* at most J[L] single steps; a drop can only follow a halving */
                for (unsigned s = 0; s < jl; s++) {
                    CG_COUNT(single_step);
                    if (v.x0 & 1) {
                        cg_odd(&v); /* below 2^127 by the margin */
                    } else {
                        cg_half(&v);
                        if (cg_lt(v, n)) return done + (int64_t)s + 1;
                    }
                }
                done += jl;
                continue;
            }
        }
        CG_COUNT(table_step);
        uint64_t bc = BC[L];
        cg_step(&v, d, (uint32_t)bc, (uint32_t)(bc >> 32)); /* below 2^127 by the margin */
        done += jl;
    }
}

/* cg_glide_esc escaping at the margin of 2^128 only (vesc = cg_esc_of(cg_limit_bits(d))). */
BULK_HD int64_t cg_glide(cg_u128 v, cg_u128 n, int64_t done, unsigned d, const uint64_t *BC,
                         const uint64_t *BM, const uint8_t *J)
{
    return cg_glide_esc(v, n, done, d, BC, BM, J, cg_esc_of(cg_limit_bits(d)));
}

/* ---- the lane form of cg_glide (the FLAT verify layout) -------------------------------------
 * cg_glide runs one number to its end; in a warp whose 32 lanes hold 32 numbers, the warp then
 * pays the slowest lane's whole trajectory, and the table-step and replay branches serialise.
 * The lane form cuts the same computation into uniform iterations, so that a lane whose number
 * ends takes its next number at once (the kernel's loop) while the other lanes go on:
 * one iteration is either a table step (with its dip test), or one *T step* of a replay,
 * T(v) = v/2 (v even, 1 step) or (3v+1)/2 (v odd, 2 steps). A T step is cg_step with d = 1,
 * B = 1 or 3, C = 0 or 2, so both kinds of iteration run the same instructions (selects, one
 * cg_step). The replay takes exactly the operation's J[L] steps in T steps (every T step ends
 * with a halving, as the operation does), and a drop can only follow a halving, so checking
 * v < n after each T step finds the same first drop as cg_glide's single steps. Escapes happen
 * under the same condition at the same operations: results are those of cg_glide, bit for bit
 * (tests/collatz_gpu/test_collatz_gpu_twin.c compares them). */
typedef struct cg_lane {
    cg_u128 v, n, nd; /* value, start, n 2^d (unless sat) */
    uint32_t done;    /* steps taken so far */
    uint32_t rs;      /* steps left of the operation being replayed; 0: table mode */
    uint32_t sat;     /* n >= 2^(128-d): every operation is near n */
    uint32_t bm;      /* the dip test applies (BM given and n >= 2^(3d+2)) */
    uint32_t ri, re;  /* record replay (cg_lane_iter_rec): next record index + 1 (0: none), end */
} cg_lane;

BULK_HD void cg_lane_start(cg_lane *s, cg_u128 v, cg_u128 n, uint32_t done, unsigned d, int have_bm)
{
    int sat;
    s->v = v;
    s->n = n;
    s->nd = cg_glide_bound(n, d, &sat);
    s->sat = (uint32_t)sat;
    s->bm = have_bm && cg_bm_ok(n, d);
    s->done = done;
    s->rs = 0;
    s->ri = s->re = 0;
}

/* One iteration. 0: go on; 1: the glide is s->done; 2: escape (as cg_glide's -1). */
BULK_HD int cg_lane_iter(cg_lane *s, unsigned d, cg_u128 vesc, uint32_t mask, const uint64_t *BC,
                         const uint64_t *BM, const uint8_t *J)
{
    const uint32_t L = s->v.x0 & mask;
    const uint64_t bc = BC[L];
    const uint32_t jl = J[L];
    const int tmode = s->rs == 0;
    if (tmode) {
        if (cg_ge(s->v, vesc)) return 2;
        if (s->sat || cg_lt(s->v, s->nd)) {
            int replay = 1;
            if (s->bm) {
                CG_COUNT(bm_check);
                const uint64_t bm = BM[L];
                cg_u128 w = s->v;
                cg_step(&w, d, (uint32_t)bm, (uint32_t)(bm >> 32));
                replay = cg_lt(w, s->n);
            }
            if (replay) s->rs = jl;
        }
    }
    const uint32_t t = s->rs != 0, odd = s->v.x0 & 1;
    const uint32_t B = t ? (odd ? 3u : 1u) : (uint32_t)bc, C = t ? (odd ? 2u : 0u) : (uint32_t)(bc >> 32);
    const uint32_t js = t ? 1 + odd : jl;
    cg_step(&s->v, t ? 1u : d, B, C); /* below 2^127 by the margin */
    s->done += js;
    if (t) {
        CG_COUNT(t_step);
        s->rs -= js;
        if (cg_lt(s->v, s->n)) return 1;
    } else {
        CG_COUNT(table_step);
    }
    return 0;
}

/* ---- record-low replays (FLAT_BATCH, docs/collatz-gpu.md "Record replays") -----------------
 * A replay walks the operation that the dip test flagged in T steps (~5 trips per iterated
 * number at d = 12, most of the lane loop's trips). But the first inside value below n is a
 * *record low* of the operation's inside values: all values before it are >= n > it. Inside
 * values are b_t vH + c_t, and for vH > 3^d (the dip test's condition, cg_bm_ok) they are
 * ordered by b_t (b_s > b_t gives (b_s - b_t) vH >= vH > c_t), so the record lows are the
 * states where b reaches a new minimum: a property of L alone (4.4 of them per L on average at
 * d = 12, at most d). Scanning them in order, the first with b_t vH + c_t < n is the first drop,
 * at t steps (the glide is done + t); the last record is BM's state, which the dip test found
 * below n, so the scan ends there at the latest. One trip per record tested, each a cg_step
 * with (b_t, c_t) on a copy of v and a compare, as a table step.
 * Tables: REC[ROFF[L] .. ROFF[L+1]) = b_t | c_t << 32, RST[..] = t (steps), for each L. */

/* Records of operation L (d <= 20) into rec/rst (room for d); returns their number (>= 1). */
BULK_HD uint32_t cg_rec_entries(unsigned d, uint64_t L, uint64_t *rec, uint8_t *rst)
{
    uint64_t b = (uint64_t)1 << d, c = L, bmin = b;
    uint32_t n = 0, t = 0;
    while (!(b & 1)) {
        if (c & 1) {
            b *= 3;
            c = 3 * c + 1;
        } else {
            b >>= 1;
            c >>= 1;
        }
        t++;
        if (b < bmin) {
            bmin = b;
            if (rec) rec[n] = b | c << 32;
            if (rst) rst[n] = (uint8_t)t;
            n++;
        }
    }
    return n;
}

/* cg_lane_iter with record replays where the dip test applies (s->bm); T-step replays
 * otherwise (small n). Same returns, same glides and escapes as cg_lane_iter / cg_glide. */
BULK_HD int cg_lane_iter_rec(cg_lane *s, unsigned d, cg_u128 vesc, uint32_t mask, const uint64_t *BC,
                             const uint64_t *BM, const uint8_t *J, const uint32_t *ROFF, const uint64_t *REC,
                             const uint8_t *RST)
{
    const uint32_t L = s->v.x0 & mask;
    const uint64_t bc = BC[L];
    const uint32_t jl = J[L];
    if (s->rs == 0 && s->ri == 0) {
        if (cg_ge(s->v, vesc)) return 2;
        if (s->sat || cg_lt(s->v, s->nd)) {
            if (s->bm) {
                CG_COUNT(bm_check);
                const uint64_t bm = BM[L];
                cg_u128 w = s->v;
                cg_step(&w, d, (uint32_t)bm, (uint32_t)(bm >> 32));
                if (cg_lt(w, s->n)) {
                    s->ri = ROFF[L] + 1;
                    s->re = ROFF[L + 1];
                }
            } else {
                s->rs = jl;
            }
        }
    }
    const uint32_t rmode = s->ri != 0, t = s->rs != 0, odd = s->v.x0 & 1;
    const uint64_t rc = rmode ? REC[s->ri - 1] : bc;
    const uint32_t B = t ? (odd ? 3u : 1u) : (uint32_t)rc, C = t ? (odd ? 2u : 0u) : (uint32_t)(rc >> 32);
    cg_u128 w = s->v;
    cg_step(&w, t ? 1u : d, B, C); /* below 2^127 by the margin */
    if (rmode) {
        CG_COUNT(rec_test);
        /* the last record is BM's state, below n by the dip test */
        if (s->ri == s->re || cg_lt(w, s->n)) {
            s->done += RST[s->ri - 1];
            return 1;
        }
        s->ri++;
        return 0;
    }
    s->v = w;
    if (t) {
        CG_COUNT(t_step);
        const uint32_t js = 1 + odd;
        s->done += js;
        s->rs -= js;
        if (cg_lt(s->v, s->n)) return 1;
    } else {
        CG_COUNT(table_step);
        s->done += jl;
    }
    return 0;
}

/* cg_glide through cg_lane_iter_rec (CPU twin of the record-replay kernels). */
BULK_HD int64_t cg_glide_lane_rec(cg_u128 v, cg_u128 n, int64_t done, unsigned d, const uint64_t *BC,
                                  const uint64_t *BM, const uint8_t *J, const uint32_t *ROFF,
                                  const uint64_t *REC, const uint8_t *RST)
{
    cg_lane s;
    cg_lane_start(&s, v, n, (uint32_t)done, d, BM != 0);
    const uint32_t mask = (1u << d) - 1;
    const unsigned lim = cg_limit_bits(d);
    const uint64_t *bm = BM ? BM : BC;
    for (;;) {
        int r = cg_lane_iter_rec(&s, d, cg_esc_of(lim), mask, BC, bm, J, ROFF, REC, RST);
        if (r == 1) return (int64_t)s.done;
        if (r == 2) return -1;
    }
}

/* ---- batched refill (the FLAT_BATCH verify layout) ------------------------------------------
 * In the FLAT loop a lane whose number ends sets up its next one in the same trip; the setup
 * (~50 instructions: run bookkeeping, n, the 128x64 prefix, cg_lane_start) then runs with the
 * one or few lanes that need it while the others wait (ncu on the H200: 12.7 of 32 lanes active).
 * FLAT_BATCH lets a lane that ends idle until at least `thresh` lanes of the warp are idle (or no
 * lane is busy any more, so the warp cannot stall), and then all idle lanes set up together: the
 * setup's cost is shared by >= thresh lanes, and idling costs a lane only its share of the trips
 * it waits. Each number's own computation (prefix, cg_lane_start, cg_lane_iter until it ends) is
 * unchanged, so every glide and escape is the FLAT one; only which trip a number starts in
 * changes, and the accumulators (sum, count, maximum with its smallest n) do not depend on order.
 * `idle` = lanes with work left but no number, `any_busy` = some lane holds a number. The CPU
 * twin of the warp (32 lanes, this rule) is in tests/collatz_gpu/test_collatz_gpu_twin.c. */
#define CG_REFILL_LANES 12
BULK_HD int cg_refill_now(uint32_t idle, int any_busy, uint32_t thresh)
{
    return idle != 0 && (idle >= thresh || !any_busy);
}

/* cg_glide computed through the lane form (the CPU twin of the FLAT kernel's loop). */
BULK_HD int64_t cg_glide_lane(cg_u128 v, cg_u128 n, int64_t done, unsigned d, const uint64_t *BC,
                              const uint64_t *BM, const uint8_t *J)
{
    cg_lane s;
    cg_lane_start(&s, v, n, (uint32_t)done, d, BM != 0);
    const uint32_t mask = (1u << d) - 1;
    const unsigned lim = cg_limit_bits(d);
    const uint64_t *bm = BM ? BM : BC; /* unread when s.bm == 0 */
    for (;;) {
        int r = cg_lane_iter(&s, d, cg_esc_of(lim), mask, BC, bm, J);
        if (r == 1) return (int64_t)s.done;
        if (r == 2) return -1;
    }
}

/* Delay of n >= 1 as cz_delay (a >= d, a <= 30): table steps while v >= 2^a, then A[v]. Any
 * exact method gives the same delay (an escaped number's delay comes from the exact path), so
 * values below 2^64 -- all but the first step or two from n ~ 2^64..2^68 -- take the two-limb
 * step cg_step64, and the margin of 2^128 is checked only on the four-limb steps. -1: escape. */
BULK_HD int64_t cg_delay(cg_u128 v, unsigned d, unsigned a, const uint64_t *BC, const uint8_t *J,
                         const uint16_t *A)
{
    const uint32_t mask = (1u << d) - 1;
    const unsigned lim = cg_limit_bits(d);
    uint32_t steps = 0;
    for (;;) {
        if ((v.x3 | v.x2) == 0) {
            uint32_t x0 = v.x0, x1 = v.x1, x2 = 0;
            while (x1 != 0 || (x0 >> a) != 0) {
                CG_COUNT(delay_step);
                uint32_t L = x0 & mask;
                uint64_t bc = BC[L];
                steps += J[L];
                x2 = cg_step64(&x0, &x1, d, (uint32_t)bc, (uint32_t)(bc >> 32));
                if (x2) break;
            }
            if (!x2) return (int64_t)steps + A[x0];
            v.x0 = x0;
            v.x1 = x1;
            v.x2 = x2;
            v.x3 = 0;
            continue;
        }
        if (cg_over(v, lim)) return -1;
        CG_COUNT(delay_step);
        uint32_t L = v.x0 & mask;
        uint64_t bc = BC[L];
        cg_step(&v, d, (uint32_t)bc, (uint32_t)(bc >> 32)); /* below 2^127 by the margin */
        steps += J[L];
    }
}

/* The lane form of cg_delay (the delay kernels' loop): one table step per call, so that a lane
 * whose number ends takes its next number at once while the warp stays converged. *v and
 * *steps start as (n, 0). Returns 0: go on; 1: the delay is *steps + A[v->x0]; 2: escape (as
 * cg_delay's -1). Same steps, same escape condition as cg_delay: the same results. */
BULK_HD int cg_delay_iter(cg_u128 *v, uint32_t *steps, unsigned d, unsigned a, unsigned lim, uint32_t mask,
                          const uint64_t *BC, const uint8_t *J)
{
    const uint32_t L = v->x0 & mask;
    if ((v->x3 | v->x2) == 0) {
        if (v->x1 == 0 && (v->x0 >> a) == 0) return 1;
        CG_COUNT(delay_step);
        const uint64_t bc = BC[L];
        *steps += J[L];
        v->x2 = cg_step64(&v->x0, &v->x1, d, (uint32_t)bc, (uint32_t)(bc >> 32));
        return 0;
    }
    if (cg_over(*v, lim)) return 2;
    CG_COUNT(delay_step);
    const uint64_t bc = BC[L];
    cg_step(v, d, (uint32_t)bc, (uint32_t)(bc >> 32)); /* below 2^127 by the margin */
    *steps += J[L];
    return 0;
}

/* cg_delay through the lane form (the CPU twin of the kernels' loop). */
BULK_HD int64_t cg_delay_lane(cg_u128 v, unsigned d, unsigned a, const uint64_t *BC, const uint8_t *J,
                              const uint16_t *A)
{
    uint32_t steps = 0;
    const uint32_t mask = (1u << d) - 1;
    const unsigned lim = cg_limit_bits(d);
    for (;;) {
        int r = cg_delay_iter(&v, &steps, d, a, lim, mask, BC, J);
        if (r == 1) return (int64_t)steps + A[v.x0];
        if (r == 2) return -1;
    }
}

/* ---- the delay lane loop of V4X2 (docs/collatz-gpu.md "V4X2") -----------------------------
 * cg_delay_iter branches between a two-limb step (v < 2^64) and a four-limb step; from n ~ 2^64
 * every number takes its first step or two in the four-limb branch, and with 32 lanes starting
 * numbers at different times nearly every warp trip ran both branches. Here the common step is
 * one three-limb step (cg_step96) for every v < 2^(96 - lim), which keeps its result below
 * 2^95; only values at or above that (trajectories climbing 2^20+ times above n ~ 2^64: rare)
 * take the four-limb step, with cg_delay_iter's margin test and escape. Same table steps, same
 * end test (v < 2^a, checked before a step), same escapes as cg_delay: the same delays.
 * Returns 0: go on; 1: the delay is *steps + A[v->x0]; 2: escape. */
BULK_HD int cg_delay_iter96(cg_u128 *v, uint32_t *steps, unsigned d, unsigned a, unsigned lim, uint32_t mask,
                            const uint64_t *BC, const uint8_t *J)
{
    const uint32_t L = v->x0 & mask;
    const uint64_t bc = BC[L];
    const uint32_t jl = J[L];
    if (v->x3 == 0 && (v->x2 >> (32 - lim)) == 0) {
        if ((v->x2 | v->x1 | (v->x0 >> a)) == 0) return 1;
        CG_COUNT(delay_step);
        v->x3 = cg_step96(&v->x0, &v->x1, &v->x2, d, (uint32_t)bc, (uint32_t)(bc >> 32)); /* 0 */
        *steps += jl;
        return 0;
    }
    if (cg_over(*v, lim)) return 2;
    CG_COUNT(delay_step);
    cg_step(v, d, (uint32_t)bc, (uint32_t)(bc >> 32)); /* below 2^127 by the margin */
    *steps += jl;
    return 0;
}

/* cg_delay through cg_delay_iter96 (its CPU twin, one number). */
BULK_HD int64_t cg_delay_lane96(cg_u128 v, unsigned d, unsigned a, const uint64_t *BC, const uint8_t *J,
                                const uint16_t *A)
{
    uint32_t steps = 0;
    const uint32_t mask = (1u << d) - 1;
    const unsigned lim = cg_limit_bits(d);
    for (;;) {
        int r = cg_delay_iter96(&v, &steps, d, a, lim, mask, BC, J);
        if (r == 1) return (int64_t)steps + A[v.x0];
        if (r == 2) return -1;
    }
}

/* Steps per warp trip of the v4 delay loop (default of delay_unroll; 2, 4 or 8): a lane whose
 * number ends mid-trip idles for the rest of it (~(U-1)/2 steps per number, of ~10-17), while
 * the trip's fixed work (warp vote, the deferred results, the next numbers' setup) is paid once
 * per U steps instead of once per step. Measured on an H200 (docs/perf/collatz-gpu.md "Delays v4, record replays and
 * FLAT_BATCH refill measured"): 8 beat 4 by
 * 5-6% at d = 12 and d = 20 (a = 24), 2 lost 14%. */
#define CG_DELAY_UNROLL 8

/* n = nH * 2^k + r (r < 2^k, 0 <= k <= 63; the caller guarantees n < 2^128). */
BULK_HD cg_u128 cg_form_n(uint64_t nH_lo, uint64_t nH_hi, int k, uint64_t r)
{
    uint64_t lo = k ? nH_lo << k : nH_lo;
    uint64_t hi = k ? (nH_hi << k) | (nH_lo >> (64 - k)) : nH_hi;
    return cg_make(lo | r, hi);
}

/* The sieve of L bits walked on the fly for the low bits p of n (verify.c walk_block): returns
 * 1 when the class of p is eliminated, with *glide = (i+1) + j, the glide of every n of the
 * class with nH >= 1; else 0 with (j, c) the state after L halvings: n = 2^L nH + p becomes
 * 3^j nH + c after L + j steps. */
BULK_HD int cg_walk(const uint64_t *pow3, uint64_t p, int L, int *j, uint64_t *c, int64_t *glide)
{
    *j = 0;
    *c = 0;
    for (int i = 0; i < L; i++) {
        if (cg_sieve_child(pow3, i, j, c, (int)((p >> i) & 1))) {
            *glide = i + 1 + *j;
            return 1;
        }
    }
    return 0;
}

/* A mandatory n = 2^L nH + r iterated individually from its sieve state (verify.c
 * iterate_one): v = 3^j nH + c after done = L + j steps, then cg_glide. -1: escape. */
BULK_HD int64_t cg_iterate_esc(cg_u128 n, uint64_t nH_lo, uint64_t nH_hi, uint64_t pow3j, uint64_t c,
                               int64_t done, unsigned d, const uint64_t *BC, const uint64_t *BM,
                               const uint8_t *J, cg_u128 vesc)
{
    cg_u128 v;
    if (cg_prefix(&v, nH_lo, nH_hi, pow3j, c)) return -1;
    return cg_glide_esc(v, n, done, d, BC, BM, J, vesc);
}
BULK_HD int64_t cg_iterate(cg_u128 n, uint64_t nH_lo, uint64_t nH_hi, uint64_t pow3j, uint64_t c,
                           int64_t done, unsigned d, const uint64_t *BC, const uint64_t *BM,
                           const uint8_t *J)
{
    return cg_iterate_esc(n, nH_lo, nH_hi, pow3j, c, done, d, BC, BM, J, cg_esc_of(cg_limit_bits(d)));
}

/* BM[L] for d <= 20 (see cg_glide): the state (b, c) with the smallest b after each rule of
 * seed 004's b/c walk from (2^d, L), the final state included. bmin <= B[L] < 2^32. */
BULK_HD uint64_t cg_bm_entry(unsigned d, uint64_t L)
{
    uint64_t b = (uint64_t)1 << d, c = L, bmin = ~(uint64_t)0, cmin = 0;
    while (!(b & 1)) {
        if (c & 1) {
            b *= 3;
            c = 3 * c + 1;
        } else {
            b >>= 1;
            c >>= 1;
        }
        if (b < bmin) {
            bmin = b;
            cmin = c;
        }
    }
    return bmin | cmin << 32;
}

/* Packs the engine's B and C (d <= 20) into BC[L] = B | C << 32. */
BULK_HD uint64_t cg_pack_bc(uint64_t B, uint64_t C) { return B | C << 32; }

#endif
