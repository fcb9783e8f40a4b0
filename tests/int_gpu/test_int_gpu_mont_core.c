/* The cooperative Montgomery powmod (src/int/cuda/core/mont_coop.h) and the GPU modular
 * inverse (src/int/cuda/core/invmod.h), run on the CPU against GMP.
 *
 * The powmod kernel (src/int/cuda/num/powmod_coop.cu) runs TPI lanes per instance that
 * exchange words by warp shuffles and ballots between the per-lane steps of mont_coop.h. Here
 * the same steps run for TPI simulated lanes, with every exchange done exactly as the kernel
 * does it (sim_mul, sim_condsub, sim_double and sim_powmod mirror mc_mul, mc_condsub,
 * mc_double and one group's steps of powmod_coop_kernel line by line; the kernel's loop over
 * the groups of a warp is tested on the device), for every compiled shape (TPI 2..32, L
 * 2..16) at widths 64 .. 8192 bits, against mpz_powm; the carry lookahead against a serial
 * carry chain for every generate/propagate pattern of 8 lanes. The cooperative full product
 * (core/mul_coop.h, mul/mul_coop.cu) the same way, against mpz_mul. Runs without a GPU; the device
 * is tested by test_int_gpu_powmod (label gpu). --seed S replays a run. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "int/cuda/int_gpu_core.h"
#include "lucas_sim.h" /* mont_sim.h, and sim_sub_words */
#include "test_util.h"

static uint64_t rng;
static int sanitized;

/* powmod_coop_kernel for one instance (nw words each); returns 1 for an even or zero m. */
static int sim_powmod(bg_word *out, const bg_word *base, const bg_word *e, const bg_word *mw, int nw,
                      int T, int L)
{
    static lanes m, acc, slot[BG_MC_SLOTS], B;
    const int N = T * L;
    to_lanes(m, mw, nw, T, L);
    bg_word m0 = m[0][0];
    int hi_nz = 0;
    for (int l = 0; l < T; l++)
        for (int j = 0; j < L; j++) hi_nz |= (l || j) && m[l][j];
    memset(out, 0, sizeof(bg_word) * (size_t)nw);
    if (!(m0 & 1) || !(hi_nz || m0 > 1)) return !(m0 & 1);
    bg_word minv = bg_mont_minv(m0);
    int mbits = 0;
    for (int w = N - 1; w >= 0 && !mbits; w--)
        if (m[w / L][w % L]) mbits = 32 * w + 32 - __builtin_clz(m[w / L][w % L]);
    memset(acc, 0, sizeof acc);
    acc[(mbits - 1) / 32 / L][(mbits - 1) / 32 % L] = 1u << ((mbits - 1) & 31);
    int D = bg_mc_doublings(N, mbits);
    for (int i = 0; i < D; i++) sim_double(acc, m, T, L);
    for (int i = 0; i < 5; i++) sim_mul(acc, acc, acc, m, minv, T, L); /* R^2 mod m */
    to_lanes(B, base, nw, T, L);
    sim_mul(B, B, acc, m, minv, T, L); /* base R */
    memcpy(slot[0], B, sizeof B);
    sim_mul(acc, B, B, m, minv, T, L); /* base^2 R */
    for (int k = 1; k < BG_MC_SLOTS; k++) {
        sim_mul(B, B, acc, m, minv, T, L);
        memcpy(slot[k], B, sizeof B);
    }
    bg_expwalk w;
    int op, idx = 0;
    bg_expwalk_init(&w, e, 1, nw);
    do op = bg_expwalk_next(&w, e, 1, &idx);
    while (op == 1);
    if (op != 2) { /* a zero exponent */
        out[0] = 1;
        return 0;
    }
    memcpy(acc, slot[idx], sizeof acc);
    do {
        op = bg_expwalk_next(&w, e, 1, &idx);
        for (int l = 0; l < T; l++)
            for (int j = 0; j < L; j++)
                B[l][j] = op == 2 ? slot[idx][l][j] : op == 0 ? (bg_word)(l == 0 && j == 0) : acc[l][j];
        sim_mul(acc, acc, B, m, minv, T, L);
    } while (op != 0);
    from_lanes(out, acc, nw, T, L);
    return 0;
}

/* ---- GMP helpers ----------------------------------------------------------------------------- */

