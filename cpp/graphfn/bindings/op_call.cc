#include "graphfn/bindings/op_call.h"

#include <pybind11/stl.h>

#include <cctype>
#include <climits>
#include <memory>
#include <new>
#include <string>

#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/defined_at.h"
#include "graphfn/bindings/device_hook.h"
#include "graphfn/bindings/eager_tensor_object.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/finalized_graph.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/core/per_thread.h"
#include "graphfn/core/tf_types.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/op_validation.h"
#include "graphfn/kernels/eager.h"
#include "graphfn/autodiff/tape.h"
#include "graphfn/tracing/capture.h"
#include "graphfn/tracing/op_builder.h"
#include "graphfn/tracing/trace_context.h"

namespace graphfn {
namespace {

std::string python_op_name(const std::string& name);

// TF's op wrappers' TypeError for an attr value of the wrong kind.
[[noreturn]] void wrong_attr_kind(const char* kind, const AttrDef& def, py::handle v) {
  throw py::type_error(std::string("Expected ") + kind + " for argument '" + def.name + "' not " +
                       py::repr(v).cast<std::string>() + ".");
}

// A DataType number checked against the dtypes graphfn has (ir/op_validation.h): kernel tables
// are indexed by it. TF's eager runtime rejects a number naming no DataType with an
// InvalidArgumentError, its graph building with a TypeError.
DType dtype_from_py(const OpDef& op, const AttrDef& def, py::handle v) {
  py::object number = py::reinterpret_borrow<py::object>(v);
  if (py::hasattr(v, "as_datatype_enum")) number = v.attr("as_datatype_enum");
  if (!PyLong_Check(number.ptr())) wrong_attr_kind("DataType", def, v);
  int overflow = 0;
  long long code = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow) code = overflow > 0 ? LLONG_MAX : LLONG_MIN;
  DType dt = DType::kInvalid;
  const Status s = dtype_from_code(op, def.name, code, &dt);
  if (s.ok()) return dt;
  if (current_graph() && (code <= 0 || code >= kNumTfDataTypes)) wrong_attr_kind("DataType", def, v);
  throw_if_error(with_op_suffix(s, op));
  return dt;
}

// TF's int attrs take what int() takes, except strings.
int64_t int_from_py(const AttrDef& def, py::handle v) {
  if (PyUnicode_Check(v.ptr()) || PyBytes_Check(v.ptr())) wrong_attr_kind("int", def, v);
  PyObject* number = PyNumber_Long(v.ptr());
  if (!number) {
    PyErr_Clear();
    wrong_attr_kind("int", def, v);
  }
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(number, &overflow);
  Py_DECREF(number);
  // TF's eager runtime raises OverflowError, its graph building ValueError.
  if (overflow && !current_graph()) {
    PyErr_SetString(PyExc_OverflowError, "int too big to convert");
    throw py::error_already_set();
  }
  if (overflow) throw py::value_error("Value out of range: " + py_display(v));
  return value;
}

Shape shape_from_py(const AttrDef& def, py::handle v) {
  std::vector<int64_t> dims;
  const bool sequence = PyList_Check(v.ptr()) || PyTuple_Check(v.ptr()) || py::hasattr(v, "as_list");
  if (!sequence) {
    throw py::type_error("Error converting shape to a TensorShape: Failed to convert " +
                         py::repr(v).cast<std::string>() + " to a shape.");
  }
  py::object items = py::hasattr(v, "as_list") ? v.attr("as_list")() : py::reinterpret_borrow<py::object>(v);
  for (auto d : items) dims.push_back(d.is_none() ? Shape::kUnknownDim : int_from_py(def, d));
  return Shape(std::move(dims));
}

AttrValue attr_from_py(const OpDef& op, const AttrDef& def, py::handle v) {
  const std::string& kind = def.kind;
  if (kind == "type") return dtype_from_py(op, def, v);
  if (kind == "bool") {
    if (!PyBool_Check(v.ptr())) wrong_attr_kind("bool", def, v);
    return v.ptr() == Py_True;
  }
  if (kind == "int") return int_from_py(def, v);
  if (kind == "float") {
    const bool real = PyFloat_Check(v.ptr()) || PyLong_Check(v.ptr()) ||
                      (!PyUnicode_Check(v.ptr()) && !PyBytes_Check(v.ptr()) && PyObject_HasAttrString(v.ptr(), "__float__"));
    if (!real) wrong_attr_kind("float", def, v);
    const double value = PyFloat_AsDouble(v.ptr());
    if (value == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      wrong_attr_kind("float", def, v);
    }
    return value;
  }
  if (kind == "string") {
    if (!PyUnicode_Check(v.ptr()) && !PyBytes_Check(v.ptr())) wrong_attr_kind("string", def, v);
    return py_string_bytes(v);
  }
  if (kind == "list(int)" || kind == "list(type)") {
    if (!PyList_Check(v.ptr()) && !PyTuple_Check(v.ptr())) {
      throw py::type_error("Expected list for '" + def.name + "' argument to '" + python_op_name(op.name) +
                           "' Op, not " + py::repr(v).cast<std::string>() + ".");
    }
    std::vector<int64_t> values;
    std::vector<DType> dtypes;
    for (auto item : py::reinterpret_borrow<py::sequence>(v)) {
      if (kind == "list(int)") values.push_back(int_from_py(def, item));
      if (kind == "list(type)") dtypes.push_back(dtype_from_py(op, def, item));
    }
    if (kind == "list(type)") return dtypes;
    return values;
  }
  if (kind == "tensor") return to_tensor(v, DType::kInvalid);
  if (kind == "shape") return shape_from_py(def, v);
  if (kind == "list(shape)") {  // ParseExampleV2's dense_shapes
    if (!PyList_Check(v.ptr()) && !PyTuple_Check(v.ptr())) {
      throw py::type_error("Expected list for '" + def.name + "' argument to '" + python_op_name(op.name) +
                           "' Op, not " + py::repr(v).cast<std::string>() + ".");
    }
    std::vector<Shape> shapes;
    for (auto item : py::reinterpret_borrow<py::sequence>(v)) shapes.push_back(shape_from_py(def, item));
    return shapes;
  }
  throw py::type_error(op.name + ": attr '" + def.name + "' of kind " + kind + " cannot be given from Python");
}

AttrMap attrs_from_kwargs(const OpDef& op, py::handle kwargs) {
  AttrMap attrs;
  for (auto item : py::reinterpret_borrow<py::dict>(kwargs)) {
    const std::string name = py_string_bytes(item.first);
    const AttrDef* def = op.find_attr(name);
    // Internal attrs ("_gradient_op_type", set by tf.custom_gradient) belong to no OpDef; TF's
    // nodes carry them as they are. Strings only: no other kind is needed.
    if (!def && !name.empty() && name[0] == '_' && PyUnicode_Check(item.second.ptr())) {
      attrs.set(name, item.second.cast<std::string>());
      continue;
    }
    if (!def) throw py::type_error(op.name + " got an unexpected attr '" + name + "'");
    if (item.second.is_none()) continue;
    attrs.set(name, attr_from_py(op, *def, item.second));
  }
  return attrs;
}

// The dtype a Python (non-tensor) input should be converted to, if already decided.
DType wanted_dtype(const OpDef& op, const ArgDef& arg, const DType* known) {
  if (arg.fixed_type != DType::kInvalid) return arg.fixed_type;
  const int i = op.type_attr_index(arg.type_attr);
  if (i < 0) return DType::kInvalid;  // a list(type) input: each value keeps its own dtype
  if (known[i] != DType::kInvalid) return known[i];
  const AttrDef* attr = op.type_attr_defs[i];
  if (attr && attr->has_default) return std::get<DType>(attr->default_value);
  return DType::kInvalid;
}

// Calls fn(declared input index, position within a list input, value) for every input value.
template <typename Fn>
void for_each_input(const OpDef& op, const py::handle* inputs, int num_inputs, Fn&& fn) {
  for (int k = 0; k < num_inputs; ++k) {
    if (op.inputs[k].is_list()) {
      int j = 0;
      for (auto item : py::reinterpret_borrow<py::sequence>(inputs[k])) fn(k, j++, item);
    } else {
      fn(k, -1, inputs[k]);
    }
  }
}

// True for Python ints (or lists of them) that only fit int64.
bool needs_int64(py::handle h) {
  if (!PyLong_Check(h.ptr()) && !PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) return false;
  try {
    return to_tensor(h, DType::kInvalid).dtype() == DType::kInt64;
  } catch (py::error_already_set&) {
    return false;
  } catch (py::builtin_exception&) {
    return false;
  }
}

// A Python input as a tensor. When its type attr is already decided (by a tensor, an explicit
// attr or an earlier Python value) it must fit that dtype, as in TF's op wrappers (TypeError
// "Cannot convert 1.5 to EagerTensor of dtype int32"), unless the handle only takes the dtype as
// a hint (`+`, tf.add): then, and for attr defaults, a value that does not fit keeps its own
// dtype and the op's type check reports the mismatch ("expected to be a int32 tensor but is a
// float tensor").
Tensor convert_python_input(const OpDef& op, int k, py::handle h, const DType* known, bool hint) {
  DType want = wanted_dtype(op, op.inputs[k], known);
  const int type_index = op.input_type_index[k];
  const bool decided = (type_index >= 0 && known[type_index] != DType::kInvalid) ||
                       op.inputs[k].fixed_type != DType::kInvalid;
  // An int32 default (e.g. Tshape) does not wrap big Python ints: tf.reshape(x, [2**40, 2**40])
  // reports the huge shape, as in TF.
  if (want == DType::kInt32 && type_index >= 0 && !decided && needs_int64(h)) want = DType::kInt64;
  if (decided && !hint) return to_tensor(h, want);
  try {
    return to_tensor(h, want);
  } catch (py::type_error&) {
    return to_tensor(h, DType::kInvalid);
  }
}

// The first element of a (nested) Python sequence that does not convert to `want`.
py::handle first_unconvertible(py::handle value, DType want) {
  if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) {
    for (auto item : py::reinterpret_borrow<py::sequence>(value)) {
      py::handle bad = first_unconvertible(item, want);
      if (bad) return bad;
    }
    return py::handle();
  }
  try {
    to_tensor(value, want);
  } catch (py::type_error&) {
    return value;
  } catch (py::error_already_set&) {
    return value;
  }
  return py::handle();
}

