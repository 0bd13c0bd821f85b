#include "graphfn/ir/source_stack.h"

namespace graphfn {
namespace {

std::string format_frames(const SourceStack& stack, const char* indent, const char* after) {
  std::string out;
  for (const SourceFrame* f : stack.frames) {
    out += indent;
    out += "File \"" + f->file + "\", line " + std::to_string(f->line) + ", in " + f->function + "\n";
    out += after;
  }
  return out;
}

}  // namespace

std::string format_defined_at(const SourceStack& stack) { return format_frames(stack, "  ", "\n"); }

std::string format_defined_here(const SourceStack& stack) { return format_frames(stack, "    ", ""); }

}  // namespace graphfn
