/* CPU test of the lean round end of the V5 delay loop (cg_delay6.h; no GPU needed, label unit):
 * - cg6_feed_init / cg6_refill: the running scaled next number equals 4 (n0 + i) for every index
 *   handed out (carries across the 32-bit limbs, pieces reaching 2^94 flagged), each index once;
 * - cg6_classify equals cg5_check_mark's rule (the V5 round end it replaces) on random and
 *   structured slot states;
 * - a twin of the kernel's lane loop (lane_delays6 in cg_delays.cu: 32 lanes x NL slots, rounds
 *   of U steps, the classification, deferred results, refills from the feed) puts every number
 *   of a piece exactly once with cg_delay's delay (and the CPU engine's), for the GPU's (d, a),
 *   U = 4, 8, NL = 2, 3, from 1, near 2^64, 2^68, 2^90, 2^94 (the feed's limit), 2^96 (the
 *   guard), 2^128 (escapes) and random points; it prints the loop's model figures.
 * Replay: --seed S. */
#include "cz_cpu_test.h"

#include "collatz/cuda/cg_delay6.h"
#include "collatz/collatz_internal.h"

typedef unsigned __int128 u128;

static cg_u128 of_w(u128 v) { return cg_make((uint64_t)v, (uint64_t)(v >> 64)); }
static u128 x_of(const cg5_num *s) { return (u128)s->x2 << 64 | (u128)s->x1 << 32 | s->x0; }

static void test_feed(uint64_t *rs)
{
    /* starts around the limb boundaries of x = 4 n (n near 2^30, 2^62, 2^94) and random */
    const u128 bases[] = { 1, ((u128)1 << 30) - 40, ((u128)1 << 62) - 300, ((u128)1 << 64) - 7,
                           ((u128)1 << 94) - 200, ((u128)1 << 94) - 5000, ((u128)1 << 93) };
    for (int it = 0; it < 2000; it++) {
        u128 n0 = it < 7 * 20 ? bases[it % 7] + (u128)(test_rand(rs) % 64) : (u128)test_rand(rs) << 64 | test_rand(rs);
        if (it >= 7 * 20) n0 >>= 34 + test_rand(rs) % 90;
        if (!n0) n0 = 1;
        const uint32_t len = 1 + (uint32_t)(test_rand(rs) % 3000), lane = (uint32_t)(it % 32);
        cg6_feed f;
        cg6_feed_init(&f, of_w(n0), lane, len);
        const int hi = ((n0 + len - 1) >> 94) != 0;
        CHECK(f.ov == (hi ? 0xffffffffu : 0u), "feed ov flag (n0 + len - 1 >= 2^94: %d)", hi);
        cg6_slot q;
        memset(&q, 0, sizeof q);
        q.idx = CG6_NONE;
        uint32_t want = lane, got = 0;
        for (;;) {
            const int took = cg6_refill(&q, &f);
            if (want >= len) {
                CHECK(!took && q.idx == CG6_NONE, "refill past the piece's end (len %u, index %u)", len, want);
                break;
            }
            CHECK(took && q.idx == want, "refill index %u, want %u", q.idx, want);
            const u128 n = n0 + want;
            if (n < ((u128)1 << 94))
                CHECK(x_of(&q.s) == 4 * n && q.s.st == 0 && q.s.ov == f.ov, "refill value of n0 + %u", want);
            CHECK(!cg6_refill(&q, &f), "a busy slot took a number");
            q.idx = CG6_NONE;
            want += 32;
            got++;
        }
        CHECK(got == (lane < len ? (len - lane + 31) / 32 : 0), "numbers handed to lane %u of %u", lane, len);
    }
}

