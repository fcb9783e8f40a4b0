/* Bad arguments of every public function of bulk/int.h and of the fallible ones of bulk/mpn.h:
 * each checked case returns its status and leaves a last error that names the function (and,
 * for a width, the offending value). Also: per-instance errors name the lowest failing
 * instance. bulk/int_device.h on a CPU context: every function refuses with
 * BULK_ERR_NO_BACKEND naming itself (its shape checks need a device: test_int_gpu). */
#include "bulk/bulk.h"
#include "bulk/int.h"
#include "bulk/int_device.h"
#include "bulk/mpn.h"
#include "test_util.h"

/* st must be want, and the last error of ctx (NULL: the thread's) must contain fn and, when
 * given, also `what`. */
static void expect(const char *label, bulk_ctx *ctx, int st, int want, const char *fn, const char *what)
{
    const char *msg = bulk_ctx_last_error(ctx);
    CHECK(st == want, "%s: status %d, expected %d", label, st, want);
    CHECK(msg && msg[0], "%s: no last error", label);
    CHECK(msg && strncmp(msg, fn, strlen(fn)) == 0 && msg[strlen(fn)] == ':',
          "%s: last error '%s' does not start with '%s:'", label, msg ? msg : "(null)", fn);
    CHECK(!what || (msg && strstr(msg, what)), "%s: last error '%s' does not say '%s'", label,
          msg ? msg : "(null)", what);
}

