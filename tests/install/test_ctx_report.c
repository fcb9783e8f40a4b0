/* The error model of the context functions (include/bulk/bulk.h): each bad-argument case gives
 * its status and a last error that names the function (the thread's when there is no context). */
#include <stdlib.h>

#include "bulk/bulk.h"
#include "report_check.h"

static int no_progress(const bulk_progress *p, void *user)
{
    (void)p, (void)user;
    return 0;
}

int main(void)
{
    bulk_ctx *ctx = NULL;
    bulk_backend b;
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_ctx_open", bulk_ctx_open(NULL, BULK_BACKEND_CPU, 1));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_ctx_open", bulk_ctx_open(&ctx, (bulk_backend)7, 1));
    setenv("BULK_THREADS", "many", 1);
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_ctx_open", bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1));
    unsetenv("BULK_THREADS");
    setenv("BULK_BACKEND", "gpu", 1);
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_ctx_open", bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1));
    unsetenv("BULK_BACKEND");
    setenv("BULK_TUNE", "int.mul=nonsense", 1);
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_ctx_open", bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1));
    unsetenv("BULK_TUNE");
    if (bulk_cuda_device_count() == 0)
        EXPECT_FAIL(NULL, BULK_ERR_NO_BACKEND, "bulk_ctx_open", bulk_ctx_open(&ctx, BULK_BACKEND_CUDA, 1));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_backend_parse", bulk_backend_parse("gpu", &b));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_backend_parse", bulk_backend_parse(NULL, &b));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_backend_parse", bulk_backend_parse("cpu", NULL));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_ctx_set_tune", bulk_ctx_set_tune(NULL, ""));
    EXPECT_FAIL(NULL, 0, "bulk_ctx_set_progress", (bulk_ctx_set_progress(NULL, no_progress, NULL), 0));
    char msg[128];
    CHECK(bulk_tune_check("int.mul=nonsense", msg, sizeof msg) == BULK_ERR_ARG && msg[0], "bulk_tune_check: '%s'", msg);

    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1) != BULK_OK) {
        fprintf(stderr, "cannot open a CPU context: %s\n", bulk_ctx_last_error(NULL));
        return 1;
    }
    CHECK(bulk_ctx_last_error(ctx)[0] == 0, "a new context has a last error: '%s'", bulk_ctx_last_error(ctx));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_ctx_set_tune", bulk_ctx_set_tune(ctx, "int.mul=nonsense"));
    CHECK(strstr(bulk_ctx_last_error(ctx), "nonsense") != NULL, "set_tune: '%s'", bulk_ctx_last_error(ctx));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_ctx_set_tune", bulk_ctx_set_tune(ctx, "int.mul"));
    CHECK(strstr(bulk_ctx_last_error(ctx), "int.mul") != NULL, "set_tune: '%s'", bulk_ctx_last_error(ctx));
    /* a success leaves the message as it was */
    CHECK(bulk_ctx_set_tune(ctx, "") == BULK_OK, "set_tune defaults");
    CHECK(strncmp(bulk_ctx_last_error(ctx), "bulk_ctx_set_tune: ", 19) == 0, "a success changed the last error");
    bulk_ctx_close(ctx);
    bulk_ctx_close(NULL);
    return test_finish();
}
