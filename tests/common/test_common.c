/* Unit tests of src/common: number text <-> limbs (against GMP), parallel_for coverage,
 * atomic files and the PNG writer. Random cases use a printed, replayable seed (--seed S). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/bulk.h"
#include "atomic_file.h"
#include "int/numtext.h"
#include "common/parallel.h"
#include "test_util.h"

static void check_roundtrip(const uint64_t *a, size_t n)
{
    mpz_t z;
    mpz_init(z);
    mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, a);
    for (int hex = 0; hex <= 1; hex++) {
        char *buf = malloc(bulk_format_uint_size(n, hex) + 1);
        size_t len = bulk_format_uint(buf, a, n, hex);
        char *ref = mpz_get_str(NULL, hex ? 16 : 10, z);
        char *want = ref;
        if (hex) {
            want = malloc(strlen(ref) + 3);
            sprintf(want, "0x%s", ref);
        }
        CHECK(strcmp(buf, want) == 0, "format hex=%d: got %s want %s", hex, buf, want);
        CHECK(len == strlen(want), "format length");
        size_t cap = bulk_parse_uint_limbs_bound(len);
        uint64_t *back = calloc(cap, sizeof *back);
        int used = bulk_parse_uint(buf, len, back, cap, NULL);
        CHECK(used >= 0, "parse of %s failed: %d", buf, used);
        for (size_t i = 0; i < n && i < cap; i++) CHECK(back[i] == a[i], "roundtrip limb %zu", i);
        free(back);
        free(buf);
        if (hex) free(want);
        free(ref);
    }
    mpz_clear(z);
}

static void test_numtext(uint64_t seed)
{
    uint64_t a[64];
    for (size_t n = 0; n <= 64; n = n < 4 ? n + 1 : n * 2) {
        for (int rep = 0; rep < 20; rep++) {
            for (size_t i = 0; i < n; i++) a[i] = test_structured_limb(&seed, rep);
            check_roundtrip(a, n);
        }
    }
    uint64_t out[2];
    size_t pos = 99;
    CHECK(bulk_parse_uint("12a4", 4, out, 2, &pos) == BULK_ERR_PARSE && pos == 2, "bad digit pos");
    CHECK(bulk_parse_uint("", 0, out, 2, &pos) == BULK_ERR_PARSE, "empty");
    CHECK(bulk_parse_uint("0x", 2, out, 2, &pos) == BULK_ERR_PARSE, "bare 0x");
    CHECK(bulk_parse_uint("0xg", 3, out, 2, &pos) == BULK_ERR_PARSE && pos == 2, "bad hex");
    const char *big = "340282366920938463463374607431768211456"; /* 2^128 */
    CHECK(bulk_parse_uint(big, strlen(big), out, 2, NULL) == BULK_ERR_OVERFLOW, "2^128 in 2 limbs");
    const char *max = "340282366920938463463374607431768211455";
    CHECK(bulk_parse_uint(max, strlen(max), out, 2, NULL) == 2 && out[0] == ~0ull && out[1] == ~0ull,
          "2^128-1");
    CHECK(bulk_parse_uint("0x00000000000000000000000001", 28, out, 1, NULL) == 1 && out[0] == 1,
          "leading hex zeros");
    CHECK(bulk_parse_uint("000", 3, out, 1, NULL) == 0 && out[0] == 0, "zero");
}

struct cover {
    unsigned char *hits;
    int threads;
    int bad_worker;
};

static void mark(void *arg, size_t b, size_t e, int worker)
{
    struct cover *c = arg;
    if (worker < 0 || worker >= c->threads) c->bad_worker = 1;
    for (size_t i = b; i < e; i++) c->hits[i]++;
}

static void test_parallel(void)
{
    for (int threads = 1; threads <= 5; threads++) {
        for (size_t n = 0; n < 3000; n = n * 3 + 1) {
            struct cover c = { calloc(n + 1, 1), threads, 0 };
            CHECK(bulk_parallel_for(threads, n, 0, mark, &c) == 0, "parallel_for status");
            for (size_t i = 0; i < n; i++) CHECK(c.hits[i] == 1, "index %zu hit %d times", i, c.hits[i]);
            CHECK(!c.bad_worker, "worker id out of range");
            free(c.hits);
        }
    }
}

static void test_files(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/atomic.txt", dir);
    CHECK(bulk_write_file_atomic(path, "hello\n", 6) == 0, "atomic write");
    FILE *f = fopen(path, "rb");
    char buf[16] = { 0 };
    CHECK(f && fread(buf, 1, sizeof buf, f) == 6 && strcmp(buf, "hello\n") == 0, "atomic content");
    if (f) fclose(f);
    bulk_afile af;
    CHECK(bulk_afile_open(&af, path, "wb") == 0, "afile open");
    fputs("partial", af.fp);
    bulk_afile_abort(&af);
    f = fopen(path, "rb");
    memset(buf, 0, sizeof buf);
    CHECK(f && fread(buf, 1, sizeof buf, f) == 6 && strcmp(buf, "hello\n") == 0, "abort keeps old");
    if (f) fclose(f);
    CHECK(bulk_write_file_atomic("/nonexistent-dir/x", "a", 1) == -1, "unwritable path fails");
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    test_numtext(seed);
    test_parallel();
    test_files(test_scratch_dir("common"));
    return test_finish();
}
