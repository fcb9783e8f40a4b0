/* The GPU NTT multiplication's per-element logic (src/int/cuda/ntt_gpu_core.h) on the CPU:
 * modular arithmetic against 128-bit arithmetic, transforms against a naive DFT, Garner's CRT
 * against 128-bit values, and whole products - the batched kernel's passes and the
 * multi-kernel (global) transform run thread by thread as the kernels run them - against GMP
 * (mpn_mul) on random and structured operands. Seed printed (replay with --seed). */
#include <gmp.h>

#include "int/cuda/ntt_gpu_core.h"
#include "test_util.h"

typedef unsigned __int128 u128;

static int sanitized(void)
{
    const char *e = getenv("BULK_SANITIZED");
    return e && *e && *e != '0';
}

/* ---- constants and modular arithmetic ------------------------------------------------------ */

static void test_constants(void)
{
    for (int set = 0; set < NT_NSETS; set++) {
        const int maxlog = set ? NT_MAX_LOG_SMALL : NT_MAX_LOG;
        for (int k = 0; k < NT_NPRIMES; k++) {
            nt_prime P = nt_prime_get(set, k);
            CHECK(P.p * P.pinv == 1u, "set %d prime %d: p pinv != 1 mod 2^32", set, k);
            CHECK(P.pinv == nt_pinv(set, k), "set %d prime %d: pinv constant %u != %u", set, k,
                  nt_pinv(set, k), P.pinv);
            CHECK(P.r2 == nt_r2(set, k), "set %d prime %d: R^2 constant %u != %u", set, k,
                  nt_r2(set, k), P.r2);
            CHECK((P.p - 1) % (1u << maxlog) == 0, "set %d prime %d: 2^%d does not divide p - 1",
                  set, k, maxlog);
            CHECK(!set || P.p < 0x80000000u, "set 1 prime %d not below 2^31", k);
            CHECK(k != 1 || P.p > nt_p(set, 0), "set %d: p0 >= p1 (Garner needs r0 < p1)", set);
            /* p prime (trial division) and g primitive: g^((p-1)/q) != 1 for every prime q | p-1 */
            int prime = 1;
            for (uint32_t d = 3; (uint64_t)d * d <= P.p && prime; d += 2) prime = P.p % d != 0;
            CHECK(prime, "set %d: %u is not prime", set, P.p);
            uint32_t m = P.p - 1;
            for (uint32_t q = 2; q <= m; q++)
                if (m % q == 0) {
                    CHECK(nt_pow(P.g, (P.p - 1) / q, &P) != 1, "set %d prime %d: g not primitive (%u)",
                          set, k, q);
                    while (m % q == 0) m /= q;
                }
            uint32_t w = nt_root(&P, maxlog, 0), wi = nt_root(&P, maxlog, 1);
            CHECK(nt_pow(w, (uint64_t)1 << (maxlog - 1), &P) == P.p - 1, "set %d prime %d: w order",
                  set, k);
            CHECK((uint64_t)w * wi % P.p == 1, "set %d prime %d: w w^-1 != 1", set, k);
        }
        nt_crt C = nt_crt_get(set);
        CHECK(C.c01 == (set ? NT_S_C01 : NT_C01), "set %d: C01 constant", set);
        CHECK(C.c012 == (set ? NT_S_C012 : NT_C012), "set %d: C012 constant", set);
        u128 prod = (u128)nt_p(set, 0) * nt_p(set, 1) * nt_p(set, 2);
        u128 bound = ((u128)1 << maxlog) * ((u128)0xffffffffu * 0xffffffffu);
        CHECK(prod > bound, "set %d: p0 p1 p2 does not exceed 2^%d (2^32 - 1)^2", set, maxlog);
    }
}

