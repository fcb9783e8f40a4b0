/* The CUDA integer backend on the device, against GMP and against the CPU backend: every
 * operation of int_cuda.h at W = 64 .. 65536 bits (non-powers of two included: 192, 320, 1088
 * bits), counts that are not multiples of any block size, random and structured operands
 * (0, 1, all ones, single bits, runs, equal operands, short numbers in wide instances, zero
 * divisors, even moduli), aliasing r == a, and a device-resident chain mul -> divmod -> gcd.
 * Without a CUDA device it prints "SKIP: no CUDA device" and exits 77, which ctest reports as
 * skipped (SKIP_RETURN_CODE). --seed S replays. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/int.h"
#include "bulk/int_device.h"
#include "backend/context.h"
#include "int/int_backend.h"
#include "test_util.h"

/* The CUDA int table: this program reaches the CUDA entry points through it, and only after
 * finding a device. */
#define GPU_INTS (bulk_cuda_tables()->ints)

static uint64_t rng;
static bulk_ctx *gpu, *cpu;

/* The GPU context's tuning: key=value, or the defaults for NULL (bulk_ctx_set_tune). */
static void tune(const char *key, const char *value)
{
    char t[64] = "";
    if (key) snprintf(t, sizeof t, "%s=%s", key, value);
    CHECK(bulk_ctx_set_tune(gpu, t) == BULK_OK, "tune %s: %s", t, bulk_ctx_last_error(gpu));
}

/* Instance i of x (limbs each): mostly random and structured limbs by kind = i % 8; every 11th
 * instance short (high limbs zero). */
static void fill(bulk_limb_t *x, size_t n, size_t limbs, int salt)
{
    for (size_t i = 0; i < n; i++) {
        int kind = (int)((i + (size_t)salt) % 8);
        for (size_t j = 0; j < limbs; j++) x[i * limbs + j] = test_structured_limb(&rng, kind);
        if ((i + (size_t)salt) % 11 == 3)
            for (size_t j = 1 + test_rand(&rng) % limbs; j < limbs; j++) x[i * limbs + j] = 0;
    }
}

static void to_mpz(mpz_t z, const bulk_limb_t *p, size_t limbs)
{
    mpz_import(z, limbs, -1, sizeof(bulk_limb_t), 0, 0, p);
}

static int eq_mpz(const bulk_limb_t *p, size_t limbs, const mpz_t z)
{
    mpz_t t;
    mpz_init(t);
    to_mpz(t, p, limbs);
    int ok = mpz_cmp(t, z) == 0;
    mpz_clear(t);
    return ok;
}

/* The first instance i < n whose r (2 L limbs) differs from a * b by GMP (and, when rl is not
 * NULL, whose rl (L limbs) differs from a * b mod 2^(64 L)); n when none. */
static size_t first_wrong_product(const bulk_limb_t *r, const bulk_limb_t *rl, const bulk_limb_t *a,
                                  const bulk_limb_t *b, size_t n, size_t L)
{
    mpz_t x, y, z;
    mpz_inits(x, y, z, NULL);
    size_t i = 0;
    for (; i < n; i++) {
        to_mpz(x, a + i * L, L);
        to_mpz(y, b + i * L, L);
        mpz_mul(z, x, y);
        int ok = eq_mpz(r + i * 2 * L, 2 * L, z);
        mpz_fdiv_r_2exp(z, z, (mp_bitcnt_t)(64 * L));
        if (!ok || (rl && !eq_mpz(rl + i * L, L, z))) break;
    }
    mpz_clears(x, y, z, NULL);
    return i;
}

/* The instances GMP checks: all of them for small batches, else a spread sample (the CPU
 * backend comparison covers every instance). */
static int sampled(size_t i, size_t n) { return n <= 3000 || i % 7 == 0 || i + 1 == n; }

/* The buffers and GMP temporaries of one test_size case (L limbs, n instances; nd of them for
 * divmod, gcd and powmod). */
struct size_case {
    size_t L, n, bytes, nd;
    bulk_limb_t *a, *b, *c, *r, *r2, *q, *q2, *a2;
    uint8_t *f, *f2;
    int8_t *e, *e2;
    mpz_t x, y, z, w, v;
};

