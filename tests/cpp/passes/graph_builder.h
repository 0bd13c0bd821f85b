// Test helper for the pass tests: builds small graphs in one line per node and runs them.
//
//   TestGraph t;
//   int x = t.placeholder(DType::kFloat32, Shape{3});
//   int y = t.op("Mul", {x, t.constant(scalar<float>(1))});
//   t.results({y});
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "harness.h"

#include "graphfn/ir/graph.h"
#include "graphfn/runtime/plan.h"

namespace graphfn {
namespace testing {

struct TestGraph {
  Graph g;

  int placeholder(DType dt, Shape shape, const std::string& name = "x") {
    int id = 0;
    REQUIRE(g.add_placeholder(dt, std::move(shape), name, &id).ok());
    g.arguments.push_back(id);
    return id;
  }
  int constant(const Tensor& value, const std::string& name = "Const") {
    int id = 0;
    REQUIRE(g.add_const(value, name, &id).ok());
    return id;
  }
  // A node reading output 0 of each input node.
  int op(const std::string& op_name, const std::vector<int>& inputs, AttrMap attrs = AttrMap(),
         const std::string& name = "") {
    std::vector<Endpoint> endpoints;
    for (int i : inputs) endpoints.push_back(Endpoint{i, 0});
    return op_at(op_name, endpoints, std::move(attrs), name);
  }
  // A node reading the given outputs.
  int op_at(const std::string& op_name, const std::vector<Endpoint>& inputs, AttrMap attrs = AttrMap(),
         const std::string& name = "") {
    int id = 0;
    const Status s = g.add_node(op_name, name.empty() ? op_name : name, inputs, std::move(attrs), &id);
    INFO(s.to_string());
    REQUIRE(s.ok());
    return id;
  }
  void results(const std::vector<int>& nodes) {
    g.results.clear();
    for (int n : nodes) g.results.push_back(Endpoint{n, 0});
  }
  const Node& node(int id) const { return g.node(id); }
  bool is_const(int id) const { return g.node(id).const_value() != nullptr; }
};

// The names of node `id`'s control inputs, in the order they were added.
inline std::vector<std::string> control_input_names(const Graph& g, int id) {
  std::vector<std::string> out;
  for (int c : g.node(id).control_inputs) out.push_back(g.node(c).name);
  return out;
}

// Builds a plan for `g` and runs it; returns the status (results in *out).
inline Status run_graph(const Graph& g, const std::vector<Tensor>& feeds, std::vector<Tensor>* out,
                        std::vector<std::string>* steps = nullptr) {
  std::shared_ptr<const Plan> plan;
  GRAPHFN_RETURN_IF_ERROR(Plan::build(g, &plan, "f"));
  if (steps) *steps = plan->step_names();
  return plan->run(feeds.data(), static_cast<int>(feeds.size()), out);
}

inline AttrMap attrs_of(std::initializer_list<std::pair<const char*, AttrValue>> items) {
  AttrMap a;
  for (const auto& [name, value] : items) a.set(name, value);
  return a;
}

}  // namespace testing
}  // namespace graphfn
