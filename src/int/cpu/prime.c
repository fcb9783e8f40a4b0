/* The Baillie-PSW test on the CPU (contract: int/cpu/prime.h; the test: int/prime_core.h), in
 * Montgomery arithmetic (int/cpu/mont.h) throughout: every value below is kept in Montgomery
 * form, which is linear, so sums, halving mod n and products by small integers act on it as on
 * plain residues, and 0 is 0.
 *
 * The Lucas part runs the binary ladder on (U_k, V_k, Q^k) for P = 1:
 *   U_2k = U_k V_k, V_2k = V_k^2 - 2 Q^k, Q^2k = (Q^k)^2,
 *   U_k+1 = (U_k + V_k) / 2, V_k+1 = (D U_k + V_k) / 2, Q^k+1 = Q Q^k,
 * three products per bit of n + 1 (GMP's mpz_stronglucas runs the same ladder with divisions). */
#include "int/cpu/prime.h"

#include "int/cpu/mont.h"
#include "int/mpn_div.h"
#include "int/prime_core.h"

/* The working set of one test: the Montgomery context and the values, carved from tp. */
struct bpsw {
    bulk_mont M;
    const bulk_limb_t *a;
    size_t n;
    bulk_limb_t *one, *mone, *x, *y, *e, *tbl, *big, *dtp;
    bulk_limb_t *U, *V, *Qk, *T;
};

size_t bulk_prime_bpsw_scratch(size_t n)
{
    /* Montgomery 7n; one, mone, x, y (4n); e (n + 1); the window table for n-limb exponents;
     * big (2n + 2); U, V, Qk, T (4n + 1); divmod of 2n + 1 by n; isqrt's (4n + 4) in x.. */
    return bulk_mont_scratch(n) + 4 * n + n + 1 + bulk_mont_pow_scratch(n, 64 * n) + 2 * n + 2 +
           4 * n + 1 + bulk_mpn_divmod_scratch(2 * n + 1, n) + 8;
}

static void bpsw_init(struct bpsw *s, const bulk_limb_t *a, size_t n, bulk_limb_t *tp)
{
    s->a = a;
    s->n = n;
    bulk_mont_init(&s->M, a, n, tp);
    tp += bulk_mont_scratch(n);
    s->one = tp, s->mone = tp + n, s->x = tp + 2 * n, s->y = tp + 3 * n, s->e = tp + 4 * n;
    tp += 5 * n + 1;
    s->tbl = tp;
    tp += bulk_mont_pow_scratch(n, 64 * n);
    s->big = tp;
    tp += 2 * n + 2;
    s->U = tp, s->V = tp + n, s->Qk = tp + 2 * n, s->T = tp + 3 * n;
    s->dtp = tp + 4 * n + 1;
    /* one = R mod a = B^n mod a, mone = a - one */
    bulk_mpn_zero(s->big, n);
    s->big[n] = 1;
    bulk_mpn_divmod(NULL, s->one, s->big, n + 1, a, n, BULK_DIV_AUTO, s->dtp);
    bulk_mpn_sub_n(s->mone, a, s->one, n);
}

/* r = x * c mod a for x < a and a small c >= 0 (c < 2^63), negated when neg. */
static void mul_small(struct bpsw *s, bulk_limb_t *r, const bulk_limb_t *x, uint64_t c, int neg)
{
    size_t n = s->n;
    s->T[n] = bulk_mpn_mul_1(s->T, x, n, c);
    bulk_mpn_divmod(NULL, r, s->T, n + 1, s->a, n, BULK_DIV_AUTO, s->dtp);
    if (neg && !bulk_mpn_is_zero(r, n)) bulk_mpn_sub_n(r, s->a, r, n);
}

static void add_mod(const struct bpsw *s, bulk_limb_t *r, const bulk_limb_t *x, const bulk_limb_t *y)
{
    bulk_limb_t c = bulk_mpn_add_n(r, x, y, s->n);
    if (c || bulk_mpn_cmp(r, s->a, s->n) >= 0) bulk_mpn_sub_n(r, r, s->a, s->n);
}

static void sub_mod(const struct bpsw *s, bulk_limb_t *r, const bulk_limb_t *x, const bulk_limb_t *y)
{
    if (bulk_mpn_sub_n(r, x, y, s->n)) bulk_mpn_add_n(r, r, s->a, s->n);
}