static void to_mpz(mpz_t z, const bg_word *p, size_t s, int n)
{
    bg_word *t = test_xmalloc(sizeof(bg_word) * (size_t)(n ? n : 1));
    for (int j = 0; j < n; j++) t[j] = BG_AT(p, s, j);
    mpz_import(z, (size_t)n, -1, sizeof(bg_word), 0, 0, t);
    free(t);
}

static void fill(bg_word *p, size_t s, int n, int kind)
{
    for (int j = 0; j < n; j++) {
        uint64_t v = test_structured_limb(&rng, kind);
        BG_AT(p, s, j) = (bg_word)(v >> (kind & 1 ? 0 : 32));
    }
    if (kind == 7 && n > 1) /* short numbers inside wide instances */
        for (int j = 1 + (int)(test_rand(&rng) % (unsigned)n); j < n; j++) BG_AT(p, s, j) = 0;
}

static void print_hex(const char *name, const bg_word *p, size_t s, int n)
{
    fprintf(stderr, "  %s = 0x", name);
    for (int j = n - 1; j >= 0; j--) fprintf(stderr, "%08x", BG_AT(p, s, j));
    fputc('\n', stderr);
}

/* ---- tests ------------------------------------------------------------------------------------ */

/* Every generate/propagate pattern of 8 lanes against a serial carry chain. */
static void test_lookahead(void)
{
    for (int T = 1; T <= 8; T *= 2)
        for (uint32_t g = 0; g < (1u << T); g++)
            for (uint32_t p = 0; p < (1u << T); p++) {
                if (g & p) continue;
                int c = 0;
                uint32_t want = 0;
                for (int l = 0; l < T; l++) {
                    want |= (uint32_t)c << l;
                    c = ((g >> l) & 1) || (((p >> l) & 1) && c);
                }
                int out;
                uint32_t got = bg_mc_lookahead(g, p, T, &out) & ((1u << T) - 1);
                CHECK(got == want && out == c, "lookahead T=%d g=%x p=%x: %x/%d, want %x/%d", T, g, p,
                      got, out, want, c);
            }
    int out;
    CHECK(bg_mc_lookahead(0x1u, 0xfffffffeu, 32, &out) == 0xfffffffeu && out == 1,
          "lookahead over 32 lanes");
}

/* x[pos ..] += v, the carry propagated up to word n - 1 (dropped above). */
static void add_at(bg_word *x, int n, int pos, uint64_t v)
{
    for (int k = pos; k < n && v; k++) {
        uint64_t s = (uint64_t)x[k] + (v & 0xffffffffu);
        x[k] = (bg_word)s;
        v = (v >> 32) + (s >> 32);
    }
}

/* One row and the division after it (bg_mc_row, bg_mc_shift: the even/odd chains into two
 * accumulators) against word-by-word products, at the extremes of their contract (every word
 * all ones, e and o at their bounds 3 D^L - 1 and 2 D^L - 1) and on random words within it,
 * every L; the bounds of mont_coop.h checked on the way. */
