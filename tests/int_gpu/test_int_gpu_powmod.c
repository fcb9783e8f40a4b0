/* powmod and invmod on the device (label gpu): the cooperative powmod kernel at every shape it
 * compiles (int.powmod_tpi = 1, 4, 8, 16, 32) and the default one at 256 .. 8192 bits, with
 * exponents of 0, 1, 2, 64, 512 bits and full width; invmod at 64 .. 8192 bits, every shape of
 * its cooperative kernel at its narrowest and widest widths, with odd, even and mixed moduli
 * (the cooperative kernel leaves the even ones to the one-thread kernel). Each through
 * the host API (bulk_int_powmod / bulk_int_invmod on a CUDA context) and the device-resident API
 * (bulk_int_dev_powmod / bulk_int_dev_invmod), against GMP (mpz_powm, mpz_invert) and the CPU
 * context (bit for bit, per-instance codes and return status included).
 *
 * Instances cycle through edge cases: base 0, base all ones (>= m), base = m, base = m - 1,
 * exponent 0, even m, m = 1, m all ones, a one-limb m in a wide instance; invmod adds m = 0,
 * m = 2^(W-1) + 1, a = 0, 1, 2, m - 1, m, m + 1, (m + 1) / 2, all ones (above m), a sharing a
 * factor 3 with m. A failure prints the width, the exponent kind,
 * the tuning, the first wrong instance and its inputs in hex. Without a CUDA device it prints
 * "SKIP: no CUDA device" and exits 77. --seed S replays. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/int.h"
#include "bulk/int_device.h"
#include "int/cuda/core/invmod_coop.h"
#include "test_util.h"

static uint64_t rng;
static bulk_ctx *gpu, *cpu;

static void tune(const char *t)
{
    CHECK(bulk_ctx_set_tune(gpu, t) == BULK_OK, "tune %s: %s", t, bulk_ctx_last_error(gpu));
}

static void print_hex(const char *name, const bulk_limb_t *p, size_t L)
{
    fprintf(stderr, "  %s = 0x", name);
    size_t j = L;
    while (j > 1 && p[j - 1] == 0) j--;
    fprintf(stderr, "%llx", (unsigned long long)p[j - 1]);
    while (j-- > 1) fprintf(stderr, "%016llx", (unsigned long long)p[j - 1]);
    fputc('\n', stderr);
}

static void to_mpz(mpz_t z, const bulk_limb_t *p, size_t L) { mpz_import(z, L, -1, 8, 0, 0, p); }

static void from_mpz(bulk_limb_t *p, size_t L, const mpz_t z)
{
    memset(p, 0, L * 8);
    if (mpz_sizeinbase(z, 2) <= 64 * L) mpz_export(p, NULL, -1, 8, 0, 0, z);
}

static void random_limbs(bulk_limb_t *p, size_t L, int kind)
{
    for (size_t j = 0; j < L; j++) p[j] = test_structured_limb(&rng, kind);
}

/* An exponent of exactly eb bits (eb = 0: zero). */
static void exponent(bulk_limb_t *e, size_t L, size_t eb)
{
    memset(e, 0, L * 8);
    for (size_t j = 0; j < (eb + 63) / 64; j++) e[j] = test_rand(&rng);
    if (eb % 64) e[eb / 64] &= ((bulk_limb_t)1 << (eb % 64)) - 1;
    if (eb) e[(eb - 1) / 64] |= (bulk_limb_t)1 << ((eb - 1) % 64);
}

/* n powmod instances of L limbs with eb-bit exponents, edge cases by i % 12. */
static void make_powmod(bulk_limb_t *b, bulk_limb_t *e, bulk_limb_t *m, size_t n, size_t L, size_t eb)
{
    for (size_t i = 0; i < n; i++) {
        bulk_limb_t *bi = b + i * L, *ei = e + i * L, *mi = m + i * L;
        random_limbs(mi, L, (int)(i % 8) | 6);
        mi[0] |= 1;
        if (i % 3 == 0) mi[L - 1] |= (bulk_limb_t)1 << 63;
        random_limbs(bi, L, (int)(i % 8));
        exponent(ei, L, eb);
        switch (i % 12) {
        case 0: memset(bi, 0, L * 8); break;
        case 1: memset(bi, 0xff, L * 8); break;
        case 2: memcpy(bi, mi, L * 8); break;
        case 3: memcpy(bi, mi, L * 8), bi[0] -= 1; break;
        case 4: memset(ei, 0, L * 8); break;
        case 5: mi[0] &= ~(bulk_limb_t)1; break;
        case 6: memset(mi, 0, L * 8), mi[0] = 1; break;
        case 7: memset(mi, 0xff, L * 8); break;
        case 8: memset(mi + 1, 0, (L - 1) * 8); break;
        default: break;
        }
    }
}

