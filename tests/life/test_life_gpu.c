/* The CUDA backend against the CPU backend: random tori and dead-boundary grids (widths that are
 * and are not multiples of 64), several rules and generations per pass, the plane and the out-of-core
 * path with GPU tiles. Skips (exit 77, "no CUDA device") where there is no GPU. */
#include "bulk/life.h"
#include "test_util.h"

static const bulk_life_rule rules[] = {
    { 0x8, 0xc }, { 0x48, 0xc }, { 0x1c8, 0x1d8 }, { 0x4, 0 }, { 0x1, 0x1ef },
};

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), rs = seed;
    if (bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device (the CUDA Life kernels are tested on a GPU machine: "
               "sh bench/run.sh life --gpu)\n");
        return 77;
    }
    bulk_ctx *cpu, *gpu;
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) return 1;
    int st = bulk_ctx_open(&gpu, BULK_BACKEND_CUDA, 0);
    CHECK(st == BULK_OK, "open cuda: %d", st);
    if (st) return test_finish();
    const uint64_t ws[] = { 1, 5, 63, 64, 65, 127, 128, 130, 1000, 1024, 1984, 2048, 4096, 5000 };
    const uint64_t hs[] = { 1, 3, 17, 64, 300, 1100 };
    const unsigned passes[] = { 0, 1, 2, 5, 8, 16, 31, 32 };
    int cases = 0;
    for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++)
        for (size_t hi = 0; hi < sizeof hs / sizeof hs[0]; hi++)
            for (int torus = 0; torus < 2; torus++) {
                uint64_t w = ws[wi], h = hs[hi], nw = bulk_life_words(w);
                const bulk_life_rule *rule = &rules[test_rand(&rs) % 5];
                unsigned pp = passes[test_rand(&rs) % 8];
                uint64_t gens = 1 + test_rand(&rs) % 200;
                uint64_t *a = malloc(nw * h * 8), *b = malloc(nw * h * 8);
                for (uint64_t y = 0; y < h; y++)
                    for (uint64_t j = 0; j < nw; j++) {
                        uint64_t v = test_rand(&rs) & test_rand(&rs);
                        if (j == nw - 1 && w % 64) v &= (1ull << (w % 64)) - 1;
                        a[y * nw + j] = b[y * nw + j] = v;
                    }
                int s1 = bulk_life_grid_step(cpu, a, w, h, torus, rule, gens, 0);
                int s2 = bulk_life_grid_step(gpu, b, w, h, torus, rule, gens, pp);
                CHECK(s1 == BULK_OK && s2 == BULK_OK, "status %d %d", s1, s2);
                uint64_t bad = UINT64_MAX;
                for (uint64_t i = 0; i < nw * h && bad == UINT64_MAX; i++)
                    if (a[i] != b[i]) bad = i;
                CHECK(bad == UINT64_MAX,
                      "%" PRIu64 "x%" PRIu64 " torus %d B%x/S%x %" PRIu64 " generations, %u per pass: word %" PRIu64
                      " (row %" PRIu64 ") cpu %016" PRIx64 " gpu %016" PRIx64,
                      w, h, torus, rule->birth, rule->survive, gens, pp, bad, bad == UINT64_MAX ? 0 : bad / nw,
                      bad == UINT64_MAX ? 0 : a[bad], bad == UINT64_MAX ? 0 : b[bad]);
                free(a);
                free(b);
                cases++;
            }
    /* the 16K x 16K benchmark torus, 64 generations, CPU against GPU */
    {
        uint64_t w = 16384, h = 16384, nw = w / 64, n = nw * h;
        uint64_t *a = malloc(n * 8), *b = malloc(n * 8);
        for (uint64_t i = 0; i < n; i++) a[i] = b[i] = test_rand(&rs);
        CHECK(bulk_life_grid_step(cpu, a, w, h, 1, &rules[0], 64, 0) == BULK_OK, "cpu");
        CHECK(bulk_life_grid_step(gpu, b, w, h, 1, &rules[0], 64, 16) == BULK_OK, "gpu");
        CHECK(memcmp(a, b, n * 8) == 0, "16K torus differs after 64 generations");
        free(a);
        free(b);
    }
    /* plane and out of core through the universe API */
    for (int ooc = 0; ooc < 2; ooc++) {
        bulk_life_pattern p;
        memset(&p, 0, sizeof p);
        p.width = 200;
        p.height = 150;
        p.cells = calloc(4 * 150, 8);
        for (uint64_t i = 0; i < 4 * 150; i++) p.cells[i] = test_rand(&rs) & test_rand(&rs);
        for (uint64_t y = 0; y < 150; y++) p.cells[y * 4 + 3] &= (1ull << 8) - 1;
        bulk_life_options opt;
        memset(&opt, 0, sizeof opt);
        opt.rule = rules[0];
        if (ooc) {
            opt.torus = 1;
            opt.torus_width = 3000;
            opt.torus_height = 2000;
            opt.max_memory = 400000;
            opt.tmp_dir = test_scratch_dir("life_gpu");
        }
        bulk_life *u1, *u2;
        CHECK(bulk_life_create(&u1, cpu, &p, &opt) == BULK_OK, "create");
        CHECK(bulk_life_create(&u2, gpu, &p, &opt) == BULK_OK, "create");
        CHECK(bulk_life_step(u1, 700) == BULK_OK && bulk_life_step(u2, 700) == BULK_OK, "step");
        bulk_life_pattern x, y;
        CHECK(bulk_life_extract(u1, &x) == BULK_OK && bulk_life_extract(u2, &y) == BULK_OK, "extract");
        CHECK(x.width == y.width && x.height == y.height && x.x == y.x && x.y == y.y &&
                  memcmp(x.cells, y.cells, bulk_life_words(x.width) * x.height * 8) == 0,
              "%s: GPU and CPU differ after 700 generations", ooc ? "out of core" : "plane");
        bulk_life_pattern_free(&x);
        bulk_life_pattern_free(&y);
        bulk_life_free(u1);
        bulk_life_free(u2);
        bulk_life_pattern_free(&p);
    }
    printf("%d grid cases compared\n", cases);
    bulk_ctx_close(cpu);
    bulk_ctx_close(gpu);
    return test_finish();
}
