#include "graphfn/runtime/saved_model.h"

#include "graphfn/passes/pass_manager.h"
#include "graphfn/runtime/builtin_ops.h"

namespace graphfn {
namespace {

std::string names_of(const std::vector<TensorInfo>& infos) {
  std::string out;
  for (const TensorInfo& info : infos) out += (out.empty() ? "" : ", ") + info.name;
  return out.empty() ? "(none)" : out;
}

Status compile(const SavedGraph& saved, const SavedGraph::Signature& sig, std::vector<TensorInfo>* inputs,
               std::vector<TensorInfo>* outputs, std::shared_ptr<const Plan>* plan) {
  const Graph& g = *saved.functions[sig.function].graph;
  for (size_t i = 0; i < g.arguments.size(); ++i) {
    const Node& arg = g.node(g.arguments[i]);
    inputs->push_back(TensorInfo{sig.input_names[i], arg.output_dtypes[0], arg.output_shapes[0]});
  }
  for (size_t i = 0; i < g.results.size(); ++i) {
    outputs->push_back(TensorInfo{sig.output_names[i], g.dtype(g.results[i]), g.shape(g.results[i])});
  }
  // The same optimizations a traced function's plan gets (the graph was verified on load).
  std::unique_ptr<Graph> optimized;
  GRAPHFN_RETURN_IF_ERROR(optimized_copy(g, OptimizerOptions{true, true, false}, &optimized));
  return Plan::build(*optimized, plan, "__inference_signature_wrapper_" + sig.key);
}

}  // namespace

Status SavedFunction::run(const std::map<std::string, Tensor>& inputs, std::map<std::string, Tensor>* outputs) const {
  for (const auto& [name, value] : inputs) {
    bool known = false;
    for (const TensorInfo& info : inputs_) known = known || info.name == name;
    if (!known) {
      return errors::InvalidArgument("signature '", key_, "' has no input named '", name, "'; its inputs are: ",
                                     names_of(inputs_));
    }
  }
  std::vector<Tensor> feeds;
  for (const TensorInfo& info : inputs_) {
    auto it = inputs.find(info.name);
    if (it == inputs.end()) return errors::InvalidArgument("signature '", key_, "' needs input '", info.name, "'");
    const Tensor& t = it->second;
    if (t.dtype() != info.dtype || !covers(info.shape, t.shape())) {
      return errors::InvalidArgument("input '", info.name, "' of signature '", key_, "' must be ",
                                     dtype_name(info.dtype), info.shape, ", got ", dtype_name(t.dtype()), t.shape());
    }
    feeds.push_back(t);
  }
  std::vector<Tensor> results;
  GRAPHFN_RETURN_IF_ERROR(plan_->run(feeds.data(), static_cast<int>(feeds.size()), &results));
  outputs->clear();
  for (size_t i = 0; i < results.size(); ++i) (*outputs)[outputs_[i].name] = std::move(results[i]);
  return Status::OK();
}

Status SavedModel::load(const std::string& export_dir, std::shared_ptr<const SavedModel>* out,
                        const LoadOptions& options) {
  install_builtin_ops();  // a C++ program's first graphfn call (graphfn-run's) may be this one
  SavedGraph saved;
  GRAPHFN_RETURN_IF_ERROR(read_saved_graph(export_dir, &saved, options));
  return from_saved_graph(std::move(saved), out);
}

Status SavedModel::from_saved_graph(SavedGraph saved, std::shared_ptr<const SavedModel>* out) {
  auto model = std::make_shared<SavedModel>();
  for (const SavedGraph::Signature& sig : saved.signatures) {
    SavedFunction f;
    f.key_ = sig.key;
    GRAPHFN_RETURN_IF_ERROR(
        with_context(compile(saved, sig, &f.inputs_, &f.outputs_, &f.plan_), "signature '" + sig.key + "'"));
    model->signatures_.emplace(sig.key, std::move(f));
  }
  model->saved_ = std::move(saved);
  *out = std::move(model);
  return Status::OK();
}

std::vector<std::string> SavedModel::signature_keys() const {
  std::vector<std::string> keys;
  for (const auto& item : signatures_) keys.push_back(item.first);
  return keys;
}

const SavedFunction* SavedModel::signature(const std::string& key) const {
  auto it = signatures_.find(key);
  return it == signatures_.end() ? nullptr : &it->second;
}

}  // namespace graphfn
