#include "graphfn/bindings/convert.h"

#include "graphfn/bindings/convert_sequence.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/core/tf_types.h"

#include <cstring>
#include <limits>
#include <string>

namespace graphfn {

DType dtype_from_number(int64_t number) {
  if (number == 0) return DType::kInvalid;
  const DType dt = number > 0 && number < kNumTfDataTypes ? tf_type_to_dtype(static_cast<int>(number)) : DType::kInvalid;
  if (dt == DType::kInvalid) throw py::value_error("graphfn has no dtype with DataType number " + std::to_string(number));
  return dt;
}

std::string py_display(py::handle value) {
  py::object text = py::reinterpret_steal<py::object>(PyObject_Str(value.ptr()));
  py::object utf8 = text ? py::reinterpret_steal<py::object>(
                               PyUnicode_AsEncodedString(text.ptr(), "utf-8", "backslashreplace"))
                         : py::object();
  if (!utf8) {
    PyErr_Clear();
    return "<unprintable>";
  }
  return std::string(PyBytes_AS_STRING(utf8.ptr()), PyBytes_GET_SIZE(utf8.ptr()));
}

std::string py_string_bytes(py::handle item) {
  if (PyBytes_Check(item.ptr())) return std::string(PyBytes_AS_STRING(item.ptr()), PyBytes_GET_SIZE(item.ptr()));
  if (PyUnicode_Check(item.ptr())) {
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(item.ptr(), &size);
    if (!utf8) {
      // A str that is not valid Unicode (a lone surrogate): TF's ValueError.
      PyErr_Clear();
      throw py::value_error("Error converting unicode string while converting Python sequence to Tensor.");
    }
    return std::string(utf8, size);
  }
  throw py::type_error("Cannot convert " + py::repr(item).cast<std::string>() + " to a string tensor element");
}

namespace {

py::object numpy_module() {
  static py::object* np = new py::object(py::module_::import("numpy"));
  return *np;
}

[[noreturn]] void cannot_convert(py::handle value, DType want) {
  throw py::type_error("Cannot convert " + py::repr(value).cast<std::string>() +
                       " to EagerTensor of dtype " + dtype_tf_string(want));
}

template <typename T>
bool fits(long long v) {
  return v >= static_cast<long long>(std::numeric_limits<T>::min()) &&
         v <= static_cast<long long>(std::numeric_limits<T>::max());
}

// A Python number as a scalar of dtype `want`, rounded by NumPy (float16, bfloat16: TF rounds
// Python numbers to them the same way, to nearest even).
Tensor from_numpy_scalar(py::handle value, DType want) {
  py::object quiet = numpy_module().attr("errstate")(py::arg("over") = "ignore", py::arg("invalid") = "ignore");
  quiet.attr("__enter__")();
  py::array arr;
  try {
    arr = numpy_module().attr("asarray")(value, numpy_dtype(want));
  } catch (...) {
    quiet.attr("__exit__")(py::none(), py::none(), py::none());
    throw;
  }
  quiet.attr("__exit__")(py::none(), py::none(), py::none());
  Tensor t(want, Shape());
  std::memcpy(t.raw_data(), arr.data(), t.bytes());
  return t;
}

// A Python int as a tensor of dtype `want` (or int32/int64 when want is kInvalid).
Tensor from_py_int(py::handle value, DType want) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow > 0 && want == DType::kUInt64) {  // 2**63 .. 2**64-1 fit uint64
    const unsigned long long u = PyLong_AsUnsignedLongLong(value.ptr());
    if (!PyErr_Occurred()) return Tensor::scalar(static_cast<uint64_t>(u));
    PyErr_Clear();
  }
  if (overflow) {
    // Beyond int64: float and complex dtypes take the value (rounded), as TF's conversion does;
    // other dtypes get TF's error.
    const bool to_float = is_floating(want) || is_complex(want);
    const double d = to_float ? PyLong_AsDouble(value.ptr()) : 0.0;
    if (to_float && !(d == -1.0 && PyErr_Occurred())) {
      if (want == DType::kFloat32) return Tensor::scalar(static_cast<float>(d));
      if (want == DType::kFloat64) return Tensor::scalar(d);
      if (want == DType::kComplex64) return Tensor::scalar(std::complex<float>(static_cast<float>(d)));
      if (want == DType::kComplex128) return Tensor::scalar(std::complex<double>(d));
      return from_numpy_scalar(py::float_(d), want);  // float16/bfloat16
    }
    PyErr_Clear();
    throw py::value_error("Can't convert Python sequence with out-of-range integer to Tensor.");
  }
  if (want == DType::kInvalid) want = fits<int32_t>(v) ? DType::kInt32 : DType::kInt64;
  Tensor t(want, Shape());
  bool ok = true;
  // Out-of-range values wrap, as TF's conversion does (tf.constant(300, tf.uint8) is 44).
  switch (want) {
    case DType::kInt8: *t.data<int8_t>() = static_cast<int8_t>(v); break;
    case DType::kInt16: *t.data<int16_t>() = static_cast<int16_t>(v); break;
    case DType::kInt32: *t.data<int32_t>() = static_cast<int32_t>(v); break;
    case DType::kInt64: *t.data<int64_t>() = v; break;
    case DType::kUInt8: *t.data<uint8_t>() = static_cast<uint8_t>(v); break;
    case DType::kFloat32: *t.data<float>() = static_cast<float>(v); break;
    case DType::kFloat64: *t.data<double>() = static_cast<double>(v); break;
    case DType::kUInt16: *t.data<uint16_t>() = static_cast<uint16_t>(v); break;
    case DType::kUInt32: *t.data<uint32_t>() = static_cast<uint32_t>(v); break;
    case DType::kUInt64: *t.data<uint64_t>() = static_cast<uint64_t>(v); break;
    case DType::kComplex64: *t.data<std::complex<float>>() = static_cast<float>(v); break;
    case DType::kComplex128: *t.data<std::complex<double>>() = static_cast<double>(v); break;
    case DType::kHalf:
    case DType::kBFloat16: return from_numpy_scalar(value, want);
    default: ok = false;
  }
  if (!ok) cannot_convert(value, want);
  return t;
}

