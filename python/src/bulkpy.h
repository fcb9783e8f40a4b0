/* The extension bulk._bulk: shared declarations of its files.
 *
 *   module.c     the module, the Context type, errors, progress, running a library call
 *   convert.c    Python int <-> 64-bit limbs (whole sequences in C)
 *   int_host.c   bulk/int.h on sequences of Python ints and on limb buffers
 *   int_dev.c    DeviceArray (bulk/int_device.h)
 *   gcd.c collatz.c life.c bpbc.c   the other areas
 *
 * Only the public headers (include/bulk) are used. The pure-Python package (python/bulk/)
 * checks and shapes arguments and documents the API; the functions here take what it hands
 * them and raise ValueError / RuntimeError / MemoryError with the library's message. */
#ifndef BULKPY_H
#define BULKPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include <bulk/bulk.h>
#include <bulk/int.h>

/* A bulk_ctx owned by Python. The library wants one thread at a time per context; `lock`
 * serialises the calls of several Python threads (taken with the GIL released). */
typedef struct {
    PyObject_HEAD
    bulk_ctx *ctx;
    PyThread_type_lock lock;
    PyObject *progress;   /* the callable of the running call, or NULL */
    PyObject *exc_type, *exc_value, *exc_tb; /* raised by it (the call is then cancelled) */
} BulkCtx;

extern PyTypeObject BulkCtx_Type;

/* A call on a context: bpy_enter takes the lock (GIL released while waiting) and installs the
 * progress callable (None or NULL: none; Ctrl-C still cancels); bpy_leave removes it, releases
 * the lock and, for st != BULK_OK, sets the Python exception (the callback's own when it raised)
 * and returns -1; 0 otherwise. Between them the caller releases the GIL around the library
 * call (Py_BEGIN_ALLOW_THREADS). */
int bpy_enter(BulkCtx *c, PyObject *progress);
/* 0 when c is open, else -1 with ValueError (what bpy_enter checks first). */
int bpy_check_open(BulkCtx *c);
int bpy_leave(BulkCtx *c, int st);

/* Sets the exception of status st with message msg (the library's last error; the status
 * string when empty): ValueError for bad input (ARG, PARSE, OVERFLOW, EVEN_MODULUS,
 * NOT_INVERTIBLE), ZeroDivisionError for DIVZERO, MemoryError for NOMEM, KeyboardInterrupt
 * for CANCELLED, RuntimeError for the rest. Returns NULL. */
PyObject *bpy_error(int st, const char *msg);
/* The same with the calling thread's last error (functions without a context). */
PyObject *bpy_thread_error(int st);

/* ---- conversion (convert.c) ---- */

/* Python int -> limbs: the value must be >= 0 and fit `limbs` limbs (ValueError naming
 * `what` and the item index otherwise). */
int bpy_int_to_limbs(PyObject *v, bulk_limb_t *out, size_t limbs, const char *what, Py_ssize_t i);
/* Bit length of a non-negative int (ValueError for a negative one; -1 on error). */
Py_ssize_t bpy_int_bits(PyObject *v, const char *what, Py_ssize_t i);
/* limbs -> Python int (new reference). */
PyObject *bpy_int_from_limbs(const bulk_limb_t *a, size_t limbs);

/* A sequence of ints (or one int, repeated n times when n > 0) as a limb array. */
typedef struct {
    PyObject **items; /* new references, n of them (NULL for a repeated scalar) */
    PyObject *scalar; /* the scalar, or NULL */
    Py_ssize_t n;
    Py_ssize_t bits;  /* the largest bit length */
} bpy_ints;
/* Collects seq: a list/tuple (or any sequence) of ints, or an int (scalar). Ints are anything
 * with __index__. ValueError for negative items. */
int bpy_ints_get(bpy_ints *x, PyObject *seq, const char *what);
void bpy_ints_free(bpy_ints *x);
/* Writes items first .. first + n - 1 as n instances of limbs limbs (a scalar is repeated). */
int bpy_ints_fill(const bpy_ints *x, bulk_limb_t *out, Py_ssize_t first, Py_ssize_t n,
                  size_t limbs, const char *what);
/* A list of n ints from n instances of limbs limbs. */
PyObject *bpy_list_from_limbs(const bulk_limb_t *a, Py_ssize_t n, size_t limbs);
/* Sets list[first .. first + n) (new, unset slots of PyList_New) from n instances. */
int bpy_list_put(PyObject *list, Py_ssize_t first, const bulk_limb_t *a, Py_ssize_t n, size_t limbs);

/* Limbs that hold `bits` bits (at least 1). */
static inline size_t bpy_limbs_for(Py_ssize_t bits) { return bits <= 64 ? 1 : (size_t)(bits + 63) / 64; }

/* A writable or read-only C-contiguous buffer of at least `bytes` bytes (ValueError naming
 * `what` otherwise). */
int bpy_buffer(PyObject *o, Py_buffer *b, int writable, size_t bytes, const char *what);

/* ---- the method tables of each area (appended to the module's) ---- */
extern PyMethodDef bpy_int_methods[];
extern PyMethodDef bpy_gcd_methods[];
extern PyMethodDef bpy_collatz_methods[];
extern PyMethodDef bpy_life_methods[];
extern PyMethodDef bpy_bpbc_methods[];
int bpy_dev_init(PyObject *m);
int bpy_life_init(PyObject *m);
int bpy_bpbc_init(PyObject *m);

/* Parses a Context argument (the module's functions take it first). */
int bpy_ctx_converter(PyObject *o, void *out);

#endif
