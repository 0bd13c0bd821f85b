// The call cache of graphfn.function. FunctionBase, the C++ base class of the Python class
// `Function` (python/graphfn/function/polymorphic_function.py), answers calls through Python's
// vectorcall protocol (no argument tuple or keyword dict is built): it binds the arguments to the Python signature (call_signature.h), builds the
// call's key and feeds (call_key_builder.h), and on a hit runs the CompiledFunction and packs its
// results (output_structure.h) without entering Python. Everything else calls
// `self._call_slow(args, kwargs)`, which traces if needed and then offers the call back to the
// cache with `_fast_insert`. Methods: FunctionBase's tp_descr_get slot finds the instance's own
// Function in a table instead of running Python.
#include <cstring>
#include <memory>
#include <unordered_map>

#include <pybind11/detail/exception_translation.h>
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/call_key_builder.h"
#include "graphfn/bindings/call_signature.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/eager_tensor_object.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/bindings/interned.h"
#include "graphfn/bindings/interrupt_guard.h"
#include "graphfn/bindings/output_structure.h"
#include "graphfn/bindings/variable_object.h"
#include "graphfn/bindings/variable_watch.h"
#include "graphfn/runtime/call_key.h"
#include "graphfn/runtime/function.h"
#include "graphfn/autodiff/tape.h"
#include "graphfn/tracing/trace_context.h"

namespace graphfn {
namespace {

struct CacheEntry {
  std::shared_ptr<const CompiledFunction> function;
  std::shared_ptr<const OutputStructure> outputs;
  py::tuple read_variables;  // variables the trace read: an active tape watches them
};

// Per-call scratch: the bound values and the key builder keep their capacity between calls. A
// call made while another is being keyed on the same thread (Python code run by a key hook)
// gets a fresh one.
struct CallScratch {
  std::vector<py::object> values;
  CallKeyBuilder builder;
  std::vector<Tensor> results;
  void clear() {
    values.clear();
    builder.clear();
    results.clear();
  }
};

class ScratchLease {
 public:
  ScratchLease() : lease_(lease) {
    if (lease_.depth++ == 0 && lease_.shared) {
      scratch_ = lease_.shared;
    } else if (lease_.depth == 1) {
      scratch_ = make_shared_scratch();
    } else {
      own_ = std::make_unique<CallScratch>();
      scratch_ = own_.get();
    }
  }
  ~ScratchLease() {
    --lease_.depth;
    scratch_->clear();  // drops Python references while the GIL is held
  }
  CallScratch& operator*() { return *scratch_; }
  CallScratch* operator->() { return scratch_; }