// Python floats never become integers, not even in tf.constant (TF raises TypeError).
Tensor from_py_float(py::handle value, DType want) {
  const double v = PyFloat_AsDouble(value.ptr());
  if (want == DType::kInvalid || want == DType::kFloat32) return Tensor::scalar(static_cast<float>(v));
  if (want == DType::kFloat64) return Tensor::scalar(v);
  if (want == DType::kComplex64) return Tensor::scalar(std::complex<float>(static_cast<float>(v)));
  if (want == DType::kComplex128) return Tensor::scalar(std::complex<double>(v));
  if (want == DType::kHalf || want == DType::kBFloat16) return from_numpy_scalar(value, want);
  cannot_convert(value, want);
}

// Python complex numbers are complex128 unless asked for complex64; nothing else takes them.
Tensor from_py_complex(py::handle value, DType want) {
  const std::complex<double> v(PyComplex_RealAsDouble(value.ptr()), PyComplex_ImagAsDouble(value.ptr()));
  if (want == DType::kInvalid || want == DType::kComplex128) return Tensor::scalar(v);
  if (want == DType::kComplex64) return Tensor::scalar(std::complex<float>(v));
  cannot_convert(value, want);
}

Shape shape_of(const py::array& arr) {
  std::vector<int64_t> dims(arr.ndim());
  for (int i = 0; i < arr.ndim(); ++i) dims[i] = arr.shape(i);
  return Shape(std::move(dims));
}

Tensor from_string_array(const py::array& arr) {
  Tensor t(DType::kString, shape_of(arr));
  py::list items = arr.attr("ravel")().attr("tolist")();
  std::string* out = t.data<std::string>();
  for (size_t i = 0; i < items.size(); ++i) out[i] = py_string_bytes(items[i]);
  return t;
}

// Whether nested lists/tuples hold a Python float or bool.
bool has_float_or_bool_leaf(py::handle value) {
  if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) {
    for (py::handle item : value) {
      if (has_float_or_bool_leaf(item)) return true;
    }
    return false;
  }
  return PyFloat_Check(value.ptr()) || PyBool_Check(value.ptr());
}

// The first element (depth first) of nested lists/tuples that is not itself a list or tuple, or
// null. TF takes a list's dtype from it: after a complex number ints, floats and bools become
// complex too; a complex number after another kind of number is a mixed-types error.
PyObject* first_leaf(PyObject* value) {
  if (!PyList_Check(value) && !PyTuple_Check(value)) return value;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(value);
  PyObject** items = PySequence_Fast_ITEMS(value);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (PyObject* leaf = first_leaf(items[i])) return leaf;
  }
  return nullptr;
}

