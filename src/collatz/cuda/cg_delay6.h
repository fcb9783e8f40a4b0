/* The lean round end of the V5 delay loop ("V6", docs/collatz-gpu.md "The lean round end and the class path"): the
 * per-slot work between two rounds of table steps as BULK_HD functions, so that the CPU twin
 * (tests/collatz_gpu/test_collatz_gpu_delay6.c) runs the very code of the kernel
 * (cg_delays.cu lane_delays6). The steps themselves are V5's (cg_delay5.h: cg5_step, cg5_mark).
 *
 * Why (ncu of V5 with its own round end, docs/perf/collatz-gpu.md): 22.5 warp instructions per number, of which the steps are ~10;
 * the rest is the round end, ~130 thread instructions per slot and round in V5's SASS: 64-bit
 * offsets (the next offset from m, the number from the offset, cg5_start's shifts), the span's
 * batch index from a 64-bit difference, the done mask and the checks rebuilt in every round end,
 * and nested branches that the warp runs whenever one lane needs them (a number finishes in
 * about half of the slots at every round end). Here:
 * - a warp's numbers are n0 + i, i = lane + 32 m < len (a piece: len < 2^32), with a 32-bit
 *   local index i per slot (CG6_NONE: the slot is free);
 * - the lane's next number is kept scaled and running (cg6_feed: x = 4 n in three limbs, + 128
 *   per refill), so a refill is a few moves and a three-limb add, no 128-bit offset arithmetic;
 * - the check is one classification (cg6_classify) into go on / done / slow, with the done
 *   value and steps chosen by selects (the round's end value, or its checkpoint);
 * - a done number's A load is issued at once and its result put at the next round end (as in
 *   V5), from pidx / pst / pa.
 * The results are V5's exactly: the same steps, the same done rule, the same slow path
 * (cg_delay from n). */
#ifndef BULK_COLLATZ_CUDA_CG_DELAY6_H
#define BULK_COLLATZ_CUDA_CG_DELAY6_H

#include <stddef.h>
#include <stdint.h>

#include "collatz/cuda/cg_delay5.h"

/* A free slot's index / no pending result. */
#define CG6_NONE 0xffffffffu

/* One slot of a lane: the number in flight and the result of the previous round end. */
typedef struct cg6_slot {
    cg5_num s;           /* scaled value, steps, guard (cg_delay5.h) */
    uint32_t cx, cst;    /* the round's checkpoint (cg5_mark): ~0 = none */
    uint32_t idx;        /* local index of the number in flight; CG6_NONE: free */
    uint32_t pidx;       /* local index of the pending result; CG6_NONE: none */
    uint32_t pst, pa;    /* the pending result is pst + pa, pa = A[v] loaded at the round end */
} cg6_slot;

/* The lane's next number: x = 4 n in three limbs, its local index, the piece's length; ov = the
 * guard word a started number gets (~0 when the piece reaches 2^94: 4 n would not fit in 96
 * bits, so every number of the piece takes the exact slow path; no piece does near 2^64..2^90). */
typedef struct cg6_feed {
    uint32_t x0, x1, x2, ov, idx, len;
} cg6_feed;

/* The feed of lane `lane` for a piece of len numbers n0 + i, i < len (len < 2^32 - 32). */
BULK_HD void cg6_feed_init(cg6_feed *f, cg_u128 n0, uint32_t lane, uint32_t len)
{
    /* n0 + lane, then x = 4 (n0 + lane) */
    uint64_t lo = cg_lo64(n0) + lane, hi = cg_hi64(n0) + (lo < lane);
    f->x0 = (uint32_t)lo << 2;
    f->x1 = (uint32_t)(lo >> 30);
    f->x2 = (uint32_t)(lo >> 62) | (uint32_t)hi << 2;
    /* the last n of the piece: n0 + len - 1 (>= n0 + lane when the lane has numbers) */
    const uint64_t l2 = cg_lo64(n0) + (len ? len - 1 : 0), h2 = cg_hi64(n0) + (l2 < cg_lo64(n0));
    f->ov = (h2 >> 30) ? 0xffffffffu : 0u; /* the last n >= 2^94 */
    f->idx = lane;
    f->len = len;
}

/* A free slot takes the lane's next number, if any; returns 1 when it did. */
BULK_HD int cg6_refill(cg6_slot *q, cg6_feed *f)
{
    if (q->idx != CG6_NONE || f->idx >= f->len) return 0;
    q->s.x0 = f->x0;
    q->s.x1 = f->x1;
    q->s.x2 = f->x2;
    q->s.st = 0;
    q->s.ov = f->ov;
    q->idx = f->idx;
    f->idx += 32;
    /* x += 4 * 32 (three-limb add) */
    const uint32_t y0 = f->x0 + 128u;
    const uint32_t c0 = y0 < 128u;
    const uint32_t y1 = f->x1 + c0;
    f->x2 += c0 & (y1 == 0);
    f->x1 = y1;
    f->x0 = y0;
    return 1;
}

/* ---- merge classes on the GPU (docs/collatz-gpu.md "The lean round end and the class path") --
 * In an aligned block of 2^M numbers n = 2^M nH + r (nH >= 1) the first M halvings depend only
 * on r and lead to 3^j nH + c (collatz/delays.c); residues with equal (j, c) form a class and
 * share the rest of the trajectory: delay(n) = M + j + delay(3^j nH + c). Phase 1 runs one
 * trajectory per class (the lane loop with the class feed below) into D[block][class]; phase 2
 * gives each number M + j + D[...] through the map cmap[r] = class | j << CG6_CLS_BITS. */

