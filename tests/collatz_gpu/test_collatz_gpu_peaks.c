/* GPU test of pre-drop peaks in verify on the CUDA backend (label gpu; exits 77, reported as
 * skipped, without a CUDA device): bulk_collatz_verify on a CUDA context against the same engine
 * on the CPU context, for both verify modes, with and without --peak-above hits, near 2^40,
 * 2^64, 2^68 and 2^100, ranges from 1, unaligned ends, a run of several GPU chunks (the later
 * ones with the maximum of the earlier as their floor) and a small escape buffer (the device's
 * share redone), in the k_uni (d = 12) and FLAT_BATCH (d = 16 below 2^50) layouts.
 *
 * Full-glide mode: every field equal. Convergence mode: the hits equal (the path records) and the
 * glide-independent fields; `peak` is the maximum over the numbers not proved by a smaller one,
 * a set that depends on how the blocks fall (docs/collatz-peaks.md), so there the GPU's peak
 * must be the exact pre-drop peak of its peak_n (a step-by-step reference) and at least the
 * CPU's. The pre-drop peak of every reported number is also checked step by step. */
#include "test_util.h"

#include "collatz/collatz_internal.h"
#include "collatz/naive.h"
#include "collatz/peak.h"
#include "cz_gpu_test.h"

typedef unsigned __int128 u128;

static bulk_u128 U(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}
static u128 W(bulk_u128 v) { return (u128)v.hi << 64 | v.lo; }

/* the pre-drop peak of n step by step (naive.h), as a 256-bit value (every peak here fits) */
static void predrop_ref(u128 n, bulk_collatz_wide *out)
{
    uint64_t w[NV_WIDE];
    if (!naive_predrop(n, w) || w[4]) {
        fprintf(stderr, "reference overflow\n");
        exit(1);
    }
    memcpy(out->limb, w, sizeof out->limb);
}

struct tcase {
    const char *name;
    u128 first, last;
    int conv, d, k;
    int above; /* 0: none; 1: V = the CPU's peak >> shift; 2: V = 0 */
    int shift;
    uint32_t esc_cap; /* 0: default */
};

static void run_case(bulk_ctx *cpu, const struct tcase *c)
{
    bulk_collatz_engine *e = NULL;
    int st = bulk_collatz_engine_new(&e, cpu, c->d, c->k, 0);
    CHECK(st == BULK_OK, "%s: engine: %s", c->name, bulk_ctx_last_error(cpu));
    if (st) return;
    if (c->conv) bulk_collatz_engine_set_converge(e);
    bulk_collatz_wide above = { { 0, 0, 0, 0 } };
    bulk_collatz_verify_result *ref = malloc(sizeof *ref), *got = malloc(sizeof *got);
    if (c->above == 1) {
        /* V from a CPU run without hits: a few numbers of the range beat it */
        bulk_collatz_engine_set_peaks(e, NULL);
        st = bulk_collatz_verify(cpu, e, U(c->first), U(c->last), NULL, ref);
        CHECK(st == BULK_OK, "%s: cpu pre-run: %s", c->name, bulk_ctx_last_error(cpu));
        for (int i = 0; i < 4; i++) above.limb[i] = ref->peak.limb[i];
        for (int s = 0; s < c->shift; s++)
            for (int i = 0; i < 4; i++) above.limb[i] = (above.limb[i] >> 1) | (i < 3 ? above.limb[i + 1] << 63 : 0);
    }
    bulk_collatz_engine_set_peaks(e, c->above ? &above : NULL);
    bulk_collatz_cuda_opts o;
    bulk_collatz_cuda_get_opts(cpu, &o);
    bulk_collatz_cuda_opts o2 = o;
    if (c->esc_cap) {
        o2.escape_capacity = c->esc_cap;
        o2.wave_numbers = (uint64_t)1 << 26;
    }
    bulk_collatz_cuda_set_opts(cpu, &o2);
    st = bulk_collatz_verify(cpu, e, U(c->first), U(c->last), NULL, ref);
    CHECK(st == BULK_OK, "%s: cpu: %s", c->name, bulk_ctx_last_error(cpu));
    int sg = bulk_collatz_verify(cz_gpu_ctx, e, U(c->first), U(c->last), NULL, got);
    CHECK(sg == BULK_OK, "%s: gpu: %s", c->name, bulk_ctx_last_error(cz_gpu_ctx));
    bulk_collatz_cuda_stats gs;
    CZ_GPU->last_stats(cz_gpu_ctx, &gs);
    bulk_collatz_cuda_set_opts(cpu, &o);
    if (st == BULK_OK && sg == BULK_OK) {
        char a[BULK_CZ_WIDE_STR], b[BULK_CZ_WIDE_STR], na[48], nb[48];
        bulk_cz_wide_str(&ref->peak, a);
        bulk_cz_wide_str(&got->peak, b);
        bulk_cz_u128_str(ref->peak_n, na);
        bulk_cz_u128_str(got->peak_n, nb);
        printf("%-28s cpu peak %s at %s, gpu %s at %s; hits %u/%u; gpu escapes %llu, fallback %d\n", c->name, a, na, b,
               nb, ref->n_peak_hits, got->n_peak_hits, (unsigned long long)gs.escapes, gs.cpu_fallback);
        CHECK(!memcmp(&ref->covered, &got->covered, sizeof ref->covered), "%s: covered", c->name);
        CHECK(!memcmp(&ref->checksum, &got->checksum, sizeof ref->checksum), "%s: checksum", c->name);
        CHECK(ref->overflows == got->overflows, "%s: overflows %llu vs %llu", c->name,
              (unsigned long long)ref->overflows, (unsigned long long)got->overflows);
        CHECK(ref->max_glide == got->max_glide && !memcmp(&ref->max_glide_n, &got->max_glide_n, sizeof ref->max_glide_n),
              "%s: max glide", c->name);
        if (!c->conv) {
            CHECK(!cz_wide_cmp(&ref->peak, &got->peak) && W(ref->peak_n) == W(got->peak_n),
                  "%s: peak %s at %s, gpu %s at %s", c->name, a, na, b, nb);
        } else {
            CHECK(cz_wide_cmp(&got->peak, &ref->peak) >= 0, "%s: gpu peak below the cpu's", c->name);
        }
        bulk_collatz_wide pr;
        predrop_ref(W(got->peak_n), &pr);
        CHECK(W(got->peak_n) != 0 && !cz_wide_cmp(&pr, &got->peak), "%s: gpu peak is not peak_n's pre-drop peak", c->name);
        CHECK(ref->n_peak_hits == got->n_peak_hits && ref->peak_hits_lost == got->peak_hits_lost, "%s: hits %u vs %u",
              c->name, ref->n_peak_hits, got->n_peak_hits);
        for (uint32_t i = 0; i < ref->n_peak_hits && i < got->n_peak_hits; i++) {
            CHECK(W(ref->peak_hits[i].n) == W(got->peak_hits[i].n) &&
                      !cz_wide_cmp(&ref->peak_hits[i].value, &got->peak_hits[i].value),
                  "%s: hit %u", c->name, i);
            predrop_ref(W(got->peak_hits[i].n), &pr);
            CHECK(!cz_wide_cmp(&pr, &got->peak_hits[i].value), "%s: hit %u is not its n's pre-drop peak", c->name, i);
        }
        if (c->d == 12 && !c->conv && c->first >= ((u128)1 << 40))
            CHECK(!gs.cpu_fallback, "%s: ran on the CPU, not the GPU", c->name);
    }
    free(ref);
    free(got);
    bulk_collatz_engine_free(e);
}

