/* bulk/collatz.h from Python (bulkpy.h). Ranges arrive as inclusive [first, last] of 128-bit
 * Python ints (the package turns start/stop into them); the engines are built per call with
 * the sizes the package picks (bulk/collatz.py). */
#include "bulkpy.h"

#include <bulk/collatz.h>
#include <stdlib.h>
#include <string.h>

static int u128_conv(PyObject *o, void *out)
{
    bulk_limb_t w[2];
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "bulk.collatz: an int is needed, not %.100s", Py_TYPE(o)->tp_name);
        return 0;
    }
    if (bpy_int_to_limbs(o, w, 2, "bulk.collatz: a range bound", -1) < 0) return 0;
    ((bulk_u128 *)out)->lo = w[0];
    ((bulk_u128 *)out)->hi = w[1];
    return 1;
}

static PyObject *u128_int(bulk_u128 v)
{
    bulk_limb_t w[2] = { v.lo, v.hi };
    return bpy_int_from_limbs(w, 2);
}

static PyObject *wide_int(const bulk_collatz_wide *v)
{
    return bpy_int_from_limbs(v->limb, BULK_COLLATZ_WIDE_LIMBS);
}

/* [(n, value), ...] of count records */
static PyObject *record_list(const bulk_collatz_record *recs, size_t count)
{
    PyObject *list = PyList_New((Py_ssize_t)count);
    for (size_t i = 0; list && i < count; i++) {
        PyObject *t = Py_BuildValue("(NN)", u128_int(recs[i].n), wide_int(&recs[i].value));
        if (!t) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    return list;
}

/* collatz_exact(n) -> (delay, glide, peak) */
static PyObject *m_exact(PyObject *self, PyObject *arg)
{
    (void)self;
    bpy_ints x;
    if (bpy_ints_get(&x, arg, "bulk.collatz.delay") < 0) return NULL;
    if (!x.scalar) {
        bpy_ints_free(&x);
        PyErr_SetString(PyExc_TypeError, "bulk.collatz.delay: one int is needed");
        return NULL;
    }
    size_t limbs = bpy_limbs_for(x.bits), cap = limbs + 2, need = 0;
    bulk_limb_t *n = PyMem_Malloc(limbs * 8), *peak = NULL;
    PyObject *res = NULL;
    if (!n || bpy_ints_fill(&x, n, 0, 1, limbs, "bulk.collatz.delay") < 0) goto done;
    uint64_t delay = 0, glide = 0;
    int st;
    for (;;) {
        PyMem_Free(peak);
        if (!(peak = PyMem_Malloc(cap * 8))) break;
        Py_BEGIN_ALLOW_THREADS
        st = bulk_collatz_exact(n, limbs, &delay, &glide, peak, cap, &need);
        Py_END_ALLOW_THREADS
        if (st != BULK_ERR_OVERFLOW || need <= cap) break;
        cap = need;
    }
    if (!peak) {
        PyErr_NoMemory();
        goto done;
    }
    if (st != BULK_OK) {
        bpy_thread_error(st);
        goto done;
    }
    res = Py_BuildValue("(KKN)", (unsigned long long)delay, (unsigned long long)glide,
                        bpy_int_from_limbs(peak, need));
done:
    if (!n) PyErr_NoMemory();
    PyMem_Free(n);
    PyMem_Free(peak);
    bpy_ints_free(&x);
    return res;
}

/* A non-negative Python int below 2^256 into *v; -1 with TypeError / ValueError naming `what`. */
static int wide_arg(PyObject *o, bulk_collatz_wide *v, const char *what)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: an int is needed, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    return bpy_int_to_limbs(o, v->limb, BULK_COLLATZ_WIDE_LIMBS, what, -1) < 0 ? -1 : 0;
}

/* Builds an engine on c (inside a call: bpy_enter done). */
static int engine(BulkCtx *c, bulk_collatz_engine **e, int d, int k, int a)
{
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_collatz_engine_new(e, c->ctx, d, k, a);
    Py_END_ALLOW_THREADS
    return st;
}

