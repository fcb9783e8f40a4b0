/* bulk._bulk: the module, the Context type, errors and progress (bulkpy.h). */
#include "bulkpy.h"

#include <string.h>

/* ---- errors ---- */

PyObject *bpy_error(int st, const char *msg)
{
    if (!msg || !*msg) msg = bulk_status_string(st);
    PyObject *type;
    switch (st) {
    case BULK_ERR_ARG:
    case BULK_ERR_PARSE:
    case BULK_ERR_OVERFLOW:
    case BULK_ERR_EVEN_MODULUS:
    case BULK_ERR_NOT_INVERTIBLE: type = PyExc_ValueError; break;
    case BULK_ERR_DIVZERO: type = PyExc_ZeroDivisionError; break;
    case BULK_ERR_NOMEM: type = PyExc_MemoryError; break;
    case BULK_ERR_CANCELLED: type = PyExc_KeyboardInterrupt; break;
    default: type = PyExc_RuntimeError; break;
    }
    PyErr_SetString(type, msg);
    return NULL;
}

PyObject *bpy_thread_error(int st) { return bpy_error(st, bulk_ctx_last_error(NULL)); }

/* ---- calls and progress ---- */

/* The library's callback: calls the Python callable (op, unit, done, total) under the GIL; a
 * true result or an exception (Ctrl-C included, when the call comes on the main thread)
 * cancels the operation, and bpy_leave raises the exception. */
static int progress_trampoline(const bulk_progress *p, void *user)
{
    BulkCtx *c = user;
    PyGILState_STATE g = PyGILState_Ensure();
    int stop = c->exc_type != NULL;
    if (!stop && PyErr_CheckSignals() < 0) stop = 1;
    if (!stop && c->progress) {
        PyObject *r = PyObject_CallFunction(c->progress, "ssdd", p->op, p->unit, p->done, p->total);
        if (!r) stop = 1;
        else {
            int t = PyObject_IsTrue(r);
            Py_DECREF(r);
            stop = t != 0;
        }
    }
    if (stop && PyErr_Occurred() && !c->exc_type) PyErr_Fetch(&c->exc_type, &c->exc_value, &c->exc_tb);
    PyErr_Clear();
    PyGILState_Release(g);
    return stop;
}

int bpy_check_open(BulkCtx *c)
{
    if (c->ctx) return 0;
    PyErr_SetString(PyExc_ValueError, "bulk.Context: the context is closed");
    return -1;
}

