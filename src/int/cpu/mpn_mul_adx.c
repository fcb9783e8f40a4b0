/* Basecase products of up to 16 limbs and REDC of up to 32 by rows of MULX, ADCX and ADOX
 * (x86-64 with BMI2 and ADX): the form of GMP's mul_basecase for these processors. Internal
 * entry points in mpn_mul_internal.h; bulk_mpn_adx says whether the processor has the
 * instructions, and AUTO's products (mpn_mul.c), the basecase squaring and powmod.c's REDC
 * hand their sizes to these when it does.
 *
 * One row adds a[0..n) * b to r[0..n) and returns the limb carried out: per limb one MULX
 * (b in rdx, no flags touched), the previous product's high half added on the CF chain (ADCX)
 * and r[i] on the OF chain (ADOX), one store. The two chains are independent, so the
 * multiplications overlap; the row is unrolled for each n (one asm statement, so nothing can
 * come between the flag chains), the rows are a loop.
 *
 * Why rows of these instructions and not the product-scanning columns: measured with one
 * thread on 16 x 16 limbs (1024 bits; ns per product, the operands streamed from 1024 distinct
 * instances as the batch calls do):
 *
 *   machine                                  columns   these rows   GMP 6.2.1 mpn_mul_n
 *   AMD EPYC (Zen 3, the development VM)       165        120          177
 *   Intel Xeon (the GPU host, 2.1 GHz)        1324        104          219
 *
 * On that Xeon the column code runs 3-10x slower than on the EPYC (583 ns with the operands in
 * L1, 1000-1300 ns streamed), while these rows run at the same speed on both. REDC of 17..32
 * limbs by rows: 2048-bit powmod 1.05-1.30x GMP on the EPYC against 0.93-1.03x by columns.
 * Squares use the general rows: a squaring by rows of the triangle a_i a_j (i < j), doubled,
 * plus the diagonal, did n (n + 1) / 2 products but lost on the EPYC (16 limbs: 158 ns against
 * 136; 1024-bit powmod 0.91-1.04x GMP against 1.02-1.10x), the short rows' overhead eating the
 * saving. */
#include "int/cpu/mpn_mul_internal.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <cpuid.h>

int bulk_mpn_adx;

/* At load time, from CPUID leaf 7: EBX bit 8 is BMI2 (MULX), bit 19 ADX (ADCX, ADOX). */
__attribute__((constructor)) static void adx_init(void)
{
    unsigned a, b, c, d;
    bulk_mpn_adx = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 8 & 1) && (b >> 19 & 1);
}

/* One product step at byte offset o of a and r (o > 0): lo:t = a[o] b; lo += hi (CF chain),
 * lo += r[o] (OF chain); r[o] = lo; hi = t. */
#define STEP(o)                              \
    "mulx " #o "(%[a]), %[lo], %[t]\n\t"     \
    "adcx %[hi], %[lo]\n\t"                  \
    "adox " #o "(%[r]), %[lo]\n\t"           \
    "movq %[lo], " #o "(%[r])\n\t"           \
    "movq %[t], %[hi]\n\t"

#define STEPS_1 ""
#define STEPS_2 STEPS_1 STEP(8)
#define STEPS_3 STEPS_2 STEP(16)
#define STEPS_4 STEPS_3 STEP(24)
#define STEPS_5 STEPS_4 STEP(32)
#define STEPS_6 STEPS_5 STEP(40)
#define STEPS_7 STEPS_6 STEP(48)
#define STEPS_8 STEPS_7 STEP(56)
#define STEPS_9 STEPS_8 STEP(64)
#define STEPS_10 STEPS_9 STEP(72)
#define STEPS_11 STEPS_10 STEP(80)
#define STEPS_12 STEPS_11 STEP(88)
#define STEPS_13 STEPS_12 STEP(96)
#define STEPS_14 STEPS_13 STEP(104)
#define STEPS_15 STEPS_14 STEP(112)
#define STEPS_16 STEPS_15 STEP(120)
#define STEPS_17 STEPS_16 STEP(128)
#define STEPS_18 STEPS_17 STEP(136)
#define STEPS_19 STEPS_18 STEP(144)
#define STEPS_20 STEPS_19 STEP(152)
#define STEPS_21 STEPS_20 STEP(160)
#define STEPS_22 STEPS_21 STEP(168)
#define STEPS_23 STEPS_22 STEP(176)
#define STEPS_24 STEPS_23 STEP(184)
#define STEPS_25 STEPS_24 STEP(192)
#define STEPS_26 STEPS_25 STEP(200)
#define STEPS_27 STEPS_26 STEP(208)
#define STEPS_28 STEPS_27 STEP(216)
#define STEPS_29 STEPS_28 STEP(224)
#define STEPS_30 STEPS_29 STEP(232)
#define STEPS_31 STEPS_30 STEP(240)
#define STEPS_32 STEPS_31 STEP(248)

