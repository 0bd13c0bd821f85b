// A small SavedGraph exercising every part of the format, built in C++ (no Python): a variable,
// placeholders of partial shape, constants of several dtypes (incl. strings), StatelessIf and
// StatelessWhile with their branch and body functions, and attrs of every kind (type, int, bool,
// string, shape, list(int), list(type), list(shape), tensor, func). Shared by the format tests
// and the fuzzer (tests/cpp/fuzz/), which mutates its encoding.
//
//   signature "serving_default" = f(x: float32[?], flag: bool[]):
//       y = flag ? x * v + 3 : x * v - 3;  returns (y, StringFormat("y={}", y), sum(y))
//   signature "count" = g(n: int32[]): i = 0; while i < n: i += 1; return i
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "graphfn/serialize/saved_graph.h"

namespace graphfn {
namespace testing {

struct SampleBuilder {
  Graph* g;
  Status status;

  int node(const std::string& op, const std::string& name, const std::vector<Endpoint>& inputs, AttrMap attrs = {}) {
    int id = 0;
    if (status.ok()) status = g->add_node(op, name, inputs, std::move(attrs), &id);
    return status.ok() ? id : 0;
  }
  int constant(const Tensor& value, const std::string& name) {
    int id = 0;
    if (status.ok()) status = g->add_const(value, name, &id);
    return id;
  }
  int argument(DType dt, const Shape& shape, const std::string& name) {
    int id = 0;
    if (status.ok()) status = g->add_placeholder(dt, shape, name, &id);
    if (status.ok()) g->arguments.push_back(id);
    return id;
  }
};

inline AttrMap sample_attrs(std::initializer_list<std::pair<const char*, AttrValue>> items) {
  AttrMap a;
  for (const auto& [name, value] : items) a.set(name, value);
  return a;
}

// A function of arguments of `args` dtypes and `shapes` whose results `build` returns.
template <typename Build>
std::shared_ptr<Graph> sample_function(const std::vector<DType>& args, const std::vector<Shape>& shapes, Build build) {
  auto g = std::make_shared<Graph>();
  SampleBuilder b{g.get(), Status::OK()};
  std::vector<int> ids;
  for (size_t i = 0; i < args.size(); ++i) ids.push_back(b.argument(args[i], shapes[i], "Placeholder"));
  g->results = build(b, ids);
  return b.status.ok() ? g : nullptr;
}

inline Status sample_saved_graph(SavedGraph* out) {
  SavedGraph saved;
  auto var = std::make_shared<VariableResource>(DType::kFloat32, Shape());
  GRAPHFN_RETURN_IF_ERROR(var->assign(Tensor::scalar<float>(2.0f)));
  saved.variables.push_back({"v:0", true, var});
  saved.object_graph = R"({"kind": "sample"})";

  auto f = std::make_shared<Graph>();
  SampleBuilder b{f.get(), Status::OK()};
  const int x = b.argument(DType::kFloat32, Shape{Shape::kUnknownDim}, "x");
  const int flag = b.argument(DType::kBool, Shape(), "flag");
  const int handle = b.constant(make_resource_tensor(var), "v");
  const int read = b.node("ReadVariableOp", "ReadVariableOp", {{handle, 0}}, sample_attrs({{"dtype", DType::kFloat32}}));
  const int mul = b.node("Mul", "mul", {{x, 0}, {read, 0}});
  const int three = b.constant(Tensor::scalar<float>(3.0f), "Const");
  const Shape vec{Shape::kUnknownDim};
  auto branch = [&](const char* op) {
    return sample_function({DType::kFloat32, DType::kFloat32}, {vec, Shape()}, [&](SampleBuilder& s, const std::vector<int>& a) {
      return std::vector<Endpoint>{{s.node(op, op, {{a[0], 0}, {a[1], 0}}), 0}};
    });
  };
  auto then_g = branch("AddV2"), else_g = branch("Sub");
  if (!then_g || !else_g) return errors::Internal("sample branches");
  const int cond = b.node("StatelessIf", "cond", {{flag, 0}, {mul, 0}, {three, 0}},
                          sample_attrs({{"Tin", std::vector<DType>{DType::kFloat32, DType::kFloat32}},
                                        {"Tout", std::vector<DType>{DType::kFloat32}},
                                        {"then_branch", FuncAttr{"cond_true_1", then_g}},
                                        {"else_branch", FuncAttr{"cond_false_2", else_g}},
                                        {"output_shapes", std::vector<Shape>{vec}}}));
  const int column = b.node("Reshape", "Reshape", {{cond, 0}, {b.constant(Tensor::vector<int32_t>({-1, 1}), "Reshape/shape"), 0}});
  const int y = b.node("Squeeze", "Squeeze", {{column, 0}}, sample_attrs({{"squeeze_dims", std::vector<int64_t>{1}}}));
  const int text = b.node("StringFormat", "StringFormat", {{y, 0}},
                          sample_attrs({{"template", std::string("y={}")}, {"placeholder", std::string("{}")},
                                        {"summarize", int64_t{3}}}));
  const int sum = b.node("Sum", "Sum", {{y, 0}, {b.constant(Tensor::vector<int32_t>({0}), "Sum/axis"), 0}},
                         sample_attrs({{"keep_dims", false}}));
  const int strings = b.constant(Tensor::vector<std::string>({"a", "", "bc"}), "names");
  (void)strings;
  f->results = {{y, 0}, {text, 0}, {sum, 0}};
  GRAPHFN_RETURN_IF_ERROR(b.status);
  saved.functions.push_back({"f", f, R"({"params": []})"});

  auto g = std::make_shared<Graph>();
  SampleBuilder c{g.get(), Status::OK()};
  const int n = c.argument(DType::kInt32, Shape(), "n");
  const int zero = c.constant(Tensor::scalar<int32_t>(0), "zero");
  const std::vector<DType> ints{DType::kInt32, DType::kInt32};
  auto loop_cond = sample_function(ints, {Shape(), Shape()}, [](SampleBuilder& s, const std::vector<int>& a) {
    return std::vector<Endpoint>{{s.node("Less", "Less", {{a[0], 0}, {a[1], 0}}), 0}};
  });
  auto loop_body = sample_function(ints, {Shape(), Shape()}, [](SampleBuilder& s, const std::vector<int>& a) {
    const int one = s.constant(Tensor::scalar<int32_t>(1), "one");
    return std::vector<Endpoint>{{s.node("AddV2", "add", {{a[0], 0}, {one, 0}}), 0}, {a[1], 0}};
  });
  if (!loop_cond || !loop_body) return errors::Internal("sample loop functions");
  const int loop = c.node("StatelessWhile", "while", {{zero, 0}, {n, 0}},
                          sample_attrs({{"T", ints}, {"cond", FuncAttr{"while_cond_3", loop_cond}},
                                        {"body", FuncAttr{"while_body_4", loop_body}},
                                        {"output_shapes", std::vector<Shape>{Shape(), Shape()}}}));
  g->results = {{loop, 0}};
  GRAPHFN_RETURN_IF_ERROR(c.status);
  saved.functions.push_back({"g", g, R"({"params": []})"});

  saved.signatures.push_back({"serving_default", 0, {"x", "flag"}, {"output_0", "output_1", "output_2"}});
  saved.signatures.push_back({"count", 1, {"n"}, {"output_0"}});
  *out = std::move(saved);
  return Status::OK();
}

}  // namespace testing
}  // namespace graphfn
