/* GPU tests of the bpbc area: the CUDA circuit evaluator, bit-sliced adder and CKY parser
 * against the CPU backend on the same inputs (random circuits, the adder; for CKY every
 * kernel — block with and without the early exit, by-B, two splits a pass, thread — on random grammars of 1 to 600
 * non-terminals, strings of many lengths and counts that are no multiple of 32 or 64).
 * Without a CUDA device the test reports SKIP and exits 77 (CTest SKIP_RETURN_CODE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/bulk.h"
#include "bulk/circuit.h"
#include "bulk/cky.h"
#include "test_util.h"
#ifdef BULK_HAVE_CUDA
#include "circuit/circuit_backend.h"
#include "cky/cky_cuda.h"
#endif

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
        const char *err = bulk_ctx_last_error(NULL); /* the thread's last error */
        CHECK(bulk_circuit_parse(&c, t, (size_t)(p - t), "gpu.aag") == BULK_OK, "parse: %s", err);
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
#ifdef BULK_HAVE_CUDA
        /* the Table 5.1 timing entry point of bench/bpbc (naive and bitwise kernels) */
        double naive_ms, bitwise_ms;
        CHECK(bulk_cuda_bench_pairsum(gpu, k, 1 << 16, 1, 5, &naive_ms, &bitwise_ms) == BULK_OK, "gpu pairsum self-check k=%u", k);
#endif
        free(a), free(s1), free(s2);
    }
}

#ifdef BULK_HAVE_CUDA
static bulk_ctx *gpu_ctx; /* main's CUDA context, for bulk_cuda_cky_parse_ex */
static const char *const variant_name[] = { "auto", "block", "block-full", "thread", "by-b", "by-b-full", "by-b2-full", "by-b2" };

/* CPU backend vs every CUDA kernel on the same strings; returns the number accepted. */
static size_t compare_cky(bulk_ctx *cpu, const bulk_grammar *g, const int32_t *sy, const size_t *off, size_t m,
                          int thread_too, const char *what)
{
    uint8_t *x = malloc(m + 1), *y = malloc(m + 1);
    CHECK(bulk_cky_parse(cpu, g, x, sy, off, m) == BULK_OK, "%s: cpu parse", what);
    for (int v = BULK_CKY_GPU_AUTO; v < BULK_CKY_GPU_VARIANTS; v++) {
        if (v == BULK_CKY_GPU_THREAD && !thread_too) continue;
        bulk_cky_gpu_stats stt;
        memset(y, 2, m);
        int st = bulk_cuda_cky_parse_ex(gpu_ctx, g, y, sy, off, m, v, 4, &stt);
        CHECK(st == BULK_OK, "%s: gpu parse (%s): %s", what, variant_name[v], bulk_status_string(st));
        size_t bad = 0, first = m;
        for (size_t i = 0; i < m; i++)
            if (x[i] != y[i]) bad++, first = first < m ? first : i;
        CHECK(bad == 0, "%s: kernel %s (ran %s): %zu of %zu answers differ from the CPU, first at string %zu", what,
              variant_name[v], variant_name[stt.variant], bad, m, first);
    }
    size_t acc = 0;
    for (size_t i = 0; i < m; i++) acc += x[i];
    free(x), free(y);
    return acc;
}

