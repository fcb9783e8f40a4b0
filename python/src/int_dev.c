/* DeviceArray: bulk/int_device.h from Python (bulkpy.h).
 *
 * A DeviceArray owns one bulk_int_dev and holds a reference to the Context it was made on;
 * every operation runs on that context (a CUDA one: the library refuses the others with
 * BULK_ERR_NO_BACKEND, a RuntimeError here). The package (bulk/int.py) makes them with
 * to_device and routes bulk.int functions given DeviceArrays to dev_op. */
#include "bulkpy.h"

#include <bulk/int_device.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    bulk_int_dev *x;
    BulkCtx *ctx;
} DevArray;

static PyTypeObject DevArray_Type;

static void dev_dealloc(DevArray *self)
{
    if (self->x) bulk_int_dev_free(self->x);
    Py_XDECREF(self->ctx);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A new array of n x limbs on c (contents undefined). */
static DevArray *dev_new(BulkCtx *c, Py_ssize_t n, Py_ssize_t limbs)
{
    if (n < 0 || limbs < 1) {
        PyErr_SetString(PyExc_ValueError, "bulk.int.DeviceArray: shape must be (n >= 0, limbs >= 1)");
        return NULL;
    }
    DevArray *d = PyObject_New(DevArray, &DevArray_Type);
    if (!d) return NULL;
    d->x = NULL;
    Py_INCREF(c);
    d->ctx = c;
    if (bpy_enter(c, NULL) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_int_dev_alloc(c->ctx, &d->x, (size_t)n, (size_t)limbs);
    Py_END_ALLOW_THREADS
    if (bpy_leave(c, st) < 0) {
        d->x = NULL;
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* dev_empty(ctx, n, limbs) */
static PyObject *m_dev_empty(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    Py_ssize_t n, limbs;
    if (!PyArg_ParseTuple(args, "O&nn", bpy_ctx_converter, &c, &n, &limbs)) return NULL;
    return (PyObject *)dev_new(c, n, limbs);
}

/* dev_upload(ctx, buffer, n, limbs) */
static PyObject *m_dev_upload(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    PyObject *o;
    Py_ssize_t n, limbs;
    if (!PyArg_ParseTuple(args, "O&Onn", bpy_ctx_converter, &c, &o, &n, &limbs)) return NULL;
    DevArray *d = dev_new(c, n, limbs);
    if (!d) return NULL;
    Py_buffer b;
    if (bpy_buffer(o, &b, 0, (size_t)n * (size_t)limbs * 8, "bulk.int.to_device") < 0) goto fail;
    if (bpy_enter(c, NULL) < 0) {
        PyBuffer_Release(&b);
        goto fail;
    }
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_int_dev_upload(c->ctx, d->x, b.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    if (bpy_leave(c, st) < 0) goto fail;
    return (PyObject *)d;
fail:
    Py_DECREF(d);
    return NULL;
}

static PyObject *dev_download(DevArray *self, PyObject *o)
{
    Py_buffer b;
    size_t bytes = bulk_int_dev_count(self->x) * bulk_int_dev_limbs(self->x) * 8;
    if (bpy_buffer(o, &b, 1, bytes, "bulk.int.DeviceArray.download") < 0) return NULL;
    if (bpy_enter(self->ctx, NULL) < 0) {
        PyBuffer_Release(&b);
        return NULL;
    }
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_int_dev_download(self->ctx->ctx, self->x, b.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    if (bpy_leave(self->ctx, st) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *dev_get_n(DevArray *self, void *u)
{
    (void)u;
    return PyLong_FromSize_t(bulk_int_dev_count(self->x));
}

static PyObject *dev_get_limbs(DevArray *self, void *u)
{
    (void)u;
    return PyLong_FromSize_t(bulk_int_dev_limbs(self->x));
}

static PyObject *dev_get_ctx(DevArray *self, void *u)
{
    (void)u;
    Py_INCREF(self->ctx);
    return (PyObject *)self->ctx;
}

static int dev_check(PyObject *o, void *out)
{
    if (o == Py_None) {
        *(bulk_int_dev **)out = NULL;
        return 1;
    }
    if (!PyObject_TypeCheck(o, &DevArray_Type)) {
        PyErr_Format(PyExc_TypeError, "a bulk.int.DeviceArray is needed, not %.100s", Py_TYPE(o)->tp_name);
        return 0;
    }
    *(bulk_int_dev **)out = ((DevArray *)o)->x;
    return 1;
}

/* dev_op(ctx, op, r, r2, a, b, c): r (and r2: the remainder of divmod) are DeviceArrays the
 * package made with the right shapes; the library checks them again. */
static PyObject *m_dev_op(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    const char *op;
    bulk_int_dev *r, *r2, *a, *b, *m;
    if (!PyArg_ParseTuple(args, "O&sO&O&O&O&O&", bpy_ctx_converter, &c, &op, dev_check, &r,
                          dev_check, &r2, dev_check, &a, dev_check, &b, dev_check, &m))
        return NULL;
    if (bpy_enter(c, NULL) < 0) return NULL;
    int st = BULK_ERR_ARG;
    bulk_ctx *x = c->ctx;
    Py_BEGIN_ALLOW_THREADS
    if (!strcmp(op, "add")) st = bulk_int_dev_add(x, r, a, b);
    else if (!strcmp(op, "sub")) st = bulk_int_dev_sub(x, r, a, b);
    else if (!strcmp(op, "mul")) st = bulk_int_dev_mul(x, r, a, b);
    else if (!strcmp(op, "mul_lo")) st = bulk_int_dev_mul_lo(x, r, a, b);
    else if (!strcmp(op, "sqr")) st = bulk_int_dev_sqr(x, r, a);
    else if (!strcmp(op, "divmod")) st = bulk_int_dev_divmod(x, r, r2, a, b, NULL);
    else if (!strcmp(op, "mod")) st = bulk_int_dev_divmod(x, NULL, r, a, b, NULL);
    else if (!strcmp(op, "gcd")) st = bulk_int_dev_gcd(x, r, a, b);
    else if (!strcmp(op, "powmod")) st = bulk_int_dev_powmod(x, r, a, b, m, NULL);
    else if (!strcmp(op, "sync")) st = bulk_int_dev_sync(x);
    Py_END_ALLOW_THREADS
    if (bpy_leave(c, st) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef dev_methods[] = {
    { "download", (PyCFunction)dev_download, METH_O, NULL },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef dev_getset[] = {
    { "n", (getter)dev_get_n, NULL, "number of instances", NULL },
    { "limbs", (getter)dev_get_limbs, NULL, "64-bit limbs per instance", NULL },
    { "ctx", (getter)dev_get_ctx, NULL, "the Context the array lives on", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject DevArray_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bulk._bulk.DeviceHandle",
    .tp_basicsize = sizeof(DevArray),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "GPU memory of n instances of limbs 64-bit limbs (use bulk.int.DeviceArray).",
    .tp_dealloc = (destructor)dev_dealloc,
    .tp_methods = dev_methods,
    .tp_getset = dev_getset,
};

static PyMethodDef module_methods[] = {
    { "dev_empty", m_dev_empty, METH_VARARGS, NULL },
    { "dev_upload", m_dev_upload, METH_VARARGS, NULL },
    { "dev_op", m_dev_op, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL }
};

int bpy_dev_init(PyObject *m)
{
    if (PyType_Ready(&DevArray_Type) < 0) return -1;
    Py_INCREF(&DevArray_Type);
    if (PyModule_AddObject(m, "DeviceArrayBase", (PyObject *)&DevArray_Type) < 0) return -1;
    for (PyMethodDef *d = module_methods; d->ml_name; d++) {
        PyObject *f = PyCFunction_NewEx(d, NULL, NULL);
        if (!f || PyModule_AddObject(m, d->ml_name, f) < 0) return -1;
    }
    return 0;
}
