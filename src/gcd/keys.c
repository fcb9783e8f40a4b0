/* RSA public keys (PEM, DER) -> moduli, through OpenSSL's libcrypto (contract: keys.h).
 * The PEM text is split into BEGIN/END blocks here only to know each block's line; decoding
 * (base64, ASN.1, the key types) is all libcrypto's. */
#include "gcd/keys.h"
#include "gcd/input_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef BULK_HAVE_OPENSSL
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

/* The modulus of an RSA key, appended to in. */
static int push_pkey(bulk_gcd_input *in, EVP_PKEY *pk, uint64_t line, char *msg, size_t msg_len)
{
    if (EVP_PKEY_get_base_id(pk) != EVP_PKEY_RSA) {
        snprintf(msg, msg_len, "not an RSA key (%s)", OBJ_nid2sn(EVP_PKEY_get_base_id(pk)));
        return BULK_ERR_PARSE;
    }
    BIGNUM *n = NULL;
    if (!EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_RSA_N, &n)) {
        snprintf(msg, msg_len, "the RSA key has no modulus");
        return BULK_ERR_PARSE;
    }
    size_t bytes = (size_t)BN_num_bytes(n), mn = (bytes + 7) / 8;
    int st = BULK_ERR_NOMEM;
    unsigned char *le = calloc(mn ? 8 * mn : 8, 1);
    bulk_limb_t *m = calloc(mn ? mn : 1, sizeof *m);
    if (le && m && BN_bn2lebinpad(n, le, (int)(8 * mn)) >= 0) {
        for (size_t i = 0; i < mn; i++)
            for (int b = 7; b >= 0; b--) m[i] = (m[i] << 8) | le[8 * i + (size_t)b];
        if (mn == 0 || (mn == 1 && m[0] < 2)) {
            snprintf(msg, msg_len, "RSA modulus below 2");
            st = BULK_ERR_PARSE;
        } else if (mn > ((size_t)1 << 20)) {
            snprintf(msg, msg_len, "RSA modulus wider than 2^26 bits");
            st = BULK_ERR_PARSE;
        } else {
            st = gcd_input_push(in, m, mn, line);
        }
    }
    free(le);
    free(m);
    BN_free(n);
    return st;
}

/* DER: SubjectPublicKeyInfo, else PKCS#1 RSAPublicKey, else an X.509 certificate. */
static EVP_PKEY *der_key(const unsigned char *p, long len)
{
    const unsigned char *q = p;
    EVP_PKEY *pk = d2i_PUBKEY(NULL, &q, len);
    if (pk && q == p + len) return pk;
    EVP_PKEY_free(pk);
    q = p;
    pk = d2i_PublicKey(EVP_PKEY_RSA, NULL, &q, len);
    if (pk && q == p + len) return pk;
    EVP_PKEY_free(pk);
    q = p;
    X509 *c = d2i_X509(NULL, &q, len);
    pk = c && q == p + len ? X509_get_pubkey(c) : NULL;
    X509_free(c);
    return pk;
}

int gcd_keys_add_der(bulk_gcd_input *in, const char *data, size_t len, uint64_t *err_line,
                     char *msg, size_t msg_len)
{
    size_t n0 = in->n;
    EVP_PKEY *pk = len <= 0x7fffffff ? der_key((const unsigned char *)data, (long)len) : NULL;
    int st;
    if (!pk) {
        snprintf(msg, msg_len, "not a DER RSA public key, RSAPublicKey or certificate");
        st = BULK_ERR_PARSE;
    } else {
        st = push_pkey(in, pk, 1, msg, msg_len);
        EVP_PKEY_free(pk);
    }
    if (st != BULK_OK) {
        in->n = n0;
        if (st == BULK_ERR_PARSE) *err_line = 1;
    }
    ERR_clear_error();
    return st;
}

