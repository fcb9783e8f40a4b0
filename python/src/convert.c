/* Python int <-> 64-bit limbs, whole sequences at a time (bulkpy.h).
 *
 * CPython 3.8 to 3.13 (BPY_DIGITS): the ints' digits (PyLong_SHIFT bits each, least
 * significant first) are repacked into limbs and back directly, a few nanoseconds a limb;
 * CPython's own byte converters, which work a byte at a time, take microseconds for a 2048-bit
 * value, more than a multiplication. The layout of the digits is CPython's private one: it is
 * the same from 3.0 to 3.11 (Py_SIZE is the signed digit count) and in 3.12 and 3.13 (lv_tag:
 * count << 3 | sign, sign 0 positive, 1 zero, 2 negative); other versions take the public
 * byte converters (PyLong_AsNativeBytes / PyLong_FromUnsignedNativeBytes from 3.13,
 * _PyLong_AsByteArray / _PyLong_FromByteArray before), which the limb layout allows on a
 * little-endian host: limbs are the value's little-endian bytes. */
#include "bulkpy.h"

#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "bulk's Python extension assumes a little-endian host (limbs = little-endian bytes)"
#endif

#if PY_VERSION_HEX >= 0x03080000 && PY_VERSION_HEX < 0x030E0000 && !defined(PYPY_VERSION) && \
    !defined(Py_LIMITED_API)
#define BPY_DIGITS 1
#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h>
#endif
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

#ifdef BPY_DIGITS
/* The digits of v and their count; -1 for a negative v. */
static Py_ssize_t digits_of(PyObject *v, const digit **d)
{
    PyLongObject *l = (PyLongObject *)v;
#if PY_VERSION_HEX >= 0x030C0000
    uintptr_t tag = l->long_value.lv_tag;
    *d = l->long_value.ob_digit;
    return (tag & 3) == 2 ? -1 : (Py_ssize_t)(tag >> 3);
#else
    *d = l->ob_digit;
    return Py_SIZE(l) < 0 ? -1 : Py_SIZE(l);
#endif
}

static Py_ssize_t bitlen64(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }
#endif

Py_ssize_t bpy_int_bits(PyObject *v, const char *what, Py_ssize_t i)
{
#ifdef BPY_DIGITS
    const digit *d;
    Py_ssize_t nd = digits_of(v, &d);
    if (nd < 0) return negative_error(what, i);
    return nd ? (nd - 1) * PyLong_SHIFT + bitlen64(d[nd - 1]) : 0;
#elif defined(BPY_NATIVE_BYTES)
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
#ifdef BPY_DIGITS
    const digit *d;
    Py_ssize_t nd = digits_of(v, &d);
    if (nd < 0) return negative_error(what, i);
    if (nd && (size_t)((nd - 1) * PyLong_SHIFT + bitlen64(d[nd - 1])) > limbs * 64) goto too_wide;
    size_t li = 0;
    uint64_t acc = 0;
    int have = 0; /* bits in acc */
    for (Py_ssize_t k = 0; k < nd; k++) {
        acc |= (uint64_t)d[k] << have;
        have += PyLong_SHIFT;
        if (have >= 64) {
            out[li++] = acc;
            have -= 64;
            acc = have ? (uint64_t)d[k] >> (PyLong_SHIFT - have) : 0;
        }
    }
    if (li < limbs) out[li++] = acc;
    while (li < limbs) out[li++] = 0;
    return 0;
#elif defined(BPY_NATIVE_BYTES)
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
#ifdef BPY_DIGITS
    if (n == 0) return PyLong_FromLong(0);
    size_t bits = (n - 1) * 64 + (size_t)bitlen64(a[n - 1]);
    Py_ssize_t nd = (Py_ssize_t)((bits + PyLong_SHIFT - 1) / PyLong_SHIFT);
    PyLongObject *r = _PyLong_New(nd); /* positive, nd digits */
    if (!r) return NULL;
#if PY_VERSION_HEX >= 0x030C0000
    digit *d = r->long_value.ob_digit;
#else
    digit *d = r->ob_digit;
#endif
    for (Py_ssize_t k = 0; k < nd; k++) {
        size_t p = (size_t)k * PyLong_SHIFT, li = p / 64, off = p % 64;
        uint64_t x = a[li] >> off;
        if (off + PyLong_SHIFT > 64 && li + 1 < n) x |= a[li + 1] << (64 - off);
        d[k] = (digit)(x & PyLong_MASK);
    }
    return (PyObject *)r;
#elif defined(BPY_NATIVE_BYTES)
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

int bpy_ints_fill(const bpy_ints *x, bulk_limb_t *out, Py_ssize_t first, Py_ssize_t n,
                  size_t limbs, const char *what)
{
    if (x->scalar) {
        if (n == 0) return 0;
        if (bpy_int_to_limbs(x->scalar, out, limbs, what, -1) < 0) return -1;
        for (Py_ssize_t i = 1; i < n; i++) memcpy(out + (size_t)i * limbs, out, limbs * 8);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (bpy_int_to_limbs(x->items[first + i], out + (size_t)i * limbs, limbs, what, first + i) < 0)
            return -1;
    return 0;
}

int bpy_list_put(PyObject *list, Py_ssize_t first, const bulk_limb_t *a, Py_ssize_t n, size_t limbs)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = bpy_int_from_limbs(a + (size_t)i * limbs, limbs);
        if (!v) return -1;
        PyList_SET_ITEM(list, first + i, v);
    }
    return 0;
}

PyObject *bpy_list_from_limbs(const bulk_limb_t *a, Py_ssize_t n, size_t limbs)
{
    PyObject *list = PyList_New(n);
    if (list && bpy_list_put(list, 0, a, n, limbs) < 0) Py_CLEAR(list);
    return list;
}