/* add, sub (and r == a aliasing on a copy), cmp, shifts of one test_size case. */
static void size_addsub_cmp_shift(struct size_case *t)
{
    size_t L = t->L, n = t->n, bytes = t->bytes;
    bulk_limb_t *a = t->a, *b = t->b, *r = t->r, *r2 = t->r2, *a2 = t->a2;
    uint8_t *f = t->f, *f2 = t->f2;
    int8_t *e = t->e, *e2 = t->e2;
    mpz_ptr x = t->x, y = t->y, z = t->z;
    int rc, rc2;

    /* add, sub (and r == a aliasing on a copy) */
    for (int sub = 0; sub <= 1; sub++) {
        memset(r, 0x5a, bytes);
        rc = sub ? GPU_INTS->sub(gpu, r, f, a, b, n, L) : GPU_INTS->add(gpu, r, f, a, b, n, L);
        rc2 = sub ? bulk_int_sub(cpu, r2, f2, a, b, n, L) : bulk_int_add(cpu, r2, f2, a, b, n, L);
        CHECK(rc == BULK_OK && rc2 == BULK_OK, "%s limbs=%zu: rc %d cpu %d", sub ? "sub" : "add", L, rc, rc2);
        CHECK(memcmp(r, r2, bytes) == 0 && memcmp(f, f2, n) == 0, "%s limbs=%zu n=%zu differs from CPU",
              sub ? "sub" : "add", L, n);
        for (size_t i = 0; i < n; i++) {
            if (!sampled(i, n)) continue;
            to_mpz(x, a + i * L, L);
            to_mpz(y, b + i * L, L);
            if (sub) mpz_sub(z, x, y); else mpz_add(z, x, y);
            int flag = sub ? mpz_sgn(z) < 0 : mpz_sizeinbase(z, 2) > 64 * L;
            mpz_fdiv_r_2exp(z, z, (mp_bitcnt_t)(64 * L));
            if (!eq_mpz(r + i * L, L, z) || f[i] != flag) {
                CHECK(0, "%s limbs=%zu instance %zu wrong", sub ? "sub" : "add", L, i);
                break;
            }
        }
        memcpy(a2, a, bytes);
        rc = sub ? GPU_INTS->sub(gpu, a2, NULL, a2, b, n, L) : GPU_INTS->add(gpu, a2, NULL, a2, b, n, L);
        CHECK(rc == BULK_OK && memcmp(a2, r, bytes) == 0, "%s limbs=%zu in place", sub ? "sub" : "add", L);
    }

    /* cmp */
    rc = GPU_INTS->cmp(gpu, e, a, b, n, L);
    rc2 = bulk_int_cmp(cpu, e2, a, b, n, L);
    CHECK(rc == BULK_OK && rc2 == BULK_OK && memcmp(e, e2, n) == 0, "cmp limbs=%zu", L);
    for (size_t i = 0; i < n; i += 13) CHECK(e[i] == 0, "cmp equal operands limbs=%zu", L);

    /* shifts: a few counts, incl. 0, word multiples, >= W; in place */
    size_t counts[] = {0, 1, 63, 64, 65, 64 * L - 1, 64 * L, 64 * L + 7, (size_t)(test_rand(&rng) % (64 * L))};
    for (int k = 0; k < 9; k++)
        for (int left = 0; left <= 1; left++) {
            size_t bits = counts[k];
            rc = left ? GPU_INTS->shl(gpu, r, a, bits, n, L) : GPU_INTS->shr(gpu, r, a, bits, n, L);
            rc2 = left ? bulk_int_shl(cpu, r2, a, bits, n, L) : bulk_int_shr(cpu, r2, a, bits, n, L);
            CHECK(rc == BULK_OK && rc2 == BULK_OK && memcmp(r, r2, bytes) == 0,
                  "%s limbs=%zu bits=%zu differs from CPU", left ? "shl" : "shr", L, bits);
            for (size_t i = 0; i < n; i += 97) {
                to_mpz(x, a + i * L, L);
                if (left) mpz_mul_2exp(z, x, (mp_bitcnt_t)bits); else mpz_fdiv_q_2exp(z, x, (mp_bitcnt_t)bits);
                mpz_fdiv_r_2exp(z, z, (mp_bitcnt_t)(64 * L));
                CHECK(eq_mpz(r + i * L, L, z), "%s limbs=%zu bits=%zu instance %zu", left ? "shl" : "shr", L, bits, i);
            }
            memcpy(a2, a, bytes);
            rc = left ? GPU_INTS->shl(gpu, a2, a2, bits, n, L) : GPU_INTS->shr(gpu, a2, a2, bits, n, L);
            CHECK(rc == BULK_OK && memcmp(a2, r, bytes) == 0, "shift in place limbs=%zu", L);
        }
}

/* mul, sqr, mul_lo of one test_size case. */
static void size_mul(struct size_case *t)
{
    size_t L = t->L, n = t->n, bytes = t->bytes;
    bulk_limb_t *a = t->a, *b = t->b, *r = t->r, *r2 = t->r2;
    mpz_ptr x = t->x, y = t->y, z = t->z;
    int rc, rc2;

    /* mul, sqr, mul_lo */
    memset(r, 0x5a, 2 * bytes);
    rc = GPU_INTS->mul(gpu, r, a, b, n, L);
    rc2 = bulk_int_mul(cpu, r2, a, b, n, L);
    CHECK(rc == BULK_OK && rc2 == BULK_OK && memcmp(r, r2, 2 * bytes) == 0, "mul limbs=%zu n=%zu differs from CPU (rc %d)", L, n, rc);
    for (size_t i = 0; i < n; i++) {
        if (!sampled(i, n)) continue;
        to_mpz(x, a + i * L, L);
        to_mpz(y, b + i * L, L);
        mpz_mul(z, x, y);
        if (!eq_mpz(r + i * 2 * L, 2 * L, z)) {
            CHECK(0, "mul limbs=%zu instance %zu wrong", L, i);
            break;
        }
    }
    rc = GPU_INTS->sqr(gpu, r, a, n, L);
    rc2 = bulk_int_sqr(cpu, r2, a, n, L);
    CHECK(rc == BULK_OK && rc2 == BULK_OK && memcmp(r, r2, 2 * bytes) == 0, "sqr limbs=%zu differs from CPU", L);
    for (size_t i = 0; i < n; i += 31) {
        to_mpz(x, a + i * L, L);
        mpz_mul(z, x, x);
        CHECK(eq_mpz(r + i * 2 * L, 2 * L, z), "sqr limbs=%zu instance %zu", L, i);
    }
    rc = GPU_INTS->mul_lo(gpu, r, a, b, n, L);
    rc2 = bulk_int_mul_lo(cpu, r2, a, b, n, L);
    CHECK(rc == BULK_OK && rc2 == BULK_OK && memcmp(r, r2, bytes) == 0, "mul_lo limbs=%zu differs from CPU", L);
    for (size_t i = 0; i < n; i += 31) {
        to_mpz(x, a + i * L, L);
        to_mpz(y, b + i * L, L);
        mpz_mul(z, x, y);
        mpz_fdiv_r_2exp(z, z, (mp_bitcnt_t)(64 * L));
        CHECK(eq_mpz(r + i * L, L, z), "mul_lo limbs=%zu instance %zu", L, i);
    }
}

/* divmod of one test_size case. */
static void size_divmod(struct size_case *t)
{
    size_t L = t->L, nd = t->nd;
    bulk_limb_t *a = t->a, *b = t->b, *c = t->c, *r = t->r, *r2 = t->r2, *q = t->q, *q2 = t->q2, *a2 = t->a2;
    int8_t *e = t->e, *e2 = t->e2;
    mpz_ptr x = t->x, y = t->y, z = t->z, w = t->w;
    int rc, rc2;

    /* divmod: W/W and 2W/W; zero divisors every 17th instance */
    fill(c, nd, L, 5);
    for (size_t i = 0; i < nd; i += 17) memset(c + i * L, 0, L * 8);
    for (int wide = 0; wide <= 1; wide++) {
        size_t al = wide ? 2 * L : L;
        const bulk_limb_t *num = a;
        if (wide) { /* the products a * b as dividends */
            GPU_INTS->mul(gpu, a2, a, b, nd, L);
            num = a2;
        }
        rc = GPU_INTS->divmod(gpu, q, r, num, al, c, nd, L, e);
        rc2 = bulk_int_divmod(cpu, q2, r2, num, al, c, nd, L, e2);
        CHECK(rc == BULK_ERR_DIVZERO && rc2 == BULK_ERR_DIVZERO, "divmod limbs=%zu: rc %d cpu %d", L, rc, rc2);
        CHECK(memcmp(q, q2, nd * al * 8) == 0 && memcmp(r, r2, nd * L * 8) == 0 && memcmp(e, e2, nd) == 0,
              "divmod %zu/%zu limbs differs from CPU", al, L);
        for (size_t i = 0; i < nd; i++) {
            to_mpz(y, c + i * L, L);
            if (mpz_sgn(y) == 0) {
                CHECK(e[i] == BULK_ERR_DIVZERO, "divmod zero divisor not reported, instance %zu", i);
                continue;
            }
            to_mpz(x, num + i * al, al);
            mpz_tdiv_qr(z, w, x, y);
            if (e[i] != 0 || !eq_mpz(q + i * al, al, z) || !eq_mpz(r + i * L, L, w)) {
                CHECK(0, "divmod %zu/%zu limbs instance %zu wrong", al, L, i);
                break;
            }
        }
    }
}

