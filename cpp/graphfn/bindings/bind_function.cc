// The cache-hit fast path of graphfn.function: FunctionBase, the C++ base class of Function,
// answers calls from a table from the call's key (built straight from the positional arguments)
// to the compiled plan, through its tp_call slot: a hit runs the plan without entering Python.
// Anything unusual (keyword arguments, nested structures, NumPy arrays, a new key) is a miss and
// calls `self._call_slow(args, kwargs)` (python/graphfn/function/polymorphic_function.py),
// which registers simple signatures here after tracing.
#include <unordered_map>

#include <pybind11/detail/exception_translation.h>
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/runtime/call_key.h"
#include "graphfn/runtime/function.h"
#include "graphfn/autodiff/tape.h"

namespace graphfn {
namespace {

bool g_functions_run_eagerly = false;

enum OutputKind { kSingle = 0, kTuple = 1, kList = 2, kNone = 3, kPacker = 4 };

struct Entry {
  std::shared_ptr<const Function> function;
  OutputKind kind;
  py::object packer;  // for kPacker: results list -> Python structure
};

// Fills `key` and `feeds` from positional args; false if an argument needs the Python path.
bool key_from_args(PyObject* args, CallKey* key, std::vector<Tensor>* feeds) {
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* a = PyTuple_GET_ITEM(args, i);
    if (const Tensor* t = eager_tensor_ptr(a)) {
      key->add_tensor(t->dtype(), t->shape());
      if (feeds) feeds->push_back(*t);
    } else if (PyBool_Check(a)) {
      key->add_int(a == Py_True);
    } else if (PyLong_CheckExact(a)) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
      if (overflow) return false;
      key->add_int(v);
    } else if (PyFloat_CheckExact(a)) {
      key->add_float(PyFloat_AS_DOUBLE(a));
    } else if (PyUnicode_CheckExact(a)) {
      Py_ssize_t size = 0;
      const char* s = PyUnicode_AsUTF8AndSize(a, &size);
      if (!s) throw py::error_already_set();
      key->add_string(std::string(s, size), false);
    } else if (PyBytes_CheckExact(a)) {
      key->add_string(std::string(PyBytes_AS_STRING(a), PyBytes_GET_SIZE(a)), true);
    } else if (a == Py_None) {
      key->add_none();
    } else {
      return false;
    }
  }
  return true;
}

// Runs `fn`, with the GIL released unless a tape may record the call (tapes are per thread, but
// recording builds the function's gradient, which clones graphs Python also holds).
Status call_function(const Function& fn, const std::vector<Tensor>& feeds, std::vector<Tensor>* results) {
  if (any_tape_active()) return fn.call(feeds.data(), static_cast<int>(feeds.size()), results);
  py::gil_scoped_release release;
  return fn.call(feeds.data(), static_cast<int>(feeds.size()), results);
}

class FastCallCache {
 public:
  // The call's result, or a null object when the Python path must handle it.
  py::object call(PyObject* args, PyObject* kwargs) {
    // While tracing another function, calls must be recorded in that graph, and with a tape
    // active the variables the function reads are watched first: Python path.
    if (g_functions_run_eagerly || current_graph() || any_tape_active() || (kwargs && PyDict_GET_SIZE(kwargs) > 0)) {
      return py::object();
    }
    CallKey key;
    std::vector<Tensor> feeds;
    if (!key_from_args(args, &key, &feeds)) return py::object();
    auto it = entries_.find(key);
    if (it == entries_.end()) return py::object();
    ++hits_;
    const Entry entry = it->second;  // a copy: another thread may clear() while the GIL is released
    std::vector<Tensor> results;
    throw_if_error(call_function(*entry.function, feeds, &results));
    return pack(entry, results);
  }

  void insert(py::handle args, std::shared_ptr<const Function> function, int kind, py::object packer) {
    CallKey key;
    if (!key_from_args(args.ptr(), &key, nullptr)) return;
    entries_[std::move(key)] = Entry{std::move(function), static_cast<OutputKind>(kind), std::move(packer)};
  }

  // Calls answered here since the last call of this method (for the retracing detector).
  int take_hits() {
    const int h = hits_;
    hits_ = 0;
    return h;
  }
  void clear() { entries_.clear(); }
  size_t size() const { return entries_.size(); }

