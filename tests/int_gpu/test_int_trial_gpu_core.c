/* The trial kernel's per-instance code (bg_trial_one, src/int/cuda/core/trial.h) and its table
 * (bg_trial_build) run on the host, at strides 1 and 3, against the CPU's trial division
 * (bulk_prime_trial_n): the table's groups are the CPU's runs cut to 32-bit products, in order,
 * with the right inverses; the answers are the CPU's on the sets of trial_sets.h (every
 * n < 2^17; table primes, their products, squares and cubes and primes past the table at
 * 1..5 limbs; random numbers of 1..64 limbs with leading zero limbs, half of them multiples of
 * small primes), once with the table isprime uses at each width (bulk_prime_isprime_limit) and
 * once with the largest (65536, where the bound 256 mn cuts the runs below the limit).
 * --seed S replays; BULK_SANITIZED=1 shrinks the sets. */
#include "bulk/int.h"
#include "int/cpu/prime.h"
#include "int/cuda/int_gpu_core.h"
#include "test_util.h"
#include "trial_sets.h"
#include "trial_table.h"

static size_t counts[3], checked;

/* a (limbs limbs): the kernel's answer at strides 1 and 3 against the CPU's, over t. */
static void check(const bulk_prime_table *t, const host_trial_table *h, const bulk_limb_t *a,
                  size_t limbs, const char *what)
{
    enum { MAXW = 2 * 70 };
    bg_word x[3 * MAXW];
    int want = bulk_prime_trial_n(a, limbs, t);
    for (size_t s = 1; s <= 3; s += 2) {
        int got = host_trial_one(h, a, limbs, x, s);
        if (got != want)
            CHECK(0, "%s, %zu limbs, limit %u, stride %zu, low limb %llu: kernel %d, CPU %d", what,
                  limbs, t->limit, s, (unsigned long long)a[0], got, want);
    }
    counts[want]++;
    checked++;
}

/* The groups of h cover t's primes in order, each inside one of t's runs, with its modulus the
 * product of its primes below 2^32 and -M^-1, the key its run's first prime; the primes' inverses
 * and limits; the padding empty. */
static void check_table(const bulk_prime_table *t, const host_trial_table *h)
{
    CHECK(h->ng % BG_TRIAL_PASS == 0 && h->ng <= bg_trial_max_groups(t->count), "limit %u: %zu groups",
          t->limit, h->ng);
    size_t i = 0, run = 0;
    for (size_t k = 0; k < h->ng; k++) {
        const bg_trial_group *g = &h->g[k];
        CHECK(g->m * (0u - g->minv) == 1, "limit %u, group %zu: minv", t->limit, k);
        if (i == t->count) {
            CHECK(g->m == 1 && g->key == 0xffffffffu && g->end == t->count, "limit %u, group %zu: "
                  "padding", t->limit, k);
            continue;
        }
        while (run + 1 < t->groups && t->g[run + 1].first <= i) run++;
        CHECK(g->key == t->p[t->g[run].first] && g->end > i && g->end <= t->g[run].end,
              "limit %u, group %zu: key %u, primes %zu..%u, run %zu", t->limit, k, g->key, i,
              g->end, run);
        uint64_t m = 1;
        for (; i < g->end && i < t->count; i++) {
            const bg_trial_prime *q = &h->q[i];
            m *= t->p[i];
            CHECK(q->p == t->p[i] && q->p * q->inv == 1 && q->lim == 0xffffffffu / q->p,
                  "limit %u, prime %zu", t->limit, i);
        }
        CHECK(m == g->m && m < ((uint64_t)1 << 32), "limit %u, group %zu: modulus %u, product %llu",
              t->limit, k, g->m, (unsigned long long)m);
        /* greedy: the next prime of the run would not have fit */
        if (i < t->g[run].end) CHECK(m * t->p[i] > 0xffffffffu, "limit %u, group %zu: not full", t->limit, k);
    }
    CHECK(i == t->count, "limit %u: the groups cover %zu of %zu primes", t->limit, i, t->count);
}

struct mode {
    const bulk_prime_table *fixed; /* NULL: the isprime table at each width */
};

/* trial_sets_fn: the batch one number at a time */
static void check_batch(const bulk_limb_t *a, size_t n, size_t limbs, const char *what, void *user)
{
    const struct mode *md = user;
    bulk_prime_table own;
    const bulk_prime_table *t = md->fixed;
    if (!t) {
        CHECK(bulk_prime_table_init(&own, bulk_prime_isprime_limit(limbs)) == BULK_OK, "table");
        t = &own;
    }
    host_trial_table h;
    host_trial_table_make(&h, t);
    if (!md->fixed) check_table(t, &h);
    for (size_t i = 0; i < n; i++) check(t, &h, a + i * limbs, limbs, what);
    host_trial_table_free(&h);
    if (!md->fixed) bulk_prime_table_free(&own);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    int san = getenv("BULK_SANITIZED") && atoi(getenv("BULK_SANITIZED"));
    bulk_prime_table small, big;
    if (bulk_prime_table_init(&small, 4096) != BULK_OK || bulk_prime_table_init(&big, 65536) != BULK_OK)
        return 1;
    static const uint32_t limits[] = { 3, 4, 256, 4096, 4098, 8194, 16386, 32770, 65536 };
    for (size_t k = 0; k < sizeof limits / sizeof *limits; k++) {
        bulk_prime_table t;
        host_trial_table h;
        CHECK(bulk_prime_table_init(&t, limits[k]) == BULK_OK, "table %u", limits[k]);
        host_trial_table_make(&h, &t);
        check_table(&t, &h);
        host_trial_table_free(&h);
        bulk_prime_table_free(&t);
    }
    struct mode per_width = { NULL }, largest = { &big };
    trial_sets_run(&small, seed, san, check_batch, &per_width);
    trial_sets_run(&big, seed ^ 1, san, check_batch, &largest);
    /* the three answers all occur, so a kernel stuck on one would fail */
    CHECK(counts[0] > 100 && counts[1] > 100 && counts[2] > 100,
          "answers 0/1/2: %zu / %zu / %zu", counts[0], counts[1], counts[2]);
    printf("trial kernel code on the host against the CPU: %zu numbers (0: %zu, 1: %zu, 2: %zu)\n",
           checked, counts[0], counts[1], counts[2]);
    bulk_prime_table_free(&small);
    bulk_prime_table_free(&big);
    return test_finish();
}
