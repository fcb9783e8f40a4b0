/* The strong probable-prime test to base 2 (isprime's step after trial division) on the
 * cooperative Montgomery lanes of mont_coop.h, whole on the device: for an odd m > 2 with
 * m - 1 = d 2^r (d odd), the kernel (num/sprp2_coop.cu) walks d's bits from the top in
 * Montgomery form (R = 2^(32 TPI L)), a squaring per bit and a doubling (mc_double, a shift and
 * a conditional subtraction, not a product) per one bit, from R (1: its top bit makes it 2 R); then
 * m passes when 2^d = +-1 or 2^(d 2^j) = -1 for some 0 < j < r, comparing with R mod m and
 * m - (R mod m) (Montgomery form needs no conversion back for that). R mod m is 2^(bitlen(m) - 1)
 * doubled 32 N - bitlen(m) + 1 times. Against a base-2 powmod with a window: no products by the
 * window's table (about a sixth of a 1024-bit exponent's products), no exponent or base to
 * send, and one byte back per number instead of the power. */
#ifndef BULK_INT_CUDA_CORE_SPRP2_COOP_H
#define BULK_INT_CUDA_CORE_SPRP2_COOP_H

#include "int/cuda/core/mont_coop.h"

/* The exponent d = (m - 1) / 2^r for the odd m > 2 of nw words (every lane reads the same
 * words): returns d's bit length, *r and *mbits = m's bit length. m - 1 is m with bit 0
 * cleared, so bit i of d is bit r + i of m, and d has mbits - r bits. */
BULK_HD int bg_sp_exp(const bg_word *m, int nw, int *r, int *mbits)
{
    int k = 0;
    bg_word w0 = m[0] & ~(bg_word)1;
    while (k < nw && (k ? m[k] : w0) == 0) k++;
    int t = 32 * k;
    if (k < nw)
        for (bg_word w = k ? m[k] : w0; !(w & 1); w >>= 1) t++;
    int top = nw - 1;
    while (top > 0 && m[top] == 0) top--;
    int b = 32 * top;
    for (bg_word w = m[top]; w; w >>= 1) b++;
    *r = t;
    *mbits = b;
    return b - t;
}

/* Bit i of m (bit r + i of m is bit i of d). */
BULK_HD int bg_sp_bit(const bg_word *m, int i) { return (int)((m[i >> 5] >> (i & 31)) & 1); }

/* The doublings that take 2^(mbits - 1) (< m) to R mod m = 2^(32 N) mod m. */
BULK_HD int bg_sp_one_doublings(int N, int mbits) { return 32 * N - (mbits - 1); }

#endif
