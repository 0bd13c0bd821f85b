#include "graphfn/bindings/defined_at.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "graphfn/bindings/bind.h"
#include "graphfn/tracing/graph_trace.h"

namespace graphfn {
namespace {

struct CodeInfo {
  bool keep = false;  // false: graphfn's own code
  std::string file, function;
  std::unordered_map<int, const SourceFrame*> at;     // by instruction (or, before 3.11, line)
  std::unordered_map<int, const SourceFrame*> lines;  // by line
};

// Interned under the GIL. An entry lives as long as its code object (a weak reference drops it:
// re-running a notebook cell must not keep the old cell's code alive). Frames are never freed:
// stacks point to them.
struct Tables {
  std::unordered_map<PyObject*, CodeInfo> codes;
  std::shared_ptr<const SourceStack> last;
  bool enabled = true;  // off only to measure what capturing costs (benchmarks)
  py::object frame_info;  // graphfn.function.defined_at.frame_info
};

Tables& tables() {
  static Tables* t = new Tables();  // leaked: destroying Python objects after finalization would crash
  return *t;
}

CodeInfo& code_info(Tables& t, PyCodeObject* code) {
  PyObject* key = reinterpret_cast<PyObject*>(code);
  auto it = t.codes.find(key);
  if (it != t.codes.end()) return it->second;
  if (!t.frame_info) t.frame_info = py::module_::import("graphfn.function.defined_at").attr("frame_info");
  CodeInfo info;
  try {
    py::object answer = t.frame_info(py::handle(key));
    if (!answer.is_none()) {
      py::tuple pair = answer.cast<py::tuple>();
      info.file = pair[0].cast<std::string>();
      info.function = pair[1].cast<std::string>();
      info.keep = true;
    }
  } catch (const py::error_already_set&) {
    // A stack is for messages only: never fail the op (e.g. at interpreter shutdown).
  }
  py::cpp_function forget([key](py::handle weakref) {
    tables().codes.erase(key);
    weakref.dec_ref();
  });
  PyObject* weakref = PyWeakref_NewRef(key, forget.ptr());
  if (weakref == nullptr) {
    PyErr_Clear();
    Py_INCREF(key);  // not weakly referenceable: keep it, so its address is never reused
  }
  return t.codes.emplace(key, std::move(info)).first->second;
}

const SourceFrame* intern_frame(Tables& t, PyFrameObject* frame, PyCodeObject* code) {
  CodeInfo& info = code_info(t, code);
#if PY_VERSION_HEX >= 0x030B0000
  const int position = PyFrame_GetLasti(frame);
#else
  const int position = PyFrame_GetLineNumber(frame);
#endif
  auto it = info.at.find(position);
  if (it != info.at.end()) return it->second;
  const SourceFrame* interned = nullptr;
  if (info.keep) {
    const int line = PyFrame_GetLineNumber(frame);
    const SourceFrame*& same_line = info.lines[line];
    if (!same_line) same_line = new SourceFrame{info.file, line, info.function};
    interned = same_line;
  }
  info.at.emplace(position, interned);
  return interned;
}

}  // namespace

std::shared_ptr<const SourceStack> capture_defined_at() {
  Tables& t = tables();
  if (!t.enabled) return nullptr;
  std::vector<const SourceFrame*> frames;
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed
  Py_XINCREF(frame);
  while (frame) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    const SourceFrame* f = intern_frame(t, frame, code);
    Py_DECREF(code);
    if (f) frames.push_back(f);
    PyFrameObject* back = PyFrame_GetBack(frame);
    Py_DECREF(frame);
    frame = back;
  }
  if (frames.empty()) return nullptr;
  std::reverse(frames.begin(), frames.end());
  if (t.last && t.last->frames == frames) return t.last;
  auto stack = std::make_shared<SourceStack>();
  stack->frames = std::move(frames);
  t.last = stack;
  return stack;
}

namespace {

std::string func_graph_text(const Graph& g) {
  const GraphTrace* trace = find_trace(g);
  return "FuncGraph(name=" + (trace ? trace->function_name : std::string()) +
         ", id=" + std::to_string(reinterpret_cast<uintptr_t>(&g)) + ")";
}

}  // namespace

void throw_out_of_scope(py::handle value, const SymbolicTensor& t, const Graph* accessing) {
  // TF's rule: the access is from a graph enclosing the tensor's (the tensor's scope has ended)
  // or from an unrelated graph.
  const bool enclosed = accessing != nullptr && traced_inside(*accessing, *t.graph);
  const std::string tensor = py::repr(value).cast<std::string>();
  std::string message =
      tensor +
      " is out of scope and cannot be used here. Use return values, explicit Python locals or TensorFlow "
      "collections to access it.\nPlease see https://www.tensorflow.org/guide/function#all_outputs_of_a_"
      "tffunction_must_be_return_values for more information.\n\n" +
      tensor + " was defined here:\n";
  const std::shared_ptr<const SourceStack>& stack = t.graph->node(t.endpoint.node).defined_at;
  if (stack) message += format_defined_here(*stack);
  message += "\nThe tensor " + tensor + " cannot be accessed from " +
             (enclosed ? func_graph_text(*accessing) : std::string("here")) + ", because it was defined in " +
             func_graph_text(*t.graph) + ", which is out of scope.";
  if (enclosed) {
    py::object cls = py::module_::import("graphfn.framework.errors").attr("InaccessibleTensorError");
    PyErr_SetString(cls.ptr(), message.c_str());
    throw py::error_already_set();
  }
  // TF reports this when the function is called, outside AutoGraph's "in user code:" rewriting:
  // the mark tells graphfn's rewriting (autograph/impl/error_utils.py) to let it through as is.
  py::object error = py::reinterpret_steal<py::object>(PyObject_CallFunction(PyExc_TypeError, "s", message.c_str()));
  if (!error) throw py::error_already_set();
  error.attr("ag_pass_through") = true;
  PyErr_SetObject(PyExc_TypeError, error.ptr());
  throw py::error_already_set();
}

void bind_defined_at(py::module_& m) {
  m.def("raise_out_of_scope", [](py::handle value, const Graph& accessing) {
    const SymbolicTensor* t = symbolic_tensor_ptr(value);
    if (!t) throw py::type_error("raise_out_of_scope: not a graph tensor");
    throw_out_of_scope(value, *t, &accessing);
  });
  m.def("_set_defined_at_capture", [](bool enabled) { tables().enabled = enabled; });
  m.def("graph_encloses", [](const Graph& outer, const SymbolicTensor& t) { return traced_inside(outer, *t.graph); });
  // The creation stack of `tensor`'s op as (file, line, function) tuples, outermost first.
  m.def("defined_at", [](py::handle value) {
    const SymbolicTensor* t = symbolic_tensor_ptr(value);
    py::list out;
    if (!t) return out;
    const std::shared_ptr<const SourceStack>& stack = t->graph->node(t->endpoint.node).defined_at;
    if (stack) {
      for (const SourceFrame* f : stack->frames) out.append(py::make_tuple(f->file, f->line, f->function));
    }
    return out;
  });
}

}  // namespace graphfn
