#include "int/numtext.h"
#include "bulk/bulk.h"
#include "int/mpn_div.h"
#include "int/radix.h"
#include "int/udiv_word.h"

#include <pthread.h>

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

int bulk_parse_hex_digits(const char *s, size_t len, uint64_t *out, size_t cap, size_t *err_pos)
{
    size_t used = 0;
    if (cap) memset(out, 0, cap * sizeof *out);
    if (len == 0) {
        if (err_pos) *err_pos = 0;
        return BULK_ERR_PARSE;
    }
    for (size_t i = 0; i < len; i++) {
        if (hex_value(s[i]) < 0) {
            if (err_pos) *err_pos = i;
            return BULK_ERR_PARSE;
        }
    }
    size_t bit = 0;
    for (size_t i = len; i-- > 0; bit += 4) {
        uint64_t v = (uint64_t)hex_value(s[i]);
        if (v == 0) continue;
        size_t limb = bit / 64;
        if (limb >= cap) {
            if (cap) memset(out, 0, cap * sizeof *out);
            return BULK_ERR_OVERFLOW;
        }
        out[limb] |= v << (bit % 64);
        if (limb + 1 > used) used = limb + 1;
    }
    return (int)used;
}

int bulk_parse_uint(const char *s, size_t len, uint64_t *out, size_t cap, size_t *err_pos)
{
    if (cap) memset(out, 0, cap * sizeof *out);
    if (len == 0) {
        if (err_pos) *err_pos = 0;
        return BULK_ERR_PARSE;
    }
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        int st = bulk_parse_hex_digits(s + 2, len - 2, out, cap, err_pos);
        if (st == BULK_ERR_PARSE && err_pos) *err_pos += 2;
        return st;
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

/* The value of the 8 digits at p (checked by the caller). */
static inline uint64_t dec8_value(const char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* all 8 at once: the first (most significant) digit is the lowest byte; pairs, then
     * quadruples, then the whole are combined by one multiply-add each */
    uint64_t v;
    memcpy(&v, p, 8);
    v -= 0x3030303030303030ull;
    v = (v * 10 + (v >> 8)) & 0x00ff00ff00ff00ffull;
    v = (v * 100 + (v >> 16)) & 0x0000ffff0000ffffull;
    return (v * 10000 + (v >> 32)) & 0xffffffffull;
#else
    uint64_t v = 0;
    for (int j = 0; j < 8; j++) v = v * 10 + (uint64_t)(p[j] - '0');
    return v;
#endif
}

int bulk_parse_dec_basecase(uint64_t *out, size_t cap, const char *s, size_t len)
{
    size_t used = 0;
    /* the short group first (len mod 19 digits), then 19 at a time: 10^19 < 2^64, and every
     * step after the first is out = out 10^19 + group */
    size_t i = 0, k = len % 19 ? len % 19 : 19;
    while (i < len) {
        uint64_t chunk = 0, scale = 1;
        if (k == 19) {
            chunk = dec8_value(s + i) * 100000000000ull + dec8_value(s + i + 8) * 1000u +
                    (uint64_t)(s[i + 16] - '0') * 100u + (uint64_t)(s[i + 17] - '0') * 10u + (uint64_t)(s[i + 18] - '0');
            scale = 10000000000000000000ull;
        } else {
            for (size_t j = 0; j < k; j++) {
                chunk = chunk * 10 + (uint64_t)(s[i + j] - '0');
                scale *= 10;
            }
        }
        int st = mul_add_small(out, &used, cap, scale, chunk);
        if (st != BULK_OK) return st;
        i += k;
        k = 19;
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

/* ---- decimal printing below the divide-and-conquer sizes ------------------------------------
 *
 * A value is cut into 19-digit groups by dividing it by 10^19 again and again (a chain of
 * 2-by-1 divisions through a precomputed reciprocal, int/udiv_word.h). Each step depends on the
 * remainder of the one before, so the loop runs at the latency of one step. From
 * kDecDualMin limbs up, the value is first split once, a = q 10^(19 g) + r with g about half
 * its limbs, and the two halves are divided in the same loop: two independent chains, half as
 * many steps each. Groups are written as exactly 19 digits, two digits per table lookup; the
 * leading zeros of the whole string are dropped at the end. */

enum { kDecDualMin = 6, kDecPowMax = 64 };
static const uint64_t kTen19 = 10000000000000000000ull; /* 10^19: top bit set (normalized) */

/* 10^(19 g) for g = 1 .. kDecPowMax, g limbs each (zero padded) at kDecPow + g (g - 1) / 2,
 * its significant limbs in kDecPowLen[g]; built once. */
static uint64_t kDecPow[kDecPowMax * (kDecPowMax + 1) / 2];
static size_t kDecPowLen[kDecPowMax + 1];
static pthread_once_t dec_pow_once = PTHREAD_ONCE_INIT;

static void dec_pow_build(void)
{
    uint64_t *prev = NULL;
    size_t len = 0;
    for (size_t g = 1; g <= kDecPowMax; g++) {
        uint64_t *p = kDecPow + g * (g - 1) / 2;
        if (g == 1) {
            p[0] = kTen19;
            len = 1;
        } else {
            uint64_t carry = 0;
            for (size_t i = 0; i < len; i++) {
                unsigned __int128 t = (unsigned __int128)prev[i] * kTen19 + carry;
                p[i] = (uint64_t)t;
                carry = (uint64_t)(t >> 64);
            }
            if (carry) p[len++] = carry;
        }
        kDecPowLen[g] = len;
        prev = p;
    }
}

static const char kDecPairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";

/* x < 10^8 as exactly 8 digits at p. */
static inline void put_dec8(char *p, uint32_t x)
{
    uint32_t h = x / 10000, l = x - h * 10000;
    uint32_t hh = h / 100, hl = h - hh * 100, lh = l / 100, ll = l - lh * 100;
    memcpy(p, kDecPairs + 2 * hh, 2);
    memcpy(p + 2, kDecPairs + 2 * hl, 2);
    memcpy(p + 4, kDecPairs + 2 * lh, 2);
    memcpy(p + 6, kDecPairs + 2 * ll, 2);
}

/* r < 10^19 as exactly 19 digits ending just before end: three independent parts (3, 8, 8). */
static inline void put_dec19(char *end, uint64_t r)
{
    uint64_t t = r / 100000000u;
    uint32_t lo = (uint32_t)(r - t * 100000000u), hi = (uint32_t)(t / 100000000u); /* hi < 1000 */
    uint32_t mid = (uint32_t)(t - (uint64_t)hi * 100000000u), h2 = hi % 100;
    put_dec8(end - 8, lo);
    put_dec8(end - 16, mid);
    memcpy(end - 18, kDecPairs + 2 * h2, 2);
    end[-19] = (char)('0' + hi / 100);
}

/* w[0..len) = w / 10^19; returns the remainder. */
static inline uint64_t dec_peel(uint64_t *w, size_t len, uint64_t v)
{
    uint64_t r = 0;
    for (size_t i = len; i-- > 0;) w[i] = bulk_udiv_2by1(r, w[i], kTen19, v, &r);
    return r;
}

size_t bulk_format_dec_basecase(char *buf, const uint64_t *a, size_t n)
{
    n = bulk_mpn_normalized_size(a, n);
    if (n == 0) {
        buf[0] = '0';
        buf[1] = 0;
        return 1;
    }
    pthread_once(&dec_pow_once, dec_pow_build);
    const uint64_t v = bulk_reciprocal_word(kTen19);
    size_t g = n >= kDecDualMin ? n / 2 : 0; /* 10^(19 g) < B^g: r has at most g limbs */
    if (g > kDecPowMax) g = kDecPowMax;
    const uint64_t *pw = g ? kDecPow + g * (g - 1) / 2 : NULL;
    const size_t pn = g ? kDecPowLen[g] : 0;
    /* words: q and r, n limbs each (r zero padded so that both divide over one length), the
     * division's scratch; characters: every group written in full, 19 per limb plus two */
    const size_t tn = g ? bulk_mpn_divmod_scratch_method(n, pn, BULK_DIV_AUTO) : 0;
    const size_t words = 2 * n + tn, chars = 19 * (n + 2);
    uint64_t stack_words[3 * 48];
    char stack_chars[19 * 50];
    uint64_t *w = words <= sizeof stack_words / sizeof *stack_words ? stack_words : NULL;
    char *c = chars <= sizeof stack_chars ? stack_chars : NULL;
    void *heap = NULL;
    if (!w || !c) {
        heap = malloc(words * sizeof *w + chars);
        if (!heap) return bulk_format_uint(buf, a, n, 1); /* keep the contract: hex, not nothing */
        w = heap;
        c = (char *)(w + words);
    }
    uint64_t *wq = w, *wr = w + n;
    size_t nq, nr = 0, rgroups = g;
    if (g) {
        bulk_mpn_divmod(wq, wr, a, n, pw, pn, BULK_DIV_AUTO, w + 2 * n);
        memset(wr + pn, 0, (n - pn) * sizeof *wr);
        nr = bulk_mpn_normalized_size(wr, pn);
    } else {
        memcpy(wq, a, n * sizeof *wq);
    }
    nq = bulk_mpn_normalized_size(wq, n);
    char *const cend = c + chars;
    char *rend = cend, *qend = cend - 19 * g;
    while (nq && rgroups) { /* both halves: two independent chains in one loop */
        size_t len = nq > nr ? nq : nr;
        uint64_t rq = 0, rr = 0;
        for (size_t i = len; i-- > 0;) {
            wq[i] = bulk_udiv_2by1(rq, wq[i], kTen19, v, &rq);
            wr[i] = bulk_udiv_2by1(rr, wr[i], kTen19, v, &rr);
        }
        nq = bulk_mpn_normalized_size(wq, nq);
        nr = bulk_mpn_normalized_size(wr, nr);
        put_dec19(qend, rq);
        put_dec19(rend, rr);
        qend -= 19, rend -= 19, rgroups--;
    }
    for (; nq; qend -= 19) { /* what is left of q */
        put_dec19(qend, dec_peel(wq, nq, v));
        nq = bulk_mpn_normalized_size(wq, nq);
    }
    for (; rgroups; rgroups--, rend -= 19) { /* what is left of r: all g groups, zeros included */
        put_dec19(rend, dec_peel(wr, nr, v));
        nr = bulk_mpn_normalized_size(wr, nr);
    }
    const char *p = qend;
    while (p < cend - 1 && *p == '0') p++;
    size_t len = (size_t)(cend - p);
    memcpy(buf, p, len);
    buf[len] = 0;
    free(heap);
    return len;
}
