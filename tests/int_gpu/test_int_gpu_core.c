/* The per-instance logic of the CUDA integer kernels (src/int/cuda/int_gpu_core.h), run on the
 * CPU against GMP: the register multiplication rows (with the emulated PTX carry flag), the
 * warp-column multiplication with its lane and warp carry lookahead (simulated lane by lane
 * exactly as mul_cols_kernel runs it), Montgomery powmod, the approximate Euclidean GCD and Knuth
 * division - each with strides 1 and > 1 (the column-major layout of the GPU). Runs without a
 * GPU; the device itself is tested by test_int_gpu (label gpu). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "int/cuda/int_gpu_core.h"
#include "int/cuda/int_gpu_gcd_core.h"
#include "test_util.h"

static uint64_t rng;
static int sanitized;

/* Random or structured words: kind cycles through 0, all ones, single bits, runs, random. */
static void fill(bg_word *p, size_t s, int n, int kind)
{
    for (int j = 0; j < n; j++) {
        uint64_t v = test_structured_limb(&rng, kind);
        BG_AT(p, s, j) = (bg_word)(v >> (kind & 1 ? 0 : 32));
    }
    if (kind == 7 && n > 1) /* short numbers inside wide instances */
        for (int j = 1 + (int)(test_rand(&rng) % (unsigned)n); j < n; j++) BG_AT(p, s, j) = 0;
}

static void to_mpz(mpz_t z, const bg_word *p, size_t s, int n)
{
    bg_word *t = malloc(sizeof(bg_word) * (size_t)(n ? n : 1));
    for (int j = 0; j < n; j++) t[j] = BG_AT(p, s, j);
    mpz_import(z, (size_t)n, -1, sizeof(bg_word), 0, 0, t);
    free(t);
}

/* p (n words at stride s) = z mod 2^(32 n), z >= 0. */
static void from_mpz(bg_word *p, size_t s, int n, const mpz_t z)
{
    bg_word *t = calloc((size_t)(n ? n : 1) + 2 * mpz_size(z) + 2, sizeof(bg_word));
    size_t cnt;
    mpz_export(t, &cnt, -1, sizeof(bg_word), 0, 0, z);
    for (int j = 0; j < n; j++) BG_AT(p, s, j) = t[j];
    free(t);
}

/* 1 when p (n words at stride s) equals z (which must fit). */
static int eq_mpz(const bg_word *p, size_t s, int n, const mpz_t z)
{
    mpz_t t;
    mpz_init(t);
    to_mpz(t, p, s, n);
    int ok = mpz_cmp(t, z) == 0;
    mpz_clear(t);
    return ok;
}

/* ---- register rows -------------------------------------------------------------------------- */

static void test_rows(void)
{
    for (int nw = 1; nw <= 32; nw++) {
        for (int rep = 0; rep < 64; rep++) {
            bg_word a[32], b[32];
            fill(a, 1, nw, rep);
            fill(b, 1, nw, rep / 3 + 1);
            if (rep == 5) memcpy(b, a, sizeof(bg_word) * (size_t)nw); /* square */
            bg_word re[64], rse[64], rle[32];
            bg_mul_rows_eo(re, a, b, nw);
            bg_mullo_rows_eo(rle, a, b, nw);
            bg_sqr_rows_eo(rse, a, nw);
            mpz_t x, y, p;
            mpz_inits(x, y, p, NULL);
            to_mpz(x, a, 1, nw);
            to_mpz(y, b, 1, nw);
            mpz_mul(p, x, y);
            CHECK(eq_mpz(re, 1, 2 * nw, p), "bg_mul_rows_eo nw=%d rep=%d", nw, rep);
            mpz_t sq;
            mpz_init(sq);
            mpz_mul(sq, x, x);
            CHECK(eq_mpz(rse, 1, 2 * nw, sq), "bg_sqr_rows_eo nw=%d rep=%d", nw, rep);
            mpz_clear(sq);
            mpz_fdiv_r_2exp(p, p, (mp_bitcnt_t)(32 * nw));
            CHECK(eq_mpz(rle, 1, nw, p), "bg_mullo_rows_eo nw=%d rep=%d", nw, rep);
            mpz_clears(x, y, p, NULL);
        }
    }
}

/* bg_mul_rect_eo (the even/odd rows of an na x nb product, full or truncated to n words) at
 * every shape up to BG_EO_MAXW x BG_EO_MAXW words (the kernels' 20-limb capacity), random,
 * all-ones and mixed operands, against GMP; at na = nb also bg_sqr_rows_eo (of a) and
 * bg_mullo_rows_eo beyond the 32 words test_rows covers. */
static void test_rect_eo(void)
{
    enum { W = BG_EO_MAXW };
    for (int na = 1; na <= W; na++)
        for (int nb = 1; nb <= W; nb++)
            for (int rep = 0; rep < 6; rep++) {
                bg_word a[W], b[W], r[2 * W];
                fill(a, 1, na, rep);
                fill(b, 1, nb, rep + 3);
                if (rep == 4) memset(a, 0xff, sizeof a);
                if (rep >= 4) memset(b, 0xff, sizeof b);
                memset(r, 0x5a, sizeof r);
                int n = rep % 3 == 0 ? na + nb : rep % 3 == 1 ? nb : nb + na / 2;
                bg_mul_rect_eo(r, a, na, b, nb, n);
                mpz_t x, y, p;
                mpz_inits(x, y, p, NULL);
                to_mpz(x, a, 1, na);
                to_mpz(y, b, 1, nb);
                mpz_mul(p, x, y);
                mpz_fdiv_r_2exp(p, p, (mp_bitcnt_t)(32 * n));
                CHECK(eq_mpz(r, 1, n, p), "bg_mul_rect_eo na=%d nb=%d n=%d rep=%d", na, nb, n, rep);
                if (na == nb && na > 32) {
                    bg_mullo_rows_eo(r, a, b, na);
                    mpz_fdiv_r_2exp(p, p, (mp_bitcnt_t)(32 * na));
                    CHECK(eq_mpz(r, 1, na, p), "bg_mullo_rows_eo nw=%d rep=%d", na, rep);
                    mpz_mul(p, x, x);
                    bg_sqr_rows_eo(r, a, na);
                    CHECK(eq_mpz(r, 1, 2 * na, p), "bg_sqr_rows_eo nw=%d rep=%d", na, rep);
                }
                mpz_clears(x, y, p, NULL);
            }
}

