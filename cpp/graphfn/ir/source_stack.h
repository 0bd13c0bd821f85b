// Where a node was made: the Python frames that were running when tracing added it (TF's op
// "traceback"), outermost first, graphfn's own frames already left out. Errors show it: a graph
// execution error's "Detected at node X defined at (most recent call last):" and the
// "... was defined here:" of a tensor used out of its scope.
//
// Frames are interned by whoever captures them (the Python bindings) and never freed, so a stack
// is a vector of pointers, and consecutive nodes made by one Python line share one stack.
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace graphfn {

struct SourceFrame {
  std::string file;
  int line = 0;
  std::string function;
};

struct SourceStack {
  std::vector<const SourceFrame*> frames;  // outermost first; the frames outlive every stack
};

// TF's layout of a graph execution error's creation stack: `  File "f", line N, in fn\n\n` per
// frame (TF keeps no source text there: an empty line follows each frame).
std::string format_defined_at(const SourceStack& stack);
// The frames of an out-of-scope tensor's "was defined here:", one `    File ...` line each.
std::string format_defined_here(const SourceStack& stack);

}  // namespace graphfn
