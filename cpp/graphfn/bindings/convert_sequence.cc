#include "graphfn/bindings/convert_sequence.h"

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace graphfn {
namespace {

// Deeper nesting goes to NumPy, which has its own limit and error.
constexpr size_t kMaxSequenceDepth = 32;

// One walk over the nested sequence: its rectangular shape, its leaves, and which kinds of
// Python number or string they are.
struct Scan {
  std::vector<int64_t> dims;
  std::vector<PyObject*> leaves;  // borrowed: the sequence keeps them alive
  bool leaf_seen = false, any_bool = false, any_int = false, any_float = false, any_string = false;
};

bool scan(PyObject* item, size_t depth, Scan& s) {
  if (PyList_Check(item) || PyTuple_Check(item)) {
    if (depth >= kMaxSequenceDepth) return false;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(item);
    if (depth == s.dims.size()) {
      if (s.leaf_seen) return false;  // a sequence where a sibling had a number: ragged
      s.dims.push_back(n);
    } else if (s.dims[depth] != n) {
      return false;  // ragged
    }
    PyObject** items = PySequence_Fast_ITEMS(item);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (!scan(items[i], depth + 1, s)) return false;
    }
    return true;
  }
  if (depth != s.dims.size()) return false;  // a number where siblings had sequences: ragged
  if (PyBool_Check(item)) {
    s.any_bool = true;
  } else if (PyLong_CheckExact(item)) {
    s.any_int = true;
  } else if (PyFloat_CheckExact(item)) {
    s.any_float = true;
  } else if (PyBytes_CheckExact(item) || PyUnicode_CheckExact(item)) {
    s.any_string = true;
  } else {
    return false;  // NumPy scalars, tensors, int subclasses: the NumPy path
  }
  s.leaf_seen = true;
  s.leaves.push_back(item);
  return true;
}

// The dtype TF gives a list of these numbers: bool, float32 when any is a float, else int32
// (int64 when a value needs it). kInvalid when NumPy should decide (bools mixed with numbers,
// ints beyond int64).
DType natural_dtype(const Scan& s) {
  if (s.any_bool) return s.any_int || s.any_float ? DType::kInvalid : DType::kBool;
  if (s.any_float || !s.any_int) return DType::kFloat32;  // no leaves: NumPy's float64 -> float32
  bool fits_int32 = true;
  for (PyObject* leaf : s.leaves) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(leaf, &overflow);
    if (overflow) return DType::kInvalid;
    fits_int32 = fits_int32 && v >= INT32_MIN && v <= INT32_MAX;
  }
  return fits_int32 ? DType::kInt32 : DType::kInt64;
}

// Whether an int leaf lies beyond int64 (only ints and no bools/floats were seen).
bool any_int_beyond_int64(const Scan& s) {
  for (PyObject* leaf : s.leaves) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(leaf, &overflow);
    if (overflow) return true;
  }
  return false;
}

// Lists of ints beyond int64, as TF converts them: float16/32/64 take their values (rounded
// through double; float16 overflows to inf), uint64 those in [0, 2**64), anything else (no dtype,
// int64, the narrower ints, complex, bfloat16) raises TF's ValueError. Returns whether `out` was
// filled.
bool big_ints_to_tensor(const Scan& s, DType want, const Shape& shape, Tensor* out) {
  if (want == DType::kUInt64) {
    Tensor t(want, shape);
    uint64_t* data = t.data<uint64_t>();
    for (size_t i = 0; i < s.leaves.size(); ++i) {
      data[i] = PyLong_AsUnsignedLongLong(s.leaves[i]);
      if (PyErr_Occurred()) {
        PyErr_Clear();
        throw py::value_error("Can't convert Python sequence with out-of-range integer to Tensor.");
      }
    }
    *out = std::move(t);
    return true;
  }
  // TF 2.21 converts lists of them to float16/32/64 only (complex and bfloat16 lists fail).
  if (want != DType::kFloat32 && want != DType::kFloat64 && want != DType::kHalf) {
    throw py::value_error("Can't convert Python sequence with out-of-range integer to Tensor.");
  }
  std::vector<double> values(s.leaves.size());
  for (size_t i = 0; i < s.leaves.size(); ++i) {
    values[i] = PyLong_AsDouble(s.leaves[i]);  // inf-free: PyLong_AsDouble raises beyond double
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return false;  // the NumPy path's error
    }
  }
  Tensor t(want, shape);
  for (size_t i = 0; i < values.size(); ++i) {
    switch (want) {
      case DType::kFloat32: t.data<float>()[i] = static_cast<float>(values[i]); break;
      case DType::kFloat64: t.data<double>()[i] = values[i]; break;
      case DType::kHalf: t.data<Eigen::half>()[i] = static_cast<Eigen::half>(static_cast<float>(values[i])); break;
      default: return false;
    }
  }
  *out = std::move(t);
  return true;
}

