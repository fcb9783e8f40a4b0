/* CPU test of the V5 delay loop's logic (cg_delay5.h; no GPU needed, label unit): the functions
 * the kernel calls (cg5_start, cg5_step, cg5_check), run here on the CPU, must give every delay
 * of the CPU engine bit for bit, with every round length U and every table d the kernel may use,
 * from 1, near 2^64, 2^68, 2^96 (the three-limb guard), near 2^128 (escapes) and at random
 * points. A twin of the kernel's lane loop (lane_delays5 in cg_delays.cu: 32 lanes x NL slots,
 * rounds of U steps, the check at each round end, deferred results, refills) checks that every
 * number is put exactly once with its delay, and prints the loop's model figures (slot steps
 * per number, rounds, boundary work) for docs/collatz-gpu.md. Replay: --seed S. */
#include "cz_cpu_test.h"

typedef unsigned __int128 u128;

static cg_u128 of_w(u128 v) { return cg_make((uint64_t)v, (uint64_t)(v >> 64)); }

/* The three-limb step against unsigned __int128, for inputs within the guard (and beyond it,
 * where only the absence of undefined behaviour matters: the result is then never used). */
static void test_step(uint64_t *rs)
{
    for (int it = 0; it < 300000; it++) {
        const unsigned d = 1 + (unsigned)(test_rand(rs) % CG5_MAX_D);
        const unsigned g = cg5_guard_bits(d);
        const unsigned j = (unsigned)(test_rand(rs) % (d + 1));
        const uint64_t B = bulk_cz_pow3[j], C = test_rand(rs) % B;
        u128 v = (u128)test_rand(rs) << 64 | test_rand(rs);
        const int inside = it % 4 != 0;
        if (inside) v &= ((u128)1 << (94 - g - test_rand(rs) % 40)) - 1;
        else v &= ((u128)1 << 94) - 1;
        if (!v) v = 1;
        cg5_num s;
        cg5_start(&s, of_w(v));
        CHECK(((u128)s.x2 << 64 | (u128)s.x1 << 32 | s.x0) == 4 * v && s.ov == 0, "cg5_start");
        const uint32_t e = cg5_entry(j, C);
        CHECK((e & 31) == j && e >> 5 == C, "cg5_entry d=%u j=%u", d, j);
        const uint32_t mask4 = ((1u << d) - 1) << 2;
        CHECK(cg5_offset(&s, mask4) == 4 * (uint32_t)(v & ((1u << d) - 1)), "cg5_offset d=%u", d);
        /* a previous entry's g = j' >> 3 (0..2) in the low bits changes nothing */
        const uint32_t gprev = (uint32_t)(test_rand(rs) % 3);
        s.x0 |= gprev;
        cg5_step(&s, d + 2, e, 4u * (uint32_t)B);
        if (!inside) continue;
        const u128 want = (v >> d) * B + C;
        const u128 got = (u128)s.x2 << 64 | (u128)s.x1 << 32 | s.x0;
        CHECK(4 * want + (j >> 3) < ((u128)1 << 96), "guard too weak: d=%u", d);
        CHECK(got >> 2 == want && (got & 3) == (j >> 3), "cg5_step d=%u j=%u", d, j);
        CHECK(s.st == j && (s.ov >> (32 - g)) == 0, "cg5_step count/guard d=%u", d);
        CHECK(want >= ((u128)1 << 30) || cg5_value(&s) == (uint32_t)want, "cg5_value");
    }
}

/* lane_delays5 on the CPU: 32 lanes x nl slots, the lane's numbers lane + 32 m (BATCH_WARP's
 * order within a piece) handed out in m order to free slots; rounds of u cg5_step on every slot
 * (a free slot steps a dead value), then per slot: a pending result is put, a live number is
 * checked (done: its result is pending until the next round end; slow path: put at once), a free
 * slot takes the next number. out[i] = delay of first + i (-1: escape), each put once (-2 before).
 * Model figures: slot steps and rounds, live slot steps, numbers that finished per round end. */
