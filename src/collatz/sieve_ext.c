/* The sieve of K = k + X bits generated on the fly from the stored sieve of k bits (CPU verify).
 *
 * A stored entry (r, c, j) says: n = 2^k nH + r has become 3^j nH + c after k halvings and j odd
 * steps. Split nH = 2^X m + q (q < 2^X): the value is 3^j 2^X m + w with w = 3^j q + c, so the
 * next X halvings follow the parity of w's low X bits L = w mod 2^X, and after them the value is
 * 3^(j + dj[L]) m + (B_X[L] (w >> X) + C_X[L]) (the tables of X base bits, collatz_core.h).
 * Whether the class survives the sieve at the depths k+1..k+X depends only on j and L (the test
 * 3^(j + odd steps so far) < 2^(depth), sieve.c), and since 3^j is odd, q -> L is a bijection of
 * [0, 2^X): for each j the surviving L form one list S_j, shared by all entries with that j, and
 * q = (L - c) * 3^-j mod 2^X. The eliminated classes have glide depth + odd steps (sieve.c), so
 * their glide sum per level-K block is sum over entries of Gj[j], a number fixed at build time.
 * Memory: the lists (at most 40 * 2^X entries) besides the stored sieve, instead of s_K entries
 * of 17 bytes (k = 32, X = 5: 0.7 GB stored instead of 16 GB for a stored k = 37).
 * Limits (collatz_internal.h): X <= BULK_CZ_MAX_EXT = 16 (u16 list residues; the tables of X
 * base bits, 17 bytes per residue, and the lists take at most 5.5 MB then) and
 * K <= BULK_CZ_MAX_K_GEN = 46. A state after K halvings, 3^j2 nH + c2 with c2 < 3^j2, keeps 3^j2
 * and c2 in 64 bits for j2 <= 40 (3^40 < 2^64 < 3^41); the classes with j2 > 40 (more than 40 of
 * K steps odd: sum of C(K, i) for i < K - 40, at most 14235 per block at K = 44, 1.55e6 at 46)
 * start from their level-k state on the exact reference path instead (verify.c block_extended;
 * the GPU hands them to the host the same way), and the ends of a range never walk above level
 * k (verify.c), so nothing else needs 128-bit states. */
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"

int bulk_cz_build_extension(struct bulk_collatz_engine *e, int x)
{
    if (x == 0) return BULK_OK;
    if (x < 0 || x > BULK_CZ_MAX_EXT || e->k + x > BULK_CZ_MAX_K_GEN || !e->Sr || e->kx)
        return bulk_fail(e->ctx, BULK_ERR_ARG,
                         "bulk_collatz_engine_extend: bits %d: a sieve extension of %d bits on a stored "
                         "sieve of k = %d is out of range (at most %d bits, k + bits <= %d, once per engine)",
                         x, x, e->k, BULK_CZ_MAX_EXT, BULK_CZ_MAX_K_GEN);
    const int k = e->k;
    const uint64_t size = (uint64_t)1 << x, xm = size - 1;
    e->xB = malloc(size * sizeof *e->xB);
    e->xC = malloc(size * sizeof *e->xC);
    e->xdj = malloc(size);
    e->xL = malloc(41 * size * sizeof *e->xL);
    uint64_t *MXx = malloc(size * sizeof *MXx);
    if (!e->xB || !e->xC || !e->xdj || !e->xL || !MXx) {
        free(MXx);
        return bulk_fail(e->ctx, BULK_ERR_NOMEM, "bulk_collatz_engine_extend: bits %d: out of memory", x);
    }
    bulk_cz_build_tables(x, e->xB, e->xC, e->xdj, MXx);
    free(MXx);
    for (uint64_t L = 0; L < size; L++) e->xdj[L] = (uint8_t)(e->xdj[L] - x); /* J - X = odd steps */
    /* survivors and eliminated glide sums per j (j <= k: a state at depth k has j <= k) */
    uint64_t Gj[41];
    uint32_t n = 0;
    for (int j = 0; j <= 40; j++) {
        e->xoff[j] = n;
        Gj[j] = 0;
        if (j > k) continue;
        for (uint64_t L = 0; L < size; L++) {
            /* the b/c rule of L with the halving depth and the odd count beside it */
            uint64_t b = size, c = L;
            int t = 0, jt = j, elim = 0;
            while (!(b & 1)) {
                if (c & 1) {
                    b *= 3;
                    c = 3 * c + 1;
                    jt++;
                } else {
                    b >>= 1;
                    c >>= 1;
                    t++;
                    /* 3^jt < 2^(k+t): eliminated here, glide (k+t) + jt (3^jt > 2^64 for
                     * jt > 40: never, as k + t <= K < 64) */
                    if (jt <= 40 && bulk_cz_pow3[jt] < ((uint64_t)1 << (k + t))) {
                        Gj[j] += (uint64_t)(k + t + jt);
                        elim = 1;
                        break;
                    }
                }
            }
            if (!elim) e->xL[n++] = (uint16_t)L;
        }
    }
    e->xoff[41] = n;
    /* 3^-j mod 2^X (3 * 0xAA..AB = 1 mod 2^64) */
    uint64_t inv = 1;
    for (int j = 0; j <= 40; j++) {
        e->xinv[j] = inv & xm;
        inv *= 0xAAAAAAAAAAAAAAABull;
    }
    uint64_t cnt[41] = { 0 };
    for (uint64_t i = 0; i < e->s_k; i++) cnt[e->Sj[i]]++;
    uint64_t G = 0, s = 0;
    for (int j = 0; j <= 40; j++) {
        G += cnt[j] * Gj[j];
        s += cnt[j] * (e->xoff[j + 1] - e->xoff[j]);
    }
    e->kx = x;
    e->G_x = G;
    e->s_kx = s;
    return BULK_OK;
}

int bulk_collatz_engine_extend(bulk_collatz_engine *e, int bits)
{
    if (!e) return bulk_fail(NULL, BULK_ERR_ARG, "bulk_collatz_engine_extend: e: is NULL");
    return bulk_cz_build_extension(e, bits);
}