/* cg6_classify against cg5_check_mark (with du = 0: the round's steps already added). */
static void test_classify(uint64_t *rs)
{
    for (int it = 0; it < 400000; it++) {
        const unsigned d = 1 + (unsigned)(test_rand(rs) % CG5_MAX_D), a = 1 + (unsigned)(test_rand(rs) % 30);
        const uint32_t dmask = cg5_done_mask(a);
        const unsigned gsh = 32 - cg5_guard_bits(d);
        cg6_slot q;
        const uint64_t r = test_rand(rs);
        /* mostly small values (the interesting ones: around 2^a, around 20 = 4 * 5) */
        q.s.x0 = (r & 3) == 0 ? (uint32_t)test_rand(rs) : (uint32_t)(test_rand(rs) % ((uint64_t)4 << (r >> 2) % 32));
        q.s.x1 = (r >> 8) % 4 == 0 ? (uint32_t)test_rand(rs) : 0;
        q.s.x2 = (r >> 10) % 8 == 0 ? (uint32_t)test_rand(rs) >> (test_rand(rs) % 32) : 0;
        q.s.ov = (r >> 13) % 4 == 0 ? (uint32_t)test_rand(rs) >> (test_rand(rs) % 32) : q.s.x2;
        q.s.st = (uint32_t)test_rand(rs) % 5000;
        q.cx = (r >> 16) % 3 == 0 ? ~0u : (uint32_t)(test_rand(rs) % ((uint64_t)4 << (r >> 20) % 32));
        q.cst = (uint32_t)test_rand(rs) % 5000;
        q.idx = (r >> 26) % 8 == 0 ? CG6_NONE : (uint32_t)(test_rand(rs) % 100000);
        q.pidx = CG6_NONE;
        uint32_t dv = 0, dst = 0;
        const int r6 = cg6_classify(&q, dmask, gsh, &dv, &dst);
        cg5_num c = q.s;
        const int r5 = q.idx == CG6_NONE ? 0 : cg5_check_mark(&c, dmask, gsh, 0, q.cx);
        const int want = r5 == 3 ? 1 : r5;
        CHECK(r6 == want, "classify %d, V5's check %d (x %08x %08x %08x ov %08x cx %08x a=%u d=%u)", r6, r5, q.s.x2,
              q.s.x1, q.s.x0, q.s.ov, q.cx, a, d);
        if (r6 == 1 && r5 == 1) CHECK(dv == q.s.x0 && dst == q.s.st, "done at the round's end value");
        if (r6 == 1 && r5 == 3) CHECK(dv == q.cx && dst == q.cst, "done at the checkpoint");
    }
}

struct wstats6 {
    uint64_t rounds, slot_rounds, finishes, slow;
};

/* What a warp's piece holds: consecutive numbers n0 + i (the number feed) or the classes k0 + i
 * of the block with high part nH (the class feed of phase 1). */
struct piece6 {
    int classes;
    u128 n0;
    const uint64_t *cls2;
    uint64_t nH;
    uint32_t k0;
};

/* lane_delays6 on the CPU for one warp's piece of len start values: out[i] = the delay put for
 * start value i (UINT32_MAX: escape), each put once (-2 before: checked). */
