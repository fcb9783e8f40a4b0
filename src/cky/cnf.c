/* Conversion of a bulk_cfg to Chomsky normal form, and the rule indexes the parsers use.
 *
 * Steps (classical; the language is preserved except for the empty string, which is recorded
 * separately as "start is nullable"):
 *   1. TERM+BIN: in a right-hand side of two or more symbols each terminal t is replaced by a
 *      new non-terminal T_t -> t; a right-hand side X1..Xk (k > 2) becomes A -> X1 N1,
 *      N1 -> X2 N2, ..., N(k-2) -> X(k-1) Xk with fresh N's. Now every rule has 0, 1 or 2 symbols.
 *   2. DEL: nullable non-terminals by fixpoint; for A -> B C with B nullable add A -> C, with C
 *      nullable add A -> B; drop the empty rules.
 *   3. UNIT: for every A and every B reachable from A by unit rules (A included), A gets B's
 *      binary and terminal rules; unit rules are dropped.
 *   4. Useless symbols: only non-terminals that derive some terminal string and are reachable
 *      from the start are kept; the start becomes non-terminal 0 (kept even when useless). */
#include <stdlib.h>
#include <string.h>

#include "cky/grammar.h"

typedef struct u32vec {
    uint32_t *v;
    size_t n, cap;
} u32vec;

static int vpush(u32vec *a, uint32_t x)
{
    if (a->n == a->cap) {
        size_t nc = a->cap ? 2 * a->cap : 256;
        uint32_t *nv = realloc(a->v, nc * sizeof *nv);
        if (!nv) return -1;
        a->v = nv, a->cap = nc;
    }
    a->v[a->n++] = x;
    return 0;
}

