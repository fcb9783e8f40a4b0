#include "cli_parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct cli_loop {
    size_t n, grain;
    atomic_size_t next;
    cli_range_fn fn;
    void *arg;
};

struct cli_thread {
    struct cli_loop *loop;
    int worker;
    pthread_t id;
};

static void take_ranges(struct cli_loop *l, int worker)
{
    size_t begin;
    while ((begin = atomic_fetch_add(&l->next, l->grain)) < l->n)
        l->fn(l->arg, begin, l->n - begin < l->grain ? l->n : begin + l->grain, worker);
}

static void *thread_main(void *p)
{
    struct cli_thread *t = p;
    take_ranges(t->loop, t->worker);
    return NULL;
}

void cli_parallel_for(int threads, size_t n, size_t grain, cli_range_fn fn, void *arg)
{
    if (n == 0) return;
    size_t t = threads < 1 ? 1 : (size_t)threads;
    if (t > n) t = n;
    struct cli_loop l = { .n = n, .grain = grain ? grain : (n / (t * 16) ? n / (t * 16) : 1),
                          .fn = fn, .arg = arg };
    atomic_init(&l.next, 0);
    struct cli_thread *ts = t > 1 ? calloc(t, sizeof *ts) : NULL;
    size_t started = 1;
    for (; ts && started < t; started++) {
        ts[started] = (struct cli_thread){ &l, (int)started, 0 };
        if (pthread_create(&ts[started].id, NULL, thread_main, &ts[started]) != 0) break;
    }
    take_ranges(&l, 0);
    for (size_t i = 1; ts && i < started; i++) pthread_join(ts[i].id, NULL);
    free(ts);
}