 private:
  // Trivially constructed and destroyed: reading it costs no thread-local guard. The thread's
  // shared scratch is owned by a second thread_local, touched once per thread.
  struct Lease {
    int depth;
    CallScratch* shared;
  };
  static thread_local Lease lease;
  static CallScratch* make_shared_scratch() {
    thread_local CallScratch owned;
    lease.shared = &owned;
    return &owned;
  }
  Lease& lease_;
  std::unique_ptr<CallScratch> own_;
  CallScratch* scratch_ = nullptr;
};
thread_local ScratchLease::Lease ScratchLease::lease{0, nullptr};

// Runs `fn`, with the GIL released unless a tape may record the call (tapes are per thread, but
// recording builds the function's gradient, which clones graphs Python also holds) or the run is
// brief (releasing and retaking the GIL would cost more than the run: a third of a tiny call).
// On Python's main thread a run that is not brief stops at Ctrl-C (interrupt_guard.h).
// The feeds are read in place: the caller holds their Python objects. `tapes_active`:
// any_tape_active(), which the caller has read.
Status call_function(const CompiledFunction& fn, const std::vector<const Tensor*>& feeds,
                     std::vector<Tensor>* results, bool tapes_active) {
  const int n = static_cast<int>(feeds.size());
  const bool may_record = tapes_active && fn.may_record(feeds.data(), n);
  if (!may_record && fn.plan()->runs_briefly_in_place(feeds.data(), n)) {
    return fn.call_unrecorded(feeds.data(), n, results);
  }
  InterruptGuard interruptible;
  Status s;
  if (may_record) {
    std::vector<Tensor> inputs;  // a recorded call keeps its inputs on the tape
    inputs.reserve(n);
    for (const Tensor* t : feeds) inputs.push_back(*t);
    s = fn.call(inputs.data(), n, results);
  } else {
    py::gil_scoped_release release;
    s = fn.call_unrecorded(feeds.data(), n, results);
  }
  interruptible.raise_if_interrupted(s);
  return s;
}

// Tells the active tapes about the variables a call passes (trainable ones) and reads, as the
// Python path does before running a concrete function.
void watch_variables(const std::vector<PyObject*>& passed, const py::tuple& read) {
  for (PyObject* v : passed) variable_accessed(v);
  for (py::handle v : read) variable_accessed(v);
}

// A call given as an argument tuple and keyword dict (tp_call, `_fast_insert`), in the
// vectorcall layout the cache binds.
class VectorcallArgs {
 public:
  VectorcallArgs(PyObject* args, PyObject* kwargs) : num_args_(PyTuple_GET_SIZE(args)) {
    const Py_ssize_t num_kwargs = kwargs ? PyDict_GET_SIZE(kwargs) : 0;
    items_.reserve(num_args_ + num_kwargs);
    for (Py_ssize_t i = 0; i < num_args_; ++i) items_.push_back(PyTuple_GET_ITEM(args, i));
    if (num_kwargs == 0) return;
    kwnames_ = py::tuple(num_kwargs);
    PyObject *key = nullptr, *value = nullptr;
    Py_ssize_t pos = 0, i = 0;
    while (i < num_kwargs && PyDict_Next(kwargs, &pos, &key, &value)) {
      Py_INCREF(key);
      PyTuple_SET_ITEM(kwnames_.ptr(), i++, key);
      items_.push_back(value);  // borrowed: the caller's dict outlives this object
    }
  }
  PyObject* const* args() const { return items_.data(); }
  Py_ssize_t num_args() const { return num_args_; }
  PyObject* kwnames() const { return kwnames_ ? kwnames_.ptr() : nullptr; }

 private:
  Py_ssize_t num_args_;
  std::vector<PyObject*> items_;
  py::tuple kwnames_{py::reinterpret_steal<py::tuple>(py::handle())};
};

class CallCache {
 public:
  void set_signature(CallSignature signature) {
    signature_ = std::move(signature);
    entries_.clear();
  }

  // The call's result, or a null object when the Python path must handle it. The arguments
  // are as in the vectorcall protocol (call_signature.h).
  py::object call(PyObject* const* args, Py_ssize_t num_args, PyObject* kwnames) {
    // While tracing another function, calls are recorded in that graph: Python path.
    if (entries_.empty() || functions_run_eagerly() || current_graph()) return py::object();
    ScratchLease scratch;
    if (!key_call(args, num_args, kwnames, &*scratch)) return py::object();
    auto it = entries_.find(scratch->builder.key());
    if (it == entries_.end()) return py::object();
    ++hits_;
    ++total_hits_;
    // Held: another thread may clear() while the GIL is released.
    const std::shared_ptr<const CacheEntry> entry = it->second;
    const bool tapes_active = any_tape_active();
    if (tapes_active) watch_variables(scratch->builder.trainable_variables(), entry->read_variables);
    std::vector<Tensor>& results = scratch->results;
    throw_if_error(call_function(*entry->function, scratch->builder.feeds(), &results, tapes_active));
    return entry->outputs->pack(results);
  }

