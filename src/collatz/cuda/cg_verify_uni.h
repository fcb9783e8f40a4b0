/* The UNIFORM verify layout's per-number logic (docs/collatz-gpu.md "Uniform trips"), as BULK_HD
 * functions: the kernel k_uni (cg_verify.cu) calls them on the GPU, the twin test
 * (tests/collatz_gpu/test_collatz_gpu_twin.c) on the CPU against cg_glide and the CPU engine.
 *
 * Why: the FLAT_BATCH trip (cg_lane_iter_rec) branches three ways (table step, dip test, record
 * test) and its setup runs with the few lanes that need it: the H200 (ncu, k = 32; docs/perf/collatz-gpu.md) measured
 * ~40 warp instructions per iterated number with 15.8 of 32 lanes active and ~500 SASS
 * instructions in the loop body. Here every trip of every lane runs the same instructions:
 *
 *   one 16-byte table entry e (index: L = v mod 2^d in table mode, the record pair in record
 *   mode), vH = v >> d, and two products of vH: wa = e.z vH + (e.w mod 2^26) and
 *   wb = e.x vH + (e.y mod 2^26), each compared with n.
 *   Table mode (ri == 0): e = (B, C, bmin, cmin | J << 26) of operation L. wa is the dip test
 *     (BM, cg_glide): some value inside the operation is below n exactly when wa < n; then the
 *     lane switches to record mode on L's record pairs. Else wb is the table step: v = wb,
 *     done += J.
 *   Record mode: e = two consecutive record lows of operation L (cg_rec_entries: the states
 *     where b reaches a new minimum; the first inside value below n is one of them), as
 *     (b_{2p+1}, c_{2p+1} | t << 26, b_{2p}, c_{2p} | t << 26). The first record below n gives
 *     the glide done + t; wa is tested before wb (record order). The last record is BM's own
 *     state, below n by the dip test, so the scan ends there at the latest; an odd count repeats
 *     the last record in the second slot of the last pair.
 *
 * Conditions (checked by the caller, else it takes the FLAT kernels): d <= CG_UNI_MAX_D (B, C,
 * bmin < 3^16 < 2^26, J and t <= 2d <= 32 fit the 6 spare bits) and n >= 2^(3d+2) (cg_bm_ok: then
 * vH > 3^d and the dip test is exact). The dip test is taken on every table-mode trip, also when
 * v >= n 2^d, where cg_glide skips it: there bmin vH + cmin >= vH >= n, so it never fires, and
 * the steps taken are cg_glide's. Escapes: a table-mode trip with v >= vesc (cg_esc_of: the
 * margin of 2^128, or lower with pre-drop peaks) escapes before anything else, as
 * cg_lane_iter_rec does, so the same numbers escape.
 *
 * Trips per iterated number: the operations up to the dip (the dip's own trip included) plus
 * ceil(records tested / 2) (twin test prints them). */
#ifndef BULK_COLLATZ_CUDA_CG_VERIFY_UNI_H
#define BULK_COLLATZ_CUDA_CG_VERIFY_UNI_H

#include <stdint.h>

#include "collatz/cuda/cg_core.h"

#define CG_UNI_MAX_D 16
#define CG_UNI_CMASK 0x3ffffffu

/* Record pairs per operation (at most d records per L). */
BULK_HD uint32_t cg_uni_pairs(unsigned d) { return (d + 1) / 2; }

/* Entries (4 words each) of the table: 2^d operations, then 2^d * pairs record pairs. */
BULK_HD uint64_t cg_uni_entries(unsigned d) { return ((uint64_t)1 << d) * (1 + cg_uni_pairs(d)); }

/* The table of d <= CG_UNI_MAX_D bits into tab (4 * cg_uni_entries(d) words), from the
 * engine's tables B, C, J of d bits. */
