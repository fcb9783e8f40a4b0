#!/usr/bin/env python3
"""Op-count model of bulk_gcd_batch (issue 6): predicts how the batch GCD time grows with the
number n of 1024-bit moduli, to decide whether a run fits a time cap before making it.

Per tree level k (c nodes of s = 16 * 2^k limbs): the product tree does c/2 products of s x s
limbs; the remainder tree does, per node, a square (about 0.7 M(s)) and a reduction of a
remainder of about 4 s limbs by the 2 s-limb square (gcd_mod: about 4 M(2 s) with the Newton
reciprocal and Barrett products from 2000 limbs, about 1.5 M(2 s) with Knuth below). M(s) is the
measured one-thread time of an s x s product on the 2-core dev machine (bench/gcd/tune_fft:
forced Toom below BULK_MUL_FFT_THRESHOLD = 8000 limbs, the NTT from there; s log s beyond the
largest sample). The final divmod and gcd (n small operations) are left out.

    python3 bench/gcd/batch_model.py [N...]      (default 1e4 1e5 1e6)

Check against measurements (dev machine CPU time, 2 threads): 1e5/1e4 = 15.8 measured
(68.1 s / 4.3 s), 16.7 modelled; 1e6/1e4 = 253 measured (1087 s / 4.3 s), 238 modelled.
"""
import math
import sys

# (limbs, ms) for an s x s product, one thread
PTS = [(16, 0.00012), (32, 0.0004), (64, 0.0013), (128, 0.004), (256, 0.012), (362, 0.021),
       (511, 0.037), (724, 0.062), (1023, 0.102), (1448, 0.185), (2047, 0.293), (2896, 0.488),
       (4095, 0.744), (5792, 1.414), (8191, 1.551), (11585, 3.178), (16383, 3.31),
       (23170, 6.778), (32767, 6.835), (46340, 14.1), (65535, 14.4), (92681, 29.8),
       (131071, 30.9), (185363, 63.4), (262143, 64.9), (1048575, 449), (4194303, 2167)]


def mul_ms(s):
    if s <= PTS[0][0]:
        return PTS[0][1] * (s / PTS[0][0]) ** 2
    for (a, ta), (b, tb) in zip(PTS, PTS[1:]):
        if a <= s <= b:
            f = math.log(s / a) / math.log(b / a)
            return ta * (tb / ta) ** f
    a, ta = PTS[-1]
    return ta * (s / a) * math.log(s) / math.log(a)


def model(n):
    """Returns (total ms, per-level rows (k, nodes, limbs, product ms, remainder ms))."""
    rows, total, c, s, k = [], 0.0, n, 16, 0
    while c > 1:
        prod = (c // 2) * mul_ms(s)
        rem = c * (0.7 * mul_ms(s) + (4 * mul_ms(2 * s) if 2 * s >= 2000 else 1.5 * mul_ms(2 * s)))
        rows.append((k, c, s, prod, rem))
        total += prod + rem
        c, s, k = (c + 1) // 2, 2 * s, k + 1
    return total, rows


def main():
    ns = [int(float(a)) for a in sys.argv[1:]] or [10000, 100000, 1000000]
    base = model(ns[0])[0]
    for n in ns:
        t, rows = model(n)
        top = sum(p + r for (_, c, _, p, r) in rows if c < 16)
        print("n %8d  model %9.1f s one-thread-equivalent  x%.1f of n=%d  (%.0f%% in levels of < 16 nodes)"
              % (n, t / 1e3, t / base, ns[0], 100 * top / t))


if __name__ == "__main__":
    main()
