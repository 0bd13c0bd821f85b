// SavedModel: a saved graph (serialize/saved_graph.h) loaded for running from C++, no Python:
// each signature is compiled into a plan once and called with named tensors.
//
//   std::shared_ptr<const SavedModel> model;
//   GRAPHFN_RETURN_IF_ERROR(SavedModel::load("/tmp/model", &model));
//   const SavedFunction* f = model->signature("serving_default");
//   std::map<std::string, Tensor> outputs;
//   GRAPHFN_RETURN_IF_ERROR(f->run({{"x", Tensor::scalar<float>(2.0f)}}, &outputs));
//   const Tensor& y = outputs.at("output_0");
//
// Inputs are checked against the signature (names, dtypes, shapes) before anything runs.
// Variables live as long as the model; functions that assign them change them for later calls.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graphfn/runtime/plan.h"
#include "graphfn/serialize/saved_graph.h"

namespace graphfn {

struct TensorInfo {
  std::string name;
  DType dtype = DType::kInvalid;
  Shape shape;  // may be partial
};

class SavedFunction {
 public:
  const std::string& key() const { return key_; }
  const std::vector<TensorInfo>& inputs() const { return inputs_; }  // in the graph's order
  const std::vector<TensorInfo>& outputs() const { return outputs_; }
  Status run(const std::map<std::string, Tensor>& inputs, std::map<std::string, Tensor>* outputs) const;

 private:
  friend class SavedModel;
  std::string key_;
  std::vector<TensorInfo> inputs_;
  std::vector<TensorInfo> outputs_;
  std::shared_ptr<const Plan> plan_;
};

class SavedModel {
 public:
  // `options` says what the graphs may do beyond computing (serialize/load_policy.h).
  static Status load(const std::string& export_dir, std::shared_ptr<const SavedModel>* out,
                     const LoadOptions& options = {});
  // From a SavedGraph already read (or built in memory).
  static Status from_saved_graph(SavedGraph saved, std::shared_ptr<const SavedModel>* out);

  std::vector<std::string> signature_keys() const;
  const SavedFunction* signature(const std::string& key) const;  // null if there is none
  const SavedGraph& saved_graph() const { return saved_; }

 private:
  SavedGraph saved_;
  std::map<std::string, SavedFunction> signatures_;
};

}  // namespace graphfn
