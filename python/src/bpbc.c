/* bulk/circuit.h and bulk/cky.h from Python (bulkpy.h): the Circuit and Grammar handles. Input
 * vectors travel bit-sliced (bulk/circuit.h), strings as terminal indices with offsets; the
 * package (bulk/circuit.py, bulk/cky.py) converts with NumPy. */
#include "bulkpy.h"

#include <bulk/circuit.h>
#include <bulk/cky.h>
#include <string.h>

/* ---- circuits ---- */

typedef struct {
    PyObject_HEAD
    bulk_circuit *c;
} Circuit;

static PyTypeObject Circuit_Type;

static void circ_dealloc(Circuit *self)
{
    bulk_circuit_free(self->c);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* circuit_parse(data, name) */
static PyObject *m_circuit_parse(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer b;
    const char *name;
    if (!PyArg_ParseTuple(args, "y*s", &b, &name)) return NULL;
    bulk_circuit *c = NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_circuit_parse(&c, b.buf, (size_t)b.len, name);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    if (st != BULK_OK) return bpy_thread_error(st);
    Circuit *o = PyObject_New(Circuit, &Circuit_Type);
    if (!o) {
        bulk_circuit_free(c);
        return NULL;
    }
    o->c = c;
    return (PyObject *)o;
}

/* eval(ctx, in planes, out planes, nwords, progress) */
static PyObject *circ_eval(Circuit *self, PyObject *args)
{
    BulkCtx *c;
    PyObject *io, *oo, *progress;
    Py_ssize_t nw;
    if (!PyArg_ParseTuple(args, "O&OOnO", bpy_ctx_converter, &c, &io, &oo, &nw, &progress)) return NULL;
    Py_buffer bi, bo;
    if (bpy_buffer(io, &bi, 0, (size_t)self->c->inputs * (size_t)nw * 8, "bulk.circuit.eval") < 0)
        return NULL;
    if (bpy_buffer(oo, &bo, 1, (size_t)self->c->outputs * (size_t)nw * 8, "bulk.circuit.eval") < 0) {
        PyBuffer_Release(&bi);
        return NULL;
    }
    int st = BULK_OK, entered = bpy_enter(c, progress) == 0;
    if (entered) {
        Py_BEGIN_ALLOW_THREADS
        st = bulk_circuit_eval(c->ctx, self->c, bo.buf, bi.buf, (size_t)nw);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&bi);
    PyBuffer_Release(&bo);
    if (!entered || bpy_leave(c, st) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *circ_sizes(Circuit *self, void *u)
{
    (void)u;
    return Py_BuildValue("{s:I,s:I,s:I,s:I}", "inputs", self->c->inputs, "outputs",
                         self->c->outputs, "latches", self->c->latches, "ands", self->c->ands);
}

static PyMethodDef circ_methods[] = {
    { "eval", (PyCFunction)circ_eval, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef circ_getset[] = {
    { "sizes", (getter)circ_sizes, NULL, NULL, NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject Circuit_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bulk._bulk.CircuitHandle",
    .tp_basicsize = sizeof(Circuit),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)circ_dealloc,
    .tp_methods = circ_methods,
    .tp_getset = circ_getset,
};

/* ---- grammars ---- */

typedef struct {
    PyObject_HEAD
    bulk_grammar *g;
} Grammar;

static PyTypeObject Grammar_Type;

static void gram_dealloc(Grammar *self)
{
    bulk_grammar_free(self->g);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* grammar_parse(text bytes, name, mode) */
static PyObject *m_grammar_parse(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer b;
    const char *name;
    int mode;
    if (!PyArg_ParseTuple(args, "y*si", &b, &name, &mode)) return NULL;
    bulk_grammar *g = NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = bulk_grammar_parse(&g, b.buf, (size_t)b.len, name, mode);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    if (st != BULK_OK) return bpy_thread_error(st);
    Grammar *o = PyObject_New(Grammar, &Grammar_Type);
    if (!o) {
        bulk_grammar_free(g);
        return NULL;
    }
    o->g = g;
    return (PyObject *)o;
}

/* terminal(bytes) -> index or -1 */
static PyObject *gram_terminal(Grammar *self, PyObject *arg)
{
    char *s;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(arg, &s, &len) < 0) return NULL;
    return PyLong_FromLong(bulk_grammar_terminal(self->g, s, (size_t)len));
}

/* parse(ctx, syms int32, offsets uint64 (n + 1), n, accept uint8, progress) */
static PyObject *gram_parse(Grammar *self, PyObject *args)
{
    BulkCtx *c;
    PyObject *so, *oo, *ao, *progress;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "O&OOnOO", bpy_ctx_converter, &c, &so, &oo, &n, &ao, &progress))
        return NULL;
    Py_buffer bs, bo, ba;
    if (bpy_buffer(oo, &bo, 0, ((size_t)n + 1) * sizeof(size_t), "bulk.cky.parse") < 0) return NULL;
    size_t nsym = ((const size_t *)bo.buf)[n];
    if (bpy_buffer(so, &bs, 0, nsym * 4, "bulk.cky.parse") < 0) {
        PyBuffer_Release(&bo);
        return NULL;
    }
    if (bpy_buffer(ao, &ba, 1, (size_t)n, "bulk.cky.parse") < 0) {
        PyBuffer_Release(&bo);
        PyBuffer_Release(&bs);
        return NULL;
    }
    int st = BULK_OK, entered = bpy_enter(c, progress) == 0;
    if (entered) {
        Py_BEGIN_ALLOW_THREADS
        st = bulk_cky_parse(c->ctx, self->g, ba.buf, bs.buf, bo.buf, (size_t)n);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&bs);
    PyBuffer_Release(&bo);
    PyBuffer_Release(&ba);
    if (!entered || bpy_leave(c, st) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *gram_sizes(Grammar *self, void *u)
{
    (void)u;
    return Py_BuildValue("{s:n,s:n,s:n,s:n,s:O,s:s}", "nonterminals",
                         (Py_ssize_t)bulk_grammar_nonterminals(self->g), "binary_rules",
                         (Py_ssize_t)bulk_grammar_binary_rules(self->g), "unary_rules",
                         (Py_ssize_t)bulk_grammar_unary_rules(self->g), "terminals",
                         (Py_ssize_t)bulk_grammar_terminals(self->g), "accepts_empty",
                         bulk_grammar_accepts_empty(self->g) ? Py_True : Py_False, "mode",
                         bulk_grammar_mode(self->g) == BULK_CKY_TOKENS ? "tokens" : "chars");
}

static PyMethodDef gram_methods[] = {
    { "terminal", (PyCFunction)gram_terminal, METH_O, NULL },
    { "parse", (PyCFunction)gram_parse, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef gram_getset[] = {
    { "sizes", (getter)gram_sizes, NULL, NULL, NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject Grammar_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bulk._bulk.GrammarHandle",
    .tp_basicsize = sizeof(Grammar),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)gram_dealloc,
    .tp_methods = gram_methods,
    .tp_getset = gram_getset,
};

PyMethodDef bpy_bpbc_methods[] = {
    { "circuit_parse", m_circuit_parse, METH_VARARGS, NULL },
    { "grammar_parse", m_grammar_parse, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL }
};

int bpy_bpbc_init(PyObject *m)
{
    if (PyType_Ready(&Circuit_Type) < 0 || PyType_Ready(&Grammar_Type) < 0) return -1;
    Py_INCREF(&Circuit_Type);
    Py_INCREF(&Grammar_Type);
    if (PyModule_AddObject(m, "CircuitHandle", (PyObject *)&Circuit_Type) < 0) return -1;
    return PyModule_AddObject(m, "GrammarHandle", (PyObject *)&Grammar_Type);
}