/* gcd of one test_size case. */
static void size_gcd(struct size_case *t)
{
    size_t L = t->L, nd = t->nd;
    bulk_limb_t *a = t->a, *b = t->b, *r = t->r, *r2 = t->r2;
    mpz_ptr x = t->x, y = t->y, z = t->z;
    int rc, rc2;

    /* gcd */
    size_t ng = nd;
    for (size_t i = 5; i < ng; i += 19) memset(b + i * L, 0, L * 8); /* gcd(a, 0) */
    rc = GPU_INTS->gcd(gpu, r, a, b, ng, L);
    rc2 = bulk_int_gcd(cpu, r2, a, b, ng, L);
    CHECK(rc == BULK_OK && rc2 == BULK_OK && memcmp(r, r2, ng * L * 8) == 0, "gcd limbs=%zu differs from CPU", L);
    for (size_t i = 0; i < ng; i++) {
        to_mpz(x, a + i * L, L);
        to_mpz(y, b + i * L, L);
        mpz_gcd(z, x, y);
        if (!eq_mpz(r + i * L, L, z)) {
            CHECK(0, "gcd limbs=%zu instance %zu wrong", L, i);
            break;
        }
    }
}

/* powmod of one test_size case. */
static void size_powmod(struct size_case *t)
{
    size_t L = t->L, nd = t->nd;
    bulk_limb_t *a = t->a, *b = t->b, *c = t->c, *r = t->r, *r2 = t->r2;
    int8_t *e = t->e, *e2 = t->e2;
    mpz_ptr x = t->x, y = t->y, z = t->z, v = t->v;
    int rc, rc2;

    /* powmod (per thread: W^2 per Montgomery product, times the exponent's bits): full
     * exponents up to 1024 bits, one-limb exponents up to 4096 bits, none above (a thread
     * would run for minutes); odd moduli, an even one every 9th instance */
    size_t np = L <= 16 ? nd : L <= 64 ? (nd < 16 ? nd : 16) : 0;
    fill(c, np, L, 6);
    for (size_t i = 0; i < np; i++) {
        c[i * L] |= 1;
        if (i % 9 == 4) c[i * L] &= ~(bulk_limb_t)1;
        if (L > 16) memset(b + i * L + 1, 0, (L - 1) * 8);
    }
    rc = GPU_INTS->powmod(gpu, r, a, b, c, np, L, e);
    rc2 = bulk_int_powmod(cpu, r2, a, b, c, np, L, e2);
    CHECK(np == 0 || (rc == BULK_ERR_EVEN_MODULUS && rc2 == BULK_ERR_EVEN_MODULUS), "powmod limbs=%zu: rc %d cpu %d", L, rc, rc2);
    CHECK(memcmp(r, r2, np * L * 8) == 0 && memcmp(e, e2, np) == 0, "powmod limbs=%zu differs from CPU", L);
    for (size_t i = 0; i < np; i++) {
        if (!sampled(i, np)) continue;
        to_mpz(x, a + i * L, L);
        to_mpz(y, b + i * L, L);
        to_mpz(v, c + i * L, L);
        if (mpz_even_p(v)) {
            CHECK(e[i] == BULK_ERR_EVEN_MODULUS, "powmod even modulus not reported");
            continue;
        }
        mpz_powm(z, x, y, v);
        if (!eq_mpz(r + i * L, L, z)) {
            CHECK(0, "powmod limbs=%zu instance %zu wrong", L, i);
            break;
        }
    }
}

static void test_size(size_t limbs, size_t n, int heavy)
{
    struct size_case t;
    size_t L = limbs, bytes = n * L * sizeof(bulk_limb_t);
    t.L = L, t.n = n, t.bytes = bytes, t.nd = heavy ? n : (n < 64 ? n : 64);
    t.a = test_xmalloc(bytes), t.b = test_xmalloc(bytes), t.c = test_xmalloc(bytes);
    t.r = test_xmalloc(2 * bytes), t.r2 = test_xmalloc(2 * bytes), t.q = test_xmalloc(2 * bytes);
    t.q2 = test_xmalloc(2 * bytes), t.a2 = test_xmalloc(2 * bytes);
    t.f = test_xmalloc(n), t.f2 = test_xmalloc(n);
    t.e = test_xmalloc(n), t.e2 = test_xmalloc(n);
    fill(t.a, n, L, 0);
    fill(t.b, n, L, 3);
    for (size_t i = 0; i < n; i += 13) memcpy(t.b + i * L, t.a + i * L, L * 8); /* equal operands */
    mpz_inits(t.x, t.y, t.z, t.w, t.v, NULL);
    size_addsub_cmp_shift(&t);
    size_mul(&t);
    size_divmod(&t);
    size_gcd(&t);
    size_powmod(&t);
    mpz_clears(t.x, t.y, t.z, t.w, t.v, NULL);
    free(t.a); free(t.b); free(t.c); free(t.r); free(t.r2); free(t.q); free(t.q2); free(t.a2);
    free(t.f); free(t.f2); free(t.e); free(t.e2);
    printf("limbs %5zu (%6zu bits) n %6zu: done\n", L, 64 * L, n);
    fflush(stdout);
}