static void test_modular(uint64_t *st)
{
    int iters = sanitized() ? 20000 : 200000;
    for (int set = 0; set < NT_NSETS; set++)
        for (int k = 0; k < NT_NPRIMES; k++) {
            nt_prime P = nt_prime_get(set, k);
            const uint64_t Rinv = nt_inv((uint32_t)(((uint64_t)1 << 32) % P.p), &P); /* R^-1 mod p */
            for (int it = 0; it < iters; it++) {
                uint32_t a = (uint32_t)test_rand(st), b = (uint32_t)(test_rand(st) % P.p);
                uint32_t c = (uint32_t)(test_rand(st) % P.p);
                switch (it % 8) { /* edges */
                case 0: a = 0xffffffffu; b = P.p - 1; break;
                case 1: a = P.p - 1; c = P.p - 1; break;
                case 2: a = 0; c = 0; break;
                case 3: a = P.p; b = 1; break;
                case 4: a = P.p - 1; c = 0; b = 0; break;
                default: break;
                }
                uint32_t want = (uint32_t)((u128)a * b % P.p * Rinv % P.p);
                uint32_t got = nt_mont(a, b, P.p, P.pinv);
                CHECK(got == want, "mont set %d p%d %u*%u: %u want %u", set, k, a, b, got, want);
                uint32_t ar = (uint32_t)(a % P.p);
                CHECK(nt_reduce(a, P.p) == ar, "reduce set %d p%d %u", set, k, a);
                CHECK(nt_add(ar, c, P.p) == (uint32_t)(((uint64_t)ar + c) % P.p), "add set %d p%d %u %u",
                      set, k, ar, c);
                CHECK(nt_sub(ar, c, P.p) == (uint32_t)(((uint64_t)ar + P.p - c) % P.p),
                      "sub set %d p%d %u %u", set, k, ar, c);
            }
        }
}

/* ---- transforms ------------------------------------------------------------------------------ */

static size_t bitrev(size_t i, int lg)
{
    size_t r = 0;
    for (int b = 0; b < lg; b++) r |= ((i >> b) & 1) << (lg - 1 - b);
    return r;
}

/* Forward and backward transforms as the batched kernel runs them, T threads one after the
 * other per pass; pass: one of nt_fwd_pass, nt_inv_pass (radix 4), nt_fwd_pass8, nt_inv_pass8.
 * sw: run them on the swizzled layout (x[i] stored at nt_sw(i, 1)), as the kernel does in
 * shared memory; x is in natural order before and after. */
typedef void (*pass_fn)(uint32_t *, int, int, unsigned, unsigned, const uint32_t *, int, uint32_t,
                        uint32_t);

static void sim_passes(uint32_t *x, int lg, unsigned T, const uint32_t *tw, const nt_prime *P,
                       pass_fn pass, int npasses, int sw)
{
    size_t n = (size_t)1 << lg;
    uint32_t *v = x;
    if (sw) {
        v = malloc(n * 4);
        for (size_t i = 0; i < n; i++) v[nt_sw((unsigned)i, 1)] = x[i];
    }
    for (int ps = 0; ps < npasses; ps++)
        for (unsigned t = 0; t < T; t++) pass(v, lg, ps, t, T, tw, sw, P->p, P->pinv);
    if (sw) {
        for (size_t i = 0; i < n; i++) x[i] = v[nt_sw((unsigned)i, 1)];
        free(v);
    }
}

static int g_sw; /* the layout the sim_* macros use */

