/* CPU tests of the CUDA Collatz backend's logic (no GPU needed): the host twins of the
 * register arithmetic (cg_arith.h), the per-number functions the kernels call (cg_core.h), the
 * range planner and index math (cg_plan.h). The kernels call exactly these functions, so a
 * verify or delays run emulated here with them must equal the CPU engine bit for bit: counts,
 * overflow list, checksum, maximum glide, delays. Replay: --seed S. */
#include "test_util.h"

#include "backend/context.h"
#include "collatz/collatz_internal.h"
#include "collatz/cuda/cg_core.h"
#include "collatz/cuda/cg_plan.h"
#include "collatz/cuda/cg_verify_uni.h"
#include "collatz/cuda/collatz_cuda.h"

typedef unsigned __int128 u128;

static u128 to_w(cg_u128 a) { return (u128)cg_hi64(a) << 64 | cg_lo64(a); }
static cg_u128 of_w(u128 v) { return cg_make((uint64_t)v, (uint64_t)(v >> 64)); }

static u128 rand_u128(uint64_t *s, int kind)
{
    return (u128)test_structured_limb(s, kind) << 64 | test_structured_limb(s, kind + 3);
}

/* ---- arithmetic twins against plain unsigned __int128 ---------------------------------- */
static void test_arith(uint64_t *rs)
{
    const u128 all = ~(u128)0;
    for (int it = 0; it < 200000; it++) {
        u128 x = rand_u128(rs, it);
        if (it % 5 == 0) x >>= test_rand(rs) % 128;
        unsigned d = 1 + (unsigned)(test_rand(rs) % CG_MAX_FAST_D);
        uint32_t B = (uint32_t)bulk_cz_pow3[test_rand(rs) % (d + 1)];
        uint32_t C = (uint32_t)(test_rand(rs) % B);
        /* step */
        cg_u128 v = of_w(x);
        int ov = cg_step(&v, d, B, C);
        u128 h = x >> d;
        int want_ov = h > (all - C) / B;
        CHECK(ov == want_ov, "cg_step overflow flag, d=%u", d);
        if (!ov && !want_ov) CHECK(to_w(v) == h * B + C, "cg_step value, d=%u", d);
        /* the two-limb step */
        {
            uint64_t x64 = (uint64_t)x;
            uint32_t lo = (uint32_t)x64, hi = (uint32_t)(x64 >> 32);
            uint32_t top = cg_step64(&lo, &hi, d, B, C);
            u128 want = (u128)(x64 >> d) * B + C;
            CHECK(((u128)top << 64 | (u128)hi << 32 | lo) == want, "cg_step64, d=%u", d);
        }
        /* the incremental prefix (FLAT kernels' INC setup) */
        {
            cg_u128 w = of_w(x);
            uint64_t a64 = test_rand(rs) >> (test_rand(rs) % 64);
            int c = cg_add64(&w, a64);
            CHECK(c == (x + a64 < x) && to_w(w) == x + a64, "cg_add64");
        }
        /* the three-limb step (delay kernels v4) */
        {
            u128 x96 = x & (((u128)1 << 96) - 1);
            uint32_t l0 = (uint32_t)x96, l1 = (uint32_t)(x96 >> 32), l2 = (uint32_t)(x96 >> 64);
            uint32_t top = cg_step96(&l0, &l1, &l2, d, B, C);
            u128 want = (x96 >> d) * B + C;
            CHECK(((u128)top << 96 | (u128)l2 << 64 | (u128)l1 << 32 | l0) == want, "cg_step96, d=%u", d);
        }
        /* odd, half */
        v = of_w(x);
        ov = cg_odd(&v);
        want_ov = x > (all - 1) / 3;
        CHECK(ov == want_ov, "cg_odd overflow flag");
        if (!ov) CHECK(to_w(v) == 3 * x + 1, "cg_odd value");
        v = of_w(x);
        cg_half(&v);
        CHECK(to_w(v) == x >> 1, "cg_half");
        /* compare */
        u128 y = (it & 1) ? x + (u128)(test_rand(rs) % 3) - 1 : rand_u128(rs, it + 1);
        CHECK(cg_lt(of_w(x), of_w(y)) == (x < y), "cg_lt");
        /* glide bound */
        int sat;
        cg_u128 nd = cg_glide_bound(of_w(x), d, &sat);
        CHECK(sat == ((x >> (128 - d)) != 0), "cg_glide_bound sat");
        if (!sat) CHECK(to_w(nd) == x << d, "cg_glide_bound value");
        /* prefix */
        uint64_t Bk = bulk_cz_pow3[test_rand(rs) % 41];
        uint64_t Ck = test_rand(rs) % Bk;
        u128 hh = x >> (test_rand(rs) % 128);
        v = of_w(0);
        ov = cg_prefix(&v, (uint64_t)hh, (uint64_t)(hh >> 64), Bk, Ck);
        want_ov = hh > (all - Ck) / Bk;
        CHECK(ov == want_ov, "cg_prefix overflow flag");
        if (!ov) CHECK(to_w(v) == hh * Bk + Ck, "cg_prefix value");
        /* and against the engine's own muladd */
        cz_u128 r;
        int ok = cz_sieve_start(&r, cg_u_of(hh), Bk, Ck);
        CHECK(ok == !ov, "cg_prefix vs cz_sieve_start");
    }
}

/* Convergence mode (k_uni with p.conv): a number is done at the first trip that returns 1 or
 * enters record mode (the dip test proved a value below n inside operation L). That operation
 * must hold the glide: steps before it < gref <= steps before it + J[L]; an escape must be the
 * reference's escape (gref < 0). r1: the variant-5 trips (cg_uni1_trip, its table). */
static int uni_dip_stop_ok(u128 v, u128 nn, unsigned d, const uint32_t *tab, const uint8_t *J, int64_t gref, int r1)
{
    cg_uni s;
    s.v = of_w(v);
    s.n = of_w(nn);
    s.done = 5;
    s.ri = 0;
    const uint32_t mask = (1u << d) - 1, pairs = cg_uni_pairs(d);
    const unsigned lim = cg_limit_bits(d);
    for (;;) {
        const uint32_t before = s.done, L = s.v.x0 & mask;
        const uint32_t *e = tab + 4 * (uint64_t)(r1 ? cg_uni1_index(&s, mask) : cg_uni_index(&s, mask));
        const int r = r1 ? cg_uni1_trip(&s, d, cg_esc_of(lim), mask, pairs, e[0], e[1], e[2], e[3], e[4], e[5])
                         : cg_uni_trip(&s, d, cg_esc_of(lim), mask, pairs, e[0], e[1], e[2], e[3]);
        if (r == 2) return gref < 0;
        if (r == 1 || s.ri != 0) return gref > (int64_t)before && gref <= (int64_t)before + J[L];
    }
}

/* 1 when the trajectory from v reaches a value >= lim before it drops below n. */
static int reaches(u128 v, u128 n, u128 lim)
{
    while (v >= n) {
        if (v >= lim) return 1;
        v = (v & 1) ? 3 * v + 1 : v >> 1; /* v < lim <= 2^126: no wrap */
    }
    return 0;
}

/* ---- cg_glide and its lane form (with and without the dip-test table BM) against
 * cz_glide_from ------------------------------------------------------------------------------ */