int main(int argc, char **argv)
{
    int o = cz_gpu_open("the GPU peaks test");
    if (o) return o;
    uint64_t seed = test_seed(argc, argv), s = seed;
    bulk_ctx *cpu = NULL;
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) return 1;
    const u128 P40 = (u128)1 << 40, P64 = (u128)1 << 64, P68 = (u128)1 << 68, P100 = (u128)1 << 100;
    /* random offsets keep the ends unaligned (replayable with the seed) */
    const u128 r1 = test_rand(&s) % 4096, r2 = test_rand(&s) % 4096;
    const struct tcase cases[] = {
        { "glide 2^40 d12", P40, P40 + ((u128)1 << 33) - 1, 0, 12, 24, 0, 0, 0 },
        { "glide 2^40 d16 (flat)", P40 + r1, P40 + ((u128)1 << 32) + r2, 0, 16, 20, 0, 0, 0 },
        { "conv 2^40 d12", P40 + r1, P40 + ((u128)1 << 33) + r2, 1, 12, 24, 0, 0, 0 },
        { "glide 2^64 d12 hits", P64 - ((u128)1 << 33), P64 + ((u128)1 << 33), 0, 12, 24, 1, 3, 0 },
        { "conv 2^68 d16 hits", P68 + r1, P68 + ((u128)1 << 34) + r2, 1, 16, 26, 1, 2, 0 },
        { "glide 2^100 d12", P100 + r1, P100 + ((u128)1 << 32) + r2, 0, 12, 24, 0, 0, 0 },
        { "glide 2^45 d12 above 0", ((u128)1 << 45) + r1, ((u128)1 << 45) + ((u128)1 << 32), 0, 12, 24, 2, 0, 0 },
        { "conv 2^45 d12 hits", ((u128)1 << 45) + r1, ((u128)1 << 45) + ((u128)1 << 33), 1, 12, 24, 1, 1, 0 },
        { "glide 2^44 chunks", ((u128)1 << 44) - ((u128)1 << 35), ((u128)1 << 44) + ((u128)1 << 35), 0, 12, 24, 1, 6, 0 },
        { "glide 2^40 small escapes", P40, P40 + ((u128)1 << 33), 0, 12, 24, 0, 0, 1024 },
        { "conv from 1 above 0", 1, ((u128)1 << 31) + r1, 1, 12, 24, 2, 0, 0 },
        { "glide from 1", 1, ((u128)1 << 30), 0, 12, 20, 0, 0, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(cpu, &cases[i]);
    bulk_ctx_close(cpu);
    cz_gpu_close();
    (void)seed;
    return test_finish();
}