static void warp_twin6(const struct piece6 *pc, uint32_t len, int nl, unsigned u, const bulk_collatz_engine *e,
                       const uint32_t *CJ, const uint64_t *BC, int64_t *out, struct wstats6 *ws)
{
    enum { NLMAX = 3 };
    const unsigned d = (unsigned)e->d, a = (unsigned)e->a, gsh = 32 - cg5_guard_bits(d);
    const uint32_t mask4 = ((1u << d) - 1) << 2, dmask = cg5_done_mask(a), du = u * d;
    cg6_feed f[32];
    cg6_cfeed cf[32];
    cg6_slot q[32][NLMAX];
    for (uint32_t l = 0; l < 32; l++) {
        if (pc->classes) cg6_cfeed_init(&cf[l], pc->cls2, pc->nH, pc->k0, l, len);
        else cg6_feed_init(&f[l], of_w(pc->n0), l, len);
        for (int k = 0; k < nl; k++) {
            cg5_start(&q[l][k].s, cg_make(0, 0));
            q[l][k].cx = ~0u;
            q[l][k].cst = q[l][k].pst = q[l][k].pa = 0;
            q[l][k].idx = q[l][k].pidx = CG6_NONE;
        }
    }
#define PUT6(i, dl)                                                                                \
    do {                                                                                           \
        CHECK((i) < len && out[i] == -2, "warp twin6: number %u put twice or out of range", (unsigned)(i)); \
        if ((i) < len) out[i] = (int64_t)(dl);                                                     \
    } while (0)
    for (;;) {
        int any = 0;
        for (int l = 0; l < 32; l++)
            for (int k = 0; k < nl; k++) {
                cg6_slot *s = &q[l][k];
                if (s->pidx != CG6_NONE) PUT6(s->pidx, (uint32_t)(s->pst + s->pa));
                s->pidx = CG6_NONE;
                s->s.st += du;
                uint32_t dv, dst;
                const int r = cg6_classify(s, dmask, gsh, &dv, &dst);
                if (r == 1) {
                    s->pa = e->A[dv >> 2];
                    s->pst = dst;
                    s->pidx = s->idx;
                    s->idx = CG6_NONE;
                    ws->finishes++;
                } else if (r == 2) {
                    const cg_u128 v = pc->classes ? cg6_class_value(&cf[l], s->idx) : of_w(pc->n0 + s->idx);
                    const int64_t dl = cg_delay(v, d, a, BC, e->J, e->A);
                    PUT6(s->idx, dl < 0 ? UINT32_MAX : (uint32_t)dl);
                    s->idx = CG6_NONE;
                    ws->slow++;
                    ws->finishes++;
                }
                if (pc->classes) cg6_crefill(s, &cf[l]);
                else cg6_refill(s, &f[l]);
                any |= s->idx != CG6_NONE;
            }
        if (!any) break;
        ws->rounds++;
        ws->slot_rounds += 32u * (unsigned)nl;
        for (int l = 0; l < 32; l++)
            for (int k = 0; k < nl; k++) q[l][k].cx = ~0u;
        for (unsigned t = 0; t < u; t++)
            for (int l = 0; l < 32; l++)
                for (int k = 0; k < nl; k++) {
                    cg6_slot *s = &q[l][k];
                    const uint32_t ent = CJ[cg5_offset(&s->s, mask4) >> 2];
                    cg5_step(&s->s, d + 2, ent, 4u * (uint32_t)bulk_cz_pow3[ent & 31]);
                    if (t % 2 == 1 && t + 1 < u) cg5_mark(&s->s, &s->cx, &s->cst, dmask, (t + 1) * d);
                }
    }
    for (int l = 0; l < 32; l++)
        for (int k = 0; k < nl; k++)
            if (q[l][k].pidx != CG6_NONE) PUT6(q[l][k].pidx, (uint32_t)(q[l][k].pst + q[l][k].pa));
#undef PUT6
}