static void test_row(void)
{
    enum { W = MAXL + 3 };
    for (int L = 2; L <= MAXL; L = L < 8 ? L + 2 : 2 * L)
        for (int rep = 0; rep < 400; rep++) {
            bg_word a[MAXL], m[MAXL], e[MAXL + 2] = {0}, o[MAXL + 2] = {0}, want[W] = {0},
                                                   got[W] = {0};
            int ones = rep < 16;
            for (int j = 0; j < L; j++) {
                a[j] = ones && (rep & 1) ? 0xffffffffu : (bg_word)test_rand(&rng);
                m[j] = ones && (rep & 2) ? 0xffffffffu : (bg_word)test_rand(&rng);
                e[j] = ones && (rep & 4) ? 0xffffffffu : (bg_word)test_rand(&rng);
                o[j] = ones && (rep & 8) ? 0xffffffffu : (bg_word)test_rand(&rng);
            }
            e[L] = ones ? 2 : (bg_word)(test_rand(&rng) % 3);
            o[L] = ones ? 1 : (bg_word)(test_rand(&rng) % 2);
            bg_word bi = ones ? 0xffffffffu : (bg_word)test_rand(&rng);
            bg_word q = ones ? 0xffffffffu : (bg_word)test_rand(&rng);
            bg_word x = ones ? 0xffffffffu : (bg_word)test_rand(&rng);
            for (int j = 0; j <= L; j++) {
                add_at(want, W, j, e[j]);
                add_at(want, W, j, o[j]);
            }
            for (int j = 0; j < L; j++) {
                add_at(want, W, j, (uint64_t)a[j] * bi);
                add_at(want, W, j, (uint64_t)m[j] * q);
            }
            bg_mc_row(e, o, a, m, bi, q, L);
            for (int j = 0; j < L + 2; j++) {
                add_at(got, W, j, e[j]);
                add_at(got, W, j, o[j]);
            }
            CHECK(memcmp(got, want, sizeof got) == 0 && o[0] == 0 && e[L] <= 5 && e[L + 1] == 0 &&
                      o[L + 1] <= 2,
                  "mont row L=%d rep=%d", L, rep);
            /* the division: want / D + x D^(L - 1) */
            memmove(want, want + 1, sizeof(bg_word) * (W - 1));
            want[W - 1] = 0;
            add_at(want, W, L - 1, x);
            bg_mc_shift(e, o, x, L);
            memset(got, 0, sizeof got);
            for (int j = 0; j < L + 2; j++) {
                add_at(got, W, j, e[j]);
                add_at(got, W, j, o[j]);
            }
            CHECK(memcmp(got, want, sizeof got) == 0 && e[L] <= 2 && e[L + 1] == 0 && o[L] <= 1 &&
                      o[L + 1] == 0,
                  "mont shift L=%d rep=%d", L, rep);
            bg_word t[MAXL + 2];
            bg_mc_merge(t, e, o, L);
            CHECK(memcmp(t, want, sizeof(bg_word) * (size_t)(L + 2)) == 0 && t[L] <= 4,
                  "mont merge L=%d rep=%d", L, rep);
        }
}

/* Montgomery products: r = a b R^-1 mod m, r < m, for a < R, b < m, every shape. */
static void test_mont_mul(void)
{
    mpz_t A, B, M, R, Z, W;
    mpz_inits(A, B, M, R, Z, W, NULL);
    static bg_word a[MAXT * MAXL], b[MAXT * MAXL], m[MAXT * MAXL], r[MAXT * MAXL];
    static lanes la, lb, lm, lr;
    for (int T = 2; T <= MAXT; T *= 2)
        for (int L = 2; L <= MAXL; L = L < 8 ? L + 2 : 2 * L) {
            int N = T * L;
            for (int rep = 0; rep < (sanitized ? 4 : 40); rep++) {
                int nw = rep % 3 == 0 ? N : 1 + (int)(test_rand(&rng) % (unsigned)N);
                memset(a, 0, sizeof a);
                memset(b, 0, sizeof b);
                memset(m, 0, sizeof m);
                fill(m, 1, nw, rep);
                m[0] |= 1;
                if (rep % 5 == 1) m[nw - 1] |= 0x80000000u;
                fill(a, 1, N, rep + 3);
                fill(b, 1, nw, rep + 5);
                to_mpz(M, m, 1, N);
                if (mpz_cmp_ui(M, 1) == 0) continue;
                to_mpz(B, b, 1, N);
                mpz_mod(B, B, M);
                memset(b, 0, sizeof b);
                mpz_export(b, NULL, -1, sizeof(bg_word), 0, 0, B);
                to_mpz(A, a, 1, N);
                to_lanes(la, a, N, T, L);
                to_lanes(lb, b, N, T, L);
                to_lanes(lm, m, N, T, L);
                sim_mul(lr, la, lb, lm, bg_mont_minv(m[0]), T, L);
                from_lanes(r, lr, N, T, L);
                to_mpz(R, r, 1, N);
                mpz_set_ui(W, 1);
                mpz_mul_2exp(W, W, (mp_bitcnt_t)(32 * N));
                mpz_invert(W, W, M);
                mpz_mul(Z, A, B);
                mpz_mul(Z, Z, W);
                mpz_mod(Z, Z, M);
                CHECK(mpz_cmp(R, Z) == 0, "mont mul T=%d L=%d nw=%d rep=%d", T, L, nw, rep);
            }
        }
    mpz_clears(A, B, M, R, Z, W, NULL);
}

/* mul_coop_kernel for one instance (N = T L words each; lo: the N words lane 0 stores row by
 * row; the high half left in the lanes' words), the group's exchanges done by hand. */