int bpy_enter(BulkCtx *c, PyObject *progress)
{
    if (bpy_check_open(c) < 0) return -1;
    if (!PyThread_acquire_lock(c->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(c->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
    c->progress = progress && progress != Py_None ? progress : NULL;
    Py_XINCREF(c->progress);
    bulk_ctx_set_progress(c->ctx, progress_trampoline, c);
    return 0;
}

int bpy_leave(BulkCtx *c, int st)
{
    bulk_ctx_set_progress(c->ctx, NULL, NULL);
    Py_CLEAR(c->progress);
    PyObject *t = c->exc_type, *v = c->exc_value, *tb = c->exc_tb;
    c->exc_type = c->exc_value = c->exc_tb = NULL;
    if (t) {
        PyThread_release_lock(c->lock);
        PyErr_Restore(t, v, tb);
        return -1;
    }
    if (st != BULK_OK) bpy_error(st, bulk_ctx_last_error(c->ctx));
    PyThread_release_lock(c->lock);
    return st == BULK_OK ? 0 : -1;
}

/* ---- buffers ---- */

int bpy_buffer(PyObject *o, Py_buffer *b, int writable, size_t bytes, const char *what)
{
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if ((size_t)b->len < bytes) {
        PyErr_Format(PyExc_ValueError, "%s: buffer of %zd bytes, %zu needed", what, b->len, bytes);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

/* ---- Context ---- */

int bpy_ctx_converter(PyObject *o, void *out)
{
    if (!PyObject_TypeCheck(o, &BulkCtx_Type)) {
        PyErr_Format(PyExc_TypeError, "ctx must be a bulk.Context, not %.100s", Py_TYPE(o)->tp_name);
        return 0;
    }
    *(BulkCtx **)out = (BulkCtx *)o;
    return 1;
}

static int ctx_init(BulkCtx *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "backend", "threads", "device", "tune", NULL };
    const char *backend = "auto", *tune = NULL;
    PyObject *threads = Py_None, *device = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|sOOz:Context", kwlist, &backend, &threads,
                                     &device, &tune))
        return -1;
    if (self->ctx) {
        PyErr_SetString(PyExc_RuntimeError, "bulk.Context: already initialised");
        return -1;
    }
    bulk_backend want;
    if (bulk_backend_parse(backend, &want) != BULK_OK) {
        PyErr_Format(PyExc_ValueError, "bulk.Context: backend '%s': must be 'auto', 'cpu' or 'cuda'",
                     backend);
        return -1;
    }
    int nt = 0;
    if (threads != Py_None) {
        long t = PyLong_AsLong(threads);
        if (t == -1 && PyErr_Occurred()) return -1;
        if (t < 1 || t > 4096) {
            PyErr_Format(PyExc_ValueError, "bulk.Context: threads %ld: must be 1..4096 (or None: all)", t);
            return -1;
        }
        nt = (int)t;
    }
    int st;
    bulk_ctx *ctx = NULL;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_ctx_open(&ctx, want, nt);
    Py_END_ALLOW_THREADS
    if (st != BULK_OK) {
        bpy_thread_error(st);
        return -1;
    }
    if (device != Py_None) {
        long d = PyLong_AsLong(device);
        if (d == -1 && PyErr_Occurred()) {
            bulk_ctx_close(ctx);
            return -1;
        }
        if (d < INT32_MIN || d > INT32_MAX || (st = bulk_ctx_set_device(ctx, (int)d)) != BULK_OK) {
            bpy_error(st ? st : BULK_ERR_ARG, st ? bulk_ctx_last_error(ctx) : "bulk.Context: device out of range");
            bulk_ctx_close(ctx);
            return -1;
        }
    }
    if (tune && (st = bulk_ctx_set_tune(ctx, tune)) != BULK_OK) {
        bpy_error(st, bulk_ctx_last_error(ctx));
        bulk_ctx_close(ctx);
        return -1;
    }
    self->ctx = ctx;
    return 0;
}

static PyObject *ctx_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)args;
    (void)kw;
    BulkCtx *self = (BulkCtx *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->lock = PyThread_allocate_lock();
    if (!self->lock) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static void ctx_close_now(BulkCtx *self)
{
    if (self->ctx) {
        bulk_ctx *ctx = self->ctx;
        self->ctx = NULL;
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(self->lock, WAIT_LOCK);
        bulk_ctx_close(ctx);
        PyThread_release_lock(self->lock);
        Py_END_ALLOW_THREADS
    }
}

static void ctx_dealloc(BulkCtx *self)
{
    ctx_close_now(self);
    if (self->lock) PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *ctx_close(BulkCtx *self, PyObject *unused)
{
    (void)unused;
    ctx_close_now(self);
    Py_RETURN_NONE;
}

static PyObject *ctx_enter_m(BulkCtx *self, PyObject *unused)
{
    (void)unused;
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *ctx_exit_m(BulkCtx *self, PyObject *args)
{
    (void)args;
    ctx_close_now(self);
    Py_RETURN_FALSE;
}

static PyObject *ctx_set_tune(BulkCtx *self, PyObject *arg)
{
    const char *tune = arg == Py_None ? NULL : PyUnicode_AsUTF8(arg);
    if (arg != Py_None && !tune) return NULL;
    if (bpy_enter(self, NULL) < 0) return NULL;
    int st = bulk_ctx_set_tune(self->ctx, tune);
    if (bpy_leave(self, st) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *ctx_get_backend(BulkCtx *self, void *unused)
{
    (void)unused;
    if (bpy_check_open(self) < 0) return NULL;
    return PyUnicode_FromString(bulk_backend_name(bulk_ctx_backend(self->ctx)));
}

static PyObject *ctx_get_threads(BulkCtx *self, void *unused)
{
    (void)unused;
    if (bpy_check_open(self) < 0) return NULL;
    return PyLong_FromLong(bulk_ctx_threads(self->ctx));
}

static PyObject *ctx_get_device(BulkCtx *self, void *unused)
{
    (void)unused;
    if (bpy_check_open(self) < 0) return NULL;
    int d = bulk_ctx_device(self->ctx);
    if (d < 0) Py_RETURN_NONE;
    return PyLong_FromLong(d);
}

static PyObject *ctx_get_closed(BulkCtx *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(self->ctx == NULL);
}

static PyObject *ctx_repr(BulkCtx *self)
{
    if (!self->ctx) return PyUnicode_FromString("<bulk.Context closed>");
    int d = bulk_ctx_device(self->ctx);
    if (d >= 0)
        return PyUnicode_FromFormat("<bulk.Context backend='%s' threads=%d device=%d>",
                                    bulk_backend_name(bulk_ctx_backend(self->ctx)),
                                    bulk_ctx_threads(self->ctx), d);
    return PyUnicode_FromFormat("<bulk.Context backend='%s' threads=%d>",
                                bulk_backend_name(bulk_ctx_backend(self->ctx)),
                                bulk_ctx_threads(self->ctx));
}

static PyMethodDef ctx_methods[] = {
    { "close", (PyCFunction)ctx_close, METH_NOARGS,
      "close()\n--\n\nReleases the context (its threads and GPU state); later calls on it raise ValueError." },
    { "set_tune", (PyCFunction)ctx_set_tune, METH_O,
      "set_tune(tune)\n--\n\nReplaces the context's tuning list (\"key=value,...\", docs/architecture.md); "
      "None restores the defaults. Results never depend on it." },
    { "__enter__", (PyCFunction)ctx_enter_m, METH_NOARGS, NULL },
    { "__exit__", (PyCFunction)ctx_exit_m, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef ctx_getset[] = {
    { "backend", (getter)ctx_get_backend, NULL, "'cpu' or 'cuda': the backend the context runs on", NULL },
    { "threads", (getter)ctx_get_threads, NULL, "CPU threads the context uses", NULL },
    { "device", (getter)ctx_get_device, NULL, "the GPU of a CUDA context, None on the CPU", NULL },
    { "closed", (getter)ctx_get_closed, NULL, "True after close()", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject BulkCtx_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bulk.Context",
    .tp_basicsize = sizeof(BulkCtx),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Context(backend='auto', threads=None, device=None, tune=None)\n--\n\n"
              "Where bulk computes: backend 'auto' (CUDA when built in and a GPU is present, else the CPU;\n"
              "the environment variable BULK_BACKEND overrides 'auto'), 'cpu' or 'cuda' (RuntimeError\n"
              "when not available); threads: CPU threads (None: BULK_THREADS or all cores); device: the\n"
              "GPU of a CUDA context; tune: a tuning list (set_tune). Results never depend on any of them.\n"
              "Every bulk function takes ctx=; without it the default context (bulk.default_context()) serves.\n"
              "A context runs one call at a time (calls from several threads wait for each other); use one\n"
              "context per thread for parallel work. Usable as a `with` block (closes it).",
    .tp_new = ctx_new,
    .tp_init = (initproc)ctx_init,
    .tp_dealloc = (destructor)ctx_dealloc,
    .tp_repr = (reprfunc)ctx_repr,
    .tp_methods = ctx_methods,
    .tp_getset = ctx_getset,
};

/* ---- the module ---- */

static PyObject *m_cuda_device_count(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    int n;
    Py_BEGIN_ALLOW_THREADS
    n = bulk_cuda_device_count();
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(n);
}

static PyObject *m_version(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(bulk_version());
}

static PyMethodDef base_methods[] = {
    { "cuda_device_count", m_cuda_device_count, METH_NOARGS, "GPUs usable by this build (0 without CUDA)." },
    { "version", m_version, METH_NOARGS, "The library's version string." },
    { NULL, NULL, 0, NULL }
};

static struct PyModuleDef bulk_module = {
    PyModuleDef_HEAD_INIT, "bulk._bulk", "The compiled part of the bulk package (use the bulk package).", -1,
    NULL, NULL, NULL, NULL, NULL
};

static int add_methods(PyObject *m, PyMethodDef *defs)
{
    for (PyMethodDef *d = defs; d->ml_name; d++) {
        PyObject *f = PyCFunction_NewEx(d, NULL, PyModule_GetNameObject(m));
        if (!f || PyModule_AddObject(m, d->ml_name, f) < 0) {
            Py_XDECREF(f);
            return -1;
        }
    }
    return 0;
}

/* visible also where PyMODINIT_FUNC does not say so (before 3.9) in a -fvisibility=hidden build */
__attribute__((visibility("default"))) PyMODINIT_FUNC PyInit__bulk(void)
{
    PyObject *m = PyModule_Create(&bulk_module);
    if (!m) return NULL;
    if (PyType_Ready(&BulkCtx_Type) < 0) goto fail;
    Py_INCREF(&BulkCtx_Type);
    if (PyModule_AddObject(m, "Context", (PyObject *)&BulkCtx_Type) < 0) goto fail;
    if (add_methods(m, base_methods) < 0 || add_methods(m, bpy_int_methods) < 0 ||
        add_methods(m, bpy_gcd_methods) < 0 || add_methods(m, bpy_collatz_methods) < 0 ||
        add_methods(m, bpy_life_methods) < 0 || add_methods(m, bpy_bpbc_methods) < 0)
        goto fail;
    if (bpy_dev_init(m) < 0 || bpy_life_init(m) < 0 || bpy_bpbc_init(m) < 0) goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