/* The kernel's forward transforms of both operands in the same passes (nt_fwd_pass8_xy). */
static void sim_fwd8_xy(uint32_t *x, uint32_t *y, int lg, unsigned T, const uint32_t *tw,
                        const nt_prime *P)
{
    size_t n = (size_t)1 << lg;
    uint32_t *v = malloc(n * 4), *u = malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        v[nt_sw((unsigned)i, g_sw)] = x[i];
        u[nt_sw((unsigned)i, g_sw)] = y[i];
    }
    for (int ps = 0; ps < nt_npasses8(lg); ps++)
        for (unsigned t = 0; t < T; t++) nt_fwd_pass8_xy(v, u, lg, ps, t, T, tw, g_sw, P->p, P->pinv);
    for (size_t i = 0; i < n; i++) {
        x[i] = v[nt_sw((unsigned)i, g_sw)];
        y[i] = u[nt_sw((unsigned)i, g_sw)];
    }
    free(v), free(u);
}
#define sim_fwd(x, lg, T, tw, P) sim_passes(x, lg, T, tw, P, nt_fwd_pass, nt_npasses(lg), g_sw)
#define sim_inv(x, lg, T, tw, P) sim_passes(x, lg, T, tw, P, nt_inv_pass, nt_npasses(lg), g_sw)
#define sim_fwd8(x, lg, T, tw, P) sim_passes(x, lg, T, tw, P, nt_fwd_pass8, nt_npasses8(lg), g_sw)
#define sim_inv8(x, lg, T, tw, P) sim_passes(x, lg, T, tw, P, nt_inv_pass8, nt_npasses8(lg), g_sw)

/* The multi-kernel transform: global passes down to blocks of 2^ls, then the blocks. */
static void sim_big_fwd(uint32_t *x, int lg, int ls, const uint32_t *tw, const uint32_t *lo,
                        const uint32_t *hi, const nt_prime *P)
{
    size_t n = (size_t)1 << lg;
    if (ls > lg) ls = lg;
    int lh = lg - 1;
    while (lh >= ls) {
        if (lh - 1 >= ls) {
            for (size_t g = 0; g < n / 4; g++) nt_glob_r4(x, lh, g, lo, hi, 0, P->p, P->pinv);
            lh -= 2;
        } else {
            for (size_t k = 0; k < n / 2; k++) nt_glob_r2(x, lh, k, lo, hi, 0, P->p, P->pinv);
            lh -= 1;
        }
    }
    for (size_t blk = 0; blk < n >> ls; blk++) sim_fwd(x + (blk << ls), ls, 5, tw, P);
}

static void sim_big_inv(uint32_t *x, int lg, int ls, const uint32_t *itw, const uint32_t *ilo,
                        const uint32_t *ihi, const nt_prime *P)
{
    size_t n = (size_t)1 << lg;
    if (ls > lg) ls = lg;
    for (size_t blk = 0; blk < n >> ls; blk++) sim_inv(x + (blk << ls), ls, 3, itw, P);
    int lh = ls;
    while (lh <= lg - 1) {
        if (lh + 1 <= lg - 1) {
            for (size_t g = 0; g < n / 4; g++) nt_glob_r4(x, lh + 1, g, ilo, ihi, 1, P->p, P->pinv);
            lh += 2;
        } else {
            for (size_t k = 0; k < n / 2; k++) nt_glob_r2(x, lh, k, ilo, ihi, 1, P->p, P->pinv);
            lh += 1;
        }
    }
}

#define TW_H ((size_t)1 << 14) /* stage tables up to h = 2^14 (N = 2^15) */
static uint32_t g_tw[NT_NSETS][3][2][2 * ((size_t)1 << 14)];
static uint32_t g_lo[3][2][(size_t)1 << NT_TWL_LOG], g_hi[3][2][(size_t)1 << NT_TWL_LOG]; /* set 0 */

static void tables_init(void)
{
    for (int set = 0; set < NT_NSETS; set++)
        for (int k = 0; k < NT_NPRIMES; k++) {
            nt_prime P = nt_prime_get(set, k);
            for (int inv = 0; inv < 2; inv++) {
                nt_stage_table(g_tw[set][k][inv], TW_H, &P, inv);
                if (set == 0) nt_tw2_tables(g_lo[k][inv], g_hi[k][inv], &P, inv);
            }
        }
}