static void test_twin6(bulk_ctx *ctx, uint64_t *rs, int small)
{
    /* (d, a): the GPU's points (14/24, 14/20 = the CLI's, 12/24, 16/24, 17/25) and small ones where
     * falls to <= 4 and the checkpoints matter (3/3, 5/6, 8/12) */
    static const int da[][2] = { { 14, 24 }, { 14, 20 }, { 12, 24 }, { 16, 24 }, { 17, 25 }, { 3, 3 }, { 5, 6 }, { 8, 12 } };
    for (size_t t = 0; t < sizeof da / sizeof da[0]; t++) {
        const int d = da[t][0], a = da[t][1];
        if (small && a > 24) continue;
        struct cz_tabs tb;
        if (cz_tabs_new(&tb, ctx, d, a)) continue;
        const bulk_collatz_engine *e = tb.e;
        const uint64_t *BC = tb.BC;
        const uint32_t *CJ = tb.CJ;
        int st;
        const u128 starts[] = { 1,
                                ((u128)1 << 64) + 777,
                                ((u128)1 << 68) + test_rand(rs) % 1000,
                                ((u128)1 << 90) + test_rand(rs),
                                ((u128)1 << 94) - 1500 - test_rand(rs) % 500,
                                ((u128)1 << 96) - 2000 - test_rand(rs) % 1000,
                                ~(u128)0 - 3000,
                                ((u128)test_rand(rs) << 64 | test_rand(rs)) >> (test_rand(rs) % 100) };
        const uint32_t len = small ? 700 : 3000 + (uint32_t)(test_rand(rs) % 40);
        uint32_t *ref = malloc(len * sizeof *ref);
        int64_t *wo = malloc(len * sizeof *wo);
        for (size_t si = 0; si < sizeof starts / sizeof starts[0]; si++) {
            u128 n0 = starts[si] ? starts[si] : 1;
            if (n0 + len - 1 < n0) n0 = ~(u128)0 - len;
            st = bulk_collatz_delays(ctx, e, cg_u_of(n0), len, ref);
            CHECK(st == BULK_OK, "bulk_collatz_delays: %d", st);
            for (int nl = 2; nl <= 3; nl++)
                for (unsigned u = 4; u <= 8; u *= 2) {
                    for (uint32_t i = 0; i < len; i++) wo[i] = -2;
                    struct wstats6 ws;
                    memset(&ws, 0, sizeof ws);
                    const struct piece6 pc = { 0, n0, NULL, 0, 0 };
                    warp_twin6(&pc, len, nl, u, e, CJ, BC, wo, &ws);
                    int bad = 0, esc = 0;
                    for (uint32_t i = 0; i < len; i++) {
                        const int64_t want = cg_delay(of_w(n0 + i), (unsigned)d, (unsigned)a, BC, e->J, e->A);
                        if (want < 0) {
                            esc++;
                            bad += wo[i] != (int64_t)UINT32_MAX;
                        } else {
                            bad += wo[i] != want || (uint32_t)want != ref[i];
                        }
                    }
                    CHECK(bad == 0, "warp twin6 nl=%d u=%u: %d mismatches (d=%d a=%d start #%zu)", nl, u, bad, d, a, si);
                    if (si == 6) CHECK(esc > 0, "escapes near 2^128 (d=%d)", d);
                    if ((si == 4 || si == 5) && nl == 2 && u == 8)
                        CHECK(ws.slow > 0, "slow paths near 2^94 / 2^96 (d=%d): %llu", d, (unsigned long long)ws.slow);
                    if (si == 1 && !small)
                        printf("v6 twin d=%d a=%d from 2^64: nl=%d u=%u: %.3f slot rounds per number (%.2f slot steps), "
                               "%.3f finishes per slot round end, %llu slow paths of %u\n",
                               d, a, nl, u, (double)ws.slot_rounds / len, (double)ws.slot_rounds * u / len,
                               (double)ws.finishes / (double)ws.slot_rounds, (unsigned long long)ws.slow, len);
                }
        }
        free(ref);
        free(wo);
        cz_tabs_free(&tb);
    }
}

/* The class path: the tables (cg6_class_tables) against the engine's classes; phase 1's twin
 * (the lane loop on the class feed) against cg_delay of each class's start value; phase 2's rule
 * M + j + D against the CPU engine's delays of consecutive numbers near 2^64 and 2^68 (the
 * whole block's D for the residues checked from cg_delay, independent of the twin). */
