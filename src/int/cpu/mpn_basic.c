/* Linear-time mpn operations: add/sub with carry, single-limb add/sub, shifts, mul_1,
 * addmul_1, submul_1, comparison, negation, exact division by a limb. Contracts in int/mpn.h.
 *
 * The carry chains of add_n/sub_n are an ADC/SBB loop on x86-64 (see below) and the portable
 * int_core.h steps elsewhere. The multiply loops
 * use unsigned __int128 (one MUL per limb) and are unrolled by two, which is what lets the
 * compiler overlap consecutive MULs with the carry propagation. */
#include "int/mpn.h"

/* x86-64: the carry chain of add_n/sub_n as a small ADC/SBB loop, four limbs per iteration
 * (LEA and DEC leave the carry flag alone). GCC does not keep the carry in the flags across
 * iterations of a C loop (it round-trips it through a register, ~1.5x slower, measured), and
 * these two loops are a quarter of the time of a Toom-3 product. The portable C loop is used
 * elsewhere and in sanitizer builds, so that AddressSanitizer sees every access. */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define BULK_ADC_ASM 1
#else
#define BULK_ADC_ASM 0
#endif

#if BULK_ADC_ASM
/* r[0 .. 4q) = a +- b over 4q limbs (q >= 1); returns the carry/borrow out. */
static inline bulk_limb_t adc4_loop(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                                    size_t q)
{
    unsigned long long c = 0;
    __asm__ volatile("clc\n"
                     "1:\n\t"
                     "movq (%[a]), %%r8\n\t"
                     "adcq (%[b]), %%r8\n\t"
                     "movq %%r8, (%[r])\n\t"
                     "movq 8(%[a]), %%r9\n\t"
                     "adcq 8(%[b]), %%r9\n\t"
                     "movq %%r9, 8(%[r])\n\t"
                     "movq 16(%[a]), %%r10\n\t"
                     "adcq 16(%[b]), %%r10\n\t"
                     "movq %%r10, 16(%[r])\n\t"
                     "movq 24(%[a]), %%r11\n\t"
                     "adcq 24(%[b]), %%r11\n\t"
                     "movq %%r11, 24(%[r])\n\t"
                     "leaq 32(%[a]), %[a]\n\t"
                     "leaq 32(%[b]), %[b]\n\t"
                     "leaq 32(%[r]), %[r]\n\t"
                     "decq %[q]\n\t"
                     "jnz 1b\n\t"
                     "setc %b[c]\n"
                     : [a] "+r"(a), [b] "+r"(b), [r] "+r"(r), [q] "+r"(q), [c] "+q"(c)
                     :
                     : "r8", "r9", "r10", "r11", "cc", "memory");
    return c & 1;
}

static inline bulk_limb_t sbb4_loop(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                                    size_t q)
{
    unsigned long long c = 0;
    __asm__ volatile("clc\n"
                     "1:\n\t"
                     "movq (%[a]), %%r8\n\t"
                     "sbbq (%[b]), %%r8\n\t"
                     "movq %%r8, (%[r])\n\t"
                     "movq 8(%[a]), %%r9\n\t"
                     "sbbq 8(%[b]), %%r9\n\t"
                     "movq %%r9, 8(%[r])\n\t"
                     "movq 16(%[a]), %%r10\n\t"
                     "sbbq 16(%[b]), %%r10\n\t"
                     "movq %%r10, 16(%[r])\n\t"
                     "movq 24(%[a]), %%r11\n\t"
                     "sbbq 24(%[b]), %%r11\n\t"
                     "movq %%r11, 24(%[r])\n\t"
                     "leaq 32(%[a]), %[a]\n\t"
                     "leaq 32(%[b]), %[b]\n\t"
                     "leaq 32(%[r]), %[r]\n\t"
                     "decq %[q]\n\t"
                     "jnz 1b\n\t"
                     "setc %b[c]\n"
                     : [a] "+r"(a), [b] "+r"(b), [r] "+r"(r), [q] "+r"(q), [c] "+q"(c)
                     :
                     : "r8", "r9", "r10", "r11", "cc", "memory");
    return c & 1;
}
#endif

bulk_limb_t bulk_mpn_add_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    bulk_limb_t c = 0;
    size_t i = 0;
#if BULK_ADC_ASM
    if (n >= 4) {
        c = adc4_loop(r, a, b, n / 4);
        i = n & ~(size_t)3;
    }
#endif
    for (; i < n; i++) r[i] = bulk_limb_add(a[i], b[i], c, &c);
    return c;
}

bulk_limb_t bulk_mpn_sub_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    bulk_limb_t c = 0;
    size_t i = 0;
#if BULK_ADC_ASM
    if (n >= 4) {
        c = sbb4_loop(r, a, b, n / 4);
        i = n & ~(size_t)3;
    }
#endif
    for (; i < n; i++) r[i] = bulk_limb_sub(a[i], b[i], c, &c);
    return c;
}

bulk_limb_t bulk_mpn_add_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l)
{
    size_t i = 0;
    for (; i < n && l; i++) {
        bulk_limb_t s = a[i] + l;
        l = s < l;
        r[i] = s;
    }
    if (r != a)
        for (; i < n; i++) r[i] = a[i];
    return l != 0;
}

bulk_limb_t bulk_mpn_sub_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l)
{
    size_t i = 0;
    for (; i < n && l; i++) {
        bulk_limb_t x = a[i];
        r[i] = x - l;
        l = x < l;
    }
    if (r != a)
        for (; i < n; i++) r[i] = a[i];
    return l != 0;
}