  // Caches a call the Python path answered: its key now maps to `function`, provided the tensors
  // Python fed (`flat`) are exactly the ones this cache would feed. Returns whether it did.
  bool insert(const VectorcallArgs& call, py::handle flat, std::shared_ptr<const CompiledFunction> function,
              std::shared_ptr<const OutputStructure> outputs, py::tuple read_variables) {
    if (!call_key_hooks_set()) return false;
    CallScratch scratch;
    if (!key_call(call.args(), call.num_args(), call.kwnames(), &scratch)) return false;
    const auto& objects = scratch.builder.feed_objects();
    if (!PyList_Check(flat.ptr()) || static_cast<size_t>(PyList_GET_SIZE(flat.ptr())) != objects.size()) return false;
    for (size_t i = 0; i < objects.size(); ++i) {
      if (PyList_GET_ITEM(flat.ptr(), i) != objects[i].ptr()) return false;
    }
    if (static_cast<size_t>(outputs->num_tensors()) != function->graph().results.size()) return false;
    entries_[std::move(scratch.builder.key())] = std::make_shared<const CacheEntry>(
        CacheEntry{std::move(function), std::move(outputs), std::move(read_variables)});
    return true;
  }

  // Calls answered here since the last call of this method (for the retracing detector).
  int take_hits() {
    const int h = hits_;
    hits_ = 0;
    return h;
  }
  long long total_hits() const { return total_hits_; }
  void clear() { entries_.clear(); }
  size_t size() const { return entries_.size(); }

 private:
  bool key_call(PyObject* const* args, Py_ssize_t num_args, PyObject* kwnames, CallScratch* scratch) const {
    if (!call_key_hooks_set() || !signature_.bind(args, num_args, kwnames, &scratch->values)) return false;
    for (const py::object& value : scratch->values) {
      if (!scratch->builder.add(value.ptr())) return false;
    }
    return true;
  }

  CallSignature signature_;
  std::unordered_map<CallKey, std::shared_ptr<const CacheEntry>, CallKeyHash> entries_;
  int hits_ = 0;
  long long total_hits_ = 0;
};

// The per-instance Functions of a method: instance -> (weak reference, its Function). The
// reference tells a live instance from a dead one whose address was reused.
class BoundFunctions {
 public:
  py::object find(PyObject* instance) const {
    auto it = table_.find(instance);
    if (it == table_.end() || PyWeakref_GetObject(it->second.ref.ptr()) != instance) return py::object();
    return it->second.function;
  }

  void add(PyObject* instance, py::object function) {
    py::object ref = py::reinterpret_steal<py::object>(PyWeakref_NewRef(instance, nullptr));
    if (!ref) throw py::error_already_set();  // TypeError: cannot create weak reference
    if (table_.size() >= sweep_at_) sweep();
    table_[instance] = Slot{std::move(ref), std::move(function)};
  }