static void sim_mul_full(bg_word *out, lanes a, lanes b, int T, int L)
{
    bg_word t[MAXT][MAXL + 2], o[MAXT][MAXL + 2];
    const int N = T * L;
    memset(t, 0, sizeof t);
    memset(o, 0, sizeof o);
    for (int s = 0; s < T; s++)
        for (int k = 0; k < L; k++) {
            bg_word bi = b[s][k]; /* shfl from lane s */
            for (int l = 0; l < T; l++) bg_mc_row_mul(t[l], o[l], a[l], bi, L);
            bg_word x[MAXT];
            for (int l = 0; l < T; l++) x[l] = l + 1 < T ? t[l + 1][0] : 0; /* shfl_down */
            out[s * L + k] = t[0][0];                                        /* lane 0 */
            for (int l = 0; l < T; l++) bg_mc_shift(t[l], o[l], x[l], L);
        }
    for (int l = 0; l < T; l++) bg_mc_merge(t[l], t[l], o[l], L);
    bg_word up[MAXT];
    for (int l = 0; l < T; l++) up[l] = l ? t[l - 1][L] : 0; /* shfl_up */
    uint32_t G = 0, P = 0;
    for (int l = 0; l < T; l++) {
        int p;
        G |= (uint32_t)bg_mc_norm1(t[l], up[l], L, &p) << l;
        P |= (uint32_t)p << l;
    }
    int cout;
    uint32_t cin = bg_mc_lookahead(G, P, T, &cout);
    for (int l = 0; l < T; l++) {
        bg_lc_inc(t[l], (int)((cin >> l) & 1), L);
        memcpy(out + N + l * L, t[l], sizeof(bg_word) * (size_t)L);
    }
    CHECK(cout == 0 && t[T - 1][L] == 0, "coop product T=%d L=%d: carry out of the top lane", T, L);
}

/* Cooperative full products (core/mul_coop.h) against mpz_mul, every shape the lanes allow
 * (T 2 .. 32, L 2 .. 16 even), full and zero-padded widths, random, all-ones and sparse words. */
static void test_mul_full(void)
{
    mpz_t A, B, Z, R;
    mpz_inits(A, B, Z, R, NULL);
    static bg_word a[MAXT * MAXL], b[MAXT * MAXL], r[2 * MAXT * MAXL];
    static lanes la, lb;
    for (int T = 2; T <= MAXT; T *= 2)
        for (int L = 2; L <= MAXL; L = L < 8 ? L + 2 : 2 * L) {
            const int N = T * L;
            for (int rep = 0; rep < (sanitized ? 4 : 30); rep++) {
                const int nw = rep % 3 == 0 ? N : 1 + (int)(test_rand(&rng) % (unsigned)N);
                memset(a, 0, sizeof a);
                memset(b, 0, sizeof b);
                fill(a, 1, nw, rep);
                fill(b, 1, nw, rep + 3);
                if (rep % 7 == 2) memset(a, 0xff, sizeof(bg_word) * (size_t)nw);
                if (rep % 7 >= 2 && rep % 7 <= 3) memset(b, 0xff, sizeof(bg_word) * (size_t)nw);
                to_lanes(la, a, N, T, L);
                to_lanes(lb, b, N, T, L);
                sim_mul_full(r, la, lb, T, L);
                to_mpz(A, a, 1, N);
                to_mpz(B, b, 1, N);
                to_mpz(R, r, 1, 2 * N);
                mpz_mul(Z, A, B);
                CHECK(mpz_cmp(R, Z) == 0, "coop product T=%d L=%d nw=%d rep=%d", T, L, nw, rep);
            }
        }
    mpz_clears(A, B, Z, R, NULL);
}

/* mul_kcoop_kernel for one instance: out (4 H words, H = T L) = a b (2 H words each) by one
 * Karatsuba step over three cooperative half products (core/mul_coop.h), the chunks' carries
 * passed up round by round as the kernel's barriers do. */