/* The public wrappers of bulk/int.h on the CUDA context (the hooks of int_api.c and
 * int_api_div.c route to the kernels up to GPU_INTS->max_limbs(op) and to the CPU above
 * it): every operation bit for bit equal to the CPU context, q or r omitted in divmod, r == a
 * for add and shl. L = 65: powmod by the cooperative kernel at a width that is no multiple of
 * its lanes (test_int_gpu_powmod covers powmod and invmod in depth). */
static void test_public_routing(size_t L, size_t n)
{
    size_t bytes = n * L * 8;
    bulk_limb_t *a = test_xmalloc(bytes), *b = test_xmalloc(bytes), *c = test_xmalloc(bytes);
    bulk_limb_t *r = test_xmalloc(2 * bytes), *r2 = test_xmalloc(2 * bytes), *q = test_xmalloc(2 * bytes);
    bulk_limb_t *q2 = test_xmalloc(2 * bytes), *p = test_xmalloc(2 * bytes);
    uint8_t *f = test_xmalloc(n), *f2 = test_xmalloc(n);
    int8_t *e = test_xmalloc(n), *e2 = test_xmalloc(n);
    fill(a, n, L, 1);
    fill(b, n, L, 2);
    fill(c, n, L, 4);
    for (size_t i = 0; i < n; i += 23) memset(c + i * L, 0, L * 8);
    int rc, rc2;
    rc = bulk_int_add(gpu, r, f, a, b, n, L);
    rc2 = bulk_int_add(cpu, r2, f2, a, b, n, L);
    CHECK(rc == BULK_OK && rc2 == BULK_OK && memcmp(r, r2, bytes) == 0 && memcmp(f, f2, n) == 0,
          "public add on CUDA limbs=%zu (rc %d)", L, rc);
    memcpy(p, a, bytes);
    rc = bulk_int_sub(gpu, p, f, p, b, n, L);
    rc2 = bulk_int_sub(cpu, r2, f2, a, b, n, L);
    CHECK(rc == BULK_OK && memcmp(p, r2, bytes) == 0 && memcmp(f, f2, n) == 0,
          "public sub in place on CUDA limbs=%zu (rc %d)", L, rc);
    rc = bulk_int_cmp(gpu, e, a, b, n, L);
    rc2 = bulk_int_cmp(cpu, e2, a, b, n, L);
    CHECK(rc == BULK_OK && memcmp(e, e2, n) == 0, "public cmp on CUDA limbs=%zu", L);
    memcpy(p, a, bytes);
    rc = bulk_int_shl(gpu, p, p, 64 * L / 3 + 5, n, L);
    rc2 = bulk_int_shl(cpu, r2, a, 64 * L / 3 + 5, n, L);
    CHECK(rc == BULK_OK && memcmp(p, r2, bytes) == 0, "public shl in place on CUDA limbs=%zu", L);
    rc = bulk_int_shr(gpu, r, a, 67, n, L);
    rc2 = bulk_int_shr(cpu, r2, a, 67, n, L);
    CHECK(rc == BULK_OK && memcmp(r, r2, bytes) == 0, "public shr on CUDA limbs=%zu", L);
    rc = bulk_int_mul(gpu, r, a, b, n, L);
    rc2 = bulk_int_mul(cpu, r2, a, b, n, L);
    CHECK(rc == BULK_OK && memcmp(r, r2, 2 * bytes) == 0, "public mul on CUDA limbs=%zu (rc %d)", L, rc);
    memcpy(p, r, 2 * bytes); /* the products: 2W/W dividends */
    rc = bulk_int_sqr(gpu, r, a, n, L);
    rc2 = bulk_int_sqr(cpu, r2, a, n, L);
    CHECK(rc == BULK_OK && memcmp(r, r2, 2 * bytes) == 0, "public sqr on CUDA limbs=%zu", L);
    rc = bulk_int_mul_lo(gpu, r, a, b, n, L);
    rc2 = bulk_int_mul_lo(cpu, r2, a, b, n, L);
    CHECK(rc == BULK_OK && memcmp(r, r2, bytes) == 0, "public mul_lo on CUDA limbs=%zu", L);
    for (int wide = 0; wide <= 1; wide++) {
        size_t al = wide ? 2 * L : L;
        const bulk_limb_t *num = wide ? p : a;
        rc = bulk_int_divmod(gpu, q, r, num, al, c, n, L, e);
        rc2 = bulk_int_divmod(cpu, q2, r2, num, al, c, n, L, e2);
        CHECK(rc == BULK_ERR_DIVZERO && rc2 == BULK_ERR_DIVZERO && memcmp(q, q2, n * al * 8) == 0 &&
                  memcmp(r, r2, bytes) == 0 && memcmp(e, e2, n) == 0,
              "public divmod %zu/%zu on CUDA (rc %d cpu %d)", al, L, rc, rc2);
        rc = bulk_int_divmod(gpu, NULL, r, num, al, c, n, L, NULL);
        CHECK(rc == BULK_ERR_DIVZERO && memcmp(r, r2, bytes) == 0, "public divmod q = NULL on CUDA");
        rc = bulk_int_divmod(gpu, q, NULL, num, al, c, n, L, NULL);
        CHECK(rc == BULK_ERR_DIVZERO && memcmp(q, q2, n * al * 8) == 0, "public divmod r = NULL on CUDA");
    }
    rc = bulk_int_gcd(gpu, r, a, b, n, L);
    rc2 = bulk_int_gcd(cpu, r2, a, b, n, L);
    CHECK(rc == BULK_OK && memcmp(r, r2, bytes) == 0, "public gcd on CUDA limbs=%zu", L);
    rc = bulk_int_invmod(gpu, r, a, c, n, L, e);
    rc2 = bulk_int_invmod(cpu, r2, a, c, n, L, e2);
    CHECK(rc == rc2 && memcmp(r, r2, bytes) == 0 && memcmp(e, e2, n) == 0,
          "public invmod on CUDA limbs=%zu (rc %d cpu %d)", L, rc, rc2);
    size_t np = n < 64 ? n : 64;
    for (size_t i = 0; i < np; i++) {
        c[i * L] |= 1;
        if (i % 9 == 4) c[i * L] &= ~(bulk_limb_t)1;
        memset(b + i * L + 1, 0, (L - 1) * 8); /* one-limb exponents */
    }
    rc = bulk_int_powmod(gpu, r, a, b, c, np, L, e);
    rc2 = bulk_int_powmod(cpu, r2, a, b, c, np, L, e2);
    CHECK(rc == rc2 && memcmp(r, r2, np * L * 8) == 0 && memcmp(e, e2, np) == 0,
          "public powmod on CUDA limbs=%zu (rc %d cpu %d)", L, rc, rc2);
    free(a); free(b); free(c); free(r); free(r2); free(q); free(q2); free(p);
    free(f); free(f2); free(e); free(e2);
    printf("public wrappers on the CUDA context, limbs %zu n %zu: done\n", L, n);
    fflush(stdout);
}