/* The first instance whose r / code differs from GMP's; n when none. */
static size_t first_wrong_powmod(const bulk_limb_t *r, const int8_t *err, const bulk_limb_t *b,
                                 const bulk_limb_t *e, const bulk_limb_t *m, size_t n, size_t L,
                                 bulk_limb_t *want)
{
    mpz_t B, E, M, Z;
    mpz_inits(B, E, M, Z, NULL);
    size_t i = 0;
    for (; i < n; i++) {
        to_mpz(B, b + i * L, L);
        to_mpz(E, e + i * L, L);
        to_mpz(M, m + i * L, L);
        int even = mpz_even_p(M);
        if (!even) mpz_powm(Z, B, E, M);
        else mpz_set_ui(Z, 0);
        from_mpz(want, L, Z);
        if (memcmp(want, r + i * L, L * 8) != 0 || err[i] != (even ? BULK_ERR_EVEN_MODULUS : 0)) break;
    }
    mpz_clears(B, E, M, Z, NULL);
    return i;
}

/* The kernel int.powmod_tpi = want runs at L limbs: "TPIxL" lanes x words, or "1x" (one thread
 * per instance), as src/int/cuda/num/powmod.cu chooses it. */
static const char *shape(size_t L, const char *t, char *buf, size_t size)
{
    const char *eq = strchr(t, '=');
    int tpi, w;
    if (bg_mc_shape((int)(2 * L), eq ? atoi(eq + 1) : 0, &tpi, &w)) snprintf(buf, size, "%dx%d", tpi, w);
    else snprintf(buf, size, "1x");
    return buf;
}

/* powmod at L limbs, eb-bit exponents, under the tuning t: host API vs GMP and the CPU
 * context, device API vs host API. */
static void check_powmod(size_t L, size_t n, size_t eb, const char *t)
{
    size_t bytes = n * L * 8;
    bulk_limb_t *b = test_xmalloc(bytes), *e = test_xmalloc(bytes), *m = test_xmalloc(bytes);
    bulk_limb_t *r = test_xmalloc(bytes), *r2 = test_xmalloc(bytes), *want = test_xmalloc(L * 8);
    int8_t *err = test_xmalloc(n), *err2 = test_xmalloc(n);
    make_powmod(b, e, m, n, L, eb);
    tune(t);
    int rc = bulk_int_powmod(gpu, r, b, e, m, n, L, err);
    int exp_rc = n > 5 ? BULK_ERR_EVEN_MODULUS : BULK_OK;
    CHECK(rc == exp_rc, "powmod %zu bits exp %zu bits tune '%s': status %d, want %d (%s)", 64 * L,
          eb, t, rc, exp_rc, bulk_ctx_last_error(gpu));
    size_t i = first_wrong_powmod(r, err, b, e, m, n, L, want);
    char sh[32];
    CHECK(i == n, "powmod %zu bits exp %zu bits tune '%s' (kernel %s) n %zu: instance %zu wrong (code %d)",
          64 * L, eb, t, shape(L, t, sh, sizeof sh), n, i, i < n ? err[i] : 0);
    if (i < n && test_failures <= 3) {
        print_hex("base", b + i * L, L);
        print_hex("exp", e + i * L, L);
        print_hex("m", m + i * L, L);
        print_hex("got", r + i * L, L);
        print_hex("want", want, L);
    }
    if (eb <= 64 || L <= 32) { /* the CPU context (wide full exponents: GMP alone) */
        int rc2 = bulk_int_powmod(cpu, r2, b, e, m, n, L, err2);
        CHECK(rc2 == rc && memcmp(r, r2, bytes) == 0 && memcmp(err, err2, n) == 0,
              "powmod %zu bits exp %zu bits tune '%s': differs from the CPU context", 64 * L, eb, t);
    }
    /* device-resident */
    bulk_int_dev *db = NULL, *de = NULL, *dm = NULL, *dr = NULL;
    int ok = bulk_int_dev_alloc(gpu, &db, n, L) == BULK_OK && bulk_int_dev_alloc(gpu, &de, n, L) == BULK_OK &&
             bulk_int_dev_alloc(gpu, &dm, n, L) == BULK_OK && bulk_int_dev_alloc(gpu, &dr, n, L) == BULK_OK &&
             bulk_int_dev_upload(gpu, db, b) == BULK_OK && bulk_int_dev_upload(gpu, de, e) == BULK_OK &&
             bulk_int_dev_upload(gpu, dm, m) == BULK_OK;
    CHECK(ok, "dev powmod %zu bits: set-up: %s", 64 * L, bulk_ctx_last_error(gpu));
    if (ok) {
        memset(err2, 0x55, n);
        int rc3 = bulk_int_dev_powmod(gpu, dr, db, de, dm, err2);
        CHECK(rc3 == rc, "dev powmod %zu bits exp %zu bits tune '%s': status %d, host %d", 64 * L,
              eb, t, rc3, rc);
        CHECK(bulk_int_dev_download(gpu, dr, r2) == BULK_OK, "dev powmod download");
        size_t k = 0;
        while (k < n && memcmp(r + k * L, r2 + k * L, L * 8) == 0 && err[k] == err2[k]) k++;
        CHECK(k == n, "dev powmod %zu bits exp %zu bits tune '%s': instance %zu differs from the host API",
              64 * L, eb, t, k);
    }
    bulk_int_dev_free(db), bulk_int_dev_free(de), bulk_int_dev_free(dm), bulk_int_dev_free(dr);
    free(b), free(e), free(m), free(r), free(r2), free(want), free(err), free(err2);
    tune("");
}