/* ---- warp-column multiplication, simulated -------------------------------------------------- */

/* out (4 limbs words) = a * b (N = 2 limbs words each), following mul_cols_kernel phase by phase:
 * the same core calls per lane, shuffles and ballots written out as loops over lanes. */
static void sim_cols(bg_word *out, const bg_word *a, const bg_word *b, int limbs)
{
    const int N = 2 * limbs, C = 2 * N, T = (C + BG_COLS_PER_TASK - 1) / BG_COLS_PER_TASK;
    const int q = bg_bpad_q(N);
    bg_word *bq = calloc((size_t)4 * q, sizeof(bg_word));
    bg_word *sH = calloc((size_t)3 * T, sizeof(bg_word));
    uint32_t *sG = calloc((size_t)T, sizeof(uint32_t)), *sP = calloc((size_t)T, sizeof(uint32_t));
    for (int jp = 0; jp < N + 2 * BG_PAD; jp++) {
        int j = jp - BG_PAD;
        bq[bg_bpad_pos(jp, q)] = (j >= 0 && j < N) ? b[j] : 0;
    }
    memset(out, 0xa5, sizeof(bg_word) * (size_t)C); /* poison: every word must be written */
    for (int t = 0; t < T; t++) { /* phase A */
        int ilo, ihi;
        bg_task_range(t, N, &ilo, &ihi);
        bg_word L[32][4], H[32][3];
        for (int lane = 0; lane < 32; lane++) {
            bg_word acc[12];
            bg_col4_lane(acc, a, bq, q, t * BG_COLS_PER_TASK + 4 * lane, ilo, ihi);
            bg_col4_finish(acc, L[lane], H[lane]);
        }
        uint32_t G = 0;
        for (int lane = 0; lane < 32; lane++) {
            bg_word Hp[3] = {0, 0, 0};
            if (lane > 0) memcpy(Hp, H[lane - 1], sizeof Hp);
            bg_word g = bg_add_h(L[lane], Hp);
            G |= (uint32_t)(g != 0) << lane;
            int k0 = t * BG_COLS_PER_TASK + 4 * lane;
            if (k0 < C) memcpy(out + k0, L[lane], sizeof(bg_word) * 4);
        }
        memcpy(sH + 3 * t, H[31], sizeof(bg_word) * 3);
        sG[t] = G;
    }
    for (int t = 0; t < T; t++) { /* phase B */
        uint32_t G = 0, P = 0;
        for (int lane = 0; lane < 32; lane++) {
            int k0 = t * BG_COLS_PER_TASK + 4 * lane;
            int in = k0 < C;
            bg_word L[4] = {0, 0, 0, 0};
            if (in) memcpy(L, out + k0, sizeof L);
            bg_word g = (sG[t] >> lane) & 1;
            if (lane == 0 && t > 0) {
                g = bg_add_h(L, sH + 3 * (t - 1));
                if (in) memcpy(out + k0, L, sizeof L);
            }
            int p = in && (L[0] & L[1] & L[2] & L[3]) == 0xffffffffu;
            G |= (uint32_t)(g != 0) << lane;
            P |= (uint32_t)p << lane;
        }
        sG[t] = G;
        sP[t] = P;
    }
    for (int t = 0; t < T; t++) { /* phase C */
        uint32_t cin = 0, cout;
        for (int u = 0; u < t; u++) {
            bg_warp_carries(sG[u], sP[u], cin, &cout);
            cin = cout;
        }
        uint32_t mask = bg_warp_carries(sG[t], sP[t], cin, &cout);
        for (int lane = 0; lane < 32; lane++) {
            int k0 = t * BG_COLS_PER_TASK + 4 * lane;
            if (((mask >> lane) & 1) && k0 < C)
                for (int k = 0; k < 4; k++)
                    if (++out[k0 + k] != 0) break;
        }
    }
    free(bq);
    free(sH);
    free(sG);
    free(sP);
}

static void test_cols(void)
{
    static const int sizes[] = {1, 2, 3, 5, 16, 17, 20, 31, 32, 33, 48, 64, 96, 128, 256, 1024};
    int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    for (int si = 0; si < nsizes; si++) {
        int limbs = sizes[si], N = 2 * limbs;
        int reps = limbs >= 256 ? (sanitized ? 1 : 3) : 12;
        bg_word *a = malloc(sizeof(bg_word) * (size_t)N), *b = malloc(sizeof(bg_word) * (size_t)N);
        bg_word *r = malloc(sizeof(bg_word) * (size_t)2 * N);
        for (int rep = 0; rep < reps; rep++) {
            fill(a, 1, N, rep + 1);
            fill(b, 1, N, rep + 2);
            if (rep == 0) { /* all ones: every column carries, long propagate runs */
                memset(a, 0xff, sizeof(bg_word) * (size_t)N);
                memset(b, 0xff, sizeof(bg_word) * (size_t)N);
            }
            sim_cols(r, a, b, limbs);
            mpz_t x, y, p;
            mpz_inits(x, y, p, NULL);
            to_mpz(x, a, 1, N);
            to_mpz(y, b, 1, N);
            mpz_mul(p, x, y);
            CHECK(eq_mpz(r, 1, 2 * N, p), "warp-column mul limbs=%d rep=%d", limbs, rep);
            mpz_clears(x, y, p, NULL);
        }
        free(a);
        free(b);
        free(r);
    }
    /* the carry lookahead alone, against a ripple over lanes */
    for (int rep = 0; rep < 2000; rep++) {
        uint32_t G = (uint32_t)test_rand(&rng), P = (uint32_t)test_rand(&rng) & ~G;
        if (rep % 3 == 0) P = ~G;
        uint32_t cin = (uint32_t)(rep & 1), cout, want = 0, c = cin;
        uint32_t mask = bg_warp_carries(G, P, cin, &cout);
        for (int l = 0; l < 32; l++) {
            want |= c << l;
            c = ((G >> l) & 1) | (((P >> l) & 1) & c);
        }
        CHECK(mask == want && cout == c, "bg_warp_carries G=%08x P=%08x", G, P);
    }
}

