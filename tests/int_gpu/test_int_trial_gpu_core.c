/* The trial kernel's per-instance code (bg_trial_one, src/int/cuda/core/trial.h) run on the
 * host, at strides 1 and 3, against the CPU's trial division with the offload's table
 * (bulk_prime_trial_n over bulk_prime_table_init(BULK_PRIME_OFFLOAD_TRIAL), what isprime's
 * device path runs on the CPU threads without a device): its list of primes and products is the
 * table's, and its answers are the CPU's on the sets of trial_sets.h (every n < 2^17; table
 * primes, their products, squares and cubes and primes above 256 at 1..5 limbs; random numbers
 * of 1..64 limbs with leading zero limbs, half of them multiples of small primes). --seed S
 * replays; BULK_SANITIZED=1 shrinks the sets. */
#include "bulk/int.h"
#include "int/cpu/prime.h"
#include "int/cuda/int_gpu_core.h"
#include "int/cuda/core/trial.h"
#include "int/int_prime_offload.h"
#include "test_util.h"
#include "trial_sets.h"

static bulk_prime_table table;
static size_t counts[3], checked;

/* a (limbs limbs): the kernel's answer at strides 1 and 3 against the CPU's. */
static void check(const bulk_limb_t *a, size_t limbs, const char *what)
{
    enum { MAXW = 2 * 70 };
    bg_word x[3 * MAXW];
    int nw = (int)(2 * limbs), want = bulk_prime_trial_n(a, limbs, &table);
    for (size_t s = 1; s <= 3; s += 2) {
        for (int j = 0; j < nw; j++) x[(size_t)j * s] = (bg_word)(a[j / 2] >> (32 * (j % 2)));
        int got = bg_trial_one(x, s, nw);
        if (got != want)
            CHECK(0, "%s, %zu limbs, stride %zu, low limb %llu: kernel %d, CPU %d", what, limbs, s,
                  (unsigned long long)a[0], got, want);
    }
    counts[want]++;
    checked++;
}

/* The kernel's primes and groups are the table's primes, in order, and each group's modulus is
 * the product of its primes and fits 32 bits. */
static void test_lists(void)
{
#define LIST_P(g, p) p,
#define LIST_G(g, p) g,
#define LIST_M(g, m) m,
    static const uint32_t primes[] = { BG_TRIAL_PRIMES(LIST_P) };
    static const int group[] = { BG_TRIAL_PRIMES(LIST_G) };
    static const uint64_t mods[] = { BG_TRIAL_GROUPS(LIST_M) };
    size_t np = sizeof primes / sizeof *primes, ng = sizeof mods / sizeof *mods;
    CHECK(BG_TRIAL_LIMIT == BULK_PRIME_OFFLOAD_TRIAL, "limits %u and %u", BG_TRIAL_LIMIT,
          BULK_PRIME_OFFLOAD_TRIAL);
    CHECK(np == table.count, "%zu primes in the kernel, %zu in the table", np, table.count);
    CHECK(ng == BG_TRIAL_NGROUPS, "%zu groups, BG_TRIAL_NGROUPS %d", ng, BG_TRIAL_NGROUPS);
    uint64_t prod[BG_TRIAL_NGROUPS + 1] = { 0 };
    for (size_t i = 0; i < np && i < table.count; i++) {
        CHECK(primes[i] == table.p[i], "prime %zu: kernel %u, table %u", i, primes[i], table.p[i]);
        CHECK(i == 0 ? group[i] == 0 : group[i] == group[i - 1] || group[i] == group[i - 1] + 1,
              "prime %zu: group %d out of order", i, group[i]);
        if (group[i] < 0 || group[i] >= BG_TRIAL_NGROUPS) continue;
        uint64_t *q = &prod[group[i]];
        *q = (*q ? *q : 1) * primes[i];
    }
    for (size_t g = 0; g < ng; g++)
        CHECK(prod[g] == mods[g] && mods[g] < ((uint64_t)1 << 32), "group %zu: modulus %llu, "
              "product %llu", g, (unsigned long long)mods[g], (unsigned long long)prod[g]);
#undef LIST_P
#undef LIST_G
#undef LIST_M
}

/* trial_sets_fn: the batch one number at a time */
static void check_batch(const bulk_limb_t *a, size_t n, size_t limbs, const char *what, void *user)
{
    (void)user;
    for (size_t i = 0; i < n; i++) check(a + i * limbs, limbs, what);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    int san = getenv("BULK_SANITIZED") && atoi(getenv("BULK_SANITIZED"));
    if (bulk_prime_table_init(&table, BULK_PRIME_OFFLOAD_TRIAL) != BULK_OK) return 1;
    test_lists();
    trial_sets_run(&table, seed, san, check_batch, NULL);
    /* the three answers all occur, so a kernel stuck on one would fail */
    CHECK(counts[0] > 100 && counts[1] > 100 && counts[2] > 100,
          "answers 0/1/2: %zu / %zu / %zu", counts[0], counts[1], counts[2]);
    printf("trial kernel code on the host against the CPU: %zu numbers (0: %zu, 1: %zu, 2: %zu)\n",
           checked, counts[0], counts[1], counts[2]);
    bulk_prime_table_free(&table);
    return test_finish();
}