static void test_glide(uint64_t *rs, int small)
{
    for (unsigned d = 1; d <= CG_MAX_FAST_D; d++) {
        size_t n = (size_t)1 << d;
        uint64_t *B = malloc(n * 8), *C = malloc(n * 8), *MX = malloc(n * 8), *BC = malloc(n * 8),
                 *BM = malloc(n * 8);
        uint8_t *J = malloc(n);
        bulk_cz_build_tables((int)d, B, C, J, MX);
        cg_pack_tables((int)d, B, C, BC, BM);
        const uint64_t nrec = cg_rec_total((int)d);
        uint32_t *ROFF = malloc((n + 1) * sizeof *ROFF);
        uint64_t *REC = malloc(nrec * sizeof *REC + 8);
        uint8_t *RST = malloc(nrec + 1);
        cg_rec_tables((int)d, ROFF, REC, RST);
        /* the records of each L: strictly decreasing b below 2^d, the last one BM's state */
        for (uint64_t L = 0; L < n; L++) {
            uint32_t cnt = ROFF[L + 1] - ROFF[L];
            CHECK(cnt <= d, "at most d records (d=%u L=%llu)", d, (unsigned long long)L);
            for (uint32_t i = 0; i < cnt; i++) {
                uint64_t b = (uint32_t)REC[ROFF[L] + i];
                CHECK(b < ((uint64_t)1 << d) && (i == 0 || b < (uint32_t)REC[ROFF[L] + i - 1]) &&
                      RST[ROFF[L] + i] <= J[L], "records of d=%u L=%llu", d, (unsigned long long)L);
            }
            if (cnt) CHECK(REC[ROFF[L + 1] - 1] == BM[L], "last record = BM (d=%u L=%llu)", d, (unsigned long long)L);
            else CHECK((uint32_t)BM[L] > ((uint64_t)1 << d), "no record: BM above 2^d (d=%u)", d);
        }
        /* the UNIFORM table (cg_verify_uni.h), d <= CG_UNI_MAX_D */
        uint32_t *UT = d <= CG_UNI_MAX_D ? malloc(cg_uni_entries(d) * 16) : NULL;
        if (UT) cg_uni_build(d, B, C, J, UT);
        uint32_t *UT1 = d <= CG_UNI_MAX_D ? malloc(cg_uni1_entries(d) * 16) : NULL;
        if (UT1) cg_uni1_build(d, B, C, J, UT1);
        int bad = 0, kept = 0, tried = 0, ubad = 0, utried = 0;
        for (int it = 0; it < (small ? 300 : 3000); it++) {
            /* n of 2..127 bits, v in [n, n 2^(d+2)) */
            unsigned bits = 2 + (unsigned)(test_rand(rs) % 126);
            u128 nn = rand_u128(rs, 7) >> (128 - bits) | (u128)1 << (bits - 1);
            unsigned vb = bits + (unsigned)(test_rand(rs) % (d + 2));
            u128 v = nn + (vb >= 128 ? rand_u128(rs, 7) : rand_u128(rs, 7) >> (128 - vb));
            if (v < nn) continue;
            tried++;
            int64_t g2 = cz_glide_from(cg_u_of(v), cg_u_of(nn), 5, (int)d, B, C, J);
            if (UT && cg_uni_ok(d, of_w(nn))) {
                /* the uniform trips: the glide or escape of cg_glide with the dip test */
                utried++;
                const int64_t gref = cg_glide(of_w(v), of_w(nn), 5, d, BC, BM, J);
                if (cg_glide_uni(of_w(v), of_w(nn), 5, d, UT, NULL) != gref) ubad++;
                /* the first record in the dip trip (k_uni's trip) */
                if (cg_glide_uni1(of_w(v), of_w(nn), 5, d, UT1, NULL) != gref) ubad++;
                /* convergence mode stops at the dip trip: that trip's operation holds the glide */
                if (!uni_dip_stop_ok(v, nn, d, UT, J, gref, 0) || !uni_dip_stop_ok(v, nn, d, UT1, J, gref, 1)) ubad++;
            }
            for (int bm = 0; bm < 2; bm++) {
                int64_t g1 = cg_glide(of_w(v), of_w(nn), 5, d, BC, bm ? BM : NULL, J);
                /* the lane form (FLAT kernel) gives the same glide or escape */
                if (cg_glide_lane(of_w(v), of_w(nn), 5, d, BC, bm ? BM : NULL, J) != g1) bad++;
                /* and the record-replay lane form */
                if (cg_glide_lane_rec(of_w(v), of_w(nn), 5, d, BC, bm ? BM : NULL, J, ROFF, REC, RST) != g1) bad++;
                if (g1 >= 0) {
                    kept++;
                    if (g1 != g2) bad++;
                } else if (!reaches(v, nn, (u128)1 << (128 - cg_limit_bits(d)))) {
                    bad++; /* an escape needs a value at the margin before the glide */
                }
            }
        }
        CHECK(bad == 0 && kept > tried / 2, "cg_glide d=%u: %d bad, %d kept of %d", d, bad, kept, 2 * tried);
        if (UT) {
            CHECK(ubad == 0 && utried > tried / 4, "cg_glide_uni d=%u: %d of %d differ", d, ubad, utried);
            /* the table: J in the spare bits, record pairs ending on BM's state */
            for (uint64_t L = 0; L < n; L++) {
                const uint32_t *e = UT + 4 * L;
                CHECK(e[0] == (uint32_t)B[L] && (e[1] & CG_UNI_CMASK) == C[L] && e[3] >> 26 == J[L] &&
                      e[2] == (uint32_t)BM[L] && (e[3] & CG_UNI_CMASK) == (uint32_t)(BM[L] >> 32),
                      "uniform table entry d=%u L=%llu", d, (unsigned long long)L);
                const uint32_t *r = UT + 4 * (n + (L + 1) * cg_uni_pairs(d) - 1);
                CHECK(ROFF[L + 1] == ROFF[L] ||
                          (r[0] == (uint32_t)BM[L] && (r[1] & CG_UNI_CMASK) == (uint32_t)(BM[L] >> 32)),
                      "uniform records end on BM d=%u L=%llu", d, (unsigned long long)L);
            }
            free(UT);
            free(UT1);
        }
        CHECK(!cg_bm_ok(of_w(((u128)1 << (3 * d + 2)) - 1), d) && cg_bm_ok(of_w((u128)1 << (3 * d + 2)), d),
              "cg_bm_ok bound d=%u", d);
        free(B);
        free(C);
        free(MX);
        free(BC);
        free(BM);
        free(ROFF);
        free(REC);
        free(RST);
        free(J);
    }
}

/* ---- the sieve walk twin: every residue of 18 bits, both functions --------------------- */
static void test_sieve_child(void)
{
    const int K = 18;
    for (uint64_t p = 0; p < ((uint64_t)1 << K); p++) {
        int j1 = 0, j2 = 0;
        uint64_t c1 = 0, c2 = 0;
        for (int i = 0; i < K; i++) {
            int bit = (int)((p >> i) & 1);
            int e1 = cz_sieve_child(i, &j1, &c1, bit);
            int e2 = cg_sieve_child(bulk_cz_pow3, i, &j2, &c2, bit);
            CHECK(e1 == e2 && j1 == j2 && c1 == c2, "sieve child p=%llu i=%d",
                  (unsigned long long)p, i);
            if (e1 || e2) break;
        }
    }
}

/* ---- planner against verify.c's block loop, replayed block by block ---------------------- */
static int blocks_of_plan(const cg_piece *pc, int np, u128 *bn, int *bl, int cap)
{
    int nb = 0;
    for (int i = 0; i < np && nb < cap; i++) {
        if (pc[i].kind == CG_PIECE_ONE) {
            bn[nb] = 1;
            bl[nb++] = -1;
        } else if (pc[i].kind == CG_PIECE_WALK) {
            bn[nb] = pc[i].nH;
            bl[nb++] = pc[i].L;
        } else {
            for (u128 r = 0; r < pc[i].rows && nb < cap; r++) {
                bn[nb] = pc[i].nH + r;
                bl[nb++] = pc[i].L; /* k (ROWS) or K (EXT) */
            }
        }
    }
    return nb;
}