// `from_python_list` is true when the array came from nested Python lists: then float64 means
// "Python float" (-> float32) and int64 means "Python int" (-> int32 when every value fits).
Tensor from_numpy(py::array arr, DType want, bool from_python_list, py::handle original) {
  // An empty Python list has no elements to be lossy about: it takes any wanted dtype
  // (tf.reshape(x, []) gets an int32 shape).
  if (from_python_list && arr.size() == 0 && want != DType::kInvalid) return Tensor(want, shape_of(arr));
  const char kind = arr.dtype().kind();
  if (kind == 'O' || kind == 'U' || kind == 'S') {
    if (kind == 'O' && from_python_list) {
      // Object arrays from lists are ragged sequences or unsupported element types.
      for (auto item : arr.attr("ravel")()) {
        if (!PyBytes_Check(item.ptr()) && !PyUnicode_Check(item.ptr())) {
          throw py::value_error("Can't convert non-rectangular Python sequence to Tensor.");
        }
      }
    }
    if (want != DType::kInvalid && want != DType::kString) cannot_convert(original, want);
    return from_string_array(arr);
  }
  DType natural = dtype_from_numpy(arr.dtype());
  if (from_python_list && is_complex(natural)) {
    // A list whose first number is complex is complex (see first_leaf), and becomes no real dtype.
    PyObject* first = first_leaf(original.ptr());
    if (first != nullptr && !PyComplex_Check(first)) {
      throw py::value_error("Can't convert Python sequence with mixed types to Tensor.");
    }
    if (want != DType::kInvalid && !is_complex(want) && arr.size() > 0) cannot_convert(original, want);
  }
  if (from_python_list) {
    if (natural == DType::kFloat64) natural = DType::kFloat32;
    if (natural == DType::kInt64) {
      py::object lo = arr.attr("min")(), hi = arr.attr("max")();
      if (arr.size() == 0 || (lo.cast<long long>() >= INT32_MIN && hi.cast<long long>() <= INT32_MAX)) {
        natural = DType::kInt32;
      }
    }
  }
  DType target = natural;
  if (want != DType::kInvalid && want != natural) {
    // An empty list has no values to lose: [] converts to any dtype (TF: tf.constant([], tf.int32)).
    const bool lossy = arr.size() > 0 &&
                       ((is_floating(natural) && !is_floating(want) && !is_complex(want)) ||
                        (is_complex(natural) && !is_complex(want)) || want == DType::kString ||
                        (want == DType::kBool && natural != DType::kBool));
    // NumPy arrays are cast silently (as TF does); Python lists never (tf.constant([1.5], tf.int32)
    // is TF's TypeError, as tf.constant(1.5, tf.int32) is).
    if (lossy && from_python_list) cannot_convert(original, want);
    target = want;
  }
  if (target == DType::kString) {
    if (arr.size() == 0) return Tensor(DType::kString, shape_of(arr));
    cannot_convert(original, want);
  }
  // asarray(order="C"), not ascontiguousarray: the latter turns 0-d arrays into shape (1,).
  // Out-of-range values become inf in float16/bfloat16 silently, as in TF (NumPy would warn).
  py::object quiet = numpy_module().attr("errstate")(py::arg("over") = "ignore", py::arg("invalid") = "ignore");
  quiet.attr("__enter__")();
  py::array contiguous;
  try {
    contiguous = numpy_module().attr("asarray")(arr, numpy_dtype(target), py::arg("order") = "C");
  } catch (...) {
    quiet.attr("__exit__")(py::none(), py::none(), py::none());
    throw;
  }
  quiet.attr("__exit__")(py::none(), py::none(), py::none());
  Tensor t(target, shape_of(contiguous));
  if (t.num_elements() > 0) std::memcpy(t.raw_data(), contiguous.data(), t.bytes());
  return t;
}

}  // namespace

