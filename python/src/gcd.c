/* bulk/gcd.h from Python (bulkpy.h): pairs, batch and the key readers. */
#include "bulkpy.h"

#include <bulk/gcd.h>
#include <stdlib.h>
#include <string.h>

/* The pairs found, collected by the callback (no Python there: it may run on any thread). */
typedef struct {
    size_t n, cap, limbs;
    size_t *ij;         /* 2 per hit */
    bulk_limb_t *g;     /* limbs per hit */
} hits;

static int on_pair(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    hits *h = arg;
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        size_t *ij = realloc(h->ij, cap * 2 * sizeof *ij);
        if (!ij) return BULK_ERR_NOMEM;
        h->ij = ij;
        bulk_limb_t *gg = realloc(h->g, cap * h->limbs * sizeof *gg);
        if (!gg) return BULK_ERR_NOMEM;
        h->g = gg;
        h->cap = cap;
    }
    h->ij[2 * h->n] = i;
    h->ij[2 * h->n + 1] = j;
    bulk_limb_t *dst = h->g + h->n * h->limbs;
    memset(dst, 0, h->limbs * sizeof *dst);
    memcpy(dst, g, (gn < h->limbs ? gn : h->limbs) * sizeof *dst);
    h->n++;
    return 0;
}

/* gcd_pairs(ctx, buffer, n, limbs, tile, progress) -> [(i, j, g), ...] */
static PyObject *m_gcd_pairs(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    PyObject *o, *progress;
    Py_ssize_t n, limbs, tile;
    if (!PyArg_ParseTuple(args, "O&OnnnO", bpy_ctx_converter, &c, &o, &n, &limbs, &tile, &progress))
        return NULL;
    Py_buffer b;
    if (bpy_buffer(o, &b, 0, (size_t)n * (size_t)limbs * 8, "bulk.gcd.pairs") < 0) return NULL;
    hits h = { 0, 0, (size_t)limbs, NULL, NULL };
    PyObject *res = NULL;
    if (bpy_enter(c, progress) < 0) goto done;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_gcd_pairs(c->ctx, b.buf, (size_t)n, (size_t)limbs, (size_t)tile, on_pair, &h);
    Py_END_ALLOW_THREADS
    if (bpy_leave(c, st) < 0) goto done;
    res = PyList_New((Py_ssize_t)h.n);
    for (size_t k = 0; res && k < h.n; k++) {
        PyObject *g = bpy_int_from_limbs(h.g + k * h.limbs, h.limbs);
        PyObject *t = g ? Py_BuildValue("(nnN)", (Py_ssize_t)h.ij[2 * k], (Py_ssize_t)h.ij[2 * k + 1], g) : NULL;
        if (!t) Py_CLEAR(res);
        else PyList_SET_ITEM(res, (Py_ssize_t)k, t);
    }
done:
    free(h.ij);
    free(h.g);
    PyBuffer_Release(&b);
    return res;
}

/* gcd_batch(ctx, x, g, n, limbs, max_memory, spill_dir, progress) -> stats dict */
static PyObject *m_gcd_batch(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    PyObject *xo, *go, *progress;
    Py_ssize_t n, limbs;
    unsigned long long maxmem;
    const char *spill;
    if (!PyArg_ParseTuple(args, "O&OOnnKzO", bpy_ctx_converter, &c, &xo, &go, &n, &limbs, &maxmem,
                          &spill, &progress))
        return NULL;
    Py_buffer bx, bg;
    size_t bytes = (size_t)n * (size_t)limbs * 8;
    if (bpy_buffer(xo, &bx, 0, bytes, "bulk.gcd.batch") < 0) return NULL;
    if (bpy_buffer(go, &bg, 1, bytes, "bulk.gcd.batch") < 0) {
        PyBuffer_Release(&bx);
        return NULL;
    }
    bulk_gcd_batch_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.max_memory = maxmem == (unsigned long long)-1 ? SIZE_MAX : (size_t)maxmem;
    opts.spill_dir = spill;
    bulk_gcd_batch_stats s;
    memset(&s, 0, sizeof s);
    PyObject *res = NULL;
    if (bpy_enter(c, progress) == 0) {
        int st;
        Py_BEGIN_ALLOW_THREADS
        st = bulk_gcd_batch(c->ctx, bg.buf, bx.buf, (size_t)n, (size_t)limbs, &opts, &s);
        Py_END_ALLOW_THREADS
        if (bpy_leave(c, st) == 0)
            res = Py_BuildValue("{s:n,s:O,s:K,s:n,s:K,s:K,s:K,s:n}", "levels", (Py_ssize_t)s.levels,
                                "spilled", s.spilled ? Py_True : Py_False, "spill_bytes",
                                (unsigned long long)s.spill_bytes, "spilled_levels",
                                (Py_ssize_t)s.spilled_levels, "memory_budget",
                                (unsigned long long)s.memory_budget, "memory_need",
                                (unsigned long long)s.memory_need, "memory_floor",
                                (unsigned long long)s.memory_floor, "groups", (Py_ssize_t)s.groups);
    }
    PyBuffer_Release(&bx);
    PyBuffer_Release(&bg);
    return res;
}

/* gcd_read(data, fmt) -> ([moduli], [lines]) for one file's bytes; fmt 0 text, 1 PEM, 2 DER */
static PyObject *m_gcd_read(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer data;
    int fmt;
    const char *name;
    if (!PyArg_ParseTuple(args, "y*is", &data, &fmt, &name)) return NULL;
    bulk_gcd_input in;
    memset(&in, 0, sizeof in);
    uint64_t line = 0;
    char msg[256] = "";
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_gcd_input_add(&in, data.buf, (size_t)data.len, (bulk_gcd_format)fmt, &line, msg, sizeof msg);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&data);
    PyObject *res = NULL;
    if (st != BULK_OK) {
        if (st == BULK_ERR_PARSE)
            PyErr_Format(PyExc_ValueError, "bulk.gcd.read_keys: %s:%llu: %s", name,
                         (unsigned long long)line, msg);
        else
            PyErr_Format(st == BULK_ERR_UNSUPPORTED ? PyExc_RuntimeError : PyExc_ValueError,
                         "bulk.gcd.read_keys: %s: %s", name, *msg ? msg : bulk_ctx_last_error(NULL));
        goto done;
    }
    PyObject *xs = bpy_list_from_limbs(in.x, (Py_ssize_t)in.n, in.limbs ? in.limbs : 1);
    PyObject *ls = xs ? PyList_New((Py_ssize_t)in.n) : NULL;
    for (size_t i = 0; ls && i < in.n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(in.line[i]);
        if (!v) Py_CLEAR(ls);
        else PyList_SET_ITEM(ls, (Py_ssize_t)i, v);
    }
    if (xs && ls) res = PyTuple_Pack(2, xs, ls);
    Py_XDECREF(xs);
    Py_XDECREF(ls);
done:
    bulk_gcd_input_free(&in);
    return res;
}

PyMethodDef bpy_gcd_methods[] = {
    { "gcd_pairs", m_gcd_pairs, METH_VARARGS, NULL },
    { "gcd_batch", m_gcd_batch, METH_VARARGS, NULL },
    { "gcd_read", m_gcd_read, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL }
};
