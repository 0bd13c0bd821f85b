#include "graphfn/bindings/eager_tensor_object.h"

#include <cstring>
#include <memory>
#include <new>

namespace graphfn {
namespace {

using Holder = std::unique_ptr<Tensor>;  // py::class_<Tensor>'s default holder

PyTypeObject* g_type = nullptr;
const py::detail::type_info* g_type_info = nullptr;
destructor g_pybind11_dealloc = nullptr;  // pybind11's deallocator, for every other instance

// The value and holder slots of an instance with pybind11's simple layout (one C++ class).
py::detail::value_and_holder slots(py::detail::instance* inst) { return {inst, g_type_info, 0, 0}; }

// Instances eager_tensor_dealloc freed, each keeping the memory of its destroyed Tensor in its
// value slot: wrap_eager_tensor reuses them, so an eager op's result costs no allocation for its
// Python object or its Tensor (a third of the result's cost). Both functions run with the GIL
// held, which guards the list; a free-threaded Python keeps no list.
#ifdef Py_GIL_DISABLED
constexpr int kMaxFree = 0;
#else
constexpr int kMaxFree = 64;
#endif
PyObject* g_free[kMaxFree > 0 ? kMaxFree : 1];
int g_num_free = 0;

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
  py::detail::value_and_holder v_h = slots(inst);
  Tensor* value = v_h.value_ptr<Tensor>();
  {
    // The tensor's destructor may release a Python owner (python_owner.h); keep any pending
    // exception as pybind11's deallocator does.
    PyObject *exc_type = nullptr, *exc_value = nullptr, *exc_traceback = nullptr;
    const bool pending = PyErr_Occurred() != nullptr;
    if (pending) PyErr_Fetch(&exc_type, &exc_value, &exc_traceback);
    (void)v_h.holder<Holder>().release();  // the holder owns `value`: destroyed here, freed below or kept
    value->~Tensor();
    inst->simple_holder_constructed = false;
    if (pending) PyErr_Restore(exc_type, exc_value, exc_traceback);
  }
  if (inst->weakrefs) PyObject_ClearWeakRefs(self);
  if (g_num_free < kMaxFree) {
    v_h.value_ptr() = value;  // the Tensor's memory, for wrap_eager_tensor
    g_free[g_num_free++] = self;
  } else {
    ::operator delete(value, sizeof(Tensor));
    type->tp_free(self);
  }
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
  PyObject* self;
  void* storage = nullptr;
  if (g_num_free > 0) {
    self = g_free[--g_num_free];
    storage = reinterpret_cast<py::detail::instance*>(self)->simple_value_holder[0];
    // What tp_alloc does: zeroed fields, then the type (a reference to it) and one reference.
    std::memset(reinterpret_cast<char*>(self) + sizeof(PyObject), 0, g_type->tp_basicsize - sizeof(PyObject));
    PyObject_Init(self, g_type);
  } else {
    self = g_type->tp_alloc(g_type, 0);  // zeroed; holds a reference to the type
    if (!self) throw py::error_already_set();
  }
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  // What pybind11's allocate_layout sets for the simple layout (the rest is zero).
  inst->simple_layout = true;
  inst->owned = true;
  py::object result = py::reinterpret_steal<py::object>(self);
  py::detail::value_and_holder v_h = slots(inst);
  auto* value = storage ? new (storage) Tensor(std::move(t)) : new Tensor(std::move(t));
  v_h.value_ptr() = value;
  new (std::addressof(v_h.holder<Holder>())) Holder(value);
  v_h.set_holder_constructed();
  return result;
}

}  // namespace graphfn