// convert_python_input while building a graph, with the errors TF's graph building raises.
Tensor convert_graph_input(const OpDef& op, int k, py::handle v, const DType* known, bool hint) {
  const int type_index = op.input_type_index[k];
  const DType want = type_index >= 0 ? known[type_index] : op.inputs[k].fixed_type;
  const bool strict = !hint && want != DType::kInvalid;
  try {
    return convert_python_input(op, k, v, known, hint);
  } catch (py::type_error&) {
    if (!strict || op.inputs[k].is_list()) throw;
    throw py::type_error("Expected " + std::string(dtype_name(want)) + " passed to parameter '" + op.inputs[k].name +
                         "' of op '" + op.name + "', got " + py::repr(v).cast<std::string>() + " of type '" +
                         py::str(py::type::of(v).attr("__name__")).cast<std::string>() + "' instead. Error: " +
                         expected_dtype_text(v, want));
  } catch (py::value_error& e) {
    if (op.inputs[k].is_list()) throw;
    throw py::value_error("Tried to convert '" + op.inputs[k].name + "' to a tensor and failed. Error: " +
                          (v.is_none() ? std::string("None values not supported.") : std::string(e.what())));
  }
}

// An eager op's outputs as Python: one EagerTensor, or a tuple of them.
inline py::object wrap_eager_outputs(const OpDef& op, std::vector<Tensor>& outputs) {
  if (op.outputs.size() == 1 && !op.outputs[0].is_list()) return wrap_eager_tensor(std::move(outputs[0]));
  py::tuple out(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) out[i] = wrap_eager_tensor(std::move(outputs[i]));
  return std::move(out);
}

