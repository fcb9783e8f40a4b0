#include "common/numtext.h"
#include "bulk/bulk.h"
#include "int/mpn_div.h"
#include "int/radix.h"

#include <stdlib.h>
#include <string.h>

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

size_t bulk_parse_uint_limbs_bound(size_t len)
{
    /* a decimal digit carries < 3.33 bits and a hex digit 4: 4 bits per character bound both */
    return (len * 4 + 63) / 64 + 1;
}

/* out[0..*used) = out * mul + add; returns BULK_ERR_OVERFLOW when it would not fit cap. */
static int mul_add_small(uint64_t *out, size_t *used, size_t cap, uint64_t mul, uint64_t add)
{
    uint64_t carry = add;
    for (size_t i = 0; i < *used; i++) {
        unsigned __int128 t = (unsigned __int128)out[i] * mul + carry;
        out[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
    if (carry) {
        if (*used == cap) return BULK_ERR_OVERFLOW;
        out[(*used)++] = carry;
    }
    return BULK_OK;
}

int bulk_parse_uint(const char *s, size_t len, uint64_t *out, size_t cap, size_t *err_pos)
{
    size_t used = 0;
    if (cap) memset(out, 0, cap * sizeof *out);
    if (len == 0) {
        if (err_pos) *err_pos = 0;
        return BULK_ERR_PARSE;
    }
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (size_t i = 2; i < len; i++) {
            if (hex_value(s[i]) < 0) {
                if (err_pos) *err_pos = i;
                return BULK_ERR_PARSE;
            }
        }
        size_t bit = 0;
        for (size_t i = len; i-- > 2; bit += 4) {
            uint64_t v = (uint64_t)hex_value(s[i]);
            if (v == 0) continue;
            size_t limb = bit / 64;
            if (limb >= cap) return BULK_ERR_OVERFLOW;
            out[limb] |= v << (bit % 64);
            if (limb + 1 > used) used = limb + 1;
        }
        return (int)used;
    }
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            if (err_pos) *err_pos = i;
            return BULK_ERR_PARSE;
        }
    }
    if (len > BULK_RADIX_DC_PARSE_LIMBS * 19) {
        int st = bulk_mpn_set_dec(out, cap, s, len);
        if (st != BULK_ERR_NOMEM) return st;
        if (cap) memset(out, 0, cap * sizeof *out); /* out of memory: the quadratic loop below */
    }
    return bulk_parse_dec_basecase(out, cap, s, len);
}

int bulk_parse_dec_basecase(uint64_t *out, size_t cap, const char *s, size_t len)
{
    size_t used = 0;
    /* 19 decimal digits at a time: 10^19 < 2^64 */
    size_t i = 0;
    while (i < len) {
        size_t k = len - i < 19 ? len - i : 19;
        uint64_t chunk = 0, scale = 1;
        for (size_t j = 0; j < k; j++) {
            chunk = chunk * 10 + (uint64_t)(s[i + j] - '0');
            scale *= 10;
        }
        int st = mul_add_small(out, &used, cap, scale, 0);
        if (st != BULK_OK) return st;
        /* add chunk with carry propagation */
        uint64_t carry = chunk;
        for (size_t j = 0; carry && j < cap; j++) {
            if (j == used) used++;
            out[j] += carry;
            carry = out[j] < carry;
        }
        if (carry) return BULK_ERR_OVERFLOW;
        i += k;
    }
    while (used && out[used - 1] == 0) used--;
    return (int)used;
}

size_t bulk_format_uint_size(size_t n, int hex)
{
    if (hex) return 2 + (n ? n * 16 : 1);
    return n ? n * 20 : 1; /* 2^64 < 10^20 */
}

size_t bulk_format_uint(char *buf, const uint64_t *a, size_t n, int hex)
{
    while (n && a[n - 1] == 0) n--;
    if (hex) {
        static const char digits[] = "0123456789abcdef";
        size_t len = 0;
        buf[len++] = '0';
        buf[len++] = 'x';
        if (n == 0) {
            buf[len++] = '0';
        } else {
            int started = 0;
            for (size_t i = n; i-- > 0;) {
                for (int sh = 60; sh >= 0; sh -= 4) {
                    int d = (int)((a[i] >> sh) & 15);
                    if (!started && d == 0) continue;
                    started = 1;
                    buf[len++] = digits[d];
                }
            }
        }
        buf[len] = 0;
        return len;
    }
    if (n == 0) {
        buf[0] = '0';
        buf[1] = 0;
        return 1;
    }
    if (n == 1) {
        /* common fast path */
        char tmp[24];
        size_t k = 0;
        uint64_t v = a[0];
        while (v) {
            tmp[k++] = (char)('0' + v % 10);
            v /= 10;
        }
        for (size_t i = 0; i < k; i++) buf[i] = tmp[k - 1 - i];
        buf[k] = 0;
        return k;
    }
    if (n > BULK_RADIX_DC_LIMBS) {
        size_t len = bulk_mpn_get_dec(buf, a, n);
        if (len) return len; /* 0: out of memory, the quadratic loop below needs less */
    }
    return bulk_format_dec_basecase(buf, a, n);
}

size_t bulk_format_dec_basecase(char *buf, const uint64_t *a, size_t n)
{
    while (n && a[n - 1] == 0) n--;
    if (n == 0) {
        buf[0] = '0';
        buf[1] = 0;
        return 1;
    }
    uint64_t stack_scratch[16];
    uint64_t *w = n <= 16 ? stack_scratch : malloc(n * sizeof *w);
    if (!w) { /* cannot happen in practice; keep the contract: print hex rather than nothing */
        return bulk_format_uint(buf, a, n, 1);
    }
    memcpy(w, a, n * sizeof *w);
    /* peel 19-digit groups from the bottom; they come out least significant first */
    size_t pos = bulk_format_uint_size(n, 0);
    char *end = buf + pos;
    char *p = end;
    while (n) {
        /* by the precomputed 2-by-1 reciprocal of 10^19 (int/mpn_div.h): no hardware division
         * in this loop, which dominates printing below the divide-and-conquer sizes */
        uint64_t r = bulk_mpn_divrem_1(w, w, n, 10000000000000000000ull);
        while (n && w[n - 1] == 0) n--;
        for (int d = 0; d < 19; d++) {
            *--p = (char)('0' + r % 10);
            r /= 10;
            if (n == 0 && r == 0) break;
        }
    }
    if (w != stack_scratch) free(w);
    size_t len = (size_t)(end - p);
    memmove(buf, p, len);
    buf[len] = 0;
    return len;
}
