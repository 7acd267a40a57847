/* A CPython extension module (name from -DGD_EXT_NAME) whose calls()
 * runs gd_rt_calls() (tests/trace/rt_calls.c, linked in): the runtime is
 * a dependency of a module CPython imports with RTLD_LOCAL, as PyTorch's
 * libtorch_hip / libtorch_cuda are. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

int gd_rt_calls(void);

static PyObject *calls(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	return PyLong_FromLong(gd_rt_calls());
}

static PyMethodDef methods[] = {
    {"calls", calls, METH_NOARGS, "run the runtime calls"},
    {NULL, NULL, 0, NULL},
};

#define STR_(x) #x
#define STR(x) STR_(x)
#define INIT_(n) PyInit_##n
#define INIT(n) INIT_(n)

static struct PyModuleDef mod = {
    PyModuleDef_HEAD_INIT,
    STR(GD_EXT_NAME),
    NULL,
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC INIT(GD_EXT_NAME)(void);
PyMODINIT_FUNC INIT(GD_EXT_NAME)(void)
{
	return PyModule_Create(&mod);
}