/* The staged register divmod (divisors up to 16 limbs: full blocks of 64 by 16-byte copies,
 * partial blocks and widths below a capacity by the word loops) against the CPU backend: W/W
 * and 2W/W, zero and short divisors (every 11th instance of fill is short, every 17th divisor
 * zero: the bg_divmod fallback), q or r omitted. */
static void test_divmod_staged(size_t L, size_t n)
{
    const char *mode = "staged";
    bulk_limb_t *a = test_xmalloc(n * 2 * L * 8), *d = test_xmalloc(n * L * 8);
    bulk_limb_t *q = test_xmalloc(n * 2 * L * 8), *q2 = test_xmalloc(n * 2 * L * 8);
    bulk_limb_t *r = test_xmalloc(n * L * 8), *r2 = test_xmalloc(n * L * 8);
    int8_t *e = test_xmalloc(n), *e2 = test_xmalloc(n);
    fill(a, n, 2 * L, 1);
    fill(d, n, L, 3);
    for (size_t i = 0; i < n; i += 17) memset(d + i * L, 0, L * 8);
    for (size_t al = L; al <= 2 * L; al += L) {
        int rc = GPU_INTS->divmod(gpu, q, r, a, al, d, n, L, e);
        int rc2 = bulk_int_divmod(cpu, q2, r2, a, al, d, n, L, e2);
        CHECK(rc == BULK_ERR_DIVZERO && rc2 == BULK_ERR_DIVZERO && memcmp(q, q2, n * al * 8) == 0 &&
                  memcmp(r, r2, n * L * 8) == 0 && memcmp(e, e2, n) == 0,
              "divmod %s %zu/%zu limbs differs from CPU (rc %d)", mode, al, L, rc);
        rc = GPU_INTS->divmod(gpu, NULL, r, a, al, d, n, L, NULL);
        CHECK(rc == BULK_ERR_DIVZERO && memcmp(r, r2, n * L * 8) == 0, "divmod %s q = NULL", mode);
        rc = GPU_INTS->divmod(gpu, q, NULL, a, al, d, n, L, NULL);
        CHECK(rc == BULK_ERR_DIVZERO && memcmp(q, q2, n * al * 8) == 0, "divmod %s r = NULL", mode);
    }
    free(a); free(d); free(q); free(q2); free(r); free(r2); free(e); free(e2);
    printf("divmod %s limbs %zu n %zu: done\n", mode, L, n);
}

/* Knuth's add-back step on the device (the staged kernel, 2L/L limbs, L a capacity: the
 * full-block staging): each divisor is (d1, d0, all ones below) in 32-bit words with d1's top
 * bit set, and each dividend's top words are qd (d1, d0) shifted so that the first nonzero
 * quotient word's estimate from the top words is qd while the true word is qd - 1 (the
 * construction of test_int_gpu_core's test_divmod_addback, checked there with GMP); the rest
 * random. Against the CPU backend. */
static void test_divmod_addback(size_t L, size_t n)
{
    const char *mode = "staged";
    const size_t NW = 2 * L; /* divisor words */
    uint32_t *a = test_xmalloc(n * 4 * L * 8), *d = test_xmalloc(n * L * 8);
    bulk_limb_t *q = test_xmalloc(n * 2 * L * 8), *q2 = test_xmalloc(n * 2 * L * 8);
    bulk_limb_t *r = test_xmalloc(n * L * 8), *r2 = test_xmalloc(n * L * 8);
    for (size_t i = 0; i < n; i++) {
        uint32_t *u = a + i * 2 * NW, *v = d + i * NW;
        uint32_t d1 = (uint32_t)test_rand(&rng) | 0x80000000u, d0 = (uint32_t)test_rand(&rng);
        uint32_t qd = (uint32_t)test_rand(&rng) | 2;
        for (size_t k = 0; k < NW - 2; k++) v[k] = 0xffffffffu;
        v[NW - 2] = d0;
        v[NW - 1] = d1;
        for (size_t k = 0; k < 2 * NW; k++) u[k] = (uint32_t)test_rand(&rng);
        uint64_t c = (uint64_t)qd * d0; /* u's top three words = qd (d1, d0) */
        u[2 * NW - 3] = (uint32_t)c;
        c = (uint64_t)qd * d1 + (c >> 32);
        u[2 * NW - 2] = (uint32_t)c;
        u[2 * NW - 1] = (uint32_t)(c >> 32);
    }
    int rc = GPU_INTS->divmod(gpu, q, r, (const bulk_limb_t *)a, 2 * L, (const bulk_limb_t *)d,
                                  n, L, NULL);
    int rc2 = bulk_int_divmod(cpu, q2, r2, (const bulk_limb_t *)a, 2 * L, (const bulk_limb_t *)d,
                              n, L, NULL);
    CHECK(rc == BULK_OK && rc2 == BULK_OK && memcmp(q, q2, n * 2 * L * 8) == 0 &&
              memcmp(r, r2, n * L * 8) == 0,
          "divmod %s add-back cases %zu/%zu limbs differ from CPU (rc %d)", mode, 2 * L, L, rc);
    free(a); free(d); free(q); free(q2); free(r); free(r2);
    printf("divmod %s add-back cases limbs %zu n %zu: done\n", mode, L, n);
}

/* gcd under the tuning int.gcd=mode ("" = the default: batched divsteps in registers up to 16
 * limbs; "approx" = seed 001's kernel) against the CPU backend on every instance and GMP on a
 * sample: random and structured limbs (fill), equal operands, one or both zero, powers of two,
 * all ones, top limb 1, a common factor times different powers of two, and in-place g == a. */
