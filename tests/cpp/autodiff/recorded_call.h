// Runs one op through the gradient tape's dispatch (execute_and_record), so that any active tape
// records it, and returns its first output; the op must succeed.
#pragma once
#include <string>
#include <vector>

#include "harness.h"
#include "graphfn/autodiff/tape.h"
#include "graphfn/ir/op_registry.h"

namespace graphfn {
namespace testing {

inline Tensor run_recorded(const std::string& op, const std::vector<Tensor>& inputs,
                           const AttrMap& attrs = AttrMap()) {
  std::vector<Tensor> out;
  const Status s = execute_and_record(*OpRegistry::global().find(op), inputs.data(),
                                      static_cast<int>(inputs.size()), attrs, &out);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return out[0];
}

}  // namespace testing
}  // namespace graphfn
