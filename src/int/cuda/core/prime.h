/* The Baillie-PSW test of int/prime_core.h for one instance on 32-bit words at stride s, over
 * the strided Montgomery product of core/mont.h (R = 2^(32 nw), nw the padded word count; any
 * R > n gives the same residues as the CPU's R = 2^(64 mn), so the same answers). The isprime
 * kernel (num/prime.cu) runs bg_isprime_one per thread; tests/int_gpu/test_int_prime_gpu_core.c
 * runs it on the host against the CPU code and GMP.
 *
 * bg_isprime_one returns 0 (composite), 1 (probable prime), or 2 when n got through
 * BULK_PRIME_SQUARE_CHECK Selfridge candidates without Jacobi -1: the perfect-square check that
 * follows needs an integer square root, which is left to the CPU (the public wrapper reruns
 * those instances there; they are squares or very rare). Trial division here is by the odd
 * primes below 256 only (core/trial.h); the CPU divides by more primes, which changes no answer
 * unless a composite passes Baillie-PSW. */
#ifndef BULK_INT_CUDA_CORE_PRIME_H
#define BULK_INT_CUDA_CORE_PRIME_H

#include "int/cuda/core/mont.h"
#include "int/cuda/core/trial.h"
#include "int/prime_core.h"

/* Trailing zero bits of a nonzero word. */
BULK_HD int bg_p_ctz32(bg_word x)
{
    int z = 0;
    while (!(x & 1)) x >>= 1, z++;
    return z;
}

/* The per-instance working set: nw-word numbers at stride s, carved from the scratch. */
typedef struct bg_pstate {
    const bg_word *m;
    bg_word *one, *mone, *r2, *x, *y, *b, *U, *V, *Qk, *Dm, *Qm, *e, *t;
    size_t s;
    int nw;
    bg_word minv;
} bg_pstate;

/* Scratch words per instance: 11 numbers, e (nw + 1), t (nw + 2); the R^2 division's
 * u (2nw + 1), un (2nw + 2), vn (nw) reuse the numbers from x on before they are used. */
BULK_HD size_t bg_prime_scratch_words(int nw) { return (size_t)13 * nw + 3; }

BULK_HD void bg_p_mmul(const bg_pstate *P, bg_word *r, const bg_word *a, const bg_word *b)
{
    bg_mont_mul(r, a, b, P->m, P->t, P->s, P->nw, P->minv);
}

/* r = x + y mod m (x, y < m; r may be x or y). */
BULK_HD void bg_p_add_mod(const bg_pstate *P, bg_word *r, const bg_word *x, const bg_word *y)
{
    uint64_t c = 0;
    for (int j = 0; j < P->nw; j++) {
        c += (uint64_t)BG_AT(x, P->s, j) + BG_AT(y, P->s, j);
        BG_AT(r, P->s, j) = (bg_word)c;
        c >>= 32;
    }
    if (c || bg_cmp(r, P->s, P->m, P->s, P->nw) >= 0) bg_sub_inplace(r, P->s, P->m, P->s, P->nw);
}

/* r = x - y mod m. */
BULK_HD void bg_p_sub_mod(const bg_pstate *P, bg_word *r, const bg_word *x, const bg_word *y)
{
    uint64_t br = 0;
    for (int j = 0; j < P->nw; j++) {
        uint64_t d = (uint64_t)BG_AT(x, P->s, j) - BG_AT(y, P->s, j) - br;
        BG_AT(r, P->s, j) = (bg_word)d;
        br = (d >> 32) & 1;
    }
    if (br) {
        uint64_t c = 0;
        for (int j = 0; j < P->nw; j++) {
            c += (uint64_t)BG_AT(r, P->s, j) + BG_AT(P->m, P->s, j);
            BG_AT(r, P->s, j) = (bg_word)c;
            c >>= 32;
        }
    }
}

/* x = x / 2 mod m (m odd). */
BULK_HD void bg_p_half_mod(const bg_pstate *P, bg_word *x)
{
    uint64_t c = 0;
    if (BG_AT(x, P->s, 0) & 1)
        for (int j = 0; j < P->nw; j++) {
            c += (uint64_t)BG_AT(x, P->s, j) + BG_AT(P->m, P->s, j);
            BG_AT(x, P->s, j) = (bg_word)c;
            c >>= 32;
        }
    for (int j = 0; j < P->nw; j++) {
        bg_word hi = j + 1 < P->nw ? BG_AT(x, P->s, j + 1) : (bg_word)c;
        BG_AT(x, P->s, j) = (BG_AT(x, P->s, j) >> 1) | (hi << 31);
    }
}

BULK_HD int bg_p_is_zero(const bg_pstate *P, const bg_word *x) { return bg_len(x, P->s, P->nw) == 0; }
BULK_HD int bg_p_eq(const bg_pstate *P, const bg_word *x, const bg_word *y)
{
    return bg_cmp(x, P->s, y, P->s, P->nw) == 0;
}

