#include "graphfn/bindings/operators.h"

#include <optional>

#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/bindings/op_call.h"

namespace graphfn {
namespace {

struct Operator {
  OpHandle handle;
  const char* reflected_name;
  OpHandle strict;         // no dtype hint (reflected operands must fit)
  OpHandle strict_string;  // `+` of a string tensor: Add
};
Operator g_operators[static_cast<int>(BinaryOperator::kCount)];

const Operator& get(BinaryOperator op) { return g_operators[static_cast<int>(op)]; }

py::object call2(const OpHandle& h, py::handle x, py::handle y) {
  py::handle in[2] = {x, y};
  return call_op(h, in, 2, AttrMap());
}

}  // namespace

void init_operators() {
  struct Spec { BinaryOperator op; const char* op_name; const char* node; const char* reflected; };
  const Spec specs[] = {
      {BinaryOperator::kAdd, "AddV2", "add", "__radd__"},
      {BinaryOperator::kSub, "Sub", "sub", "__rsub__"},
      {BinaryOperator::kMul, "Mul", "mul", "__rmul__"},
      {BinaryOperator::kFloorDiv, "FloorDiv", "floordiv", "__rfloordiv__"},
      {BinaryOperator::kMod, "FloorMod", "mod", "__rmod__"},
      {BinaryOperator::kPow, "Pow", "pow", "__rpow__"},
  };
  for (const Spec& s : specs) {
    const OpHandle h{&find_op(s.op_name), s.node};
    g_operators[static_cast<int>(s.op)] = {h, s.reflected, h, h};
  }
  Operator& add = g_operators[static_cast<int>(BinaryOperator::kAdd)];
  add.handle.hint_python_inputs = true;
  add.handle.string_op = &find_op("Add");
  add.strict_string = OpHandle{&find_op("Add"), "add"};
}

py::object convert_reflected_operand(py::handle x, py::handle like) {
  const DType want = tensor_dtype(like);
  py::object value = as_tensor_input(x);
  const DType have = tensor_dtype(value);
  if (have != DType::kInvalid) {
    if (have != want) {
      throw py::value_error(std::string("Tensor conversion requested dtype ") + dtype_name(want) +
                            " for Tensor with dtype " + dtype_name(have) + ": " + py::repr(value).cast<std::string>());
    }
    return value;
  }
  try {
    return py::cast(to_tensor(value, want));
  } catch (py::type_error&) {
    if (!current_graph()) throw;
    throw py::type_error(expected_dtype_text(value, want));
  }
}

py::object forward_operator(BinaryOperator op, py::handle x, py::handle y) {
  const Operator& o = get(op);
  std::optional<py::error_already_set> error;
  try {
    return call2(o.handle, x, y);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError)) throw;
    error.emplace(std::move(e));
  } catch (py::type_error& e) {
    e.set_error();
    error.emplace();
  } catch (py::value_error& e) {
    e.set_error();
    error.emplace();
  }
  // As TF: the other operand may know how to compute it (`t * [1.5]` is list repetition); if not,
  // the original error stands. A missing reflected method raises AttributeError, also as in TF.
  py::handle type = reinterpret_cast<PyObject*>(Py_TYPE(y.ptr()));
  if (!py::hasattr(type, o.reflected_name)) throw *error;
  py::object reflected = y.attr(o.reflected_name);
  py::object out;
  try {
    out = reflected(x);
  } catch (py::error_already_set& e) {
    if (e.matches(PyExc_TypeError) || e.matches(PyExc_ValueError)) throw *error;
    throw;
  }
  if (out.ptr() == Py_NotImplemented) throw *error;
  return out;
}

py::object reflected_operator(BinaryOperator op, py::handle x, py::handle y) {
  const Operator& o = get(op);
  const DType y_dtype = tensor_dtype(y);
  const OpHandle& h = y_dtype == DType::kString && op == BinaryOperator::kAdd ? o.strict_string : o.strict;
  if (!current_graph() && tensor_dtype(x) == DType::kInvalid) {
    // Eagerly the op's strict conversion of a Python x to y's dtype is exactly TF's (result and
    // "Cannot convert ..." error), without making a Python tensor for x.
    return call2(h, x, y);
  }
  py::object converted = convert_reflected_operand(x, y);
  return call2(h, converted, y);
}

py::object binary_operator(BinaryOperator op, py::handle a, py::handle b) {
  if (tensor_dtype(a) != DType::kInvalid) return forward_operator(op, a, b);
  return reflected_operator(op, a, b);
}

}  // namespace graphfn
