/* The sieve S of mandatory residues modulo 2^k (seed 004 section 3.1, Table 3).
 *
 * A depth-first walk over the low bits of n: a node at depth i fixes the i low bits p and holds
 * the state (j, c) with n = 2^i m + p -> 3^j m + c after i halvings and j odd steps. A child whose
 * 3^j drops below 2^(i+1) is eliminated: for every m >= 1 its value is then below n (checked
 * here: c + 3^j < 2^(i+1) + p, the m = 1 case, which implies all larger m), and that step
 * (i+1) + j is the glide of every n in the class, since before it 3^j >= 2^i kept the value
 * >= n. The walk is split at a fixed depth into subtrees that threads walk independently; a
 * counting pass sizes the arrays exactly, a second pass fills them at precomputed offsets, so the
 * stored order (subtree order, then depth-first) does not depend on the thread count. */
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"
#include "common/parallel.h"

struct node {
    uint64_t p, c;
    int j;
};

struct walk {
    int k, split;
    uint64_t counts[BULK_COLLATZ_MAX_K + 1]; /* alive nodes per depth */
    uint64_t G;                              /* glide sum of eliminated residues mod 2^k */
    int bad;                                 /* an elimination whose m = 1 check failed */
    const struct cz_conv *cv;                /* convergence mode (converge.c), else NULL */
    /* fill pass: where the leaves go */
    uint64_t *Sr, *Sc;
    uint8_t *Sj;
    uint64_t pos;
};

/* Convergence mode: the class of a surviving child (depth D, state (j, c), residue p) is proved
 * by a smaller number (converge.c) and leaves the sieve, its glides not computed. */
static int conv_proved(const struct walk *w, int D, int j, uint64_t c, uint64_t p)
{
    return w->cv && (bulk_cz_conv_merged(w->cv, D, p) || bulk_cz_conv_pred(w->cv, D, j, c, p));
}

static void walk_node(struct walk *w, int i, int j, uint64_t p, uint64_t c)
{
    w->counts[i]++;
    if (i == w->k) {
        if (w->Sr) {
            w->Sr[w->pos] = p;
            w->Sc[w->pos] = c;
            w->Sj[w->pos] = (uint8_t)j;
        }
        w->pos++;
        return;
    }
    for (int bit = 0; bit < 2; bit++) {
        int jj = j;
        uint64_t cc = c, pp = p | ((uint64_t)bit << i);
        if (cz_sieve_child(i, &jj, &cc, bit)) {
            if (!(cc + bulk_cz_pow3[jj] < ((uint64_t)1 << (i + 1)) + pp)) w->bad = 1;
            w->G += (uint64_t)(i + 1 + jj) << (w->k - (i + 1));
        } else if (!conv_proved(w, i + 1, jj, cc, pp)) {
            walk_node(w, i + 1, jj, pp, cc);
        }
    }
}

/* Nodes alive at depth `split`, in depth-first order, with the walk above them accounted in w. */
static void collect(struct walk *w, int i, int j, uint64_t p, uint64_t c, struct node *out,
                    size_t *n)
{
    if (i == w->split) {
        if (out) out[*n] = (struct node){ p, c, j };
        (*n)++;
        return;
    }
    if (out) w->counts[i]++;
    for (int bit = 0; bit < 2; bit++) {
        int jj = j;
        uint64_t cc = c, pp = p | ((uint64_t)bit << i);
        if (cz_sieve_child(i, &jj, &cc, bit)) {
            if (out) {
                if (!(cc + bulk_cz_pow3[jj] < ((uint64_t)1 << (i + 1)) + pp)) w->bad = 1;
                w->G += (uint64_t)(i + 1 + jj) << (w->k - (i + 1));
            }
        } else if (!conv_proved(w, i + 1, jj, cc, pp)) {
            collect(w, i + 1, jj, pp, cc, out, n);
        }
    }
}

struct job {
    const struct node *tasks;
    struct walk *walks; /* one per task */
    int k, split;
    uint64_t *Sr, *Sc;
    uint8_t *Sj;
    const uint64_t *offset; /* fill pass: first slot of each task */
    const struct cz_conv *cv;
};