BULK_HD void cg_uni_build(unsigned d, const uint64_t *B, const uint64_t *C, const uint8_t *J, uint32_t *tab)
{
    const uint64_t size = (uint64_t)1 << d;
    const uint32_t pairs = cg_uni_pairs(d);
    for (uint64_t L = 0; L < size; L++) {
        const uint64_t bm = cg_bm_entry(d, L);
        uint32_t *e = tab + 4 * L;
        e[0] = (uint32_t)B[L];
        e[1] = (uint32_t)C[L];
        e[2] = (uint32_t)bm;
        e[3] = (uint32_t)(bm >> 32) | (uint32_t)J[L] << 26;
        uint64_t rec[CG_UNI_MAX_D];
        uint8_t rst[CG_UNI_MAX_D];
        const uint32_t nr = cg_rec_entries(d, L, rec, rst);
        if (nr == 0) {
            /* no b below 2^d: bmin vH + cmin > v >= n, the dip test never fires on L */
            rec[0] = 0;
            rst[0] = 0;
        }
        for (uint32_t p = 0; p < pairs; p++) {
            const uint32_t last = nr ? nr - 1 : 0;
            const uint32_t i0 = 2 * p < nr ? 2 * p : last, i1 = 2 * p + 1 < nr ? 2 * p + 1 : last;
            uint32_t *r = tab + 4 * (size + L * pairs + p);
            r[0] = (uint32_t)rec[i1];
            r[1] = (uint32_t)(rec[i1] >> 32) | (uint32_t)rst[i1] << 26;
            r[2] = (uint32_t)rec[i0];
            r[3] = (uint32_t)(rec[i0] >> 32) | (uint32_t)rst[i0] << 26;
        }
    }
}

/* A lane's number: value, start, steps so far, and 0 (table mode) or the record pair's entry. */
typedef struct cg_uni {
    cg_u128 v, n;
    uint32_t done, ri;
} cg_uni;

/* The table entry the next trip reads. */
BULK_HD uint32_t cg_uni_index(const cg_uni *s, uint32_t mask) { return s->ri ? s->ri : (s->v.x0 & mask); }

/* X * h + Y for h = (h0, h1, h2, h3) (a value shifted right by d; the caller keeps it below
 * 2^127 / X, so nothing carries out). */
BULK_HD cg_u128 cg_uni_mul(uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, uint32_t X, uint32_t Y)
{
    cg_u128 r;
#if defined(__CUDA_ARCH__)
    uint32_t t0 = __umulhi(h0, X), t1 = __umulhi(h1, X), t2 = __umulhi(h2, X);
    asm("mad.lo.cc.u32  %0, %4, %7, %8;\n\t"
        "madc.lo.cc.u32 %1, %5, %7, %9;\n\t"
        "madc.lo.cc.u32 %2, %6, %7, %10;\n\t"
        "madc.lo.u32    %3, %11, %7, %12;"
        : "=&r"(r.x0), "=&r"(r.x1), "=&r"(r.x2), "=r"(r.x3)
        : "r"(h0), "r"(h1), "r"(h2), "r"(X), "r"(Y), "r"(t0), "r"(t1), "r"(h3), "r"(t2));
#else
    u128 h = (u128)((uint64_t)h2 | (uint64_t)h3 << 32) << 64 | ((uint64_t)h0 | (uint64_t)h1 << 32);
    u128 w = h * X + Y; /* modulo 2^128, as the device chain */
    r = cg_make((uint64_t)w, (uint64_t)(w >> 64));
#endif
    return r;
}

/* One trip with the entry (e0, e1, e2, e3) = tab[cg_uni_index(s, mask)]. Returns 0: go on;
 * 1: the glide is s->done; 2: escape (cg_glide's -1). pairs = cg_uni_pairs(d). */