int gcd_keys_add_pem(bulk_gcd_input *in, const char *data, size_t len, uint64_t *err_line,
                     char *msg, size_t msg_len)
{
    size_t n0 = in->n, keys = 0;
    uint64_t line = 0, begin_line = 0;
    const char *begin = NULL;
    int st = BULK_OK;
    for (size_t pos = 0; pos < len && st == BULK_OK;) {
        const char *s = data + pos, *nl = memchr(s, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - s) + 1 : len - pos;
        pos += l;
        line++;
        if (l >= 11 && memcmp(s, "-----BEGIN ", 11) == 0) {
            if (begin) {
                snprintf(msg, msg_len, "BEGIN line inside the block that starts on line %llu",
                         (unsigned long long)begin_line);
                st = BULK_ERR_PARSE;
                break;
            }
            begin = s;
            begin_line = line;
        } else if (l >= 9 && memcmp(s, "-----END ", 9) == 0) {
            if (!begin) {
                snprintf(msg, msg_len, "END line without a BEGIN line");
                st = BULK_ERR_PARSE;
                break;
            }
            BIO *bio = BIO_new_mem_buf(begin, (int)(s + l - begin));
            char *name = NULL, *header = NULL;
            unsigned char *der = NULL;
            long dlen = 0;
            EVP_PKEY *pk = NULL;
            if (!bio) {
                st = BULK_ERR_NOMEM;
            } else if (!PEM_read_bio(bio, &name, &header, &der, &dlen)) {
                snprintf(msg, msg_len, "malformed PEM block (bad base64 or BEGIN/END names)");
                st = BULK_ERR_PARSE;
            } else {
                const unsigned char *q = der;
                if (strcmp(name, "PUBLIC KEY") == 0) pk = d2i_PUBKEY(NULL, &q, dlen);
                else if (strcmp(name, "RSA PUBLIC KEY") == 0)
                    pk = d2i_PublicKey(EVP_PKEY_RSA, NULL, &q, dlen);
                else if (strcmp(name, "CERTIFICATE") == 0) {
                    X509 *c = d2i_X509(NULL, &q, dlen);
                    pk = c ? X509_get_pubkey(c) : NULL;
                    X509_free(c);
                } else {
                    snprintf(msg, msg_len, "PEM block '%s' is not a public key or certificate", name);
                    st = BULK_ERR_PARSE;
                }
                if (st == BULK_OK && !pk) {
                    snprintf(msg, msg_len, "the '%s' block does not decode", name);
                    st = BULK_ERR_PARSE;
                }
                if (st == BULK_OK) st = push_pkey(in, pk, begin_line, msg, msg_len);
            }
            EVP_PKEY_free(pk);
            OPENSSL_free(name);
            OPENSSL_free(header);
            OPENSSL_free(der);
            BIO_free(bio);
            if (st == BULK_ERR_PARSE) line = begin_line;
            begin = NULL;
            keys++;
        }
    }
    if (st == BULK_OK && begin) {
        snprintf(msg, msg_len, "PEM block without an END line");
        st = BULK_ERR_PARSE;
        line = begin_line;
    }
    if (st == BULK_OK && keys == 0) {
        snprintf(msg, msg_len, "no PEM block found");
        st = BULK_ERR_PARSE;
        line = 1;
    }
    if (st != BULK_OK) {
        in->n = n0;
        if (st == BULK_ERR_PARSE) *err_line = line;
    }
    ERR_clear_error();
    return st;
}

#else /* built without OpenSSL */

int gcd_keys_add_pem(bulk_gcd_input *in, const char *data, size_t len, uint64_t *err_line,
                     char *msg, size_t msg_len)
{
    (void)in; (void)data; (void)len; (void)err_line;
    snprintf(msg, msg_len, "this build has no OpenSSL (libssl-dev) for PEM keys");
    return BULK_ERR_UNSUPPORTED;
}

int gcd_keys_add_der(bulk_gcd_input *in, const char *data, size_t len, uint64_t *err_line,
                     char *msg, size_t msg_len)
{
    (void)in; (void)data; (void)len; (void)err_line;
    snprintf(msg, msg_len, "this build has no OpenSSL (libssl-dev) for DER keys");
    return BULK_ERR_UNSUPPORTED;
}

#endif
