/* The delay loop V5 (docs/collatz-gpu.md "V5"): the per-number logic of the kernel
 * (cg_delays.cu lane_delays5) as BULK_HD functions, so that the CPU twin
 * (tests/collatz_gpu/test_collatz_gpu_delay5.c) runs the very same code.
 *
 * What V4 paid per table step (ncu on the H200, docs/perf/collatz-gpu.md: ~30 thread instructions per step):
 * an end test and a margin test with their branches after every step, a 64-bit BC load plus an
 * 8-bit J load (two random shared-memory loads: ~8 bank wavefronts per warp), the four-limb
 * fallback branch. V5 per step: one random 32-bit load of the packed entry CJ[L] = j | C << 5
 * (~3.5 wavefronts), B = 3^j from a register of lane j (one shuffle: the shuffle reads only the
 * low 5 bits of its lane operand, which are j), and a three-limb step of three multiplies; no
 * test and no branch. Tests only once per round of U steps:
 *
 * - End: a number is done at the first round end with v < 2^a, and its delay is
 *   steps + A[v]. Overshooting the first v < 2^a by up to U - 1 steps is exact: the table step
 *   is U literal Collatz steps for any v (the parities of its steps are those of v's low bits,
 *   also when v < 2^d), so steps + delay(v) = delay(n) at every point of the trajectory before
 *   it reaches 1; once the trajectory is at 1 it stays in {1, 2, 4} (1 -> 4 -> 2 -> 1), so a
 *   round end with v not in {1, 2, 4} proves 1 was not reached. A done v <= 4 takes the exact
 *   slow path (cg_delay from n; rare: a fall from >= 2^a to <= 4 within one round).
 * - Width: the three-limb step (cg5_step, on x = 4 v + g) is exact when its input is below
 *   2^(96 - g), g = cg5_guard_bits(d). Every step ORs the input's top limb into ov; a round end
 *   with a top limb at or above 2^(32 - g) (or a start n >= 2^94) sends the number to the exact
 *   slow path,
 *   which has V4's four-limb step and its escape to the host near 2^128. Values after a
 *   violation are garbage but are never used.
 * So every delay is exact, whatever the schedule; results equal the CPU backend's. */
#ifndef BULK_COLLATZ_CUDA_CG_DELAY5_H
#define BULK_COLLATZ_CUDA_CG_DELAY5_H

#include <stdint.h>

#include "collatz/cuda/cg_core.h"

/* Largest d of the packed entries: C < 3^17 < 2^27 fits above the 5 bits of j <= 17. */
#define CG5_MAX_D 17

/* The packed table entry of an operation with j odd steps and addend C (C < 3^j). */
BULK_HD uint32_t cg5_entry(unsigned j, uint64_t C) { return (uint32_t)j | (uint32_t)C << 5; }

/* g with: a scaled input x = 4 v + g below 2^(96 - g) keeps the three-limb step's result below
 * 2^96. The result is 4 (3^j (v >> d) + C) + 2 <= 1.5^d x + 4 3^d + 2, and log2 1.5 < 0.585, so
 * g = ceil(0.585 d) + 1 leaves a factor 2 for the addend. */
BULK_HD unsigned cg5_guard_bits(unsigned d) { return (585u * d + 999u) / 1000u + 1u; }

/* Steps per round when delay_unroll is 0. Longer rounds pay the round end (check, results,
 * refills) less often but overshoot more: ~(U - 1) / 2 steps per number. Without checkpoints a
 * fall from >= 2^a to the 1-4-2 cycle within the round sent the number to the slow path: on the
 * CPU (200000 consecutive numbers from 2^64, cg5_delay) 0% for U = 2 everywhere, for U = 4 0% at
 * a = 24 but 0.95% at d = 14, a = 20, for U = 8 1-23% (d = 14, 15); the H200 ran U = 8 at 0.41-0.75x
 * of U = 4 there (docs/perf/collatz-gpu.md). The checkpoints after every second step (cg5_mark) bring every
 * U to U = 2's slow-path share. */
BULK_HD unsigned cg5_default_unroll(unsigned d, unsigned a)
{
    (void)d;
    (void)a;
    return 8u;
}

/* One number's state in the loop. The value is held scaled: x = 4 v + g (g < 4, the low bits of
 * the previous entry's j), in three limbs, so that the byte offset of v's entry, 4 (v mod 2^d), is
 * x0 & (mask << 2): one LOP3 and a shared load [R + UR] (the unscaled index needed a LEA more per
 * step). st = steps so far without the d per step (added per round), ov = the OR of the top limbs
 * of every step's input (the guard). */
typedef struct cg5_num {
    uint32_t x0, x1, x2, st, ov;
} cg5_num;

/* n >= 1. An n of 2^94 or more (x = 4n needs 96 bits) goes straight to the slow path at its
 * first round end. */
BULK_HD void cg5_start(cg5_num *s, cg_u128 n)
{
    s->x0 = n.x0 << 2;
    s->x1 = n.x1 << 2 | n.x0 >> 30;
    s->x2 = n.x2 << 2 | n.x1 >> 30;
    s->st = 0;
    s->ov = (n.x3 | n.x2 >> 30) ? 0xffffffffu : 0u;
}

/* Byte offset of the entry of the current value in CJ (mask4 = (2^d - 1) << 2). */
BULK_HD uint32_t cg5_offset(const cg5_num *s, uint32_t mask4) { return s->x0 & mask4; }

/* The value v (once below 2^32, i.e. done). */
BULK_HD uint32_t cg5_value(const cg5_num *s) { return s->x0 >> 2; }