BULK_HD int cg_uni_trip(cg_uni *s, unsigned d, cg_u128 vesc, uint32_t mask, uint32_t pairs, uint32_t e0,
                        uint32_t e1, uint32_t e2, uint32_t e3)
{
    const cg_u128 v = s->v;
#if defined(__CUDA_ARCH__)
    const uint32_t h0 = __funnelshift_r(v.x0, v.x1, d), h1 = __funnelshift_r(v.x1, v.x2, d),
                   h2 = __funnelshift_r(v.x2, v.x3, d), h3 = v.x3 >> d;
#else
    const uint32_t h0 = (v.x0 >> d) | (v.x1 << (32 - d)), h1 = (v.x1 >> d) | (v.x2 << (32 - d)),
                   h2 = (v.x2 >> d) | (v.x3 << (32 - d)), h3 = v.x3 >> d;
#endif
    const cg_u128 wa = cg_uni_mul(h0, h1, h2, h3, e2, e3 & CG_UNI_CMASK);
    const cg_u128 wb = cg_uni_mul(h0, h1, h2, h3, e0, e1 & CG_UNI_CMASK);
    const int tm = s->ri == 0, lta = cg_lt(wa, s->n), ltb = cg_lt(wb, s->n);
    if (tm && cg_ge(v, vesc)) return 2;
    /* selects, no branches: table mode steps (!lta) or enters the records of L (lta); record
     * mode ends on the first record below n, else moves to the next pair */
    const uint32_t ta = e3 >> 26, tb = e1 >> 26;
    s->done += tm ? (lta ? 0u : ta) : (lta ? ta : ltb ? tb : 0u);
    if (tm && !lta) s->v = wb;
    s->ri = tm ? (lta ? (mask + 1) + (v.x0 & mask) * pairs : 0u) : s->ri + 1;
    return !tm && (lta || ltb);
}

/* ---- the first record in the dip trip (k_uni's trip) ----------------------------------------
 * In the table-mode trip where the dip test fires, the step product wb is wasted. Here it tests
 * the operation's first record instead (its (b0, c0 | t0 << 26) sits in a second 16-byte slot
 * after the operation's entry; the choice waits for the dip test's compare), so a number whose
 * first record is already below n ends in its dip trip, and record mode starts at the second
 * record: pairs (rec 2p+1, rec 2p+2). Saves a trip for about half the numbers (those whose
 * number of records tested is odd) for one more 8-byte load and two selects per trip. Table
 * (uint4 units): operation L at 2L (entry) and 2L + 1 (first record), record pairs from 2^(d+1),
 * one spare unit at the end (a record-mode trip loads the unit after its pair too). */
BULK_HD uint64_t cg_uni1_entries(unsigned d) { return ((uint64_t)1 << d) * (2 + cg_uni_pairs(d)) + 1; }

BULK_HD void cg_uni1_build(unsigned d, const uint64_t *B, const uint64_t *C, const uint8_t *J, uint32_t *tab)
{
    const uint64_t size = (uint64_t)1 << d;
    const uint32_t pairs = cg_uni_pairs(d);
    for (uint64_t L = 0; L < size; L++) {
        const uint64_t bm = cg_bm_entry(d, L);
        uint32_t *e = tab + 8 * L;
        e[0] = (uint32_t)B[L];
        e[1] = (uint32_t)C[L];
        e[2] = (uint32_t)bm;
        e[3] = (uint32_t)(bm >> 32) | (uint32_t)J[L] << 26;
        uint64_t rec[CG_UNI_MAX_D];
        uint8_t rst[CG_UNI_MAX_D];
        uint32_t nr = cg_rec_entries(d, L, rec, rst);
        if (nr == 0) {
            /* no b below 2^d: the dip test never fires on L */
            rec[0] = 0;
            rst[0] = 0;
            nr = 1;
        }
        e[4] = (uint32_t)rec[0];
        e[5] = (uint32_t)(rec[0] >> 32) | (uint32_t)rst[0] << 26;
        e[6] = e[7] = 0;
        for (uint32_t p = 0; p < pairs; p++) {
            const uint32_t last = nr - 1;
            const uint32_t i0 = 2 * p + 1 < nr ? 2 * p + 1 : last, i1 = 2 * p + 2 < nr ? 2 * p + 2 : last;
            uint32_t *r = tab + 4 * (2 * size + L * pairs + p);
            r[0] = (uint32_t)rec[i1];
            r[1] = (uint32_t)(rec[i1] >> 32) | (uint32_t)rst[i1] << 26;
            r[2] = (uint32_t)rec[i0];
            r[3] = (uint32_t)(rec[i0] >> 32) | (uint32_t)rst[i0] << 26;
        }
    }
    uint32_t *z = tab + 4 * (cg_uni1_entries(d) - 1);
    z[0] = z[1] = z[2] = z[3] = 0;
}

