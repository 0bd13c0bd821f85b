// Number-protocol slots for EagerTensor, and the call slot of op handles (nb_add, nb_subtract, ...). Defining `__add__` as a
// method makes Python look it up and build a bound method on every `a + b`; pointing the C slot
// straight at the op saves a third of an eager scalar op. The `__add__`-style methods stay
// defined (bind_ops.cc) for explicit calls; nothing re-assigns them afterwards.
#include <pybind11/detail/exception_translation.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/op_call.h"
#include "graphfn/bindings/operators.h"

namespace graphfn {
namespace {

enum Unary { kNeg, kAbs, kNumUnary };
OpHandle g_unary[kNumUnary];

template <typename Fn>
PyObject* guarded(Fn&& fn) {
  try {
    return fn().release().ptr();
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

// Python calls the slot for both `t + x` and `x + t`, always with the operands in source order.
template <BinaryOperator S>
PyObject* binary_slot(PyObject* a, PyObject* b) {
  return guarded([&] { return binary_operator(S, a, b); });
}

PyObject* power_slot(PyObject* a, PyObject* b, PyObject* modulo) {
  if (modulo != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return binary_slot<BinaryOperator::kPow>(a, b);
}

template <int S>
PyObject* unary_slot(PyObject* a) {
  return guarded([&] {
    py::handle in[1] = {a};
    return call_op(g_unary[S], in, 1, AttrMap());
  });
}

// Op handles are called for every wrapped op (tf.add, tf.matmul, ...): skip pybind11's
// overload dispatch and read the args tuple directly.
PyObject* op_call_slot(PyObject* self, PyObject* args, PyObject* kwargs) {
  return guarded([&] {
    auto* inst = reinterpret_cast<py::detail::instance*>(self);
    const auto* op = static_cast<const OpHandle*>(inst->get_value_and_holder().value_ptr());
    return call_op_with_python_args(*op, args, kwargs);
  });
}

}  // namespace

void bind_tensor_slots(py::module_& m) {
  init_operators();
  g_unary[kNeg] = OpHandle{&find_op("Neg"), "Neg"};
  g_unary[kAbs] = OpHandle{&find_op("Abs"), "Abs"};
  for (const char* type_name : {"EagerTensor", "SymbolicTensor"}) {
    auto* type = reinterpret_cast<PyTypeObject*>(m.attr(type_name).ptr());
    PyNumberMethods* nb = type->tp_as_number;
    nb->nb_add = binary_slot<BinaryOperator::kAdd>;
    nb->nb_subtract = binary_slot<BinaryOperator::kSub>;
    nb->nb_multiply = binary_slot<BinaryOperator::kMul>;
    nb->nb_floor_divide = binary_slot<BinaryOperator::kFloorDiv>;
    nb->nb_remainder = binary_slot<BinaryOperator::kMod>;
    nb->nb_power = power_slot;
    nb->nb_negative = unary_slot<kNeg>;
    nb->nb_absolute = unary_slot<kAbs>;
    PyType_Modified(type);
  }
  auto* op_type = reinterpret_cast<PyTypeObject*>(m.attr("Op").ptr());
  op_type->tp_call = op_call_slot;
  PyType_Modified(op_type);
}

}  // namespace graphfn