/* x = x / 2 mod a (a odd). */
static void half_mod(const struct bpsw *s, bulk_limb_t *x)
{
    size_t n = s->n;
    bulk_limb_t c = 0;
    if (x[0] & 1) c = bulk_mpn_add_n(x, x, s->a, n);
    bulk_mpn_rshift(x, x, n, 1);
    x[n - 1] |= c << 63;
}

static int eq(const bulk_limb_t *x, const bulk_limb_t *y, size_t n) { return bulk_mpn_cmp(x, y, n) == 0; }

/* The strong probable-prime test to the base whose Montgomery form is b: with a - 1 = d 2^r,
 * d odd, a passes when b^d = 1 or b^(d 2^i) = -1 for some i < r. */
static int strong_test(struct bpsw *s, const bulk_limb_t *b)
{
    size_t n = s->n;
    bulk_mpn_sub_1(s->e, s->a, n, 1); /* a - 1 > 0, even */
    size_t r = 0;
    while (s->e[r / 64] == 0) r += 64; /* a - 1 != 0 */
    r += (size_t)bulk_limb_ctz(s->e[r / 64]);
    bulk_limb_t *d = s->e + r / 64;
    size_t dn = n - r / 64;
    if (r % 64) bulk_mpn_rshift(d, d, dn, (unsigned)(r % 64));
    dn = bulk_mpn_normalized_size(d, dn);
    size_t dbits = 64 * dn - (size_t)bulk_limb_clz(d[dn - 1]);
    bulk_mont_pow(&s->M, s->x, b, d, dbits, s->tbl);
    if (eq(s->x, s->one, n) || eq(s->x, s->mone, n)) return 1;
    for (size_t i = 1; i < r; i++) {
        bulk_mont_sqr(&s->M, s->x, s->x);
        if (eq(s->x, s->mone, n)) return 1;
        if (eq(s->x, s->one, n)) return 0;
    }
    return 0;
}

/* 1 when a (mn limbs) is a perfect square: Newton's iteration x <- (x + a / x) / 2 from above
 * (2^ceil(bits / 2) > sqrt(a)) decreases to floor(sqrt(a)). Rare (only after
 * BULK_PRIME_SQUARE_CHECK failed Selfridge candidates), so plain division serves. */
static int is_square(struct bpsw *s)
{
    size_t n = s->n;
    bulk_limb_t *x = s->U, *q = s->big, *y = s->V; /* q: n limbs of quotient (n + 1 allotted) */
    size_t bits = 64 * n - (size_t)bulk_limb_clz(s->a[n - 1]), h = (bits + 1) / 2;
    bulk_mpn_zero(x, n);
    x[h / 64] = (bulk_limb_t)1 << (h % 64); /* h <= 32 n, so h / 64 < n */
    for (;;) {
        size_t xn = bulk_mpn_normalized_size(x, n);
        bulk_mpn_divmod(q, NULL, s->a, n, x, xn, BULK_DIV_AUTO, s->dtp);
        bulk_limb_t c = bulk_mpn_add_n(y, x, q, n);
        bulk_mpn_rshift(y, y, n, 1);
        y[n - 1] |= c << 63;
        if (bulk_mpn_cmp(y, x, n) >= 0) break;
        bulk_mpn_copy(x, y, n);
    }
    /* x = floor(sqrt(a)): a square iff x^2 = a */
    bulk_mpn_mul_n(s->big, x, x, n);
    return bulk_mpn_is_zero(s->big + n, n) && eq(s->big, s->a, n);
}

/* Selfridge's D for a: 1 with *d set, 0 when a is composite (a factor |D| < a, or a square). */
static int selfridge(struct bpsw *s, int64_t *d)
{
    for (unsigned k = 0;; k++) {
        if (k == BULK_PRIME_SQUARE_CHECK && is_square(s)) return 0;
        int64_t D = bulk_selfridge_d(k);
        uint64_t ad = (uint64_t)(D < 0 ? -D : D);
        bulk_limb_t r = bulk_mpn_divrem_1(s->T, s->a, s->n, ad);
        int j = bulk_selfridge_jacobi(D, r, s->a[0]);
        if (j == 0 && !(s->n == 1 && s->a[0] == ad)) return 0;
        if (j == -1) {
            *d = D;
            return 1;
        }
    }
}

