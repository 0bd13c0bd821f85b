// The error path of Plan::run, kept out of plan.cc's execution loop.
#include "graphfn/runtime/plan.h"

namespace graphfn {

const SourceStack* Plan::defined_at_of(const std::string* failed) const {
  for (const Step& step : steps_) {
    if (failed == &step.node_name || failed == &step.pred_node_name) return step.defined_at.get();
    for (const auto& sub : step.sub_plans) {
      if (const SourceStack* found = sub->defined_at_of(failed)) return found;
    }
  }
  return nullptr;
}

Status Plan::graph_execution_error(const Status& s, const std::string* failed) const {
  const std::string node = failed ? *failed : std::string("?");
  const SourceStack* stack = failed ? defined_at_of(failed) : nullptr;
  std::string text = "Graph execution error:\n\nDetected at node " + node;
  if (stack && !stack->frames.empty()) {
    text += " defined at (most recent call last):\n" + format_defined_at(*stack);
  } else {
    text += ":\n";
  }
  return Status(s.code(), text + s.message() + "\n\t [[{{node " + node + "}}]] [Op:" + name_ + "]");
}

}  // namespace graphfn