/* The invmod kernel at L limbs under the tuning t: "TPIxL" (the cooperative one for odd
 * moduli) or "1x". */
static const char *inv_shape(size_t L, const char *t, char *buf, size_t size)
{
    const char *eq = strchr(t, '=');
    int tpi, w;
    if (bg_ic_shape((int)(2 * L), eq ? atoi(eq + 1) : 0, &tpi, &w)) snprintf(buf, size, "%dx%d", tpi, w);
    else snprintf(buf, size, "1x");
    return buf;
}

/* invmod at L limbs: host API vs GMP and the CPU context, device API vs host API. mode 0:
 * moduli of both parities (runs of 16 instances all odd, all even, mixed); 1: all odd (the
 * cooperative kernel alone); 2: all even (the one-thread kernel alone, after the cooperative
 * one from BG_IC_MIN_WORDS words on). t: the tuning (int.invmod_tpi). Edge cases by i % 16. */
static void check_invmod(size_t L, size_t n, int mode, const char *t)
{
    size_t bytes = n * L * 8;
    bulk_limb_t *a = test_xmalloc(bytes), *m = test_xmalloc(bytes), *r = test_xmalloc(bytes);
    bulk_limb_t *r2 = test_xmalloc(bytes), *want = test_xmalloc(L * 8);
    int8_t *err = test_xmalloc(n), *err2 = test_xmalloc(n);
    for (size_t i = 0; i < n; i++) {
        bulk_limb_t *ai = a + i * L, *mi = m + i * L;
        random_limbs(ai, L, (int)(i % 8));
        random_limbs(mi, L, (int)(i % 8) | 6);
        if (i % 3 == 0) mi[L - 1] |= (bulk_limb_t)1 << 63;
        int parity = (int)(i / 16 % 4); /* 0: odd moduli throughout, 1: even, 2, 3: mixed */
        int odd = parity == 0 || (parity >= 2 && i % 4 != 1);
        mi[0] = odd ? mi[0] | 1 : mi[0] & ~(bulk_limb_t)1;
        switch (i % 16) {
        case 1: memset(mi, 0, L * 8); break; /* m = 0 */
        case 2: memset(ai, 0, L * 8), ai[0] = 1; break;
        case 3: memset(mi, 0, L * 8), mi[0] = 1; break;
        case 4: memcpy(ai, mi, L * 8), ai[0] -= 1; break; /* m - 1 (m odd or 0 mod 2^64) */
        case 5: memset(ai, 0, L * 8); break;
        case 6: memcpy(ai, mi, L * 8); break;
        case 7: memset(ai, 0xff, L * 8); break; /* above m */
        case 8: memset(mi, 0xff, L * 8); break;
        case 10: memset(mi + 1, 0, (L - 1) * 8); break; /* a short m in a wide instance */
        case 11: memset(mi, 0, L * 8), mi[0] = 1, mi[L - 1] = (bulk_limb_t)1 << 63; break;
        case 12: { /* m + 1 and (m + 1) / 2 */
            mpz_t A;
            mpz_init(A);
            to_mpz(A, mi, L);
            mpz_add_ui(A, A, 1);
            if (i % 32 == 12) mpz_fdiv_q_2exp(A, A, 1);
            mpz_fdiv_r_2exp(A, A, 64 * L);
            from_mpz(ai, L, A);
            mpz_clear(A);
            break;
        }
        case 13: memset(ai, 0, L * 8), ai[0] = 2; break;
        case 14: { /* a common factor 3 */
            mpz_t A, M;
            mpz_inits(A, M, NULL);
            to_mpz(A, ai, L), to_mpz(M, mi, L);
            mpz_tdiv_q_ui(A, A, 3), mpz_tdiv_q_ui(M, M, 3);
            mpz_mul_ui(A, A, 3), mpz_mul_ui(M, M, 3);
            if (mpz_sgn(M) == 0) mpz_set_ui(M, 3);
            from_mpz(ai, L, A), from_mpz(mi, L, M);
            mpz_clears(A, M, NULL);
            break;
        }
        default: break;
        }
        if (mode == 1) mi[0] |= 1;
        if (mode == 2) mi[0] &= ~(bulk_limb_t)1;
    }
    tune(t);
    int rc = bulk_int_invmod(gpu, r, a, m, n, L, err);
    int rc2 = bulk_int_invmod(cpu, r2, a, m, n, L, err2);
    CHECK(rc == rc2 && memcmp(r, r2, bytes) == 0 && memcmp(err, err2, n) == 0,
          "invmod %zu bits n %zu mode %d tune '%s': differs from the CPU context (status %d, cpu %d)",
          64 * L, n, mode, t, rc, rc2);
    mpz_t A, M, Z;
    mpz_inits(A, M, Z, NULL);
    size_t i = 0;
    for (; i < n; i++) {
        to_mpz(A, a + i * L, L);
        to_mpz(M, m + i * L, L);
        int code = 0;
        mpz_set_ui(Z, 0);
        if (mpz_sgn(M) == 0) code = BULK_ERR_DIVZERO;
        else if (mpz_cmp_ui(M, 1) != 0 && !mpz_invert(Z, A, M)) code = BULK_ERR_NOT_INVERTIBLE;
        from_mpz(want, L, Z);
        if (memcmp(want, r + i * L, L * 8) != 0 || err[i] != code) break;
    }
    char sh[32];
    CHECK(i == n, "invmod %zu bits n %zu mode %d tune '%s' (kernel %s): instance %zu wrong (code %d)",
          64 * L, n, mode, t, inv_shape(L, t, sh, sizeof sh), i, i < n ? err[i] : 0);
    if (i < n && test_failures <= 3) {
        print_hex("a", a + i * L, L);
        print_hex("m", m + i * L, L);
        print_hex("got", r + i * L, L);
        print_hex("want", want, L);
    }
    mpz_clears(A, M, Z, NULL);
    bulk_int_dev *da = NULL, *dm = NULL, *dr = NULL;
    int ok = bulk_int_dev_alloc(gpu, &da, n, L) == BULK_OK && bulk_int_dev_alloc(gpu, &dm, n, L) == BULK_OK &&
             bulk_int_dev_alloc(gpu, &dr, n, L) == BULK_OK && bulk_int_dev_upload(gpu, da, a) == BULK_OK &&
             bulk_int_dev_upload(gpu, dm, m) == BULK_OK;
    CHECK(ok, "dev invmod %zu bits: set-up: %s", 64 * L, bulk_ctx_last_error(gpu));
    if (ok) {
        int rc3 = bulk_int_dev_invmod(gpu, dr, da, dm, err2);
        CHECK(rc3 == rc, "dev invmod %zu bits tune '%s': status %d, host %d", 64 * L, t, rc3, rc);
        CHECK(bulk_int_dev_download(gpu, dr, r2) == BULK_OK, "dev invmod download");
        CHECK(memcmp(r, r2, bytes) == 0 && memcmp(err, err2, n) == 0,
              "dev invmod %zu bits tune '%s': differs from the host API", 64 * L, t);
        CHECK(bulk_int_dev_invmod(gpu, da, da, dm, NULL) == BULK_ERR_ARG, "dev invmod r == a accepted");
    }
    bulk_int_dev_free(da), bulk_int_dev_free(dm), bulk_int_dev_free(dr);
    free(a), free(m), free(r), free(r2), free(want), free(err), free(err2);
    tune("");
}

