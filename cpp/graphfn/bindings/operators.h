// Python's arithmetic operators on tensors (t + x, 2 * t, ...), computed as TF's Tensor operators
// do: the forward form passes the operands to the op (which converts a Python operand to the
// tensor's dtype, `+` only as a hint) and, on TypeError/ValueError, lets the other operand's
// reflected method try; the reflected form first converts the Python operand to the tensor's
// dtype (TypeError if it does not fit).
#pragma once
#include <pybind11/pybind11.h>

namespace graphfn {
namespace py = pybind11;

enum class BinaryOperator { kAdd, kSub, kMul, kFloorDiv, kMod, kPow, kCount };

// `x op y` with x a tensor.
py::object forward_operator(BinaryOperator op, py::handle x, py::handle y);
// `x op y` reached through y's reflected method (y a tensor): x is converted to y's dtype first.
py::object reflected_operator(BinaryOperator op, py::handle x, py::handle y);
// `a op b` from a number slot: one of them is a tensor.
py::object binary_operator(BinaryOperator op, py::handle a, py::handle b);

// The reflected operand converted to `like`'s dtype (TF's r-operator conversion).
py::object convert_reflected_operand(py::handle x, py::handle like);

void init_operators();

}  // namespace graphfn
