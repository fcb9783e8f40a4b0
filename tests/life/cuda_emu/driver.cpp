// Compares the emulated CUDA Life stepper (tests/life/cuda_emu/run.sh) with the CPU backend.
#include <stdio.h>
#include <inttypes.h>
#include "emu_cuda.h"
extern "C" {
#include "bulk/life.h"
int emu_life_cuda_step(uint64_t *cells, uint64_t width, uint64_t height, int torus,
                   const bulk_life_rule *rule, uint64_t steps, unsigned per_pass, long long strip);
}
static uint64_t st = 42;
static uint64_t rnd() { uint64_t z = (st += 0x9e3779b97f4a7c15ull); z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull; z = (z ^ (z >> 27)) * 0x94d049bb133111ebull; return z ^ (z >> 31); }
int main(int argc, char **argv)
{
    if (argc > 1) st = strtoull(argv[1], 0, 0);
    bulk_ctx *cpu; bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 1);
    const bulk_life_rule rules[] = { { 0x8, 0xc }, { 0x48, 0xc }, { 0x1c8, 0x1d8 }, { 0x4, 0 }, { 0x1, 0x1ef } };
    const uint64_t ws[] = { 1, 5, 31, 32, 33, 63, 64, 65, 127, 128, 130, 1000, 1920, 1984, 2048, 2100 };
    const uint64_t hs[] = { 1, 2, 3, 17, 70 };
    const unsigned passes[] = { 0, 1, 2, 3, 8, 16, 32 };
    int bad = 0, cases = 0;
    for (uint64_t w : ws) for (uint64_t h : hs) for (int torus = 0; torus < 2; torus++) {
        const bulk_life_rule *r = &rules[rnd() % 5];
        unsigned pp = passes[rnd() % 7];
        uint64_t gens = 1 + rnd() % 70;
        emu_sms = 1 + rnd() % 3;
        uint64_t nw = (w + 63) / 64;
        std::vector<uint64_t> a(nw * h), b;
        for (uint64_t y = 0; y < h; y++) for (uint64_t j = 0; j < nw; j++) {
            uint64_t v = rnd() & rnd();
            if (j == nw - 1 && w % 64) v &= (1ull << (w % 64)) - 1;
            a[y * nw + j] = v;
        }
        b = a;
        bulk_life_grid_step(cpu, a.data(), w, h, torus, r, gens, 0);
        emu_life_cuda_step(b.data(), w, h, torus, r, gens, pp, 0);
        cases++;
        if (a != b) {
            size_t i = 0; while (a[i] == b[i]) i++;
            printf("DIFF %" PRIu64 "x%" PRIu64 " torus %d B%x/S%x gens %" PRIu64 " pass %u: word %zu row %zu cpu %016" PRIx64 " emu %016" PRIx64 "\n",
                   w, h, torus, r->birth, r->survive, gens, pp, i, i / nw, a[i], b[i]);
            if (++bad > 10) return 1;
        }
    }
    printf("%d cases, %d differ, %ld shuffles\n", cases, bad, emu_shuffles);
    return bad != 0;
}