template <typename T>
bool fill(const std::vector<PyObject*>& leaves, T* out) {
  for (size_t i = 0; i < leaves.size(); ++i) {
    PyObject* leaf = leaves[i];
    if constexpr (std::is_same_v<T, bool>) {
      out[i] = leaf == Py_True;
    } else if constexpr (std::is_floating_point_v<T>) {
      const double v = PyFloat_Check(leaf) ? PyFloat_AS_DOUBLE(leaf) : PyLong_AsDouble(leaf);
      if (v == -1.0 && PyErr_Occurred()) {  // an int too large for a double
        PyErr_Clear();
        return false;
      }
      out[i] = static_cast<T>(v);
    } else {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(leaf, &overflow);
      if (overflow) return false;
      // Narrower integer types wrap, as NumPy's cast does (tf.constant([300], tf.uint8) is 44).
      out[i] = static_cast<T>(static_cast<unsigned long long>(v));
    }
  }
  return true;
}

// Bytes as they are, str as UTF-8, byte for byte: NumPy's fixed-width `S` dtype would drop
// trailing NULs (TF keeps b"a\x00" in a list; only a NumPy `S` array loses them).
bool fill_strings(const std::vector<PyObject*>& leaves, std::string* out) {
  for (size_t i = 0; i < leaves.size(); ++i) {
    PyObject* leaf = leaves[i];
    if (PyBytes_Check(leaf)) {
      out[i].assign(PyBytes_AS_STRING(leaf), static_cast<size_t>(PyBytes_GET_SIZE(leaf)));
      continue;
    }
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(leaf, &size);
    if (!utf8) {  // lone surrogates: the NumPy path raises the error
      PyErr_Clear();
      return false;
    }
    out[i].assign(utf8, static_cast<size_t>(size));
  }
  return true;
}

}  // namespace

bool python_sequence_to_tensor(py::handle sequence, DType want, Tensor* out) {
  Scan s;
  if (!scan(sequence.ptr(), 0, s)) return false;
  Shape shape(s.dims);
  // An empty sequence has no values to lose: it takes any wanted dtype (tf.reshape(x, [])).
  if (s.leaves.empty() && want != DType::kInvalid) {
    *out = Tensor(want, shape);
    return true;
  }
  if (s.any_string) {
    if (s.any_bool || s.any_int || s.any_float) {
      throw py::value_error("Can't convert Python sequence with mixed types to Tensor.");
    }
    // Strings asked to become numbers: the NumPy path's error.
    if (want != DType::kInvalid && want != DType::kString) return false;
    Tensor t(DType::kString, shape);
    if (!fill_strings(s.leaves, t.data<std::string>())) return false;
    *out = std::move(t);
    return true;
  }
  const DType natural = natural_dtype(s);
  if (s.any_int && !s.any_bool && !s.any_float && any_int_beyond_int64(s)) return big_ints_to_tensor(s, want, shape, out);
  if (natural == DType::kInvalid) return false;
  const DType target = want == DType::kInvalid ? natural : want;
  // Only casts that cannot lose information or need NumPy's rules are done here: bools stay
  // bools, ints go to any number type, floats to float types. The rest (and their errors) is
  // the NumPy path's.
  const bool supported = natural == DType::kBool ? target == DType::kBool
                         : natural == DType::kFloat32 ? is_floating(target)
                                                       : is_numeric(target);
  if (!supported) return false;
  Tensor t(target, shape);
  bool ok = false;
  switch (target) {
    case DType::kBool: ok = fill(s.leaves, t.data<bool>()); break;
    case DType::kFloat32: ok = fill(s.leaves, t.data<float>()); break;
    case DType::kFloat64: ok = fill(s.leaves, t.data<double>()); break;
    case DType::kInt8: ok = fill(s.leaves, t.data<int8_t>()); break;
    case DType::kInt16: ok = fill(s.leaves, t.data<int16_t>()); break;
    case DType::kInt32: ok = fill(s.leaves, t.data<int32_t>()); break;
    case DType::kInt64: ok = fill(s.leaves, t.data<int64_t>()); break;
    case DType::kUInt8: ok = fill(s.leaves, t.data<uint8_t>()); break;
    default: ok = false;
  }
  if (ok) *out = std::move(t);
  return ok;
}

}  // namespace graphfn