bulk_limb_t bulk_mpn_add(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                         size_t bn)
{
    bulk_limb_t c = bulk_mpn_add_n(r, a, b, bn);
    return bulk_mpn_add_1(r + bn, a + bn, an - bn, c);
}

bulk_limb_t bulk_mpn_sub(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                         size_t bn)
{
    bulk_limb_t c = bulk_mpn_sub_n(r, a, b, bn);
    return bulk_mpn_sub_1(r + bn, a + bn, an - bn, c);
}

bulk_limb_t bulk_mpn_lshift(bulk_limb_t *r, const bulk_limb_t *a, size_t n, unsigned cnt)
{
    unsigned tnc = 64 - cnt;
    bulk_limb_t high = a[n - 1];
    bulk_limb_t out = high >> tnc;
    for (size_t i = n - 1; i > 0; i--) {
        bulk_limb_t low = a[i - 1];
        r[i] = (high << cnt) | (low >> tnc);
        high = low;
    }
    r[0] = high << cnt;
    return out;
}

bulk_limb_t bulk_mpn_rshift(bulk_limb_t *r, const bulk_limb_t *a, size_t n, unsigned cnt)
{
    unsigned tnc = 64 - cnt;
    bulk_limb_t low = a[0];
    bulk_limb_t out = low << tnc;
    for (size_t i = 0; i + 1 < n; i++) {
        bulk_limb_t high = a[i + 1];
        r[i] = (low >> cnt) | (high << tnc);
        low = high;
    }
    r[n - 1] = low >> cnt;
    return out;
}

bulk_limb_t bulk_mpn_mul_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l)
{
    bulk_limb_t c = 0;
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        bulk_dlimb_t p0 = (bulk_dlimb_t)a[i] * l + c;
        bulk_dlimb_t p1 = (bulk_dlimb_t)a[i + 1] * l + (bulk_limb_t)(p0 >> 64);
        r[i] = (bulk_limb_t)p0;
        r[i + 1] = (bulk_limb_t)p1;
        c = (bulk_limb_t)(p1 >> 64);
    }
    if (i < n) {
        bulk_dlimb_t p = (bulk_dlimb_t)a[i] * l + c;
        r[i] = (bulk_limb_t)p;
        c = (bulk_limb_t)(p >> 64);
    }
    return c;
}

bulk_limb_t bulk_mpn_addmul_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l)
{
    bulk_limb_t c = 0;
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        bulk_dlimb_t p0 = (bulk_dlimb_t)a[i] * l + r[i] + c;
        bulk_dlimb_t p1 = (bulk_dlimb_t)a[i + 1] * l + r[i + 1] + (bulk_limb_t)(p0 >> 64);
        r[i] = (bulk_limb_t)p0;
        r[i + 1] = (bulk_limb_t)p1;
        c = (bulk_limb_t)(p1 >> 64);
    }
    if (i < n) {
        bulk_dlimb_t p = (bulk_dlimb_t)a[i] * l + r[i] + c;
        r[i] = (bulk_limb_t)p;
        c = (bulk_limb_t)(p >> 64);
    }
    return c;
}

bulk_limb_t bulk_mpn_submul_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l)
{
    bulk_limb_t c = 0;
    for (size_t i = 0; i < n; i++) {
        bulk_dlimb_t p = (bulk_dlimb_t)a[i] * l + c; /* <= 2^128 - 2^64: no overflow */
        bulk_limb_t lo = (bulk_limb_t)p, x = r[i];
        c = (bulk_limb_t)(p >> 64) + (x < lo);
        r[i] = x - lo;
    }
    return c;
}

int bulk_mpn_cmp(const bulk_limb_t *a, const bulk_limb_t *b, size_t n)
{
    while (n-- > 0)
        if (a[n] != b[n]) return a[n] > b[n] ? 1 : -1;
    return 0;
}

bulk_limb_t bulk_mpn_neg(bulk_limb_t *r, const bulk_limb_t *a, size_t n)
{
    size_t i = 0;
    while (i < n && a[i] == 0) r[i++] = 0;
    if (i == n) return 0;
    r[i] = -a[i];
    for (i++; i < n; i++) r[i] = ~a[i];
    return 1;
}

/* Exact division (Jebelean / Hensel): with d odd and v = d^-1 mod 2^64, each quotient limb is
 * q = (a_i - borrow) * v mod 2^64, and the part of q * d above limb i is the borrow into the
 * next limb. Even d: divide out the power of two by a shift first (exact because d | a). */
void bulk_mpn_divexact_1(bulk_limb_t *a, size_t n, bulk_limb_t d)
{
    if (n == 0) return;
    int s = bulk_limb_ctz(d);
    if (s) {
        bulk_mpn_rshift(a, a, n, (unsigned)s);
        d >>= s;
    }
    if (d == 1) return;
    bulk_limb_t v = bulk_limb_inverse_odd(d);
    bulk_limb_t borrow = 0;
    for (size_t i = 0; i < n; i++) {
        bulk_limb_t x = a[i];
        bulk_limb_t y = x - borrow;
        bulk_limb_t b1 = x < borrow;
        bulk_limb_t q = y * v;
        a[i] = q;
        bulk_limb_t hi;
        bulk_limb_mul(q, d, &hi);
        borrow = hi + b1;
    }
}
