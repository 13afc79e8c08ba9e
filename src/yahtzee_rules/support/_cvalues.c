/*
 * The values' compiled builder: a new instance of a slotted attrs class, its slots set
 * from positional arguments, without the checks of its __init__.
 *
 * The library builds its cards, turns, games and totals this way where its own rules
 * engine produced the fields (support/_frozen.py, raw_builder): a roll makes a new
 * game, and setting six slots from Python costs several times the rest of the roll.
 * Here each slot is set through its member descriptor's own setter, as
 * ``descriptor.__set__(value, field)`` sets it from Python, and the instance is
 * allocated as ``object.__new__(cls)`` allocates it (the type's tp_alloc), so the
 * value is the same object the Python builder makes, field for field.
 *
 * builder(spec) checks its spec once: a tuple of the class, then one member
 * descriptor of that class per slot, in the order the arguments come. The builder it
 * returns refuses any other number of arguments. Only the limited C API (3.11) is
 * used: one build serves every later CPython.
 */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#ifndef VALUES_SOURCE /* this file's CRC-32 in 8 hex digits, set by the build */
#define VALUES_SOURCE ""
#endif

/* The interface version: support/_frozen.py uses a module of its own version only. */
#define VERSION 1

typedef int (*setter_t)(PyObject *, PyObject *, PyObject *);

/* The member descriptors' tp_descr_set, the same function for every slot. */
static setter_t set_member = NULL;

/* spec: (cls, descriptor, ...), checked by builder(); args: one value per descriptor. */
static PyObject *
build(PyObject *spec, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t slots = PyTuple_Size(spec) - 1;
    if (nargs != slots) {
        PyObject *cls = PyTuple_GetItem(spec, 0);
        PyErr_Format(PyExc_TypeError, "the %R builder takes %zd values, not %zd", cls,
                     slots, nargs);
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)PyTuple_GetItem(spec, 0);
    allocfunc alloc = (allocfunc)PyType_GetSlot(cls, Py_tp_alloc);
    PyObject *value = alloc(cls, 0);
    if (value == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < slots; i++) {
        if (set_member(PyTuple_GetItem(spec, i + 1), value, args[i]) < 0) {
            Py_DECREF(value);
            return NULL;
        }
    }
    return value;
}

static PyMethodDef build_definition = {
    "build", (PyCFunction)(void (*)(void))build, METH_FASTCALL,
    "A new instance of the spec's class with its slots set from the arguments, in order."};

static PyObject *
builder(PyObject *module, PyObject *spec)
{
    if (!PyTuple_Check(spec) || PyTuple_Size(spec) < 2) {
        PyErr_SetString(PyExc_TypeError, "builder: give a tuple (class, descriptor, ...)");
        return NULL;
    }
    PyObject *cls = PyTuple_GetItem(spec, 0);
    if (!PyType_Check(cls)) {
        PyErr_Format(PyExc_TypeError, "builder: %R is not a class", cls);
        return NULL;
    }
    for (Py_ssize_t i = 1; i < PyTuple_Size(spec); i++) {
        PyObject *descriptor = PyTuple_GetItem(spec, i);
        if (!PyObject_TypeCheck(descriptor, &PyMemberDescr_Type)) {
            PyErr_Format(PyExc_TypeError, "builder: %R is not a slot's descriptor", descriptor);
            return NULL;
        }
        PyObject *owner = PyObject_GetAttrString(descriptor, "__objclass__");
        if (owner == NULL) {
            return NULL;
        }
        Py_DECREF(owner); /* only compared: the descriptor keeps its class alive */
        if (owner != cls) {
            PyErr_Format(PyExc_TypeError, "builder: %R is not a slot of %R", descriptor, cls);
            return NULL;
        }
    }
    return PyCFunction_NewEx(&build_definition, spec, NULL);
}

static PyMethodDef methods[] = {
    {"builder", builder, METH_O,
     "builder(spec): a function building spec[0] with its slots spec[1:] set, unchecked."},
    {NULL, NULL, 0, NULL},
};

static int
exec_module(PyObject *module)
{
    set_member = (setter_t)PyType_GetSlot(&PyMemberDescr_Type, Py_tp_descr_set);
    if (set_member == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "member descriptors have no setter");
        return -1;
    }
    if (PyModule_AddIntConstant(module, "VERSION", VERSION) < 0) {
        return -1;
    }
    return PyModule_AddStringConstant(module, "SOURCE", VALUES_SOURCE);
}

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, exec_module},
    {0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_cvalues",
    "The values' compiled builder (support/_frozen.py).", 0, methods, slots,
};

PyMODINIT_FUNC
PyInit__cvalues(void)
{
    return PyModuleDef_Init(&definition);
}
