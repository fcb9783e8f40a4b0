/* The chunk scheduler (programs/dist/dist_sched.c) in one process, with synthetic jobs whose chunk
 * results are known: results come back in chunk order; a checkpoint directory with some chunks
 * makes a rerun compute exactly the missing ones; files of another run are refused; a damaged
 * file is recomputed; --verify-chunks recomputes the chosen chunks and catches a chunk whose
 * recomputation differs (a "flipped bit"), removing its file. Random chunk counts and subsets
 * from a printed, replayable seed. */
#include <unistd.h>

#include "dist.h"
#include "test_util.h"

struct synth {
    uint64_t calls, *calls_per_chunk, flip_chunk; /* flip_chunk: its 2nd computation differs */
    uint64_t salt;
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 29);
}

static int synth_run(dist_job *job, uint64_t i, char **out, size_t *len)
{
    struct synth *s = job->state;
    s->calls++;
    uint64_t nth = ++s->calls_per_chunk[i];
    uint64_t v = mix(i * 1000003 + s->salt) ^ (i == s->flip_chunk && nth == 2 ? 1 : 0);
    char buf[64];
    int n = snprintf(buf, sizeof buf, "chunk %" PRIu64 " value %" PRIu64 "\n", i, v);
    *out = malloc((size_t)n + 1);
    if (!*out) return BULK_ERR_NOMEM;
    memcpy(*out, buf, (size_t)n + 1);
    *len = (size_t)n;
    return BULK_OK;
}

static int expected_ok(char **pay, size_t *len, uint64_t n, uint64_t salt)
{
    for (uint64_t i = 0; i < n; i++) {
        char buf[64];
        int k = snprintf(buf, sizeof buf, "chunk %" PRIu64 " value %" PRIu64 "\n", i,
                         mix(i * 1000003 + salt));
        if (len[i] != (size_t)k || memcmp(pay[i], buf, (size_t)k)) return 0;
    }
    return 1;
}

static int run(const char *ident, uint64_t n, struct synth *s, const dist_opts *o, char ***pay,
               size_t **len)
{
    dist_job job = { "test", ident, n, synth_run, s };
    memset(s->calls_per_chunk, 0, n * sizeof *s->calls_per_chunk);
    s->calls = 0;
    return dist_run(&job, o, pay, len);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv), st = seed;
    char dir[256], cmd[512];
    snprintf(dir, sizeof dir, "test_dist_sched.%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    for (int round = 0; round < 6; round++) {
        uint64_t n = 1 + test_rand(&st) % 200;
        struct synth s = { 0, calloc(n, sizeof(uint64_t)), UINT64_MAX, test_rand(&st) };
        char **pay;
        size_t *len;
        dist_opts o = { 0 };
        if (system(cmd)) return 2;

        /* no checkpoint: every chunk once, in order */
        CHECK(run("synth A", n, &s, &o, &pay, &len) == BULK_OK, "plain run");
        CHECK(s.calls == n && expected_ok(pay, len, n, s.salt), "plain run: %" PRIu64 " calls of %" PRIu64, s.calls, n);
        dist_free_payloads(pay, len, n);

        /* checkpoint: first run writes all; remove a random subset; rerun computes just those */
        o.checkpoint_dir = dir;
        CHECK(run("synth A", n, &s, &o, &pay, &len) == BULK_OK, "checkpoint run");
        dist_free_payloads(pay, len, n);
        uint64_t removed = 0;
        for (uint64_t i = 0; i < n; i++)
            if (test_rand(&st) % 3 == 0) {
                char p[512];
                snprintf(p, sizeof p, "%s/chunk-%010" PRIu64 ".txt", dir, i);
                CHECK(remove(p) == 0, "remove %s", p);
                removed++;
            }
        CHECK(run("synth A", n, &s, &o, &pay, &len) == BULK_OK, "resumed run");
        CHECK(s.calls == removed, "resume computed %" PRIu64 " chunks, %" PRIu64 " were missing", s.calls, removed);
        for (uint64_t i = 0; i < n; i++)
            CHECK(s.calls_per_chunk[i] <= 1, "chunk %" PRIu64 " computed twice", i);
        CHECK(expected_ok(pay, len, n, s.salt), "resumed results");
        dist_free_payloads(pay, len, n);

        /* a damaged file (one payload byte changed) is computed again, the result stays right */
        uint64_t d = test_rand(&st) % n;
        char p[512];
        snprintf(p, sizeof p, "%s/chunk-%010" PRIu64 ".txt", dir, d);
        FILE *fp = fopen(p, "r+b");
        CHECK(fp != NULL, "open %s", p);
        if (fp) {
            fseek(fp, -2, SEEK_END);
            fputc('x', fp);
            fclose(fp);
        }
        CHECK(run("synth A", n, &s, &o, &pay, &len) == BULK_OK, "run with a damaged file");
        CHECK(s.calls == 1 && s.calls_per_chunk[d] == 1, "damaged chunk %" PRIu64 ": %" PRIu64 " calls", d, s.calls);
        CHECK(expected_ok(pay, len, n, s.salt), "results after a damaged file");
        dist_free_payloads(pay, len, n);

        /* another run's directory is refused, nothing computed */
        CHECK(run("synth B", n, &s, &o, &pay, &len) == BULK_ERR_ARG && s.calls == 0 && !pay,
              "another run's checkpoint accepted");

        /* rechecks: all chunks recomputed (from the checkpoint) and equal */
        o.verify_fraction = 1;
        o.seed = test_rand(&st);
        CHECK(run("synth A", n, &s, &o, &pay, &len) == BULK_OK && s.calls == n, "full recheck: %" PRIu64 " calls", s.calls);
        dist_free_payloads(pay, len, n);

        /* a chunk whose recomputation differs is caught and its file removed */
        if (system(cmd)) return 2;
        s.flip_chunk = test_rand(&st) % n;
        CHECK(run("synth A", n, &s, &o, &pay, &len) == BULK_ERR_INTERNAL && !pay,
              "flipped chunk %" PRIu64 " not caught", s.flip_chunk);
        snprintf(p, sizeof p, "%s/chunk-%010" PRIu64 ".txt", dir, s.flip_chunk);
        CHECK(access(p, F_OK) != 0, "the differing chunk's file was kept");
        /* a partial fraction rechecks about that share, deterministically for a seed */
        o.verify_fraction = 0.25;
        s.flip_chunk = UINT64_MAX;
        if (system(cmd)) return 2;
        o.checkpoint_dir = NULL;
        CHECK(run("synth A", n, &s, &o, &pay, &len) == BULK_OK, "quarter recheck");
        uint64_t c1 = s.calls;
        dist_free_payloads(pay, len, n);
        CHECK(run("synth A", n, &s, &o, &pay, &len) == BULK_OK && s.calls == c1, "the same seed rechecks the same chunks");
        CHECK(c1 >= n && c1 <= 2 * n, "quarter recheck: %" PRIu64 " calls", c1);
        dist_free_payloads(pay, len, n);
        free(s.calls_per_chunk);
    }
    if (system(cmd)) return 2;
    return test_finish();
}