// Tensors made from an op call's Python inputs: on the stack for the usual few, so a call on
// tensors alone constructs no Tensor.
class ConvertedInputs {
 public:
  ConvertedInputs() = default;
  ConvertedInputs(const ConvertedInputs&) = delete;
  ConvertedInputs& operator=(const ConvertedInputs&) = delete;
  ~ConvertedInputs() {
    for (int i = 0; i < num_inline_; ++i) slot(i)->~Tensor();
  }
  const Tensor* add(Tensor&& t) {
    if (num_inline_ < kInline) {
      Tensor* p = new (slot(num_inline_)) Tensor(std::move(t));
      ++num_inline_;
      return p;
    }
    spilled_.push_back(std::make_unique<Tensor>(std::move(t)));
    return spilled_.back().get();
  }

 private:
  static constexpr int kInline = 4;
  Tensor* slot(int i) { return reinterpret_cast<Tensor*>(storage_) + i; }
  alignas(Tensor) unsigned char storage_[kInline * sizeof(Tensor)];
  int num_inline_ = 0;
  std::vector<std::unique_ptr<Tensor>> spilled_;
};

// Runs an eager op on tensors (recording it on active tapes) and returns its outputs as Python.
py::object run_eager(const OpDef& op, const Tensor* const* tensors, int count, const AttrMap& attrs) {
  const bool show_outputs = device_hook_pending() && run_device_hook(op.name.c_str());
  // The outputs' vector is this thread's, reused (no allocation per op); an op run while one is
  // running (a kernel calling back into Python) gets its own.
  struct Reused {
    std::vector<Tensor> outputs;
    bool busy = false;
  };
  Reused& reused = per_thread<Reused>();
  std::vector<Tensor> own_outputs;
  std::vector<Tensor>& outputs = reused.busy ? own_outputs : reused.outputs;
  struct Release {
    std::vector<Tensor>& outputs;
    bool* busy;
    ~Release() {
      outputs.clear();
      if (busy) *busy = false;
    }
  } release{outputs, reused.busy ? nullptr : &reused.busy};
  reused.busy = true;
  throw_if_error(execute_and_record(op, tensors, count, attrs, &outputs));
  if (show_outputs) {
    py::object result = wrap_eager_outputs(op, outputs);
    run_device_hook_outputs(op.name.c_str(), result);
    return result;
  }
  return wrap_eager_outputs(op, outputs);
}