struct wstats {
    uint64_t rounds, slot_steps, live_steps, finishes, boundaries_with_finish, slow, marks;
};
static void warp_twin5(u128 first, uint64_t count, int nl, unsigned u, const bulk_collatz_engine *e,
                       const uint32_t *CJ, const uint64_t *BC, int64_t *out, struct wstats *ws)
{
    enum { NLMAX = 3 };
    const unsigned d = (unsigned)e->d, a = (unsigned)e->a, gsh = 32 - cg5_guard_bits(d);
    const uint32_t mask4 = ((1u << d) - 1) << 2, dmask = cg5_done_mask(a);
    cg5_num s[32][NLMAX];
    uint64_t co[32][NLMAX], po[32][NLMAX], m[32], M[32];
    uint32_t live[32][NLMAX], pend[32][NLMAX], pa[32][NLMAX], pst[32][NLMAX], cx[32][NLMAX], cst[32][NLMAX];
    memset(live, 0, sizeof live);
    memset(pend, 0, sizeof pend);
    for (int l = 0; l < 32; l++) {
        m[l] = 0;
        M[l] = (uint64_t)l < count ? (count - (uint64_t)l + 31) / 32 : 0;
        for (int q = 0; q < nl; q++) cg5_start(&s[l][q], cg_make(0, 0));
    }
    for (;;) {
        int any = 0, fin = 0;
        for (int l = 0; l < 32; l++)
            for (int q = 0; q < nl; q++) {
                if (pend[l][q]) {
                    const uint64_t i = po[l][q];
                    CHECK(out[i] == -2, "warp twin5: number %llu put twice", (unsigned long long)i);
                    out[i] = (int64_t)pst[l][q] + pa[l][q];
                    pend[l][q] = 0;
                }
                if (live[l][q]) {
                    const int r = cg5_check_mark(&s[l][q], dmask, gsh, u * d, cx[l][q]);
                    if (r) {
                        const uint64_t i = co[l][q];
                        fin++;
                        ws->marks += r == 3;
                        if (r == 1 || r == 3) {
                            pa[l][q] = e->A[r == 1 ? cg5_value(&s[l][q]) : cx[l][q] >> 2];
                            pst[l][q] = r == 1 ? s[l][q].st : cst[l][q];
                            po[l][q] = i;
                            pend[l][q] = 1;
                        } else {
                            ws->slow++;
                            CHECK(out[i] == -2, "warp twin5: number %llu put twice", (unsigned long long)i);
                            out[i] = cg_delay(of_w(first + i), d, a, BC, e->J, e->A);
                        }
                        live[l][q] = 0;
                    }
                }
                if (!live[l][q] && m[l] < M[l]) {
                    co[l][q] = (uint64_t)l + 32 * m[l];
                    cg5_start(&s[l][q], of_w(first + co[l][q]));
                    live[l][q] = 1;
                    m[l]++;
                }
                any |= (int)live[l][q];
            }
        ws->finishes += (uint64_t)fin;
        ws->boundaries_with_finish += fin > 0;
        if (!any) {
            /* the results of the last round end (the kernel's loop ends the same way) */
            for (int l = 0; l < 32; l++)
                for (int q = 0; q < nl; q++)
                    if (pend[l][q]) {
                        CHECK(out[po[l][q]] == -2, "warp twin5: a number put twice");
                        out[po[l][q]] = (int64_t)pst[l][q] + pa[l][q];
                    }
            break;
        }
        ws->rounds++;
        for (int l = 0; l < 32; l++)
            for (int q = 0; q < nl; q++) cx[l][q] = ~0u;
        for (unsigned k = 0; k < u; k++)
            for (int l = 0; l < 32; l++)
                for (int q = 0; q < nl; q++) {
                    const uint32_t ent = CJ[cg5_offset(&s[l][q], mask4) >> 2];
                    cg5_step(&s[l][q], d + 2, ent, 4u * (uint32_t)bulk_cz_pow3[ent & 31]);
                    if (k % 2 == 1 && k + 1 < u) cg5_mark(&s[l][q], &cx[l][q], &cst[l][q], dmask, (k + 1) * d);
                    ws->slot_steps++;
                    ws->live_steps += live[l][q];
                }
    }
}