static void test_transforms(uint64_t *st)
{
    int maxlg = sanitized() ? 8 : 10;
    for (int set = 0; set < NT_NSETS; set++)
    for (int k = 0; k < NT_NPRIMES; k++) {
        nt_prime P = nt_prime_get(set, k);
        /* stage table and the two-level twiddles against nt_pow */
        for (int lh = 0; lh < 14; lh++) {
            size_t h = (size_t)1 << lh;
            uint32_t w = nt_root(&P, lh + 1, 0), wi = nt_root(&P, lh + 1, 1);
            for (int t = 0; t < 8; t++) {
                size_t j = t < 2 ? (t ? h - 1 : 0) : test_rand(st) % h;
                uint32_t want = nt_to_mont(nt_pow(w, j, &P), &P), iwant = nt_to_mont(nt_pow(wi, j, &P), &P);
                CHECK(g_tw[set][k][0][h + j] == want, "stage table p%d h %zu j %zu", k, h, j);
                CHECK(g_tw[set][k][1][h + j] == iwant, "inverse stage table p%d h %zu j %zu", k, h, j);
                CHECK(set || nt_tw_glob(g_lo[k][0], g_hi[k][0], j, lh, P.p, P.pinv) == want,
                      "two-level twiddle p%d h %zu j %zu", k, h, j);
                CHECK(set || nt_tw_glob(g_lo[k][1], g_hi[k][1], j, lh, P.p, P.pinv) == iwant,
                      "two-level inverse twiddle p%d h %zu j %zu", k, h, j);
            }
        }
        for (int lh = 14; lh < NT_MAX_LOG && !set; lh++) { /* beyond the stage table */
            size_t h = (size_t)1 << lh, j = test_rand(st) % h;
            uint32_t want = nt_to_mont(nt_pow(nt_root(&P, lh + 1, 0), j, &P), &P);
            CHECK(nt_tw_glob(g_lo[k][0], g_hi[k][0], j, lh, P.p, P.pinv) == want,
                  "two-level twiddle p%d lh %d j %zu", k, lh, j);
        }
        for (int lg = 1; lg <= maxlg; lg++) {
            /* messages below name prime k of this set; every other length on the swizzled
             * layout (the block-level passes; the global passes never swizzle) */
            g_sw = lg % 2;
            size_t n = (size_t)1 << lg;
            uint32_t *x = malloc(n * 4), *y = malloc(n * 4), *z = malloc(n * 4);
            for (size_t i = 0; i < n; i++) x[i] = (uint32_t)(test_rand(st) % P.p);
            if (lg == 3) for (size_t i = 0; i < n; i++) x[i] = P.p - 1; /* largest values */
            memcpy(y, x, n * 4);
            unsigned T = lg % 2 ? 3 : 32;
            sim_fwd(y, lg, T, g_tw[set][k][0], &P);
            /* naive DFT: y[bitrev(f)] = sum_j x_j w^(j f) */
            uint32_t w = nt_root(&P, lg, 0);
            for (size_t f = 0; f < n; f++) {
                uint64_t s = 0, wf = nt_pow(w, f, &P), wj = 1;
                for (size_t j = 0; j < n; j++) {
                    s = (s + (u128)x[j] * wj) % P.p;
                    wj = (u128)wj * wf % P.p;
                }
                CHECK(y[bitrev(f, lg)] == s, "fwd p%d lg %d f %zu: %u want %u", k, lg, f,
                      y[bitrev(f, lg)], (uint32_t)s);
            }
            /* radix 8 gives the same, and its backward transform undoes it */
            memcpy(z, x, n * 4);
            sim_fwd8(z, lg, 7, g_tw[set][k][0], &P);
            CHECK(memcmp(z, y, n * 4) == 0, "radix-8 fwd set %d p%d lg %d differs", set, k, lg);
            sim_inv8(z, lg, 5, g_tw[set][k][1], &P);
            {
                int bad8 = 0;
                for (size_t i = 0; i < n; i++) bad8 |= z[i] != (uint32_t)((u128)x[i] * n % P.p);
                CHECK(!bad8, "radix-8 inv(fwd) != N x, set %d p%d lg %d", set, k, lg);
            }
            /* the multi-kernel transform with small blocks gives the same */
            for (int ls = 1; ls <= lg && !set; ls += 2) {
                memcpy(z, x, n * 4);
                int sw_save = g_sw;
                g_sw = 0;
                sim_big_fwd(z, lg, ls, g_tw[0][k][0], g_lo[k][0], g_hi[k][0], &P);
                CHECK(memcmp(z, y, n * 4) == 0, "global fwd p%d lg %d ls %d differs", k, lg, ls);
                sim_big_inv(z, lg, ls, g_tw[0][k][1], g_lo[k][1], g_hi[k][1], &P);
                int bad = 0;
                for (size_t i = 0; i < n; i++) bad |= z[i] != (uint32_t)((u128)x[i] * n % P.p);
                CHECK(!bad, "global inv(fwd) != N x, p%d lg %d ls %d", k, lg, ls);
                g_sw = sw_save;
            }
            sim_inv(y, lg, T, g_tw[set][k][1], &P);
            int bad = 0;
            for (size_t i = 0; i < n; i++) bad |= y[i] != (uint32_t)((u128)x[i] * n % P.p);
            CHECK(!bad, "inv(fwd) != N x, p%d lg %d", k, lg);
            free(x), free(y), free(z);
        }
    }
}

