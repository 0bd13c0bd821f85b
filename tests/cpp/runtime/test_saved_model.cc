// SavedModel (runtime/saved_model.h): loading a saved graph and running its signatures from C++.
#include <filesystem>

#include "harness.h"
#include "serialize/sample_saved_graph.h"

#include "graphfn/runtime/saved_model.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

std::shared_ptr<const SavedModel> load_sample(bool through_file) {
  SavedGraph saved;
  REQUIRE(sample_saved_graph(&saved).ok());
  std::shared_ptr<const SavedModel> model;
  if (through_file) {
    const std::string dir = (std::filesystem::temp_directory_path() / "graphfn_test_saved_model").string();
    REQUIRE(write_saved_graph(dir, saved).ok());
    const Status s = SavedModel::load(dir, &model);
    INFO(s.to_string());
    REQUIRE(s.ok());
    std::filesystem::remove_all(dir);
  } else {
    REQUIRE(SavedModel::from_saved_graph(std::move(saved), &model).ok());
  }
  return model;
}

std::map<std::string, Tensor> run_ok(const SavedFunction& f, const std::map<std::string, Tensor>& inputs) {
  std::map<std::string, Tensor> out;
  const Status s = f.run(inputs, &out);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return out;
}

}  // namespace

TEST_CASE("saved model: signatures compute the same before and after saving") {
  for (bool through_file : {false, true}) {
    auto model = load_sample(through_file);
    CHECK(model->signature_keys() == std::vector<std::string>{"count", "serving_default"});
    const SavedFunction& f = *model->signature("serving_default");
    REQUIRE(f.inputs().size() == 2);
    CHECK(f.inputs()[0].name == "x");
    CHECK(f.inputs()[0].shape == Shape{Shape::kUnknownDim});
    CHECK(f.outputs()[1].dtype == DType::kString);
    // v = 2: flag ? x * 2 + 3 : x * 2 - 3.
    auto out = run_ok(f, {{"x", vec<float>({1, 2, 3})}, {"flag", scalar<bool>(true)}});
    CHECK(values<float>(out.at("output_0")) == std::vector<float>{5, 7, 9});
    CHECK(values<std::string>(out.at("output_1")) == std::vector<std::string>{"y=[5 7 9]"});
    CHECK(values<float>(out.at("output_2")) == std::vector<float>{21});
    out = run_ok(f, {{"x", vec<float>({1, 2, 3})}, {"flag", scalar<bool>(false)}});
    CHECK(values<float>(out.at("output_0")) == std::vector<float>{-1, 1, 3});
    out = run_ok(*model->signature("count"), {{"n", scalar<int32_t>(7)}});
    CHECK(values<int32_t>(out.at("output_0")) == std::vector<int32_t>{7});
  }
}

TEST_CASE("saved model: the variable keeps its saved value and is shared") {
  auto model = load_sample(true);
  const SavedGraph& saved = model->saved_graph();
  Tensor value;
  REQUIRE(saved.variables[0].resource->read(&value).ok());
  CHECK(values<float>(value) == std::vector<float>{2});
  REQUIRE(saved.variables[0].resource->assign(scalar<float>(10.0f)).ok());
  auto out = run_ok(*model->signature("serving_default"), {{"x", vec<float>({1})}, {"flag", scalar<bool>(true)}});
  CHECK(values<float>(out.at("output_0")) == std::vector<float>{13});
}

TEST_CASE("saved model: inputs are checked against the signature") {
  auto model = load_sample(false);
  const SavedFunction& f = *model->signature("serving_default");
  std::map<std::string, Tensor> out;
  auto error = [&](const std::map<std::string, Tensor>& inputs) { return f.run(inputs, &out).message(); };
  CHECK(error({{"x", vec<float>({1})}}) == "signature 'serving_default' needs input 'flag'");
  CHECK(error({{"x", vec<float>({1})}, {"flag", scalar<bool>(true)}, {"z", scalar<bool>(true)}}) ==
        "signature 'serving_default' has no input named 'z'; its inputs are: x, flag");
  CHECK(error({{"x", vec<int32_t>({1})}, {"flag", scalar<bool>(true)}}) ==
        "input 'x' of signature 'serving_default' must be float32[?], got int32[1]");
  CHECK(error({{"x", scalar<float>(1)}, {"flag", scalar<bool>(true)}}) ==
        "input 'x' of signature 'serving_default' must be float32[?], got float32[]");
  CHECK(model->signature("nope") == nullptr);
}