static void test_cky(bulk_ctx *cpu, bulk_ctx *gpu, uint64_t *s)
{
    /* random grammars of many sizes (600: the block kernel at almost all of a block's shared
     * memory; 700: beyond it, so every variant falls back to the thread kernel), strings of
     * random lengths 0..39 (each length bucket ends in a partial group), about 1% with a
     * symbol outside the grammar */
    const unsigned nnts[] = { 1, 5, 32, 64, 200, 600, 700 };
    for (size_t a = 0; a < sizeof nnts / sizeof nnts[0]; a++) {
        unsigned nnt = nnts[a];
        size_t p2 = nnt * (1 + test_rand(s) % 8);
        if ((uint64_t)p2 > (uint64_t)nnt * nnt * nnt) p2 = (size_t)nnt * nnt * nnt;
        bulk_grammar *g = NULL;
        CHECK(bulk_grammar_random(&g, nnt, p2, 3, BULK_CKY_TOKENS, test_rand(s)) == BULK_OK, "grammar");
        if (!g) continue;
        size_t m = nnt > 100 ? 300 : 5000, total = 0, maxn = nnt > 100 ? 12 : 40;
        size_t *off = malloc(sizeof(size_t) * (m + 1));
        int32_t *sy = malloc(sizeof(int32_t) * m * maxn);
        for (size_t i = 0; i < m; i++) {
            off[i] = total;
            size_t n = (size_t)(test_rand(s) % maxn);
            for (size_t k = 0; k < n; k++) sy[total++] = test_rand(s) % 100 == 0 ? -1 : (int32_t)(test_rand(s) % 3);
        }
        off[m] = total;
        char what[64];
        snprintf(what, sizeof what, "nnt %u, p2 %zu", nnt, p2);
        size_t acc = compare_cky(cpu, g, sy, off, m, nnt < 600, what);
        if (nnt == 700) {
            bulk_cky_gpu_stats stt;
            uint8_t *y = malloc(m);
            CHECK(bulk_cuda_cky_parse_ex(gpu_ctx, g, y, sy, off, m, BULK_CKY_GPU_BLOCK, 4, &stt) == BULK_OK, "700 block");
            CHECK(stt.variant == BULK_CKY_GPU_THREAD, "nnt 700: expected the thread kernel, ran %s",
                  variant_name[stt.variant]);
            free(y);
        }
        printf("cky %s: %zu strings of lengths 0..%zu, %zu accepted\n", what, m, maxn - 1, acc);
        free(off), free(sy);
        bulk_grammar_free(g);
    }
    /* many strings of a few lengths (several 1024-string groups and a partial one; the
     * strings lie interleaved, so the driver gathers them), dense grammars whose sets fill up
     * (the early exit) and sparse ones (40/60, 32/48, 24/30 with 2 terminals often accept
     * part of the strings, 64/64 few); 200 terminals: 1-byte symbols, 300: 4-byte */
    struct {
        unsigned nnt;
        size_t p2;
        unsigned nterm;
    } big[] = { { 64, 8192, 4 }, { 64, 64, 4 },  { 40, 60, 2 },     { 32, 48, 2 },
                { 24, 30, 2 },   { 130, 2000, 200 }, { 20, 300, 300 } };
    for (size_t a = 0; a < sizeof big / sizeof big[0]; a++) {
        bulk_grammar *g = NULL;
        CHECK(bulk_grammar_random(&g, big[a].nnt, big[a].p2, big[a].nterm, BULK_CKY_TOKENS, test_rand(s)) == BULK_OK,
              "grammar");
        if (!g) continue;
        const size_t lens[3] = { 31, 17, 33 }, m = 2 * 1024 + 777 + (size_t)(test_rand(s) % 300);
        size_t *off = malloc(sizeof(size_t) * (m + 1)), total = 0;
        int32_t *sy = malloc(sizeof(int32_t) * m * 33);
        for (size_t i = 0; i < m; i++) {
            off[i] = total;
            size_t n = lens[test_rand(s) % 3];
            for (size_t k = 0; k < n; k++) sy[total++] = (int32_t)(test_rand(s) % big[a].nterm);
        }
        off[m] = total;
        char what[64];
        snprintf(what, sizeof what, "nnt %u, p2 %zu, %u terminals", big[a].nnt, big[a].p2, big[a].nterm);
        size_t acc = compare_cky(cpu, g, sy, off, m, big[a].p2 <= 2000, what);
        printf("cky %s: %zu strings of lengths 17, 31, 33, %zu accepted\n", what, m, acc);
        free(off), free(sy);
        bulk_grammar_free(g);
    }
    /* one length, strings contiguous with 4-byte symbols (300 terminals: the driver copies
     * them straight from syms), a count that is no multiple of 32: bulk_cky_parse on the CUDA
     * context */
    {
        bulk_grammar *g = NULL;
        CHECK(bulk_grammar_random(&g, 48, 1500, 300, BULK_CKY_TOKENS, test_rand(s)) == BULK_OK, "grammar");
        const size_t m = 5 * 1024 + 13, n = 23;
        size_t *off = malloc(sizeof(size_t) * (m + 1));
        int32_t *sy = malloc(sizeof(int32_t) * m * n);
        for (size_t i = 0; i <= m; i++) off[i] = i * n;
        for (size_t i = 0; i < m * n; i++) sy[i] = (int32_t)(test_rand(s) % 300);
        uint8_t *x = malloc(m), *y = malloc(m);
        CHECK(bulk_cky_parse(cpu, g, x, sy, off, m) == BULK_OK, "cpu parse");
        CHECK(bulk_cky_parse(gpu, g, y, sy, off, m) == BULK_OK, "gpu parse");
        CHECK(memcmp(x, y, m) == 0, "contiguous strings of length %zu: CUDA and CPU answers differ", n);
        size_t acc = 0;
        for (size_t i = 0; i < m; i++) acc += x[i];
        printf("cky nnt 48, p2 1500, 300 terminals: %zu contiguous strings of length %zu, %zu accepted\n", m, n, acc);
        free(off), free(sy), free(x), free(y);
        bulk_grammar_free(g);
    }
    /* more than 2^20 symbols in one length bucket and more than 65536 strings: the host
     * checks and the gathering run on several threads; lengths 13, 14, 15 interleaved */
    {
        bulk_grammar *g = NULL;
        CHECK(bulk_grammar_random(&g, 16, 100, 3, BULK_CKY_TOKENS, test_rand(s)) == BULK_OK, "grammar");
        const size_t m = 240007;
        size_t *off = malloc(sizeof(size_t) * (m + 1)), total = 0;
        int32_t *sy = malloc(sizeof(int32_t) * m * 15);
        for (size_t i = 0; i < m; i++) {
            off[i] = total;
            size_t n = 13 + (size_t)(test_rand(s) % 3);
            for (size_t k = 0; k < n; k++) sy[total++] = (int32_t)(test_rand(s) % 3);
        }
        off[m] = total;
        size_t acc = compare_cky(cpu, g, sy, off, m, 1, "nnt 16, p2 100, 240007 strings");
        printf("cky nnt 16, p2 100: %zu strings of lengths 13..15, %zu accepted\n", m, acc);
        free(off), free(sy);
        bulk_grammar_free(g);
    }
}