static void test_gcd_mode(const char *mode, size_t L, size_t n)
{
    if (*mode) tune("int.gcd", mode);
    size_t bytes = n * L * 8;
    bulk_limb_t *a = test_xmalloc(bytes), *b = test_xmalloc(bytes), *g = test_xmalloc(bytes), *g2 = test_xmalloc(bytes);
    fill(a, n, L, 2);
    fill(b, n, L, 6);
    for (size_t i = 0; i < n; i++) {
        bulk_limb_t *x = a + i * L, *y = b + i * L;
        size_t bit = test_rand(&rng) % (64 * L);
        switch (i % 16) {
        case 1: memcpy(y, x, L * 8); break;
        case 2: memset(y, 0, L * 8); break;
        case 3: memset(x, 0, L * 8); memset(y, 0, L * 8); break;
        case 4: memset(x, 0, L * 8); x[bit / 64] = 1ull << (bit % 64); break;
        case 5: memset(x, 0xff, L * 8); break;
        case 6: x[L - 1] = 1; y[L - 1] = 1; break;
        case 7: /* x = 2^s f, y = 2^t f with f the low half of x, odd */
            for (size_t j = (L + 1) / 2; j < L; j++) x[j] = 0;
            x[0] |= 1;
            memcpy(y, x, L * 8);
            bulk_int_shl(cpu, x, x, bit % (32 * L), 1, L);
            bulk_int_shl(cpu, y, y, (bit / 3) % (32 * L), 1, L);
            break;
        default: break;
        }
    }
    int rc = GPU_INTS->gcd(gpu, g, a, b, n, L);
    int rc2 = bulk_int_gcd(cpu, g2, a, b, n, L);
    CHECK(rc == BULK_OK && rc2 == BULK_OK && memcmp(g, g2, bytes) == 0,
          "gcd %s limbs=%zu n=%zu differs from CPU (rc %d)", *mode ? mode : "default", L, n, rc);
    mpz_t x, y, z;
    mpz_inits(x, y, z, NULL);
    for (size_t i = 0; i < n; i += 5) {
        to_mpz(x, a + i * L, L);
        to_mpz(y, b + i * L, L);
        mpz_gcd(z, x, y);
        if (!eq_mpz(g + i * L, L, z)) {
            CHECK(0, "gcd %s limbs=%zu instance %zu wrong", *mode ? mode : "default", L, i);
            break;
        }
    }
    mpz_clears(x, y, z, NULL);
    memcpy(g, a, bytes); /* in place: g == a */
    rc = GPU_INTS->gcd(gpu, g, g, b, n, L);
    CHECK(rc == BULK_OK && memcmp(g, g2, bytes) == 0, "gcd %s limbs=%zu in place", *mode ? mode : "default", L);
    tune(NULL, NULL);
    free(a); free(b); free(g); free(g2);
    printf("gcd %s limbs %zu n %zu: done\n", *mode ? mode : "default", L, n);
}

/* Sum-rotate forced (the tuning int.mul=sr) at widths whose cost-model shapes cover the compiled
 * group sizes 8, 16, 32 and word counts 2 .. 16, with and without the vector variant (8x4,
 * 8x8, 16x4, 8x16, 16x8), against the CPU. */
static void test_sr_shapes(void)
{
    static const size_t sizes[] = {5, 8, 13, 16, 17, 24, 32, 48, 64, 96, 128, 200, 256};
    tune("int.mul", "sr");
    for (int si = 0; si < 13; si++) {
        size_t L = sizes[si], n = 1001;
        bulk_limb_t *a = test_xmalloc(n * L * 8), *b = test_xmalloc(n * L * 8);
        bulk_limb_t *r = test_xmalloc(n * 2 * L * 8), *r2 = test_xmalloc(n * 2 * L * 8);
        fill(a, n, L, 2);
        fill(b, n, L, 5);
        CHECK(bulk_int_mul(cpu, r2, a, b, n, L) == BULK_OK, "CPU mul");
        memset(r, 0x5a, n * 2 * L * 8);
        int rc = GPU_INTS->mul(gpu, r, a, b, n, L);
        CHECK(rc == BULK_OK && memcmp(r, r2, n * 2 * L * 8) == 0,
              "sum-rotate limbs=%zu differs from CPU (rc %d)", L, rc);
        free(a); free(b); free(r); free(r2);
    }
    tune(NULL, NULL);
    printf("sum-rotate shapes: done\n");
}

/* Every multiplication kernel forced at sizes it would not be chosen for (the tuning int.mul),
 * so that each is checked across its range, not only where the size model sends it. */
static void test_mul_kernels(void)
{
    static const char *kinds[] = {"sr", "cols", "kara", "teo", "coop"};
    /* 513 and 1024 limbs: the warp-column kernel with more tasks than warps (odd 513 cannot
     * take Karatsuba, so every kind ends there) */
    static const size_t sizes[] = {1, 3, 5, 16, 17, 33, 64, 100, 256, 513, 1024};
    for (int k = 0; k < 5; k++)
        for (int si = 0; si < 11; si++) {
            size_t L = sizes[si], n = L >= 512 ? 203 : 1001;
            if (k == 3 && L > 20) continue; /* teo: up to its 20-limb capacity */
            if (k == 4 && L > 64) continue; /* coop: up to its 64-limb capacity */
            tune("int.mul", kinds[k]);
            bulk_limb_t *a = test_xmalloc(n * L * 8), *b = test_xmalloc(n * L * 8);
            bulk_limb_t *r = test_xmalloc(n * 2 * L * 8), *rl = test_xmalloc(n * L * 8);
            fill(a, n, L, 1);
            fill(b, n, L, 2);
            int rc = GPU_INTS->mul(gpu, r, a, b, n, L);
            int rc2 = GPU_INTS->mul_lo(gpu, rl, a, b, n, L);
            CHECK(rc == BULK_OK && rc2 == BULK_OK, "mul kernel %s limbs=%zu: rc %d %d", kinds[k], L, rc, rc2);
            size_t bad = first_wrong_product(r, rl, a, b, n, L);
            CHECK(bad == n, "mul kernel %s limbs=%zu instance %zu wrong", kinds[k], L, bad);
            free(a); free(b); free(r); free(rl);
        }
    tune(NULL, NULL);
    /* Karatsuba over the batch at several levels (the tuning int.kara_min lowers the threshold for
     * the half products too): 1024 limbs down to 32-limb products, odd halves at 200 limbs */
    static const size_t ksz[] = {64, 200, 256, 1024};
    tune("int.kara_min", "32");
    for (int si = 0; si < 4; si++) {
        size_t L = ksz[si], n = L >= 512 ? 67 : 301;
        bulk_limb_t *a = test_xmalloc(n * L * 8), *b = test_xmalloc(n * L * 8), *r = test_xmalloc(n * 2 * L * 8);
        fill(a, n, L, 4);
        fill(b, n, L, 5);
        for (size_t i = 0; i < n; i += 9) memset(a + i * L, 0xff, L * 8);
        for (size_t i = 0; i < n; i += 10) memset(b + i * L, 0xff, L * 8);
        int rc = GPU_INTS->mul(gpu, r, a, b, n, L);
        CHECK(rc == BULK_OK, "multi-level Karatsuba limbs=%zu: rc %d", L, rc);
        size_t bad = first_wrong_product(r, NULL, a, b, n, L);
        CHECK(bad == n, "multi-level Karatsuba limbs=%zu instance %zu wrong", L, bad);
        free(a); free(b); free(r);
    }
    tune(NULL, NULL);
    printf("forced multiplication kernels: done\n");
}

