/* Parsing a tuning list (contract: tune.h). One table row per key: its name, the valid values
 * as the message states them, and the function that stores a value into a bulk_tune. */
#include "backend/tune.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/bulk.h"

void bulk_tune_default(bulk_tune *t)
{
    memset(t, 0, sizeof *t);
    t->int_ntt_min = t->gcd_gpu_ntt = t->gcd_batched_rem = t->gcd_batched_mul = t->gcd_batched_min = -1;
}

/* An unsigned decimal (or 0x hexadecimal) integer in [lo, hi]; 0 when it is not one. */
static int num(const char *v, long long lo, long long hi, long long *out)
{
    if (*v < '0' || *v > '9') return 0;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end || x > (unsigned long long)hi || (long long)x < lo) return 0;
    *out = (long long)x;
    return 1;
}

/* The index of v in the NULL-terminated list names, plus first; -1 when absent. */
static int pick(const char *v, const char *const *names, int first)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(v, names[i]) == 0) return first + i;
    return -1;
}

#define BIG ((long long)1 << 62)
static const char *const k_mul[] = {"teo", "sr", "cols", "kara", "ntt", "coop", "ckara", NULL};
static const char *const k_isa[] = {"base", "avx2", "avx512", NULL};
static const char *const k_layout[] = {"batch", "uniform", NULL};
static const char *const k_kernel[] = {"fast", "core", NULL};
static const char *const k_mem[] = {"shared", "global", NULL};

/* Each setter returns 1 when v is valid for its key (and stores it), else 0. */
static int s_int_mul(bulk_tune *t, const char *v) { return (t->int_mul = pick(v, k_mul, BULK_TUNE_MUL_TEO)) > 0; }
static int s_int_kara_min(bulk_tune *t, const char *v)
{
    long long x;
    return num(v, 32, 1 << 24, &x) ? (t->int_kara_min = (int)x, 1) : 0;
}
static int s_int_ntt_min(bulk_tune *t, const char *v) { return num(v, 0, BIG, &t->int_ntt_min); }
static int s_int_gcd(bulk_tune *t, const char *v) { return (t->int_gcd_approx = strcmp(v, "approx") == 0); }
static int s_int_powmod_tpi(bulk_tune *t, const char *v)
{
    long long x;
    return num(v, 1, 32, &x) && x != 2 && (x & (x - 1)) == 0 ? (t->int_powmod_tpi = (int)x, 1) : 0;
}
static int s_int_invmod_tpi(bulk_tune *t, const char *v)
{
    long long x;
    return num(v, 1, 32, &x) && (x & (x - 1)) == 0 ? (t->int_invmod_tpi = (int)x, 1) : 0;
}
static int s_gcd_gpu_ntt(bulk_tune *t, const char *v)
{
    return num(v, 0, (long long)1 << 30, &t->gcd_gpu_ntt) && (t->gcd_gpu_ntt & (t->gcd_gpu_ntt - 1)) == 0;
}
static int s_gcd_rem(bulk_tune *t, const char *v) { return num(v, 0, BIG, &t->gcd_batched_rem); }
static int s_gcd_mul(bulk_tune *t, const char *v) { return num(v, 0, BIG, &t->gcd_batched_mul); }
static int s_gcd_min(bulk_tune *t, const char *v) { return num(v, 0, BIG, &t->gcd_batched_min); }
static int s_cz_ext(bulk_tune *t, const char *v)
{
    if (strcmp(v, "gen") && strcmp(v, "unsorted")) return 0;
    t->cz_ext_unsorted = strcmp(v, "unsorted") == 0;
    return 1;
}
static int s_cz_classes(bulk_tune *t, const char *v)
{
    if (strcmp(v, "0") && strcmp(v, "1")) return 0;
    t->cz_classes_off = *v == '0';
    return 1;
}
static int s_cz_layout(bulk_tune *t, const char *v)
{
    int i = pick(v, k_layout, 0);
    if (i < 0) return 0;
    t->cz.verify_layout = i == 0 ? BULK_CZ_CUDA_LAYOUT_FLAT_BATCH : BULK_CZ_CUDA_LAYOUT_UNIFORM;
    return 1;
}
static int s_cz_delay(bulk_tune *t, const char *v)
{
    static const char *const names[] = {"v3", "v4x2", "v5", NULL};
    static const int loops[] = {BULK_CZ_CUDA_DELAY_V3, BULK_CZ_CUDA_DELAY_V4X2, BULK_CZ_CUDA_DELAY_V5};
    int i = pick(v, names, 0);
    return i < 0 ? 0 : (t->cz.delay_loop = loops[i], 1);
}
static int s_cz_kernel(bulk_tune *t, const char *v) { return (t->cz.kernel = pick(v, k_kernel, 1)) > 0; }
static int s_cz_mem(bulk_tune *t, const char *v) { return (t->cz.table_mem = pick(v, k_mem, 1)) > 0; }
/* the integer Collatz options, with the ranges bulk_collatz_cuda_opts_valid accepts */
#define CZ_INT(name, field, lo, hi, type)                                                         \
    static int name(bulk_tune *t, const char *v)                                                  \
    {                                                                                             \
        long long x;                                                                              \
        return num(v, lo, hi, &x) ? (t->cz.field = (type)x, 1) : 0;                               \
    }