/* verify.c's loop: blocks up to level K = k + kx; with kx > 0 a block of a level between k and
 * K is its 2^(L-k) level-k blocks (written by the list as such) */
static int blocks_reference(u128 cur, u128 end, int k, int kx, u128 *bn, int *bl, int cap)
{
    int nb = 0;
    const int K = k + kx;
    for (;;) {
        if (nb == cap) return -1;
        if (cur == 1) {
            bn[nb] = 1;
            bl[nb++] = -1;
        } else {
            int L = cg_ctz(cur);
            if (L > K) L = K;
            while (L > 0 && end - cur < ((u128)1 << L) - 1) L--;
            if (kx > 0 && L > k && L < K) {
                for (u128 q = 0; q < ((u128)1 << (L - k)); q++) {
                    if (nb == cap) return -1;
                    bn[nb] = (cur >> k) + q;
                    bl[nb++] = k;
                }
            } else {
                bn[nb] = cur >> L;
                bl[nb++] = L;
            }
            cur += ((u128)1 << L) - 1;
        }
        if (cur >= end) break;
        cur++;
    }
    return nb;
}

static void test_planner(uint64_t *rs)
{
    enum { CAP = 4096 };
    static u128 an[CAP], bn[CAP];
    static int al[CAP], bl[CAP];
    for (int it = 0; it < 3000; it++) {
        int k = (int)(test_rand(rs) % 21);
        /* every other draw with a sieve extension of 1..6 bits (blocks up to level k + kx) */
        const int kx = it % 2 ? 1 + (int)(test_rand(rs) % 6) : 0;
        u128 base;
        switch (it % 5) {
        case 0: base = 1 + test_rand(rs) % 5000; break;
        case 1: base = ((u128)1 << 64) - (test_rand(rs) % 100000); break;
        case 2: base = ((u128)1 << 68) + test_rand(rs) % ((u128)1 << 30); break;
        case 3: base = ~(u128)0 - (test_rand(rs) % ((u128)1 << 24)); break;
        default: base = rand_u128(rs, it) | 1; break;
        }
        if (base == 0) base = 1;
        u128 len = test_rand(rs) % ((u128)1 << (k + kx + 4));
        u128 last = base + len;
        if (last < base) last = ~(u128)0;
        cg_piece pc[CG_MAX_PIECES];
        int np = cg_plan_chunk_x(base, last, k, kx, 1, pc);
        int na = blocks_of_plan(pc, np, an, al, CAP);
        int nb = blocks_reference(base, last, k, kx, bn, bl, CAP);
        if (nb < 0) continue; /* too many blocks to list: skip this draw */
        CHECK(na == nb, "planner: %d blocks, reference %d (k=%d kx=%d)", na, nb, k, kx);
        for (int i = 0; i < na && i < nb; i++)
            CHECK(an[i] == bn[i] && al[i] == bl[i], "planner block %d differs (k=%d kx=%d)", i, k, kx);
        /* rows only at level k (below an extension 2^(L-k) rows for a block of level L < K),
         * extension rows at k + kx */
        for (int i = 0; i < np; i++) {
            if (pc[i].kind == CG_PIECE_ROWS)
                CHECK(pc[i].L == k && pc[i].rows >= 1 && (kx == 0 || (pc[i].rows & (pc[i].rows - 1)) == 0),
                      "rows piece");
            if (pc[i].kind == CG_PIECE_EXT) CHECK(kx > 0 && pc[i].L == k + kx && pc[i].rows >= 1, "ext piece");
        }
    }
    /* a huge range: one ROWS piece with 2^60 rows at most 2k + 2 other pieces */
    cg_piece pc[CG_MAX_PIECES];
    int np = cg_plan_chunk(((u128)1 << 64) + 12345, ((u128)1 << 100) - 777, 37, 1, pc);
    int rows_pieces = 0;
    u128 covered = 0;
    for (int i = 0; i < np; i++) {
        if (pc[i].kind == CG_PIECE_ROWS) {
            rows_pieces++;
            covered += pc[i].rows << 37;
        } else covered += (u128)1 << pc[i].L;
    }
    CHECK(rows_pieces == 1 && np <= 2 * 37 + 2, "huge range: %d pieces", np);
    CHECK(covered == ((u128)1 << 100) - 777 - ((u128)1 << 64) - 12345 + 1, "huge range covered");
}

/* ---- multi-device split and unit map cover everything exactly once ----------------------- */
static void test_index(uint64_t *rs)
{
    for (int it = 0; it < 2000; it++) {
        u128 rows = test_rand(rs) % 100000;
        if (it % 7 == 0) rows = (u128)test_rand(rs) << 40;
        int G = 1 + (int)(test_rand(rs) % 9);
        u128 next = 0;
        for (int g = 0; g < G; g++) {
            u128 r0, cnt;
            cg_split_rows(rows, G, g, &r0, &cnt);
            CHECK(r0 == next, "split: part %d starts at the end of the previous", g);
            CHECK(cnt <= rows / G + 1 && cnt + 1 >= rows / G, "split: balanced");
            next = r0 + cnt;
        }
        CHECK(next == rows, "split covers all rows");
    }
    for (int it = 0; it < 200; it++) {
        uint64_t ne = 1 + test_rand(rs) % 40, nrows = 1 + test_rand(rs) % 3000;
        uint32_t rpu = 1u << (test_rand(rs) % 11);
        uint64_t upe = cg_units_per_entry(nrows, rpu);
        static unsigned char seen[40 * 3000];
        memset(seen, 0, sizeof seen);
        for (uint64_t u = 0; u < ne * upe; u++) {
            uint64_t e, r0;
            cg_unit_map(u, upe, rpu, &e, &r0);
            CHECK(e < ne && r0 < nrows, "unit map in range");
            for (uint64_t r = r0; r < r0 + rpu && r < nrows; r++) seen[e * nrows + r]++;
        }
        int bad = 0;
        for (uint64_t i = 0; i < ne * nrows; i++) bad += seen[i] != 1;
        CHECK(bad == 0, "unit map: %d (entry,row) pairs not covered exactly once", bad);
    }
}

/* ---- the FLAT / FLAT_BATCH warp on the CPU ----------------------------------------------
 * 32 lanes take numbers (n, prefix overflow, v, done) from a queue in order, as the kernel's
 * lanes take their runs' rows. Each trip mirrors k_flat: the refill vote (cg_refill_now over the
 * lanes with work left but no number; thresh 1 = FLAT, which refills every trip), the idle lanes
 * set up (queue empty: the lane is done; prefix overflow: escape, the lane stays idle), then
 * every busy lane runs one cg_lane_iter. g[i]: glide of number i, or -1 (escape). Statistics:
 * trips, busy lane-trips, trips with a setup. */