static void sim_kara(bg_word *out, const bg_word *a, const bg_word *b, int T, int L)
{
    static lanes a0, a1, b0, b1, d, e;
    static bg_word p[3][2 * MAXT * MAXL], w[3 * MAXT * MAXL / BG_KC_CHUNK][BG_KC_CHUNK];
    const int H = T * L, C = 3 * H / BG_KC_CHUNK;
    to_lanes(a0, a, H, T, L);
    to_lanes(a1, a + H, H, T, L);
    to_lanes(b0, b, H, T, L);
    to_lanes(b1, b + H, H, T, L);
    int sa = sim_sub_words(d, a0, a1, T, L);
    if (sa) sim_sub_words(d, a1, a0, T, L);
    int sb = sim_sub_words(e, b1, b0, T, L);
    if (sb) sim_sub_words(e, b0, b1, T, L);
    sim_mul_full(p[0], a0, b0, T, L);
    sim_mul_full(p[1], a1, b1, T, L);
    sim_mul_full(p[2], d, e, T, L);
    int co[3 * MAXT * MAXL / BG_KC_CHUNK], cin[3 * MAXT * MAXL / BG_KC_CHUNK];
    for (int c = 0; c < C; c++) { /* the chunk's terms, as the kernel loads them */
        const int k = BG_KC_CHUNK * c;
        const bg_word *x = k < H ? p[0] + H + k : p[1] + k - H;
        if (k < 2 * H) co[c] = bg_kc_sum4(w[c], x, p[0] + k, p[1] + k, p[2] + k, sa ^ sb);
        else memcpy(w[c], x, sizeof w[c]), co[c] = 0;
    }
    for (int round = 0;; round++) {
        int any = 0;
        for (int c = 0; c + 1 < C; c++) any |= co[c] != 0;
        if (!any) break;
        CHECK(round <= C, "Karatsuba carries T=%d L=%d: more rounds than chunks", T, L);
        for (int c = 0; c < C; c++) cin[c] = c ? co[c - 1] : 0;
        for (int c = 0; c < C; c++) co[c] = bg_kc_add(w[c], cin[c]);
    }
    memcpy(out, p[0], sizeof(bg_word) * (size_t)H);
    for (int c = 0; c < C; c++) memcpy(out + H + BG_KC_CHUNK * c, w[c], sizeof w[c]);
}

/* One Karatsuba step over cooperative half products against mpz_mul: groups of 2 .. 8 lanes of
 * 16 words and 4 .. 8 of 8, random, all-ones and sparse words, halves equal, and a0 < a1, b1 < b0
 * in every combination (the sign of the middle term). */
static void test_kara_coop(void)
{
    static const int shapes[][2] = {{2, 16}, {4, 16}, {8, 16}, {4, 8}, {8, 8}};
    static bg_word a[2 * MAXT * MAXL], b[2 * MAXT * MAXL], r[4 * MAXT * MAXL];
    mpz_t A, B, Z, R;
    mpz_inits(A, B, Z, R, NULL);
    for (int si = 0; si < 5; si++) {
        const int T = shapes[si][0], L = shapes[si][1], H = T * L;
        for (int rep = 0; rep < (sanitized ? 8 : 60); rep++) {
            fill(a, 1, 2 * H, rep);
            fill(b, 1, 2 * H, rep + 3);
            if (rep % 9 == 1) memset(a, 0xff, sizeof(bg_word) * (size_t)(2 * H));
            if (rep % 9 == 2) memset(b, 0xff, sizeof(bg_word) * (size_t)(2 * H));
            if (rep % 9 == 3) memcpy(a + H, a, sizeof(bg_word) * (size_t)H); /* a0 = a1 */
            if (rep % 9 == 4) memcpy(b + H, b, sizeof(bg_word) * (size_t)H);
            if (rep % 4 == 1) a[2 * H - 1] |= 0x80000000u, a[H - 1] &= 0x7fffffffu; /* a0 < a1 */
            if (rep % 4 == 2) b[H - 1] |= 0x80000000u, b[2 * H - 1] &= 0x7fffffffu; /* b1 < b0 */
            if (rep % 4 == 3) {
                a[2 * H - 1] |= 0x80000000u, a[H - 1] &= 0x7fffffffu;
                b[H - 1] |= 0x80000000u, b[2 * H - 1] &= 0x7fffffffu;
            }
            sim_kara(r, a, b, T, L);
            to_mpz(A, a, 1, 2 * H);
            to_mpz(B, b, 1, 2 * H);
            to_mpz(R, r, 1, 4 * H);
            mpz_mul(Z, A, B);
            CHECK(mpz_cmp(R, Z) == 0, "Karatsuba over coop products T=%d L=%d rep=%d", T, L, rep);
        }
    }
    mpz_clears(A, B, Z, R, NULL);
}