/* The shared-memory order: a bijection on every aligned block of 32 (hence on every 2^k >= 32
 * and, being the identity below 32, on smaller ones), linear over the bits (the passes rely on
 * nt_sw(b + m e) = nt_sw(b) ^ nt_sw(m e) for disjoint bits), and conflict-free for 32 consecutive
 * aligned indices. */
static void test_swizzle(uint64_t *st)
{
    const unsigned n = 1u << 15;
    unsigned char *seen = calloc(n, 1);
    for (unsigned i = 0; i < n; i++) {
        unsigned f = nt_sw(i, 1);
        CHECK(f < n && (f >> 5) == (i >> 5), "nt_sw(%u) = %u leaves its block of 32", i, f);
        if (f < n) seen[f]++;
        CHECK(nt_sw(i, 0) == i, "nt_sw(%u, 0) is not the identity", i);
    }
    int bad = 0;
    for (unsigned i = 0; i < n; i++) bad |= seen[i] != 1;
    CHECK(!bad, "nt_sw is not a bijection on [0, 2^15)");
    for (int it = 0; it < 10000; it++) {
        unsigned a = (unsigned)test_rand(st) % n, b = (unsigned)test_rand(st) % n;
        CHECK(nt_sw(a ^ b, 1) == (nt_sw(a, 1) ^ nt_sw(b, 1)), "nt_sw not linear at %u, %u", a, b);
    }
    free(seen);
}

static void test_crt(uint64_t *st)
{
    int iters = sanitized() ? 20000 : 200000;
    for (int set = 0; set < NT_NSETS; set++) {
        const uint32_t p0 = nt_p(set, 0), p1 = nt_p(set, 1), p2 = nt_p(set, 2);
        u128 M = (u128)p0 * p1 * p2;
        for (int it = 0; it < iters; it++) {
            u128 v = (((u128)test_rand(st) << 64) | test_rand(st)) % M;
            if (it == 0) v = 0;
            if (it == 1) v = M - 1;
            if (it == 2) v = ((u128)1 << (set ? NT_MAX_LOG_SMALL : NT_MAX_LOG)) * ((u128)0xffffffffu * 0xffffffffu);
            uint32_t c[3];
            nt_crt3(set, (uint32_t)(v % p0), (uint32_t)(v % p1), (uint32_t)(v % p2), c);
            u128 got = ((u128)c[2] << 64) | ((u128)c[1] << 32) | c[0];
            CHECK(got == v, "crt set %d of %016llx%016llx", set, (unsigned long long)(v >> 64),
                  (unsigned long long)v);
        }
    }
}

/* ---- whole products ---------------------------------------------------------------------------- */

/* Carries as the kernels do them: T owners in blocks of B (a multiple of 32), each block's
 * lookahead by nt_block_carries with cin 0 and 1, the blocks chained in order. */