/* n mod d for a small d (nw words of n). */
BULK_HD uint32_t bg_p_mod_small(const bg_word *n, size_t s, int nw, uint32_t d)
{
    uint64_t r = 0;
    for (int j = nw; j-- > 0;) r = ((r << 32) | BG_AT(n, s, j)) % d;
    return (uint32_t)r;
}

/* e (we words) >>= its trailing zero bits, which are returned (e != 0). */
BULK_HD int bg_p_strip_twos(bg_word *e, size_t s, int we)
{
    int z = 0;
    while (BG_AT(e, s, z / 32) == 0) z += 32;
    z += bg_p_ctz32(BG_AT(e, s, z / 32));
    int ws = z / 32, bs = z % 32;
    for (int j = 0; j < we; j++) {
        bg_word lo = j + ws < we ? BG_AT(e, s, j + ws) : 0;
        bg_word hi = j + ws + 1 < we ? BG_AT(e, s, j + ws + 1) : 0;
        BG_AT(e, s, j) = bs ? (lo >> bs) | (hi << (32 - bs)) : lo;
    }
    return z;
}

BULK_HD int bg_p_ebit(const bg_word *e, size_t s, int i) { return (BG_AT(e, s, i / 32) >> (i % 32)) & 1; }

/* The strong test to the base whose Montgomery form is b (in P->b): n - 1 = d 2^r. */
BULK_HD int bg_p_strong_test(const bg_pstate *P)
{
    int nw = P->nw;
    size_t s = P->s;
    bg_copy(P->e, s, P->m, s, nw);
    BG_AT(P->e, s, 0) -= 1; /* n odd: no borrow */
    int r = bg_p_strip_twos(P->e, s, nw);
    int top = bg_len(P->e, s, nw) * 32 - 1;
    while (!bg_p_ebit(P->e, s, top)) top--;
    bg_copy(P->x, s, P->b, s, nw);
    for (int i = top - 1; i >= 0; i--) {
        bg_p_mmul(P, P->x, P->x, P->x);
        if (bg_p_ebit(P->e, s, i)) bg_p_mmul(P, P->x, P->x, P->b);
    }
    if (bg_p_eq(P, P->x, P->one) || bg_p_eq(P, P->x, P->mone)) return 1;
    for (int i = 1; i < r; i++) {
        bg_p_mmul(P, P->x, P->x, P->x);
        if (bg_p_eq(P, P->x, P->mone)) return 1;
        if (bg_p_eq(P, P->x, P->one)) return 0;
    }
    return 0;
}

/* c (small) in Montgomery form: c R mod m by repeated addition, negated when neg. */
BULK_HD void bg_p_small_mont(const bg_pstate *P, bg_word *r, uint32_t c, int neg)
{
    bg_zero(r, P->s, P->nw);
    for (uint32_t k = 0; k < c; k++) bg_p_add_mod(P, r, r, P->one);
    if (neg && !bg_p_is_zero(P, r)) {
        bg_copy(P->x, P->s, P->m, P->s, P->nw);
        bg_sub_inplace(P->x, P->s, r, P->s, P->nw);
        bg_copy(r, P->s, P->x, P->s, P->nw);
    }
}

/* The strong Lucas test with Selfridge's parameters: 0, 1, or 2 (undecided: square check). */
BULK_HD int bg_p_strong_lucas(const bg_pstate *P, uint64_t n0)
{
    int nw = P->nw;
    size_t s = P->s;
    int64_t D = 0;
    for (unsigned k = 0;; k++) {
        if (k == BULK_PRIME_SQUARE_CHECK) return 2;
        D = bulk_selfridge_d(k);
        uint32_t ad = (uint32_t)(D < 0 ? -D : D);
        int j = bulk_selfridge_jacobi(D, bg_p_mod_small(P->m, s, nw, ad), n0);
        if (j == 0) return 0; /* n >= 2^16 > |D|: a proper factor */
        if (j == -1) break;
    }
    int64_t Q = (1 - D) / 4;
    bg_p_small_mont(P, P->Dm, (uint32_t)(D < 0 ? -D : D), D < 0);
    bg_p_small_mont(P, P->Qm, (uint32_t)(Q < 0 ? -Q : Q), Q < 0);
    /* n + 1 = d 2^r (nw + 1 words) */
    uint64_t c = 1;
    for (int j = 0; j < nw; j++) {
        c += BG_AT(P->m, s, j);
        BG_AT(P->e, s, j) = (bg_word)c;
        c >>= 32;
    }
    BG_AT(P->e, s, nw) = (bg_word)c;
    int r = bg_p_strip_twos(P->e, s, nw + 1);
    int top = bg_len(P->e, s, nw + 1) * 32 - 1;
    while (!bg_p_ebit(P->e, s, top)) top--;
    bg_copy(P->U, s, P->one, s, nw);
    bg_copy(P->V, s, P->one, s, nw);
    bg_copy(P->Qk, s, P->Qm, s, nw);
    for (int i = top - 1; i >= 0; i--) {
        bg_p_mmul(P, P->U, P->U, P->V);
        bg_p_mmul(P, P->V, P->V, P->V);
        bg_p_sub_mod(P, P->V, P->V, P->Qk);
        bg_p_sub_mod(P, P->V, P->V, P->Qk);
        bg_p_mmul(P, P->Qk, P->Qk, P->Qk);
        if (bg_p_ebit(P->e, s, i)) {
            bg_p_mmul(P, P->x, P->U, P->Dm);
            bg_p_add_mod(P, P->x, P->x, P->V);
            bg_p_add_mod(P, P->y, P->U, P->V);
            bg_p_half_mod(P, P->y);
            bg_p_half_mod(P, P->x);
            bg_copy(P->U, s, P->y, s, nw);
            bg_copy(P->V, s, P->x, s, nw);
            bg_p_mmul(P, P->Qk, P->Qk, P->Qm);
        }
    }
    if (bg_p_is_zero(P, P->U) || bg_p_is_zero(P, P->V)) return 1;
    for (int i = 1; i < r; i++) {
        bg_p_mmul(P, P->V, P->V, P->V);
        bg_p_sub_mod(P, P->V, P->V, P->Qk);
        bg_p_sub_mod(P, P->V, P->V, P->Qk);
        if (bg_p_is_zero(P, P->V)) return 1;
        if (i + 1 < r) bg_p_mmul(P, P->Qk, P->Qk, P->Qk);
    }
    return 0;
}

