// TF's creation stacks for traced nodes (ir/source_stack.h), captured from the Python frames,
// and the out-of-scope error that shows one.
#pragma once
#include <memory>

#include <pybind11/pybind11.h>

#include "graphfn/bindings/graph_context.h"
#include "graphfn/ir/source_stack.h"

namespace graphfn {
namespace py = pybind11;

// The Python frames running now, outermost first, less graphfn's own (AutoGraph's generated
// code shows as the user's function). Needs the GIL. Cheap: frames are interned by
// (code, instruction), and a stack equal to the previous capture is that same stack.
std::shared_ptr<const SourceStack> capture_defined_at();

// Raises TF's error for `value` (holding `t`) used in `accessing`, a graph it cannot be captured
// into, or in eager code (`accessing` null) after t's function finished tracing:
// InaccessibleTensorError when `accessing` encloses t's graph (a branch, loop body or function
// traced inside it, now finished), else TypeError.
[[noreturn]] void throw_out_of_scope(py::handle value, const SymbolicTensor& t, const Graph* accessing);

}  // namespace graphfn