static void sim_carry(int set, uint32_t *out, uint32_t *const res[3], size_t M, unsigned T,
                      unsigned B)
{
    size_t K = nt_owner_words(M, T);
    uint32_t(*H)[3] = calloc(T, sizeof *H);
    uint32_t *g = calloc(T, 4), *pr = calloc(T, 4);
    for (unsigned t = 0; t < T; t++) {
        size_t s = t * K, e = s + K < M ? s + K : M;
        if (s < M) nt_carry_local(set, out, res[0], res[1], res[2], s, e, H[t]);
    }
    for (unsigned t = 0; t < T; t++) {
        size_t s = t * K, e = s + K < M ? s + K : M;
        pr[t] = 1;
        if (s < M) g[t] = nt_carry_owner(out, s, e, t > 0 ? H[t - 1] : NULL, &pr[t]);
        if (s >= M)
            CHECK(t == 0 || (H[t - 1][0] == 0 && H[t - 1][1] == 0 && H[t - 1][2] == 0),
                  "overflow beyond the product");
    }
    uint32_t cin = 0;
    for (unsigned b0 = 0; b0 < T; b0 += B) {
        uint32_t G[32] = {0}, P[32] = {0}, C0[32], C1[32];
        int nw = (int)(B / 32);
        for (unsigned t = b0; t < b0 + B && t < T; t++) {
            G[(t - b0) / 32] |= g[t] << ((t - b0) % 32);
            P[(t - b0) / 32] |= pr[t] << ((t - b0) % 32);
        }
        uint32_t c0 = nt_block_carries(G, P, nw, 0, C0), c1 = nt_block_carries(G, P, nw, 1, C1);
        for (unsigned t = b0; t < b0 + B && t < T; t++) {
            size_t s = t * K, e = s + K < M ? s + K : M;
            uint32_t c = ((cin ? C1 : C0)[(t - b0) / 32] >> ((t - b0) % 32)) & 1;
            if (s < M) nt_carry_apply(out + s, (int)(e - s), c);
        }
        cin = cin ? c1 : c0;
    }
    CHECK(cin == 0, "carry out of the product");
    free(H), free(g), free(pr);
}

/* r (na + nb limbs) = a b: per prime the operands reduced into x, y (N points), forward
 * transforms, pointwise product, backward transform; then CRT and carries. big: the
 * multi-kernel transform with blocks of 2^ls, else the batched kernel's passes with T threads. */
static void sim_mul(uint64_t *r, const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                    int big, int set, int ls, unsigned T)
{
    int lg = nt_log_points(na, nb);
    size_t n = (size_t)1 << lg, M = 2 * (na + nb);
    const uint32_t *a32 = (const uint32_t *)a, *b32 = (const uint32_t *)b;
    uint32_t *res[3], *y = malloc(n * 4);
    for (int k = 0; k < NT_NPRIMES; k++) {
        nt_prime P = nt_prime_get(set, k);
        uint32_t *x = res[k] = malloc(n * 4);
        for (size_t i = 0; i < n; i++) {
            x[i] = i < 2 * na ? nt_reduce(a32[i], P.p) : 0;
            y[i] = i < 2 * nb ? nt_reduce(b32[i], P.p) : 0;
        }
        if (big) {
            sim_big_fwd(x, lg, ls, g_tw[0][k][0], g_lo[k][0], g_hi[k][0], &P);
            sim_big_fwd(y, lg, ls, g_tw[0][k][0], g_lo[k][0], g_hi[k][0], &P);
        } else if (set) { /* the kernel's default: radix 8 on set 1 (radix 4 checked on set 0),
                           * both operands in one pass as the kernel runs them */
            sim_fwd8_xy(x, y, lg, T, g_tw[set][k][0], &P);
        } else {
            sim_fwd(x, lg, T, g_tw[set][k][0], &P);
            sim_fwd(y, lg, T, g_tw[set][k][0], &P);
        }
        uint32_t s = nt_scale(lg, &P);
        for (unsigned t = 0; t < T; t++) nt_pointwise(x, y, n, t, T, s, P.p, P.pinv);
        if (big) sim_big_inv(x, lg, ls, g_tw[0][k][1], g_lo[k][1], g_hi[k][1], &P);
        else if (set) sim_inv8(x, lg, T, g_tw[set][k][1], &P);
        else sim_inv(x, lg, T, g_tw[set][k][1], &P);
    }
    uint32_t *out = res[2]; /* in place, as the batched kernel does */
    sim_carry(set, out, res, M, big ? 64 + T : T, big ? 64 : 32 * ((T + 31) / 32));
    memcpy(r, out, M * 4);
    for (int k = 0; k < NT_NPRIMES; k++) free(res[k]);
    free(y);
}

