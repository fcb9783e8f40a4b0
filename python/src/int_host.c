/* bulk/int.h on sequences of Python ints and on limb buffers (bulkpy.h).
 *
 *   int_list(ctx, op, a, b, c) -> list (or a tuple of two lists for divmod)
 *       a, b, c: sequences of ints or ints (broadcast); the width is the smallest that holds
 *       every operand, so results are exact (add carries into one more bit, sub of a < b
 *       gives the negative difference).
 *   int_array(ctx, op, outs, ins, n, limbs, a_limbs, reps) -> None, or with reps > 0 the
 *       fastest of reps timed library calls in seconds (the in-process C API baseline of
 *       bench/python); outs and ins are buffers the package sized. */
#include "bulkpy.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum op { OP_ADD, OP_SUB, OP_MUL, OP_SQR, OP_DIVMOD, OP_MOD, OP_GCD, OP_INVMOD, OP_POWMOD, OP_CMP };

static const struct { const char *name; int nin; } ops[] = {
    [OP_ADD] = { "add", 2 },       [OP_SUB] = { "sub", 2 },       [OP_MUL] = { "mul", 2 },
    [OP_SQR] = { "sqr", 1 },       [OP_DIVMOD] = { "divmod", 2 }, [OP_MOD] = { "mod", 2 },
    [OP_GCD] = { "gcd", 2 },       [OP_INVMOD] = { "invmod", 2 }, [OP_POWMOD] = { "powmod", 3 },
    [OP_CMP] = { "cmp", 2 },
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

static int op_parse(const char *s)
{
    for (int i = 0; i < NOPS; i++)
        if (!strcmp(s, ops[i].name)) return i;
    PyErr_Format(PyExc_ValueError, "bulk.int: unknown operation '%s'", s);
    return -1;
}

/* Output limbs of op for operands of L limbs (a of la for divmod/mod). */
static size_t out_limbs(int op, size_t L, size_t la)
{
    return op == OP_MUL || op == OP_SQR ? 2 * L : op == OP_DIVMOD ? la : L;
}

/* The library call. r: the result (the quotient for divmod), r2: the remainder of divmod,
 * flags: carry/borrow (may be NULL), cmp: the comparison results. The GIL is released. */
static int call_op(bulk_ctx *ctx, int op, bulk_limb_t *r, bulk_limb_t *r2, uint8_t *flags,
                   int8_t *cmp, const bulk_limb_t *a, const bulk_limb_t *b, const bulk_limb_t *c,
                   size_t n, size_t L, size_t la)
{
    switch (op) {
    case OP_ADD: return bulk_int_add(ctx, r, flags, a, b, n, L);
    case OP_SUB: return bulk_int_sub(ctx, r, flags, a, b, n, L);
    case OP_MUL: return bulk_int_mul(ctx, r, a, b, n, L);
    case OP_SQR: return bulk_int_sqr(ctx, r, a, n, L);
    case OP_DIVMOD: return bulk_int_divmod(ctx, r, r2, a, la, b, n, L, NULL);
    case OP_MOD: return bulk_int_divmod(ctx, NULL, r, a, la, b, n, L, NULL);
    case OP_GCD: return bulk_int_gcd(ctx, r, a, b, n, L);
    case OP_INVMOD: return bulk_int_invmod(ctx, r, a, b, n, L, NULL);
    case OP_POWMOD: return bulk_int_powmod(ctx, r, a, b, c, n, L, NULL);
    case OP_CMP: return bulk_int_cmp(ctx, cmp, a, b, n, L);
    }
    return BULK_ERR_ARG;
}

/* ---- lists ---- */

/* The instance count of the operands: the common length of the sequences (ValueError when
 * they differ); 1 when all are scalars. */
static int common_n(const bpy_ints *x, int k, const char *what, Py_ssize_t *n)
{
    Py_ssize_t len = -1;
    for (int i = 0; i < k; i++) {
        if (x[i].scalar) continue;
        if (len >= 0 && x[i].n != len) {
            PyErr_Format(PyExc_ValueError, "%s: operands of different lengths (%zd and %zd)", what,
                         len, x[i].n);
            return -1;
        }
        len = x[i].n;
    }
    *n = len < 0 ? 1 : len;
    return 0;
}

/* add and sub: the carry/borrow folded back in, for exact results (list[first + i]). */
static int fold_flags(int op, PyObject *list, Py_ssize_t first, const uint8_t *flags, Py_ssize_t n,
                      size_t L)
{
    PyObject *w = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!flags[i]) continue;
        if (!w) {
            PyObject *one = PyLong_FromLong(1), *shift = PyLong_FromSize_t(64 * L);
            if (one && shift) w = PyNumber_Lshift(one, shift);
            Py_XDECREF(one);
            Py_XDECREF(shift);
            if (!w) return -1;
        }
        PyObject *v = PyList_GET_ITEM(list, first + i);
        PyObject *e = op == OP_ADD ? PyNumber_Add(v, w) : PyNumber_Subtract(v, w);
        if (!e) {
            Py_DECREF(w);
            return -1;
        }
        PyList_SetItem(list, first + i, e);
    }
    Py_XDECREF(w);
    return 0;
}

