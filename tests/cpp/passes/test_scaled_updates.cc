#include "graph_builder.h"

#include <algorithm>

#include "graphfn/core/resource.h"
#include "graphfn/kernels/scaled_update.h"
#include "graphfn/passes/scaled_updates.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("scaled updates: assign_sub(c * g) folds into the update, same bits", "[passes][scaled_updates]") {
  TestGraph t;
  const std::vector<float> w0 = {1.0f, -2.5f, 3.25f, 0.1f}, g0 = {0.3f, 0.7f, -1.9f, 1e-3f};
  auto var = std::make_shared<VariableResource>(DType::kFloat32, Shape{4});
  auto kept_var = std::make_shared<VariableResource>(DType::kFloat32, Shape{4});
  REQUIRE(var->assign(vec<float>(w0)).ok());
  REQUIRE(kept_var->assign(vec<float>(w0)).ok());
  const AttrMap f32 = attrs_of({{"dtype", DType::kFloat32}});
  int g = t.placeholder(DType::kFloat32, Shape{4}, "g");
  int scale = t.constant(scalar<float>(0.01f), "scale");
  int product = t.op("Mul", {scale, g}, AttrMap(), "product");
  int update = t.op("AssignSubVariableOp", {t.constant(make_resource_tensor(var), "v"), product}, f32, "update");
  // A product also returned is still needed: that update keeps it.
  int shared = t.op("Mul", {g, scale}, AttrMap(), "shared");
  int kept = t.op("AssignAddVariableOp", {t.constant(make_resource_tensor(kept_var), "w"), shared}, f32, "kept");
  t.results({shared});

  CHECK(fold_scaled_updates(t.g));
  CHECK(t.node(update).inputs[1].node == g);
  REQUIRE(t.node(update).attrs.find(kUpdateScaleAttr) != nullptr);
  CHECK(t.node(kept).inputs[1].node == shared);
  CHECK(t.node(kept).attrs.find(kUpdateScaleAttr) == nullptr);
  CHECK_FALSE(fold_scaled_updates(t.g));  // already folded

  std::vector<Tensor> results;
  std::vector<std::string> steps;
  Status s = run_graph(t.g, {vec<float>(g0)}, &results, &steps);
  INFO(s.to_string());
  REQUIRE(s.ok());
  CHECK(std::find(steps.begin(), steps.end(), "product") == steps.end());  // pruned
  Tensor value, kept_value;
  REQUIRE(var->read(&value).ok());
  REQUIRE(kept_var->read(&kept_value).ok());
  for (int i = 0; i < 4; ++i) {
    // The product rounded to float first, then the difference: Mul then Sub.
    volatile float p = 0.01f * g0[i];
    volatile float q = g0[i] * 0.01f;
    CHECK(values<float>(value)[i] == w0[i] - p);
    CHECK(values<float>(kept_value)[i] == w0[i] + q);
  }
}

TEST_CASE("scaled updates: the kernel's fallback gives the unfused ops' errors", "[passes][scaled_updates]") {
  Tensor next;
  // Shapes that do not broadcast: Sub's error.
  Status s = scaled_update(vec<float>({1, 2, 3}), vec<float>({1, 2}), scalar<float>(2), false, &next);
  CHECK(s.code() == Code::kInvalidArgument);
  // Broadcasting a scalar delta runs Mul then Sub.
  REQUIRE(scaled_update(vec<float>({1, 2, 3}), scalar<float>(0.5f), scalar<float>(2), false, &next).ok());
  CHECK(values<float>(next) == std::vector<float>{0, 1, 2});
  // Integers are not fused either.
  REQUIRE(scaled_update(vec<int32_t>({5, 6}), vec<int32_t>({1, 2}), scalar<int32_t>(3), true, &next).ok());
  CHECK(values<int32_t>(next) == std::vector<int32_t>{8, 12});
}
