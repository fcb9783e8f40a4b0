/* Python int <-> 64-bit limbs, whole sequences at a time (bulkpy.h).
 *
 * The limb arrays are little-endian 64-bit words, so on a little-endian host they are the
 * little-endian byte string of the value: CPython's own byte conversions do the work
 * (PyLong_AsNativeBytes / PyLong_FromUnsignedNativeBytes from 3.13; _PyLong_AsByteArray /
 * _PyLong_FromByteArray, which are all older versions have), linear in the size, no
 * Python-level loop. */
#include "bulkpy.h"

#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "bulk's Python extension assumes a little-endian host (limbs = little-endian bytes)"
#endif

#if PY_VERSION_HEX >= 0x030D0000
#define BPY_NATIVE_BYTES 1
#define BPY_AS_FLAGS (Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER | \
                      Py_ASNATIVEBYTES_REJECT_NEGATIVE)
#endif

static int negative_error(const char *what, Py_ssize_t i)
{
    if (i >= 0)
        PyErr_Format(PyExc_ValueError,
                     "%s: item %zd: negative (bulk integers are unsigned: pass values >= 0)", what, i);
    else
        PyErr_Format(PyExc_ValueError, "%s: negative (bulk integers are unsigned: pass values >= 0)", what);
    return -1;
}

Py_ssize_t bpy_int_bits(PyObject *v, const char *what, Py_ssize_t i)
{
#ifdef BPY_NATIVE_BYTES
    Py_ssize_t bytes = PyLong_AsNativeBytes(v, NULL, 0, BPY_AS_FLAGS);
    if (bytes < 0) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            return negative_error(what, i);
        }
        return -1;
    }
    if (bytes == 0) return 0;
    /* the top byte's bits: one more call through a small buffer would cost as much as the
     * conversion; a byte-granular length is enough for sizing (limbs = ceil(bits / 64)) */
    return bytes * 8;
#else
    if (_PyLong_Sign(v) < 0) return negative_error(what, i);
    size_t b = _PyLong_NumBits(v);
    if (b == (size_t)-1 && PyErr_Occurred()) return -1;
    return (Py_ssize_t)b;
#endif
}

int bpy_int_to_limbs(PyObject *v, bulk_limb_t *out, size_t limbs, const char *what, Py_ssize_t i)
{
#ifdef BPY_NATIVE_BYTES
    Py_ssize_t need = PyLong_AsNativeBytes(v, out, (Py_ssize_t)(limbs * 8), BPY_AS_FLAGS);
    if (need < 0) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            return negative_error(what, i);
        }
        return -1;
    }
    if ((size_t)need > limbs * 8) goto too_wide;
    return 0;
#else
    if (_PyLong_Sign(v) < 0) return negative_error(what, i);
    if (_PyLong_AsByteArray((PyLongObject *)v, (unsigned char *)out, limbs * 8, 1, 0) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        goto too_wide;
    }
    return 0;
#endif
too_wide:
    PyErr_Format(PyExc_ValueError, "%s: item %zd: does not fit %zu bits", what, i, limbs * 64);
    return -1;
}

PyObject *bpy_int_from_limbs(const bulk_limb_t *a, size_t limbs)
{
    size_t n = limbs;
    while (n > 0 && a[n - 1] == 0) n--;
#ifdef BPY_NATIVE_BYTES
    return PyLong_FromUnsignedNativeBytes(a, n * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)a, n * 8, 1, 0);
#endif
}

/* ---- sequences ---- */

void bpy_ints_free(bpy_ints *x)
{
    if (x->items) {
        for (Py_ssize_t i = 0; i < x->n; i++) Py_XDECREF(x->items[i]);
        PyMem_Free(x->items);
    }
    Py_XDECREF(x->scalar);
    memset(x, 0, sizeof *x);
}

/* An int for v: v itself (new reference) or its __index__; TypeError naming the item. */
static PyObject *as_int(PyObject *v, const char *what, Py_ssize_t i)
{
    if (PyLong_CheckExact(v)) {
        Py_INCREF(v);
        return v;
    }
    if (PyFloat_Check(v) || !PyIndex_Check(v)) {
        if (i >= 0)
            PyErr_Format(PyExc_TypeError, "%s: item %zd: an int is needed, not %.100s", what, i,
                         Py_TYPE(v)->tp_name);
        else
            PyErr_Format(PyExc_TypeError, "%s: an int or a sequence of ints is needed, not %.100s",
                         what, Py_TYPE(v)->tp_name);
        return NULL;
    }
    return PyNumber_Index(v);
}

int bpy_ints_get(bpy_ints *x, PyObject *seq, const char *what)
{
    memset(x, 0, sizeof *x);
    if (PyLong_Check(seq) || (PyIndex_Check(seq) && !PySequence_Check(seq))) { /* one int, broadcast */
        if (!(x->scalar = as_int(seq, what, -1))) return -1;
        if ((x->bits = bpy_int_bits(x->scalar, what, -1)) < 0) return bpy_ints_free(x), -1;
        return 0;
    }
    PyObject *fast = PySequence_Fast(seq, "");
    if (!fast) {
        PyErr_Format(PyExc_TypeError, "%s: an int or a sequence of ints is needed, not %.100s",
                     what, Py_TYPE(seq)->tp_name);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **src = PySequence_Fast_ITEMS(fast);
    x->items = PyMem_Calloc(n ? (size_t)n : 1, sizeof *x->items);
    if (!x->items) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    x->n = n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = as_int(src[i], what, i);
        if (!v) goto fail;
        x->items[i] = v;
        Py_ssize_t b = bpy_int_bits(v, what, i);
        if (b < 0) goto fail;
        if (b > x->bits) x->bits = b;
    }
    Py_DECREF(fast);
    return 0;
fail:
    Py_DECREF(fast);
    bpy_ints_free(x);
    return -1;
}

int bpy_ints_fill(const bpy_ints *x, bulk_limb_t *out, Py_ssize_t n, size_t limbs, const char *what)
{
    if (x->scalar) {
        if (n == 0) return 0;
        if (bpy_int_to_limbs(x->scalar, out, limbs, what, -1) < 0) return -1;
        for (Py_ssize_t i = 1; i < n; i++) memcpy(out + (size_t)i * limbs, out, limbs * 8);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (bpy_int_to_limbs(x->items[i], out + (size_t)i * limbs, limbs, what, i) < 0) return -1;
    return 0;
}

PyObject *bpy_list_from_limbs(const bulk_limb_t *a, Py_ssize_t n, size_t limbs)
{
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = bpy_int_from_limbs(a + (size_t)i * limbs, limbs);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}