struct warp_stats {
    uint64_t trips, busy, setups;
};
#define WARP 32
/* Record-replay tables for warp_run (cg_lane_iter_rec) when set; NULL: T-step replays. */
static const uint32_t *g_roff;
static const uint32_t *g_ut; /* twin_verify: the UNIFORM table for EXT pieces (NULL: cg_glide) */
static const uint64_t *g_rec;
static const uint8_t *g_rst;
static void warp_run(const cg_u128 *n, const cg_u128 *v, const uint32_t *done0, const uint8_t *ovf,
                     size_t cnt, unsigned thresh, unsigned d, const uint64_t *BC, const uint64_t *BM,
                     const uint8_t *J, int64_t *g, struct warp_stats *ws)
{
    cg_lane s[WARP];
    size_t cur[WARP], next = 0;
    int live[WARP], busy[WARP];
    const uint32_t mask = (1u << d) - 1;
    const unsigned lim = cg_limit_bits(d);
    for (int l = 0; l < WARP; l++) live[l] = 1, busy[l] = 0, cur[l] = 0;
    for (;;) {
        uint32_t idle = 0, nlive = 0;
        int any_busy = 0;
        for (int l = 0; l < WARP; l++) {
            idle += live[l] && !busy[l];
            nlive += (uint32_t)live[l];
            any_busy |= busy[l];
        }
        if (!nlive) break;
        const int refill = cg_refill_now(idle, any_busy, thresh);
        ws->trips++;
        ws->setups += (uint64_t)refill;
        for (int l = 0; l < WARP; l++) {
            if (refill && live[l] && !busy[l]) {
                if (next >= cnt) {
                    live[l] = 0;
                } else {
                    const size_t i = next++;
                    if (ovf[i]) {
                        g[i] = -1;
                    } else {
                        cg_lane_start(&s[l], v[i], n[i], done0[i], d, BM != NULL);
                        cur[l] = i;
                        busy[l] = 1;
                    }
                }
            }
            if (busy[l]) {
                ws->busy++;
                const int rc = g_roff ? cg_lane_iter_rec(&s[l], d, cg_esc_of(lim), mask, BC, BM ? BM : BC, J, g_roff, g_rec, g_rst)
                                      : cg_lane_iter(&s[l], d, cg_esc_of(lim), mask, BC, BM ? BM : BC, J);
                if (rc) {
                    busy[l] = 0;
                    g[cur[l]] = rc == 1 ? (int64_t)s[l].done : -1;
                }
            }
        }
    }
}

/* ---- a whole verify chunk emulated with the kernels' functions --------------------------- */
/* warp = 0: each mandatory number by cg_iterate; warp = T >= 1: ROWS pieces through warp_run
 * with refill threshold T (1 = FLAT kernel, 8 = FLAT_BATCH's default), each number also checked
 * against cg_iterate (*lane_bad counts differences). */
static int twin_verify_w(const bulk_collatz_engine *e, const uint64_t *BC, const uint64_t *BM,
                         u128 first, u128 last, bulk_collatz_verify_result *out, uint64_t *escapes,
                         unsigned warp, struct warp_stats *ws, uint64_t *lane_bad);
static int twin_verify(const bulk_collatz_engine *e, const uint64_t *BC, const uint64_t *BM,
                       u128 first, u128 last, bulk_collatz_verify_result *out, uint64_t *escapes)
{
    return twin_verify_w(e, BC, BM, first, last, out, escapes, 0, NULL, NULL);
}
static int twin_verify_w(const bulk_collatz_engine *e, const uint64_t *BC, const uint64_t *BM,
                         u128 first, u128 last, bulk_collatz_verify_result *out, uint64_t *escapes,
                         unsigned warp, struct warp_stats *ws, uint64_t *lane_bad)
{
    /* with an extension: EXT pieces, numbers as k_uni computes them (g_ut: the UNIFORM table),
     * escapes redone from the level-k state (verify.c block_extended's reference path) */
    const int k = e->k, X = e->kx, K = k + X;
    const unsigned d = (unsigned)e->d;
    const uint32_t *UT = g_ut;
    cg_piece pc[CG_MAX_PIECES];
    int np = cg_plan_chunk_x(first, last, k, X, e->Sr != NULL, pc);
    bulk_collatz_verify_result_init(out);
    cg_fold_static_x(out, first, last, pc, np, e->G_k, X, e->G_x);
    cg_acc acc;
    cg_acc_init(&acc);
    u128 sum = 0, iter = 0;
    for (int i = 0; i < np; i++) {
        if (pc[i].kind == CG_PIECE_ONE) continue;
        int L = pc[i].L;
        if (warp && pc[i].kind == CG_PIECE_ROWS) {
            /* the piece's numbers in the kernel's order (entry-major runs do not matter: any
             * order gives the same sums), through the simulated warp */
            size_t cnt = (size_t)pc[i].rows * e->s_k, m = 0;
            cg_u128 *nn = malloc(cnt * sizeof *nn), *vv = malloc(cnt * sizeof *vv);
            uint32_t *dn = malloc(cnt * sizeof *dn);
            uint8_t *of = malloc(cnt);
            int64_t *g = malloc(cnt * sizeof *g);
            for (uint64_t q = 0; q < e->s_k; q++)
                for (u128 row = 0; row < pc[i].rows; row++, m++) {
                    u128 nH = pc[i].nH + row;
                    nn[m] = cg_form_n((uint64_t)nH, (uint64_t)(nH >> 64), L, e->Sr[q]);
                    of[m] = (uint8_t)cg_prefix(&vv[m], (uint64_t)nH, (uint64_t)(nH >> 64),
                                               bulk_cz_pow3[e->Sj[q]], e->Sc[q]);
                    dn[m] = (uint32_t)(L + e->Sj[q]);
                    g[m] = -3;
                }
            warp_run(nn, vv, dn, of, cnt, warp, (unsigned)e->d, BC, BM, e->J, g, ws);
            m = 0;
            for (uint64_t q = 0; q < e->s_k; q++)
                for (u128 row = 0; row < pc[i].rows; row++, m++) {
                    u128 nH = pc[i].nH + row;
                    int64_t gi = cg_iterate(nn[m], (uint64_t)nH, (uint64_t)(nH >> 64),
                                            bulk_cz_pow3[e->Sj[q]], e->Sc[q], (int64_t)L + e->Sj[q],
                                            (unsigned)e->d, BC, BM, e->J);
                    if (gi != g[m]) (*lane_bad)++;
                    iter++;
                    if (g[m] < 0) {
                        int st = cg_host_iterate(e, to_w(nn[m]), L, out);
                        if (st != BULK_OK) return st;
                        (*escapes)++;
                    } else {
                        sum += (uint64_t)g[m];
                        cg_acc_note(&acc, (uint64_t)g[m], nn[m]);
                    }
                }
            free(nn);
            free(vv);
            free(dn);
            free(of);
            free(g);
            continue;
        }
        for (u128 row = 0; row < pc[i].rows; row++) {
            const u128 nH = pc[i].nH + row;
            const uint64_t nent = pc[i].kind == CG_PIECE_WALK ? (uint64_t)1 << L : e->s_k;
            for (uint64_t x = 0; x < nent; x++) {
                /* EXT: every surviving list residue of the entry; else one number */
                const int j = pc[i].kind == CG_PIECE_WALK ? 0 : e->Sj[x];
                const uint32_t l0 = pc[i].kind == CG_PIECE_EXT ? e->xoff[j] : 0;
                const uint32_t l1 = pc[i].kind == CG_PIECE_EXT ? e->xoff[j + 1] : 1;
                for (uint32_t li = l0; li < l1; li++) {
                    cg_u128 n, v;
                    int64_t g;
                    int esc_L = L, iterated = 1;
                    if (pc[i].kind == CG_PIECE_EXT) {
                        uint64_t rr, c2;
                        const uint64_t Lx = e->xL[li];
                        cg_ext_state(k, X, e->Sr[x], e->Sc[x], bulk_cz_pow3[j], e->xinv[j], Lx, e->xB[Lx], e->xC[Lx],
                                     &rr, &c2);
                        const int j2 = j + e->xdj[Lx];
                        n = cg_form_n((uint64_t)nH, (uint64_t)(nH >> 64), K, rr);
                        esc_L = k;
                        if (cg_prefix(&v, (uint64_t)nH, (uint64_t)(nH >> 64), bulk_cz_pow3[j2], c2)) g = -1;
                        else if (UT && cg_uni_ok(d, n))
                            g = cg_glide_uni(v, n, K + j2, d, UT, NULL);
                        else g = cg_glide(v, n, K + j2, d, BC, BM, e->J);
                    } else if (pc[i].kind == CG_PIECE_ROWS) {
                        n = cg_form_n((uint64_t)nH, (uint64_t)(nH >> 64), L, e->Sr[x]);
                        g = cg_iterate(n, (uint64_t)nH, (uint64_t)(nH >> 64), bulk_cz_pow3[j], e->Sc[x],
                                       (int64_t)L + j, d, BC, BM, e->J);
                    } else {
                        int jw;
                        uint64_t cw;
                        n = cg_form_n((uint64_t)nH, (uint64_t)(nH >> 64), L, x);
                        if (cg_walk(bulk_cz_pow3, x, L, &jw, &cw, &g)) iterated = 0;
                        else
                            g = cg_iterate(n, (uint64_t)nH, (uint64_t)(nH >> 64), bulk_cz_pow3[jw], cw,
                                           (int64_t)L + jw, d, BC, BM, e->J);
                    }
                    iter += (unsigned)iterated;
                    if (g < 0) {
                        int st = cg_host_iterate(e, to_w(n), esc_L, out);
                        if (st != BULK_OK) return st;
                        (*escapes)++;
                    } else {
                        sum += (uint64_t)g;
                        cg_acc_note(&acc, (uint64_t)g, n);
                    }
                }
            }
        }
    }
    cg_fold(out, sum, iter, acc.maxg, acc.maxn);
    return BULK_OK;
}