/* The grammars of tests/data/cky (Dyck, a^n b^n, palindromes, arithmetic expressions: mixed
 * answers at every length, unlike most random grammars) on 30000 strings each of lengths 0..40:
 * half random over the alphabet (about 1 in 200 symbols foreign), half built to be in the
 * language and then mutated in one place with probability 1/2. */
static void test_cky_data(bulk_ctx *cpu, const char *dir, uint64_t *s)
{
    static const struct {
        const char *file, *alpha;
    } gs[] = { { "dyck.cfg", "()" }, { "anbn.cfg", "ab" }, { "palindromes.cfg", "ab" }, { "arith.cfg", "x+*()" } };
    for (size_t k = 0; k < sizeof gs / sizeof gs[0]; k++) {
        char path[4096];
        const char *err = bulk_ctx_last_error(NULL);
        snprintf(path, sizeof path, "%s/%s", dir, gs[k].file);
        bulk_grammar *g = NULL;
        CHECK(bulk_grammar_read(&g, path, BULK_CKY_CHARS) == BULK_OK, "%s: %s", path, err);
        if (!g) continue;
        const size_t m = 30000, maxn = 41, na = strlen(gs[k].alpha);
        size_t *off = malloc(sizeof(size_t) * (m + 1)), total = 0;
        int32_t *sy = malloc(sizeof(int32_t) * m * maxn);
        char w[64];
        for (size_t i = 0; i < m; i++) {
            size_t n = (size_t)(test_rand(s) % maxn), h = n / 2;
            for (size_t j = 0; j < n; j++) w[j] = gs[k].alpha[test_rand(s) % na];
            if (i % 2) { /* a member (or nearly) */
                if (k == 0) { /* balanced parentheses: a random walk that closes at the end */
                    size_t depth = 0;
                    n -= n % 2;
                    for (size_t j = 0; j < n; j++) {
                        int open = depth == 0 || (depth < n - j && test_rand(s) % 2);
                        w[j] = open ? '(' : ')';
                        depth += open ? 1 : (size_t)-1;
                    }
                } else if (k == 1) { /* a^h b^h */
                    n = 2 * h;
                    for (size_t j = 0; j < n; j++) w[j] = j < h ? 'a' : 'b';
                } else if (k == 2) { /* mirror the first half */
                    for (size_t j = 0; j < h; j++) w[n - 1 - j] = w[j];
                } else { /* x (op x)* with some parenthesised operands, at most max(n, 1) long */
                    size_t j = 0;
                    for (;;) {
                        if (j + 5 <= n && test_rand(s) % 4 == 0) memcpy(w + j, "(x+x)", 5), j += 5;
                        else w[j++] = 'x';
                        if (j + 2 > n) break; /* an operator only with room for an operand after it */
                        w[j++] = test_rand(s) % 2 ? '+' : '*';
                    }
                    n = j;
                }
                if (n && test_rand(s) % 2) w[test_rand(s) % n] = gs[k].alpha[test_rand(s) % na];
            }
            off[i] = total;
            for (size_t j = 0; j < n; j++)
                sy[total++] = test_rand(s) % 200 == 0 ? bulk_grammar_terminal(g, "#", 1) : bulk_grammar_terminal(g, w + j, 1);
        }
        off[m] = total;
        size_t acc = compare_cky(cpu, g, sy, off, m, 1, gs[k].file);
        printf("cky %s: %zu strings of lengths 0..%zu, %zu accepted\n", gs[k].file, m, maxn - 1, acc);
        CHECK(acc > m / 50 && acc < m - m / 50, "%s: %zu of %zu accepted: the strings do not mix members and non-members",
              gs[k].file, acc, m);
        free(off), free(sy);
        bulk_grammar_free(g);
    }
}
#else
static void test_cky(bulk_ctx *cpu, bulk_ctx *gpu, uint64_t *s)
{
    (void)cpu, (void)gpu, (void)s; /* not reached: main skips without a device */
}
static void test_cky_data(bulk_ctx *cpu, const char *dir, uint64_t *s)
{
    (void)cpu, (void)dir, (void)s;
}
#endif

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
#ifdef BULK_HAVE_CUDA
    gpu_ctx = gpu;
#endif
    const char *dir = "tests/data/cky";
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--data") == 0) dir = argv[i + 1];
    test_circuits(cpu, gpu, &s);
    test_cky(cpu, gpu, &s);
    test_cky_data(cpu, dir, &s);
    bulk_ctx_close(cpu);
    bulk_ctx_close(gpu);
    return test_finish();
}
