/* bulk — the same computation on millions of instances at once.
 *
 * Common part of the public API: status codes, backends and the context that every
 * bulk function takes. Conventions (GMP style): result first, then (pointer, count)
 * pairs; 64-bit limbs, least significant first; instances stored one after another.
 * Every function returns a status: BULK_OK (0) or a negative code, never reused. */
#ifndef BULK_BULK_H
#define BULK_BULK_H

#include <stddef.h>
#include <stdint.h>

#include "bulk/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BULK_VERSION_MAJOR 0
#define BULK_VERSION_MINOR 1
#define BULK_VERSION_PATCH 0

/* Status codes. New codes are appended; a number is never given a second meaning. */
enum bulk_status {
    BULK_OK = 0,
    BULK_ERR_ARG = -1,            /* an argument is out of range or inconsistent */
    BULK_ERR_NOMEM = -2,          /* an allocation failed */
    BULK_ERR_DIVZERO = -3,        /* division by zero (reported per instance) */
    BULK_ERR_EVEN_MODULUS = -4,   /* Montgomery arithmetic needs an odd modulus */
    BULK_ERR_NO_BACKEND = -5,     /* the requested backend is not built or no device found */
    BULK_ERR_CUDA = -6,           /* a CUDA call failed */
    BULK_ERR_IO = -7,             /* reading or writing a file failed */
    BULK_ERR_PARSE = -8,          /* malformed input text */
    BULK_ERR_OVERFLOW = -9,       /* a value does not fit the requested width */
    BULK_ERR_NOT_INVERTIBLE = -10,/* modular inverse does not exist (gcd != 1) */
    BULK_ERR_UNSUPPORTED = -11,   /* the operation is not available on this backend */
    BULK_ERR_INTERNAL = -12,      /* a self-check failed: a bug, please report it */
    BULK_ERR_CANCELLED = -13      /* the progress callback asked the operation to stop */
};

/* A short English description of a status code; never NULL. */
BULK_API const char *bulk_status_string(int status);

typedef enum bulk_backend {
    BULK_BACKEND_AUTO = 0, /* CUDA when built and a device is present, else CPU */
    BULK_BACKEND_CPU = 1,
    BULK_BACKEND_CUDA = 2
} bulk_backend;

/* "auto", "cpu", "cuda" -> value; BULK_ERR_ARG for anything else (the calling thread's last
 * error names the text). */
BULK_API int bulk_backend_parse(const char *name, bulk_backend *out);
BULK_API const char *bulk_backend_name(bulk_backend b);

/* Number of CUDA devices usable by this build (0 when CUDA was not built in or no
 * device/driver is present). Never fails. */
BULK_API int bulk_cuda_device_count(void);

typedef struct bulk_ctx bulk_ctx;

/* Opens a context. `want` AUTO picks CUDA when available, else CPU; the environment
 * variable BULK_BACKEND (auto|cpu|cuda) overrides AUTO only. Asking for CUDA where it is
 * not available gives BULK_ERR_NO_BACKEND. `threads` <= 0 means the environment variable
 * BULK_THREADS (1..4096) when set, else all online CPUs (BULK_THREADS=0 means all too).
 * An invalid BULK_BACKEND or BULK_THREADS (set, non-empty and not one of those values)
 * gives BULK_ERR_ARG, whether or not it would be used, and so does an invalid BULK_TUNE
 * (bulk_ctx_set_tune). Results never depend on the thread count. */
BULK_API int bulk_ctx_open(bulk_ctx **ctx, bulk_backend want, int threads);
BULK_API void bulk_ctx_close(bulk_ctx *ctx);
BULK_API bulk_backend bulk_ctx_backend(const bulk_ctx *ctx);
BULK_API int bulk_ctx_threads(const bulk_ctx *ctx);