/* One table step with the entry e = CJ[v mod 2^d] and B4 = 4 * 3^(e & 31): v <- B (v >> d) + C,
 * i.e. x <- B4 (x >> (d + 2)) + (e >> 3), where e >> 3 = 4 C + (j >> 3) (the new g <= 2).
 * Three multiplies: p0 = h0 B4 + (e >> 3) (64 bits), p2 = h2 B4 (32 bits: exact while the result
 * is below 2^96), w = h1 B4 + (p0 >> 32) + p2 2^32 = bits 32..95 of the result. d2 = d + 2. */
BULK_HD void cg5_step(cg5_num *s, unsigned d2, uint32_t e, uint32_t B4)
{
#if defined(__CUDA_ARCH__)
    const uint32_t h0 = __funnelshift_r(s->x0, s->x1, d2), h1 = __funnelshift_r(s->x1, s->x2, d2);
#else
    const uint32_t h0 = (s->x0 >> d2) | (s->x1 << (32 - d2)), h1 = (s->x1 >> d2) | (s->x2 << (32 - d2));
#endif
    const uint32_t h2 = s->x2 >> d2;
    s->ov |= s->x2;
    s->st += e & 31u;
    const uint64_t p0 = (uint64_t)h0 * B4 + (e >> 3);
    const uint32_t p2 = h2 * B4;
    const uint64_t w = (uint64_t)h1 * B4 + ((p0 >> 32) | (uint64_t)p2 << 32);
    s->x0 = (uint32_t)p0;
    s->x1 = (uint32_t)w;
    s->x2 = (uint32_t)(w >> 32);
}

/* x0 & cg5_done_mask(a) == 0 (with x1 = x2 = 0) exactly when v < 2^a (a <= 30). */
BULK_HD uint32_t cg5_done_mask(unsigned a) { return a + 2 >= 32 ? 0u : ~0u << (a + 2); }

/* After a round of steps whose d's add up to du (= U d): 0 = go on, 1 = done, the delay is
 * s->st + A[cg5_value(s)]; 2 = take the exact slow path (cg_delay from n). gsh = 32 - guard
 * bits, dmask = cg5_done_mask(a). */
BULK_HD int cg5_check(cg5_num *s, uint32_t dmask, unsigned gsh, uint32_t du)
{
    s->st += du;
    if (s->ov >> gsh) return 2;
    if ((s->x2 | s->x1 | (s->x0 & dmask)) != 0) return 0;
    return s->x0 < 20u ? 2 : 1; /* v <= 4 */
}

/* Checkpoints inside a round (after every second step but the last): the first value seen below
 * 2^a, with the steps taken up to it. A round end with v <= 4 (the trajectory may have passed 1
 * during the overshoot) then takes the checkpoint's delay, cst + A[cx >> 2], when the checkpoint
 * is below 2^a and above 4 (so the trajectory had not reached 1 there): only a fall from 2^a to 1
 * within two steps is left to the slow path, as with rounds of two steps. cx = ~0: none yet (the
 * round start resets it); dk = d times the steps of this round so far. */
BULK_HD void cg5_mark(const cg5_num *s, uint32_t *cx, uint32_t *cst, uint32_t dmask, uint32_t dk)
{
    if ((*cx & dmask) == 0) return; /* already one below 2^a */
    if ((s->x1 | s->x2) == 0) {
        *cx = s->x0;
        *cst = s->st + dk;
    }
}

/* cg5_check with the round's checkpoint: 3 = done at the checkpoint, the delay is
 * cst + A[cx >> 2]; otherwise as cg5_check. */
BULK_HD int cg5_check_mark(cg5_num *s, uint32_t dmask, unsigned gsh, uint32_t du, uint32_t cx)
{
    const int r = cg5_check(s, dmask, gsh, du);
    if (r == 2 && (s->ov >> gsh) == 0 && (cx & dmask) == 0 && cx >= 20u) return 3;
    return r;
}

/* The delay of n through the V5 rounds of u steps (the CPU twin of one lane slot); pow3 gives
 * B = 3^j as the kernel's shuffle does (there 4 * 3^j). BC, J are cg_delay's tables for the slow
 * path. -1: escape (as cg_delay). *slow, when given, counts the slow paths taken. */
BULK_HD int64_t cg5_delay(cg_u128 n, unsigned d, unsigned a, unsigned u, const uint32_t *CJ,
                          const uint64_t *pow3, const uint64_t *BC, const uint8_t *J, const uint16_t *A,
                          uint64_t *slow)
{
    const uint32_t mask4 = ((1u << d) - 1) << 2, dmask = cg5_done_mask(a);
    const unsigned gsh = 32 - cg5_guard_bits(d);
    cg5_num s;
    cg5_start(&s, n);
    for (;;) {
        uint32_t cx = ~0u, cst = 0;
        for (unsigned i = 0; i < u; i++) {
            const uint32_t e = CJ[cg5_offset(&s, mask4) >> 2];
            cg5_step(&s, d + 2, e, 4u * (uint32_t)pow3[e & 31]);
            if (i % 2 == 1 && i + 1 < u) cg5_mark(&s, &cx, &cst, dmask, (i + 1) * d);
        }
        const int r = cg5_check_mark(&s, dmask, gsh, u * d, cx);
        if (r == 3) return (int64_t)cst + A[cx >> 2];
        if (r == 1) return (int64_t)s.st + A[cg5_value(&s)];
        if (r == 2) {
            if (slow) (*slow)++;
            return cg_delay(n, d, a, BC, J, A);
        }
    }
}

#endif