/* row_N: r[0..N) += a[0..N) * b, returns the carry-out limb (a * b + r < B^(N+1)). The XOR
 * clears CF and OF; the last two additions cannot carry out of hi. */
#define ROW(N)                                                                                \
    static bulk_limb_t row_##N(bulk_limb_t *r, const bulk_limb_t *a, bulk_limb_t b)          \
    {                                                                                         \
        bulk_limb_t lo, hi, t, z;                                                             \
        __asm__ __volatile__("xorl %k[z], %k[z]\n\t"                                          \
                             "mulx (%[a]), %[lo], %[hi]\n\t"                                  \
                             "adox (%[r]), %[lo]\n\t"                                         \
                             "movq %[lo], (%[r])\n\t" STEPS_##N                               \
                             "adcx %[z], %[hi]\n\t"                                           \
                             "adox %[z], %[hi]\n\t"                                           \
                             : [lo] "=&r"(lo), [hi] "=&r"(hi), [t] "=&r"(t), [z] "=&r"(z)     \
                             : [r] "r"(r), [a] "r"(a), "d"(b)                                 \
                             : "cc", "memory");                                               \
        (void)t;                                                                              \
        return hi;                                                                            \
    }                                                                                         \
    /* REDC (contract of bulk_mpn_redc_adx) with w = 3N limbs */                              \
    static void redc_##N(bulk_limb_t *r, const bulk_limb_t *t, const bulk_limb_t *m,          \
                         bulk_limb_t minv, bulk_limb_t *w)                                    \
    {                                                                                         \
        memcpy(w, t, 2 * N * sizeof *w);                                                      \
        for (size_t i = 0; i < N; i++) w[2 * N + i] = row_##N(w + i, m, w[i] * minv);         \
        bulk_limb_t c = bulk_mpn_add_n(r, w + N, w + 2 * N, N);                               \
        if (c || bulk_mpn_cmp(r, m, N) >= 0) bulk_mpn_sub_n(r, r, m, N);                      \
    }
ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7) ROW(8)
ROW(9) ROW(10) ROW(11) ROW(12) ROW(13) ROW(14) ROW(15) ROW(16)
ROW(17) ROW(18) ROW(19) ROW(20) ROW(21) ROW(22) ROW(23) ROW(24)
ROW(25) ROW(26) ROW(27) ROW(28) ROW(29) ROW(30) ROW(31) ROW(32)
#undef ROW

/* r (N + bn limbs) = a (N limbs) * b (bn limbs) */
#define MUL(N)                                                                                \
    static void mul_##N(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t bn) \
    {                                                                                         \
        memset(r, 0, N * sizeof *r);                                                          \
        for (size_t j = 0; j < bn; j++) r[N + j] = row_##N(r + j, a, b[j]);                   \
    }
MUL(1) MUL(2) MUL(3) MUL(4) MUL(5) MUL(6) MUL(7) MUL(8)
MUL(9) MUL(10) MUL(11) MUL(12) MUL(13) MUL(14) MUL(15) MUL(16)
#undef MUL

#define CASES(X)                                                                              \
    X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)
#define CASES_REDC(X)                                                                         \
    CASES(X) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29)    \
    X(30) X(31) X(32)

void bulk_mpn_mul_adx(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                      size_t bn)
{
    switch (an) {
#define C(k) \
    case k: mul_##k(r, a, b, bn); return;
        CASES(C)
#undef C
    default: return; /* an <= BULK_MPN_ADX_MAX by contract */
    }
}

void bulk_mpn_redc_adx(bulk_limb_t *r, const bulk_limb_t *t, const bulk_limb_t *m, size_t n,
                       bulk_limb_t minv, bulk_limb_t *w)
{
    switch (n) {
#define C(k) \
    case k: redc_##k(r, t, m, minv, w); return;
        CASES_REDC(C)
#undef C
    default: return; /* n <= BULK_MPN_ADX_REDC_MAX by contract */
    }
}

#else /* not x86-64 with GCC's asm: bulk_mpn_adx stays 0; the same algorithms in C */

int bulk_mpn_adx = 0;

void bulk_mpn_mul_adx(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                      size_t bn)
{
    memset(r, 0, an * sizeof *r);
    for (size_t j = 0; j < bn; j++) r[an + j] = bulk_mpn_addmul_1(r + j, a, an, b[j]);
}

void bulk_mpn_redc_adx(bulk_limb_t *r, const bulk_limb_t *t, const bulk_limb_t *m, size_t n,
                       bulk_limb_t minv, bulk_limb_t *w)
{
    memcpy(w, t, 2 * n * sizeof *w);
    for (size_t i = 0; i < n; i++) w[2 * n + i] = bulk_mpn_addmul_1(w + i, m, n, w[i] * minv);
    bulk_limb_t c = bulk_mpn_add_n(r, w + n, w + 2 * n, n);
    if (c || bulk_mpn_cmp(r, m, n) >= 0) bulk_mpn_sub_n(r, r, m, n);
}

#endif