/* out (4 limbs words) = a * b by sum-rotate with G lanes of P words, following mul_sr_kernel:
 * rows in groups of P with rotating slots, lane 0 emitting finished columns, then the columns
 * turned into words one 4G-column task at a time with the lane lookahead. */
static void sim_sr(bg_word *out, const bg_word *a, const bg_word *b, int limbs, int P, int G)
{
    const int N = 2 * limbs, NP = G * P, C = 2 * N;
    bg_word *sb = calloc((size_t)NP, sizeof(bg_word));
    bg_word *col = calloc((size_t)3 * 2 * NP, sizeof(bg_word)); /* c0, c1, c2 arrays */
    bg_word *c0 = col, *c1 = col + 2 * NP, *c2 = col + 4 * NP;
    bg_word av[32][16], acc[32][48];
    for (int k = 0; k < NP; k++) sb[k] = k < N ? b[k] : 0;
    for (int l = 0; l < G; l++) {
        for (int q = 0; q < P; q++) av[l][q] = P * l + q < N ? a[P * l + q] : 0;
        for (int q = 0; q < 3 * P; q++) acc[l][q] = 0;
    }
    for (int i0 = 0; i0 < NP; i0 += P)
        for (int u = 0; u < P; u++) {
            bg_word bi = sb[i0 + u];
            for (int l = 0; l < G; l++) bg_sr_row(acc[l], av[l], bi, u, P);
            int ph = u % P;
            c0[i0 + u] = acc[0][3 * ph];
            c1[i0 + u] = acc[0][3 * ph + 1];
            c2[i0 + u] = acc[0][3 * ph + 2];
            for (int l = 0; l < G; l++)
                for (int e = 0; e < 3; e++) /* shfl_down by 1 within G; the last lane gets 0 */
                    acc[l][3 * ph + e] = l < G - 1 ? acc[l + 1][3 * ph + e] : 0;
        }
    for (int l = 0; l < G; l++)
        for (int q = 0; q < P; q++) {
            c0[NP + P * l + q] = acc[l][3 * q];
            c1[NP + P * l + q] = acc[l][3 * q + 1];
            c2[NP + P * l + q] = acc[l][3 * q + 2];
        }
    memset(out, 0xa5, sizeof(bg_word) * (size_t)C);
    bg_word Hprev[3] = {0, 0, 0};
    uint32_t cin = 0;
    for (int t = 0; t * 4 * G < 2 * NP; t++) {
        bg_word L[32][4], H[32][3];
        uint32_t Gm = 0, Pm = 0;
        for (int l = 0; l < G; l++) {
            int k0 = t * 4 * G + 4 * l;
            bg_word a12[12] = {0};
            if (k0 < 2 * NP)
                for (int c = 0; c < 4; c++) {
                    a12[3 * c] = c0[k0 + c];
                    a12[3 * c + 1] = c1[k0 + c];
                    a12[3 * c + 2] = c2[k0 + c];
                }
            bg_col4_finish(a12, L[l], H[l]);
        }
        for (int l = 0; l < G; l++) {
            const bg_word *hp = l > 0 ? H[l - 1] : Hprev;
            bg_word g = bg_add_h(L[l], hp);
            int k0 = t * 4 * G + 4 * l;
            int p = k0 < C && (L[l][0] & L[l][1] & L[l][2] & L[l][3]) == 0xffffffffu;
            Gm |= (uint32_t)(g != 0) << l;
            Pm |= (uint32_t)p << l;
        }
        uint32_t cout, mask = bg_lane_carries(Gm, Pm, cin, G, &cout);
        for (int l = 0; l < G; l++) {
            int k0 = t * 4 * G + 4 * l;
            if ((mask >> l) & 1)
                for (int k = 0; k < 4; k++)
                    if (++L[l][k] != 0) break;
            if (k0 < C) memcpy(out + k0, L[l], sizeof(bg_word) * 4);
        }
        memcpy(Hprev, H[G - 1], sizeof Hprev);
        cin = cout;
    }
    free(sb);
    free(col);
}