/* The library names a failing instance of the chunk it was given: renumber it from `first`. */
static void chunk_error(BulkCtx *c, int st, Py_ssize_t first)
{
    const char *msg = bulk_ctx_last_error(c->ctx), *p = strstr(msg, "instance ");
    unsigned long long k;
    int len;
    if (first == 0 || !p || sscanf(p, "instance %llu%n", &k, &len) != 1) {
        bpy_error(st, msg);
        return;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%.*sinstance %llu%s", (int)(p - msg), msg, k + (unsigned long long)first, p + len);
    bpy_error(st, buf);
}

/* Instances per library call of the list path: on the CPU about 1 MiB of limbs per thread, so
 * that the conversions and the arithmetic of a chunk share the cache and the buffers are
 * reused (fresh pages of a whole-list buffer cost more than a 1024-bit multiplication); on a
 * GPU everything at once. */
static Py_ssize_t chunk_size(BulkCtx *c, size_t limbs_per_instance)
{
    if (bulk_ctx_backend(c->ctx) == BULK_BACKEND_CUDA) return PY_SSIZE_T_MAX;
    size_t per = limbs_per_instance * 8 + 2, t = (size_t)bulk_ctx_threads(c->ctx);
    size_t k = ((size_t)1 << 20) * (t ? t : 1) / per;
    return (Py_ssize_t)(k < 64 ? 64 : k);
}

static PyObject *m_int_list(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    const char *opname;
    PyObject *in[3] = { Py_None, Py_None, Py_None };
    if (!PyArg_ParseTuple(args, "O&s|OOO", bpy_ctx_converter, &c, &opname, &in[0], &in[1], &in[2]))
        return NULL;
    int op = op_parse(opname);
    if (op < 0 || bpy_check_open(c) < 0) return NULL;
    char what[32];
    snprintf(what, sizeof what, "bulk.int.%s", opname);
    int k = ops[op].nin;
    bpy_ints x[3];
    memset(x, 0, sizeof x);
    PyObject *res = NULL, *out1 = NULL, *out2 = NULL;
    bulk_limb_t *buf = NULL;
    int got = 0;
    for (; got < k; got++)
        if (bpy_ints_get(&x[got], in[got], what) < 0) goto done;
    Py_ssize_t n;
    if (common_n(x, k, what, &n) < 0) goto done;
    Py_ssize_t bits = 0;
    for (int i = 0; i < k; i++)
        if ((op != OP_DIVMOD && op != OP_MOD) || i == 1) bits = x[i].bits > bits ? x[i].bits : bits;
    size_t L = bpy_limbs_for(bits), la = L;
    if (op == OP_DIVMOD || op == OP_MOD) { /* a may be up to twice the divisor's width */
        size_t lx = bpy_limbs_for(x[0].bits);
        if (lx > 2 * L) L = (lx + 1) / 2;
        la = lx > L ? 2 * L : L;
    }
    size_t lin[3] = { la, k > 1 ? L : 0, k > 2 ? L : 0 }, lo = out_limbs(op, L, la);
    size_t lo2 = op == OP_DIVMOD ? L : 0, per = lin[0] + lin[1] + lin[2] + lo + lo2;
    Py_ssize_t chunk = chunk_size(c, per);
    if (chunk > n) chunk = n;
    buf = PyMem_Malloc(per * 8 * (size_t)chunk + (size_t)chunk + 1);
    out1 = PyList_New(n);
    out2 = op == OP_DIVMOD ? PyList_New(n) : NULL;
    if (!buf || !out1 || (op == OP_DIVMOD && !out2)) {
        if (!buf) PyErr_NoMemory();
        goto done;
    }
    bulk_limb_t *inp[3] = { buf, buf + lin[0] * (size_t)chunk, buf + (lin[0] + lin[1]) * (size_t)chunk };
    bulk_limb_t *r = buf + (lin[0] + lin[1] + lin[2]) * (size_t)chunk, *r2 = r + lo * (size_t)chunk;
    uint8_t *flags = (uint8_t *)(r2 + lo2 * (size_t)chunk);
    for (Py_ssize_t first = 0; first < n; first += chunk) {
        Py_ssize_t m = n - first < chunk ? n - first : chunk;
        for (int i = 0; i < k; i++)
            if (bpy_ints_fill(&x[i], inp[i], first, m, lin[i], what) < 0) goto done;
        if (bpy_enter(c, NULL) < 0) goto done;
        int st;
        Py_BEGIN_ALLOW_THREADS
        st = call_op(c->ctx, op, r, r2, flags, (int8_t *)flags, inp[0], inp[1], inp[2], (size_t)m, L, la);
        Py_END_ALLOW_THREADS
        if (st != BULK_OK && !c->exc_type) {
            chunk_error(c, st, first);
            bpy_leave(c, BULK_OK);
            goto done;
        }
        if (bpy_leave(c, st) < 0) goto done;
        if (op == OP_CMP) {
            for (Py_ssize_t i = 0; i < m; i++) {
                PyObject *v = PyLong_FromLong(((int8_t *)flags)[i]);
                if (!v) goto done;
                PyList_SET_ITEM(out1, first + i, v);
            }
            continue;
        }
        if (bpy_list_put(out1, first, r, m, lo) < 0) goto done;
        if (op == OP_DIVMOD && bpy_list_put(out2, first, r2, m, L) < 0) goto done;
        if ((op == OP_ADD || op == OP_SUB) && fold_flags(op, out1, first, flags, m, lo) < 0) goto done;
    }
    if (op == OP_DIVMOD) res = PyTuple_Pack(2, out1, out2);
    else {
        res = out1;
        out1 = NULL;
    }
done:
    Py_XDECREF(out1);
    Py_XDECREF(out2);
    for (int i = 0; i < got && i < k; i++) bpy_ints_free(&x[i]);
    PyMem_Free(buf);
    return res;
}

/* ---- buffers ---- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static PyObject *m_int_array(PyObject *self, PyObject *args)
{
    (void)self;
    BulkCtx *c;
    const char *opname;
    PyObject *outs, *ins;
    Py_ssize_t n, L, la, reps = 0;
    if (!PyArg_ParseTuple(args, "O&sO!O!nnn|n", bpy_ctx_converter, &c, &opname, &PyTuple_Type,
                          &outs, &PyTuple_Type, &ins, &n, &L, &la, &reps))
        return NULL;
    int op = op_parse(opname);
    if (op < 0) return NULL;
    if (n < 0 || L < 1 || la < 1) return PyErr_Format(PyExc_ValueError, "bulk.int.%s: bad shape", opname);
    int k = ops[op].nin;
    if (PyTuple_GET_SIZE(ins) != k || PyTuple_GET_SIZE(outs) != 2)
        return PyErr_Format(PyExc_ValueError, "bulk.int.%s: %d operands needed", opname, k);
    Py_buffer bi[3], bo[2];
    int gi = 0, go = 0, st = BULK_OK;
    PyObject *res = NULL;
    size_t lin[3] = { (size_t)la, (size_t)L, (size_t)L };
    for (; gi < k; gi++)
        if (bpy_buffer(PyTuple_GET_ITEM(ins, gi), &bi[gi], 0, lin[gi] * 8 * (size_t)n, opname) < 0) goto done;
    size_t osz[2] = { out_limbs(op, (size_t)L, (size_t)la) * 8 * (size_t)n,
                      op == OP_DIVMOD ? (size_t)L * 8 * (size_t)n : (size_t)n };
    if (op == OP_CMP) osz[0] = (size_t)n;
    for (; go < 2; go++) {
        PyObject *o = PyTuple_GET_ITEM(outs, go);
        if (o == Py_None) {
            bo[go].buf = NULL;
            continue;
        }
        if (bpy_buffer(o, &bo[go], 1, osz[go], opname) < 0) goto done;
    }
    if (bpy_enter(c, NULL) < 0) goto done;
    double best = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t rep = 0; rep < (reps > 0 ? reps : 1) && st == BULK_OK; rep++) {
        double t0 = now_s();
        st = call_op(c->ctx, op, op == OP_CMP ? NULL : bo[0].buf, bo[1].buf, bo[1].buf,
                     bo[0].buf, bi[0].buf, k > 1 ? bi[1].buf : NULL, k > 2 ? bi[2].buf : NULL,
                     (size_t)n, (size_t)L, (size_t)la);
        double t = now_s() - t0;
        if (rep == 0 || t < best) best = t;
    }
    Py_END_ALLOW_THREADS
    if (bpy_leave(c, st) < 0) goto done;
    if (reps > 0) res = PyFloat_FromDouble(best);
    else {
        Py_INCREF(Py_None);
        res = Py_None;
    }
done:
    for (int i = 0; i < gi; i++) PyBuffer_Release(&bi[i]);
    for (int i = 0; i < go; i++)
        if (bo[i].buf) PyBuffer_Release(&bo[i]);
    return res;
}

/* to_limbs(seq, limbs, out): writes the ints of seq into out (n * limbs limbs). */
static PyObject *m_to_limbs(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *seq, *out;
    Py_ssize_t L;
    if (!PyArg_ParseTuple(args, "OnO", &seq, &L, &out)) return NULL;
    bpy_ints x;
    if (bpy_ints_get(&x, seq, "bulk.int.to_limbs") < 0) return NULL;
    Py_ssize_t n = x.scalar ? 1 : x.n;
    Py_buffer b;
    if (bpy_buffer(out, &b, 1, (size_t)n * (size_t)L * 8, "bulk.int.to_limbs") < 0) {
        bpy_ints_free(&x);
        return NULL;
    }
    int rc = bpy_ints_fill(&x, b.buf, 0, n, (size_t)L, "bulk.int.to_limbs");
    PyBuffer_Release(&b);
    bpy_ints_free(&x);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

/* max_bits(seq): the largest bit length of the ints (0 for none). */
static PyObject *m_max_bits(PyObject *self, PyObject *seq)
{
    (void)self;
    bpy_ints x;
    if (bpy_ints_get(&x, seq, "bulk.int.to_limbs") < 0) return NULL;
    Py_ssize_t b = x.bits;
    bpy_ints_free(&x);
    return PyLong_FromSsize_t(b);
}

/* from_limbs(buf, n, limbs) -> list of ints. */
static PyObject *m_from_limbs(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *o;
    Py_ssize_t n, L;
    if (!PyArg_ParseTuple(args, "Onn", &o, &n, &L)) return NULL;
    Py_buffer b;
    if (bpy_buffer(o, &b, 0, (size_t)n * (size_t)L * 8, "bulk.int.from_limbs") < 0) return NULL;
    PyObject *r = bpy_list_from_limbs(b.buf, n, (size_t)L);
    PyBuffer_Release(&b);
    return r;
}

PyMethodDef bpy_int_methods[] = {
    { "int_list", m_int_list, METH_VARARGS, NULL },
    { "int_array", m_int_array, METH_VARARGS, NULL },
    { "int_to_limbs", m_to_limbs, METH_VARARGS, NULL },
    { "int_max_bits", m_max_bits, METH_O, NULL },
    { "int_from_limbs", m_from_limbs, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL }
};
