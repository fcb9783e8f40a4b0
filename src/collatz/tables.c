/* Tables B, C, J, MX (seed 004 section 3), the delay/peak tables A and P, and the engine that
 * owns them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/context.h"
#include "collatz/collatz_internal.h"

const uint64_t bulk_cz_pow3[41] = {
    1ull, 3ull, 9ull, 27ull, 81ull, 243ull, 729ull, 2187ull, 6561ull, 19683ull, 59049ull,
    177147ull, 531441ull, 1594323ull, 4782969ull, 14348907ull, 43046721ull, 129140163ull,
    387420489ull, 1162261467ull, 3486784401ull, 10460353203ull, 31381059609ull, 94143178827ull,
    282429536481ull, 847288609443ull, 2541865828329ull, 7625597484987ull, 22876792454961ull,
    68630377364883ull, 205891132094649ull, 617673396283947ull, 1853020188851841ull,
    5559060566555523ull, 16677181699666569ull, 50031545098999707ull, 150094635296999121ull,
    450283905890997363ull, 1350851717672992089ull, 4052555153018976267ull,
    12157665459056928801ull};

int bulk_cz_fail_status(const bulk_ctx *ctx, int st, const char *fn, const char *what)
{
    if (st == BULK_ERR_CUDA) return st; /* the CUDA check's message stays */
    return bulk_fail(ctx, st, "%s: %s: %s", fn, what, bulk_status_string(st));
}

/* The b/c rules of seed 004: start b = 2^d, c = L; odd rule (c odd): b, c <- 3b, 3c + 1; even
 * rule (c even, b even): b, c <- b/2, c/2; stop when b is odd (after exactly d even rules).
 * b <= 2^(d-1) * 3^d < 2^63 for d <= 24, so 64-bit words suffice. MX is the largest b seen
 * after the start (the bound cz_peak_step relies on). */
/* One step of the affine form b x + c of a table operation (x the unknown high part): c odd ->
 * 3 (b x + c) + 1, c even -> (b x + c) / 2 (b is still even then). Returns 1 for a halving step. */
static inline int affine_step(uint64_t *b, uint64_t *c)
{
    if (*c & 1) {
        *b *= 3;
        *c = 3 * *c + 1;
        return 0;
    }
    *b >>= 1;
    *c >>= 1;
    return 1;
}

void bulk_cz_build_tables(int d, uint64_t *B, uint64_t *C, uint8_t *J, uint64_t *MX)
{
    uint64_t size = (uint64_t)1 << d;
    for (uint64_t L = 0; L < size; L++) {
        uint64_t b = size, c = L, mx = 0;
        unsigned steps = 0;
        while (!(b & 1)) {
            affine_step(&b, &c);
            steps++;
            if (b > mx) mx = b;
        }
        B[L] = b;
        C[L] = c;
        J[L] = (uint8_t)steps;
        MX[L] = mx;
    }
}

void bulk_cz_build_dip(int d, uint64_t *MB)
{
    uint64_t size = (uint64_t)1 << d;
    for (uint64_t L = 0; L < size; L++) {
        uint64_t b = size, c = L, mb = size;
        while (!(b & 1))
            if (affine_step(&b, &c) && b < mb) mb = b;
        MB[L] = mb;
    }
}

void bulk_cz_build_scan(int d, int32_t *Tb, uint32_t *Tc, uint8_t *Ts)
{
    uint64_t size = (uint64_t)1 << d;
    for (uint64_t L = 0; L < size; L++) {
        uint64_t b = size, c = L;
        unsigned steps = 0, t = 0;
        for (unsigned i = 0; i < 16; i++) {
            Tb[16 * L + i] = INT32_MAX;
            Tc[16 * L + i] = 0;
            Ts[16 * L + i] = 0;
        }
        while (!(b & 1)) {
            if (affine_step(&b, &c)) {
                Tb[16 * L + t] = (int32_t)b;
                Tc[16 * L + t] = (uint32_t)c;
                Ts[16 * L + t] = (uint8_t)(steps + 1);
                t++;
            }
            steps++;
        }
    }
}