static void test_sr(void)
{
    static const int sizes[] = {1, 5, 16, 17, 20, 31, 32, 33, 48, 64, 96, 128, 200, 256};
    static const int groups[] = {8, 16, 32}; /* the compiled group sizes */
    for (int si = 0; si < 14; si++)
        for (int gi = 0; gi < 3; gi++) {
            int limbs = sizes[si], N = 2 * limbs, G = groups[gi];
            int P = (N + G - 1) / G;
            if (P < 2) P = 2;
            if (P > 16) continue;
            for (int extra = 0; extra <= 1 && P + extra <= 16; extra++) {
                int PP = P + extra; /* also with more padding than needed */
                bg_word *a = malloc(sizeof(bg_word) * (size_t)N), *b = malloc(sizeof(bg_word) * (size_t)N);
                bg_word *r = malloc(sizeof(bg_word) * (size_t)2 * N);
                for (int rep = 0; rep < 8; rep++) {
                    fill(a, 1, N, rep + 1);
                    fill(b, 1, N, rep + 4);
                    if (rep % 4 == 0) {
                        memset(a, 0xff, sizeof(bg_word) * (size_t)N);
                        memset(b, 0xff, sizeof(bg_word) * (size_t)N);
                    }
                    sim_sr(r, a, b, limbs, PP, G);
                    mpz_t x, y, z;
                    mpz_inits(x, y, z, NULL);
                    to_mpz(x, a, 1, N);
                    to_mpz(y, b, 1, N);
                    mpz_mul(z, x, y);
                    CHECK(eq_mpz(r, 1, 2 * N, z), "sum-rotate mul limbs=%d G=%d P=%d rep=%d", limbs, G, PP, rep);
                    mpz_clears(x, y, z, NULL);
                }
                free(a);
                free(b);
                free(r);
            }
        }
    /* the group lookahead at every width against a ripple */
    for (int rep = 0; rep < 3000; rep++) {
        int width = 2 << (rep % 5);
        uint32_t m = width == 32 ? 0xffffffffu : (1u << width) - 1;
        uint32_t G = (uint32_t)test_rand(&rng) & m, P = (uint32_t)test_rand(&rng) & ~G & m;
        if (rep % 5 == 0) P = ~G & m;
        uint32_t cin = (uint32_t)(rep & 1), cout, want = 0, c = cin;
        uint32_t mask = bg_lane_carries(G, P, cin, width, &cout);
        for (int l = 0; l < width; l++) {
            want |= c << l;
            c = ((G >> l) & 1) | (((P >> l) & 1) & c);
        }
        CHECK(mask == want && cout == c, "bg_lane_carries width %d G=%08x P=%08x", width, G, P);
    }
}

/* Karatsuba's glue: sums and the combination, with the half products from GMP. */
static void test_kara(void)
{
    static const int sizes[] = {2, 4, 6, 16, 64, 512, 1024};
    for (int si = 0; si < 7; si++) {
        int L = sizes[si], h = L / 2;
        uint64_t *a = malloc(8 * (size_t)L), *b = malloc(8 * (size_t)L), *r = malloc(16 * (size_t)L);
        uint64_t *sa = malloc(8 * (size_t)h), *sb = malloc(8 * (size_t)h);
        uint64_t *z0 = calloc((size_t)2 * h, 8), *z1 = calloc((size_t)2 * h, 8), *z2 = calloc((size_t)2 * h, 8);
        for (int rep = 0; rep < 10; rep++) {
            for (int j = 0; j < L; j++) {
                a[j] = test_structured_limb(&rng, rep);
                b[j] = test_structured_limb(&rng, rep + 3);
            }
            if (rep == 0) { memset(a, 0xff, 8 * (size_t)L); memset(b, 0xff, 8 * (size_t)L); }
            int ca = (int)bg_add64_n(sa, a, a + h, h), cb = (int)bg_add64_n(sb, b, b + h, h);
            mpn_mul_n((mp_limb_t *)z0, (const mp_limb_t *)a, (const mp_limb_t *)b, h);
            mpn_mul_n((mp_limb_t *)z2, (const mp_limb_t *)(a + h), (const mp_limb_t *)(b + h), h);
            mpn_mul_n((mp_limb_t *)z1, (const mp_limb_t *)sa, (const mp_limb_t *)sb, h);
            bg_kara_combine(r, z0, z1, z2, sa, sb, ca, cb, h);
            uint64_t *want = malloc(16 * (size_t)L);
            mpn_mul_n((mp_limb_t *)want, (const mp_limb_t *)a, (const mp_limb_t *)b, L);
            CHECK(memcmp(r, want, 16 * (size_t)L) == 0, "karatsuba combine limbs=%d rep=%d", L, rep);
            free(want);
        }
        free(a); free(b); free(r); free(sa); free(sb); free(z0); free(z1); free(z2);
    }
}

/* ---- powmod, gcd, divmod over strided words ------------------------------------------------- */

/* An array of n words at stride s inside a buffer (other slots poisoned). */
static bg_word *strided(int n, size_t s)
{
    size_t len = (size_t)(n ? n : 1) * s + 4;
    bg_word *p = malloc(sizeof(bg_word) * len);
    for (size_t k = 0; k < len; k++) p[k] = 0xdeadbeefu;
    return p;
}

static void test_powmod(void)
{
    static const int sizes[] = {2, 3, 4, 6, 10, 16, 32};
    for (int si = 0; si < 7; si++) {
        int nw = sizes[si];
        int reps = nw >= 32 ? (sanitized ? 2 : 6) : 14;
        for (int rep = 0; rep < reps; rep++) {
            size_t s = rep % 2 ? 3 : 1;
            bg_word *b = strided(nw, s), *e = strided(nw, s), *m = strided(nw, s);
            bg_word *r = strided(nw, s);
            bg_word *scr = strided((int)bg_powmod_scratch_words(nw), s);
            fill(b, s, nw, rep + 3);
            fill(e, s, nw, rep + 6);
            fill(m, s, nw, rep + 7);
            BG_AT(m, s, 0) |= 1;
            if (rep == 1) BG_AT(m, s, 0) &= ~1u;   /* even modulus */
            if (rep == 2) { bg_zero(m, s, nw); BG_AT(m, s, 0) = 1; } /* m = 1 */
            if (rep == 3) bg_zero(e, s, nw);       /* exponent 0 */
            if (rep == 4) for (int j = 0; j < nw; j++) BG_AT(b, s, j) = 0xffffffffu; /* base > m */
            if (rep == 5) { bg_zero(m, s, nw); BG_AT(m, s, nw - 1) = 0x80000000u; BG_AT(m, s, 0) = 1; }
            bg_word *r2 = strided(nw, s), *scr2 = strided((int)bg_powmod_scratch_words(nw), s);
            int rc = bg_powmod(r, b, e, m, scr, s, nw);
            int rc2 = bg_powmod_regs(r2, b, e, m, scr2, s, nw);
            CHECK(rc == rc2 && bg_cmp(r, s, r2, s, nw) == 0, "powmod regs != generic nw=%d rep=%d", nw, rep);
            free(r2);
            free(scr2);
            mpz_t B, E, M, R;
            mpz_inits(B, E, M, R, NULL);
            to_mpz(B, b, s, nw);
            to_mpz(E, e, s, nw);
            to_mpz(M, m, s, nw);
            if (mpz_even_p(M)) {
                CHECK(rc == 1 && bg_len(r, s, nw) == 0, "powmod even modulus nw=%d", nw);
            } else {
                mpz_powm(R, B, E, M);
                CHECK(rc == 0 && eq_mpz(r, s, nw, R), "powmod nw=%d rep=%d stride=%zu", nw, rep, s);
            }
            mpz_clears(B, E, M, R, NULL);
            free(b); free(e); free(m); free(r); free(scr);
        }
    }
}