 private:
  struct Slot {
    py::object ref;
    py::object function;
  };
  void sweep() {
    for (auto it = table_.begin(); it != table_.end();) {
      it = PyWeakref_GetObject(it->second.ref.ptr()) == Py_None ? table_.erase(it) : std::next(it);
    }
    sweep_at_ = std::max<size_t>(16, 2 * table_.size());
  }
  std::unordered_map<PyObject*, Slot> table_;
  size_t sweep_at_ = 16;
};

struct FunctionBase {
  CallCache cache;
  BoundFunctions bound;
};

FunctionBase* base_of(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  return static_cast<FunctionBase*>(inst->get_value_and_holder().value_ptr());
}

// Every call not answered by the cache: Function._call_slow(args, kwargs).
py::object call_slow(PyObject* self, py::handle args, py::handle kwargs) {
  static PyObject* const name = interned("_call_slow");
  py::object method = py::reinterpret_steal<py::object>(PyObject_GetAttr(self, name));
  if (!method) throw py::error_already_set();
  return method(args, kwargs);
}

// The vectorcall slot: what `f(...)` runs.
PyObject* function_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  try {
    const Py_ssize_t num_args = PyVectorcall_NARGS(nargsf);
    py::object result = base_of(self)->cache.call(args, num_args, kwnames);
    if (result) return result.release().ptr();
    py::tuple positional(num_args);
    for (Py_ssize_t i = 0; i < num_args; ++i) {
      Py_INCREF(args[i]);
      PyTuple_SET_ITEM(positional.ptr(), i, args[i]);
    }
    py::dict keywords;
    const Py_ssize_t num_kwargs = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < num_kwargs; ++i) {
      if (PyDict_SetItem(keywords.ptr(), PyTuple_GET_ITEM(kwnames, i), args[num_args + i]) < 0) {
        throw py::error_already_set();
      }
    }
    return call_slow(self, positional, keywords).release().ptr();
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

// The tp_call slot, for calls made before the vectorcall slot is set (and subclasses of Function,
// which Python does not give the vectorcall flag).
PyObject* function_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  try {
    const VectorcallArgs call(args, kwargs);
    py::object result = base_of(self)->cache.call(call.args(), call.num_args(), call.kwnames());
    if (result) return result.release().ptr();
    py::object kw = kwargs ? py::reinterpret_borrow<py::object>(kwargs) : py::dict();
    return call_slow(self, args, kw).release().ptr();
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

// Where a FunctionBase instance keeps its vectorcall function: one pointer appended to
// pybind11's instance layout (set when the class is made, see bind_function).
Py_ssize_t g_vectorcall_offset = 0;

void set_vectorcall(PyObject* self) {
  if (g_vectorcall_offset == 0) return;
  vectorcallfunc fn = function_vectorcall;
  std::memcpy(reinterpret_cast<char*>(self) + g_vectorcall_offset, &fn, sizeof(fn));
}

// `instance.method` for a Function defined in a class: the instance's own Function.
py::object bound_function(PyObject* self, PyObject* instance, PyObject* owner) {
  if (!instance || instance == Py_None) return py::reinterpret_borrow<py::object>(self);
  FunctionBase* base = base_of(self);
  py::object found = base->bound.find(instance);
  if (found) return found;
  py::object made = py::handle(self).attr("_make_bound_function")(py::handle(instance),
                                                                   owner ? py::handle(owner) : py::none());
  // Another thread may have made one meanwhile (Python code can switch threads): keep the first.
  found = base->bound.find(instance);
  if (found) return found;
  base->bound.add(instance, made);
  return made;
}

PyObject* function_descr_get(PyObject* self, PyObject* instance, PyObject* owner) {
  try {
    return bound_function(self, instance, owner).release().ptr();
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

std::vector<CallSignature::Parameter> parameters_from(py::handle parameters) {
  std::vector<CallSignature::Parameter> out;
  for (py::handle p : parameters) {
    auto t = p.cast<py::tuple>();
    if (t.size() != 3) throw py::value_error("a parameter is (name, kind, default or None)");
    const int kind = t[1].cast<int>();
    if (kind < 0 || kind > 4) throw py::value_error("unknown parameter kind");
    // Python passes a one-element tuple for a default, None for no default.
    py::object default_;
    if (!t[2].is_none()) default_ = t[2].cast<py::tuple>()[0];
    out.push_back(CallSignature::Parameter{py::reinterpret_borrow<py::object>(t[0]),
                                           static_cast<CallSignature::Kind>(kind), std::move(default_)});
  }
  return out;
}

}  // namespace

void bind_function(py::module_& m) {
  bind_output_structure(m);
  py::class_<CompiledFunction, std::shared_ptr<CompiledFunction>>(m, "CompiledFunction")
      .def(py::init([](const std::shared_ptr<Graph>& graph, const std::string& name, bool constant_folding,
                       bool arithmetic_optimization, bool verify, bool remapping) {
             // The function keeps its own copy: the traced graph may still change (a gradient
             // taken later rewrites control flow to output intermediates).
             refresh_sigint_hook();  // Ctrl-C stops its runs (interrupt_guard.h)
             std::shared_ptr<const CompiledFunction> fn;
             throw_if_error(CompiledFunction::create(std::shared_ptr<const Graph>(graph->clone()), name,
                                                     OptimizerOptions{constant_folding, arithmetic_optimization, verify, remapping},
                                                     &fn));
             return std::const_pointer_cast<CompiledFunction>(fn);
           }),
           py::arg("graph"), py::arg("name"), py::arg("constant_folding") = true,
           py::arg("arithmetic_optimization") = true, py::arg("verify") = false, py::arg("remapping") = true)
      .def_property_readonly("plan",
                             [](const CompiledFunction& f) { return std::const_pointer_cast<Plan>(f.plan()); })
      .def_property_readonly("num_gradient_builds", &CompiledFunction::num_gradient_builds)
      .def("__call__", [](const CompiledFunction& f, const std::vector<const Tensor*>& tensors) {
        // Copies: the list may change while the run has released the GIL.
        std::vector<Tensor> copies;
        copies.reserve(tensors.size());
        for (const Tensor* t : tensors) copies.push_back(*t);
        std::vector<const Tensor*> feeds;
        for (const Tensor& t : copies) feeds.push_back(&t);
        std::vector<Tensor> results;
        throw_if_error(call_function(f, feeds, &results, any_tape_active()));
        py::list out(results.size());
        for (size_t i = 0; i < results.size(); ++i) out[i] = wrap_eager_tensor(std::move(results[i]));
        return out;
      });
  // The instance gets room for one more pointer, its vectorcall function: Python reads it at
  // tp_vectorcall_offset (the Function subclass gets the flag in install_function_slots).
  py::class_<FunctionBase>(m, "FunctionBase", py::custom_type_setup([](PyHeapTypeObject* heap_type) {
                             PyTypeObject* type = &heap_type->ht_type;
                             type->tp_vectorcall_offset = type->tp_basicsize;
                             type->tp_basicsize += static_cast<Py_ssize_t>(sizeof(vectorcallfunc));
                             g_vectorcall_offset = type->tp_vectorcall_offset;
                           }))
      .def(py::init<>())
      // parameters: (name, inspect.Parameter kind, (default,) or None) per parameter.
      .def("_fast_set_signature",
           [](py::handle self, py::handle parameters) {
             base_of(self.ptr())->cache.set_signature(CallSignature(parameters_from(parameters)));
             set_vectorcall(self.ptr());
           })
      .def("_fast_insert",
           [](FunctionBase& f, py::tuple args, py::dict kwargs, py::list flat,
              std::shared_ptr<const CompiledFunction> function, std::shared_ptr<const OutputStructure> outputs,
              py::tuple read_variables) {
             return f.cache.insert(VectorcallArgs(args.ptr(), kwargs.ptr()), flat, std::move(function),
                                   std::move(outputs), std::move(read_variables));
           })
      .def("_fast_take_hits", [](FunctionBase& f) { return f.cache.take_hits(); })
      .def("_fast_hit_count", [](const FunctionBase& f) { return f.cache.total_hits(); })
      .def("_fast_clear", [](FunctionBase& f) { f.cache.clear(); })
      .def("_fast_size", [](const FunctionBase& f) { return f.cache.size(); })
      .def("_bound_for", [](py::handle self, py::handle instance, py::handle owner) {
        return bound_function(self.ptr(), instance.ptr(), owner.ptr());
      });
  // A Python subclass gets its call and descriptor slots from `__call__`/`__get__` in its MRO's
  // dicts, so the slots are installed on the subclass itself.
  m.def("install_function_slots", [](py::handle cls) {
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype(type, reinterpret_cast<PyTypeObject*>(
                                                                  py::type::of<FunctionBase>().ptr()))) {
      throw py::type_error("install_function_slots expects a FunctionBase subclass");
    }
    type->tp_call = function_call;
    type->tp_descr_get = function_descr_get;
    if (g_vectorcall_offset != 0) {
      type->tp_vectorcall_offset = g_vectorcall_offset;
      type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    }
    PyType_Modified(type);
  });
  m.def("set_call_key_hooks", [](py::object variable_type, py::object tensor_type, py::object opaque_key) {
    if (!PyType_Check(variable_type.ptr()) || !PyType_Check(tensor_type.ptr())) {
      throw py::type_error("set_call_key_hooks expects the Variable and Tensor classes");
    }
    // The builder reads a Variable's handle and resource from VariableBase's C fields.
    if (!PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(variable_type.ptr()), variable_base_type())) {
      throw py::type_error("set_call_key_hooks expects a Variable class derived from VariableBase");
    }
    CallKeyHooks& hooks = call_key_hooks();
    hooks.variable_type = std::move(variable_type);
    hooks.tensor_type = std::move(tensor_type);
    hooks.opaque_key = std::move(opaque_key);
  });
}

}  // namespace graphfn