py::object call_eager(const OpHandle& h, const py::handle* inputs, int num_inputs, const AttrMap& attrs,
                      DType* known) {
  const OpDef& op = *h.op;
  // Most ops have few inputs: keep their pointers on the stack.
  constexpr int kInline = 8;
  const Tensor* inline_ptrs[kInline];
  std::vector<const Tensor*> heap_ptrs;
  const Tensor** tensors = inline_ptrs;
  int count = 0;
  for_each_input(op, inputs, num_inputs, [&](int, int, py::handle) { ++count; });
  if (count > kInline) {
    heap_ptrs.resize(count);
    tensors = heap_ptrs.data();
  }
  ConvertedInputs converted;
  int pos = 0;
  for_each_input(op, inputs, num_inputs, [&](int k, int, py::handle v) {
    if (const Tensor* t = eager_tensor_ptr(v)) {
      tensors[pos++] = t;
      return;
    }
    if (const SymbolicTensor* t = symbolic_tensor_ptr(v)) {
      // A tensor leaked from a function whose trace has ended: TF's out-of-scope TypeError.
      const GraphTrace* trace = find_trace(*t->graph);
      if (trace && !trace->standalone && !TraceContext::current().building(*t->graph)) {
        throw_out_of_scope(v, *t, nullptr);
      }
      throw py::type_error("An op outside of the function building code is being passed a \"Graph\" tensor. "
                           "The graph tensor has name: " + py::str(v.attr("name")).cast<std::string>());
    }
    const Tensor* t = converted.add(convert_python_input(op, k, v, known, h.hint_python_inputs));
    tensors[pos] = t;
    if (device_hook_pending()) run_device_hook_log_only("_EagerConst");  // TF makes Python inputs with this op
    const int type_index = op.input_type_index[k];
    if (type_index >= 0 && known[type_index] == DType::kInvalid) known[type_index] = t->dtype();
    ++pos;
  });
  return run_eager(op, tensors, count, attrs);
}

