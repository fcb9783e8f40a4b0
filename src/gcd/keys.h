/* RSA public keys in PEM and DER, decoded by OpenSSL's libcrypto (keys.c); the contract is
 * bulk_gcd_input_add's (bulk/gcd.h). Without OpenSSL both return BULK_ERR_UNSUPPORTED. */
#ifndef BULK_GCD_KEYS_H
#define BULK_GCD_KEYS_H

#include "bulk/gcd.h"

int gcd_keys_add_pem(bulk_gcd_input *in, const char *data, size_t len, uint64_t *err_line,
                     char *msg, size_t msg_len);
int gcd_keys_add_der(bulk_gcd_input *in, const char *data, size_t len, uint64_t *err_line,
                     char *msg, size_t msg_len);

#endif
