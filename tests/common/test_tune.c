/* bulk_ctx_set_tune and BULK_TUNE (include/bulk/bulk.h, src/backend/tune.c): every key takes its
 * valid values and stores them; unknown keys, bad values and malformed lists are refused whole
 * (BULK_ERR_ARG, a message naming the item, the tuning unchanged); NULL and "" are the
 * defaults; BULK_TUNE is read once at bulk_ctx_open (an invalid one fails the open); and on the
 * CPU backend life.isa=base (the portable kernel) gives the same generations as the default.
 * --seed S replays the random grid. */
#include <stdlib.h>
#include <string.h>

#include "backend/context.h"
#include "bulk/bulk.h"
#include "bulk/life.h"
#include "test_util.h"

static bulk_ctx *ctx;

static int set(const char *t) { return bulk_ctx_set_tune(ctx, t); }

static int same_tune(const bulk_tune *a, const bulk_tune *b) { return memcmp(a, b, sizeof *a) == 0; }

static void test_valid(void)
{
    const bulk_tune *t = bulk_ctx_tune(ctx);
    bulk_tune def;
    bulk_tune_default(&def);
    CHECK(same_tune(t, &def), "a new context has the defaults");
    static const char *const muls[] = {"teo", "sr", "cols", "kara", "ntt", "coop", "ckara"};
    for (int i = 0; i < 7; i++) {
        char s[32];
        snprintf(s, sizeof s, "int.mul=%s", muls[i]);
        CHECK(set(s) == BULK_OK && t->int_mul == BULK_TUNE_MUL_TEO + i, "%s", s);
    }
    CHECK(set("int.kara_min=32") == BULK_OK && t->int_kara_min == 32, "int.kara_min=32");
    CHECK(set("int.ntt_min=0") == BULK_OK && t->int_ntt_min == 0, "int.ntt_min=0");
    CHECK(set("int.ntt_min=16") == BULK_OK && t->int_ntt_min == 16, "int.ntt_min=16");
    CHECK(set("int.gcd=approx") == BULK_OK && t->int_gcd_approx == 1, "int.gcd=approx");
    CHECK(set("int.powmod_tpi=16") == BULK_OK && t->int_powmod_tpi == 16, "int.powmod_tpi=16");
    CHECK(set("int.invmod_tpi=2") == BULK_OK && t->int_invmod_tpi == 2, "int.invmod_tpi=2");
    CHECK(set("gcd.gpu_ntt=2048") == BULK_OK && t->gcd_gpu_ntt == 2048, "gcd.gpu_ntt=2048");
    CHECK(set("gcd.gpu_ntt=0") == BULK_OK && t->gcd_gpu_ntt == 0, "gcd.gpu_ntt=0");
    CHECK(set("gcd.batched_rem=128,gcd.batched_mul=1024,gcd.batched_min=1") == BULK_OK &&
              t->gcd_batched_rem == 128 && t->gcd_batched_mul == 1024 && t->gcd_batched_min == 1,
          "gcd.batched_*");
    CHECK(set("gcd.batched_mul=0x40") == BULK_OK && t->gcd_batched_mul == 64, "hexadecimal, as strtoull read it");
    CHECK(set("cz.ext=unsorted") == BULK_OK && t->cz_ext_unsorted == 1, "cz.ext=unsorted");
    CHECK(set("cz.ext=gen") == BULK_OK && t->cz_ext_unsorted == 0, "cz.ext=gen");
    CHECK(set("cz.classes=0") == BULK_OK && t->cz_classes_off == 1, "cz.classes=0");
    CHECK(set("cz.classes=1") == BULK_OK && t->cz_classes_off == 0, "cz.classes=1");
    CHECK(set("cz.layout=batch,cz.refill=32,cz.delay=v5") == BULK_OK &&
              t->cz.verify_layout == BULK_CZ_CUDA_LAYOUT_FLAT_BATCH && t->cz.refill_lanes == 32 &&
              t->cz.delay_loop == BULK_CZ_CUDA_DELAY_V5, "cz.layout, cz.refill, cz.delay");
    CHECK(set("cz.layout=uniform,cz.refill=1,cz.delay=v3") == BULK_OK &&
              t->cz.verify_layout == BULK_CZ_CUDA_LAYOUT_UNIFORM && t->cz.refill_lanes == 1 &&
              t->cz.delay_loop == BULK_CZ_CUDA_DELAY_V3, "cz.layout=uniform, refill 1, v3");
    CHECK(set("cz.delay=v4x2,cz.kernel=fast,cz.mem=shared,cz.threads=512,cz.unroll=8") == BULK_OK &&
              t->cz.delay_loop == BULK_CZ_CUDA_DELAY_V4X2 && t->cz.kernel == BULK_CZ_CUDA_KERNEL_FAST &&
              t->cz.table_mem == BULK_CZ_CUDA_MEM_SHARED && t->cz.threads_per_block == 512 &&
              t->cz.delay_unroll == 8, "cz.kernel, cz.mem, cz.threads, cz.unroll");
    CHECK(set("life.strip=256,life.isa=avx2") == BULK_OK && t->life_strip == 256 &&
              t->life_isa == BULK_TUNE_ISA_AVX2, "life.strip, life.isa");
    CHECK(set("life.isa=base") == BULK_OK && t->life_isa == BULK_TUNE_ISA_BASE && t->life_strip == 0,
          "a tuning replaces the whole set");
    CHECK(set("life.isa=avx512") == BULK_OK && t->life_isa == BULK_TUNE_ISA_AVX512, "life.isa=avx512");
    CHECK(set("") == BULK_OK && same_tune(t, &def), "'' is the defaults");
    CHECK(set("int.mul=sr") == BULK_OK && set(NULL) == BULK_OK && same_tune(t, &def), "NULL is the defaults");
}

