// Graph building from Python: the current-graph stack, Graph and SymbolicTensor handles, and
// compiled plans (run with the GIL released).
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/defined_at.h"
#include "graphfn/bindings/eager_tensor_object.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/finalized_graph.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/bindings/interrupt_guard.h"
#include "graphfn/core/resource.h"
#include "graphfn/ir/inline.h"
#include "graphfn/passes/pass_manager.h"
#include "graphfn/runtime/plan.h"
#include "graphfn/runtime/session_plan.h"
#include "graphfn/autodiff/tape.h"
#include "graphfn/serialize/graph_def_text.h"
#include "graphfn/tracing/capture.h"
#include "graphfn/tracing/finish_trace.h"
#include "graphfn/tracing/graph_trace.h"
#include "graphfn/tracing/op_builder.h"

namespace graphfn {
namespace {

PyTypeObject* g_symbolic_type = nullptr;

py::object shape_to_py(const Shape& s) {
  if (!s.known_rank()) return py::none();
  py::tuple dims(s.rank());
  for (int i = 0; i < s.rank(); ++i) dims[i] = s.dim(i) < 0 ? py::object(py::none()) : py::object(py::int_(s.dim(i)));
  return std::move(dims);
}

Shape shape_from_py(py::handle dims) {
  if (dims.is_none()) return Shape::unknown_rank();
  std::vector<int64_t> out;
  for (auto d : dims) out.push_back(d.is_none() ? Shape::kUnknownDim : d.cast<int64_t>());
  return Shape(std::move(out));
}

const Node& node_of(const SymbolicTensor& t) { return t.graph->node(t.endpoint.node); }

}  // namespace

const SymbolicTensor* symbolic_tensor_ptr(py::handle value) {
  if (Py_TYPE(value.ptr()) != g_symbolic_type) return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(value.ptr());
  return static_cast<const SymbolicTensor*>(inst->get_value_and_holder().value_ptr());
}

void bind_graph(py::module_& m) {
  py::class_<Graph, std::shared_ptr<Graph>>(m, "Graph")
      // A function's graph; its outer graph is the one being built now (TF's FuncGraph.outer_graph).
      .def(py::init([] { return new_function_graph(current_graph_ptr()); }))
      .def_property("function_name", [](Graph& g) { return trace_of(g).function_name; },
                    [](Graph& g, std::string name) { trace_of(g).function_name = std::move(name); })
      .def("add_placeholder", [](const std::shared_ptr<Graph>& g, int dtype, py::handle shape, const std::string& name,
                                 py::handle handle_shape) {
        throw_if_finalized(*g);
        int id = 0;
        const Shape variable_shape = handle_shape.is_none() ? Shape() : shape_from_py(handle_shape);
        throw_if_error(add_argument(*g, dtype_from_number(dtype), shape_from_py(shape), name,
                                    handle_shape.is_none() ? nullptr : &variable_shape, capture_defined_at(), &id));
        return SymbolicTensor{g, Endpoint{id, 0}};
      }, py::arg("dtype"), py::arg("shape"), py::arg("name"), py::arg("handle_shape") = py::none())
      .def("evaluate", [](const Graph& g, const SymbolicTensor& t) {
        // Runs the part of the graph that computes `t` with nothing fed (TF's init_scope lifting
        // of variable initializers); fails if `t` depends on an argument.
        std::shared_ptr<const Plan> plan;
        throw_if_error(Plan::build(g, {}, {t.endpoint}, &plan, "initializer"));
        std::vector<Tensor> results;
        throw_if_error(plan->run(nullptr, 0, &results));
        return results[0];
      })
      // tf.Graph.finalize(): later ops added to the graph raise TF's RuntimeError.
      .def("_finalize", [](Graph& g) { trace_of(g).finalized = true; })
      .def_property_readonly("_finalized", [](const Graph& g) { return is_finalized(g); })
      // Set by tf.Graph(): a graph users build by hand rather than a function's (kept with the
      // graph, so it holds when t.graph is reached after the tf.Graph object is gone).
      .def_property("_standalone", [](const Graph& g) { const GraphTrace* t = find_trace(g); return t && t->standalone; },
                    [](Graph& g, bool standalone) { trace_of(g).standalone = standalone; })
      // tf.compat.v1.Session.run: a plan for the part of the graph the fetches and targets need
      // (runtime/session_plan.h), fed in `feeds` order.
      .def("_session_plan", [](const std::shared_ptr<Graph>& g, const std::vector<const SymbolicTensor*>& feeds,
                               const std::vector<const SymbolicTensor*>& fetches, const std::vector<GraphOp>& targets) {
        auto endpoints = [&](const std::vector<const SymbolicTensor*>& tensors) {
          std::vector<Endpoint> out;
          for (const SymbolicTensor* t : tensors) {
            if (t->graph != g) throw py::value_error("a tensor of another graph was passed to the session");
            out.push_back(t->endpoint);
          }
          return out;
        };
        std::vector<int> target_ids;
        for (const GraphOp& op : targets) {
          if (op.graph != g) throw py::value_error("an operation of another graph was passed to the session");
          target_ids.push_back(op.node);
        }
        std::shared_ptr<const Plan> plan;
        throw_if_error(build_session_plan(*g, endpoints(feeds), endpoints(fetches), target_ids, &plan));
        return std::const_pointer_cast<Plan>(plan);
      })
      // tf.graph_util.import_graph_def: copies `source`'s nodes into this graph, named
      // `prefix` + their names; its placeholders (arguments) are not copied: `inputs` stand for them.
      .def("_import_graph", [](const std::shared_ptr<Graph>& g, const Graph& source,
                               const std::vector<const SymbolicTensor*>& inputs, const std::string& prefix) {
        throw_if_finalized(*g);
        std::vector<Endpoint> ends;
        for (const SymbolicTensor* t : inputs) {
          if (t->graph != g) throw py::value_error("an imported graph's input belongs to another graph");
          ends.push_back(t->endpoint);
        }
        std::vector<Endpoint> outputs;
        throw_if_error(inline_graph(*g, source, ends, prefix, &outputs));
      })
      .def("argument_tensors", [](const std::shared_ptr<Graph>& g) {
        std::vector<SymbolicTensor> out;
        for (int a : g->arguments) out.push_back(SymbolicTensor{g, Endpoint{a, 0}});
        return out;
      })
      .def("result_tensors", [](const std::shared_ptr<Graph>& g) {
        std::vector<SymbolicTensor> out;
        for (const Endpoint& e : g->results) out.push_back(SymbolicTensor{g, e});
        return out;
      })
      .def("permuted", [](const Graph& g, const std::vector<int>& arguments, const std::vector<int>& results) {
        // A copy (sharing nodes) fed and fetched in another order: arguments[i] is the index of
        // the original argument that becomes argument i; likewise results.
        if (arguments.size() != g.arguments.size() || results.size() != g.results.size()) {
          throw py::value_error("permuted: wrong number of arguments or results");
        }
        std::shared_ptr<Graph> copy = g.clone();
        for (size_t i = 0; i < arguments.size(); ++i) copy->arguments.at(i) = g.arguments.at(arguments[i]);
        for (size_t i = 0; i < results.size(); ++i) copy->results.at(i) = g.results.at(results[i]);
        return copy;
      })
      // The graph's results, after `control_output` (an Operation, or None) where there is one,
      // then automatic control dependencies (tracing/finish_trace.h): a trace ends in one call.
      .def("finish_trace", [](const std::shared_ptr<Graph>& g, const std::vector<const SymbolicTensor*>& results,
                              py::handle control_output) {
        std::vector<Endpoint> ends;
        for (const SymbolicTensor* t : results) {
          if (t->graph != g) throw py::value_error("finish_trace: a result belongs to another graph");
          ends.push_back(t->endpoint);
        }
        const int control = control_output.is_none() ? -1 : control_output.cast<const GraphOp&>().node;
        throw_if_error(finish_trace(*g, ends, control));
      }, py::arg("results"), py::arg("control_output") = py::none())
      .def("add_control_output_node", [](const std::shared_ptr<Graph>& g, const std::vector<const SymbolicTensor*>& returned) {
        std::vector<Endpoint> ends;
        for (const SymbolicTensor* t : returned) {
          if (t->graph == g) ends.push_back(t->endpoint);
        }
        const int id = add_control_output(*g, ends);
        return id < 0 ? py::object(py::none()) : py::cast(GraphOp{g, id});
      })
      .def("captured_resources", [](const Graph& g) {
        // (node name, resource id) of every captured resource handle (Const of dtype resource).
        std::vector<std::pair<std::string, uintptr_t>> out;
        for (int i = 0; i < g.num_nodes(); ++i) {
          const Tensor* v = g.node(i).const_value();
          if (v && v->dtype() == DType::kResource) {
            out.emplace_back(g.node(i).name, reinterpret_cast<uintptr_t>(v->data<ResourceHandle>()->get()));
          }
        }
        return out;
      })
      .def("unique_name", &Graph::unique_name)
      .def_property("_name_scope", [](Graph& g) { return trace_of(g).name_scope; },
                    [](Graph& g, std::string scope) { trace_of(g).name_scope = std::move(scope); })
      .def_property_readonly("is_subgraph", [](const Graph& g) { return is_subgraph(g); })
      .def("to_text", &Graph::to_text)
      .def("graph_def_text", &graph_def_text)
      .def_property_readonly("num_nodes", &Graph::num_nodes)
      .def("node_names", [](const Graph& g) {
        std::vector<std::string> names;
        for (int i = 0; i < g.num_nodes(); ++i) names.push_back(g.node(i).name);
        return names;
      })
      .def("node_inputs", [](const Graph& g, int i) {
        std::vector<std::string> names;
        for (const Endpoint& e : g.node(i).inputs) {
          names.push_back(g.node(e.node).name + (e.index ? ":" + std::to_string(e.index) : ""));
        }
        return names;
      })
      .def("node_op", [](const Graph& g, int i) { return g.node(i).op->name; })
      .def("node_control_inputs", [](const Graph& g, int i) {
        std::vector<std::string> names;
        for (int dep : g.node(i).control_inputs) names.push_back(g.node(dep).name);
        return names;
      })
      .def("node_operation", [](const std::shared_ptr<Graph>& g, int i) { return GraphOp{g, i}; })
      .def("push_control_dependencies", [](Graph& g, py::handle ops) {
        // `ops` is None (clear the blocks around) or a list of this graph's Operations; TF marks
        // each as having manual control dependencies.
        std::vector<int> ids;
        if (!ops.is_none()) {
          for (py::handle op : ops) ids.push_back(op.cast<const GraphOp&>().node);
        }
        push_control_dependencies(g, ids, ops.is_none());
      })
      .def("pop_control_dependencies", [](Graph& g) { pop_control_dependencies(g); })
      .def("node_functions", [](const Graph& g, int i) {
        // (attr name, function name, graph) of each child graph of node i (If branches, While
        // cond/body, Case branches), for drawing; the graphs are only read.
        std::vector<std::tuple<std::string, std::string, std::shared_ptr<Graph>>> out;
        for (const auto& item : g.node(i).attrs.items()) {
          for_each_func(item.second, [&](const FuncAttr& f) {
            out.emplace_back(item.first, f.name, std::const_pointer_cast<Graph>(f.graph));
          });
        }
        return out;
      })
      .def_property_readonly("argument_ids", [](const Graph& g) { return g.arguments; })
      .def_property_readonly("result_names", [](const Graph& g) {
        std::vector<std::string> names;
        for (const Endpoint& e : g.results) names.push_back(g.node(e.node).name + (e.index ? ":" + std::to_string(e.index) : ""));
        return names;
      })
      .def("build_plan", [](const Graph& g, const std::string& name, bool constant_folding,
                            bool arithmetic_optimization, bool verify, bool remapping) {
        // The plan runs an optimized copy; `g` stays as traced (as_graph_def() prints it).
        std::unique_ptr<Graph> optimized;
        const OptimizerOptions options{constant_folding, arithmetic_optimization, verify, remapping};
        if (options.any()) throw_if_error(optimized_copy(g, options, &optimized));
        std::shared_ptr<const Plan> plan;
        throw_if_error(Plan::build(optimized ? *optimized : g, &plan, name));
        return std::const_pointer_cast<Plan>(plan);
      }, py::arg("name"), py::arg("constant_folding") = true, py::arg("arithmetic_optimization") = true,
         py::arg("verify") = false, py::arg("remapping") = true);

  m.def("inline_function", [](const Graph& fn, const py::list& tensors, const std::string& name) {
    // Calls `fn` inside the graph being traced by copying its nodes there (ir/inline.h); eager
    // inputs become constants, tensors of enclosing graphs are captured.
    const std::shared_ptr<Graph>& g = current_graph_ptr();
    if (!g) throw py::value_error("inline_function needs a graph being traced");
    throw_if_finalized(*g);
    std::vector<Operand> inputs;
    for (py::handle t : tensors) {
      if (const SymbolicTensor* s = symbolic_tensor_ptr(t)) {
        if (!can_capture(*g, s->graph.get())) throw py::value_error("a tensor from an unrelated graph was passed to a function");
        inputs.push_back(Operand::symbolic(s->graph.get(), s->endpoint));
      } else if (const Tensor* value = eager_tensor_ptr(t)) {
        inputs.push_back(Operand::constant_value(*value));
      } else {
        throw py::type_error("inline_function expects tensors");
      }
    }
    std::vector<Endpoint> outputs;
    throw_if_error(inline_call(*g, fn, inputs, name, &outputs));
    std::vector<SymbolicTensor> out;
    for (const Endpoint& e : outputs) out.push_back(SymbolicTensor{g, e});
    return out;
  });

  py::class_<SymbolicTensor>(m, "SymbolicTensor")
      .def_property_readonly("_dtype_enum", [](const SymbolicTensor& t) {
        return static_cast<int>(t.graph->dtype(t.endpoint));
      })
      .def_property_readonly("_shape_dims", [](const SymbolicTensor& t) { return shape_to_py(t.graph->shape(t.endpoint)); })
      .def_property_readonly("name", [](const SymbolicTensor& t) {
        return node_of(t).name + ":" + std::to_string(t.endpoint.index);
      })
      .def_property_readonly("_op_name", [](const SymbolicTensor& t) { return node_of(t).name; })
      .def_property_readonly("_op_type", [](const SymbolicTensor& t) { return node_of(t).op->name; })
      .def_property_readonly("_op_inputs", [](const SymbolicTensor& t) {
        std::vector<SymbolicTensor> inputs;
        for (const Endpoint& e : node_of(t).inputs) inputs.push_back(SymbolicTensor{t.graph, e});
        return inputs;
      })
      .def_property_readonly("op", [](const SymbolicTensor& t) { return GraphOp{t.graph, t.endpoint.node}; })
      .def("_refine_shape", [](const SymbolicTensor& t, py::handle dims) {
        // set_shape(): later nodes' shape inference sees the refined shape, as in TF.
        t.graph->mutable_node(t.endpoint.node).output_shapes[t.endpoint.index] = shape_from_py(dims);
      })
      .def_property_readonly("value_index", [](const SymbolicTensor& t) { return t.endpoint.index; })
      .def_property_readonly("graph", [](const SymbolicTensor& t) { return t.graph; })
      .def("_same_graph", [](const SymbolicTensor& t, const std::shared_ptr<Graph>& g) { return t.graph == g; });
  g_symbolic_type = reinterpret_cast<PyTypeObject*>(m.attr("SymbolicTensor").ptr());

  // TF's tf.Operation: name, type, data inputs and outputs, control inputs (in the order they
  // were added; GraphDef text sorts them), str() is the NodeDef text.
  py::class_<GraphOp>(m, "Operation")
      .def_property_readonly("name", [](const GraphOp& op) { return op.graph->node(op.node).name; })
      .def_property_readonly("type", [](const GraphOp& op) { return op.graph->node(op.node).op->name; })
      .def_property_readonly("inputs", [](const GraphOp& op) {
        const Node& node = op.graph->node(op.node);
        py::tuple out(node.inputs.size());
        for (size_t i = 0; i < node.inputs.size(); ++i) out[i] = py::cast(SymbolicTensor{op.graph, node.inputs[i]});
        return out;
      })
      .def_property_readonly("outputs", [](const GraphOp& op) {
        std::vector<SymbolicTensor> out;
        const int n = static_cast<int>(op.graph->node(op.node).output_dtypes.size());
        for (int i = 0; i < n; ++i) out.push_back(SymbolicTensor{op.graph, Endpoint{op.node, i}});
        return out;
      })
      .def_property_readonly("control_inputs", [](const GraphOp& op) {
        std::vector<GraphOp> out;
        for (int c : op.graph->node(op.node).control_inputs) out.push_back(GraphOp{op.graph, c});
        return out;
      })
      .def_property_readonly("graph", [](const GraphOp& op) { return op.graph; })
      .def_property_readonly("node_def", [](const GraphOp& op) { return node_def_text(*op.graph, op.node); })
      .def_property_readonly("_node_id", [](const GraphOp& op) { return op.node; })
      .def("_same_graph", [](const GraphOp& op, const std::shared_ptr<Graph>& g) { return op.graph == g; })
      .def("__eq__", [](const GraphOp& a, py::object b) {
        return py::isinstance<GraphOp>(b) && a.graph == b.cast<const GraphOp&>().graph &&
               a.node == b.cast<const GraphOp&>().node;
      })
      .def("__hash__", [](const GraphOp& op) {
        return std::hash<const void*>()(op.graph.get()) ^ std::hash<int>()(op.node);
      })
      .def("__str__", [](const GraphOp& op) { return node_def_text(*op.graph, op.node); })
      .def("__repr__", [](const GraphOp& op) {
        const Node& node = op.graph->node(op.node);
        return "<tf.Operation '" + node.name + "' type=" + node.op->name + ">";
      });

  py::class_<Plan, std::shared_ptr<Plan>>(m, "Plan")
      .def("run", [](const Plan& plan, const std::vector<const Tensor*>& feeds) {
        std::vector<Tensor> inputs;
        inputs.reserve(feeds.size());
        for (const Tensor* t : feeds) inputs.push_back(*t);
        std::vector<Tensor> results;
        Status s;
        InterruptGuard interruptible;
        {
          py::gil_scoped_release release;
          s = plan.run(inputs.data(), static_cast<int>(inputs.size()), &results);
        }
        interruptible.raise_if_interrupted(s);
        throw_if_error(s);
        py::list out(results.size());
        for (size_t i = 0; i < results.size(); ++i) out[i] = wrap_eager_tensor(std::move(results[i]));
        return out;
      })
      .def_property_readonly("num_steps", &Plan::num_steps)
      .def("step_names", &Plan::step_names)
      .def("step_ops", &Plan::step_ops);
}

}  // namespace graphfn