// True for a (nested) list or tuple holding a graph tensor.
bool holds_symbolic_tensor(py::handle v) {
  if (!PyList_Check(v.ptr()) && !PyTuple_Check(v.ptr())) return symbolic_tensor_ptr(v) != nullptr;
  for (auto item : py::reinterpret_borrow<py::sequence>(v)) {
    if (holds_symbolic_tensor(item)) return true;
  }
  return false;
}

// A list holding graph tensors as one graph tensor, packed as TF's conversion packs it
// (tf.broadcast_to(x, [tf.shape(y)[0], 1]), tf.random.uniform([n, 2])): graphfn.ops.array_ops.autopack.
py::object autopack(py::handle v) {
  static PyObject* pack = nullptr;  // kept for the process's life (no teardown-order issue)
  if (pack == nullptr) pack = py::object(py::module_::import("graphfn.ops.array_ops").attr("autopack")).release().ptr();
  return py::reinterpret_borrow<py::object>(pack)(v);
}

// Adds the op to the graph being traced (tracing/op_builder.h). This converts the Python inputs
// (symbolic tensors, eager tensors, Python values) in input order, deciding type attrs as it goes,
// and maps failures to TF's Python exceptions.
py::object call_graph(const OpHandle& h, const py::handle* inputs, int num_inputs, const AttrMap& attrs,
                      DType* known) {
  const OpDef& op = *h.op;
  const std::shared_ptr<Graph>& graph = current_graph_ptr();
  throw_if_finalized(*graph);
  const std::string name = reserve_op_name(*graph, h.name);
  std::shared_ptr<const SourceStack> defined_at = capture_defined_at();
  std::vector<Endpoint> endpoints;
  // Each converted input joins the graph before the next is converted, as in TF.
  auto add = [&](const Operand& operand) {
    Endpoint e;
    throw_if_error(add_operand(*graph, op, name, operand, defined_at, &e));
    endpoints.push_back(e);
  };
  // TF's graph building decides type attrs input by input: a Python value follows the dtype of
  // the inputs before it (tf.maximum(0, x) with a float x makes an int32 constant and fails),
  // except within a list input, whose tensors decide for its Python values.
  auto decide = [&](int k, DType dt) {
    const int type_index = op.input_type_index[k];
    if (type_index >= 0 && known[type_index] == DType::kInvalid) known[type_index] = dt;
  };
  for_each_input(op, inputs, num_inputs, [&](int k, int j, py::handle v) {
    if (j == 0) {
      for (auto item : py::reinterpret_borrow<py::sequence>(inputs[k])) {
        const DType dt = tensor_dtype(item);
        if (dt != DType::kInvalid) decide(k, dt);
      }
    }
    if (const SymbolicTensor* t = symbolic_tensor_ptr(v)) {
      decide(k, t->graph->dtype(t->endpoint));
      // As TF: a tensor of a finished branch, loop body or function is out of scope here.
      if (!can_capture(*graph, t->graph.get())) throw_out_of_scope(v, *t, graph.get());
      add(Operand::symbolic(t->graph.get(), t->endpoint, k, j));
      return;
    }
    if (!op.inputs[k].is_list() && (PyList_Check(v.ptr()) || PyTuple_Check(v.ptr())) && holds_symbolic_tensor(v)) {
      py::object packed = autopack(v);
      if (const SymbolicTensor* t = symbolic_tensor_ptr(packed)) {
        decide(k, t->graph->dtype(t->endpoint));
        add(Operand::symbolic(t->graph.get(), t->endpoint, k, j));
        return;
      }
    }
    const Tensor* eager = eager_tensor_ptr(v);
    // A variable's handle in a branch or loop body is captured from the outermost graph; it
    // decides no type attr there.
    if (eager && eager->dtype() == DType::kResource && captures_resource_handles(*graph)) {
      add(Operand::constant_value(*eager, k, j));
      return;
    }
    Tensor value = eager ? *eager : convert_graph_input(op, k, v, known, h.hint_python_inputs);
    decide(k, value.dtype());
    add(Operand::constant_value(std::move(value), k, j));
  });
  int id = 0;
  Graph::Failure failure;
  const Status added = add_op_node(*graph, op, name, endpoints, attrs, defined_at, &id, &failure);
  if (!added.ok()) {
    // As TF's graph building: a dtype mismatch is a TypeError, a shape function's error a ValueError.
    if (failure == Graph::Failure::kInputType) throw py::type_error(added.message());
    if (failure == Graph::Failure::kShapeFunction) throw py::value_error(added.message());
    throw_if_error(added);
  }
  const int num_outputs = static_cast<int>(graph->node(id).output_dtypes.size());
  if (op.outputs.empty()) return py::cast(GraphOp{graph, id});  // TF returns the Operation
  if (op.outputs.size() == 1 && !op.outputs[0].is_list()) return py::cast(SymbolicTensor{graph, Endpoint{id, 0}});
  py::tuple out(num_outputs);
  for (int i = 0; i < num_outputs; ++i) out[i] = py::cast(SymbolicTensor{graph, Endpoint{id, i}});
  return std::move(out);
}