static void test_gcd(void)
{
    static const int sizes[] = {1, 2, 3, 4, 6, 10, 32, 34, 128, 512, 2048};
    for (int si = 0; si < 11; si++) {
        int nw = sizes[si];
        int reps = nw >= 512 ? (sanitized ? 2 : 6) : 40;
        for (int rep = 0; rep < reps; rep++) {
            size_t s = rep % 2 ? 5 : 1;
            bg_word *a = strided(nw, s), *b = strided(nw, s), *g = strided(nw, s);
            bg_word *X = strided(nw, s), *Y = strided(nw, s);
            fill(a, s, nw, rep);
            fill(b, s, nw, rep / 2 + 3);
            mpz_t A, B, Gm, F;
            mpz_inits(A, B, Gm, F, NULL);
            switch (rep % 10) {
            case 1: bg_copy(b, s, a, s, nw); break; /* equal */
            case 2: bg_zero(b, s, nw); break;       /* gcd(a, 0) = a */
            case 3: { /* large common factor: a = f x, b = 8 f y (rebuilt below) */
                int h = nw / 2 > 0 ? nw / 2 : 1;
                bg_word *f = strided(h, 1);
                fill(f, 1, h, 6);
                to_mpz(F, f, 1, h);
                free(f);
                break;
            }
            default: break;
            }
            to_mpz(A, a, s, nw);
            to_mpz(B, b, s, nw);
            if (rep % 10 == 3 && mpz_sgn(F) > 0) { /* rebuild a and b as multiples of F */
                mpz_t x;
                mpz_init(x);
                mpz_fdiv_q_2exp(x, A, (mp_bitcnt_t)(16 * nw));
                mpz_mul(A, F, x);
                mpz_fdiv_q_2exp(x, B, (mp_bitcnt_t)(16 * nw));
                mpz_add_ui(x, x, 1);
                mpz_mul(B, F, x);
                mpz_mul_2exp(B, B, 3);
                mpz_fdiv_r_2exp(A, A, (mp_bitcnt_t)(32 * nw));
                mpz_fdiv_r_2exp(B, B, (mp_bitcnt_t)(32 * nw));
                from_mpz(a, s, nw, A);
                from_mpz(b, s, nw, B);
                mpz_clear(x);
            }
            bg_gcd(g, a, b, X, Y, s, nw);
            mpz_gcd(Gm, A, B);
            CHECK(eq_mpz(g, s, nw, Gm), "gcd nw=%d rep=%d stride=%zu", nw, rep, s);
            mpz_clears(A, B, Gm, F, NULL);
            free(a); free(b); free(g); free(X); free(Y);
        }
    }
    /* every pair of small values, through one-word numbers */
    for (bg_word x = 0; x < 200; x++)
        for (bg_word y = 0; y < 200; y++) {
            bg_word g, X, Y;
            bg_gcd(&g, &x, &y, &X, &Y, 1, 1);
            mpz_t A, B, G;
            mpz_init_set_ui(A, x);
            mpz_init_set_ui(B, y);
            mpz_init(G);
            mpz_gcd(G, A, B);
            CHECK(mpz_cmp_ui(G, g) == 0, "gcd(%u, %u) = %u", x, y, g);
            mpz_clears(A, B, G, NULL);
        }
}

/* bg_gcd_divsteps (the register GCD kernel's code) against GMP: widths 1 .. 64 words at the
 * kernel's capacity (4, 8, 16, 32, 64) and at capacity = width, strides 1 and 3, random and
 * structured operands (0, all ones, powers of two, top word 1, equal, a large common factor,
 * common powers of two, consecutive Fibonacci numbers: Euclid's worst case), and every pair
 * of values below 160 in one word. */