/* collatz_delays(ctx, first, count, out uint32[count], d, a, progress) */
static PyObject *m_delays(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    bulk_u128 first;
    unsigned long long count;
    PyObject *o, *progress;
    int d, a;
    if (!PyArg_ParseTuple(args, "O&O&KOiiO", bpy_ctx_converter, &c, u128_conv, &first, &count, &o,
                          &d, &a, &progress))
        return NULL;
    Py_buffer b;
    if (bpy_buffer(o, &b, 1, (size_t)count * 4, "bulk.collatz.delays") < 0) return NULL;
    if (bpy_enter(c, progress) < 0) {
        PyBuffer_Release(&b);
        return NULL;
    }
    bulk_collatz_engine *e = NULL;
    int st = engine(c, &e, d, 0, a);
    if (st == BULK_OK) {
        Py_BEGIN_ALLOW_THREADS
        st = bulk_collatz_delays(c->ctx, e, first, count, b.buf);
        bulk_collatz_engine_free(e);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&b);
    if (bpy_leave(c, st) < 0) return NULL;
    Py_RETURN_NONE;
}

/* collatz_delay_stats(ctx, first, batch, nbatches, sum u64, min u32, max u32, d, a, progress) */
static PyObject *m_delay_stats(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    bulk_u128 first;
    unsigned long long batch, nb;
    PyObject *so, *mino, *maxo, *progress;
    int d, a;
    if (!PyArg_ParseTuple(args, "O&O&KKOOOiiO", bpy_ctx_converter, &c, u128_conv, &first, &batch,
                          &nb, &so, &mino, &maxo, &d, &a, &progress))
        return NULL;
    Py_buffer bs, bmin, bmax;
    const char *w = "bulk.collatz.delay_stats";
    if (bpy_buffer(so, &bs, 1, (size_t)nb * 8, w) < 0) return NULL;
    if (bpy_buffer(mino, &bmin, 1, (size_t)nb * 4, w) < 0) {
        PyBuffer_Release(&bs);
        return NULL;
    }
    if (bpy_buffer(maxo, &bmax, 1, (size_t)nb * 4, w) < 0) {
        PyBuffer_Release(&bs);
        PyBuffer_Release(&bmin);
        return NULL;
    }
    int st = BULK_OK, entered = bpy_enter(c, progress) == 0;
    if (entered) {
        bulk_collatz_engine *e = NULL;
        st = engine(c, &e, d, 0, a);
        if (st == BULK_OK) {
            Py_BEGIN_ALLOW_THREADS
            st = bulk_collatz_delay_stats(c->ctx, e, first, batch, nb, bs.buf, bmin.buf, bmax.buf);
            bulk_collatz_engine_free(e);
            Py_END_ALLOW_THREADS
        }
    }
    PyBuffer_Release(&bs);
    PyBuffer_Release(&bmin);
    PyBuffer_Release(&bmax);
    if (!entered || bpy_leave(c, st) < 0) return NULL;
    Py_RETURN_NONE;
}

/* collatz_verify(ctx, first, last, converge, d, k, k_stored, peaks, above, progress) -> dict;
 * peaks -1: computed (every backend computes them inside verify); above: None or an int below
 * 2^256. */