static int same_result(const bulk_collatz_verify_result *a, const bulk_collatz_verify_result *b)
{
    if (memcmp(&a->covered, &b->covered, sizeof a->covered) ||
        memcmp(&a->iterated, &b->iterated, sizeof a->iterated) ||
        memcmp(&a->checksum, &b->checksum, sizeof a->checksum) || a->overflows != b->overflows ||
        a->n_overflow_values != b->n_overflow_values || a->max_glide != b->max_glide ||
        memcmp(&a->max_glide_n, &b->max_glide_n, sizeof a->max_glide_n))
        return 0;
    for (uint32_t i = 0; i < a->n_overflow_values; i++)
        if (memcmp(&a->overflow_values[i], &b->overflow_values[i], sizeof(bulk_u128))) return 0;
    return 1;
}

static void test_verify(bulk_ctx *ctx, uint64_t *rs, int small)
{
    static const int dk[][2] = { { 8, 10 }, { 12, 14 }, { 1, 3 }, { 20, 16 }, { 10, 0 } };
    for (size_t t = 0; t < sizeof dk / sizeof dk[0]; t++) {
        int d = dk[t][0], k = dk[t][1];
        bulk_collatz_engine *e;
        int st = bulk_collatz_engine_new(&e, ctx, d, k, 0);
        CHECK(st == BULK_OK, "engine d=%d k=%d: %d", d, k, st);
        if (st) continue;
        uint64_t *BC = malloc(((size_t)1 << d) * sizeof *BC);
        uint64_t *BM = malloc(((size_t)1 << d) * sizeof *BM);
        cg_pack_tables(d, e->B, e->C, BC, BM);
        const uint64_t nrec = cg_rec_total(d);
        uint32_t *ROFF = malloc((((size_t)1 << d) + 1) * sizeof *ROFF);
        uint64_t *REC = malloc(nrec * sizeof *REC + 8);
        uint8_t *RST = malloc(nrec + 1);
        cg_rec_tables(d, ROFF, REC, RST);
        u128 starts[] = {
            1,
            ((u128)1 << 64) - 3000,
            ((u128)1 << 68) + (test_rand(rs) % 100000),
            (u128)12327829503ull - 1000, /* trajectory passes 2^64 */
            ~(u128)0 - 5000,             /* trajectories pass 2^128: escapes */
            ((u128)1 << 127) + (test_rand(rs) % 4096),
            rand_u128(rs, (int)t) >> (test_rand(rs) % 60),
            /* 2^81 - 1 climbs to 3^81 - 1 > 2^128 inside one table operation at d = 12: the
             * CPU's path steps over it, so the GPU's host redo must book it as the CPU does (no
             * overflow); found by CI with seed 10077779902356347091 */
            ((u128)1 << 81) - 1,
        };
        for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
            u128 first = starts[s] ? starts[s] : 1;
            u128 len = ((u128)1 << (small ? 13 : 17)) + test_rand(rs) % 5000;
            if (s == 4) len = 5000;
            u128 last = first + len;
            if (last < first) last = ~(u128)0;
            bulk_collatz_verify_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
            int s1 = bulk_collatz_verify_chunk(e, cg_u_of(first), cg_u_of(last), a);
            /* with the dip-test table (the kernels' default) and without it (exact mirror) */
            for (int bm = 0; bm < 2; bm++) {
                uint64_t esc = 0;
                int s2 = twin_verify(e, BC, bm ? BM : NULL, first, last, b, &esc);
                if (s == 4) CHECK(esc > 0, "escapes near 2^128");
                CHECK(s1 == BULK_OK && s2 == BULK_OK, "status %d %d", s1, s2);
                CHECK(same_result(a, b),
                      "verify twin (BM %d) differs: d=%d k=%d start #%zu (overflows %llu vs %llu)", bm,
                      d, k, s, (unsigned long long)a->overflows, (unsigned long long)b->overflows);
            }
            /* the lane loop as a warp: FLAT (threshold 1) and FLAT_BATCH (8, and 32: refill only
             * when the whole warp is idle) against the engine, number by number against cg_iterate */
            static const unsigned thr[] = { 1, 4, 8, CG_REFILL_LANES, 16, 32 };
            for (int rec = 0; rec < 2; rec++)
                for (size_t w = 0; w < sizeof thr / sizeof thr[0]; w++) {
                    /* rec: the record-replay lane form (cg_lane_iter_rec) */
                    if (rec && thr[w] == 4) continue;
                    g_roff = rec ? ROFF : NULL;
                    g_rec = REC;
                    g_rst = RST;
                    uint64_t esc = 0, lbad = 0;
                    struct warp_stats ws = { 0, 0, 0 };
                    int s2 = twin_verify_w(e, BC, BM, first, last, b, &esc, thr[w], &ws, &lbad);
                    g_roff = NULL;
                    CHECK(s1 == BULK_OK && s2 == BULK_OK, "status %d %d", s1, s2);
                    CHECK(lbad == 0 && same_result(a, b),
                          "warp twin (refill %u, records %d) differs: d=%d k=%d start #%zu (%llu numbers differ)",
                          thr[w], rec, d, k, s, (unsigned long long)lbad);
                    if (d == 12 && s == 2 && ws.trips)
                        printf("warp twin d=12 k=%d near 2^68, %s replays, refill at %2u idle lanes: %.1f busy "
                               "lanes per trip, setup in %.0f%% of %llu trips\n", k, rec ? "record" : "T-step",
                               thr[w], ws.trips ? (double)ws.busy / (double)ws.trips : 0.0,
                               ws.trips ? 100.0 * (double)ws.setups / (double)ws.trips : 0.0,
                               (unsigned long long)ws.trips);
                }
            if (s == 4) CHECK(a->overflows > 0, "range near 2^128 has overflows");
            free(a);
            free(b);
        }
        free(BC);
        free(BM);
        free(ROFF);
        free(REC);
        free(RST);
        bulk_collatz_engine_free(e);
    }
}