static void test_invalid(void)
{
    static const char *const bad[] = {
        "nosuch=1", "int.mul=fast", "int.mul=SR", "int.kara_min=31", "int.kara_min=x", "int.ntt_min=-1",
        "int.gcd=exact", "gcd.gpu_ntt=3000", "gcd.batched_rem=-5", "gcd.batched_min=1k", "cz.ext=sorted",
        "int.powmod_tpi=2", "int.powmod_tpi=3", "int.powmod_tpi=64", "int.powmod_tpi=0",
        "int.invmod_tpi=3", "int.invmod_tpi=64", "int.invmod_tpi=0",
        "cz.classes=2", "cz.layout=flat", "cz.refill=0", "cz.refill=33", "cz.delay=v4", "cz.kernel=auto",
        "cz.mem=texture", "cz.threads=100", "cz.threads=1024", "cz.rows=65", "cz.unroll=6", "cz.escapes=0",
        "life.strip=0", "life.isa=sse", "int.mul=sr,", ",int.mul=sr", "int.mul=sr,,life.isa=base",
        "int.mul", "=sr", "int.mul=", "int.mul =sr", "int.mul=sr life.isa=base", "int.mul=sr;life.isa=base",
        "life.isa=base,life.isa=bogus", "int.mul=sr,nosuch=1",
    };
    CHECK(set("int.mul=cols,cz.layout=batch") == BULK_OK, "a tuning to keep");
    bulk_tune before = *bulk_ctx_tune(ctx);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(set(bad[i]) == BULK_ERR_ARG, "'%s' accepted", bad[i]);
        CHECK(same_tune(bulk_ctx_tune(ctx), &before), "'%s' changed the tuning", bad[i]);
        const char *m = bulk_ctx_last_error(ctx);
        CHECK(m[0] != '\0', "'%s': no message", bad[i]);
        char why[600];
        CHECK(bulk_tune_check(bad[i], why, sizeof why) == BULK_ERR_ARG &&
                  strncmp(m, "bulk_ctx_set_tune: ", 19) == 0 && strcmp(why, m + 19) == 0,
              "'%s': bulk_tune_check says '%s', bulk_ctx_set_tune '%s'", bad[i], why, m);
    }
    set("int.mul=fast");
    CHECK(strstr(bulk_ctx_last_error(ctx), "int.mul='fast'") && strstr(bulk_ctx_last_error(ctx), "teo, sr, cols, kara, ntt, coop, ckara"),
          "the message names the item and the valid values: %s", bulk_ctx_last_error(ctx));
    set("nosuch=1");
    CHECK(strstr(bulk_ctx_last_error(ctx), "'nosuch'") && strstr(bulk_ctx_last_error(ctx), "life.isa"),
          "the message names the key and lists the keys: %s", bulk_ctx_last_error(ctx));
    CHECK(bulk_ctx_set_tune(NULL, "") == BULK_ERR_ARG, "NULL context");
    CHECK(bulk_tune_check("life.isa=base", NULL, 0) == BULK_OK, "check without a message buffer");
}