BULK_HD int bg_isprime_one(const bg_word *n, bg_word *S, size_t s, int nw, unsigned rounds)
{
    /* the words the launcher allows (32 limbs); the bound also tells the compiler that the
     * division below (2 nw + 1 words) cannot run past an int */
    if (nw < 1 || nw > 64) return 2;
    /* n < 4, even n, a factor below 256 or n < 2^16 decide (core/trial.h) */
    int v = bg_trial_one(n, s, nw);
    if (v != 2) return v;
    int len = bg_len(n, s, nw);
    uint64_t n0 = BG_AT(n, s, 0);
    if (len > 1) n0 |= (uint64_t)BG_AT(n, s, 1) << 32;

    bg_pstate PS, *P = &PS;
    P->m = n, P->s = s, P->nw = nw;
    bg_word *w = S;
    P->one = w, P->mone = w + (size_t)nw * s, P->r2 = w + (size_t)2 * nw * s;
    P->x = w + (size_t)3 * nw * s, P->y = P->x + (size_t)nw * s, P->b = P->y + (size_t)nw * s;
    P->U = P->b + (size_t)nw * s, P->V = P->U + (size_t)nw * s, P->Qk = P->V + (size_t)nw * s;
    P->Dm = P->Qk + (size_t)nw * s, P->Qm = P->Dm + (size_t)nw * s;
    P->e = P->Qm + (size_t)nw * s;                 /* nw + 1 words */
    P->t = P->e + (size_t)(nw + 1) * s;            /* nw + 2 words */
    P->minv = bg_mont_minv(BG_AT(n, s, 0));
    /* r2 = R^2 mod n by one division (u, un, vn over x .. Qm: 8 nw >= 5 nw + 3 words) */
    {
        bg_word *u = P->x, *un = u + (size_t)(2 * nw + 1) * s, *vn = un + (size_t)(2 * nw + 2) * s;
        bg_zero(u, s, 2 * nw);
        BG_AT(u, s, 2 * nw) = 1;
        bg_divmod((bg_word *)0, P->r2, u, 2 * nw + 1, n, nw, un, vn, s);
    }
    bg_zero(P->x, s, nw);
    BG_AT(P->x, s, 0) = 1;
    bg_p_mmul(P, P->one, P->r2, P->x); /* R mod n */
    bg_copy(P->mone, s, n, s, nw);
    bg_sub_inplace(P->mone, s, P->one, s, nw);
    bg_p_add_mod(P, P->b, P->one, P->one); /* 2 */
    if (!bg_p_strong_test(P)) return 0;
    int l = bg_p_strong_lucas(P, n0);
    if (l != 1) return l;
    if (rounds == 0) return 1;
    size_t mn = (size_t)(len + 1) / 2;
    uint64_t h = 0x7072696d65ull; /* bulk_prime_hash over n's 64-bit limbs */
    for (size_t i = 0; i < mn; i++) {
        uint64_t limb = BG_AT(n, s, 2 * i);
        if ((int)(2 * i + 1) < nw) limb |= (uint64_t)BG_AT(n, s, 2 * i + 1) << 32;
        h = bulk_prime_mix(h ^ limb);
    }
    h = bulk_prime_mix(h ^ (uint64_t)mn);
    for (unsigned j = 0; j < rounds; j++) {
        uint64_t b[2];
        bulk_prime_base(b, h, j, n0, mn);
        bg_zero(P->y, s, nw);
        BG_AT(P->y, s, 0) = (bg_word)b[0];
        BG_AT(P->y, s, 1) = (bg_word)(b[0] >> 32);
        if (nw > 2) BG_AT(P->y, s, 2) = (bg_word)b[1];
        bg_p_mmul(P, P->b, P->y, P->r2); /* the base (< n) in Montgomery form */
        if (!bg_p_strong_test(P)) return 0;
    }
    return 1;
}

#endif