size_t bulk_prime_selfridge_scratch(size_t n)
{
    return 5 * n + 3 + bulk_mpn_divmod_scratch(2 * n + 1, n);
}

int bulk_prime_selfridge(const bulk_limb_t *a, size_t mn, int64_t *d, bulk_limb_t *tp)
{
    /* the parts of the working set that selfridge and is_square use, laid out as in bpsw */
    struct bpsw s = { .a = a, .n = mn };
    s.U = tp, s.V = tp + mn, s.T = tp + 2 * mn, s.big = tp + 3 * mn + 1, s.dtp = tp + 5 * mn + 3;
    return selfridge(&s, d);
}

/* The strong Lucas probable-prime test with Selfridge's parameters. */
static int strong_lucas(struct bpsw *s)
{
    size_t n = s->n;
    int64_t D;
    if (!selfridge(s, &D)) return 0;
    int64_t Q = (1 - D) / 4;
    uint64_t aq = (uint64_t)(Q < 0 ? -Q : Q), ad = (uint64_t)(D < 0 ? -D : D);
    /* a + 1 = d 2^r, d odd (a + 1 may need n + 1 limbs) */
    bulk_limb_t *e = s->e;
    e[n] = bulk_mpn_add_1(e, s->a, n, 1);
    size_t en = n + 1, r = 0;
    while (e[r / 64] == 0) r += 64;
    r += (size_t)bulk_limb_ctz(e[r / 64]);
    bulk_limb_t *d = e + r / 64;
    size_t dn = en - r / 64;
    if (r % 64) bulk_mpn_rshift(d, d, dn, (unsigned)(r % 64));
    dn = bulk_mpn_normalized_size(d, dn);
    size_t dbits = 64 * dn - (size_t)bulk_limb_clz(d[dn - 1]);

    bulk_limb_t *U = s->U, *V = s->V, *Qk = s->Qk, *x = s->x, *y = s->y;
    bulk_mpn_copy(U, s->one, n); /* U_1 = 1, V_1 = P = 1, Q^1 */
    bulk_mpn_copy(V, s->one, n);
    mul_small(s, Qk, s->one, aq, Q < 0);
    for (size_t i = dbits - 1; i-- > 0;) {
        bulk_mont_mul(&s->M, U, U, V);
        bulk_mont_sqr(&s->M, V, V);
        sub_mod(s, V, V, Qk);
        sub_mod(s, V, V, Qk);
        bulk_mont_sqr(&s->M, Qk, Qk);
        if ((d[i / 64] >> (i % 64)) & 1) {
            mul_small(s, x, U, ad, D < 0); /* D U_k */
            add_mod(s, x, x, V);
            add_mod(s, y, U, V);
            half_mod(s, y);
            half_mod(s, x);
            bulk_mpn_copy(U, y, n);
            bulk_mpn_copy(V, x, n);
            mul_small(s, Qk, Qk, aq, Q < 0);
        }
    }
    if (bulk_mpn_is_zero(U, n) || bulk_mpn_is_zero(V, n)) return 1;
    for (size_t i = 1; i < r; i++) {
        bulk_mont_sqr(&s->M, V, V);
        sub_mod(s, V, V, Qk);
        sub_mod(s, V, V, Qk);
        if (bulk_mpn_is_zero(V, n)) return 1;
        if (i + 1 < r) bulk_mont_sqr(&s->M, Qk, Qk);
    }
    return 0;
}

size_t bulk_prime_strong_from_scratch(size_t n) { return 3 * n + bulk_mpn_divmod_scratch(2 * n, n); }

int bulk_prime_strong_from(const bulk_limb_t *a, size_t mn, const bulk_limb_t *x0, bulk_limb_t *tp)
{
    bulk_limb_t *x = tp, *sq = tp + mn, *dtp = tp + 3 * mn;
    bulk_mpn_copy(x, x0, mn);
    /* r = trailing zero bits of a - 1: above limb 0 its limbs are a's (a[0] >= 1: no borrow) */
    size_t r = 0, k = 0;
    bulk_limb_t w = a[0] - 1;
    while (w == 0) w = a[++k], r += 64; /* a >= 3: some limb of a - 1 is nonzero */
    r += (size_t)bulk_limb_ctz(w);
    for (size_t i = 0;; i++) {
        int one = x[0] == 1 && bulk_mpn_is_zero(x + 1, mn - 1);
        int mone = x[0] == a[0] - 1 && eq(x + 1, a + 1, mn - 1);
        if (mone || (one && i == 0)) return 1;
        if (one || i + 1 >= r) return 0;
        bulk_mpn_sqr(sq, x, mn);
        bulk_mpn_divmod(NULL, x, sq, 2 * mn, a, mn, BULK_DIV_AUTO, dtp);
    }
}

