/* Quadratic basecases: operand scanning (schoolbook), product scanning (Comba, seed 000
 * chapter 3) and the specialised basecase squaring. Internal entry points in mpn_mul_internal.h.
 *
 * Operand scanning adds one row a * b[j] at a time (mul_1 then addmul_1): the inner loop is a
 * dependent chain of MUL + ADD + ADC per limb. Product scanning computes the result one column
 * k = i + j at a time in a three-limb accumulator and stores each result limb once, which is
 * the form seed 000 uses on the GPU (no read-modify-write of the result) and the one that wins
 * on small sizes here. */
#include "int/cpu/mpn_mul_internal.h"

void bulk_mpn_mul_schoolbook(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                             const bulk_limb_t *b, size_t bn)
{
    r[an] = bulk_mpn_mul_1(r, a, an, b[0]);
    for (size_t j = 1; j < bn; j++) r[an + j] = bulk_mpn_addmul_1(r + j, a, an, b[j]);
}

void bulk_mpn_mul_comba(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                        size_t bn)
{
    bulk_limb_t c0 = 0, c1 = 0, c2 = 0;
    size_t last = an + bn - 2;
    for (size_t k = 0; k <= last; k++) {
        /* column k: i + j = k, 0 <= i < an, 0 <= j < bn */
        size_t ilo = k >= bn ? k - bn + 1 : 0;
        size_t ihi = k < an ? k : an - 1;
        const bulk_limb_t *bp = b + (k - ilo);
        for (size_t i = ilo; i <= ihi; i++, bp--) {
            bulk_dlimb_t p = (bulk_dlimb_t)a[i] * *bp;
            bulk_dlimb_t s = (((bulk_dlimb_t)c1 << 64) | c0) + p;
            c2 += s < p;
            c0 = (bulk_limb_t)s;
            c1 = (bulk_limb_t)(s >> 64);
        }
        r[k] = c0;
        c0 = c1;
        c1 = c2;
        c2 = 0;
    }
    r[last + 1] = c0;
}

/* Squaring: the off-diagonal products a_i a_j (i < j) once, doubled by a shift, plus the
 * diagonal squares: about half the multiplications of a general product. */
void bulk_mpn_sqr_basecase(bulk_limb_t *r, const bulk_limb_t *a, size_t n)
{
    if (n == 1) {
        r[0] = bulk_limb_mul(a[0], a[0], &r[1]);
        return;
    }
    /* off-diagonal triangle into r[1 .. 2n-2] */
    r[0] = 0;
    r[n] = bulk_mpn_mul_1(r + 1, a + 1, n - 1, a[0]);
    for (size_t i = 1; i + 1 < n; i++)
        r[n + i] = bulk_mpn_addmul_1(r + 2 * i + 1, a + i + 1, n - i - 1, a[i]);
    r[2 * n - 1] = 0;
    bulk_mpn_lshift(r, r, 2 * n, 1); /* the top bit out is 0: 2*triangle < a^2 < 2^(128n) */
    bulk_limb_t c = 0;
    for (size_t i = 0; i < n; i++) {
        bulk_limb_t hi, lo = bulk_limb_mul(a[i], a[i], &hi);
        bulk_limb_t c1;
        r[2 * i] = bulk_limb_add(r[2 * i], lo, c, &c1);
        r[2 * i + 1] = bulk_limb_add(r[2 * i + 1], hi, c1, &c);
    }
}