py::dtype numpy_dtype(DType dt) {
  switch (dt) {
    case DType::kFloat32: return py::dtype::of<float>();
    case DType::kFloat64: return py::dtype::of<double>();
    case DType::kInt8: return py::dtype::of<int8_t>();
    case DType::kInt16: return py::dtype::of<int16_t>();
    case DType::kInt32: return py::dtype::of<int32_t>();
    case DType::kInt64: return py::dtype::of<int64_t>();
    case DType::kUInt8: return py::dtype::of<uint8_t>();
    case DType::kBool: return py::dtype::of<bool>();
    case DType::kUInt16: return py::dtype::of<uint16_t>();
    case DType::kUInt32: return py::dtype::of<uint32_t>();
    case DType::kUInt64: return py::dtype::of<uint64_t>();
    case DType::kComplex64: return py::dtype("complex64");
    case DType::kComplex128: return py::dtype("complex128");
    case DType::kHalf: return py::dtype("float16");
    case DType::kBFloat16: {
      // NumPy has no bfloat16: ml_dtypes' (as TF and JAX use), imported on first use.
      static py::object* bfloat16 = new py::object(py::module_::import("ml_dtypes").attr("bfloat16"));
      return py::dtype::from_args(*bfloat16);
    }
    default: return py::dtype("O");
  }
}

DType dtype_from_numpy(const py::dtype& dt) {
  const char kind = dt.kind();
  const auto size = dt.itemsize();
  if (kind == 'f' && size == 2) return DType::kHalf;
  if (kind == 'f' && size == 4) return DType::kFloat32;
  if (kind == 'f' && size == 8) return DType::kFloat64;
  if (kind == 'i' && size == 1) return DType::kInt8;
  if (kind == 'i' && size == 2) return DType::kInt16;
  if (kind == 'i' && size == 4) return DType::kInt32;
  if (kind == 'i' && size == 8) return DType::kInt64;
  if (kind == 'u' && size == 1) return DType::kUInt8;
  if (kind == 'u' && size == 2) return DType::kUInt16;
  if (kind == 'u' && size == 4) return DType::kUInt32;
  if (kind == 'u' && size == 8) return DType::kUInt64;
  if (kind == 'c' && size == 8) return DType::kComplex64;
  if (kind == 'c' && size == 16) return DType::kComplex128;
  if (kind == 'V' && size == 2 && py::str(dt.attr("name")).cast<std::string>() == "bfloat16") return DType::kBFloat16;
  if (kind == 'b') return DType::kBool;
  if (kind == 'U' || kind == 'S' || kind == 'O') return DType::kString;
  throw py::type_error("graphfn does not support NumPy dtype " + py::str(static_cast<const py::object&>(dt)).cast<std::string>());
}

namespace {
PyTypeObject* g_eager_tensor_type = nullptr;
}  // namespace

void set_eager_tensor_type(py::handle type) { g_eager_tensor_type = reinterpret_cast<PyTypeObject*>(type.ptr()); }

const Tensor* eager_tensor_ptr(py::handle value) {
  if (Py_TYPE(value.ptr()) != g_eager_tensor_type) return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(value.ptr());
  // EagerTensor is one C++ class with no C++ base: pybind11 lays its instances out simply, the
  // value pointer first (get_value_and_holder's general search is not needed).
  if (inst->simple_layout) return static_cast<const Tensor*>(inst->simple_value_holder[0]);
  return static_cast<const Tensor*>(inst->get_value_and_holder().value_ptr());
}

namespace {

// The dtype of the first eager tensor in a nested list or tuple (depth first), or kInvalid when
// there is none. TF packs such a list with one Pack per (nested) list, named "packed" at the top
// and by its index below; a tensor of another dtype fails that Pack with this error.
void first_tensor_dtype(PyObject* seq, const std::string& pack_name, DType* found) {
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (const Tensor* t = eager_tensor_ptr(items[i])) {
      if (*found == DType::kInvalid) {
        *found = t->dtype();
      } else if (t->dtype() != *found) {
        throw_if_error(errors::InvalidArgument(
            "cannot compute Pack as input #", i, "(zero-based) was expected to be a ", dtype_tf_string(*found),
            " tensor but is a ", dtype_tf_string(t->dtype()), " tensor [Op:Pack] name: ", pack_name));
      }
    } else if (PyList_Check(items[i]) || PyTuple_Check(items[i])) {
      first_tensor_dtype(items[i], std::to_string(i), found);
    }
  }
}

DType packed_tensors_dtype(py::handle sequence) {
  DType found = DType::kInvalid;
  first_tensor_dtype(sequence.ptr(), "packed", &found);
  return found;
}

}  // namespace