static void test_delays5(bulk_ctx *ctx, uint64_t *rs, int small)
{
    /* (d, a): the GPU's points (12/24, 14/20 = the CLI's, 15/24, 17/28) and small ones where
     * falls to <= 4 and the {1, 2, 4} rule matter (3/3, 5/6) */
    static const int da[][2] = { { 12, 24 }, { 14, 20 }, { 15, 24 }, { 17, 22 }, { 3, 3 }, { 5, 6 }, { 8, 12 } };
    static const unsigned us[] = { 1, 2, 3, 4, 8 };
    for (size_t t = 0; t < sizeof da / sizeof da[0]; t++) {
        const int d = da[t][0], a = da[t][1];
        struct cz_tabs tb;
        if (cz_tabs_new(&tb, ctx, d, a)) continue;
        bulk_collatz_engine *e = tb.e;
        const uint64_t *BC = tb.BC;
        const uint32_t *CJ = tb.CJ;
        int st;
        const u128 starts[] = { 1, ((u128)1 << 64) - 100, ((u128)1 << 68) + test_rand(rs) % 1000,
                                ((u128)1 << 96) - 2000 - test_rand(rs) % 1000, ((u128)1 << 90) + test_rand(rs),
                                ~(u128)0 - 3000, ((u128)test_rand(rs) << 64 | test_rand(rs)) >> (test_rand(rs) % 100) };
        const uint64_t count = small ? 1000 : 6000;
        uint32_t *ref = malloc(count * sizeof *ref);
        int64_t *wo = malloc(count * sizeof *wo);
        for (size_t si = 0; si < sizeof starts / sizeof starts[0]; si++) {
            u128 first = starts[si] ? starts[si] : 1;
            if (first + count - 1 < first) first = ~(u128)0 - count;
            st = bulk_collatz_delays(ctx, e, cg_u_of(first), count, ref);
            CHECK(st == BULK_OK, "bulk_collatz_delays: %d", st);
            for (size_t ui = 0; ui < sizeof us / sizeof us[0]; ui++) {
                const unsigned u = us[ui];
                uint64_t slow = 0;
                int bad = 0, escapes = 0;
                for (uint64_t i = 0; i < count; i++) {
                    const u128 n = first + i;
                    int64_t dl = cg5_delay(of_w(n), (unsigned)d, (unsigned)a, u, CJ, bulk_cz_pow3, BC, e->J, e->A, &slow);
                    if (dl != cg_delay(of_w(n), (unsigned)d, (unsigned)a, BC, e->J, e->A)) bad++;
                    if (dl < 0) {
                        escapes++;
                        uint64_t w[2] = { (uint64_t)n, (uint64_t)(n >> 64) }, ex = 0;
                        if (bulk_cz_exact(w, 2, 0, &ex, NULL, NULL, 0, NULL) != BULK_OK) bad++;
                        dl = (int64_t)ex;
                    }
                    if ((uint32_t)dl != ref[i]) bad++;
                }
                CHECK(bad == 0, "cg5_delay: %d mismatches (d=%d a=%d u=%u start #%zu)", bad, d, a, u, si);
                /* the slow path is taken where it must be: n >= 2^96 - ..., near 2^128 (escapes) */
                if (si == 3 || si == 5) CHECK(slow > 0, "slow path near 2^96/2^128 (d=%d u=%u)", d, u);
                if (si == 5) CHECK(escapes > 0, "escapes near 2^128 (d=%d)", d);
                if ((si == 0 || si == 1) && !small)
                    printf("cg5 d=%d a=%d u=%u from %s: %llu of %llu numbers took the slow path\n", d, a, u,
                           si ? "2^64-100" : "1",
                           (unsigned long long)slow, (unsigned long long)count);
            }
            /* the model of a warp in lockstep (a thread per number, all 32 lanes start together
             * at consecutive n and the warp waits for the slowest before the next 32): rounds
             * per 32 numbers = the maximum, against the mean that the refilling lane loop pays */
            if (si == 1 && !small) {
                uint64_t sum_max = 0, sum_all = 0;
                for (uint64_t g0 = 0; g0 + 32 <= count; g0 += 32) {
                    uint64_t mx = 0;
                    for (uint64_t l = 0; l < 32; l++) {
                        cg5_num sn;
                        cg5_start(&sn, of_w(first + g0 + l));
                        const uint32_t mask4 = ((1u << d) - 1) << 2;
                        uint64_t r = 0;
                        for (;;) {
                            for (unsigned k = 0; k < 4; k++) {
                                const uint32_t ent = CJ[cg5_offset(&sn, mask4) >> 2];
                                cg5_step(&sn, (unsigned)d + 2, ent, 4u * (uint32_t)bulk_cz_pow3[ent & 31]);
                            }
                            r++;
                            if (cg5_check(&sn, cg5_done_mask((unsigned)a), 32 - cg5_guard_bits((unsigned)d), 4u * (unsigned)d))
                                break;
                        }
                        sum_all += r;
                        if (r > mx) mx = r;
                    }
                    sum_max += 32 * mx;
                }
                printf("lockstep warp model d=%d a=%d from 2^64, U=4: a warp of 32 consecutive n pays %.2fx the "
                       "mean rounds (the lane loop's refills avoid that)\n", d, a, (double)sum_max / (double)sum_all);
            }
            /* the lane loop's bookkeeping: 1..3 slots per lane, rounds of 2, 4, 8 */
            for (int nl = 1; nl <= 3; nl++)
                for (unsigned u = 2; u <= 8; u *= 2) {
                    for (uint64_t i = 0; i < count; i++) wo[i] = -2;
                    struct wstats ws;
                    memset(&ws, 0, sizeof ws);
                    warp_twin5(first, count, nl, u, e, CJ, BC, wo, &ws);
                    int wbad = 0;
                    for (uint64_t i = 0; i < count; i++) {
                        const int64_t want = cg_delay(of_w(first + i), (unsigned)d, (unsigned)a, BC, e->J, e->A);
                        wbad += wo[i] != want;
                    }
                    CHECK(wbad == 0, "warp twin5 nl=%d u=%u: %d mismatches (d=%d a=%d start #%zu)", nl, u, wbad, d,
                          a, si);
                    if (si == 1 && !small)
                        printf("v5 warp twin d=%d a=%d from 2^64: nl=%d u=%u: %.2f slot steps per number (%.2f live), "
                               "%.3f rounds per number, %.1f%% of round ends with a finish in the warp, "
                               "%.3f finishes per slot-round, %llu slow paths, %llu done at a checkpoint\n",
                               d, a, nl, u, (double)ws.slot_steps / (double)count, (double)ws.live_steps / (double)count,
                               (double)ws.rounds / (double)count, 100.0 * (double)ws.boundaries_with_finish / (double)(ws.rounds + 1),
                               (double)ws.finishes / ((double)ws.rounds * 32.0 * nl), (unsigned long long)ws.slow,
                               (unsigned long long)ws.marks);
                }
        }
        free(ref);
        free(wo);
        cz_tabs_free(&tb);
    }
}

static void run(bulk_ctx *ctx, uint64_t *rs, int small)
{
    test_step(rs);
    test_delays5(ctx, rs, small);
}

int main(int argc, char **argv) { return cz_cpu_test_main(argc, argv, run); }