static void test_classes(bulk_ctx *ctx, uint64_t *rs, int small)
{
    struct cz_tabs tb;
    if (cz_tabs_new(&tb, ctx, 14, 22)) return;
    bulk_collatz_engine *e = tb.e;
    int st = bulk_cz_need_classes(e);
    CHECK(st == BULK_OK && e->M == 22 && e->ncls < (1u << CG6_CLS_BITS), "classes: %d, M=%d, %u classes", st, e->M,
          e->ncls);
    if (st != BULK_OK || e->ncls >= (1u << CG6_CLS_BITS)) {
        cz_tabs_free(&tb);
        return;
    }
    const unsigned M = (unsigned)e->M;
    const size_t R = (size_t)1 << M;
    uint32_t *cmap = malloc(R * sizeof *cmap);
    uint64_t *cls2 = malloc((size_t)e->ncls * 2 * sizeof *cls2);
    cg6_class_tables(e->M, e->ncls, e->cls, e->cls_j, e->cls_c, bulk_cz_pow3, cmap, cls2);
    /* the tables: residue r's state after M halvings is (j, c) of its class */
    for (int it = 0; it < 2000; it++) {
        const uint32_t r = (uint32_t)(test_rand(rs) & (R - 1)), q = cmap[r] & ((1u << CG6_CLS_BITS) - 1);
        u128 v = (u128)1 << M | r; /* nH = 1: after M halvings 3^j + c */
        unsigned jj = 0;
        for (unsigned h = 0; h < M;) {
            if (v & 1) {
                v = 3 * v + 1;
                jj++;
            } else {
                v >>= 1;
                h++;
            }
        }
        CHECK(q < e->ncls && (cmap[r] >> CG6_CLS_BITS) == jj && cls2[2 * q + 1] == bulk_cz_pow3[jj] &&
                  v == (u128)cls2[2 * q + 1] + cls2[2 * q],
              "class of residue %u", r);
    }
    const u128 starts[] = { (u128)1 << 64, ((u128)1 << 68) + ((u128)(test_rand(rs) % 1000) << M) };
    const uint32_t len = small ? 500 : 3000;
    int64_t *wo = malloc((size_t)(len > 4096 ? len : 4096) * sizeof *wo);
    uint32_t *ref = malloc(4096 * sizeof *ref);
    for (size_t si = 0; si < sizeof starts / sizeof starts[0]; si++) {
        const uint64_t nH = (uint64_t)(starts[si] >> M);
        /* phase 1 on a piece of classes (a random place in the class list) */
        const uint32_t k0 = (uint32_t)(test_rand(rs) % (e->ncls - len));
        for (int nl = 2; nl <= 3; nl++)
            for (unsigned u = 4; u <= 8; u *= 2) {
                for (uint32_t i = 0; i < len; i++) wo[i] = -2;
                struct wstats6 ws;
                memset(&ws, 0, sizeof ws);
                const struct piece6 pc = { 1, 0, cls2, nH, k0 };
                warp_twin6(&pc, len, nl, u, e, tb.CJ, tb.BC, wo, &ws);
                int bad = 0;
                for (uint32_t i = 0; i < len; i++) {
                    cg6_cfeed cf;
                    cg6_cfeed_init(&cf, cls2, nH, k0, 0, len);
                    const cg_u128 v = cg6_class_value(&cf, i);
                    const u128 vw = (u128)cg_hi64(v) << 64 | cg_lo64(v);
                    const uint64_t q = k0 + i;
                    bad += vw != (u128)cls2[2 * q + 1] * nH + cls2[2 * q];
                    const int64_t want = cg_delay(v, 14, 22, tb.BC, e->J, e->A);
                    bad += wo[i] != (want < 0 ? (int64_t)UINT32_MAX : want);
                }
                CHECK(bad == 0, "class twin nl=%d u=%u start #%zu: %d mismatches", nl, u, si, bad);
                if (si == 0 && nl == 2 && u == 8 && !small)
                    printf("class twin d=14 a=22 nH=2^42: %.3f slot rounds per class (%.2f slot steps), %llu slow\n",
                           (double)ws.slot_rounds / len, (double)ws.slot_rounds * u / len, (unsigned long long)ws.slow);
            }
        /* phase 2's rule on 4096 consecutive numbers of the block (D from cg_delay) */
        const u128 n0 = starts[si] + (test_rand(rs) & (R - 1) & ~(u128)4095);
        st = bulk_collatz_delays(ctx, e, cg_u_of(n0), 4096, ref);
        CHECK(st == BULK_OK, "bulk_collatz_delays: %d", st);
        int bad = 0;
        for (uint32_t i = 0; i < 4096; i++) {
            const u128 n = n0 + i;
            const uint32_t ce = cmap[(uint32_t)n & (R - 1)], q = ce & ((1u << CG6_CLS_BITS) - 1);
            cg6_cfeed cf;
            cg6_cfeed_init(&cf, cls2, (uint64_t)(n >> M), q, 0, 1);
            const int64_t dv = cg_delay(cg6_class_value(&cf, 0), 14, 22, tb.BC, e->J, e->A);
            CHECK(dv >= 0 && dv < CG6_D_NONE, "class delay in range");
            bad += cg6_member_delay(ce, (uint32_t)dv, M) != ref[i];
        }
        CHECK(bad == 0, "phase 2 rule: %d of 4096 numbers differ (start #%zu)", bad, si);
        CHECK(cg6_member_delay(cmap[0], CG6_D_NONE, M) == UINT32_MAX, "a class left to the host");
    }
    free(wo);
    free(ref);
    free(cmap);
    free(cls2);
    cz_tabs_free(&tb);
}

static void run(bulk_ctx *ctx, uint64_t *rs, int small)
{
    test_feed(rs);
    test_classify(rs);
    test_twin6(ctx, rs, small);
    test_classes(ctx, rs, small);
}

int main(int argc, char **argv) { return cz_cpu_test_main(argc, argv, run); }
