// The cache-hit fast path of graphfn.function: a C++ table from a call's key (built straight
// from the positional arguments) to the compiled plan. A hit runs the plan without entering
// Python; anything unusual (keyword arguments, nested structures, NumPy arrays, a new key) is a
// miss and takes the Python path (python/graphfn/function/polymorphic_function.py), which
// registers simple signatures here after tracing.
#include <unordered_map>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/runtime/call_key.h"
#include "graphfn/runtime/plan.h"

namespace graphfn {
namespace {

bool g_functions_run_eagerly = false;

enum OutputKind { kSingle = 0, kTuple = 1, kList = 2, kNone = 3, kPacker = 4 };

struct Entry {
  std::shared_ptr<const Plan> plan;
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

class FastCallCache {
 public:
  // The call's result, or `miss` when the Python path must handle it.
  py::object call(py::handle args, py::handle kwargs, py::handle miss) {
    // While tracing another function, calls must be recorded in that graph: Python path.
    if (g_functions_run_eagerly || current_graph() ||
        (kwargs && !kwargs.is_none() && PyDict_GET_SIZE(kwargs.ptr()) > 0)) {
      return py::reinterpret_borrow<py::object>(miss);
    }
    CallKey key;
    std::vector<Tensor> feeds;
    if (!key_from_args(args.ptr(), &key, &feeds)) return py::reinterpret_borrow<py::object>(miss);
    auto it = entries_.find(key);
    if (it == entries_.end()) return py::reinterpret_borrow<py::object>(miss);
    ++hits_;
    const Entry entry = it->second;  // a copy: another thread may clear() while the GIL is released
    std::vector<Tensor> results;
    Status s;
    {
      py::gil_scoped_release release;
      s = entry.plan->run(feeds.data(), static_cast<int>(feeds.size()), &results);
    }
    throw_if_error(s);
    return pack(entry, results);
  }

  void insert(py::handle args, std::shared_ptr<const Plan> plan, int kind, py::object packer) {
    CallKey key;
    if (!key_from_args(args.ptr(), &key, nullptr)) return;
    entries_[std::move(key)] = Entry{std::move(plan), static_cast<OutputKind>(kind), std::move(packer)};
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

}  // namespace

void bind_function(py::module_& m) {
  py::class_<FastCallCache>(m, "FastCallCache")
      .def(py::init<>())
      .def("call", &FastCallCache::call)
      .def("insert", [](FastCallCache& c, py::handle args, std::shared_ptr<Plan> plan, int kind, py::object packer) {
        c.insert(args, std::move(plan), kind, std::move(packer));
      })
      .def("take_hits", &FastCallCache::take_hits)
      .def("clear", &FastCallCache::clear)
      .def("__len__", &FastCallCache::size);
  m.def("set_functions_run_eagerly", [](bool v) { g_functions_run_eagerly = v; });
}

}  // namespace graphfn
