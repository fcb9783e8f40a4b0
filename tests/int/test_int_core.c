/* The limb primitives of int_core.h in both formulations: the device one (no 128-bit integers,
 * compiled here on the host through BULK_INT_CORE_PORTABLE) against unsigned __int128
 * arithmetic written out separately below, on structured and random limbs. */
#define BULK_INT_CORE_PORTABLE 1
#include "int/int_core.h"
#include "test_util.h"

typedef unsigned __int128 u128;

static void check(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t hi, out;
    u128 p = (u128)a * b;
    CHECK(bulk_limb_mulhi(a, b) == (uint64_t)(p >> 64), "mulhi %016llx %016llx",
          (unsigned long long)a, (unsigned long long)b);
    uint64_t lo = bulk_limb_mul(a, b, &hi);
    CHECK(lo == (uint64_t)p && hi == (uint64_t)(p >> 64), "mul");
    u128 q = p + c + d;
    lo = bulk_limb_muladd2(a, b, c, d, &hi);
    CHECK(lo == (uint64_t)q && hi == (uint64_t)(q >> 64), "muladd2");
    for (uint64_t cin = 0; cin < 2; cin++) {
        u128 s = (u128)a + b + cin;
        uint64_t r = bulk_limb_add(a, b, cin, &out);
        CHECK(r == (uint64_t)s && out == (uint64_t)(s >> 64), "add cin=%llu", (unsigned long long)cin);
        u128 t = (u128)a - b - cin; /* borrow = top bit set when a < b + cin */
        r = bulk_limb_sub(a, b, cin, &out);
        CHECK(r == (uint64_t)t && out == (uint64_t)((u128)a < (u128)b + cin), "sub");
    }
    /* comba step: (c2:c1:c0) += a*b, from a start value (d, c, small) */
    uint64_t c0 = d, c1 = c, c2 = 5;
    bulk_limb_comba_step(a, b, &c0, &c1, &c2);
    u128 acc = ((u128)c << 64 | d) + p;
    uint64_t k2 = 5 + (acc < p);
    CHECK(c0 == (uint64_t)acc && c1 == (uint64_t)(acc >> 64) && c2 == k2, "comba_step");
    if (a) {
        CHECK(bulk_limb_clz(a) == __builtin_clzll(a), "clz");
        CHECK(bulk_limb_ctz(a) == __builtin_ctzll(a), "ctz");
    }
    uint64_t odd = a | 1;
    CHECK(odd * bulk_limb_inverse_odd(odd) == 1, "inverse_odd %016llx", (unsigned long long)odd);
}

int main(int argc, char **argv)
{
    uint64_t rng = test_seed(argc, argv);
    const uint64_t special[] = { 0, 1, 2, 3, 0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull,
                                 0x8000000000000000ull, ~0ull - 1, ~0ull, 0xffffffff00000000ull };
    size_t S = sizeof special / sizeof special[0];
    for (size_t i = 0; i < S; i++)
        for (size_t j = 0; j < S; j++)
            for (size_t k = 0; k < S; k++) check(special[i], special[j], special[k], special[(i + j + k) % S]);
    for (int t = 0; t < 1000000; t++) {
        uint64_t a = test_structured_limb(&rng, t), b = test_structured_limb(&rng, t / 8);
        check(a, b, test_rand(&rng), test_structured_limb(&rng, t / 64));
    }
    return test_finish();
}