static int cmp3(const void *x, const void *y)
{
    const uint32_t *a = x, *b = y;
    for (int i = 0; i < 3; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int cmp2(const void *x, const void *y)
{
    const uint32_t *a = x, *b = y;
    for (int i = 0; i < 2; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

int bulk_cnf_index(bulk_grammar *g, uint32_t *bin, size_t nbin, const uint32_t *un, size_t nun)
{
    /* sort by (B, A, C): reorder each triple to (B, A, C) first */
    uint32_t *t = malloc(sizeof(uint32_t) * 3 * (nbin ? nbin : 1));
    uint32_t *u = malloc(sizeof(uint32_t) * 2 * (nun ? nun : 1));
    g->bin = malloc(sizeof(uint32_t) * 3 * (nbin ? nbin : 1));
    g->ac = malloc(sizeof(uint32_t) * 2 * (nbin ? nbin : 1));
    g->bstart = calloc((size_t)g->nnt + 1, sizeof(uint32_t));
    g->ustart = calloc((size_t)g->nterm + 1, sizeof(uint32_t));
    g->ulist = malloc(sizeof(uint32_t) * (nun ? nun : 1));
    if (!t || !u || !g->bin || !g->ac || !g->bstart || !g->ustart || !g->ulist) {
        free(t), free(u);
        return BULK_ERR_NOMEM;
    }
    for (size_t i = 0; i < nbin; i++) t[3 * i] = bin[3 * i + 1], t[3 * i + 1] = bin[3 * i], t[3 * i + 2] = bin[3 * i + 2];
    qsort(t, nbin, 3 * sizeof(uint32_t), cmp3);
    size_t m = 0;
    for (size_t i = 0; i < nbin; i++) {
        if (m && cmp3(t + 3 * i, t + 3 * (m - 1)) == 0) continue;
        memmove(t + 3 * m, t + 3 * i, 3 * sizeof(uint32_t));
        m++;
    }
    g->nbin = m;
    for (size_t i = 0; i < m; i++) {
        uint32_t B = t[3 * i], A = t[3 * i + 1], C = t[3 * i + 2];
        g->bin[3 * i] = A, g->bin[3 * i + 1] = B, g->bin[3 * i + 2] = C;
        g->ac[2 * i] = A, g->ac[2 * i + 1] = C;
        g->bstart[B + 1]++;
    }
    for (uint32_t b = 0; b < g->nnt; b++) g->bstart[b + 1] += g->bstart[b];
    /* by left-hand side: a counting sort of the (B, A, C)-sorted list keeps (B, C) order per A */
    g->astart = calloc((size_t)g->nnt + 1, sizeof(uint32_t));
    g->bc = malloc(sizeof(uint32_t) * 2 * (m ? m : 1));
    if (!g->astart || !g->bc) {
        free(t), free(u);
        return BULK_ERR_NOMEM;
    }
    for (size_t i = 0; i < m; i++) g->astart[g->bin[3 * i] + 1]++;
    for (uint32_t a = 0; a < g->nnt; a++) g->astart[a + 1] += g->astart[a];
    for (size_t i = 0; i < m; i++) {
        uint32_t *dst = g->bc + 2 * (size_t)g->astart[g->bin[3 * i]]++;
        dst[0] = g->bin[3 * i + 1], dst[1] = g->bin[3 * i + 2];
    }
    for (uint32_t a = g->nnt; a > 0; a--) g->astart[a] = g->astart[a - 1];
    g->astart[0] = 0;
    g->blist = malloc(sizeof(uint32_t) * ((size_t)g->nnt + 1));
    g->slice = malloc(sizeof(uint32_t) * ((size_t)g->nnt + 2));
    if (!g->blist || !g->slice) {
        free(t), free(u);
        return BULK_ERR_NOMEM;
    }
    g->nb = 0;
    for (uint32_t b = 0; b < g->nnt; b++)
        if (g->bstart[b] < g->bstart[b + 1]) g->blist[g->nb++] = b;
    g->nslice = 0;
    g->slice[0] = 0;
    for (uint32_t k = 0; k < g->nb; k++) { /* close a slice once it holds enough rules */
        uint32_t first = g->blist[g->slice[g->nslice]];
        if (g->bstart[g->blist[k] + 1] - g->bstart[first] >= BULK_CKY_SLICE_RULES || k + 1 == g->nb)
            g->slice[++g->nslice] = k + 1;
    }
    /* unary (A, t) -> sorted by (t, A) */
    for (size_t i = 0; i < nun; i++) u[2 * i] = un[2 * i + 1], u[2 * i + 1] = un[2 * i];
    qsort(u, nun, 2 * sizeof(uint32_t), cmp2);
    m = 0;
    for (size_t i = 0; i < nun; i++) {
        if (m && cmp2(u + 2 * i, u + 2 * (m - 1)) == 0) continue;
        u[2 * m] = u[2 * i], u[2 * m + 1] = u[2 * i + 1];
        m++;
    }
    g->nun = m;
    for (size_t i = 0; i < m; i++) {
        g->ulist[i] = u[2 * i + 1];
        g->ustart[u[2 * i] + 1]++;
    }
    for (uint32_t x = 0; x < g->nterm; x++) g->ustart[x + 1] += g->ustart[x];
    free(t), free(u);
    return BULK_OK;
}

/* Step 1 (TERM + BIN): rules of two or more symbols become chains of binary rules over fresh
 * non-terminals, terminals inside them get a non-terminal of their own; single terminals go to
 * term (A, t), single non-terminals to unit (A, B), empty rules to eps (A). *nnt grows by the
 * fresh non-terminals. */
static int cnf_term_bin(const bulk_cfg *cfg, uint32_t *nnt, u32vec *bin, u32vec *unit, u32vec *term, u32vec *eps)
{
    int st = BULK_ERR_NOMEM;
    uint32_t *termnt = malloc(sizeof(uint32_t) * (cfg->nterm ? cfg->nterm : 1));
    if (!termnt) return st;
    for (uint32_t x = 0; x < cfg->nterm; x++) termnt[x] = UINT32_MAX;
    for (uint32_t r = 0; r < cfg->nrules; r++) {
        uint32_t A = cfg->rule_lhs[r];
        uint32_t k = cfg->rule_off[r + 1] - cfg->rule_off[r];
        if (k == 0) {
            if (vpush(eps, A)) goto done;
            continue;
        }
        const int32_t *x = cfg->rhs + cfg->rule_off[r]; /* rhs is NULL when no rule has symbols */
        if (k == 1) {
            if (x[0] < 0) {
                if (vpush(term, A) || vpush(term, (uint32_t)(-x[0] - 1))) goto done;
            } else if ((uint32_t)x[0] != A) {
                if (vpush(unit, A) || vpush(unit, (uint32_t)x[0])) goto done;
            }
            continue;
        }
        uint32_t cur = A;
        for (uint32_t i = 0; i + 1 < k; i++) {
            uint32_t sym[2];
            for (int j = 0; j < 2; j++) {
                int32_t s = x[i + (uint32_t)j];
                if (j == 1 && i + 2 < k) { /* a fresh chain non-terminal */
                    sym[1] = (*nnt)++;
                    break;
                }
                if (s >= 0) sym[j] = (uint32_t)s;
                else {
                    uint32_t ti = (uint32_t)(-s - 1);
                    if (termnt[ti] == UINT32_MAX) {
                        termnt[ti] = (*nnt)++;
                        if (vpush(term, termnt[ti]) || vpush(term, ti)) goto done;
                    }
                    sym[j] = termnt[ti];
                }
            }
            if (vpush(bin, cur) || vpush(bin, sym[0]) || vpush(bin, sym[1])) goto done;
            cur = sym[1];
        }
    }
    st = BULK_OK;
done:
    free(termnt);
    return st;
}

/* Step 2 (DEL): the nullable fixpoint, then every binary rule with a nullable operand also
 * gives the unit rule of its other operand. Sets g->accepts_empty. */
static int cnf_del(bulk_grammar *g, uint32_t nnt, const u32vec *bin, u32vec *unit, const u32vec *eps)
{
    unsigned char *nullable = calloc(nnt, 1);
    if (!nullable) return BULK_ERR_NOMEM;
    for (size_t i = 0; i < eps->n; i++) nullable[eps->v[i]] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < unit->n; i += 2)
            if (!nullable[unit->v[i]] && nullable[unit->v[i + 1]]) nullable[unit->v[i]] = 1, changed = 1;
        for (size_t i = 0; i < bin->n; i += 3)
            if (!nullable[bin->v[i]] && nullable[bin->v[i + 1]] && nullable[bin->v[i + 2]])
                nullable[bin->v[i]] = 1, changed = 1;
    }
    g->accepts_empty = nullable[g->cfg.start];
    int st = BULK_OK;
    for (size_t i = 0, n = bin->n; i < n && st == BULK_OK; i += 3) {
        uint32_t A = bin->v[i], B = bin->v[i + 1], C = bin->v[i + 2];
        if (nullable[B] && C != A && (vpush(unit, A) || vpush(unit, C))) st = BULK_ERR_NOMEM;
        else if (nullable[C] && B != A && (vpush(unit, A) || vpush(unit, B))) st = BULK_ERR_NOMEM;
    }
    free(nullable);
    return st;
}

/* Offsets of a CSR by the first of every `stride` words of v (nnt + 1 entries, zeroed). */
static void csr_count(uint32_t *off, uint32_t nnt, const u32vec *v, size_t stride)
{
    for (size_t i = 0; i < v->n; i += stride) off[v->v[i] + 1]++;
    for (uint32_t a = 0; a < nnt; a++) off[a + 1] += off[a];
}

/* Step 3 (UNIT): for every A, the non-terminals B it reaches by unit rules (A itself included)
 * lend A their binary rules (into nb: A, B1, B2) and terminal rules (into nt: A, t). */
static int cnf_unit(uint32_t nnt, const u32vec *bin, const u32vec *unit, const u32vec *term, u32vec *nb, u32vec *nt)
{
    int st = BULK_ERR_NOMEM;
    uint32_t *adj_off = calloc((size_t)nnt + 1, sizeof *adj_off);
    uint32_t *bl_off = calloc((size_t)nnt + 1, sizeof *bl_off);
    uint32_t *tl_off = calloc((size_t)nnt + 1, sizeof *tl_off);
    uint32_t *adj = malloc(sizeof *adj * (unit->n / 2 + 1));
    uint32_t *bl = malloc(sizeof *bl * (bin->n / 3 + 1));
    uint32_t *tl = malloc(sizeof *tl * (term->n / 2 + 1));
    uint32_t *queue = malloc(sizeof *queue * nnt);
    unsigned char *reach = calloc(nnt, 1);
    uint32_t *fa = malloc(sizeof *fa * nnt), *fb = malloc(sizeof *fb * nnt), *ft = malloc(sizeof *ft * nnt);
    if (!adj_off || !bl_off || !tl_off || !adj || !bl || !tl || !queue || !reach || !fa || !fb || !ft) goto done;
    csr_count(adj_off, nnt, unit, 2);
    csr_count(bl_off, nnt, bin, 3);
    csr_count(tl_off, nnt, term, 2);
    memcpy(fa, adj_off, sizeof *fa * nnt), memcpy(fb, bl_off, sizeof *fb * nnt), memcpy(ft, tl_off, sizeof *ft * nnt);
    for (size_t i = 0; i < unit->n; i += 2) adj[fa[unit->v[i]]++] = unit->v[i + 1];
    for (size_t i = 0; i < bin->n; i += 3) bl[fb[bin->v[i]]++] = (uint32_t)(i / 3);
    for (size_t i = 0; i < term->n; i += 2) tl[ft[term->v[i]]++] = term->v[i + 1];
    for (uint32_t A = 0; A < nnt; A++) {
        size_t qh = 0, qt = 0;
        queue[qt++] = A;
        reach[A] = 1;
        while (qh < qt) {
            uint32_t B = queue[qh++];
            for (uint32_t e = adj_off[B]; e < adj_off[B + 1]; e++)
                if (!reach[adj[e]]) reach[adj[e]] = 1, queue[qt++] = adj[e];
            for (uint32_t e = bl_off[B]; e < bl_off[B + 1]; e++) {
                const uint32_t *r = bin->v + 3 * (size_t)bl[e];
                if (vpush(nb, A) || vpush(nb, r[1]) || vpush(nb, r[2])) goto done;
            }
            for (uint32_t e = tl_off[B]; e < tl_off[B + 1]; e++)
                if (vpush(nt, A) || vpush(nt, tl[e])) goto done;
        }
        for (size_t i = 0; i < qt; i++) reach[queue[i]] = 0;
    }
    st = BULK_OK;
done:
    free(adj_off), free(bl_off), free(tl_off), free(adj), free(bl), free(tl), free(queue), free(reach);
    free(fa), free(fb), free(ft);
    return st;
}

/* Step 4 (useless symbols): keeps the non-terminals that generate a string and are reachable
 * from the start through generating rules, renumbers them (the start becomes 0) and filters
 * nb and nt to them. Sets g->nnt and g->nterm. */
static int cnf_useless(bulk_grammar *g, uint32_t nnt, u32vec *nb, u32vec *nt)
{
    const uint32_t start = g->cfg.start;
    int st = BULK_ERR_NOMEM;
    unsigned char *gen = calloc(nnt, 1), *keep = calloc(nnt, 1);
    uint32_t *newid = malloc(sizeof *newid * nnt), *queue = malloc(sizeof *queue * nnt);
    uint32_t *off = calloc((size_t)nnt + 1, sizeof *off), *rl = malloc(sizeof *rl * (nb->n / 3 + 1));
    uint32_t *f = malloc(sizeof *f * nnt);
    if (!gen || !keep || !newid || !queue || !off || !rl || !f) goto done;
    for (size_t i = 0; i < nt->n; i += 2) gen[nt->v[i]] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < nb->n; i += 3)
            if (!gen[nb->v[i]] && gen[nb->v[i + 1]] && gen[nb->v[i + 2]]) gen[nb->v[i]] = 1, changed = 1;
    }
    /* reachability over generating rules: a CSR of nb by lhs */
    csr_count(off, nnt, nb, 3);
    memcpy(f, off, sizeof *f * nnt);
    for (size_t i = 0; i < nb->n; i += 3) rl[f[nb->v[i]]++] = (uint32_t)(i / 3);
    size_t qh = 0, qt = 0;
    queue[qt++] = start;
    keep[start] = 1;
    while (qh < qt) {
        uint32_t A = queue[qh++];
        for (uint32_t e = off[A]; e < off[A + 1]; e++) {
            const uint32_t *r = nb->v + 3 * (size_t)rl[e];
            if (!gen[r[1]] || !gen[r[2]]) continue;
            for (int j = 1; j <= 2; j++)
                if (!keep[r[j]]) keep[r[j]] = 1, queue[qt++] = r[j];
        }
    }
    uint32_t kept = 1;
    newid[start] = 0;
    for (uint32_t a = 0; a < nnt; a++)
        if (keep[a] && gen[a] && a != start) newid[a] = kept++;
    g->nnt = kept;
    g->nterm = g->cfg.nterm;
    size_t w = 0;
    for (size_t i = 0; i < nb->n; i += 3) {
        uint32_t A = nb->v[i], B = nb->v[i + 1], C = nb->v[i + 2];
        if (!keep[A] || !gen[A] || !gen[B] || !gen[C]) continue;
        nb->v[w++] = newid[A], nb->v[w++] = newid[B], nb->v[w++] = newid[C];
    }
    nb->n = w;
    w = 0;
    for (size_t i = 0; i < nt->n; i += 2) {
        if (!keep[nt->v[i]]) continue;
        nt->v[w++] = newid[nt->v[i]], nt->v[w++] = nt->v[i + 1];
    }
    nt->n = w;
    st = BULK_OK;
done:
    free(gen), free(keep), free(newid), free(queue), free(off), free(rl), free(f);
    return st;
}

int bulk_cnf_build(bulk_grammar *g)
{
    uint32_t nnt = g->cfg.nnt;
    u32vec bin = { 0 }, unit = { 0 }, term = { 0 }, eps = { 0 }, nb = { 0 }, nt = { 0 };
    int st = cnf_term_bin(&g->cfg, &nnt, &bin, &unit, &term, &eps);
    if (st == BULK_OK) st = cnf_del(g, nnt, &bin, &unit, &eps);
    if (st == BULK_OK) st = cnf_unit(nnt, &bin, &unit, &term, &nb, &nt);
    if (st == BULK_OK) st = cnf_useless(g, nnt, &nb, &nt);
    if (st == BULK_OK) st = bulk_cnf_index(g, nb.v, nb.n / 3, nt.v, nt.n / 2);
    free(bin.v), free(unit.v), free(term.v), free(eps.v), free(nb.v), free(nt.v);
    return st;
}