CZ_INT(s_cz_refill, refill_lanes, 1, 32, int)
CZ_INT(s_cz_devices, devices, 1, 1 << 16, int)
CZ_INT(s_cz_rows, rows_per_thread, 1, 64, int)
CZ_INT(s_cz_launch, launch_numbers, 1, BIG, uint64_t)
CZ_INT(s_cz_wave, wave_numbers, 1, BIG, uint64_t)
CZ_INT(s_cz_slice, s_slice_entries, 1, BIG, uint64_t)
CZ_INT(s_cz_escapes, escape_capacity, 1, UINT32_MAX, uint32_t)
static int s_cz_threads(bulk_tune *t, const char *v)
{
    long long x;
    return num(v, 32, 512, &x) && x % 32 == 0 ? (t->cz.threads_per_block = (int)x, 1) : 0;
}
static int s_cz_unroll(bulk_tune *t, const char *v)
{
    return strcmp(v, "4") == 0 || strcmp(v, "8") == 0 ? (t->cz.delay_unroll = *v - '0', 1) : 0;
}
static int s_life_strip(bulk_tune *t, const char *v) { return num(v, 1, BIG, &t->life_strip); }
static int s_life_isa(bulk_tune *t, const char *v) { return (t->life_isa = pick(v, k_isa, BULK_TUNE_ISA_BASE)) > 0; }

typedef struct key {
    const char *name, *valid;
    int (*set)(bulk_tune *, const char *);
} key;

static const key k_keys[] = {
    {"int.mul", "teo, sr, cols, kara, ntt, coop, ckara", s_int_mul},
    {"int.kara_min", "32 to 16777216 (limbs)", s_int_kara_min},
    {"int.ntt_min", "a number of limbs, 0 for never", s_int_ntt_min},
    {"int.gcd", "approx", s_int_gcd},
    {"int.powmod_tpi", "1, 4, 8, 16, 32", s_int_powmod_tpi},
    {"int.invmod_tpi", "1, 2, 4, 8, 16, 32", s_int_invmod_tpi},
    {"gcd.gpu_ntt", "a power of two of limbs up to 2^30, 0 for never", s_gcd_gpu_ntt},
    {"gcd.batched_rem", "a number of limbs, 0 for never", s_gcd_rem},
    {"gcd.batched_mul", "a number of limbs, 0 for never", s_gcd_mul},
    {"gcd.batched_min", "a number of nodes", s_gcd_min},
    {"cz.ext", "gen, unsorted", s_cz_ext},
    {"cz.classes", "0, 1", s_cz_classes},
    {"cz.layout", "batch, uniform", s_cz_layout},
    {"cz.refill", "1 to 32", s_cz_refill},
    {"cz.delay", "v3, v4x2, v5", s_cz_delay},
    {"cz.kernel", "fast, core", s_cz_kernel},
    {"cz.mem", "shared, global", s_cz_mem},
    {"cz.devices", "1 to 65536", s_cz_devices},
    {"cz.threads", "32 to 512, a multiple of 32", s_cz_threads},
    {"cz.rows", "1 to 64", s_cz_rows},
    {"cz.launch", "a positive number of numbers", s_cz_launch},
    {"cz.wave", "a positive number of numbers", s_cz_wave},
    {"cz.slice", "a positive number of S entries", s_cz_slice},
    {"cz.escapes", "1 to 4294967295", s_cz_escapes},
    {"cz.unroll", "4, 8", s_cz_unroll},
    {"life.strip", "a positive number of rows", s_life_strip},
    {"life.isa", "base, avx2, avx512", s_life_isa},
};
#define NKEYS (sizeof k_keys / sizeof k_keys[0])

static int fail(char *msg, size_t n, const char *fmt, ...)
{
    if (n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, n, fmt, ap);
        va_end(ap);
    }
    return BULK_ERR_ARG;
}

int bulk_tune_parse(const char *text, bulk_tune *out, char *msg, size_t msg_size)
{
    if (msg_size) msg[0] = '\0';
    if (!out) return BULK_ERR_ARG;
    bulk_tune t;
    bulk_tune_default(&t);
    char item[256];
    for (const char *p = text; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= sizeof item)
            return fail(msg, msg_size, "tuning item %zu characters long in '%s'; valid: key=value, "
                        "separated by single commas", len, text);
        memcpy(item, p, len);
        item[len] = '\0';
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1])
            return fail(msg, msg_size, "tuning item '%s' is not key=value", item);
        *eq = '\0';
        const key *k = NULL;
        for (size_t i = 0; i < NKEYS && !k; i++)
            if (strcmp(item, k_keys[i].name) == 0) k = &k_keys[i];
        if (!k) {
            char names[512] = "";
            for (size_t i = 0; i < NKEYS; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                         k_keys[i].name);
            return fail(msg, msg_size, "tuning key '%s' is unknown; valid: %s", item, names);
        }
        if (!k->set(&t, eq + 1))
            return fail(msg, msg_size, "tuning %s='%s' is not valid; valid: %s", item, eq + 1, k->valid);
        p = comma ? comma + 1 : p + len;
        if (comma && !*p) return fail(msg, msg_size, "tuning list '%s' ends with a comma", text);
    }
    *out = t;
    return BULK_OK;
}
