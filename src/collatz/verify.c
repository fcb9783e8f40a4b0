/* Verification of one chunk [first, last] on the calling thread: the unit every driver (threads,
 * GPU, --part, MPI) is built from.
 *
 * The chunk is cut into aligned blocks [nH * 2^L, (nH + 1) * 2^L) with nH >= 1 and L <= k,
 * largest first (a dyadic decomposition; only the two ends of a range use L < k). In a block
 * every n = 2^L nH + r: residues eliminated by the sieve of L bits are covered without
 * iterating, and their glide is known from the sieve (collatz/sieve.c); each mandatory residue
 * starts from its state after L halvings, 3^j nH + c, and is iterated with table steps until
 * its value drops below n (collatz_core.h, cz_glide_from), exactly, so the glide is exact. A
 * value that would leave 128 bits sends n to the exact path. Level-k blocks use the stored
 * sieve and its precomputed glide sum G_k; with a sieve extension (sieve_ext.c) blocks of level
 * k + kx use the stored entries and the survivor lists; other blocks walk their sieve on the
 * fly. Near 2^64 the glides come from the CPU kernel (cpu/glide_fast.h), elsewhere and for the
 * states it hands back from the reference path (cz_glide_from_mb); the results are identical. */
#include <string.h>

#include "collatz/collatz_internal.h"
#include "collatz/cpu/glide_fast.h"
#include "collatz/peak.h"