static void run_tasks(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct job *job = arg;
    for (size_t t = begin; t < end; t++) {
        struct walk *w = &job->walks[t];
        memset(w, 0, sizeof *w);
        w->k = job->k;
        w->cv = job->cv;
        if (job->Sr) {
            w->Sr = job->Sr;
            w->Sc = job->Sc;
            w->Sj = job->Sj;
            w->pos = job->offset[t];
        }
        walk_node(w, job->split, job->tasks[t].j, job->tasks[t].p, job->tasks[t].c);
    }
}

/* Walks the sieve of k bits; fills counts[0..k], *G, *bad; stores the leaves when Sr != NULL
 * (arrays of exactly s_k entries, sized by a previous counting call). */
static int sieve_walk(int k, int threads, const struct cz_conv *cv, uint64_t *counts, uint64_t *G, int *bad,
                      uint64_t **Sr, uint64_t **Sc, uint8_t **Sj)
{
    struct walk top;
    memset(&top, 0, sizeof top);
    top.k = k;
    top.cv = cv;
    top.split = k < 12 ? k : 12;
    size_t ntasks = 0;
    collect(&top, 0, 0, 0, 0, NULL, &ntasks);
    struct node *tasks = malloc((ntasks ? ntasks : 1) * sizeof *tasks);
    struct walk *walks = calloc(ntasks ? ntasks : 1, sizeof *walks);
    uint64_t *offset = calloc(ntasks + 1, sizeof *offset);
    if (!tasks || !walks || !offset) {
        free(tasks);
        free(walks);
        free(offset);
        return BULK_ERR_NOMEM;
    }
    ntasks = 0;
    collect(&top, 0, 0, 0, 0, tasks, &ntasks);
    struct job job = { tasks, walks, k, top.split, NULL, NULL, NULL, NULL, cv };
    if (Sr) {
        /* offsets need each task's leaf count: a counting pass first */
        bulk_parallel_for(threads, ntasks, 1, run_tasks, &job);
        for (size_t t = 0; t < ntasks; t++) offset[t + 1] = offset[t] + walks[t].pos;
        uint64_t s = offset[ntasks] ? offset[ntasks] : 1;
        *Sr = malloc(s * sizeof **Sr);
        *Sc = malloc(s * sizeof **Sc);
        *Sj = malloc(s);
        if (!*Sr || !*Sc || !*Sj) {
            free(tasks);
            free(walks);
            free(offset);
            return BULK_ERR_NOMEM;
        }
        job.Sr = *Sr;
        job.Sc = *Sc;
        job.Sj = *Sj;
        job.offset = offset;
    }
    bulk_parallel_for(threads, ntasks, 1, run_tasks, &job);
    memset(counts, 0, (size_t)(k + 1) * sizeof *counts);
    for (int i = 0; i < top.split; i++) counts[i] = top.counts[i];
    uint64_t g = top.G;
    int b = top.bad;
    for (size_t t = 0; t < ntasks; t++) {
        for (int i = top.split; i <= k; i++) counts[i] += walks[t].counts[i];
        g += walks[t].G;
        b |= walks[t].bad;
    }
    *G = g;
    *bad = b;
    free(tasks);
    free(walks);
    free(offset);
    return BULK_OK;
}

int bulk_collatz_sieve_count(bulk_ctx *ctx, int k, uint64_t *counts)
{
    static const char fn[] = "bulk_collatz_sieve_count";
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: is NULL", fn);
    if (!counts) return bulk_fail(ctx, BULK_ERR_ARG, "%s: counts: is NULL", fn);
    if (k < 0 || k > BULK_COLLATZ_MAX_K)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: k = %d: is out of range [0, %d]", fn, k, BULK_COLLATZ_MAX_K);
    uint64_t G;
    int bad;
    int st = sieve_walk(k, bulk_ctx_threads(ctx), NULL, counts, &G, &bad, NULL, NULL, NULL);
    if (st == BULK_OK && bad) st = BULK_ERR_INTERNAL;
    return st == BULK_OK ? st : bulk_cz_fail_status(ctx, st, fn, "sieve walk");
}

int bulk_cz_build_sieve(struct bulk_collatz_engine *e, int threads)
{
    uint64_t counts[BULK_COLLATZ_MAX_K + 1];
    uint64_t G;
    int bad;
    int st = sieve_walk(e->k, threads, e->cv, counts, &G, &bad, &e->Sr, &e->Sc, &e->Sj);
    if (st != BULK_OK) return st;
    if (bad) return BULK_ERR_INTERNAL;
    e->s_k = counts[e->k];
    e->G_k = G;
    return BULK_OK;
}
