/* The chunk scheduler of distributed runs (dist.h): rank 0 hands out chunks on demand, collects
 * and checkpoints the results, schedules rechecks on a different rank, and returns the results
 * in chunk order. Workers (every other rank, and a compute thread of rank 0) loop: ask, compute,
 * send the result (which is also the next request).
 *
 * Messages (tags below): a worker sends RES = header {chunk, kind, status} + payload; kind 0 is
 * the first request (no result), 1 a computed chunk, 2 a recheck. Rank 0 answers TASK = {chunk,
 * kind} with kind 0 = stop, 1 = compute, 2 = recompute for comparison. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "atomic_file.h"
#include "splitmix.h"
#include "dist.h"
#include "dist_comm.h"

enum { TAG_RES = 11, TAG_TASK = 12 };
enum { K_STOP = 0, K_RUN = 1, K_CHECK = 2, K_WAIT = 3 };

struct hdr {
    uint64_t chunk;
    int32_t kind, status;
};

struct sched {
    dist_job *job;
    const dist_opts *o;
    uint64_t n, next_todo, ndone, nchecks, nchecks_done, loaded, computed;
    uint8_t *state;       /* 0 to do, 1 handed out, 2 done */
    uint8_t *check;       /* 0 no recheck, 1 wanted, 2 handed out, 3 done */
    int *done_by;         /* rank that computed it; -1 loaded from the checkpoint */
    char **pay;
    size_t *len;
    uint64_t *per_rank;
    int size, failed, fail_code;
    char msg[1024];
    pthread_mutex_t m;
};