Tensor to_tensor(py::handle value, DType want) {
  if (const Tensor* tp = eager_tensor_ptr(value)) {
    const Tensor& t = *tp;
    if (want != DType::kInvalid && t.dtype() != want) {
      throw py::value_error(std::string("Tensor conversion requested dtype ") + dtype_name(want) +
                            " for Tensor with dtype " + dtype_name(t.dtype()) + ": " +
                            py::repr(value).cast<std::string>());
    }
    return t;
  }
  // Resource handles only come from graphfn (variables); nothing converts into one.
  if (want == DType::kResource) {
    throw py::type_error("Cannot convert " + py::repr(value).cast<std::string>() + " to a resource handle");
  }
  PyObject* p = value.ptr();
  if (PyBool_Check(p)) {
    const bool b = p == Py_True;
    if (want == DType::kInvalid || want == DType::kBool) return Tensor::scalar(b);
    if (!is_numeric(want)) cannot_convert(value, want);
    return to_tensor(py::int_(b ? 1 : 0), want);  // Python bools are ints (True + t)
  }
  if (PyLong_Check(p)) {
    if (want == DType::kBool || want == DType::kString) cannot_convert(value, want);
    return from_py_int(value, want);
  }
  if (PyFloat_CheckExact(p)) return from_py_float(value, want);
  if (PyComplex_CheckExact(p)) return from_py_complex(value, want);  // not np.complex128 (a subclass)
  if (PyUnicode_Check(p) || PyBytes_Check(p)) {
    if (want != DType::kInvalid && want != DType::kString) cannot_convert(value, want);
    return Tensor::scalar(py_string_bytes(value));
  }
  if (PyList_Check(p) || PyTuple_Check(p)) {
    // A list holding tensors is packed as TF packs it: with the first tensor's dtype.
    if (want == DType::kInvalid) want = packed_tensors_dtype(value);
    Tensor t;
    if (python_sequence_to_tensor(value, want, &t)) return t;
    py::array arr;
    try {
      arr = numpy_module().attr("asarray")(value);
    } catch (py::error_already_set&) {
      throw py::value_error("Can't convert non-rectangular Python sequence to Tensor.");
    }
    // Python ints above int64's range make NumPy choose float64; asked for uint64 they may still
    // fit exactly (tf.constant([1, 2**63], tf.uint64)), so NumPy converts them to it directly.
    if (want == DType::kUInt64 && arr.dtype().kind() == 'f' && !has_float_or_bool_leaf(value)) {
      try {
        arr = numpy_module().attr("asarray")(value, numpy_dtype(want));
      } catch (py::error_already_set&) {
        cannot_convert(value, want);
      }
    }
    return from_numpy(arr, want, true, value);
  }
  // NumPy arrays and scalars (np.float32(1), ...). Asking for `dtype` rather than
  // py::isinstance<py::array> keeps NumPy unimported until a value needs it.
  if (PyObject_HasAttrString(p, "dtype")) {
    py::array arr = numpy_module().attr("asarray")(value);
    return from_numpy(arr, want, false, value);
  }
  throw py::value_error("Attempt to convert a value (" + py::repr(value).cast<std::string>() +
                        ") with an unsupported type (" + py::repr(py::type::of(value)).cast<std::string>() +
                        ") to a Tensor.");
}

py::object to_numpy(const Tensor& t) {
  if (t.dtype() == DType::kResource) throw py::type_error("Cannot convert a resource handle tensor to NumPy");
  std::vector<py::ssize_t> shape(t.shape().dims().begin(), t.shape().dims().end());
  py::array arr;
  if (t.dtype() == DType::kString) {
    arr = py::array(py::dtype("O"), shape);
    auto* objs = static_cast<PyObject**>(arr.mutable_data());
    const std::string* s = t.data<std::string>();
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      PyObject* b = PyBytes_FromStringAndSize(s[i].data(), static_cast<py::ssize_t>(s[i].size()));
      if (!b) throw py::error_already_set();
      Py_XDECREF(objs[i]);
      objs[i] = b;
    }
  } else {
    // The capsule keeps the buffer alive as long as NumPy needs it.
    auto* keep = new std::shared_ptr<Buffer>(t.buffer());
    py::capsule owner(keep, [](void* p) { delete static_cast<std::shared_ptr<Buffer>*>(p); });
    arr = py::array(numpy_dtype(t.dtype()), shape, {}, t.raw_data(), owner);
    py::detail::array_proxy(arr.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  }
  if (t.rank() == 0) return arr[py::tuple()];  // NumPy scalar, as TF returns
  return std::move(arr);
}

}  // namespace graphfn
