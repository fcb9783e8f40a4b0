/* bulk/life.h from Python (bulkpy.h): the Universe handle. Cells travel as bit-packed rows of
 * 64-bit words (bulk/life.h's layout); the package (bulk/life.py) packs and unpacks them with
 * NumPy. */
#include "bulkpy.h"

#include <bulk/life.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    bulk_life *u;
    BulkCtx *ctx;
    bulk_life_rule rule;
    int torus;
    uint64_t tw, th;
} Universe;

static PyTypeObject Universe_Type;

static void uni_dealloc(Universe *self)
{
    if (self->u) bulk_life_free(self->u);
    Py_XDECREF(self->ctx);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* life_new(ctx, rle, words, width, height, x, y, rule, torus, tw, th, max_memory, tmp_dir)
 * rle: text (str) or None; otherwise words (buffer of height rows of ceil(width / 64) words)
 * placed with its top-left cell at (x, y). rule None: the file's (Conway's for arrays).
 * torus: tw x th (0 x 0: the pattern's frame). */
static PyObject *m_life_new(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    PyObject *rle, *words;
    unsigned long long w, h, tw, th, maxmem;
    long long x, y;
    const char *rule, *tmp;
    int torus;
    if (!PyArg_ParseTuple(args, "O&OOKKLLzpKKKz", bpy_ctx_converter, &c, &rle, &words, &w, &h, &x,
                          &y, &rule, &torus, &tw, &th, &maxmem, &tmp))
        return NULL;
    bulk_life_pattern p;
    memset(&p, 0, sizeof p);
    int st;
    if (rle != Py_None) {
        Py_ssize_t len;
        const char *text = PyUnicode_AsUTF8AndSize(rle, &len);
        if (!text) return NULL;
        Py_BEGIN_ALLOW_THREADS
        st = bulk_life_pattern_read(&p, text, (size_t)len, "rle");
        Py_END_ALLOW_THREADS
        if (st != BULK_OK) return bpy_thread_error(st);
    } else {
        Py_buffer b;
        size_t bytes = (size_t)(h * bulk_life_words(w) * 8);
        if (bpy_buffer(words, &b, 0, bytes, "bulk.life.Universe.from_array") < 0) return NULL;
        p.cells = malloc(bytes ? bytes : 1);
        if (!p.cells) {
            PyBuffer_Release(&b);
            return PyErr_NoMemory();
        }
        memcpy(p.cells, b.buf, bytes);
        PyBuffer_Release(&b);
        p.x = x;
        p.y = y;
        p.width = w;
        p.height = h;
        p.rule = bulk_life_rule_conway();
    }
    bulk_life_options opt;
    memset(&opt, 0, sizeof opt);
    opt.rule = p.rule;
    if (rule && (st = bulk_life_rule_parse(&opt.rule, rule, NULL)) != BULK_OK) {
        bulk_life_pattern_free(&p);
        return bpy_thread_error(st);
    }
    opt.torus = torus;
    if (torus && tw == 0) { /* the pattern's frame */
        tw = p.frame_width ? p.frame_width : p.width;
        th = p.frame_height ? p.frame_height : p.height;
    }
    opt.torus_width = tw;
    opt.torus_height = th;
    opt.max_memory = maxmem;
    opt.tmp_dir = tmp;
    Universe *u = PyObject_New(Universe, &Universe_Type);
    if (!u) {
        bulk_life_pattern_free(&p);
        return NULL;
    }
    u->u = NULL;
    Py_INCREF(c);
    u->ctx = c;
    u->rule = opt.rule;
    u->torus = torus;
    u->tw = tw;
    u->th = th;
    if (bpy_enter(c, NULL) < 0) goto fail;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_life_create(&u->u, c->ctx, &p, &opt);
    Py_END_ALLOW_THREADS
    if (st != BULK_OK) u->u = NULL;
    if (bpy_leave(c, st) < 0) goto fail;
    bulk_life_pattern_free(&p);
    return (PyObject *)u;
fail:
    bulk_life_pattern_free(&p);
    Py_DECREF(u);
    return NULL;
}

static PyObject *uni_step(Universe *self, PyObject *args)
{
    unsigned long long n;
    PyObject *progress = Py_None;
    if (!PyArg_ParseTuple(args, "K|O", &n, &progress)) return NULL;
    if (bpy_enter(self->ctx, progress) < 0) return NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_life_step(self->u, n);
    Py_END_ALLOW_THREADS
    if (bpy_leave(self->ctx, st) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *uni_population(Universe *self, PyObject *unused)
{
    (void)unused;
    uint64_t pop = 0;
    if (bpy_enter(self->ctx, NULL) < 0) return NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_life_population(self->u, &pop);
    Py_END_ALLOW_THREADS
    if (bpy_leave(self->ctx, st) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(pop);
}

static PyObject *uni_generation(Universe *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(bulk_life_generation(self->u));
}

/* A pattern as (x, y, width, height, words bytes); frees it. */
static PyObject *pattern_tuple(bulk_life_pattern *p)
{
    size_t bytes = (size_t)(p->height * bulk_life_words(p->width) * 8);
    PyObject *r = Py_BuildValue("(LLKKy#)", (long long)p->x, (long long)p->y,
                                (unsigned long long)p->width, (unsigned long long)p->height,
                                (const char *)p->cells, (Py_ssize_t)bytes);
    bulk_life_pattern_free(p);
    return r;
}

/* extract() -> the live cells' bounding box; region(x, y, w, h) -> that rectangle */
static PyObject *uni_cells(Universe *self, PyObject *args)
{
    long long x = 0, y = 0;
    unsigned long long w = 0, h = 0;
    int region = PyTuple_GET_SIZE(args) > 0;
    if (region && !PyArg_ParseTuple(args, "LLKK", &x, &y, &w, &h)) return NULL;
    bulk_life_pattern p;
    memset(&p, 0, sizeof p);
    if (bpy_enter(self->ctx, NULL) < 0) return NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = region ? bulk_life_region(self->u, x, y, w, h, &p) : bulk_life_extract(self->u, &p);
    Py_END_ALLOW_THREADS
    if (bpy_leave(self->ctx, st) < 0) return NULL;
    return pattern_tuple(&p);
}

static PyObject *uni_to_rle(Universe *self, PyObject *unused)
{
    (void)unused;
    bulk_life_pattern p;
    memset(&p, 0, sizeof p);
    char *text = NULL;
    size_t len = 0;
    if (bpy_enter(self->ctx, NULL) < 0) return NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_life_extract(self->u, &p);
    if (st == BULK_OK) st = bulk_life_pattern_write_rle(&p, &text, &len);
    bulk_life_pattern_free(&p);
    Py_END_ALLOW_THREADS
    if (bpy_leave(self->ctx, st) < 0) return NULL;
    PyObject *r = PyUnicode_FromStringAndSize(text, (Py_ssize_t)len);
    free(text);
    return r;
}

static PyObject *uni_rule(Universe *self, void *u)
{
    (void)u;
    char buf[32];
    if (bulk_life_rule_format(&self->rule, buf, sizeof buf) != BULK_OK) return bpy_thread_error(BULK_ERR_ARG);
    return PyUnicode_FromString(buf);
}

static PyObject *uni_torus(Universe *self, void *u)
{
    (void)u;
    if (!self->torus) Py_RETURN_NONE;
    return Py_BuildValue("(KK)", (unsigned long long)self->tw, (unsigned long long)self->th);
}

static PyObject *uni_grid_cells(Universe *self, void *u)
{
    (void)u;
    return PyLong_FromUnsignedLongLong(bulk_life_grid_cells(self->u));
}

static PyMethodDef uni_methods[] = {
    { "step", (PyCFunction)uni_step, METH_VARARGS, NULL },
    { "population", (PyCFunction)uni_population, METH_NOARGS, NULL },
    { "generation", (PyCFunction)uni_generation, METH_NOARGS, NULL },
    { "cells", (PyCFunction)uni_cells, METH_VARARGS, NULL },
    { "to_rle", (PyCFunction)uni_to_rle, METH_NOARGS, NULL },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef uni_getset[] = {
    { "rule", (getter)uni_rule, NULL, NULL, NULL },
    { "torus", (getter)uni_torus, NULL, NULL, NULL },
    { "grid_cells", (getter)uni_grid_cells, NULL, NULL, NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject Universe_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bulk._bulk.UniverseHandle",
    .tp_basicsize = sizeof(Universe),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A bulk_life universe (use bulk.life.Universe).",
    .tp_dealloc = (destructor)uni_dealloc,
    .tp_methods = uni_methods,
    .tp_getset = uni_getset,
};

PyMethodDef bpy_life_methods[] = {
    { "life_new", m_life_new, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL }
};

int bpy_life_init(PyObject *m)
{
    if (PyType_Ready(&Universe_Type) < 0) return -1;
    Py_INCREF(&Universe_Type);
    return PyModule_AddObject(m, "UniverseHandle", (PyObject *)&Universe_Type);
}
