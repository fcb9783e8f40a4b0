/* bulk_ctx_open and the environment (include/bulk/bulk.h): an invalid BULK_BACKEND or
 * BULK_THREADS is BULK_ERR_ARG whether or not it would be used; empty counts as unset;
 * BULK_THREADS sets the thread count only when the caller passes threads <= 0, and 0 there
 * means all online CPUs. */
#include <stdlib.h>
#include <unistd.h>

#include "bulk/bulk.h"
#include "test_util.h"

/* Opens a context under VAR=VALUE (NULL: unset); returns the status, *threads the count. */
static int open_with(const char *var, const char *value, bulk_backend want, int threads_arg, int *threads)
{
    if (value) setenv(var, value, 1);
    else unsetenv(var);
    bulk_ctx *ctx = NULL;
    int st = bulk_ctx_open(&ctx, want, threads_arg);
    *threads = st == BULK_OK ? bulk_ctx_threads(ctx) : -1;
    if (st == BULK_OK) bulk_ctx_close(ctx);
    else CHECK(ctx == NULL, "%s=%s: a failed open left a context", var, value ? value : "(unset)");
    unsetenv(var);
    return st;
}

int main(void)
{
    int t;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsetenv("BULK_BACKEND");
    unsetenv("BULK_THREADS");
    static const char *bad_threads[] = { "abc", "-1", "4097", "2x", " 3", "0x10" };
    for (size_t i = 0; i < sizeof bad_threads / sizeof *bad_threads; i++) {
        CHECK(open_with("BULK_THREADS", bad_threads[i], BULK_BACKEND_CPU, 0, &t) == BULK_ERR_ARG,
              "BULK_THREADS='%s' accepted", bad_threads[i]);
        CHECK(open_with("BULK_THREADS", bad_threads[i], BULK_BACKEND_CPU, 3, &t) == BULK_ERR_ARG,
              "BULK_THREADS='%s' accepted when --threads overrides it", bad_threads[i]);
    }
    static const char *bad_backends[] = { "gpu", "CPU", "cuda ", "1" };
    for (size_t i = 0; i < sizeof bad_backends / sizeof *bad_backends; i++) {
        CHECK(open_with("BULK_BACKEND", bad_backends[i], BULK_BACKEND_AUTO, 0, &t) == BULK_ERR_ARG,
              "BULK_BACKEND='%s' accepted", bad_backends[i]);
        CHECK(open_with("BULK_BACKEND", bad_backends[i], BULK_BACKEND_CPU, 0, &t) == BULK_ERR_ARG,
              "BULK_BACKEND='%s' accepted when the caller picks the CPU", bad_backends[i]);
    }
    CHECK(open_with("BULK_THREADS", "3", BULK_BACKEND_CPU, 0, &t) == BULK_OK && t == 3, "BULK_THREADS=3: %d", t);
    CHECK(open_with("BULK_THREADS", "3", BULK_BACKEND_CPU, 2, &t) == BULK_OK && t == 2, "threads 2 over BULK_THREADS=3: %d", t);
    CHECK(open_with("BULK_THREADS", "0", BULK_BACKEND_CPU, 0, &t) == BULK_OK && t == cpus, "BULK_THREADS=0: %d", t);
    CHECK(open_with("BULK_THREADS", "", BULK_BACKEND_CPU, 0, &t) == BULK_OK && t == cpus, "BULK_THREADS='': %d", t);
    CHECK(open_with("BULK_THREADS", NULL, BULK_BACKEND_CPU, 0, &t) == BULK_OK && t == cpus, "unset: %d", t);
    CHECK(open_with("BULK_BACKEND", "cpu", BULK_BACKEND_AUTO, 0, &t) == BULK_OK, "BULK_BACKEND=cpu");
    CHECK(open_with("BULK_BACKEND", "", BULK_BACKEND_AUTO, 0, &t) == BULK_OK, "BULK_BACKEND=''");
    return test_finish();
}