/* The unit the next trip reads (its entry; the first-record slot or the next unit follows). */
BULK_HD uint32_t cg_uni1_index(const cg_uni *s, uint32_t mask) { return s->ri ? s->ri : 2 * (s->v.x0 & mask); }

/* cg_uni_trip with the first record in the dip trip: (e0..e3) = tab[cg_uni1_index], (f0, f1) the
 * first two words of the unit after it. Same returns. */
BULK_HD int cg_uni1_trip(cg_uni *s, unsigned d, cg_u128 vesc, uint32_t mask, uint32_t pairs, uint32_t e0,
                         uint32_t e1, uint32_t e2, uint32_t e3, uint32_t f0, uint32_t f1)
{
    const cg_u128 v = s->v;
#if defined(__CUDA_ARCH__)
    const uint32_t h0 = __funnelshift_r(v.x0, v.x1, d), h1 = __funnelshift_r(v.x1, v.x2, d),
                   h2 = __funnelshift_r(v.x2, v.x3, d), h3 = v.x3 >> d;
#else
    const uint32_t h0 = (v.x0 >> d) | (v.x1 << (32 - d)), h1 = (v.x1 >> d) | (v.x2 << (32 - d)),
                   h2 = (v.x2 >> d) | (v.x3 << (32 - d)), h3 = v.x3 >> d;
#endif
    const cg_u128 wa = cg_uni_mul(h0, h1, h2, h3, e2, e3 & CG_UNI_CMASK);
    const int tm = s->ri == 0, lta = cg_lt(wa, s->n), dip = tm && lta;
    const uint32_t X = dip ? f0 : e0, Y = dip ? f1 : e1;
    const cg_u128 wb = cg_uni_mul(h0, h1, h2, h3, X, Y & CG_UNI_CMASK);
    const int ltb = cg_lt(wb, s->n);
    if (tm && cg_ge(v, vesc)) return 2;
    const uint32_t ta = e3 >> 26, tb = Y >> 26;
    s->done += tm ? (lta ? (ltb ? tb : 0u) : ta) : (lta ? ta : ltb ? tb : 0u);
    if (tm && !lta) s->v = wb;
    s->ri = tm ? (lta ? 2 * (mask + 1) + (v.x0 & mask) * pairs : 0u) : s->ri + 1;
    return (!tm && (lta || ltb)) || (dip && ltb);
}

/* cg_glide_uni through cg_uni1_trip (its CPU twin). */
BULK_HD int64_t cg_glide_uni1(cg_u128 v, cg_u128 n, int64_t done, unsigned d, const uint32_t *tab, uint64_t *trips)
{
    cg_uni s;
    s.v = v;
    s.n = n;
    s.done = (uint32_t)done;
    s.ri = 0;
    const uint32_t mask = (1u << d) - 1, pairs = cg_uni_pairs(d);
    const unsigned lim = cg_limit_bits(d);
    for (;;) {
        const uint32_t *e = tab + 4 * (uint64_t)cg_uni1_index(&s, mask);
        if (trips) ++*trips;
        int r = cg_uni1_trip(&s, d, cg_esc_of(lim), mask, pairs, e[0], e[1], e[2], e[3], e[4], e[5]);
        if (r == 1) return (int64_t)s.done;
        if (r == 2) return -1;
    }
}

/* cg_glide through cg_uni_trip (its CPU twin, one number; n >= 2^(3d+2), v >= n, d <= 16);
 * *trips (if given) gets the trips taken. */