static PyObject *m_verify(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    bulk_u128 first, last;
    int conv, peaks;
    bulk_collatz_params p;
    PyObject *progress, *above_obj;
    if (!PyArg_ParseTuple(args, "O&O&O&piiiiOO", bpy_ctx_converter, &c, u128_conv, &first, u128_conv,
                          &last, &conv, &p.d, &p.k, &p.k_stored, &peaks, &above_obj, &progress))
        return NULL;
    bulk_collatz_wide above;
    int have_above = above_obj != Py_None;
    if (have_above && wide_arg(above_obj, &above, "bulk.collatz.verify: peak_above") < 0) return NULL;
    if (peaks < 0) peaks = 1;
    bulk_collatz_verify_result *r = PyMem_Malloc(sizeof *r);
    if (!r) return PyErr_NoMemory();
    if (bpy_enter(c, progress) < 0) {
        PyMem_Free(r);
        return NULL;
    }
    int st = bulk_collatz_choose(c->ctx, first, last, conv, &p);
    bulk_collatz_engine *e = NULL;
    if (st == BULK_OK) st = engine(c, &e, p.d, p.k_stored, 0);
    Py_BEGIN_ALLOW_THREADS
    if (st == BULK_OK && conv) st = bulk_collatz_engine_set_converge(e);
    if (st == BULK_OK && p.k_stored < p.k) st = bulk_collatz_engine_extend(e, p.k - p.k_stored);
    if (st == BULK_OK && peaks) st = bulk_collatz_engine_set_peaks(e, have_above ? &above : NULL);
    if (st == BULK_OK) st = bulk_collatz_verify(c->ctx, e, first, last, NULL, r);
    bulk_collatz_engine_free(e);
    Py_END_ALLOW_THREADS
    PyObject *res = NULL;
    if (bpy_leave(c, st) == 0) {
        PyObject *ov = PyList_New(r->n_overflow_values);
        for (uint32_t i = 0; ov && i < r->n_overflow_values; i++) {
            PyObject *v = u128_int(r->overflow_values[i]);
            if (!v) Py_CLEAR(ov);
            else PyList_SET_ITEM(ov, i, v);
        }
        int have_peak = (r->peak_n.lo | r->peak_n.hi) != 0; /* peak_n = 0: not computed */
        PyObject *hits = ov ? record_list(r->peak_hits, r->n_peak_hits) : NULL;
        if (!hits) Py_CLEAR(ov);
        PyObject *pk = NULL, *pn = NULL;
        if (ov) {
            pk = have_peak ? wide_int(&r->peak) : (Py_INCREF(Py_None), Py_None);
            pn = have_peak ? u128_int(r->peak_n) : (Py_INCREF(Py_None), Py_None);
        }
        if (ov && pk && pn)
            res = Py_BuildValue("{s:i,s:i,s:N,s:N,s:N,s:K,s:N,s:K,s:N,s:N,s:N,s:N}", "d", p.d, "k", p.k,
                                "covered", u128_int(r->covered), "iterated", u128_int(r->iterated),
                                "checksum", u128_int(r->checksum), "overflows",
                                (unsigned long long)r->overflows, "overflow_values", ov,
                                "max_glide", (unsigned long long)r->max_glide, "max_glide_n",
                                u128_int(r->max_glide_n), "peak", pk, "peak_n", pn, "peak_hits", hits);
        else {
            Py_XDECREF(ov);
            Py_XDECREF(hits);
            Py_XDECREF(pk);
            Py_XDECREF(pn);
        }
    }
    PyMem_Free(r);
    return res;
}

/* collatz_records(ctx, kind, first, last, above or None, progress) -> [(n, value), ...]: the
 * engine and run of `bulk collatz records` (bulk_collatz_records_engine; with above,
 * bulk_collatz_path_records_run, else bulk_collatz_records_run). */
static PyObject *m_records(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    int kind;
    bulk_u128 first, last;
    PyObject *above_obj, *progress;
    if (!PyArg_ParseTuple(args, "O&iO&O&OO", bpy_ctx_converter, &c, &kind, u128_conv, &first, u128_conv, &last,
                          &above_obj, &progress))
        return NULL;
    bulk_collatz_wide above;
    const int have_above = above_obj != Py_None;
    if (have_above && wide_arg(above_obj, &above, "bulk.collatz.records: above") < 0) return NULL;
    if (bpy_enter(c, progress) < 0) return NULL;
    bulk_collatz_engine *e = NULL;
    bulk_collatz_record *recs = NULL;
    size_t count = 0;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_collatz_records_engine(c->ctx, (bulk_collatz_kind)kind, first, first, last, have_above, -1, -1, -1, &e);
    if (st == BULK_OK)
        st = have_above ? bulk_collatz_path_records_run(c->ctx, e, first, last, &above, NULL, &recs, &count)
                        : bulk_collatz_records_run(c->ctx, e, (bulk_collatz_kind)kind, first, last, NULL, &recs, &count);
    bulk_collatz_engine_free(e);
    Py_END_ALLOW_THREADS
    PyObject *res = NULL;
    if (bpy_leave(c, st) == 0) {
        res = record_list(recs, count);
    }
    free(recs);
    return res;
}

PyMethodDef bpy_collatz_methods[] = {
    { "collatz_exact", m_exact, METH_O, NULL },
    { "collatz_delays", m_delays, METH_VARARGS, NULL },
    { "collatz_delay_stats", m_delay_stats, METH_VARARGS, NULL },
    { "collatz_verify", m_verify, METH_VARARGS, NULL },
    { "collatz_records", m_records, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL }
};
