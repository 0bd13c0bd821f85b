#include "graphfn/bindings/eager_tensor_object.h"

#include <memory>

namespace graphfn {
namespace {

using Holder = std::unique_ptr<Tensor>;  // py::class_<Tensor>'s default holder

PyTypeObject* g_type = nullptr;
const py::detail::type_info* g_type_info = nullptr;
destructor g_pybind11_dealloc = nullptr;  // pybind11's deallocator, for every other instance

// Frees instances made by wrap_eager_tensor; anything else (registered instances, instances with
// keep-alive patients, subclasses) goes through pybind11's own deallocator.
void eager_tensor_dealloc(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  PyTypeObject* type = Py_TYPE(self);
  if (type != g_type || !inst->simple_layout || inst->simple_instance_registered || !inst->simple_holder_constructed ||
      inst->has_patients) {
    g_pybind11_dealloc(self);
    return;
  }
  {
    // The tensor's destructor may release a Python owner (python_owner.h); keep any pending
    // exception as pybind11's deallocator does.
    PyObject *exc_type, *exc_value, *exc_traceback;
    PyErr_Fetch(&exc_type, &exc_value, &exc_traceback);
    py::detail::value_and_holder v_h = inst->get_value_and_holder(g_type_info, false);
    v_h.holder<Holder>().~Holder();
    v_h.value_ptr() = nullptr;
    inst->simple_holder_constructed = false;
    PyErr_Restore(exc_type, exc_value, exc_traceback);
  }
  if (inst->weakrefs) PyObject_ClearWeakRefs(self);
  type->tp_free(self);
  Py_DECREF(type);  // instances of heap types own a reference to their type
}

}  // namespace

void install_eager_tensor_object(py::handle type_handle) {
  auto* type = reinterpret_cast<PyTypeObject*>(type_handle.ptr());
  const auto& bases = py::detail::all_type_info(type);
  // The simple layout (one C++ base, a holder that fits inline), no __dict__, not garbage
  // collected: what wrap_eager_tensor and eager_tensor_dealloc assume.
  if (bases.size() != 1 || bases.front()->holder_size_in_ptrs > py::detail::instance_simple_holder_in_ptrs() ||
      type->tp_dictoffset != 0 || PyType_HasFeature(type, Py_TPFLAGS_HAVE_GC) ||
      type->tp_dealloc == eager_tensor_dealloc) {
    return;
  }
  g_type_info = bases.front();
  g_pybind11_dealloc = type->tp_dealloc;
  type->tp_dealloc = eager_tensor_dealloc;
  g_type = type;
  PyType_Modified(type);
}

py::object wrap_eager_tensor(Tensor&& t) {
  if (!g_type) return py::cast(std::move(t));
  PyObject* self = g_type->tp_alloc(g_type, 0);  // zeroed; holds a reference to the type
  if (!self) throw py::error_already_set();
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  // What pybind11's allocate_layout sets for the simple layout (the rest is zero).
  inst->simple_layout = true;
  inst->owned = true;
  py::object result = py::reinterpret_steal<py::object>(self);
  py::detail::value_and_holder v_h = inst->get_value_and_holder(g_type_info, false);
  auto* value = new Tensor(std::move(t));
  v_h.value_ptr() = value;
  new (std::addressof(v_h.holder<Holder>())) Holder(value);
  v_h.set_holder_constructed();
  return result;
}

}  // namespace graphfn
