#include "graphfn/bindings/variable_object.h"

#include "graphfn/bindings/convert.h"

namespace graphfn {
namespace {

VariableObject* as_variable(PyObject* self) { return reinterpret_cast<VariableObject*>(self); }

int missing(PyObject* self, const char* name) {
  PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%s'", Py_TYPE(self)->tp_name, name);
  return -1;
}

PyObject* get_handle(PyObject* self, void*) {
  PyObject* handle = as_variable(self)->handle;
  if (!handle) return missing(self, "_handle"), nullptr;
  Py_INCREF(handle);
  return handle;
}

int set_handle(PyObject* self, PyObject* value, void*) {
  VariableObject* v = as_variable(self);
  if (!value && !v->handle) return missing(self, "_handle");
  const Tensor* tensor = value ? eager_tensor_ptr(value) : nullptr;
  const VariableResource* resource = nullptr;
  if (tensor && tensor->dtype() == DType::kResource && tensor->num_elements() == 1) {
    resource = dynamic_cast<const VariableResource*>(tensor->data<ResourceHandle>()->get());
  }
  // The fields change together before the old handle is released (its release may run code).
  v->handle_tensor = resource ? tensor : nullptr;
  v->resource = resource;
  Py_XINCREF(value);
  Py_XSETREF(v->handle, value);
  return 0;
}

PyObject* get_trainable(PyObject* self, void*) {
  PyObject* trainable = as_variable(self)->trainable;
  if (!trainable) return missing(self, "_trainable"), nullptr;
  Py_INCREF(trainable);
  return trainable;
}

int set_trainable(PyObject* self, PyObject* value, void*) {
  VariableObject* v = as_variable(self);
  if (!value && !v->trainable) return missing(self, "_trainable");
  Py_XINCREF(value);
  Py_XSETREF(v->trainable, value);
  return 0;
}

int traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(as_variable(self)->handle);
  Py_VISIT(as_variable(self)->trainable);
  return 0;
}

int clear(PyObject* self) {
  VariableObject* v = as_variable(self);
  v->handle_tensor = nullptr;
  v->resource = nullptr;
  Py_CLEAR(v->handle);
  Py_CLEAR(v->trainable);
  return 0;
}

void dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  clear(self);
  Py_TYPE(self)->tp_free(self);
}

PyGetSetDef getset[] = {
    {"_handle", get_handle, set_handle, "the variable's resource handle", nullptr},
    {"_trainable", get_trainable, set_trainable, "whether the variable was created trainable", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyTypeObject make_type() {
  PyTypeObject type = {PyVarObject_HEAD_INIT(nullptr, 0)};
  type.tp_name = "graphfn._core.VariableBase";
  type.tp_basicsize = sizeof(VariableObject);
  type.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC;
  type.tp_doc = "The C base of graphfn.Variable: `_handle` and `_trainable` in C fields.";
  type.tp_traverse = traverse;
  type.tp_clear = clear;
  type.tp_dealloc = dealloc;
  type.tp_getset = getset;
  type.tp_new = PyType_GenericNew;
  return type;
}

PyTypeObject variable_base = make_type();

}  // namespace

PyTypeObject* variable_base_type() { return &variable_base; }

void bind_variable_object(py::module_& m) {
  if (PyType_Ready(&variable_base) < 0) throw py::error_already_set();
  Py_INCREF(&variable_base);
  m.add_object("VariableBase", reinterpret_cast<PyObject*>(&variable_base));
}

}  // namespace graphfn