// TF's Python name of an op ("ConcatV2" -> "concat_v2", "Conv2D" -> "conv2d"), as its errors show.
std::string python_op_name(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = name[i];
    if (std::isupper(c) && i > 0 && name[i - 1] != '_' &&
        (std::islower(static_cast<unsigned char>(name[i - 1])) ||
         (i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1]))))) {
      out += '_';
    }
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

// A list input given as another sequence (a rank-1 tensor, say) becomes a list; anything without
// a length (a scalar tensor, a generator, a number) is TF's TypeError. Iterating it as a sequence
// would call __getitem__ with __len__'s exception still set.
py::object list_input(const OpDef& op, int k, py::handle value) {
  const Py_ssize_t n = PySequence_Check(value.ptr()) ? PySequence_Size(value.ptr()) : -1;
  if (n >= 0) {
    PyObject* items = PySequence_List(value.ptr());
    if (items) return py::reinterpret_steal<py::object>(items);
  }
  PyErr_Clear();
  throw py::type_error("Expected list for '" + op.inputs[k].name + "' argument to '" + python_op_name(op.name) +
                       "' Op, not " + py::repr(value).cast<std::string>() + ".");
}

}  // namespace

const OpDef& find_op(const std::string& name) {
  const OpDef* op = OpRegistry::global().find(name);
  if (!op) throw_if_error(errors::NotFound("Op type not registered '", name, "'"));
  return *op;
}

// Objects that know how to become a tensor (graphfn.Variable) implement TF's
// `__tf_tensor__()` protocol; plain Python scalars and tensors are checked first, for speed.
bool needs_tensor_protocol(py::handle v) {
  PyObject* p = v.ptr();
  if (eager_tensor_ptr(v) || symbolic_tensor_ptr(v) || PyFloat_CheckExact(p) || PyLong_CheckExact(p) ||
      PyBool_Check(p) || PyUnicode_CheckExact(p) || PyBytes_CheckExact(p) || PyList_CheckExact(p) ||
      PyTuple_CheckExact(p) || p == Py_None) {
    return false;
  }
  return PyObject_HasAttrString(p, "__tf_tensor__");
}

py::object as_tensor_input(py::handle v) {
  if (needs_tensor_protocol(v)) return v.attr("__tf_tensor__")();
  return py::reinterpret_borrow<py::object>(v);
}