/* One batch of n products of L limbs by the kernel the tuning int.mul=kind forces (teo, coop),
 * all-ones operands (the longest carry chains) in every 5th / 6th instance, against GMP; also
 * the low halves (teo: bg_mullo_rows_eo) and the squares of a (teo: bg_sqr_rows_eo). */
static void check_kernel(const char *kind, size_t L, size_t n)
{
    bulk_limb_t *a = test_xmalloc(n * L * 8), *b = test_xmalloc(n * L * 8), *r = test_xmalloc(n * 2 * L * 8);
    fill(a, n, L, 6);
    fill(b, n, L, 7);
    for (size_t i = 0; i < n; i += 5) memset(a + i * L, 0xff, L * 8);
    for (size_t i = 0; i < n; i += 6) memset(b + i * L, 0xff, L * 8);
    memset(r, 0x5a, n * 2 * L * 8);
    tune("int.mul", kind);
    int rc = GPU_INTS->mul(gpu, r, a, b, n, L);
    CHECK(rc == BULK_OK, "%s kernel limbs=%zu n=%zu: rc %d", kind, L, n, rc);
    size_t bad = first_wrong_product(r, NULL, a, b, n, L);
    CHECK(bad == n, "%s kernel limbs=%zu n=%zu: instance %zu wrong", kind, L, n, bad);
    { /* low halves by bg_mullo_rows_eo, squares by bg_sqr_rows_eo */
        bulk_limb_t *rl = test_xmalloc(n * L * 8);
        memset(rl, 0x5a, n * L * 8);
        rc = GPU_INTS->mul_lo(gpu, rl, a, b, n, L);
        CHECK(rc == BULK_OK, "%s low half limbs=%zu n=%zu: rc %d", kind, L, n, rc);
        bad = first_wrong_product(r, rl, a, b, n, L);
        CHECK(bad == n, "%s low half limbs=%zu n=%zu: instance %zu wrong", kind, L, n, bad);
        free(rl);
        memset(r, 0x5a, n * 2 * L * 8);
        rc = GPU_INTS->sqr(gpu, r, a, n, L);
        CHECK(rc == BULK_OK, "%s square limbs=%zu n=%zu: rc %d", kind, L, n, rc);
        bad = first_wrong_product(r, NULL, a, a, n, L);
        CHECK(bad == n, "%s square limbs=%zu n=%zu: instance %zu wrong", kind, L, n, bad);
    }
    tune(NULL, NULL);
    free(a); free(b); free(r);
}

/* The even/odd kernel at every width it takes (1 .. 20 limbs: the compiled capacities 1, 2,
 * 4, 8, 12, 16, 20 and the zero-padded widths between them), counts that are not a multiple of
 * the block (128; 64 for products at 13 .. 16 limbs), one full block plus one instance, and a
 * larger batch at 16 limbs. */
static void test_eo(void)
{
    for (size_t L = 1; L <= 20; L++) check_kernel("teo", L, 1001 + 2 * L);
    check_kernel("teo", 16, 129);
    check_kernel("teo", 16, 65);
    check_kernel("teo", 16, 64);
    check_kernel("teo", 16, ((size_t)1 << 18) + 77);
    printf("even/odd kernels: done\n");
}

/* The cooperative product at every width it takes (1 .. 64 limbs: its compiled 2048- and
 * 4096-bit shapes and the zero-padded widths below each, so the word-by-word loads and stores
 * as well as the vector ones), counts that leave a block (32 or 16 instances) partly empty,
 * and larger batches. */
static void test_coop(void)
{
    for (size_t L = 1; L <= 64; L++) check_kernel("coop", L, 301 + 2 * L);
    check_kernel("coop", 32, 33);
    check_kernel("coop", 64, 17);
    check_kernel("coop", 32, ((size_t)1 << 16) + 77);
    check_kernel("coop", 64, ((size_t)1 << 15) + 5);
    printf("cooperative products: done\n");
}

/* One Karatsuba step over cooperative half products (int.mul=ckara) at its width (4096 bits),
 * with counts below, at and around a block (8 instances) and larger batches; the neighbouring
 * widths and 2048 bits, which it hands to the cooperative rows. */
static void test_ckara(void)
{
    static const size_t n64[] = {1, 7, 8, 9, 1001, ((size_t)1 << 16) + 5};
    for (int k = 0; k < 6; k++) check_kernel("ckara", 64, n64[k]);
    check_kernel("ckara", 63, 301);
    check_kernel("ckara", 32, 301);
    printf("Karatsuba over cooperative products: done\n");
}