/* ---- the INC setup: a run's prefixes by additions equal cg_prefix row by row ------------- */
/* ---- the sieve extension (engines with kx > 0): twin_verify (its EXT pieces as k_uni runs them:
 * cg_ext_state, cg_glide_uni with g_ut) against the engine's own bulk_collatz_verify_chunk ---- */
static void test_verify_ext(bulk_ctx *ctx, uint64_t *rs, int small)
{
    /* d, stored k, extension bits */
    static const int dkx[][3] = { { 12, 10, 4 }, { 10, 8, 6 }, { 8, 6, 3 }, { 16, 12, 2 }, { 20, 9, 3 } };
    for (size_t t = 0; t < sizeof dkx / sizeof dkx[0]; t++) {
        const int d = dkx[t][0], k = dkx[t][1], X = dkx[t][2];
        bulk_collatz_engine *e;
        int st = bulk_collatz_engine_new(&e, ctx, d, k, 0);
        if (st == BULK_OK) st = bulk_cz_build_extension(e, X);
        CHECK(st == BULK_OK, "engine d=%d k=%d kx=%d: %d", d, k, X, st);
        if (st) continue;
        uint64_t *BC = malloc(((size_t)1 << d) * sizeof *BC), *BM = malloc(((size_t)1 << d) * sizeof *BM);
        cg_pack_tables(d, e->B, e->C, BC, BM);
        uint32_t *UT = d <= CG_UNI_MAX_D ? malloc(cg_uni_entries((unsigned)d) * 16) : NULL;
        if (UT) cg_uni_build((unsigned)d, e->B, e->C, e->J, UT);
        const u128 starts[] = {
            1,
            ((u128)1 << 64) - 3000,
            ((u128)1 << 68) + (test_rand(rs) % 100000),
            ~(u128)0 - ((u128)3 << (k + X)), /* trajectories pass 2^128: escapes, overflows */
            rand_u128(rs, (int)t) >> (test_rand(rs) % 60),
            /* 2^81 - 1 climbs to 3^81 - 1 > 2^128 inside one table operation at d = 12: the
             * CPU's path steps over it, so the GPU's host redo must book it as the CPU does (no
             * overflow); found by CI with seed 10077779902356347091 */
            ((u128)1 << 81) - 1,
        };
        for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
            u128 first = starts[i] ? starts[i] : 1;
            u128 len = ((u128)3 << (k + X)) + test_rand(rs) % 5000;
            if (small) len = ((u128)1 << (k + X)) + test_rand(rs) % 5000;
            u128 last = first + len;
            if (last < first) last = ~(u128)0;
            bulk_collatz_verify_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
            uint64_t esc = 0;
            int s1 = bulk_collatz_verify_chunk(e, cg_u_of(first), cg_u_of(last), a);
            g_ut = UT;
            int s2 = twin_verify(e, BC, BM, first, last, b, &esc);
            g_ut = NULL;
            CHECK(s1 == BULK_OK && s2 == BULK_OK, "status %d %d", s1, s2);
            CHECK(same_result(a, b), "extension twin differs: d=%d k=%d kx=%d start #%zu (iterated %llu vs %llu)", d,
                  k, X, i, (unsigned long long)a->iterated.lo, (unsigned long long)b->iterated.lo);
            if (i == 3) CHECK(esc > 0 && a->overflows > 0, "escapes and overflows near 2^128 (kx=%d)", X);
            printf("extension twin d=%d k=%d kx=%d start #%zu: %s (iterated %llu, %llu escapes, %u overflows)\n", d, k,
                   X, i, same_result(a, b) ? "same" : "DIFFERENT", (unsigned long long)a->iterated.lo,
                   (unsigned long long)esc, (unsigned)a->overflows);
            free(a);
            free(b);
        }
        free(UT);
        free(BC);
        free(BM);
        bulk_collatz_engine_free(e);
    }
}

/* The generated level-K slices (cg_verify.cu run_ext_gen): every entry cg_ext_gen_one makes from
 * the j-sorted stored sieve and the survivor lists is a mandatory class of K bits whose state
 * after K halvings is (j2, c2), checked by walking its K low bits one level at a time
 * (cg_sieve_child); for small K the entries are exactly the stored K-bit sieve (as a multiset),
 * and at K = 40 (the limit) the all-odd class reaches j2 = 40 with c2 = 3^40 - 1. */
static int cmp_entry(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0;
}
static void test_ext_gen(bulk_ctx *ctx, uint64_t *rs, int small)
{
    static const int kx[][2] = { { 10, 4 }, { 8, 6 }, { 3, 16 }, { 12, 8 }, { 24, 16 }, { 28, 12 }, { 28, 16 } };
    for (size_t t = 0; t < sizeof kx / sizeof kx[0]; t++) {
        const int k = kx[t][0], X = kx[t][1], K = k + X;
        if (small && k > 24) continue;
        bulk_collatz_engine *e;
        int st = bulk_collatz_engine_new(&e, ctx, 8, k, 0);
        if (st == BULK_OK) st = bulk_cz_build_extension(e, X);
        CHECK(st == BULK_OK, "engine k=%d kx=%d: %d", k, X, st);
        if (st) continue;
        /* S sorted by j, as ext_sort_upload (a counting sort) */
        uint64_t goff[42] = { 0 };
        for (uint64_t i = 0; i < e->s_k; i++) goff[e->Sj[i] + 1]++;
        for (int j = 0; j < 41; j++) goff[j + 1] += goff[j];
        uint64_t *sr = malloc(e->s_k * 8), *sc = malloc(e->s_k * 8), at[42];
        memcpy(at, goff, sizeof at);
        for (uint64_t i = 0; i < e->s_k; i++) {
            sr[at[e->Sj[i]]] = e->Sr[i];
            sc[at[e->Sj[i]]] = e->Sc[i];
            at[e->Sj[i]]++;
        }
        const int full = K <= 20; /* every entry, compared with the stored K-bit sieve */
        uint64_t *all = full ? malloc(e->s_kx * 3 * 8) : NULL, nall = 0, checked = 0, bad = 0;
        int maxj2 = 0;
        for (int j = 0; j <= 40; j++) {
            const uint64_t ne = goff[j + 1] - goff[j];
            const uint32_t len = e->xoff[j + 1] - e->xoff[j];
            const uint64_t tj = ne * len;
            if (tj == 0) continue;
            const uint64_t samples = full ? tj : 2000;
            for (uint64_t si = 0; si < samples; si++) {
                /* the group's first and last entries, then random ones */
                const uint64_t ti = full ? si : si == 0 ? 0 : si == 1 ? tj - 1 : test_rand(rs) % tj;
                uint64_t rr, c2;
                uint8_t j2;
                cg_ext_gen_one(k, X, ti, len, sr + goff[j], sc + goff[j], j, bulk_cz_pow3[j], e->xinv[j],
                               e->xL + e->xoff[j], e->xB, e->xC, e->xdj, &rr, &c2, &j2);
                /* the walk in 128 bits (at K = 40 its last odd step 3 c + 1 passes 2^64 before
                 * the halving; the generated c2 < 3^40 fits) */
                int wj = 0, elim = 0;
                u128 wc = 0, p3 = 1;
                for (int i = 0; i < K && !elim; i++) {
                    u128 c1 = wc + (((rr >> i) & 1) ? p3 : 0);
                    if (c1 & 1) {
                        c1 = 3 * c1 + 1;
                        wj++;
                        p3 *= 3;
                    }
                    wc = c1 >> 1;
                    elim = p3 < ((u128)1 << (i + 1));
                }
                /* j2 > 40 (K > 40): c2 is not kept (the kernel escapes those rows) */
                if (elim || wj != j2 || (j2 <= 40 && wc != c2) || (K < 64 && (rr >> K) != 0)) bad++;
                if (j2 > maxj2) maxj2 = j2;
                checked++;
                if (full) {
                    all[3 * nall] = rr;
                    all[3 * nall + 1] = c2;
                    all[3 * nall + 2] = j2;
                    nall++;
                }
            }
        }
        CHECK(bad == 0, "generated K=%d (k=%d + %d): %llu of %llu entries not the walk's state", K, k, X,
              (unsigned long long)bad, (unsigned long long)checked);
        if (K >= 40) CHECK(maxj2 == K, "K = %d: the all-odd class (j2 = K) not generated (max j2 %d)", K, maxj2);
        if (full) {
            bulk_collatz_engine *eK;
            CHECK(nall == e->s_kx, "generated %llu entries, s_%d = %llu", (unsigned long long)nall, K,
                  (unsigned long long)e->s_kx);
            if (nall == e->s_kx && bulk_collatz_engine_new(&eK, ctx, 8, K, 0) == BULK_OK) {
                uint64_t *ref = malloc(eK->s_k * 3 * 8);
                for (uint64_t i = 0; i < eK->s_k; i++) {
                    ref[3 * i] = eK->Sr[i];
                    ref[3 * i + 1] = eK->Sc[i];
                    ref[3 * i + 2] = eK->Sj[i];
                }
                qsort(all, nall, 24, cmp_entry);
                qsort(ref, eK->s_k, 24, cmp_entry);
                CHECK(eK->s_k == nall && !memcmp(all, ref, nall * 24), "generated K=%d differs from the stored sieve", K);
                free(ref);
                bulk_collatz_engine_free(eK);
            }
        }
        printf("generated slices k=%d + %d (K=%d): %llu entries checked%s, largest j2 %d\n", k, X, K,
               (unsigned long long)checked, full ? " (all, = the stored sieve)" : "", maxj2);
        free(all);
        free(sr);
        free(sc);
        bulk_collatz_engine_free(e);
    }
}

