/* The per-word steps of bitwise parallel bulk computation (seed 001 chapter 5), shared by the
 * CPU evaluator and the CUDA kernels. A word holds one signal of 64 circuit instances.
 *
 * Signal values live in a column-wise array: the word of variable v for column w is
 * val[v * stride + w] (seed 001 figure 5.2). On the GPU w is the thread and stride the number
 * of columns, so the threads of a warp touch consecutive words; on the CPU w is the position
 * inside a block of `stride` words that one worker evaluates together. Variable 0 is constant
 * false: callers keep val[0 * stride + w] == 0. */
#ifndef BULK_BPBC_CIRCUIT_CORE_H
#define BULK_BPBC_CIRCUIT_CORE_H
#include <stddef.h>
#include <stdint.h>

#include "common/hd.h"

/* The word of an AIGER literal: the variable's word, complemented when the literal is odd. */
BULK_HD uint64_t bulk_circuit_lit_word(const uint64_t *val, size_t stride, uint32_t lit, size_t w)
{
    return val[(size_t)(lit >> 1) * stride + w] ^ ((uint64_t)0 - (uint64_t)(lit & 1u));
}

/* One AND gate for one column: val[var] = lit(r0) AND lit(r1). */
BULK_HD void bulk_circuit_and_step(uint64_t *val, size_t stride, size_t w, uint32_t var, uint32_t r0,
                                   uint32_t r1)
{
    val[(size_t)var * stride + w] =
        bulk_circuit_lit_word(val, stride, r0, w) & bulk_circuit_lit_word(val, stride, r1, w);
}

/* One full-adder stage of the BPBC ripple-carry adder (seed 001 section 5.1): returns the sum
 * word x ^ y ^ carry and updates carry to (x & y) | ((x ^ y) & carry). */
BULK_HD uint64_t bulk_ripple_add_step(uint64_t x, uint64_t y, uint64_t *carry)
{
    uint64_t t = x ^ y;
    uint64_t s = t ^ *carry;
    *carry = (x & y) | (t & *carry);
    return s;
}

#endif