/* The device-resident chain: p = a * b; (q, r) = p divmod c; g = gcd(r, c); one download. */
static void test_chain(size_t limbs, size_t n)
{
    size_t L = limbs;
    bulk_limb_t *a = test_xmalloc(n * L * 8), *b = test_xmalloc(n * L * 8), *c = test_xmalloc(n * L * 8);
    bulk_limb_t *g = test_xmalloc(n * L * 8);
    fill(a, n, L, 1);
    fill(b, n, L, 2);
    fill(c, n, L, 4);
    for (size_t i = 0; i < n; i++) c[i * L] |= 1; /* no zero divisors */
    bulk_int_dev *da, *db, *dc, *dp, *dq, *dr, *dg;
    int rc = bulk_int_dev_alloc(gpu, &da, n, L);
    rc |= bulk_int_dev_alloc(gpu, &db, n, L);
    rc |= bulk_int_dev_alloc(gpu, &dc, n, L);
    rc |= bulk_int_dev_alloc(gpu, &dp, n, 2 * L);
    rc |= bulk_int_dev_alloc(gpu, &dq, n, 2 * L);
    rc |= bulk_int_dev_alloc(gpu, &dr, n, L);
    rc |= bulk_int_dev_alloc(gpu, &dg, n, L);
    CHECK(rc == BULK_OK, "dev alloc");
    rc = bulk_int_dev_upload(gpu, da, a);
    rc |= bulk_int_dev_upload(gpu, db, b);
    rc |= bulk_int_dev_upload(gpu, dc, c);
    rc |= bulk_int_dev_mul(gpu, dp, da, db);
    rc |= bulk_int_dev_divmod(gpu, dq, dr, dp, dc, NULL);
    rc |= bulk_int_dev_gcd(gpu, dg, dr, dc);
    rc |= bulk_int_dev_download(gpu, dg, g);
    CHECK(rc == BULK_OK, "device chain limbs=%zu", L);
    CHECK(bulk_int_dev_mul(gpu, dp, da, dc) == BULK_OK, "dev mul");
    CHECK(bulk_int_dev_mul(gpu, dr, da, db) == BULK_ERR_ARG, "dev mul with a too narrow result accepted");
    CHECK(strstr(bulk_ctx_last_error(gpu), "bulk_int_dev_mul: r holds"), "dev mul message: %s", bulk_ctx_last_error(gpu));
    CHECK(bulk_int_dev_add(gpu, dp, da, db) == BULK_ERR_ARG && strstr(bulk_ctx_last_error(gpu), "bulk_int_dev_add: r"),
          "dev add into a wider result: %s", bulk_ctx_last_error(gpu));
    CHECK(bulk_int_dev_divmod(gpu, dq, dr, dp, dp, NULL) == BULK_ERR_ARG &&
              strstr(bulk_ctx_last_error(gpu), "bulk_int_dev_divmod"),
          "dev divmod by a 2L divisor of a 2L dividend into an L remainder: %s", bulk_ctx_last_error(gpu));
    CHECK(bulk_int_dev_sqr(gpu, dp, NULL) == BULK_ERR_ARG && strstr(bulk_ctx_last_error(gpu), "bulk_int_dev_sqr: a is NULL"),
          "dev sqr NULL: %s", bulk_ctx_last_error(gpu));
    CHECK(bulk_int_dev_powmod(gpu, da, da, db, dc, NULL) == BULK_ERR_ARG &&
              strstr(bulk_ctx_last_error(gpu), "results may not overlap"),
          "dev powmod r == base: %s", bulk_ctx_last_error(gpu));
    mpz_t x, y, m, z;
    mpz_inits(x, y, m, z, NULL);
    for (size_t i = 0; i < n; i++) {
        to_mpz(x, a + i * L, L);
        to_mpz(y, b + i * L, L);
        to_mpz(m, c + i * L, L);
        mpz_mul(z, x, y);
        mpz_mod(z, z, m);
        mpz_gcd(z, z, m);
        if (!eq_mpz(g + i * L, L, z)) {
            CHECK(0, "device chain limbs=%zu instance %zu wrong", L, i);
            break;
        }
    }
    mpz_clears(x, y, m, z, NULL);
    bulk_int_dev_free(da); bulk_int_dev_free(db); bulk_int_dev_free(dc); bulk_int_dev_free(dp);
    bulk_int_dev_free(dq); bulk_int_dev_free(dr); bulk_int_dev_free(dg);
    free(a); free(b); free(c); free(g);
    printf("device chain limbs %zu n %zu: done\n", L, n);
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    if (bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device (test_int_gpu needs one; nothing was run)\n");
        return 77; /* ctest: SKIP_RETURN_CODE */
    }
    if (bulk_ctx_open(&gpu, BULK_BACKEND_CUDA, 0) != BULK_OK || bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) {
        fprintf(stderr, "cannot open the contexts\n");
        return 1;
    }
    test_mul_kernels();
    test_eo();
    test_coop();
    test_ckara();
    test_sr_shapes();
    /* divmod up to 16 limbs (the staged kernel; above 16 limbs test_size covers bg_divmod) */
    static const size_t dcols[] = {1, 2, 3, 4, 5, 8, 12, 13, 16};
    for (int k = 0; k < 9; k++) test_divmod_staged(dcols[k], 4099);
    test_divmod_staged(16, 64 * 7); /* full blocks only */
    test_divmod_addback(16, 64 + 7);
    test_divmod_addback(16, 2 * 64 + 5);
    test_divmod_addback(4, 128);
    test_divmod_addback(8, 64);
    test_divmod_addback(16, 64 + 1);
    /* gcd: the register kernel's capacities 4, 8, 16, 32, 64 words and widths between them;
     * 33 limbs: the approximate kernel */
    static const size_t gl[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 32, 33};
    for (int k = 0; k < 15; k++) test_gcd_mode("", gl[k], (gl[k] > 16 ? 2001 : 5001) + 13 * (size_t)k);
    for (int k = 0; k < 4; k++) test_gcd_mode("approx", gl[3 * k + 2], 1003);
    /* W = 64 .. 1024 bits (per-thread kernels), then the warp-column sizes up to 65536 bits */
    static const size_t small[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16};
    for (int k = 0; k < 12; k++) test_size(small[k], 4099 + 37 * (size_t)k, 1);
    static const size_t large[] = {17, 18, 24, 32, 33, 64, 128, 256, 1024};
    for (int k = 0; k < 9; k++) test_size(large[k], large[k] >= 256 ? 67 : 515, large[k] <= 64);
    /* a batch large enough to be streamed in several chunks through both slots */
    test_size(16, (size_t)1 << 21, 0);
    /* the public API on the CUDA context */
    test_public_routing(16, 2049);
    test_public_routing(64, 300);
    test_public_routing(65, 100);
    test_chain(16, 3001);
    test_chain(33, 301);
    bulk_ctx_close(gpu);
    bulk_ctx_close(cpu);
    return test_finish();
}