/* One simulated powmod against mpz_powm; prints the inputs on a mismatch. */
static void check_powmod(const bg_word *b, const bg_word *e, const bg_word *m, int nw, int T, int L,
                         const char *what)
{
    bg_word *r = test_xmalloc(sizeof(bg_word) * (size_t)nw);
    int st = sim_powmod(r, b, e, m, nw, T, L);
    mpz_t B, E, M, R, Z;
    mpz_inits(B, E, M, R, Z, NULL);
    to_mpz(B, b, 1, nw);
    to_mpz(E, e, 1, nw);
    to_mpz(M, m, 1, nw);
    to_mpz(R, r, 1, nw);
    int even = mpz_even_p(M);
    if (!even) mpz_powm(Z, B, E, M);
    int ok = even ? st == 1 && mpz_sgn(R) == 0 : st == 0 && mpz_cmp(R, Z) == 0;
    CHECK(ok, "coop powmod %s: %d bits T=%d L=%d", what, 32 * nw, T, L);
    if (!ok && test_failures <= 3) {
        print_hex("base", b, 1, nw);
        print_hex("exp", e, 1, nw);
        print_hex("m", m, 1, nw);
        print_hex("got", r, 1, nw);
    }
    mpz_clears(B, E, M, R, Z, NULL);
    free(r);
}

/* Random and structured powmods at every shape the kernel compiles, widths 64 .. 8192 bits;
 * exponents of 0, 1, 2, 64, 512 bits and full width (full width up to 2048 bits here). */
static void test_powmod_coop(void)
{
    static const int bits[] = {64, 256, 512, 1024, 1536, 2048, 3072, 4096, 8192};
    static bg_word b[256], e[256], m[256];
    for (size_t wi = 0; wi < sizeof bits / sizeof bits[0]; wi++) {
        int nw = bits[wi] / 32;
        for (int T = 2; T <= MAXT; T *= 2)
            for (int L = 2; L <= MAXL; L = L < 8 ? L + 2 : 2 * L) {
                if (T * L < nw || (T * L >= 2 * nw && T * L > 16)) continue; /* pads < 2x */
                int reps = sanitized ? 1 : nw <= 64 ? 6 : 2;
                for (int rep = 0; rep < reps; rep++) {
                    fill(m, 1, nw, rep + 6);
                    m[0] |= 1;
                    if (rep == 0) m[nw - 1] |= 0x80000000u;
                    fill(b, 1, nw, rep + 1);
                    static const int ebits[] = {0, 1, 2, 64, 512, -1};
                    for (size_t k = 0; k < sizeof ebits / sizeof ebits[0]; k++) {
                        int eb = ebits[k] < 0 || ebits[k] > 32 * nw ? 32 * nw : ebits[k];
                        if (eb == 32 * nw && nw > 64) continue; /* slow here: the GPU test has it */
                        if (sanitized && eb > 64) continue;
                        memset(e, 0, sizeof e);
                        for (int j = 0; j < (eb + 31) / 32; j++) e[j] = (bg_word)test_rand(&rng);
                        if (eb % 32) e[eb / 32] &= (1u << (eb % 32)) - 1;
                        if (eb) e[(eb - 1) / 32] |= 1u << ((eb - 1) % 32);
                        char what[64];
                        snprintf(what, sizeof what, "rep %d exp %d bits", rep, eb);
                        check_powmod(b, e, m, nw, T, L, what);
                    }
                }
            }
    }
    /* edges at 1024 bits, default shape and 2 x 16: base 0, base >= m, base = m, all-ones,
     * m = 1, even m */
    int nw = 32, T, L;
    for (int c = 0; c < 14; c++) {
        CHECK(bg_mc_shape(nw, c < 7 ? 0 : 2, &T, &L) == 1 && T * L == 32, "shape 1024");
        fill(m, 1, nw, 6);
        m[0] |= 1;
        fill(b, 1, nw, 6);
        fill(e, 1, nw, 6);
        int k = c % 7;
        if (k == 0) memset(b, 0, sizeof b);
        if (k == 1) memset(b, 0xff, sizeof(bg_word) * (size_t)nw);
        if (k == 2) memcpy(b, m, sizeof(bg_word) * (size_t)nw);
        if (k == 3) memset(m, 0xff, sizeof(bg_word) * (size_t)nw), memset(e, 0xff, sizeof(bg_word) * (size_t)nw);
        if (k == 4) memset(m, 0, sizeof m), m[0] = 1;
        if (k == 5) m[0] &= ~1u;
        if (k == 6) memset(m, 0, sizeof m), m[0] = 3;
        char what[32];
        snprintf(what, sizeof what, "edge %d", k);
        check_powmod(b, e, m, nw, T, L, what);
    }
}