BULK_HD int64_t cg_glide_uni(cg_u128 v, cg_u128 n, int64_t done, unsigned d, const uint32_t *tab, uint64_t *trips)
{
    cg_uni s;
    s.v = v;
    s.n = n;
    s.done = (uint32_t)done;
    s.ri = 0;
    const uint32_t mask = (1u << d) - 1, pairs = cg_uni_pairs(d);
    const unsigned lim = cg_limit_bits(d);
    for (;;) {
        const uint32_t *e = tab + 4 * (uint64_t)cg_uni_index(&s, mask);
        if (trips) ++*trips;
        int r = cg_uni_trip(&s, d, cg_esc_of(lim), mask, pairs, e[0], e[1], e[2], e[3]);
        if (r == 1) return (int64_t)s.done;
        if (r == 2) return -1;
    }
}

/* ---- sieve extension (engines with kx > 0, collatz/sieve_ext.c, verify.c block_extended) ----
 * In a block of level K = k + X, the stored entry (r, c, j) and the surviving X-bit residue L
 * of its list give the residue r' = r + 2^k q, q = (L - c) 3^-j mod 2^X, of 2^K, and the state
 * after K + j2 steps 3^j2 nH + c2, j2 = j + xdj[L], c2 = xB[L] (w >> X) + xC[L], w = 3^j q + c
 * (c2 < 3^j2 <= 3^39 < 2^64). xinv = 3^-j mod 2^X (the engine's xinv[j]). */
BULK_HD void cg_ext_state(int k, int X, uint64_t r, uint64_t c, uint64_t pow3j, uint64_t xinv, uint64_t L,
                          uint64_t xB, uint64_t xC, uint64_t *rr, uint64_t *c2)
{
    const uint64_t xm = ((uint64_t)1 << X) - 1;
    const uint64_t q = ((L - c) * xinv) & xm;
    /* w = 3^j q + c < 2^62 2^12 + 2^64: two words */
    uint64_t wlo = pow3j * q, whi;
#if defined(__CUDA_ARCH__)
    whi = __umul64hi(pow3j, q);
#else
    whi = (uint64_t)(((u128)pow3j * q) >> 64);
#endif
    wlo += c;
    whi += wlo < c;
    const uint64_t wx = X ? (wlo >> X) | (whi << (64 - X)) : wlo;
    *c2 = xB * wx + xC; /* < 2^64 exactly (above) */
    *rr = r | q << k;
}

/* One entry of a generated level-K slice (the "gen" form of extension rows, cg_verify.cu
 * run_ext_gen): index t of the group of stored entries with j odd steps (sorted by j), whose
 * lists hold len residues each, is entry x = t / len with list position i = t mod len; the
 * entry's state after K + j2 steps is 3^j2 nH + c2 for n = 2^K nH + rr (cg_ext_state). The slice
 * (rr, c2, j2) is then a stored sieve of K bits for those entries, run by the stored-sieve
 * kernel with k = K. c2 is exact for j2 <= 40 (3^j2 and c2 < 2^64); an entry with j2 > 40
 * (K > 40 only) carries a meaningless c2, and the kernel hands its rows to the host (exact
 * redo from the level-k state), as verify.c block_extended takes its reference path. */
BULK_HD void cg_ext_gen_one(int k, int X, uint64_t t, uint32_t len, const uint64_t *xsr, const uint64_t *xsc, int j,
                            uint64_t pow3j, uint64_t xiv, const uint16_t *xLj, const uint64_t *xB, const uint64_t *xC,
                            const uint8_t *xdj, uint64_t *rr, uint64_t *c2, uint8_t *j2)
{
    const uint64_t x = t / len, i = t - x * len;
    const uint64_t L = xLj[i];
    cg_ext_state(k, X, xsr[x], xsc[x], pow3j, xiv, L, xB[L], xC[L], rr, c2);
    *j2 = (uint8_t)(j + xdj[L]);
}

/* The launch condition of the UNIFORM kernel: d <= CG_UNI_MAX_D and every n of the launch
 * >= 2^(3d+2) (n_min is the smallest). */
BULK_HD int cg_uni_ok(unsigned d, cg_u128 n_min) { return d >= 1 && d <= CG_UNI_MAX_D && cg_bm_ok(n_min, d); }

#endif
