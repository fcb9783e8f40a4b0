/* Test-data generator and oracle of the `bulk gcd` CLI tests, independent of libbulk: GMP for
 * the numbers and the expected results, OpenSSL's libcrypto for the keys.
 *
 *   gcd_oracle SEED N BITS DIR
 * writes DIR/set.txt (one modulus per line: semiprimes from mpz_nextprime with planted shared
 * primes and duplicates, some lines in 0x hex), DIR/set.pem (the same moduli as RSA public
 * keys, alternately "PUBLIC KEY" and "RSA PUBLIC KEY" blocks with comment lines between),
 * DIR/k0.der (the first key, DER), DIR/gen.pem (a key made by EVP_RSA_gen, for a decode smoke
 * test) and the expected outputs DIR/pairs.expect and DIR/batch.expect in the documented
 * format (duplicates first, then pairs by (i, j) / moduli by i; decimal), computed with
 * mpz_gcd on every pair and gcd(x_i, prod of the other distinct moduli). */
/* stdio.h before gmp.h: gmp.h declares gmp_fprintf only when it has seen FILE */
#include <stdio.h>
#include <gmp.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what)
{
    fprintf(stderr, "gcd_oracle: %s\n", what);
    exit(1);
}

static EVP_PKEY *rsa_key(const mpz_t n)
{
    size_t bytes = (mpz_sizeinbase(n, 2) + 7) / 8;
    unsigned char *buf = malloc(bytes);
    mpz_export(buf, NULL, 1, 1, 1, 0, n);
    BIGNUM *bn = BN_bin2bn(buf, (int)bytes, NULL), *e = BN_new();
    BN_set_word(e, 65537);
    OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, bn);
    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, e);
    OSSL_PARAM *p = OSSL_PARAM_BLD_to_param(b);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    EVP_PKEY *k = NULL;
    if (!c || EVP_PKEY_fromdata_init(c) <= 0 || EVP_PKEY_fromdata(c, &k, EVP_PKEY_PUBLIC_KEY, p) <= 0)
        die("EVP_PKEY_fromdata failed");
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(p);
    OSSL_PARAM_BLD_free(b);
    BN_free(bn);
    BN_free(e);
    free(buf);
    return k;
}

static FILE *open_in(const char *dir, const char *name, const char *mode)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, mode);
    if (!fp) die(path);
    return fp;
}

int main(int argc, char **argv)
{
    if (argc != 5) die("usage: gcd_oracle SEED N BITS DIR");
    unsigned long seed = strtoul(argv[1], NULL, 0);
    size_t n = strtoul(argv[2], NULL, 0);
    unsigned bits = (unsigned)strtoul(argv[3], NULL, 0);
    const char *dir = argv[4];
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, seed);
    mpz_t *p = malloc(2 * n * sizeof *p), *x = malloc(n * sizeof *x), s, g, P;
    mpz_init(s); mpz_init(g); mpz_init(P);
    for (size_t i = 0; i < 2 * n; i++) {
        mpz_init(p[i]);
        mpz_urandomb(s, rs, bits / 2);
        mpz_setbit(s, bits / 2 - 1);
        mpz_nextprime(p[i], s);
    }
    /* planted: x_{4k+1} shares a prime with x_{4k} for k % 3 == 0; x_{4k+3} shares both of
     * its primes with two different moduli for k % 5 == 1; x_{6k+5} = x_{6k+2} (duplicate) */
    for (size_t i = 0; i < n; i++) {
        mpz_init(x[i]);
        size_t k = i / 4;
        if (i % 4 == 1 && k % 3 == 0) mpz_set(p[2 * i], p[2 * i - 2]);
        if (i % 4 == 3 && k % 5 == 1) {
            mpz_set(p[2 * i], p[2 * i - 5]);
            mpz_set(p[2 * i + 1], p[2 * i - 2]);
        }
        mpz_mul(x[i], p[2 * i], p[2 * i + 1]);
        if (i % 6 == 5) mpz_set(x[i], x[i - 3]);
    }
    FILE *txt = open_in(dir, "set.txt", "w"), *pem = open_in(dir, "set.pem", "w");
    for (size_t i = 0; i < n; i++) {
        if (i % 3 == 1) gmp_fprintf(txt, "0x%Zx\n", x[i]);
        else gmp_fprintf(txt, "%Zd\n", x[i]);
        EVP_PKEY *k = rsa_key(x[i]);
        fprintf(pem, "# key %zu\n", i);
        if (i % 2 == 0) {
            if (!PEM_write_PUBKEY(pem, k)) die("PEM_write_PUBKEY");
        } else {
            unsigned char *der = NULL;
            int len = i2d_PublicKey(k, &der);
            if (len <= 0 || !PEM_write(pem, "RSA PUBLIC KEY", "", der, len)) die("PKCS#1 PEM");
            OPENSSL_free(der);
        }
        if (i == 0) {
            FILE *d = open_in(dir, "k0.der", "wb");
            if (i2d_PUBKEY_fp(d, k) <= 0) die("i2d_PUBKEY_fp");
            fclose(d);
        }
        EVP_PKEY_free(k);
    }
    fclose(txt);
    fclose(pem);
    EVP_PKEY *gk = EVP_RSA_gen(1024);
    if (!gk) die("EVP_RSA_gen");
    FILE *gp = open_in(dir, "gen.pem", "w");
    PEM_write_PUBKEY(gp, gk);
    fclose(gp);
    EVP_PKEY_free(gk);

    /* expected outputs */
    int *dup = calloc(n, sizeof *dup);
    FILE *pe = open_in(dir, "pairs.expect", "w"), *be = open_in(dir, "batch.expect", "w");
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < j; i++)
            if (!dup[i] && mpz_cmp(x[i], x[j]) == 0) {
                dup[j] = 1;
                fprintf(pe, "%zu %zu duplicate\n", i, j);
                fprintf(be, "%zu %zu duplicate\n", i, j);
                break;
            }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (dup[i] || dup[j]) continue;
            mpz_gcd(g, x[i], x[j]);
            if (mpz_cmp_ui(g, 1) != 0) gmp_fprintf(pe, "%zu %zu %Zd\n", i, j, g);
        }
    for (size_t i = 0; i < n; i++) {
        if (dup[i]) continue;
        mpz_set_ui(P, 1);
        for (size_t j = 0; j < n; j++)
            if (j != i && !dup[j]) mpz_mul(P, P, x[j]);
        mpz_gcd(g, x[i], P);
        if (mpz_cmp_ui(g, 1) != 0) {
            mpz_divexact(s, x[i], g);
            gmp_fprintf(be, "%zu %Zd %Zd\n", i, g, s);
        }
    }
    fclose(pe);
    fclose(be);
    for (size_t i = 0; i < 2 * n; i++) mpz_clear(p[i]);
    for (size_t i = 0; i < n; i++) mpz_clear(x[i]);
    free(p);
    free(x);
    free(dup);
    mpz_clear(s); mpz_clear(g); mpz_clear(P);
    gmp_randclear(rs);
    return 0;
}
