// Adding nodes to the graph being traced, once the caller has turned its objects into C++ values:
// op nodes named in the graph's name scope, with constant operands (Python values, eager
// tensors) as Const nodes named inside the op's scope ("Greater/y", "mul/x", like TF), tensors of
// enclosing graphs captured, and a variable's resource handle captured from the outermost graph;
// also function arguments and calls of a traced function copied in place.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "graphfn/core/status.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/graph.h"
#include "graphfn/ir/op_def.h"
#include "graphfn/ir/source_stack.h"

namespace graphfn {

// One input value of a node being added: an output of a graph being traced, or a constant.
struct Operand {
  const Graph* graph = nullptr;  // the tensor's graph; null for a constant
  Endpoint endpoint;
  Tensor constant;
  int input = 0;      // the op's declared input it feeds
  int position = -1;  // its position within a list input, else -1

  static Operand symbolic(const Graph* graph, Endpoint e, int input = 0, int position = -1) {
    Operand o;
    o.graph = graph;
    o.endpoint = e;
    o.input = input;
    o.position = position;
    return o;
  }
  static Operand constant_value(Tensor value, int input = 0, int position = -1) {
    Operand o;
    o.constant = std::move(value);
    o.input = input;
    o.position = position;
    return o;
  }
};

// The name of an op node about to be added to `graph`, reserved now (as TF opens the op's name
// scope before converting its inputs): `hint` inside the current name scope, made unique. A hint
// ending in "/" is a scope's own name (TF's convention: a composite op named after the scope it
// opened, "truediv" around "truediv/Cast"), already unique: it loses the "/".
std::string reserve_op_name(Graph& graph, const std::string& hint);

// True when a variable's resource handle used in `graph` is captured from the outermost graph
// (a branch or loop body being traced) rather than made a Const of `graph` itself.
bool captures_resource_handles(const Graph& graph);

// Operand `operand` of op `op` (named `name`, from reserve_op_name) as an output of `graph`, added
// as the caller converts each input in order (as TF, whose Const operands are made one by one):
// a tensor of `graph` itself, or of an enclosing graph captured; a constant as a Const named
// "<name>/<input name>" ("_<position>" within a list input), but a variable's resource handle
// captured from the outermost graph when captures_resource_handles(graph).
// InvalidArgument if the operand's graph does not enclose `graph` (capture.h: can_capture).
Status add_operand(Graph& graph, const OpDef& op, const std::string& name, const Operand& operand,
                   const std::shared_ptr<const SourceStack>& defined_at, Endpoint* out);

// The Const standing for eager tensor `value` in `graph` once a GradientTape watches it there:
// made on first use (`create`) and reused by every later operand holding the same tensor (by its
// Tensor id), so gradients reach it. {-1, 0} when not watched and not `create`.
Status watched_eager_tensor(Graph& graph, const Tensor& value, bool create, Endpoint* out);

// Adds the op node itself, fed `inputs` (from add_operand); *id is the new node. On failure,
// *failure says why, as Graph::add_node's: TF raises an input dtype mismatch as TypeError and a
// shape function's error as ValueError.
Status add_op_node(Graph& graph, const OpDef& op, const std::string& name, const std::vector<Endpoint>& inputs,
                   const AttrMap& attrs, const std::shared_ptr<const SourceStack>& defined_at, int* id,
                   Graph::Failure* failure);

// A Const node holding `value`, named `name` (made unique).
Status add_constant(Graph& graph, const Tensor& value, const std::string& name,
                    const std::shared_ptr<const SourceStack>& defined_at, int* id);

// A function argument: a placeholder fed in order (with the variable shape a resource
// argument's handle carries, if known) named `name`, as TF's user-specified name.
Status add_argument(Graph& graph, DType dtype, const Shape& shape, const std::string& name, const Shape* handle_shape,
                    const std::shared_ptr<const SourceStack>& defined_at, int* id);

// Calls `fn` inside `graph` by copying its nodes there (ir/inline.h), under a new scope made from
// `name`: symbolic inputs are captured, constants become Const nodes. *outputs are fn's results.
Status inline_call(Graph& graph, const Graph& fn, const std::vector<Operand>& inputs, const std::string& name,
                   std::vector<Endpoint>* outputs);

}  // namespace graphfn