static void fill(uint64_t *x, size_t n, int kind, uint64_t *st)
{
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0: x[i] = test_rand(st); break;
        case 1: x[i] = ~0ull; break; /* largest coefficients */
        case 2: x[i] = i == n - 1 ? 1ull << (test_rand(st) % 64) : 0; break; /* power of two */
        case 3: x[i] = i == 0 ? 1 : 0; break;
        default: x[i] = test_structured_limb(st, (int)(test_rand(st) % 8)); break;
        }
    }
    if (kind != 3 && kind != 2 && x[n - 1] == 0) x[n - 1] = 1;
}

static void test_products(uint64_t *st)
{
    const size_t sizes[][2] = {{1, 1}, {2, 1}, {3, 3}, {5, 2}, {16, 16}, {17, 17}, {100, 100},
                               {255, 1}, {256, 256}, {300, 211}, {1024, 1024}, {1023, 1025},
                               {3001, 2999}, {8192, 8192}};
    int ns = (int)(sizeof sizes / sizeof sizes[0]);
    if (sanitized()) ns -= 4;
    for (int si = 0; si < ns; si++) {
        size_t na = sizes[si][0], nb = sizes[si][1];
        uint64_t *a = malloc(na * 8), *b = malloc(nb * 8), *r = malloc((na + nb) * 8),
                 *w = malloc((na + nb) * 8);
        for (int kind = 0; kind < 5; kind++) {
            fill(a, na, kind, st);
            fill(b, nb, kind == 2 ? 2 : (kind + 1) % 5 == 3 ? 1 : kind, st);
            if (na >= nb) mpn_mul((mp_limb_t *)w, (const mp_limb_t *)a, (mp_size_t)na,
                                  (const mp_limb_t *)b, (mp_size_t)nb);
            else mpn_mul((mp_limb_t *)w, (const mp_limb_t *)b, (mp_size_t)nb, (const mp_limb_t *)a,
                         (mp_size_t)na);
            /* the batched kernel with either prime set; the multi-kernel path (set 0) */
            for (int v = 0; v < 3; v++) {
                int big = v == 2, set = v == 1;
                if (na + nb > 600 && kind > 1 + (na + nb < 4000)) continue; /* time: fewer */
                memset(r, 0xa5, (na + nb) * 8);
                unsigned T = big ? 37 : (unsigned)(32 << (si % 3));
                /* blocks of the global transform: small ones (many global passes) or the
                 * device's 2^12 */
                g_sw = big || set; /* the kernels' shared-memory layout (radix 4 on set 0: plain) */
                sim_mul(r, a, na, b, nb, big, big ? 0 : set, si % 2 ? 12 : 2 + si % 4, T);
                CHECK(memcmp(r, w, (na + nb) * 8) == 0,
                      "%s product (set %d) %zu x %zu limbs kind %d differs",
                      big ? "global" : "batched", set, na, nb, kind);
            }
        }
        free(a), free(b), free(r), free(w);
    }
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), st = seed;
    tables_init();
    test_constants();
    test_modular(&st);
    test_transforms(&st);
    test_swizzle(&st);
    test_crt(&st);
    test_products(&st);
    return test_finish();
}
