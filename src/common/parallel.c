#include "common/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct job {
    size_t n, grain;
    atomic_size_t next;
    bulk_range_fn fn;
    void *arg;
};

struct worker {
    struct job *job;
    int id;
    pthread_t thread;
};

static void run_worker(struct job *job, int id)
{
    for (;;) {
        size_t begin = atomic_fetch_add(&job->next, job->grain);
        if (begin >= job->n) return;
        size_t end = job->n - begin < job->grain ? job->n : begin + job->grain;
        job->fn(job->arg, begin, end, id);
    }
}

static void *worker_main(void *p)
{
    struct worker *w = p;
    run_worker(w->job, w->id);
    return NULL;
}

int bulk_parallel_for(int threads, size_t n, size_t grain, bulk_range_fn fn, void *arg)
{
    if (n == 0) return 0;
    if (threads < 1) threads = 1;
    if ((size_t)threads > n) threads = (int)n;
    if (grain == 0) {
        grain = n / ((size_t)threads * 16);
        if (grain == 0) grain = 1;
    }
    struct job job = { .n = n, .grain = grain, .fn = fn, .arg = arg };
    atomic_init(&job.next, 0);
    if (threads == 1) {
        run_worker(&job, 0);
        return 0;
    }
    struct worker *ws = calloc((size_t)threads, sizeof *ws);
    int started = 0, status = 0;
    if (ws) {
        for (int i = 1; i < threads; i++) {
            ws[i].job = &job;
            ws[i].id = i;
            if (pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]) != 0) break;
            started = i;
        }
    }
    if (!ws || started < threads - 1) status = -2; /* BULK_ERR_NOMEM; work still completes */
    run_worker(&job, 0);
    for (int i = 1; i <= started; i++) pthread_join(ws[i].thread, NULL);
    free(ws);
    return status;
}