uint64_t dist_fnv1a(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* SplitMix64's output for state x (a pure function of x: the state copy is discarded). */
static uint64_t splitmix(uint64_t x) { return bulk_splitmix64(&x); }

static void fail(struct sched *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(struct sched *s, int code, const char *fmt, ...)
{
    if (s->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    s->failed = 1;
    s->fail_code = code;
}

/* ---- the checkpoint directory ---------------------------------------------------------------- */

static void chunk_path(const struct sched *s, uint64_t i, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/chunk-%010" PRIu64 ".txt", s->o->checkpoint_dir, i);
}

static int write_chunk(struct sched *s, uint64_t i)
{
    char path[4096];
    chunk_path(s, i, path, sizeof path);
    size_t hl = strlen(s->job->identity) + 200, tot = hl + s->len[i];
    char *buf = malloc(tot);
    if (!buf) return -1;
    int h = snprintf(buf, hl, "bulk dist chunk 1\nidentity %s\nchunk %" PRIu64 " of %" PRIu64
                     "\nchecksum %016" PRIx64 "\nbytes %zu\n", s->job->identity, i, s->n,
                     dist_fnv1a(s->pay[i], s->len[i]), s->len[i]);
    memcpy(buf + h, s->pay[i], s->len[i]);
    int r = bulk_write_file_atomic(path, buf, (size_t)h + s->len[i]);
    free(buf);
    return r;
}

/* Loads chunk i when its file exists: 1 loaded, 0 absent or damaged (recomputed, with a
 * warning), -1 a file of another run (refused). */
static int load_chunk(struct sched *s, uint64_t i)
{
    char path[4096];
    chunk_path(s, i, path, sizeof path);
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    if (!buf || fread(buf, 1, (size_t)size, fp) != (size_t)size) {
        fclose(fp);
        free(buf);
        cli_warn("%s: cannot read it; the chunk is computed again", path);
        return 0;
    }
    fclose(fp);
    buf[size] = 0;
    char *lines[5], *p = buf;
    for (int l = 0; l < 5; l++) {
        char *nl = strchr(p, '\n');
        if (!nl) {
            free(buf);
            cli_warn("%s:%d: truncated header; the chunk is computed again", path, l + 1);
            return 0;
        }
        *nl = 0;
        lines[l] = p;
        p = nl + 1;
    }
    if (strcmp(lines[0], "bulk dist chunk 1")) {
        free(buf);
        fail(s, 2, "%s:1: not a chunk file of bulk (remove it, or use another --checkpoint)", path);
        return -1;
    }
    if (strncmp(lines[1], "identity ", 9) || strcmp(lines[1] + 9, s->job->identity)) {
        fail(s, 2, "%s:2: this checkpoint belongs to another run (%s); this run is %s — use "
             "another --checkpoint directory", path, lines[1] + (strncmp(lines[1], "identity ", 9) ? 0 : 9),
             s->job->identity);
        free(buf);
        return -1;
    }
    uint64_t ci, cn, sum;
    size_t bytes;
    if (sscanf(lines[2], "chunk %" SCNu64 " of %" SCNu64, &ci, &cn) != 2 || ci != i || cn != s->n ||
        sscanf(lines[3], "checksum %" SCNx64, &sum) != 1 || sscanf(lines[4], "bytes %zu", &bytes) != 1 ||
        (size_t)(buf + size - p) != bytes || dist_fnv1a(p, bytes) != sum) {
        free(buf);
        cli_warn("%s: damaged (header or checksum does not match); the chunk is computed again", path);
        return 0;
    }
    s->pay[i] = malloc(bytes + 1);
    if (!s->pay[i]) {
        free(buf);
        return 0;
    }
    memcpy(s->pay[i], p, bytes);
    s->pay[i][bytes] = 0;
    s->len[i] = bytes;
    free(buf);
    return 1;
}

static void open_checkpoint(struct sched *s)
{
    const char *dir = s->o->checkpoint_dir;
    if (!dir) return;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fail(s, 1, "--checkpoint %s: cannot create the directory (%s)", dir, strerror(errno));
        return;
    }
    char path[4096], text[4096];
    snprintf(path, sizeof path, "%s/run.txt", dir);
    int tl = snprintf(text, sizeof text, "%s\n", s->job->identity);
    FILE *fp = fopen(path, "r");
    if (fp) {
        char got[4096] = "";
        if (!fgets(got, sizeof got, fp)) got[0] = 0;
        fclose(fp);
        if (strcmp(got, text)) {
            got[strcspn(got, "\n")] = 0;
            fail(s, 2, "%s:1: the checkpoint directory belongs to another run (%s); this run is "
                 "%s — use another --checkpoint directory", path, got, s->job->identity);
            return;
        }
    } else if (bulk_write_file_atomic(path, text, (size_t)tl) != 0) {
        fail(s, 1, "--checkpoint %s: cannot write %s (%s)", dir, path, strerror(errno));
        return;
    }
    for (uint64_t i = 0; i < s->n && !s->failed; i++) {
        int r = load_chunk(s, i);
        if (r == 1) {
            s->state[i] = 2;
            s->done_by[i] = -1;
            s->ndone++;
            s->loaded++;
        }
    }
}

/* ---- rank 0's bookkeeping (s->m held) ---------------------------------------------------------- */

static struct hdr take(struct sched *s, int rank)
{
    struct hdr t = { 0, K_STOP, 0 };
    if (s->failed) return t;
    while (s->next_todo < s->n && s->state[s->next_todo]) s->next_todo++;
    if (s->next_todo < s->n) {
        t.chunk = s->next_todo;
        t.kind = K_RUN;
        s->state[t.chunk] = 1;
        return t;
    }
    for (uint64_t i = 0; i < s->n && s->nchecks_done < s->nchecks; i++)
        if (s->check[i] == 1 && s->state[i] == 2 &&
            (s->done_by[i] != rank || s->size == 1)) {
            s->check[i] = 2;
            t.chunk = i;
            t.kind = K_CHECK;
            return t;
        }
    if (s->ndone == s->n && s->nchecks_done == s->nchecks) return t;
    t.kind = K_WAIT;
    return t;
}

static void put(struct sched *s, int rank, struct hdr h, char *pay, size_t len)
{
    if (h.kind == 0) {
        free(pay);
        return;
    }
    if (h.chunk >= s->n) {
        fail(s, 1, "rank %d sent a result for chunk %" PRIu64 " of %" PRIu64, rank, h.chunk, s->n);
        free(pay);
        return;
    }
    if (h.status != BULK_OK) {
        fail(s, 1, "chunk %" PRIu64 " failed on rank %d: %s", h.chunk, rank,
             pay && *pay ? pay : bulk_status_string(h.status));
        free(pay);
        return;
    }
    uint64_t i = h.chunk;
    if (h.kind == K_RUN) {
        s->pay[i] = pay;
        s->len[i] = len;
        s->state[i] = 2;
        s->done_by[i] = rank;
        s->ndone++;
        s->computed++;
        s->per_rank[rank]++;
        if (s->o->checkpoint_dir && write_chunk(s, i) != 0)
            fail(s, 1, "--checkpoint %s: cannot write chunk %" PRIu64 " (%s)",
                 s->o->checkpoint_dir, i, strerror(errno));
        return;
    }
    s->check[i] = 3;
    s->nchecks_done++;
    if (len != s->len[i] || memcmp(pay, s->pay[i], len)) {
        char by[64];
        if (s->done_by[i] < 0) snprintf(by, sizeof by, "the checkpoint file");
        else snprintf(by, sizeof by, "rank %d", s->done_by[i]);
        fail(s, 1, "chunk %" PRIu64 ": the recheck on rank %d (checksum %016" PRIx64
             ") differs from the result of %s (checksum %016" PRIx64 "); the chunk's "
             "checkpoint file was removed, so a rerun computes it again",
             i, rank, dist_fnv1a(pay, len), by, dist_fnv1a(s->pay[i], s->len[i]));
        if (s->o->checkpoint_dir) {
            char path[4096];
            chunk_path(s, i, path, sizeof path);
            remove(path);
        }
    }
    free(pay);
}

/* ---- workers --------------------------------------------------------------------------------- */

static int compute(dist_job *job, struct hdr t, char **pay, size_t *len)
{
    int st = job->run(job, t.chunk, pay, len);
    if (st != BULK_OK) {
        free(*pay);
        *pay = NULL;
        *len = 0;
    }
#ifdef BULK_DIST_TEST_CHUNK_SLEEP_MS
    /* only in the test build of the CLI (tests/mpi: bulk_slowchunks): every chunk takes this
     * many milliseconds more, so that the tests can kill a run midway */
    struct timespec ts = { BULK_DIST_TEST_CHUNK_SLEEP_MS / 1000,
                           (long)(BULK_DIST_TEST_CHUNK_SLEEP_MS % 1000) * 1000000L };
    nanosleep(&ts, NULL);
#endif
    return st;
}

static void *local_worker(void *arg)
{
    struct sched *s = arg;
    struct timespec nap = { 0, 1000000 };
    for (;;) {
        pthread_mutex_lock(&s->m);
        struct hdr t = take(s, 0);
        pthread_mutex_unlock(&s->m);
        if (t.kind == K_STOP) return NULL;
        if (t.kind == K_WAIT) {
            nanosleep(&nap, NULL);
            continue;
        }
        char *pay = NULL;
        size_t len = 0;
        t.status = compute(s->job, t, &pay, &len);
        pthread_mutex_lock(&s->m);
        put(s, 0, t, pay, len);
        pthread_mutex_unlock(&s->m);
    }
}

static int send_res(struct hdr h, const char *pay, size_t len)
{
    char *buf = malloc(sizeof h + len);
    if (!buf) return -1;
    memcpy(buf, &h, sizeof h);
    if (len) memcpy(buf + sizeof h, pay, len);
    int r = dist_comm_send(0, TAG_RES, buf, sizeof h + len);
    free(buf);
    return r;
}

static int remote_worker(dist_job *job)
{
    struct hdr h = { 0, 0, 0 };
    if (send_res(h, NULL, 0)) return BULK_ERR_IO;
    for (;;) {
        char *buf;
        size_t len;
        if (dist_comm_wait(0, TAG_TASK, NULL, &buf, &len) || len != sizeof h) return BULK_ERR_IO;
        memcpy(&h, buf, sizeof h);
        free(buf);
        if (h.kind == K_STOP) return BULK_OK;
        char *pay = NULL;
        size_t plen = 0;
        h.status = compute(job, h, &pay, &plen);
        if (h.status != BULK_OK) { /* the message names the status; rank 0 reports it */
            const char *m = bulk_status_string(h.status);
            pay = strdup(m);
            plen = pay ? strlen(pay) + 1 : 0;
        }
        int r = send_res(h, pay, plen);
        free(pay);
        if (r) return BULK_ERR_IO;
    }
}

/* ---- rank 0 ------------------------------------------------------------------------------------ */

int dist_run(dist_job *job, const dist_opts *o, char ***payloads, size_t **lens)
{
    *payloads = NULL;
    *lens = NULL;
    if (dist_comm_rank() != 0) return remote_worker(job);

    struct sched s;
    memset(&s, 0, sizeof s);
    s.job = job;
    s.o = o;
    s.n = job->nchunks;
    s.size = dist_comm_size();
    s.state = calloc(s.n, 1);
    s.check = calloc(s.n, 1);
    s.done_by = calloc(s.n, sizeof *s.done_by);
    s.pay = calloc(s.n, sizeof *s.pay);
    s.len = calloc(s.n, sizeof *s.len);
    s.per_rank = calloc((size_t)s.size, sizeof *s.per_rank);
    if (!s.state || !s.check || !s.done_by || !s.pay || !s.len || !s.per_rank)
        cli_die(CLI_EXIT_FAIL, "%s: out of memory (%" PRIu64 " chunks)", job->name, s.n);
    pthread_mutex_init(&s.m, NULL);
    open_checkpoint(&s);
    if (o->verify_fraction > 0) {
        for (uint64_t i = 0; i < s.n; i++)
            if ((double)(splitmix(o->seed ^ splitmix(i)) >> 11) * 0x1p-53 < o->verify_fraction) {
                s.check[i] = 1;
                s.nchecks++;
            }
        fprintf(stderr, "bulk: %s: rechecking %" PRIu64 " of %" PRIu64 " chunks (--verify-chunks %g "
                "--seed %" PRIu64 ")%s\n", job->name, s.nchecks, s.n, o->verify_fraction, o->seed,
                s.size == 1 ? "; one rank only, so on the same rank" : "");
    }
    double t0 = (double)clock();
    pthread_t th;
    if (pthread_create(&th, NULL, local_worker, &s) != 0)
        cli_die(CLI_EXIT_FAIL, "%s: cannot start the compute thread", job->name);

    int *pending = calloc((size_t)s.size, sizeof *pending), stopped = 0;
    struct timespec nap = { 0, 200000 };
    while (stopped < s.size - 1) {
        int from, tag;
        size_t len;
        int got = dist_comm_poll(TAG_RES, &from, &tag, &len);
        pthread_mutex_lock(&s.m);
        if (got) {
            char *buf;
            if (dist_comm_recv(from, TAG_RES, &buf, len) || len < sizeof(struct hdr)) {
                fail(&s, 1, "a message from rank %d could not be received", from);
            } else {
                struct hdr h;
                memcpy(&h, buf, sizeof h);
                size_t pl = len - sizeof h;
                char *pay = malloc(pl + 1);
                if (pay) {
                    memcpy(pay, buf + sizeof h, pl);
                    pay[pl] = 0;
                }
                free(buf);
                put(&s, from, h, pay, pl);
                pending[from] = 1;
            }
        }
        /* serve every rank waiting for work (new rechecks may have become possible) */
        for (int r = 1; r < s.size; r++) {
            if (!pending[r]) continue;
            struct hdr t = take(&s, r);
            if (t.kind == K_WAIT) continue;
            pending[r] = 0;
            if (t.kind == K_STOP) stopped++;
            if (dist_comm_send(r, TAG_TASK, &t, sizeof t))
                fail(&s, 1, "cannot send to rank %d", r);
        }
        pthread_mutex_unlock(&s.m);
        if (!got) nanosleep(&nap, NULL);
    }
    pthread_join(th, NULL);
    free(pending);
    (void)t0;

    if (!s.failed) {
        fprintf(stderr, "bulk: %s: %" PRIu64 " chunks, %d rank%s: %" PRIu64 " from the checkpoint, "
                "%" PRIu64 " computed (per rank:", job->name, s.n, s.size, s.size > 1 ? "s" : "",
                s.loaded, s.computed);
        for (int r = 0; r < s.size; r++) fprintf(stderr, " %" PRIu64, s.per_rank[r]);
        fprintf(stderr, ")");
        if (s.nchecks) fprintf(stderr, ", %" PRIu64 " rechecked, all equal", s.nchecks_done);
        fprintf(stderr, "\n");
    }
    free(s.state);
    free(s.check);
    free(s.done_by);
    free(s.per_rank);
    pthread_mutex_destroy(&s.m);
    if (s.failed) {
        fprintf(stderr, "bulk: %s: %s\n", job->name, s.msg);
        dist_free_payloads(s.pay, s.len, s.n);
        return s.fail_code == 2 ? BULK_ERR_ARG : BULK_ERR_INTERNAL;
    }
    *payloads = s.pay;
    *lens = s.len;
    return BULK_OK;
}

void dist_free_payloads(char **payloads, size_t *lens, uint64_t n)
{
    if (payloads)
        for (uint64_t i = 0; i < n; i++) free(payloads[i]);
    free(payloads);
    free(lens);
}

int dist_parse_opt(int argc, char **argv, int *i, dist_opts *o)
{
    const char *v;
    if ((v = cli_opt_value(argc, argv, i, "--checkpoint"))) {
        o->checkpoint_dir = v;
        return 1;
    }
    if ((v = cli_opt_value(argc, argv, i, "--verify-chunks"))) {
        char *end;
        double f = strtod(v, &end);
        if (*end || !(f >= 0 && f <= 1))
            cli_die(CLI_EXIT_USAGE, "--verify-chunks: '%s' is not a fraction between 0 and 1", v);
        o->verify_fraction = f;
        return 1;
    }
    if ((v = cli_opt_value(argc, argv, i, "--seed"))) {
        o->seed = (uint64_t)cli_parse_ll("--seed", v, 0, INT64_MAX);
        o->seed_given = 1;
        return 1;
    }
    return 0;
}
