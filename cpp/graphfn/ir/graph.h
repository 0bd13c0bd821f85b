// Graph: the traced program as data. Nodes are appended in creation order, and every input
// refers to an earlier node, so creation order is a topological order. Node names follow TF:
// unique within the graph, "add", "add_1", ..., with "/" for names made inside an op's scope
// ("Greater/y" for the constant operand of "Greater").
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/op_def.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ir/source_stack.h"

namespace graphfn {

// One output of a node: TF's "name:index".
struct Endpoint {
  int node = -1;
  int index = 0;
  bool operator==(const Endpoint& o) const { return node == o.node && index == o.index; }
};

struct Node {
  int id = -1;
  std::string name;
  const OpDef* op = nullptr;
  std::vector<Endpoint> inputs;
  std::vector<int> control_inputs;  // nodes that must run first
  AttrMap attrs;                    // given attrs plus the resolved type attrs ("T", ...)
  std::vector<DType> type_attrs;    // resolved, by OpDef::type_attr_names index
  std::vector<DType> output_dtypes;
  std::vector<Shape> output_shapes;  // may be partial
  // The Python frames that made it (null for nodes made by passes or without Python).
  std::shared_ptr<const SourceStack> defined_at;
  // The constant value of a Const node, else null.
  const Tensor* const_value() const;
};

// Told about every node added to a graph it observes, before the node is visible in the graph.
class GraphObserver {
 public:
  virtual ~GraphObserver() = default;
  virtual void node_added(Node& node) = 0;
};

// Graphs are owned through shared_ptr where code above ir needs to hand one out again (a custom
// gradient's Python function builds its ops into the graph being differentiated).
class Graph : public std::enable_shared_from_this<Graph> {
 public:
  Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // Appends a node named `name` (made unique): resolves type attrs from the input dtypes, runs
  // the op's shape function (which validates and infers output dtypes/shapes).
  // With `name_reserved`, `name` came from unique_name() and is used as it is.
  // With `failure`, a failed node says why: TF raises an input dtype mismatch as TypeError and a
  // shape function's error as ValueError (whose message then describes the node, as TF's);
  // kShapeFunction also stands for what TF's op wrappers reject as ValueError (list lengths and
  // attrs under their minimums, found by validate_op_call in ir/op_validation.h).
  enum class Failure { kOther, kInputType, kShapeFunction };
  Status add_node(const OpDef& op, const std::string& name, const std::vector<Endpoint>& inputs,
                  AttrMap attrs, int* id, bool name_reserved = false, Failure* failure = nullptr);
  Status add_node(const std::string& op, const std::string& name, const std::vector<Endpoint>& inputs,
                  AttrMap attrs, int* id);
  Status add_const(const Tensor& value, const std::string& name, int* id);
  Status add_placeholder(DType dtype, const Shape& shape, const std::string& name, int* id);
  void add_control_input(int node, int dependency);

  // A copy that shares nodes with this graph until either side changes them (copy on write):
  // cloning costs a pointer per node. The traced graph stays exactly as traced, for
  // as_graph_def(); optimization passes rewrite a clone that only the plan uses.
  std::unique_ptr<Graph> clone() const;
  // A clone of the first `num_nodes` nodes only (arguments and results past them are dropped):
  // the forward part of a graph that gradient nodes were appended to.
  std::unique_ptr<Graph> clone_prefix(int num_nodes) const;
  // Graphs copied from one another by clone() share a lineage (a number unique in the process):
  // the nodes a clone kept have the same ids, so a gradient built on a clone of a traced graph
  // may use that graph's tensors (a custom gradient's closure) by their ids.
  uint64_t lineage() const { return lineage_; }
  // Turns node `id` into a Const holding `value`, keeping its id, name and control inputs
  // (constant folding: consumers keep referring to the same node).
  void replace_with_const(int id, const Tensor& value);

  // Reserves and returns "hint" if unused, else "hint_1", "hint_2", ... Like TF, names are
  // compared case-insensitively: after "add", "Add" becomes "Add_1".
  std::string unique_name(const std::string& hint);

  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  const Node& node(int id) const { return *nodes_[id]; }
  // The node, first copied if it is shared with a clone. Graphs are built and rewritten by one
  // thread at a time (under the GIL), which makes the use count exact.
  Node& mutable_node(int id);
  int find_node(const std::string& name) const;  // -1 if absent
  DType dtype(Endpoint e) const { return nodes_[e.node]->output_dtypes[e.index]; }
  const Shape& shape(Endpoint e) const { return nodes_[e.node]->output_shapes[e.index]; }

  // The function signature: placeholders fed in order, and the fetched outputs.
  std::vector<int> arguments;
  std::vector<Endpoint> results;

  // Whoever builds this graph (tracing/graph_trace.h) may attach itself here: it is told about
  // every node added (so tf.control_dependencies scopes reach nodes added by any code: ops,
  // gradients, If / While nodes) and lives as long as the graph. Not copied by clone().
  std::shared_ptr<GraphObserver> observer;

  // True if a node here or in a subgraph is stateful or touches a resource (If, not StatelessIf).
  bool is_stateful() const;
  // Calls fn(node, function) for every function (func or list(func) attr) of every node.
  template <typename Fn>
  void for_each_subgraph(Fn&& fn) const {
    for (const auto& node : nodes_) {
      for (const auto& item : node->attrs.items()) {
        for_each_func(item.second, [&](const FuncAttr& f) { fn(*node, f); });
      }
    }
  }

  // A compact listing for debugging and tests: "add = AddV2[T=int32](x, y:0) -> int32[]".
  std::string to_text() const;

 private:
  std::string describe_shape_error(const OpDef& op, const std::string& name, const std::vector<Endpoint>& inputs,
                                   AttrMap attrs, const DType* type_attrs, const std::vector<InputInfo>& infos,
                                   const InferenceContext& ic, const std::string& message) const;
  struct Names {
    std::unordered_map<std::string, int> by_name;
    std::unordered_map<std::string, int> in_use;  // lower-cased name -> next suffix
  };
  Names& mutable_names();  // copied first if shared with a clone

  std::vector<std::shared_ptr<Node>> nodes_;
  std::shared_ptr<Names> names_ = std::make_shared<Names>();
  uint64_t lineage_;
};

// The nodes that must run to compute `roots`: those, every stateful node, and (transitively) their
// data inputs. Non-strict execution runs nothing else; a pure node needed only through control
// edges does not run (as in TF, whose grappler turns it into a NoOp).
std::vector<bool> needed_nodes(const Graph& graph, const std::vector<Endpoint>& roots);

}  // namespace graphfn