/* The GPU of a CUDA context. A CUDA context opens on device 0; bulk_ctx_set_device moves it
 * to `device` (0 .. bulk_cuda_device_count() - 1): single-device work then runs there, and
 * multi-device work (Collatz) uses only that device. Each context keeps its own GPU state
 * (streams, staging buffers, device caches), so contexts on different devices, or on one, can
 * run at once from different threads (each context by one thread at a time). Setting the device
 * releases the context's GPU state first (made again on first use), so it is best done before
 * any work. BULK_ERR_ARG, with bulk_ctx_last_error saying why, when ctx is NULL, not a CUDA
 * context, or device is out of range. Not thread-safe against calls running on the same
 * context. bulk_ctx_device gives the context's device, -1 on a CPU context (or NULL). */
BULK_API int bulk_ctx_set_device(bulk_ctx *ctx, int device);
BULK_API int bulk_ctx_device(const bulk_ctx *ctx);

/* Tuning: forces one of the library's fallback paths or moves a threshold, for tests and
 * benchmarks (docs/architecture.md "Tuning" lists every key and what it forces; results never
 * depend on it). `tune` is a comma-separated list of key=value, e.g.
 * "int.mul=sr,cz.layout=batch"; it replaces the context's whole tuning (keys not named go back
 * to the defaults, the Collatz CUDA options included; NULL or "" is the defaults). The list is checked completely before anything
 * changes: an unknown key, a bad value or a malformed list gives BULK_ERR_ARG, leaves the
 * tuning as it was and leaves a message naming the item and the valid choices in
 * bulk_ctx_last_error. bulk_ctx_open starts from the environment variable BULK_TUNE (same syntax;
 * an invalid one makes bulk_ctx_open fail with BULK_ERR_ARG). Not thread-safe against calls
 * running on the same context. */
BULK_API int bulk_ctx_set_tune(bulk_ctx *ctx, const char *tune);
/* Checks a tuning list without a context (as bulk_ctx_set_tune would): BULK_OK or
 * BULK_ERR_ARG with the message in msg (msg_size bytes; may be 0). */
BULK_API int bulk_tune_check(const char *tune, char *msg, size_t msg_size);

/* Errors. Every function that takes a context and fails records one line on it naming what
 * failed and where (the argument, the instance, the file and line), for example
 * "bulk_int_mul: limbs 0: must be at least 1". The line stays until the next failure on that
 * context; a successful call leaves it as it was. Functions that take no context (and
 * bulk_ctx_open, which has none yet) record theirs for the calling thread instead, read with
 * ctx == NULL. Never NULL: "" before any failure. A context is used by one thread at a time. */
BULK_API const char *bulk_ctx_last_error(const bulk_ctx *ctx);

/* Progress of a long operation (Collatz verify, delays and records; Life runs; gcd batch and
 * pairs; CKY parsing; circuit evaluation). `op` names the operation ("collatz.verify",
 * "life.run", ...), `unit` what is counted ("numbers", "generations", "moduli", "strings",
 * "vectors"); `done` of `total` units are finished (total 0: not known in advance). Doubles,
 * because Collatz ranges pass 2^64. */
typedef struct bulk_progress {
    const char *op;
    const char *unit;
    double done, total;
} bulk_progress;

/* The callback gets one call with done == 0 when an operation starts, calls as work finishes
 * (at most about 20 a second) and one call with done == total when it ends successfully. Calls
 * never overlap, but may come from any of the library's threads. Returning nonzero stops the
 * operation as soon as it can: it returns BULK_ERR_CANCELLED, and its outputs are unspecified
 * (checkpoint files stay consistent). fn NULL removes the callback. ctx NULL: nothing is set
 * and the calling thread's last error says so. The done values of one operation never
 * decrease. */
typedef int (*bulk_progress_fn)(const bulk_progress *p, void *user);
BULK_API void bulk_ctx_set_progress(bulk_ctx *ctx, bulk_progress_fn fn, void *user);

/* Version string "major.minor.patch". */
BULK_API const char *bulk_version(void);

#ifdef __cplusplus
}
#endif
#endif