static void test_gcd_divsteps(void)
{
    static const int sizes[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 17, 24, 31, 32, 33, 48, 63, 64};
    mpz_t A, B, Gm, T;
    mpz_inits(A, B, Gm, T, NULL);
    for (int si = 0; si < 18; si++) {
        int nw = sizes[si], kcap = nw <= 4 ? 4 : nw <= 8 ? 8 : nw <= 16 ? 16 : nw <= 32 ? 32 : 64;
        int reps = sanitized ? 60 : nw > 32 ? 200 : 400;
        for (int rep = 0; rep < reps; rep++) {
            size_t s = rep % 3 == 2 ? 3 : 1;
            int cap = rep % 2 ? nw : kcap;
            bg_word *a = strided(nw, s), *b = strided(nw, s), *g = strided(nw, s);
            fill(a, s, nw, rep);
            fill(b, s, nw, rep / 3 + 1);
            int k = (int)(test_rand(&rng) % (unsigned)(32 * nw));
            switch (rep % 12) {
            case 1: bg_copy(b, s, a, s, nw); break;                  /* equal */
            case 2: bg_zero(rep % 24 == 2 ? a : b, s, nw); break;    /* one zero */
            case 3: bg_zero(a, s, nw); bg_zero(b, s, nw); break;     /* both zero */
            case 4: /* powers of two */
                bg_zero(a, s, nw);
                BG_AT(a, s, k / 32) = 1u << (k % 32);
                break;
            case 5: /* all ones against a power of two times random */
                for (int j = 0; j < nw; j++) BG_AT(a, s, j) = 0xffffffffu;
                for (int j = 0; j < k / 32; j++) BG_AT(b, s, j) = 0;
                break;
            case 6: /* top word 1 */
                BG_AT(a, s, nw - 1) = 1;
                BG_AT(b, s, nw - 1) = 1;
                break;
            default: break;
            }
            to_mpz(A, a, s, nw);
            to_mpz(B, b, s, nw);
            int rebuilt = 1;
            if (rep % 12 == 7) { /* a large common factor and common powers of two */
                mpz_fdiv_q_2exp(T, A, (mp_bitcnt_t)(16 * nw));
                mpz_fdiv_q_2exp(A, B, (mp_bitcnt_t)(24 * nw));
                mpz_add_ui(A, A, 1);
                mpz_mul(A, A, T);
                mpz_fdiv_q_2exp(B, B, (mp_bitcnt_t)(20 * nw));
                mpz_add_ui(B, B, 3);
                mpz_mul(B, B, T);
                mpz_mul_2exp(A, A, (mp_bitcnt_t)(k % 8));
                mpz_mul_2exp(B, B, (mp_bitcnt_t)(k % 5));
            } else if (rep % 12 == 8) { /* consecutive Fibonacci numbers below 2^(32 nw) */
                unsigned long f = (unsigned long)(32 * nw) * 1430 / 1000;
                mpz_fib2_ui(A, B, f);
                mpz_mul_2exp(A, A, (mp_bitcnt_t)(k % 3));
                mpz_mul_2exp(B, B, (mp_bitcnt_t)(k % 3));
            } else {
                rebuilt = 0;
            }
            if (rebuilt) {
                mpz_fdiv_r_2exp(A, A, (mp_bitcnt_t)(32 * nw));
                mpz_fdiv_r_2exp(B, B, (mp_bitcnt_t)(32 * nw));
                from_mpz(a, s, nw, A);
                from_mpz(b, s, nw, B);
            }
            for (int j = 0; j < nw; j++) BG_AT(g, s, j) = 0x5a5a5a5au;
            bg_gcd_divsteps(g, a, b, s, nw, cap);
            mpz_gcd(Gm, A, B);
            CHECK(eq_mpz(g, s, nw, Gm), "gcd divsteps nw=%d cap=%d rep=%d stride=%zu", nw, cap,
                  rep, s);
            free(a); free(b); free(g);
        }
    }
    for (bg_word x = 0; x < 160; x++)
        for (bg_word y = 0; y < 160; y++) {
            bg_word g;
            bg_gcd_divsteps(&g, &x, &y, 1, 1, (x + y) % 2 ? 1 : 4);
            mpz_set_ui(A, x);
            mpz_set_ui(B, y);
            mpz_gcd(Gm, A, B);
            CHECK(mpz_cmp_ui(Gm, g) == 0, "gcd divsteps(%u, %u) = %u", x, y, g);
        }
    mpz_clears(A, B, Gm, T, NULL);
}

static void test_divmod(void)
{
    static const int sizes[] = {1, 2, 3, 4, 6, 10, 32, 34, 128, 1024};
    for (int si = 0; si < 10; si++) {
        int nv = sizes[si];
        int reps = nv >= 1024 ? (sanitized ? 2 : 6) : 40;
        for (int rep = 0; rep < reps; rep++) {
            int nu = rep % 2 ? 2 * nv : nv;
            size_t s = rep % 3 ? 1 : 4;
            bg_word *u = strided(nu, s), *v = strided(nv, s), *q = strided(nu, s);
            bg_word *r = strided(nv, s), *un = strided(nu + 1, s), *vn = strided(nv, s);
            fill(u, s, nu, rep);
            fill(v, s, nv, rep / 2 + 1);
            switch (rep % 12) {
            case 2: bg_zero(v, s, nv); break;                           /* division by zero */
            case 4: bg_zero(v, s, nv); BG_AT(v, s, 0) = 1; break;       /* d = 1 */
            case 6: bg_copy(v, s, u, s, nv < nu ? nv : nu); break;      /* d = low part of a */
            case 8: /* qhat corrections: u all ones, v = 0x8000..0001 */
                for (int j = 0; j < nu; j++) BG_AT(u, s, j) = 0xffffffffu;
                bg_zero(v, s, nv);
                BG_AT(v, s, nv - 1) = 0x80000000u;
                BG_AT(v, s, 0) |= 1;
                break;
            case 10: /* single-word divisor inside a wide instance */
                bg_zero(v, s, nv);
                BG_AT(v, s, 0) = (bg_word)test_rand(&rng) | 1;
                break;
            default: break;
            }
            int rc = bg_divmod(q, r, u, nu, v, nv, un, vn, s);
            if (nv <= BG_DIV_MAXW) { /* the register version at every capacity that fits */
                for (int NW = 4; NW <= BG_DIV_MAXW; NW *= 2) {
                    if (NW < nv) continue;
                    /* the complemented even/odd rows with the quotient loop rolled, as the
                     * staged kernel runs them (kDivmodRolled = 8 steps an iteration) */
                    bg_word *q4 = strided(nu, s), *r4 = strided(nv, s);
                    int rc4 = bg_divmod_regs_eor(q4, r4, u, nu, v, nv, s, NW, 8);
                    if (BG_AT(v, s, nv - 1) == 0) {
                        CHECK(rc4 == -1, "divmod_regs_eor must decline a short divisor");
                    } else {
                        CHECK(rc4 == 0 && bg_cmp(q, s, q4, s, nu) == 0 && bg_cmp(r, s, r4, s, nv) == 0,
                              "divmod_regs_eor NW=%d nu=%d nv=%d rep=%d", NW, nu, nv, rep);
                    }
                    /* in place, as the staged kernel calls it: q over u, r over v */
                    bg_word *u5 = strided(nu, s), *v5 = strided(nv, s);
                    bg_copy(u5, s, u, s, nu);
                    bg_copy(v5, s, v, s, nv);
                    if (BG_AT(v, s, nv - 1) != 0) {
                        int rc5 = bg_divmod_regs_eor(u5, v5, u5, nu, v5, nv, s, NW, 8);
                        CHECK(rc5 == 0 && bg_cmp(q, s, u5, s, nu) == 0 && bg_cmp(r, s, v5, s, nv) == 0,
                              "divmod_regs_eor in place NW=%d nu=%d nv=%d rep=%d", NW, nu, nv, rep);
                    }
                    free(u5);
                    free(v5);
                    free(q4);
                    free(r4);
                }
            }
            mpz_t U, V, Q, R;
            mpz_inits(U, V, Q, R, NULL);
            to_mpz(U, u, s, nu);
            to_mpz(V, v, s, nv);
            if (mpz_sgn(V) == 0) {
                CHECK(rc == 1 && bg_len(q, s, nu) == 0 && bg_len(r, s, nv) == 0,
                      "divmod by zero nv=%d", nv);
            } else {
                mpz_tdiv_qr(Q, R, U, V);
                CHECK(rc == 0 && eq_mpz(q, s, nu, Q) && eq_mpz(r, s, nv, R),
                      "divmod nu=%d nv=%d rep=%d stride=%zu", nu, nv, rep, s);
            }
            mpz_clears(U, V, Q, R, NULL);
            free(u); free(v); free(q); free(r); free(un); free(vn);
        }
    }
}

