/* Checks of the one error and progress model (bulk.h) shared by the areas' report tests:
 * EXPECT_FAIL runs a call that must fail and checks its status and that the last error names
 * the function; progress_log records the callbacks of one operation and checks their order. */
#ifndef BULK_TESTS_REPORT_CHECK_H
#define BULK_TESTS_REPORT_CHECK_H
#include <string.h>

#include "bulk/bulk.h"
#include "test_util.h"

/* Replaces the last error of ctx (NULL: the calling thread's) with one that does not name fn,
 * so that a message seen afterwards comes from the call under test. (The context's own
 * bulk_ctx_set_tune messages are told apart by their text: see test_ctx_report.c.) */
static inline void report_reset(bulk_ctx *ctx, const char *fn)
{
    bulk_backend b;
    if (ctx) bulk_ctx_set_tune(ctx, "no.such.key=1");
    else if (strcmp(fn, "bulk_backend_parse") != 0) bulk_backend_parse("no-such-backend", &b);
    else bulk_ctx_set_tune(NULL, "");
}

/* `call` (an expression) must give `want` and leave a last error on `ectx` (NULL: the
 * thread's) that starts with "fn: ". `value` of a call that returns no status is compared
 * as it is. */
#define EXPECT_FAIL(ectx, want, fn, call)                                                           \
    do {                                                                                           \
        report_reset(ectx, fn);                                                                    \
        long long got_ = (long long)(call);                                                        \
        const char *msg_ = bulk_ctx_last_error(ectx);                                              \
        CHECK(got_ == (long long)(want), "%s: %s gave %lld, want %lld", fn, #call, got_,           \
              (long long)(want));                                                                  \
        CHECK(strncmp(msg_, fn ": ", strlen(fn ": ")) == 0 && strlen(msg_) > strlen(fn ": "),       \
              "%s: the last error after %s is '%s', not '%s: ...'", fn, #call, msg_, fn);          \
    } while (0)

/* The callbacks of one operation. cancel_at > 0: the callback asks to stop at that call. */
typedef struct progress_log {
    int calls, starts, decreasing, cancel_at;
    double last, total;
    char op[32], unit[32];
} progress_log;

static inline int progress_log_fn(const bulk_progress *p, void *user)
{
    progress_log *l = user;
    if (l->calls == 0) {
        snprintf(l->op, sizeof l->op, "%s", p->op);
        snprintf(l->unit, sizeof l->unit, "%s", p->unit);
        l->total = p->total;
        l->starts += p->done == 0;
    } else if (p->done < l->last) {
        l->decreasing++;
    }
    l->last = p->done;
    l->calls++;
    return l->cancel_at > 0 && l->calls >= l->cancel_at;
}

/* After a successful operation: one start at 0, nondecreasing, last == total, op and unit. */
static inline void progress_log_check(const progress_log *l, const char *what, const char *op, const char *unit,
                                      double total)
{
    CHECK(l->calls >= 2 && l->starts == 1, "%s: %d calls, %d starting at 0", what, l->calls, l->starts);
    CHECK(l->decreasing == 0, "%s: done decreased %d times", what, l->decreasing);
    CHECK(l->total == total && l->last == total, "%s: total %g, last %g, want %g", what, l->total, l->last, total);
    CHECK(strcmp(l->op, op) == 0 && strcmp(l->unit, unit) == 0, "%s: op '%s' unit '%s', want '%s' '%s'", what,
          l->op, l->unit, op, unit);
}

#endif
