/* GPU tests of the bpbc area: the CUDA circuit evaluator, bit-sliced adder and CKY parser
 * against the CPU backend on the same inputs (random circuits, the adder, random grammars with
 * small and large non-terminal counts so both CKY kernels run, strings of many lengths).
 * Without a CUDA device the test reports SKIP and exits 77 (CTest SKIP_RETURN_CODE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/bulk.h"
#include "bulk/circuit.h"
#include "bulk/cky.h"
#include "test_util.h"

static void test_circuits(bulk_ctx *cpu, bulk_ctx *gpu, uint64_t *s)
{
    for (int r = 0; r < 40; r++) {
        /* a random AIG in ASCII (gates in order), then CPU vs GPU on many words */
        unsigned I = 1 + (unsigned)(test_rand(s) % 40), A = (unsigned)(test_rand(s) % 3000), O = 1 + (unsigned)(test_rand(s) % 20);
        size_t cap = 64 + 40 * (I + A + O);
        char *t = malloc(cap), *p = t;
        p += sprintf(p, "aag %u %u 0 %u %u\n", I + A, I, O, A);
        for (unsigned i = 0; i < I; i++) p += sprintf(p, "%u\n", 2 * (i + 1));
        for (unsigned o = 0; o < O; o++) p += sprintf(p, "%u\n", (unsigned)(test_rand(s) % (2 * (I + A) + 2)));
        for (unsigned a = 0; a < A; a++) {
            unsigned lim = 2 * (I + a + 1);
            p += sprintf(p, "%u %u %u\n", lim, (unsigned)(test_rand(s) % lim), (unsigned)(test_rand(s) % lim));
        }
        bulk_circuit *c = NULL;
        char err[256];
        CHECK(bulk_circuit_parse(&c, t, (size_t)(p - t), "gpu.aag", err, sizeof err) == BULK_OK, "parse: %s", err);
        free(t);
        if (!c) continue;
        size_t nw = 1 + (size_t)(test_rand(s) % 5000);
        uint64_t *in = malloc(8 * nw * I), *o1 = malloc(8 * nw * O), *o2 = malloc(8 * nw * O);
        for (size_t i = 0; i < nw * I; i++) in[i] = test_structured_limb(s, (int)(i % 8));
        CHECK(bulk_circuit_eval(cpu, c, o1, in, nw) == BULK_OK, "cpu eval");
        int st = bulk_circuit_eval(gpu, c, o2, in, nw);
        CHECK(st == BULK_OK, "gpu eval: %s", bulk_status_string(st));
        CHECK(memcmp(o1, o2, 8 * nw * O) == 0, "round %d: CUDA and CPU circuit outputs differ", r);
        free(in), free(o1), free(o2);
        bulk_circuit_free(c);
    }
    for (unsigned k = 1; k <= 32; k += 5) {
        size_t nw = 777;
        uint64_t *a = malloc(8 * nw * k * 2), *s1 = malloc(8 * nw * (k + 1)), *s2 = malloc(8 * nw * (k + 1));
        for (size_t i = 0; i < nw * k * 2; i++) a[i] = test_rand(s);
        CHECK(bulk_bitslice_add(cpu, s1, a, a + nw * k, k, nw) == BULK_OK, "cpu add");
        CHECK(bulk_bitslice_add(gpu, s2, a, a + nw * k, k, nw) == BULK_OK, "gpu add");
        CHECK(memcmp(s1, s2, 8 * nw * (k + 1)) == 0, "k=%u: CUDA and CPU bit-sliced sums differ", k);
        bulk_pairsum_timing t;
        CHECK(bulk_circuit_bench_pairsum(gpu, k, 1 << 16, 1, 5, &t) == BULK_OK, "gpu pairsum self-check k=%u", k);
        free(a), free(s1), free(s2);
    }
}

static void test_cky(bulk_ctx *cpu, bulk_ctx *gpu, uint64_t *s)
{
    const unsigned nnts[] = { 1, 5, 32, 64, 200, 600 }; /* 600: beyond the shared-memory kernel */
    for (size_t a = 0; a < sizeof nnts / sizeof nnts[0]; a++) {
        unsigned nnt = nnts[a];
        size_t p2 = nnt * (1 + test_rand(s) % 8);
        if ((uint64_t)p2 > (uint64_t)nnt * nnt * nnt) p2 = (size_t)nnt * nnt * nnt;
        bulk_grammar *g = NULL;
        CHECK(bulk_grammar_random(&g, nnt, p2, 3, BULK_CKY_TOKENS, test_rand(s)) == BULK_OK, "grammar");
        if (!g) continue;
        size_t m = nnt > 100 ? 300 : 5000, total = 0;
        size_t *off = malloc(sizeof(size_t) * (m + 1));
        int32_t *sy = malloc(sizeof(int32_t) * m * 40);
        for (size_t i = 0; i < m; i++) {
            off[i] = total;
            size_t n = (size_t)(test_rand(s) % (nnt > 100 ? 12 : 40));
            for (size_t k = 0; k < n; k++) sy[total++] = test_rand(s) % 100 == 0 ? -1 : (int32_t)(test_rand(s) % 3);
        }
        off[m] = total;
        uint8_t *x = malloc(m), *y = malloc(m);
        CHECK(bulk_cky_parse(cpu, g, x, sy, off, m) == BULK_OK, "cpu parse");
        int st = bulk_cky_parse(gpu, g, y, sy, off, m);
        CHECK(st == BULK_OK, "gpu parse: %s", bulk_status_string(st));
        size_t acc = 0;
        for (size_t i = 0; i < m; i++) acc += x[i];
        CHECK(memcmp(x, y, m) == 0, "nnt %u, p2 %zu: CUDA and CPU CKY answers differ", nnt, p2);
        printf("cky nnt %u p2 %zu: %zu strings, %zu accepted\n", nnt, p2, m, acc);
        free(off), free(sy), free(x), free(y);
        bulk_grammar_free(g);
    }
}

int main(int argc, char **argv)
{
    if (bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device (bulk_cuda_device_count() == 0); the bpbc GPU tests need one\n");
        return 77;
    }
    uint64_t seed = test_seed(argc, argv), s = seed;
    bulk_ctx *cpu = NULL, *gpu = NULL;
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK || bulk_ctx_open(&gpu, BULK_BACKEND_CUDA, 0) != BULK_OK) {
        fprintf(stderr, "cannot open the CPU and CUDA contexts\n");
        return 1;
    }
    test_circuits(cpu, gpu, &s);
    test_cky(cpu, gpu, &s);
    bulk_ctx_close(cpu);
    bulk_ctx_close(gpu);
    return test_finish();
}