static void test_prefix_chain(uint64_t *rs)
{
    int bad = 0;
    for (int it = 0; it < 20000; it++) {
        u128 nH = rand_u128(rs, it) >> (1 + test_rand(rs) % 127); /* no wrap of nH + 70 */
        int j = (int)(test_rand(rs) % 41);
        uint64_t p3 = bulk_cz_pow3[j], c = test_rand(rs) % p3;
        cg_u128 v, v0;
        int have0 = 0;
        for (int row = 0; row < 70; row++, nH++) {
            cg_u128 w;
            int ow = cg_prefix(&w, (uint64_t)nH, (uint64_t)(nH >> 64), p3, c), ov;
            if (have0) {
                v = v0;
                ov = cg_add64(&v, p3);
            } else {
                ov = cg_prefix(&v, (uint64_t)nH, (uint64_t)(nH >> 64), p3, c);
            }
            v0 = v;
            have0 = !ov;
            if (ov != ow || (!ov && to_w(v) != to_w(w))) bad++;
        }
    }
    CHECK(bad == 0, "incremental prefixes: %d rows differ from cg_prefix", bad);
}

/* ---- the v4 delay lane loop (cg_delays.cu lane_delays4) as a warp on the CPU --------------
 * 32 lanes x nl numbers per lane, u steps of cg_delay_iter96 per trip, a number that ends puts
 * its delay at the next trip's start (the deferred A load), an escape at once; numbers handed
 * out in the kernel's order (m = 0, 1, ... per lane, OUT's offsets tid + m * 32). Writes
 * out[i] = delay of first + i or -1 (escape), and returns the number of trips. */
static uint64_t delay_warp_twin(u128 first, uint64_t count, int nl, int u, unsigned d, unsigned a,
                                const uint64_t *BC, const uint8_t *J, const uint16_t *A, int64_t *out,
                                uint64_t *busy_steps)
{
    enum { NLMAX = 2 };
    const unsigned lim = cg_limit_bits(d);
    const uint32_t mask = (1u << d) - 1;
    cg_u128 v[32][NLMAX];
    uint32_t steps[32][NLMAX], pval[32][NLMAX];
    uint64_t cm[32][NLMAX], pm[32][NLMAX], m[32], M[32];
    int busy[32][NLMAX], pend[32][NLMAX];
    memset(busy, 0, sizeof busy);
    memset(pend, 0, sizeof pend);
    for (int l = 0; l < 32; l++) {
        m[l] = 0;
        M[l] = (uint64_t)l < count ? (count - (uint64_t)l + 31) / 32 : 0;
    }
    uint64_t trips = 0;
    for (;;) {
        int any = 0;
        for (int l = 0; l < 32; l++)
            for (int q = 0; q < nl; q++) {
                if (pend[l][q]) {
                    out[(uint64_t)l + pm[l][q] * 32] = pval[l][q];
                    pend[l][q] = 0;
                }
                if (!busy[l][q] && m[l] < M[l]) {
                    cm[l][q] = m[l];
                    v[l][q] = of_w(first + (uint64_t)l + m[l] * 32);
                    steps[l][q] = 0;
                    busy[l][q] = 1;
                    m[l]++;
                }
                any |= busy[l][q];
            }
        if (!any) break;
        trips++;
        for (int s = 0; s < u; s++)
            for (int l = 0; l < 32; l++)
                for (int q = 0; q < nl; q++) {
                    if (!busy[l][q]) continue;
                    int rc = cg_delay_iter96(&v[l][q], &steps[l][q], d, a, lim, mask, BC, J);
                    *busy_steps += rc == 0;
                    if (rc == 1) {
                        pval[l][q] = steps[l][q] + A[v[l][q].x0];
                        pm[l][q] = cm[l][q];
                        pend[l][q] = 1;
                        busy[l][q] = 0;
                    } else if (rc == 2) {
                        out[(uint64_t)l + cm[l][q] * 32] = -1;
                        busy[l][q] = 0;
                    }
                }
    }
    return trips;
}