static void test_env(void)
{
    bulk_ctx *c = NULL;
    setenv("BULK_TUNE", "life.isa=base,gcd.batched_min=7", 1);
    CHECK(bulk_ctx_open(&c, BULK_BACKEND_CPU, 1) == BULK_OK, "valid BULK_TUNE refused");
    if (c) {
        const bulk_tune *t = bulk_ctx_tune(c);
        CHECK(t->life_isa == BULK_TUNE_ISA_BASE && t->gcd_batched_min == 7, "BULK_TUNE not applied");
        unsetenv("BULK_TUNE"); /* read once, at open: the context keeps it */
        CHECK(t->life_isa == BULK_TUNE_ISA_BASE, "BULK_TUNE re-read after open");
        bulk_ctx_close(c);
    }
    static const char *const bad[] = {"life.isa=sse", "nosuch=1", "int.mul=sr,", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("BULK_TUNE", bad[i], 1);
        c = (bulk_ctx *)&c;
        CHECK(bulk_ctx_open(&c, BULK_BACKEND_CPU, 1) == BULK_ERR_ARG && c == NULL, "BULK_TUNE='%s' accepted", bad[i]);
    }
    setenv("BULK_TUNE", "", 1);
    CHECK(bulk_ctx_open(&c, BULK_BACKEND_CPU, 1) == BULK_OK, "empty BULK_TUNE refused");
    bulk_tune def;
    bulk_tune_default(&def);
    if (c) {
        CHECK(same_tune(bulk_ctx_tune(c), &def), "empty BULK_TUNE is the defaults");
        bulk_ctx_close(c);
    }
    unsetenv("BULK_TUNE");
}

/* life.isa=base forces the portable kernel: the same generations as the widest one this CPU has. */
static void test_life_isa(uint64_t seed)
{
    const uint64_t w = 300, h = 97, words = bulk_life_words(w) * h;
    uint64_t *a = calloc(words, 8), *b = calloc(words, 8);
    uint64_t rs = seed;
    for (uint64_t y = 0; y < h; y++)
        for (uint64_t x = 0; x < w; x++)
            if (test_rand(&rs) % 3 == 0) a[y * bulk_life_words(w) + x / 64] |= 1ull << (x % 64);
    memcpy(b, a, words * 8);
    bulk_life_rule rule = bulk_life_rule_conway();
    bulk_ctx *base = NULL;
    CHECK(bulk_ctx_open(&base, BULK_BACKEND_CPU, 2) == BULK_OK && bulk_ctx_set_tune(base, "life.isa=base") == BULK_OK,
          "base context");
    for (int torus = 0; torus < 2 && base; torus++) {
        CHECK(bulk_life_grid_step(ctx, a, w, h, torus, &rule, 77, 0) == BULK_OK, "default step");
        CHECK(bulk_life_grid_step(base, b, w, h, torus, &rule, 77, 0) == BULK_OK, "base step");
        CHECK(memcmp(a, b, words * 8) == 0, "life.isa=base differs from the default (torus %d)", torus);
    }
    bulk_ctx_close(base);
    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    unsetenv("BULK_TUNE");
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) != BULK_OK) return 1;
    test_valid();
    test_invalid();
    test_env();
    set(NULL);
    test_life_isa(seed);
    bulk_ctx_close(ctx);
    return test_finish();
}