size_t bulk_prime_lucas_from_scratch(size_t n) { return 4 * n + bulk_mpn_divmod_scratch(2 * n, n); }

/* x = x^2 - 2 q mod a (plain residues; sq: 2 mn limbs). */
static void v_double(const bulk_limb_t *a, size_t mn, bulk_limb_t *x, const bulk_limb_t *q,
                     bulk_limb_t *sq, bulk_limb_t *dtp)
{
    bulk_mpn_sqr(sq, x, mn);
    bulk_mpn_divmod(NULL, x, sq, 2 * mn, a, mn, BULK_DIV_AUTO, dtp);
    for (int k = 0; k < 2; k++)
        if (bulk_mpn_sub_n(x, x, q, mn)) bulk_mpn_add_n(x, x, a, mn);
}

int bulk_prime_lucas_from(const bulk_limb_t *a, size_t mn, const bulk_limb_t *u,
                          const bulk_limb_t *v, const bulk_limb_t *qk, bulk_limb_t *tp)
{
    if (bulk_mpn_is_zero(u, mn) || bulk_mpn_is_zero(v, mn)) return 1;
    bulk_limb_t *V = tp, *Q = tp + mn, *sq = tp + 2 * mn, *dtp = tp + 4 * mn;
    bulk_mpn_copy(V, v, mn);
    bulk_mpn_copy(Q, qk, mn);
    /* r = trailing zero bits of a + 1 = trailing one bits of a (all of them: a + 1 = B^mn) */
    size_t r = 0, k = 0;
    while (k < mn && a[k] == ~(bulk_limb_t)0) k++, r += 64;
    if (k < mn) r += (size_t)bulk_limb_ctz(~a[k]);
    /* as strong_lucas: V_(d 2^i) = V^2 - 2 Q^(d 2^(i-1)), i = 1 .. r - 1 */
    for (size_t i = 1; i < r; i++) {
        v_double(a, mn, V, Q, sq, dtp);
        if (bulk_mpn_is_zero(V, mn)) return 1;
        if (i + 1 < r) {
            bulk_mpn_sqr(sq, Q, mn);
            bulk_mpn_divmod(NULL, Q, sq, 2 * mn, a, mn, BULK_DIV_AUTO, dtp);
        }
    }
    return 0;
}

/* The extra strong tests to the bases bulk_prime_base(a, j), j < rounds: 1 when a passes all. */
static int extra_rounds(struct bpsw *s, unsigned rounds)
{
    const bulk_limb_t *a = s->a;
    size_t mn = s->n;
    uint64_t h = rounds ? bulk_prime_hash(a, mn) : 0;
    for (unsigned j = 0; j < rounds; j++) {
        /* the base (< a) into Montgomery form: b R = mont(b, R^2), R^2 = mont(R, R) from one */
        uint64_t b[2];
        bulk_prime_base(b, h, j, a[0], mn);
        bulk_mpn_zero(s->big, 2 * mn);
        s->big[mn] = b[0];
        if (mn > 1) s->big[mn + 1] = b[1];
        bulk_mpn_divmod(NULL, s->y, s->big, 2 * mn, a, mn, BULK_DIV_AUTO, s->dtp); /* b R mod a */
        if (!strong_test(s, s->y)) return 0;
    }
    return 1;
}

int bulk_prime_bpsw(const bulk_limb_t *a, size_t mn, unsigned rounds, bulk_limb_t *tp)
{
    struct bpsw s;
    bpsw_init(&s, a, mn, tp);
    /* base 2: 2R mod a = one + one */
    add_mod(&s, s.y, s.one, s.one);
    if (!strong_test(&s, s.y)) return 0;
    if (!strong_lucas(&s)) return 0;
    return extra_rounds(&s, rounds);
}

int bulk_prime_rounds(const bulk_limb_t *a, size_t mn, unsigned rounds, bulk_limb_t *tp)
{
    if (rounds == 0) return 1;
    struct bpsw s;
    bpsw_init(&s, a, mn, tp);
    return extra_rounds(&s, rounds);
}