/* ---- delays: the kernels' cg_delay against the engine ----------------------------------- */
static void test_delays(bulk_ctx *ctx, uint64_t *rs, int small)
{
    static const int da[][2] = { { 8, 12 }, { 12, 16 }, { 16, 20 }, { 3, 3 } };
    for (size_t t = 0; t < sizeof da / sizeof da[0]; t++) {
        int d = da[t][0], a = da[t][1];
        bulk_collatz_engine *e;
        int st = bulk_collatz_engine_new(&e, ctx, d, 4, a);
        CHECK(st == BULK_OK, "engine d=%d a=%d: %d", d, a, st);
        if (st) continue;
        uint64_t *BC = malloc(((size_t)1 << d) * sizeof *BC);
        cg_pack_tables(d, e->B, e->C, BC, NULL);
        u128 starts[] = { 1, ((u128)1 << 64) - 100, ((u128)1 << 68) + test_rand(rs) % 1000,
                          ~(u128)0 - 3000, rand_u128(rs, (int)t) >> (test_rand(rs) % 100) };
        uint64_t count = small ? 1500 : 20000;
        uint32_t *ref = malloc(count * sizeof *ref);
        for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
            u128 first = starts[s] ? starts[s] : 1;
            if (first + count - 1 < first) first = ~(u128)0 - count;
            st = bulk_collatz_delays(ctx, e, cg_u_of(first), count, ref);
            CHECK(st == BULK_OK, "bulk_collatz_delays: %d", st);
            int escapes = 0, bad = 0;
            for (uint64_t i = 0; i < count; i++) {
                u128 n = first + i;
                int64_t dl = cg_delay(of_w(n), (unsigned)d, (unsigned)a, BC, e->J, e->A);
                /* the lane form (the kernels' loop) gives the same delay or escape */
                if (cg_delay_lane(of_w(n), (unsigned)d, (unsigned)a, BC, e->J, e->A) != dl) bad++;
                /* the v4 loop's step (three limbs below 2^(96 - lim)) too */
                if (cg_delay_lane96(of_w(n), (unsigned)d, (unsigned)a, BC, e->J, e->A) != dl) bad++;
                if (dl < 0) {
                    escapes++;
                    uint64_t w[2] = { (uint64_t)n, (uint64_t)(n >> 64) }, ex = 0;
                    if (bulk_cz_exact(w, 2, 0, &ex, NULL, NULL, 0, NULL) != BULK_OK) bad++;
                    dl = (int64_t)ex;
                }
                /* an escape needs a value at the margin of 2^128 on the way to below 2^a */
                if (cg_delay(of_w(n), (unsigned)d, (unsigned)a, BC, e->J, e->A) < 0 &&
                    !reaches(n, (u128)1 << a, (u128)1 << (128 - cg_limit_bits((unsigned)d))))
                    bad++;
                if ((uint32_t)dl != ref[i]) bad++;
            }
            CHECK(bad == 0, "delays twin: %d mismatches (d=%d a=%d start #%zu)", bad, d, a, s);
            /* the v4 warp loop (1 and 2 numbers per lane, 1, 2, 4 and 8 steps per trip): every number's delay or escape as cg_delay's, each written once */
            for (int nl = 1; nl <= 2; nl++)
                for (int u = 1; u <= 8; u *= 2) {
                    int64_t *wo = malloc(count * sizeof *wo);
                    for (uint64_t i = 0; i < count; i++) wo[i] = -2;
                    uint64_t bsteps = 0;
                    uint64_t trips = delay_warp_twin(first, count, nl, u, (unsigned)d, (unsigned)a, BC, e->J,
                                                     e->A, wo, &bsteps);
                    if (s == 1 && !small)
                        printf("v4 delay warp twin d=%d a=%d from 2^64: nl=%d u=%d: %.2f table steps per number, "
                               "%.3f warp trips per number, lane-step slots used %.1f%%\n", d, a, nl, u,
                               (double)bsteps / (double)count, (double)trips / (double)count,
                               100.0 * (double)bsteps / ((double)trips * 32.0 * u * nl));
                    int wbad = 0;
                    for (uint64_t i = 0; i < count; i++)
                        wbad += wo[i] != cg_delay(of_w(first + i), (unsigned)d, (unsigned)a, BC, e->J, e->A);
                    CHECK(wbad == 0, "v4 delay warp twin nl=%d u=%d: %d mismatches (d=%d a=%d start #%zu)",
                          nl, u, wbad, d, a, s);
                    free(wo);
                }
            if (s == 3) CHECK(escapes > 0, "delays near 2^128 escape");
        }
        free(ref);
        free(BC);
        bulk_collatz_engine_free(e);
    }
}

/* ---- option checks (both builds: the options are the context's, collatz/cuda_opts.c) ---- */
static void test_opts(bulk_ctx *ctx)
{
    bulk_collatz_cuda_opts o, got;
    memset(&o, 0, sizeof o);
    o.verify_layout = BULK_CZ_CUDA_LAYOUT_FLAT_BATCH;
    o.refill_lanes = 32;
    CHECK(bulk_collatz_cuda_set_opts(ctx, &o) == BULK_OK, "FLAT_BATCH with refill 32 accepted");
    bulk_collatz_cuda_get_opts(ctx, &got);
    CHECK(got.verify_layout == BULK_CZ_CUDA_LAYOUT_FLAT_BATCH && got.refill_lanes == 32, "options kept");
    o.refill_lanes = 33;
    CHECK(bulk_collatz_cuda_set_opts(ctx, &o) == BULK_ERR_ARG, "refill_lanes 33 rejected");
    o.refill_lanes = -1;
    CHECK(bulk_collatz_cuda_set_opts(ctx, &o) == BULK_ERR_ARG, "refill_lanes -1 rejected");
    bulk_collatz_cuda_get_opts(ctx, &got);
    CHECK(got.refill_lanes == 32, "a rejected set changes nothing");
    o.refill_lanes = 0;
    o.verify_layout = BULK_CZ_CUDA_LAYOUT_UNIFORM;
    CHECK(bulk_collatz_cuda_set_opts(ctx, &o) == BULK_OK, "verify_layout UNIFORM accepted");
    o.verify_layout = 5;
    CHECK(bulk_collatz_cuda_set_opts(ctx, &o) == BULK_ERR_ARG, "verify_layout 5 rejected");
    /* the cz.* tuning keys fill the same fields */
    CHECK(bulk_ctx_set_tune(ctx, "cz.layout=batch,cz.refill=7,cz.delay=v4x2,cz.kernel=core,cz.mem=global,"
                                 "cz.devices=1,cz.threads=128,cz.rows=4,cz.launch=4096,cz.wave=65536,"
                                 "cz.slice=1000,cz.escapes=99,cz.unroll=4") == BULK_OK,
          "cz keys: %s", bulk_ctx_last_error(ctx));
    bulk_collatz_cuda_get_opts(ctx, &got);
    CHECK(got.verify_layout == BULK_CZ_CUDA_LAYOUT_FLAT_BATCH && got.refill_lanes == 7 &&
          got.delay_loop == BULK_CZ_CUDA_DELAY_V4X2 && got.kernel == BULK_CZ_CUDA_KERNEL_CORE &&
          got.table_mem == BULK_CZ_CUDA_MEM_GLOBAL && got.devices == 1 && got.threads_per_block == 128 &&
          got.rows_per_thread == 4 && got.launch_numbers == 4096 && got.wave_numbers == 65536 &&
          got.s_slice_entries == 1000 && got.escape_capacity == 99 && got.delay_unroll == 4 &&
          bulk_collatz_cuda_opts_valid(&got), "cz keys give the options");
    CHECK(bulk_ctx_set_tune(ctx, "cz.layout=uniform,cz.delay=v3") == BULK_OK, "cz layout uniform");
    bulk_collatz_cuda_get_opts(ctx, &got);
    CHECK(got.verify_layout == BULK_CZ_CUDA_LAYOUT_UNIFORM && got.delay_loop == BULK_CZ_CUDA_DELAY_V3 &&
          got.refill_lanes == 0, "a tuning replaces the whole set");
    CHECK(bulk_ctx_set_tune(ctx, NULL) == BULK_OK, "defaults restored");
    bulk_collatz_cuda_get_opts(ctx, &got);
    memset(&o, 0, sizeof o);
    CHECK(memcmp(&o, &got, sizeof o) == 0, "defaults are zeros");
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    uint64_t rs = seed;
    const char *san = getenv("BULK_SANITIZED");
    int small = san && *san && strcmp(san, "0") != 0;
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) != BULK_OK) {
        fprintf(stderr, "cannot open a CPU context\n");
        return 1;
    }
    test_opts(ctx);
    test_arith(&rs);
    test_prefix_chain(&rs);
    test_sieve_child();
    test_glide(&rs, small);
    test_planner(&rs);
    test_index(&rs);
    test_verify(ctx, &rs, small);
    test_verify_ext(ctx, &rs, small);
    test_ext_gen(ctx, &rs, small);
    test_delays(ctx, &rs, small);
    bulk_ctx_close(ctx);
    return test_finish();
}