static inline u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static inline bulk_u128 from128(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

void bulk_collatz_verify_result_init(bulk_collatz_verify_result *r)
{
    if (r) memset(r, 0, sizeof *r);
}

/* Inserts n into the ascending list of kept overflow values (the smallest KEEP survive). */
static void keep_overflow(bulk_collatz_verify_result *r, bulk_u128 n)
{
    uint32_t cnt = r->n_overflow_values;
    if (cnt == BULK_COLLATZ_OVERFLOW_KEEP && !cz_lt(n, r->overflow_values[cnt - 1])) return;
    uint32_t pos = cnt;
    while (pos > 0 && cz_lt(n, r->overflow_values[pos - 1])) pos--;
    uint32_t move = (cnt == BULK_COLLATZ_OVERFLOW_KEEP ? cnt - 1 : cnt) - pos;
    memmove(&r->overflow_values[pos + 1], &r->overflow_values[pos], move * sizeof(bulk_u128));
    r->overflow_values[pos] = n;
    if (cnt < BULK_COLLATZ_OVERFLOW_KEEP) r->n_overflow_values = cnt + 1;
}

static inline void note_glide(bulk_collatz_verify_result *r, cz_u128 n, uint64_t g)
{
    /* max_glide_n = 0 means "none yet" (every n is >= 1) */
    if (cz_is_zero(r->max_glide_n) || g > r->max_glide ||
        (g == r->max_glide && cz_lt(n, r->max_glide_n))) {
        r->max_glide = g;
        r->max_glide_n = n;
    }
}

void bulk_collatz_verify_result_merge(bulk_collatz_verify_result *into,
                                      const bulk_collatz_verify_result *from)
{
    if (!into || !from) return;
    into->covered = from128(to128(into->covered) + to128(from->covered));
    into->iterated = from128(to128(into->iterated) + to128(from->iterated));
    into->checksum = from128(to128(into->checksum) + to128(from->checksum));
    into->overflows += from->overflows;
    for (uint32_t i = 0; i < from->n_overflow_values; i++)
        keep_overflow(into, from->overflow_values[i]);
    if (!cz_is_zero(from->max_glide_n)) note_glide(into, from->max_glide_n, from->max_glide);
    bulk_cz_peaks_merge(into, from);
}

/* Running sums of a chunk, kept in native 128-bit words. */
struct acc {
    const bulk_collatz_engine *e;
    bulk_collatz_verify_result *r;
    u128 covered, iterated, checksum;
    int status;
    struct cz_peaks pk; /* pre-drop peaks (engines with peaks on; peak.h) */
};

/* The reference glide loop (cz_glide_from_mb) with the peak test of each step's start state
 * (*hot set when one is >= vlim, see peak.h). */
static inline int64_t glide_ref(const struct acc *a, cz_u128 v, cz_u128 n, int64_t done, int *hot)
{
    const bulk_collatz_engine *e = a->e;
    const int nbits = cz_bitlen(n);
    const u128 vlim = a->pk.vlim;
    int h = 0, r;
    do {
        h |= to128(v) >= vlim;
        r = cz_glide_step(&v, n, nbits, &done, e->d, e->B, e->C, e->J, e->MB);
    } while (r == 0);
    *hot |= h;
    return r > 0 ? done : -1;
}

/* After n's glide loop: its pre-drop peak exactly when a state came near the threshold (hot)
 * or the loop overflowed (g < 0: from n itself on the exact path). */
static inline void peak_after(struct acc *a, u128 n, u128 v0, int64_t g, int hot)
{
    if (__builtin_expect(hot || g < 0, 0)) bulk_cz_peaks_exact(&a->pk, n, v0, g < 0);
}

/* Finishes n after its glide loop: g >= 0 is the glide, g < 0 an overflow (exact path). */
static inline void finish_one(struct acc *a, cz_u128 n, int64_t g)
{
    a->iterated++;
    if (g < 0) {
        uint64_t eg = 0;
        int st = bulk_cz_exact_glide128(n, &eg);
        if (st != BULK_OK) {
            a->status = st;
            return;
        }
        g = (int64_t)eg;
        a->r->overflows++;
        keep_overflow(a->r, n);
    }
    a->checksum += (uint64_t)g;
    note_glide(a->r, n, (uint64_t)g);
}

/* n (mandatory at level L, state v = 3^j nH + c after `done` = L + j steps, or v_ok = 0 when
 * that state already overflowed) is iterated individually. */
static inline void iterate_one(struct acc *a, cz_u128 n, cz_u128 v, int v_ok, int64_t done)
{
    const bulk_collatz_engine *e = a->e;
    int64_t g = -1;
    int hot = 0;
    if (v_ok) {
        /* the fast kernel where it applies; it hands back (-1) the states near 2^128, which the
         * reference path then takes from the same start (identical results, glide_fast.h) */
        if (cz_fast_usable(e, to128(n))) g = cz_fast_glide_pk(e, to128(v), to128(n), done, a->pk.vlim, &hot);
        if (g < 0) g = glide_ref(a, v, n, done, &hot);
    }
    peak_after(a, to128(n), v_ok ? to128(v) : 0, g, hot);
    finish_one(a, n, g);
}

/* n mod 9 of a 128-bit n (2^64 = 7 mod 9). */
static inline unsigned mod9(u128 n) { return (unsigned)(((uint64_t)n % 9 + (uint64_t)(n >> 64) % 9 * 7) % 9); }

/* Convergence mode skips the row of residue r in a block whose base is b9 mod 9. */
static inline int conv_row_skipped(int conv, unsigned b9, uint64_t r) { return conv && cz_conv_row_skip((b9 + (unsigned)(r % 9)) % 9); }

/* Level-k block using the stored sieve: n = 2^k nH + Sr[x] starts at 3^Sj[x] nH + Sc[x] after
 * k + Sj[x] steps. Where the fast kernel applies (nH < 2^64 and n >= 2^(d + 34): the whole block
 * near 2^64 and beyond) a tight loop with one-word sieve starts; elsewhere, and for the states the
 * kernel hands back, the reference path. (Running 2 or 4 residues interleaved, one glide step of
 * each in turn, was measured slower with the reference path: its branches cost more than the
 * overlap gains; a branch-free 4-lane version of the fast kernel was no faster either.) */
static void block_stored(struct acc *a, cz_u128 nH)
{
    const bulk_collatz_engine *e = a->e;
    const int k = e->k;
    const uint64_t s = e->s_k;
    const cz_u128 base = cz_shl(nH, k);
    /* convergence mode: rows with n = 2, 4, 5, 8 mod 9 are proved by a smaller number */
    const int conv = e->conv;
    const unsigned b9 = mod9(to128(base));
    if (nH.hi == 0 && cz_fast_usable(e, to128(base))) {
        const u128 b128 = to128(base);
        const uint64_t h = nH.lo;
        const uint64_t *Sr = e->Sr, *Sc = e->Sc;
        const uint8_t *Sj = e->Sj;
        for (uint64_t x = 0; x < s; x++) {
            if (conv_row_skipped(conv, b9, Sr[x])) continue;
            const u128 n = b128 | Sr[x];
            const u128 v = (u128)bulk_cz_pow3[Sj[x]] * h + Sc[x];
            int hot = 0;
            int64_t g = cz_fast_glide_pk(e, v, n, (int64_t)k + Sj[x], a->pk.vlim, &hot);
            if (__builtin_expect(g < 0, 0)) g = glide_ref(a, from128(v), from128(n), (int64_t)k + Sj[x], &hot);
            peak_after(a, n, v, g, hot);
            finish_one(a, from128(n), g);
        }
    } else {
        for (uint64_t x = 0; x < s; x++) {
            if (conv_row_skipped(conv, b9, e->Sr[x])) continue;
            cz_u128 n = base, v = { 0, 0 };
            n.lo |= e->Sr[x];
            int64_t g = -1;
            int hot = 0;
            if (cz_sieve_start(&v, nH, bulk_cz_pow3[e->Sj[x]], e->Sc[x]))
                g = glide_ref(a, v, n, (int64_t)k + e->Sj[x], &hot);
            peak_after(a, to128(n), to128(v), g, hot);
            finish_one(a, n, g);
        }
    }
    a->covered += (u128)1 << k;
    a->checksum += e->G_k;
}

/* Block of level K = k + kx through the sieve extension (collatz/sieve_ext.c): n = 2^K nH + r'
 * for each stored entry (r, c, j) and each surviving kx-bit residue L of its j, with
 * q = (L - c) 3^-j mod 2^kx, r' = r + 2^k q, and the state after K steps
 * 3^(j + xdj[L]) nH + (xB[L] (w >> kx) + xC[L]), w = 3^j q + c. The fast kernel starts there;
 * the reference path (and an overflow) starts from the level-k state 3^j (2^kx nH + q) + c, as
 * a level-k block would, so the results equal those of 2^kx level-k blocks bit for bit (not so
 * in convergence mode: the classes of depths k+1..K count their glide in G_x whatever their n mod
 * 9, and a level-K class can be proved by a predecessor at level K). */
static void block_extended(struct acc *a, cz_u128 nH)
{
    const bulk_collatz_engine *e = a->e;
    const int k = e->k, X = e->kx, K = k + X;
    const uint64_t xm = ((uint64_t)1 << X) - 1;
    const u128 nh = to128(nH), base = nh << K;
    const int fast = nH.hi == 0 && cz_fast_usable(e, base);
    const uint64_t *Sr = e->Sr, *Sc = e->Sc;
    const uint8_t *Sj = e->Sj;
    /* convergence mode: n mod 9 = base + q 2^k + r (mod 9) */
    const int conv = e->conv;
    const unsigned b9 = mod9(base), k9 = (unsigned)(((u128)1 << k) % 9);
    for (uint64_t x = 0; x < e->s_k; x++) {
        const uint64_t r = Sr[x], c = Sc[x];
        const int j = Sj[x];
        const uint64_t p3 = bulk_cz_pow3[j], inv = e->xinv[j];
        const unsigned br9 = (b9 + (unsigned)(r % 9)) % 9;
        const uint16_t *Ls = e->xL + e->xoff[j], *Le = e->xL + e->xoff[j + 1];
        for (; Ls < Le; Ls++) {
            const uint64_t L = *Ls;
            const uint64_t q = ((L - c) * inv) & xm;
            if (conv && cz_conv_row_skip((unsigned)((br9 + q % 9 * k9) % 9))) continue;
            const u128 w = (u128)p3 * q + c;
            const uint64_t c2 = (uint64_t)((u128)e->xB[L] * (uint64_t)(w >> X) + e->xC[L]);
            const int j2 = j + e->xdj[L];
            /* convergence mode: the level-K class proved by a predecessor (for every nH >= 1) */
            if (conv && bulk_cz_conv_pred_m0(e->cv, K, j2, c2, (q << k) | r, 0)) continue;
            const u128 n = base | ((u128)q << k) | r;
            int64_t g = -1;
            int hot = 0;
            u128 v0 = 0;
            /* j2 > 40 (K > 40 only): 3^j2 and c2 leave 64 bits, the reference path below */
            if (fast && j2 <= 40) {
                v0 = (u128)bulk_cz_pow3[j2] * nH.lo + c2;
                g = cz_fast_glide_pk(e, v0, n, (int64_t)K + j2, a->pk.vlim, &hot);
            }
            if (g < 0) {
                cz_u128 v;
                if (cz_sieve_start(&v, from128((nh << X) | q), p3, c)) {
                    v0 = to128(v);
                    g = glide_ref(a, v, from128(n), (int64_t)k + j, &hot);
                }
            }
            peak_after(a, n, v0, g, hot);
            finish_one(a, from128(n), g);
        }
    }
    a->covered += (u128)1 << K;
    a->checksum += ((u128)e->G_k << X) + e->G_x;
}

/* Level-L block (L < k or no stored sieve): the sieve of L bits walked on the fly. */
static void walk_block(struct acc *a, cz_u128 nH, int L, int i, int j, uint64_t p, uint64_t c)
{
    if (i == L) {
        cz_u128 n = cz_shl(nH, L);
        n.lo |= p;
        cz_u128 v;
        int ok = cz_sieve_start(&v, nH, bulk_cz_pow3[j], c);
        iterate_one(a, n, v, ok, (int64_t)L + j);
        return;
    }
    for (int bit = 0; bit < 2; bit++) {
        int jj = j;
        uint64_t cc = c, pp = p | ((uint64_t)bit << i);
        if (cz_sieve_child(i, &jj, &cc, bit)) {
            /* 2^(L-i-1) numbers of this block share the glide (i+1)+jj */
            a->checksum += (u128)(uint64_t)(i + 1 + jj) << (L - i - 1);
            /* never beats the block's mandatory glides (see above), but keeps the running
             * maximum exact also for tiny blocks */
            if ((uint64_t)(i + 1 + jj) >= a->r->max_glide) {
                cz_u128 n = cz_shl(nH, L);
                n.lo |= pp; /* smallest n of the class in this block */
                note_glide(a->r, n, (uint64_t)(i + 1 + jj));
            }
        } else {
            walk_block(a, nH, L, i + 1, jj, pp, cc);
        }
    }
}

/* One number n that a level-L walk found mandatory (n = 2^L nH + p), booked into r exactly as
 * walk_block books it (iterate_one: the fast kernel, the reference path with the dip table, the
 * exact path with an overflow counted exactly when those overflow), except `iterated`, which the
 * caller counts: the GPU backend's host redo of its escapes. Whether a trajectory "overflows"
 * depends on the path (table operations skip the values inside them), so the GPU must book its
 * escapes through this very path to report the CPU's overflow list. */
void bulk_cz_conv_clear_glides(bulk_collatz_verify_result *r)
{
    memset(&r->checksum, 0, sizeof r->checksum);
    r->max_glide = 0;
    memset(&r->max_glide_n, 0, sizeof r->max_glide_n);
}

int bulk_cz_verify_mandatory(const bulk_collatz_engine *e, bulk_u128 n, int L,
                             bulk_collatz_verify_result *r)
{
    return bulk_cz_verify_mandatory_pk(e, n, L, r, NULL);
}

int bulk_cz_verify_mandatory_pk(const bulk_collatz_engine *e, bulk_u128 n, int L,
                                bulk_collatz_verify_result *r, struct cz_peaks *pk)
{
    if (!e || !r || L < 0 || L > 63 || (pk && pk->r != r)) return BULK_ERR_ARG;
    const u128 nw = to128(n);
    const uint64_t p = (uint64_t)(nw & (((u128)1 << L) - 1));
    int j = 0;
    uint64_t c = 0;
    for (int i = 0; i < L; i++)
        if (cz_sieve_child(i, &j, &c, (int)((p >> i) & 1))) return BULK_ERR_INTERNAL; /* not mandatory */
    cz_u128 v;
    int ok = cz_sieve_start(&v, from128(nw >> L), bulk_cz_pow3[j], c);
    /* the caller's running maximum and hit candidates, or this number's own */
    struct acc a = { e, r, 0, 0, 0, BULK_OK, { 0 } };
    if (pk) a.pk = *pk;
    else bulk_cz_peaks_init(&a.pk, e, r);
    iterate_one(&a, n, v, ok, (int64_t)L + j);
    if (pk) *pk = a.pk;
    else bulk_cz_peaks_free(&a.pk);
    if (a.status != BULK_OK) return a.status;
    if (a.pk.status != BULK_OK) return a.pk.status;
    bulk_collatz_verify_result t; /* its glide into the checksum */
    bulk_collatz_verify_result_init(&t);
    t.checksum = from128(a.checksum);
    bulk_collatz_verify_result_merge(r, &t);
    return BULK_OK;
}

static int ctz128(cz_u128 v)
{
    if (v.lo) return __builtin_ctzll(v.lo);
    return 64 + __builtin_ctzll(v.hi);
}

int bulk_cz_verify_chunk(const bulk_collatz_engine *e, bulk_u128 first, bulk_u128 last,
                         bulk_collatz_verify_result *out)
{
    bulk_collatz_verify_result_init(out);
    struct acc a = { e, out, 0, 0, 0, BULK_OK, { 0 } };
    bulk_cz_peaks_init(&a.pk, e, out);
    u128 cur = to128(first), end = to128(last);
    for (;;) {
        bulk_cz_peaks_block_begin(&a.pk);
        if (cur == 1) { /* 1 is the base case: covered, glide 0 by convention */
            a.covered++;
            note_glide(out, from128(1), 0);
            bulk_cz_peaks_block_end(&a.pk, 1, 0);
        } else {
            /* the largest aligned block that fits, up to level K = k + kx (with an extension;
             * a block of a level between k and K, at the range's ends, is its 2^(L-k) level-k
             * blocks through the stored sieve: as fast per number as the rows, and no walk
             * beyond level k, whose 64-bit states would not hold levels above 40) */
            const int K = e->k + e->kx;
            int L = ctz128(from128(cur));
            if (L > K) L = K;
            while (L > 0 && end - cur < ((u128)1 << L) - 1) L--;
            cz_u128 nH = from128(cur >> L);
            if (L == K && e->kx > 0) {
                block_extended(&a, nH);
            } else if (L > e->k && e->kx > 0 && e->Sr) {
                const u128 n0 = to128(nH) << (L - e->k);
                for (u128 q = 0; q < ((u128)1 << (L - e->k)) && a.status == BULK_OK; q++)
                    block_stored(&a, from128(n0 + q));
            } else if (L == e->k && e->Sr) {
                /* max_glide: an eliminated class (depth i <= k, 3^j' < 2^i) has glide
                 * i + j' < k + j < glide of any mandatory n (3^j >= 2^k), so the block's
                 * largest glide is always among the iterated numbers */
                block_stored(&a, nH);
            } else {
                walk_block(&a, nH, L, 0, 0, 0, 0);
                a.covered += (u128)1 << L;
            }
            if (a.status == BULK_OK) a.status = bulk_cz_peaks_block_end(&a.pk, cur, L);
            cur += ((u128)1 << L) - 1; /* now the last number of the block */
        }
        if (a.status == BULK_OK) a.status = a.pk.status;
        if (a.status != BULK_OK) {
            bulk_cz_peaks_free(&a.pk);
            return a.status;
        }
        if (cur >= end) break;
        cur++;
    }
    bulk_cz_peaks_free(&a.pk);
    out->covered = from128(a.covered);
    out->iterated = from128(a.iterated);
    out->checksum = from128(a.checksum);
    if (e->conv) bulk_cz_conv_clear_glides(out);
    return BULK_OK;
}

int bulk_collatz_verify_chunk(const bulk_collatz_engine *e, bulk_u128 first, bulk_u128 last,
                              bulk_collatz_verify_result *out)
{
    static const char fn[] = "bulk_collatz_verify_chunk";
    if (!e) return bulk_fail(NULL, BULK_ERR_ARG, "%s: e: is NULL", fn);
    if (!out) return bulk_fail(e->ctx, BULK_ERR_ARG, "%s: out: is NULL", fn);
    if (cz_is_zero(first)) return bulk_fail(e->ctx, BULK_ERR_ARG, "%s: first: must be at least 1", fn);
    if (cz_lt(last, first)) return bulk_fail(e->ctx, BULK_ERR_ARG, "%s: last: is below first", fn);
    int st = bulk_cz_verify_chunk(e, first, last, out);
    return st == BULK_OK ? st : bulk_cz_fail_status(e->ctx, st, fn, "range");
}