/* Small numbers over a few extreme word values: these reach Knuth's rare add-back step (the
 * estimate qhat one too large after both corrections), which random words almost never do. */
static void test_divmod_extremes(void)
{
    static const bg_word vals[] = {0, 1, 2, 3, 0x7fffffffu, 0x80000000u, 0x80000001u,
                                   0xfffffffeu, 0xffffffffu, 0x20000000u, 0x0000fffeu};
    int reps = sanitized ? 20000 : 100000;
    for (int rep = 0; rep < reps; rep++) {
        bg_word u[4], v[3], q[4], r[3], un[5], vn[3];
        for (int j = 0; j < 4; j++) u[j] = vals[test_rand(&rng) % 11];
        for (int j = 0; j < 3; j++) v[j] = vals[test_rand(&rng) % 11];
        int rc = bg_divmod(q, r, u, 4, v, 3, un, vn, 1);
        if (v[2] != 0)
            for (int NW = 4; NW <= 8; NW *= 4) {
                bg_word q4[4], r4[3];
                int rc4 = bg_divmod_regs_eor(q4, r4, u, 4, v, 3, 1, NW, 8);
                CHECK(rc4 == 0 && memcmp(q, q4, sizeof q4) == 0 && memcmp(r, r4, sizeof r4) == 0,
                      "divmod_regs_eor extremes NW=%d u=%08x.%08x.%08x.%08x v=%08x.%08x.%08x",
                      NW, u[3], u[2], u[1], u[0], v[2], v[1], v[0]);
            }
        mpz_t U, V, Q, R;
        mpz_inits(U, V, Q, R, NULL);
        to_mpz(U, u, 1, 4);
        to_mpz(V, v, 1, 3);
        if (mpz_sgn(V) == 0) {
            CHECK(rc == 1, "divmod by zero");
        } else {
            mpz_tdiv_qr(Q, R, U, V);
            CHECK(rc == 0 && eq_mpz(q, 1, 4, Q) && eq_mpz(r, 1, 3, R),
                  "divmod extremes u=%08x.%08x.%08x.%08x v=%08x.%08x.%08x", u[3], u[2], u[1],
                  u[0], v[2], v[1], v[0]);
        }
        mpz_clears(U, V, Q, R, NULL);
    }
}

/* bg_recip3by2 against floor((B^3 - 1) / d) - B and bg_div3by2 against the 96-by-64-bit
 * division, both in unsigned __int128, on random and edge words: d1 = 2^31 and B - 1, d0 = 0
 * and B - 1, (n2, n1) = (d1, d0) - 1, n0 = 0 and B - 1. */
static void test_div3by2(void)
{
    static const bg_word d1v[] = {0x80000000u, 0x80000001u, 0xffffffffu, 0xfffffffeu, 0xc0000000u};
    static const bg_word d0v[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu};
    int reps = sanitized ? 200000 : 1000000;
    for (int rep = 0; rep < reps; rep++) {
        bg_word d1 = rep % 4 == 0 ? d1v[test_rand(&rng) % 5] : (bg_word)test_rand(&rng) | 0x80000000u;
        bg_word d0 = rep % 3 == 0 ? d0v[test_rand(&rng) % 5] : (bg_word)test_rand(&rng);
        const uint64_t d = ((uint64_t)d1 << 32) | d0;
        const unsigned __int128 b3 = (unsigned __int128)1 << 96;
        const bg_word dinv = bg_recip3by2(d1, d0);
        const unsigned __int128 want_inv = (b3 - 1) / d - ((uint64_t)1 << 32);
        CHECK(want_inv >> 32 == 0 && dinv == (bg_word)want_inv, "recip3by2 %08x%08x: %08x", d1, d0,
              dinv);
        uint64_t top = test_rand(&rng) % d; /* (n2, n1) < (d1, d0) */
        if (rep % 8 == 1) top = d - 1;
        if (rep % 32 == 5) top = 0;
        if (rep % 16 == 7) top = d - 1 - (test_rand(&rng) & 0xffff) % d;
        bg_word n0 = (bg_word)test_rand(&rng);
        if (rep % 8 == 3) n0 = rep % 16 == 3 ? 0 : 0xffffffffu;
        const unsigned __int128 num = ((unsigned __int128)top << 32) | n0;
        const bg_word qw = bg_div3by2((bg_word)(top >> 32), (bg_word)top, n0, d1, d0, dinv);
        CHECK(num / d == qw, "div3by2 %016llx%08x / %016llx: %08x", (unsigned long long)top, n0,
              (unsigned long long)d, qw);
    }
}