int bulk_cz_build_small(int a, uint16_t *A, uint64_t *P)
{
    uint64_t t = (uint64_t)1 << a;
    A[0] = 0;
    P[0] = 0;
    if (t > 1) {
        A[1] = 0;
        P[1] = 1;
    }
    for (uint64_t n = 2; n < t; n++) {
        if (!(n & 1)) {
            A[n] = (uint16_t)(A[n / 2] + 1);
            P[n] = P[n / 2] > n ? P[n / 2] : n;
            continue;
        }
        /* odd n >= 3: single steps until the value drops below n, then the tables */
        u128 v = n, mx = n;
        unsigned steps = 0;
        while (v >= n) {
            if (v & 1) {
                v = 3 * v + 1;
                if (v > mx) mx = v;
            } else {
                v >>= 1;
            }
            steps++;
        }
        uint64_t pk = P[(uint64_t)v];
        if (mx >> 64) return BULK_ERR_INTERNAL;
        if ((uint64_t)mx > pk) pk = (uint64_t)mx;
        unsigned dl = steps + A[(uint64_t)v];
        if (dl > 65535) return BULK_ERR_INTERNAL;
        A[n] = (uint16_t)dl;
        P[n] = pk;
    }
    return BULK_OK;
}

void bulk_collatz_engine_free(bulk_collatz_engine *e)
{
    if (!e) return;
    free(e->B);
    free(e->C);
    free(e->J);
    free(e->MX);
    free(e->MB);
    free(e->Sr);
    free(e->Sc);
    free(e->Sj);
    free(e->A);
    free(e->P);
    free(e->cls);
    free(e->cls_c);
    free(e->cls_j);
    pthread_mutex_destroy(&e->cls_lock);
    free(e->Tb);
    free(e->Tc);
    free(e->Ts);
    free(e->xB);
    free(e->xC);
    free(e->xdj);
    free(e->xL);
    bulk_cz_conv_free(e->cv);
    free(e);
}

static const char engine_fn[] = "bulk_collatz_engine_new";

/* The engine e could not be built: free it and record why. */
static int engine_failed(bulk_collatz_engine *e, const bulk_ctx *ctx, int st, const char *what)
{
    bulk_collatz_engine_free(e);
    return bulk_cz_fail_status(ctx, st, engine_fn, what);
}