py::object call_op(const OpHandle& h, const py::handle* inputs, int num_inputs, const AttrMap& attrs) {
  const OpDef& op = *h.op;
  if (num_inputs != static_cast<int>(op.inputs.size())) {
    throw py::type_error(op.name + " takes " + std::to_string(op.inputs.size()) + " inputs, got " +
                         std::to_string(num_inputs));
  }
  constexpr int kMaxInputs = 8;
  if (num_inputs > kMaxInputs) throw py::type_error(op.name + " has too many inputs");
  // Eager tensors only (the usual eager call, `x + y` among them): nothing to convert, no type
  // attr to decide, so straight to the kernel; the general path below would do the same.
  if (!op.has_list_input) {
    const Tensor* tensors[kMaxInputs];
    bool all_eager = true;
    for (int k = 0; k < num_inputs && all_eager; ++k) {
      tensors[k] = eager_tensor_ptr(inputs[k]);
      all_eager = tensors[k] != nullptr;
    }
    if (all_eager && !current_graph()) {
      // tf.add and `+` on a string x run Add.
      const bool strings = h.string_op && num_inputs > 0 && tensors[0]->dtype() == DType::kString;
      return run_eager(strings ? *h.string_op : op, tensors, num_inputs, attrs);
    }
  }
  // Replace protocol objects (variables) by their tensors; `converted` keeps them alive.
  std::vector<py::object> converted;
  py::handle resolved[kMaxInputs];
  for (int k = 0; k < num_inputs; ++k) {
    resolved[k] = inputs[k];
    if (op.inputs[k].is_list()) {
      if (!PyList_Check(inputs[k].ptr()) && !PyTuple_Check(inputs[k].ptr())) {
        converted.push_back(list_input(op, k, inputs[k]));
        resolved[k] = converted.back();
      }
      bool any = false;
      for (auto item : py::reinterpret_borrow<py::sequence>(resolved[k])) any = any || needs_tensor_protocol(item);
      if (!any) continue;
      py::list items;
      for (auto item : py::reinterpret_borrow<py::sequence>(resolved[k])) items.append(as_tensor_input(item));
      converted.push_back(std::move(items));
      resolved[k] = converted.back();
    } else if (needs_tensor_protocol(inputs[k])) {
      converted.push_back(inputs[k].attr("__tf_tensor__")());
      resolved[k] = converted.back();
    }
  }
  inputs = resolved;
  const OpHandle* handle = &h;
  OpHandle string_handle;
  if (h.string_op && num_inputs > 0) {
    // tf.add and `+` convert x first; a string x runs Add.
    if (tensor_dtype(inputs[0]) == DType::kInvalid) {
      converted.push_back(py::cast(to_tensor(inputs[0], DType::kInvalid)));
      resolved[0] = converted.back();
    }
    if (tensor_dtype(inputs[0]) == DType::kString) {
      string_handle = OpHandle{h.string_op, h.name, h.hint_python_inputs, nullptr};
      handle = &string_handle;
    }
  }
  const OpDef& run_op = *handle->op;
  DType known[kMaxTypeAttrs];
  for (size_t i = 0; i < run_op.type_attr_names.size(); ++i) {
    known[i] = attrs.empty() ? DType::kInvalid : attrs.get_type(run_op.type_attr_names[i], DType::kInvalid);
  }
  if (current_graph()) return call_graph(*handle, inputs, num_inputs, attrs, known);
  // Eager ops take the dtype of any tensor input, so Python values follow it (2. * t, t * 2.).
  for_each_input(run_op, inputs, num_inputs, [&](int k, int, py::handle v) {
    const int type_index = run_op.input_type_index[k];
    if (type_index < 0 || known[type_index] != DType::kInvalid) return;
    if (const Tensor* t = eager_tensor_ptr(v)) known[type_index] = t->dtype();
  });
  return call_eager(*handle, inputs, num_inputs, attrs, known);
}

DType tensor_dtype(py::handle v) {
  if (const Tensor* t = eager_tensor_ptr(v)) return t->dtype();
  if (const SymbolicTensor* s = symbolic_tensor_ptr(v)) return s->graph->dtype(s->endpoint);
  return DType::kInvalid;
}

std::string expected_dtype_text(py::handle value, DType want) {
  py::handle bad = first_unconvertible(value, want);
  if (!bad) bad = value;
  return "Expected " + std::string(dtype_name(want)) + ", but got " + py_display(bad) + " of type '" +
         py::str(py::type::of(bad).attr("__name__")).cast<std::string>() + "'.";
}

py::object call_op_with_python_args(const OpHandle& h, PyObject* args, PyObject* kwargs) {
  const AttrMap attrs = (kwargs && PyDict_GET_SIZE(kwargs) > 0) ? attrs_from_kwargs(*h.op, kwargs) : AttrMap();
  const int n = static_cast<int>(PyTuple_GET_SIZE(args));
  py::handle inputs[8];
  if (n > 8) throw py::type_error(h.op->name + " takes " + std::to_string(h.op->inputs.size()) + " inputs");
  for (int i = 0; i < n; ++i) inputs[i] = PyTuple_GET_ITEM(args, i);
  return call_op(h, inputs, n, attrs);
}

}  // namespace graphfn