/* Knuth's add-back step in bg_divmod_regs_eor at the full widths (NW = 4 .. 32 words, u of 2 NW,
 * v of NW words, v's top bit set so no shift): v = (d1, d0, all ones below) and the top quotient
 * word's window W = qd (d1, d0, 0, ..) + e with e < B^(NW - 2), so the 3-by-2 estimate from the
 * top words is qd while the true word is qd - 1 (checked here with GMP): the row goes negative
 * and the add-back must repair it. Results against GMP. */
static void test_divmod_addback(void)
{
    int reps = sanitized ? 60 : 300;
    for (int NW = 4; NW <= BG_DIV_MAXW; NW *= 2) {
        const int nu = 2 * NW, nv = NW;
        mpz_t U, V, Q, R, W, T;
        mpz_inits(U, V, Q, R, W, T, NULL);
        for (int rep = 0; rep < reps; rep++) {
            bg_word u[2 * BG_DIV_MAXW], v[BG_DIV_MAXW], q[2 * BG_DIV_MAXW], r[BG_DIV_MAXW];
            bg_word d1 = (bg_word)test_rand(&rng) | 0x80000000u, d0 = (bg_word)test_rand(&rng);
            if (rep % 5 == 1) d0 = 0xffffffffu;
            bg_word qd = (bg_word)test_rand(&rng) | 2;
            if (rep % 7 == 3) qd = 0xffffffffu;
            for (int k = 0; k < nv - 2; k++) v[k] = 0xffffffffu;
            v[nv - 2] = d0;
            v[nv - 1] = d1;
            /* the window: qd (d1, d0) B^(NW - 2) + e, e of NW - 2 random words */
            bg_word w[BG_DIV_MAXW + 1];
            uint64_t c = 0;
            for (int k = 0; k < NW - 2; k++) w[k] = (bg_word)test_rand(&rng);
            c = (uint64_t)qd * d0;
            w[NW - 2] = (bg_word)c;
            c = (uint64_t)qd * d1 + (c >> 32);
            w[NW - 1] = (bg_word)c;
            w[NW] = (bg_word)(c >> 32);
            /* u = window B^(NW - 1) + random low words: u has 2 NW words, so the window's top
             * word w[NW] is un[2 NW] - it must be 0 for u to fit: qd (d1 B + d0) < B^2 needs
             * qd < B - ... so take the window one word lower when w[NW] != 0 */
            if (w[NW] != 0) { /* shift the construction down: quotient word NW - 1 instead */
                for (int k = 0; k < NW; k++) u[k] = (bg_word)test_rand(&rng);
                for (int k = 0; k < NW; k++) u[NW + k] = w[k + 1];
                u[NW - 1] = w[0];
            } else {
                for (int k = 0; k < NW; k++) u[k] = (bg_word)test_rand(&rng);
                for (int k = 0; k < NW; k++) u[NW + k] = w[k];
            }
            to_mpz(U, u, 1, nu);
            to_mpz(V, v, 1, nv);
            /* the estimate for the first quotient word whose window reaches the planted one */
            mpz_tdiv_q_2exp(W, U, (mp_bitcnt_t)(32 * (w[NW] != 0 ? NW - 1 : NW)));
            mpz_tdiv_q(T, W, V);
            mpz_tdiv_q_2exp(W, W, (mp_bitcnt_t)(32 * (NW - 2)));
            bg_word t3[3] = {0, 0, 0};
            from_mpz(t3, 1, 3, W);
            bg_word est = (t3[2] == d1 && t3[1] == d0)
                              ? 0xffffffffu
                              : bg_div3by2(t3[2], t3[1], t3[0], d1, d0, bg_recip3by2(d1, d0));
            CHECK(mpz_cmp_ui(T, est) < 0, "addback case NW=%d rep=%d: estimate %08x not too large",
                  NW, rep, est);
            mpz_tdiv_qr(Q, R, U, V);
            {
                const int steps = 8; /* kDivmodRolled */
                int rc = bg_divmod_regs_eor(q, r, u, nu, v, nv, 1, NW, steps);
                CHECK(rc == 0 && eq_mpz(q, 1, nu, Q) && eq_mpz(r, 1, nv, R),
                      "divmod_regs_eor U=%d addback NW=%d rep=%d", steps, NW, rep);
                bg_copy(q, 1, u, 1, nu); /* in place (q over u, r over v) */
                bg_copy(r, 1, v, 1, nv);
                rc = bg_divmod_regs_eor(q, r, q, nu, r, nv, 1, NW, steps);
                CHECK(rc == 0 && eq_mpz(q, 1, nu, Q) && eq_mpz(r, 1, nv, R),
                      "divmod_regs_eor U=%d addback in place NW=%d rep=%d", steps, NW, rep);
            }
        }
        mpz_clears(U, V, Q, R, W, T, NULL);
    }
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    sanitized = test_sanitized();
    test_rows();
    test_rect_eo();
    test_cols();
    test_sr();
    test_kara();
    test_powmod();
    test_gcd();
    test_gcd_divsteps();
    test_divmod();
    test_divmod_extremes();
    test_div3by2();
    test_divmod_addback();
    return test_finish();
}
