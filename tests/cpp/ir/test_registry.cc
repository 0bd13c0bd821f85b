#include "harness.h"

#include "graphfn/ir/op_registry.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("registry holds op definitions with TF's signatures", "[ir][registry]") {
  const OpDef* add = OpRegistry::global().find("AddV2");
  REQUIRE(add != nullptr);
  REQUIRE(add->inputs.size() == 2);
  CHECK(add->inputs[0].type_attr == "T");
  CHECK(add->commutative);
  CHECK_FALSE(add->stateful);
  CHECK(add->kernels[static_cast<int>(DType::kFloat32)] != nullptr);
  CHECK(add->kernels[static_cast<int>(DType::kBool)] == nullptr);
  CHECK(OpRegistry::global().find("NoSuchOp") == nullptr);
}

TEST_CASE("every registered op has a shape function and at least one kernel", "[ir][registry]") {
  for (const std::string& name : OpRegistry::global().op_names()) {
    const OpDef* op = OpRegistry::global().find(name);
    INFO(name);
    CHECK(op->shape_fn != nullptr);
    if (op->control_flow != OpDef::ControlFlow::kNone) continue;  // the plan runs their subgraphs
    bool any_kernel = false;
    for (KernelFn k : op->kernels) any_kernel = any_kernel || k != nullptr;
    CHECK(any_kernel);
  }
}

TEST_CASE("mixed dtypes are rejected with TF's message", "[ir][dtype-rules]") {
  Status s = run_error("AddV2", {scalar<int32_t>(1), scalar<float>(1.f)});
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() ==
        "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a "
        "float tensor [Op:AddV2] name: ");
}

TEST_CASE("a dtype outside the op's allowed list is rejected", "[ir][dtype-rules]") {
  Status s = run_error("Sqrt", {scalar<int32_t>(4)});
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message().rfind("Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double", 0) == 0);
}

TEST_CASE("wrong input counts are errors, not crashes", "[ir][registry]") {
  Status s = run_error("AddV2", {scalar<int32_t>(1)});
  CHECK(s.code() == Code::kInvalidArgument);
}

TEST_CASE("attr specs parse defaults and allowed types", "[ir][registry]") {
  const OpDef* cast = OpRegistry::global().find("Cast");
  REQUIRE(cast != nullptr);
  const AttrDef* truncate = cast->find_attr("Truncate");
  REQUIRE(truncate != nullptr);
  CHECK(truncate->has_default);
  CHECK(std::get<bool>(truncate->default_value) == false);
  const OpDef* sqrt = OpRegistry::global().find("Sqrt");
  CHECK(sqrt->find_attr("T")->allowed == std::vector<DType>{DType::kBFloat16, DType::kHalf, DType::kFloat32,
                                                            DType::kFloat64, DType::kComplex64, DType::kComplex128});
}
