/* Tiny test harness shared by the C tests: CHECK, replayable seeds, structured values. */
#ifndef BULK_TESTS_TEST_UTIL_H
#define BULK_TESTS_TEST_UTIL_H
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static int test_failures;

/* Reports a failure (at most 20 are printed) and goes on, so one run shows several. */
#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            if (test_failures++ < 20) {                                                           \
                fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);                            \
                fprintf(stderr, __VA_ARGS__);                                                     \
                fputc('\n', stderr);                                                              \
            }                                                                                     \
        }                                                                                         \
    } while (0)

static inline int test_finish(void)
{
    if (test_failures) fprintf(stderr, "%d check(s) failed\n", test_failures);
    else printf("all checks passed\n");
    return test_failures ? 1 : 0;
}

/* 1 under the sanitizer pass (BULK_SANITIZED set, not empty, not starting with '0'): the tests
 * that are slow under the sanitizers shrink their loops. */
static inline int test_sanitized(void)
{
    const char *san = getenv("BULK_SANITIZED");
    return san && *san && *san != '0';
}

/* The seed comes from --seed S, else BULK_TEST_SEED, else the clock; it is always printed so a
 * failing run can be replayed exactly. */
static inline uint64_t test_seed(int argc, char **argv)
{
    uint64_t seed = 0;
    int given = 0;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--seed") == 0) {
            seed = strtoull(argv[i + 1], NULL, 0);
            given = 1;
        }
    const char *env = getenv("BULK_TEST_SEED");
    if (!given && env && *env) {
        seed = strtoull(env, NULL, 0);
        given = 1;
    }
    if (!given) seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
    printf("seed %" PRIu64 " (replay with --seed %" PRIu64 ")\n", seed, seed);
    fflush(stdout);
    return seed;
}

/* splitmix64: small, fast, good enough for test data. */
static inline uint64_t test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A limb drawn from a mix of structured values (0, 1, all-ones, single bits, runs) and
 * uniformly random ones; `kind` selects the mix so callers can cycle through them. */
static inline uint64_t test_structured_limb(uint64_t *state, int kind)
{
    uint64_t r = test_rand(state);
    switch (kind % 8) {
    case 0: return 0;
    case 1: return ~0ull;
    case 2: return r & 1 ? 0 : ~0ull;
    case 3: return 1ull << (r % 64);
    case 4: return r % 3 == 0 ? 1 : r % 3 == 1 ? ~0ull : 0;
    case 5: return (~0ull) >> (r % 64);
    default: return r;
    }
}

/* malloc that never returns NULL (a test that runs out of memory stops with exit code 2);
 * malloc(0) is made malloc(1) so that a zero-size buffer is still a valid, freeable pointer. */
static inline void *test_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* A directory for the test's files under the build tree (created if needed). */
static inline const char *test_scratch_dir(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "scratch-%s", name);
    mkdir(path, 0777);
    return path;
}

#endif