int main(void)
{
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) != BULK_OK) {
        fprintf(stderr, "cannot open a CPU context\n");
        return 1;
    }
    enum { L = 2, N = 3 };
    bulk_limb_t a[N * L] = { 5, 0, 7, 0, 9, 0 }, b[N * L] = { 3, 0, 0, 0, 4, 0 };
    bulk_limb_t r[2 * N * L], q[2 * N * L], wide[2 * N * L] = { 0 };
    uint8_t fl[N];
    int8_t err[N];
    const size_t big = (size_t)1 << 21;

    expect("set_methods NULL ctx", NULL, bulk_int_set_methods(NULL, 0, 0, 0), BULK_ERR_ARG,
           "bulk_int_set_methods", "ctx");
    expect("set_methods mul", ctx, bulk_int_set_methods(ctx, (bulk_mul_method)99, 0, 0), BULK_ERR_ARG,
           "bulk_int_set_methods", "mul 99");
    expect("set_methods div", ctx, bulk_int_set_methods(ctx, 0, (bulk_div_method)-1, 0), BULK_ERR_ARG,
           "bulk_int_set_methods", "div -1");
    expect("set_methods gcd", ctx, bulk_int_set_methods(ctx, 0, 0, (bulk_gcd_method)7), BULK_ERR_ARG,
           "bulk_int_set_methods", "gcd 7");

    expect("add limbs 0", ctx, bulk_int_add(ctx, r, fl, a, b, N, 0), BULK_ERR_ARG, "bulk_int_add", "limbs 0");
    expect("add NULL b", ctx, bulk_int_add(ctx, r, fl, a, NULL, N, L), BULK_ERR_ARG, "bulk_int_add", "b");
    expect("add partial overlap", ctx, bulk_int_add(ctx, a + 1, fl, a, b, 2, L), BULK_ERR_ARG,
           "bulk_int_add", "overlaps");
    expect("add NULL ctx", NULL, bulk_int_add(NULL, r, fl, a, b, N, L), BULK_ERR_ARG, "bulk_int_add", "ctx");
    expect("sub limbs too wide", ctx, bulk_int_sub(ctx, r, fl, a, b, 1, big), BULK_ERR_ARG,
           "bulk_int_sub", "limbs 2097152");
    expect("mul r == a", ctx, bulk_int_mul(ctx, a, a, b, N, L), BULK_ERR_ARG, "bulk_int_mul", "overlaps");
    expect("mul n too large", ctx, bulk_int_mul(ctx, r, a, b, SIZE_MAX / 4, L), BULK_ERR_ARG,
           "bulk_int_mul", "n ");
    expect("sqr NULL r", ctx, bulk_int_sqr(ctx, NULL, a, N, L), BULK_ERR_ARG, "bulk_int_sqr", "r");
    expect("mul_lo NULL a", ctx, bulk_int_mul_lo(ctx, r, NULL, b, N, L), BULK_ERR_ARG, "bulk_int_mul_lo", "a");
    expect("cmp NULL r", ctx, bulk_int_cmp(ctx, NULL, a, b, N, L), BULK_ERR_ARG, "bulk_int_cmp", "r");
    expect("cmp overlap", ctx, bulk_int_cmp(ctx, (int8_t *)a, a, b, N, L), BULK_ERR_ARG, "bulk_int_cmp",
           "overlaps");
    expect("shl limbs 0", ctx, bulk_int_shl(ctx, r, a, 3, N, 0), BULK_ERR_ARG, "bulk_int_shl", "limbs 0");
    expect("shr NULL a", ctx, bulk_int_shr(ctx, r, NULL, 3, N, L), BULK_ERR_ARG, "bulk_int_shr", "a");
    expect("divmod a_limbs", ctx, bulk_int_divmod(ctx, q, r, a, 3, b, N, L, err), BULK_ERR_ARG,
           "bulk_int_divmod", "a_limbs 3");
    expect("divmod NULL d", ctx, bulk_int_divmod(ctx, q, r, a, L, NULL, N, L, err), BULK_ERR_ARG,
           "bulk_int_divmod", "d");
    expect("divmod q over a", ctx, bulk_int_divmod(ctx, a, r, a, L, b, N, L, err), BULK_ERR_ARG,
           "bulk_int_divmod", "overlap");
    /* b[1] = 0: instance 1 divides by zero and is named */
    expect("divmod by zero", ctx, bulk_int_divmod(ctx, q, r, a, L, b, N, L, err), BULK_ERR_DIVZERO,
           "bulk_int_divmod", "instance 1");
    CHECK(err[0] == 0 && err[1] == BULK_ERR_DIVZERO && err[2] == 0, "divmod err[] %d %d %d", err[0],
          err[1], err[2]);
    expect("gcd NULL g", ctx, bulk_int_gcd(ctx, NULL, a, b, N, L), BULK_ERR_ARG, "bulk_int_gcd", "g");
    expect("gcd overlap", ctx, bulk_int_gcd(ctx, b, a, b, N, L), BULK_ERR_ARG, "bulk_int_gcd", "overlaps");
    expect("invmod NULL m", ctx, bulk_int_invmod(ctx, r, a, NULL, N, L, err), BULK_ERR_ARG,
           "bulk_int_invmod", "m");
    expect("invmod m = 0", ctx, bulk_int_invmod(ctx, r, a, b, N, L, err), BULK_ERR_DIVZERO,
           "bulk_int_invmod", "instance 1");
    expect("powmod NULL exp", ctx, bulk_int_powmod(ctx, r, a, NULL, b, N, L, err), BULK_ERR_ARG,
           "bulk_int_powmod", "exp");
    expect("powmod even m", ctx, bulk_int_powmod(ctx, r, a, a, b, N, L, err), BULK_ERR_EVEN_MODULUS,
           "bulk_int_powmod", "instance 1");

    /* text */
    char buf[128];
    size_t len = 0, pos = 0;
    CHECK(bulk_int_str_size(1, 8) == 0 && bulk_int_str_size(big, 10) == 0, "str_size of bad arguments");
    expect("from_str NULL s", NULL, bulk_int_from_str(r, NULL, L, 0, &pos), BULK_ERR_ARG,
           "bulk_int_from_str", "s");
    expect("from_str base 8", NULL, bulk_int_from_str(r, "7", L, 8, &pos), BULK_ERR_ARG,
           "bulk_int_from_str", "base 8");
    expect("from_str bad digit", NULL, bulk_int_from_str(r, "12a", L, 10, &pos), BULK_ERR_PARSE,
           "bulk_int_from_str", "character 3");
    CHECK(pos == 2, "from_str bad digit at %zu", pos);
    expect("from_str too wide", NULL, bulk_int_from_str(r, "0x100000000000000000000000000000000", L, 0, NULL),
           BULK_ERR_OVERFLOW, "bulk_int_from_str", "wider than 2 limbs");
    expect("from_strn limbs 0", NULL, bulk_int_from_strn(r, "1", 1, 0, 0, NULL), BULK_ERR_ARG,
           "bulk_int_from_strn", "limbs 0");
    expect("from_strn NUL inside", NULL, bulk_int_from_strn(r, "1\0002", 3, L, 10, &pos), BULK_ERR_PARSE,
           "bulk_int_from_strn", "character 2");
    expect("to_str NULL buf", NULL, bulk_int_to_str(NULL, 9, a, L, 10, &len), BULK_ERR_ARG, "bulk_int_to_str",
           "buf");
    expect("to_str base 2", NULL, bulk_int_to_str(buf, sizeof buf, a, L, 2, &len), BULK_ERR_ARG,
           "bulk_int_to_str", "base 2");
    expect("to_str tight", NULL, bulk_int_to_str(buf, 1, a, L, 10, &len), BULK_ERR_OVERFLOW,
           "bulk_int_to_str", "cap 1");
    CHECK(len == 1, "to_str tight: needs %zu, expected 1", len);
    const char *texts[N] = { "1", "x", "3" };
    expect("from_strs instance", ctx, bulk_int_from_strs(ctx, r, texts, N, L, 10, err), BULK_ERR_PARSE,
           "bulk_int_from_strs", "instance 1");
    expect("from_strs NULL ctx", NULL, bulk_int_from_strs(NULL, r, texts, N, L, 10, err), BULK_ERR_ARG,
           "bulk_int_from_strs", "ctx");
    expect("from_strs base", ctx, bulk_int_from_strs(ctx, r, texts, N, L, 3, err), BULK_ERR_ARG,
           "bulk_int_from_strs", "base 3");
    expect("to_strs stride", ctx, bulk_int_to_strs(ctx, buf, 2, a, N, L, 10), BULK_ERR_ARG,
           "bulk_int_to_strs", "stride 2");
    expect("to_strs NULL a", ctx, bulk_int_to_strs(ctx, buf, 40, NULL, N, L, 10), BULK_ERR_ARG,
           "bulk_int_to_strs", "a");
    expect("from_expr NULL r", NULL, bulk_int_from_expr(NULL, "1", 3, NULL), BULK_ERR_ARG,
           "bulk_int_from_expr", "r");
    expect("from_expr limbs", NULL, bulk_int_from_expr(r, "1", 0, NULL), BULK_ERR_ARG,
           "bulk_int_from_expr", "limbs 0");
    expect("from_expr syntax", NULL, bulk_int_from_expr(wide, "2^^3", 3, &pos), BULK_ERR_PARSE,
           "bulk_int_from_expr", "character 3");
    expect("from_expr negative", NULL, bulk_int_from_expr(wide, "1-2", 3, &pos), BULK_ERR_ARG,
           "bulk_int_from_expr", "negative");
    expect("from_expr overflow", NULL, bulk_int_from_expr(wide, "2^192", 3, &pos), BULK_ERR_OVERFLOW,
           "bulk_int_from_expr", "192 bits");

    /* mpn: the functions that can fail on valid arguments */
    bulk_limb_t tp[4096], m0[L] = { 0, 0 }, m6[L] = { 6, 0 }, a4[L] = { 4, 0 };
    CHECK(bulk_mpn_invmod_scratch(L) <= 4096 && bulk_mpn_powmod_scratch(L) <= 4096, "scratch sizes");
    expect("mpn_invmod m = 0", NULL, bulk_mpn_invmod(r, a4, m0, L, tp), BULK_ERR_DIVZERO, "bulk_mpn_invmod",
           "m");
    expect("mpn_invmod shared", NULL, bulk_mpn_invmod(r, a4, m6, L, tp), BULK_ERR_NOT_INVERTIBLE,
           "bulk_mpn_invmod", "a");
    expect("mpn_powmod even", NULL, bulk_mpn_powmod(r, a4, a4, m6, L, tp), BULK_ERR_EVEN_MODULUS,
           "bulk_mpn_powmod", "even");

    /* the device-resident API needs a GPU context */
    bulk_int_dev *dx = NULL, *dy = NULL;
    const int nb = BULK_ERR_NO_BACKEND;
    expect("dev_alloc cpu", ctx, bulk_int_dev_alloc(ctx, &dx, N, L), nb, "bulk_int_dev_alloc", "no GPU");
    CHECK(dx == NULL, "dev_alloc on the CPU left a handle");
    expect("dev_alloc NULL ctx", NULL, bulk_int_dev_alloc(NULL, &dx, N, L), BULK_ERR_ARG, "bulk_int_dev_alloc", "ctx");
    expect("dev_upload cpu", ctx, bulk_int_dev_upload(ctx, dx, a), nb, "bulk_int_dev_upload", NULL);
    expect("dev_download cpu", ctx, bulk_int_dev_download(ctx, dx, r), nb, "bulk_int_dev_download", NULL);
    expect("dev_sync cpu", ctx, bulk_int_dev_sync(ctx), nb, "bulk_int_dev_sync", NULL);
    expect("dev_add cpu", ctx, bulk_int_dev_add(ctx, dx, dx, dy), nb, "bulk_int_dev_add", NULL);
    expect("dev_sub cpu", ctx, bulk_int_dev_sub(ctx, dx, dx, dy), nb, "bulk_int_dev_sub", NULL);
    expect("dev_mul cpu", ctx, bulk_int_dev_mul(ctx, dx, dx, dy), nb, "bulk_int_dev_mul", NULL);
    expect("dev_sqr cpu", ctx, bulk_int_dev_sqr(ctx, dx, dy), nb, "bulk_int_dev_sqr", NULL);
    expect("dev_mul_lo cpu", ctx, bulk_int_dev_mul_lo(ctx, dx, dx, dy), nb, "bulk_int_dev_mul_lo", NULL);
    expect("dev_shl cpu", ctx, bulk_int_dev_shl(ctx, dx, dy, 3), nb, "bulk_int_dev_shl", NULL);
    expect("dev_shr cpu", ctx, bulk_int_dev_shr(ctx, dx, dy, 3), nb, "bulk_int_dev_shr", NULL);
    expect("dev_divmod cpu", ctx, bulk_int_dev_divmod(ctx, dx, dy, dx, dy, err), nb, "bulk_int_dev_divmod", NULL);
    expect("dev_gcd cpu", ctx, bulk_int_dev_gcd(ctx, dx, dx, dy), nb, "bulk_int_dev_gcd", NULL);
    expect("dev_powmod cpu", ctx, bulk_int_dev_powmod(ctx, dx, dx, dy, dy, err), nb, "bulk_int_dev_powmod", NULL);
    expect("dev_invmod cpu", ctx, bulk_int_dev_invmod(ctx, dx, dx, dy, err), nb, "bulk_int_dev_invmod", NULL);
    CHECK(bulk_int_dev_count(NULL) == 0 && bulk_int_dev_limbs(NULL) == 0, "count/limbs of NULL");
    bulk_int_dev_free(NULL);
    bulk_ctx_close(ctx);
    return test_finish();
}