/* Bits of a class index in cmap (889180 classes for M = 22 < 2^20). */
#define CG6_CLS_BITS 20
/* D's mark of a class whose delay the GPU did not settle (an escape, or >= 2^16 - 1): its
 * numbers go to the host's exact path. */
#define CG6_D_NONE 0xffffu

/* The class feed of one lane: classes k0 + i, i = lane + 32 m < len, of the block with high
 * part nH; cls2[2 q] = c, cls2[2 q + 1] = 3^j of class q. nH < 2^57 keeps every start value
 * 3^j nH + c (3^j < 2^35 for j <= 22) below 2^92, so x = 4 v fits three limbs; the caller
 * (the driver: numbers below 2^79) sees to that. The lane's next class (c, 3^j) is loaded one
 * refill ahead (nc, np), so a refill does not wait for its global loads. */
typedef struct cg6_cfeed {
    const uint64_t *cls2;
    uint64_t nH, nc, np;
    uint32_t k0, idx, len;
} cg6_cfeed;

BULK_HD void cg6_cfeed_load(cg6_cfeed *f)
{
    if (f->idx < f->len) {
        f->nc = f->cls2[2 * (uint64_t)(f->k0 + f->idx)];
        f->np = f->cls2[2 * (uint64_t)(f->k0 + f->idx) + 1];
    }
}

BULK_HD void cg6_cfeed_init(cg6_cfeed *f, const uint64_t *cls2, uint64_t nH, uint32_t k0, uint32_t lane, uint32_t len)
{
    f->cls2 = cls2;
    f->nH = nH;
    f->k0 = k0;
    f->idx = lane;
    f->len = len;
    f->nc = f->np = 0;
    cg6_cfeed_load(f);
}

/* 3^j nH + c (exact in 128 bits for any nH < 2^64). */
BULK_HD cg_u128 cg6_class_start(uint64_t p, uint64_t nH, uint64_t c)
{
    const u128 v = (u128)p * nH + c;
    return cg_make((uint64_t)v, (uint64_t)(v >> 64));
}

/* The start value of local class i (the slow path's; loads its entry). */
BULK_HD cg_u128 cg6_class_value(const cg6_cfeed *f, uint32_t i)
{
    return cg6_class_start(f->cls2[2 * (uint64_t)(f->k0 + i) + 1], f->nH, f->cls2[2 * (uint64_t)(f->k0 + i)]);
}

/* A free slot takes the lane's next class, if any (as cg6_refill), and the following class's
 * entry is loaded; a start value of 2^94 or more (only when nH >= 2^57) gets a violated guard
 * word: the exact slow path. */
BULK_HD int cg6_crefill(cg6_slot *q, cg6_cfeed *f)
{
    if (q->idx != CG6_NONE || f->idx >= f->len) return 0;
    cg5_start(&q->s, cg6_class_start(f->np, f->nH, f->nc));
    q->idx = f->idx;
    f->idx += 32;
    cg6_cfeed_load(f);
    return 1;
}

/* The class path's tables from the engine's classes (bulk_cz_need_classes built them; host
 * only: not BULK_HD): cmap[r] = class | j << CG6_CLS_BITS for r < 2^M, cls2[2 q] = c, cls2[2 q + 1] = 3^j.
 * Needs ncls < 2^CG6_CLS_BITS. */
static inline void cg6_class_tables(int M, uint32_t ncls, const uint32_t *cls, const uint8_t *cls_j,
                                    const uint64_t *cls_c, const uint64_t *pow3, uint32_t *cmap, uint64_t *cls2)
{
    for (size_t r = 0; r < (size_t)1 << M; r++) cmap[r] = cls[r] | (uint32_t)cls_j[cls[r]] << CG6_CLS_BITS;
    for (size_t q = 0; q < ncls; q++) {
        cls2[2 * q] = cls_c[q];
        cls2[2 * q + 1] = pow3[cls_j[q]];
    }
}

/* A number's delay from its class entry e = cmap[r] and its class's D (phase 2): UINT32_MAX
 * when the class was left to the host. */
BULK_HD uint32_t cg6_member_delay(uint32_t e, uint32_t D, unsigned M)
{
    return D == CG6_D_NONE ? 0xffffffffu : M + (e >> CG6_CLS_BITS) + D;
}

/* The round end's classification of a slot whose round steps were added (cg5_num.st += du):
 * 0 = go on (or the slot is free), 1 = done: its delay is *dst + A[*dv >> 2], 2 = the exact slow
 * path (cg_delay from n). Done: the round ends below 2^a at v > 4 (the end value), or it ends at
 * v <= 4 with a checkpoint below 2^a and above 4 (the checkpoint); slow: the guard was violated,
 * or v <= 4 at the end without such a checkpoint. Exactly cg5_check_mark's rule. */
BULK_HD int cg6_classify(const cg6_slot *q, uint32_t dmask, unsigned gsh, uint32_t *dv, uint32_t *dst)
{
    const int live = q->idx != CG6_NONE;
    const int bad = (q->s.ov >> gsh) != 0;
    const int low = (q->s.x2 | q->s.x1 | (q->s.x0 & dmask)) == 0;
    const int endok = q->s.x0 >= 20u;
    const int cpok = (q->cx & dmask) == 0 && q->cx >= 20u;
    *dv = endok ? q->s.x0 : q->cx;
    *dst = endok ? q->s.st : q->cst;
    if (!live) return 0;
    if (bad) return 2;
    if (!low) return 0;
    return endok || cpok ? 1 : 2;
}

#endif