int bulk_collatz_engine_new(bulk_collatz_engine **out, bulk_ctx *ctx, int d, int k, int a)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: is NULL", engine_fn);
    if (!out) return bulk_fail(ctx, BULK_ERR_ARG, "%s: e: is NULL", engine_fn);
    *out = NULL;
    if (d < 1 || d > BULK_COLLATZ_MAX_D)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: d = %d: is out of range [1, %d]", engine_fn, d,
                         BULK_COLLATZ_MAX_D);
    if (k < 0 || k > BULK_COLLATZ_MAX_K)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: k = %d: is out of range [0, %d]", engine_fn, k,
                         BULK_COLLATZ_MAX_K);
    if (a != 0 && (a < d || a > BULK_COLLATZ_MAX_A))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: a = %d: is out of range [d = %d, %d]", engine_fn, a,
                         d, BULK_COLLATZ_MAX_A);
    bulk_collatz_engine *e = calloc(1, sizeof *e);
    if (!e) return bulk_fail(ctx, BULK_ERR_NOMEM, "%s: engine: out of memory", engine_fn);
    e->d = d;
    e->k = k;
    e->a = a;
    e->threads = bulk_ctx_threads(ctx);
    e->ctx = ctx;
    pthread_mutex_init(&e->cls_lock, NULL);
    e->cls_status = 1;
    size_t size = (size_t)1 << d;
    e->B = malloc(size * sizeof *e->B);
    e->C = malloc(size * sizeof *e->C);
    e->MX = malloc(size * sizeof *e->MX);
    e->MB = malloc(size * sizeof *e->MB);
    e->J = malloc(size);
    if (!e->B || !e->C || !e->MX || !e->MB || !e->J)
        return engine_failed(e, ctx, BULK_ERR_NOMEM, "tables B, C, J");
    bulk_cz_build_tables(d, e->B, e->C, e->J, e->MX);
    e->MXmax = 1;
    for (size_t L = 0; L < size; L++)
        if (e->MX[L] > e->MXmax) e->MXmax = e->MX[L];
    bulk_cz_build_dip(d, e->MB);
    if (d <= 16) {
        e->Tb = malloc(size * 16 * sizeof *e->Tb);
        e->Tc = malloc(size * 16 * sizeof *e->Tc);
        e->Ts = malloc(size * 16);
        if (!e->Tb || !e->Tc || !e->Ts) return engine_failed(e, ctx, BULK_ERR_NOMEM, "scan tables");
        bulk_cz_build_scan(d, e->Tb, e->Tc, e->Ts);
    }
    if (a > 0) {
        size_t t = (size_t)1 << a;
        e->A = malloc(t * sizeof *e->A);
        e->P = malloc(t * sizeof *e->P);
        if (!e->A || !e->P) return engine_failed(e, ctx, BULK_ERR_NOMEM, "tables A, P");
        int st = bulk_cz_build_small(a, e->A, e->P);
        e->M = BULK_CZ_MERGE_BITS; /* the classes themselves: bulk_cz_need_classes */
        if (st != BULK_OK) return engine_failed(e, ctx, st, "tables A, P");
    }
    int st = bulk_cz_build_sieve(e, e->threads);
    if (st != BULK_OK) return engine_failed(e, ctx, st, "sieve");
    *out = e;
    return BULK_OK;
}

uint64_t bulk_collatz_engine_sieve_size(const bulk_collatz_engine *e) { return e ? e->s_k : 0; }

int bulk_collatz_engine_set_converge(bulk_collatz_engine *e)
{
    static const char fn[] = "bulk_collatz_engine_set_converge";
    if (!e) return bulk_fail(NULL, BULK_ERR_ARG, "%s: e: is NULL", fn);
    if (e->k < 1 || !e->Sr)
        return bulk_fail(e->ctx, BULK_ERR_ARG, "%s: k = %d: convergence mode needs a stored sieve (k >= 1)",
                         fn, e->k);
    if (e->kx)
        return bulk_fail(e->ctx, BULK_ERR_ARG,
                         "%s: sieve extension: convergence mode must be set before a sieve extension is added", fn);
    if (e->conv) return BULK_OK;
    int st = bulk_cz_conv_new(e->k, &e->cv);
    if (st != BULK_OK) return bulk_cz_fail_status(e->ctx, st, fn, "convergence tables");
    free(e->Sr);
    free(e->Sc);
    free(e->Sj);
    e->Sr = e->Sc = NULL;
    e->Sj = NULL;
    e->conv = 1;
    st = bulk_cz_build_sieve(e, e->threads);
    return st == BULK_OK ? st : bulk_cz_fail_status(e->ctx, st, fn, "sieve");
}

int bulk_collatz_engine_converge(const bulk_collatz_engine *e) { return e && e->conv; }

void bulk_cz_u128_str(bulk_u128 v, char *buf)
{
    u128 x = ((u128)v.hi << 64) | v.lo;
    char tmp[48];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(x % 10));
        x /= 10;
    } while (x);
    for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
}

int bulk_cz_u128_parse(const char *s, bulk_u128 *v)
{
    u128 x = 0;
    if (!*s) return BULK_ERR_PARSE;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return BULK_ERR_PARSE;
        unsigned dg = (unsigned)(*s - '0');
        if (x > (~(u128)0 - dg) / 10) return BULK_ERR_OVERFLOW;
        x = x * 10 + dg;
    }
    v->lo = (uint64_t)x;
    v->hi = (uint64_t)(x >> 64);
    return BULK_OK;
}