int main(int argc, char **argv)
{
    rng = test_seed(argc, argv);
    if (bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device (test_int_gpu_powmod needs one; nothing was run)\n");
        return 77; /* ctest: SKIP_RETURN_CODE */
    }
    if (bulk_ctx_open(&gpu, BULK_BACKEND_CUDA, 0) != BULK_OK || bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) {
        fprintf(stderr, "cannot open the contexts\n");
        return 1;
    }
    static const size_t bits[] = {256, 512, 1024, 1536, 2048, 3072, 4096, 8192};
    static const size_t ebits[] = {0, 1, 2, 64, 512, 0 /* full */};
    for (size_t w = 0; w < sizeof bits / sizeof bits[0]; w++) {
        size_t L = bits[w] / 64;
        for (size_t k = 0; k < sizeof ebits / sizeof ebits[0]; k++) {
            int full = k + 1 == sizeof ebits / sizeof ebits[0];
            size_t eb = full ? bits[w] : ebits[k] < bits[w] ? ebits[k] : bits[w];
            size_t n = full ? (L >= 64 ? 13 : L >= 24 ? 61 : 517) : L >= 64 ? 61 : 517;
            check_powmod(L, n, eb, "");
        }
        /* every shape the cooperative kernel compiles that holds this width, and one thread */
        static const char *const tpis[] = {"int.powmod_tpi=1", "int.powmod_tpi=4",
                                           "int.powmod_tpi=8", "int.powmod_tpi=16",
                                           "int.powmod_tpi=32"};
        /* 512-bit exponents (64 at 4096 bits and up), never wider than the numbers */
        size_t teb = L >= 64 ? 64 : 64 * L < 512 ? 64 * L : 512;
        for (int t = 0; t < 5; t++) check_powmod(L, L >= 64 ? 25 : 133, teb, tpis[t]);
        printf("powmod %5zu bits: done\n", bits[w]);
        fflush(stdout);
    }
    check_powmod(16, 5, 1024, ""); /* fewer instances than a block, no even modulus */
    check_powmod(16, (size_t)1 << 17, 64, ""); /* several chunks and blocks */
    /* invmod: the one-thread kernel below 512 bits; from 512 every cooperative shape (2 .. 32
     * lanes of 8 words) at its narrowest and widest widths */
    static const size_t ibits[] = {64, 128, 256, 448, 512, 576, 768, 1024, 1088, 1536, 2048,
                                   2112, 3072, 4096, 4160, 6144, 8192};
    for (size_t w = 0; w < sizeof ibits / sizeof ibits[0]; w++) {
        size_t L = ibits[w] / 64, n = ibits[w] >= 4096 ? 301 : 2011;
        check_invmod(L, n, 0, "");
        check_invmod(L, n / 3, 1, "");
        check_invmod(L, ibits[w] >= 4096 ? 37 : 101, 2, "");
        printf("invmod %5zu bits: done\n", ibits[w]);
        fflush(stdout);
    }
    check_invmod(1, (size_t)1 << 18, 0, "");
    check_invmod(16, (size_t)1 << 17, 0, ""); /* several blocks of the cooperative kernel */
    check_invmod(16, 7, 1, "");               /* fewer instances than a block */
    check_invmod(64, 20000, 2, ""); /* more even moduli than the one-thread kernel has threads */
    /* every shape int.invmod_tpi asks for (one thread; 2 .. 32 lanes of 8 or 16 words), the
     * cooperative kernel also below its default width */
    static const char *const itpis[] = {"int.invmod_tpi=1", "int.invmod_tpi=2", "int.invmod_tpi=4",
                                        "int.invmod_tpi=8", "int.invmod_tpi=16", "int.invmod_tpi=32"};
    static const size_t tbits[] = {256, 512, 1024, 2048, 4096, 8192};
    for (size_t w = 0; w < sizeof tbits / sizeof tbits[0]; w++)
        for (int k = 0; k < 6; k++) check_invmod(tbits[w] / 64, tbits[w] >= 4096 ? 61 : 409, 0, itpis[k]);
    bulk_ctx_close(gpu);
    bulk_ctx_close(cpu);
    return test_finish();
}