 private:
  static py::object pack(const Entry& entry, std::vector<Tensor>& results) {
    switch (entry.kind) {
      case kSingle: return py::cast(std::move(results[0]));
      case kNone: return py::none();
      case kTuple:
      case kList: {
        py::list out(results.size());
        for (size_t i = 0; i < results.size(); ++i) out[i] = py::cast(std::move(results[i]));
        if (entry.kind == kList) return std::move(out);
        return py::tuple(out);
      }
      case kPacker: {
        py::list out(results.size());
        for (size_t i = 0; i < results.size(); ++i) out[i] = py::cast(std::move(results[i]));
        return entry.packer(out);
      }
    }
    return py::none();
  }

  std::unordered_map<CallKey, Entry, CallKeyHash> entries_;
  int hits_ = 0;
};

struct FunctionBase {
  FastCallCache fast;
};

PyObject* function_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  try {
    auto* inst = reinterpret_cast<py::detail::instance*>(self);
    auto* base = static_cast<FunctionBase*>(inst->get_value_and_holder().value_ptr());
    py::object result = base->fast.call(args, kwargs);
    if (result) return result.release().ptr();
    py::object kw = kwargs ? py::reinterpret_borrow<py::object>(kwargs) : py::dict();
    return py::handle(self).attr("_call_slow")(py::handle(args), kw).release().ptr();
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

}  // namespace

void bind_function(py::module_& m) {
  py::class_<Function, std::shared_ptr<Function>>(m, "Function")
      .def(py::init([](const std::shared_ptr<Graph>& graph, const std::string& name, bool constant_folding,
                       bool arithmetic_optimization, bool verify) {
             // The function keeps its own copy: the traced graph may still change (a gradient
             // taken later rewrites control flow to output intermediates).
             std::shared_ptr<const Function> fn;
             throw_if_error(Function::create(std::shared_ptr<const Graph>(graph->clone()), name,
                                             OptimizerOptions{constant_folding, arithmetic_optimization, verify}, &fn));
             return std::const_pointer_cast<Function>(fn);
           }),
           py::arg("graph"), py::arg("name"), py::arg("constant_folding") = true,
           py::arg("arithmetic_optimization") = true, py::arg("verify") = false)
      .def_property_readonly("plan", [](const Function& f) { return std::const_pointer_cast<Plan>(f.plan()); })
      .def_property_readonly("num_gradient_builds", &Function::num_gradient_builds)
      .def("__call__", [](const Function& f, const std::vector<const Tensor*>& tensors) {
        std::vector<Tensor> feeds;
        feeds.reserve(tensors.size());
        for (const Tensor* t : tensors) feeds.push_back(*t);
        std::vector<Tensor> results;
        throw_if_error(call_function(f, feeds, &results));
        py::list out(results.size());
        for (size_t i = 0; i < results.size(); ++i) out[i] = py::cast(std::move(results[i]));
        return out;
      });
  py::class_<FunctionBase>(m, "FunctionBase")
      .def(py::init<>())
      .def("_fast_insert", [](FunctionBase& f, py::handle args, std::shared_ptr<const Function> function, int kind,
                              py::object packer) { f.fast.insert(args, std::move(function), kind, std::move(packer)); })
      .def("_fast_take_hits", [](FunctionBase& f) { return f.fast.take_hits(); })
      .def("_fast_clear", [](FunctionBase& f) { f.fast.clear(); })
      .def("_fast_size", [](const FunctionBase& f) { return f.fast.size(); });
  // A Python subclass gets its call slot from a `__call__` in its MRO's dicts, so the slot is
  // installed on the subclass itself (python/graphfn/function/polymorphic_function.py).
  m.def("install_function_call_slot", [](py::handle cls) {
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype(type, reinterpret_cast<PyTypeObject*>(
                                                                  py::type::of<FunctionBase>().ptr()))) {
      throw py::type_error("install_function_call_slot expects a FunctionBase subclass");
    }
    type->tp_call = function_call;
    PyType_Modified(type);
  });
  m.def("set_functions_run_eagerly", [](bool v) { g_functions_run_eagerly = v; });
}

}  // namespace graphfn