/* The shape choice: holds the width, L <= 8, the wanted lanes when they can. */
static void test_shape(void)
{
    for (int nw = 1; nw <= BG_MC_MAX_WORDS + 1; nw++)
        for (int want = 0; want <= 32; want++) {
            int T = 0, L = 0, ok = bg_mc_shape(nw, want, &T, &L);
            if (nw > BG_MC_MAX_WORDS || want == 1 || (want == 0 && nw < BG_MC_MIN_WORDS)) {
                CHECK(!ok, "shape nw=%d want=%d: cooperative", nw, want);
                continue;
            }
            CHECK(ok && T * L >= nw && (L == 2 || L == 4 || L == 6 || L == 8 || L == 16) && T >= 4 &&
                      T <= 32 && (T & (T - 1)) == 0 && (L == 16 ? T * 8 < nw : T * L - nw < 2 * T),
                  "shape nw=%d want=%d: T=%d L=%d", nw, want, T, L);
            if (want >= 4 && (want & (want - 1)) == 0 && want * BG_MC_MAX_L >= nw)
                CHECK(T == want, "shape nw=%d want=%d: T=%d", nw, want, T);
            else /* the default: the fewest lanes with at most bg_mc_def_l(nw) words */
                CHECK(L <= bg_mc_def_l(nw) && (T == 4 || (T / 2) * bg_mc_def_l(nw) < nw),
                      "shape nw=%d want=%d: default T=%d L=%d", nw, want, T, L);
        }
}

/* bg_invmod against mpz_invert, strides 1 and 3, random and structured, every outcome. */
static void test_invmod(void)
{
    static const int words[] = {1, 2, 3, 4, 8, 16, 32, 48, 64, 128};
    mpz_t A, M, R, Z;
    mpz_inits(A, M, R, Z, NULL);
    for (size_t wi = 0; wi < sizeof words / sizeof words[0]; wi++) {
        int n = words[wi];
        for (size_t s = 1; s <= 3; s += 2) {
            bg_word *a = test_xmalloc(sizeof(bg_word) * (size_t)n * s);
            bg_word *m = test_xmalloc(sizeof(bg_word) * (size_t)n * s);
            bg_word *r = test_xmalloc(sizeof(bg_word) * (size_t)n * s);
            bg_word *sc = test_xmalloc(sizeof(bg_word) * bg_invmod_scratch_words(n) * s);
            int reps = sanitized ? 6 : n <= 16 ? 400 : 60;
            for (int rep = 0; rep < reps; rep++) {
                fill(a, s, n, rep);
                fill(m, s, n, rep / 8 + 1);
                if (rep % 4 == 0) BG_AT(m, s, 0) |= 1;             /* odd m */
                if (rep % 9 == 3) bg_zero(m, s, n), BG_AT(m, s, 0) = (bg_word)(rep % 3); /* 0, 1, 2 */
                if (rep % 11 == 5) bg_copy(a, s, m, s, n);        /* a = m */
                to_mpz(A, a, s, n);
                to_mpz(M, m, s, n);
                int st = bg_invmod(r, a, m, sc, s, n);
                to_mpz(R, r, s, n);
                int want, ok;
                if (mpz_sgn(M) == 0) {
                    want = BG_INV_DIVZERO;
                    ok = st == want && mpz_sgn(R) == 0;
                } else if (mpz_cmp_ui(M, 1) == 0) {
                    want = BG_INV_OK;
                    ok = st == want && mpz_sgn(R) == 0;
                } else if (mpz_invert(Z, A, M)) {
                    want = BG_INV_OK;
                    ok = st == want && mpz_cmp(R, Z) == 0;
                } else {
                    want = BG_INV_NONE;
                    ok = st == want && mpz_sgn(R) == 0;
                }
                CHECK(ok, "invmod n=%d s=%zu rep=%d: status %d, want %d", n, s, rep, st, want);
                if (!ok && test_failures <= 3) {
                    print_hex("a", a, s, n);
                    print_hex("m", m, s, n);
                    print_hex("got", r, s, n);
                }
            }
            free(a), free(m), free(r), free(sc);
        }
    }
    mpz_clears(A, M, R, Z, NULL);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    sanitized = test_sanitized();
    test_lookahead();
    test_shape();
    test_row();
    test_mont_mul();
    test_mul_full();
    test_kara_coop();
    test_invmod();
    test_powmod_coop();
    return test_finish();
}
