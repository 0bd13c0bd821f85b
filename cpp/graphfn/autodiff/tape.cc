#include "graphfn/autodiff/tape.h"

#include <algorithm>

#include "graphfn/kernels/eager.h"

namespace graphfn {
namespace {

std::vector<std::shared_ptr<RecordingTape>>& tape_stack() {
  thread_local std::vector<std::shared_ptr<RecordingTape>> stack;
  return stack;
}

// How many tapes of the stack record, eager ones and all, as trivially constructed thread_locals:
// the check every eager op (and every variable read) makes needs no TLS initialisation guard.
thread_local size_t t_num_active = 0;
thread_local size_t t_num_recording = 0;
void sync_count() {
  const auto& stack = tape_stack();
  t_num_recording = stack.size();
  t_num_active = static_cast<size_t>(std::count_if(stack.begin(), stack.end(), [](const auto& t) {
    return t->kind() == RecordingTape::Kind::kEager;
  }));
}

// Takes a tape off the stack while its own gradient is computed (TF pops it too): the backward
// ops are recorded by enclosing tapes only.
class PauseTape {
 public:
  explicit PauseTape(const Tape* tape) {
    auto& stack = tape_stack();
    for (size_t i = 0; i < stack.size(); ++i) {
      if (stack[i].get() == tape) {
        saved_ = stack[i];
        pos_ = i;
        stack.erase(stack.begin() + static_cast<long>(i));
        break;
      }
    }
    sync_count();
  }
  ~PauseTape() {
    if (!saved_) return;
    auto& stack = tape_stack();
    stack.insert(stack.begin() + static_cast<long>(std::min(pos_, stack.size())), std::move(saved_));
    sync_count();
  }

 private:
  std::shared_ptr<RecordingTape> saved_;
  size_t pos_ = 0;
};

// The eager tape behind a stack entry, or null for a GraphTape.
Tape* eager(const std::shared_ptr<RecordingTape>& tape) {
  return tape->kind() == RecordingTape::Kind::kEager ? static_cast<Tape*>(tape.get()) : nullptr;
}

}  // namespace

void push_tape(std::shared_ptr<RecordingTape> tape) {
  tape->start();
  tape_stack().push_back(std::move(tape));
  sync_count();
}

bool pop_tape(const RecordingTape* tape) {
  auto& stack = tape_stack();
  for (size_t i = stack.size(); i-- > 0;) {
    if (stack[i].get() == tape) {
      stack[i]->stop();
      stack.erase(stack.begin() + static_cast<long>(i));
      sync_count();
      return true;
    }
  }
  return false;
}

bool is_tape_recording(const RecordingTape* tape) {
  for (const auto& t : tape_stack()) {
    if (t.get() == tape) return true;
  }
  return false;
}

const std::vector<std::shared_ptr<RecordingTape>>& recording_tapes() { return tape_stack(); }

bool any_tape_recording() { return t_num_recording != 0; }

bool any_tape_active() { return t_num_active != 0; }

bool Tape::should_record(const Tensor* inputs, int num_inputs) const {
  for (int i = 0; i < num_inputs; ++i) {
    if (is_tracked(inputs[i].id_if_any()) && is_trainable_dtype(inputs[i].dtype())) return true;
  }
  return false;
}

void Tape::record(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                  const std::vector<Tensor>& outputs, std::shared_ptr<const void> context) {
  for (const Tensor& t : outputs) tensors_.insert(t.id());
  entries_.push_back(Entry{&op, attrs, std::vector<Tensor>(inputs, inputs + num_inputs), outputs, std::move(context)});
}

void Tape::reset() {
  tensors_.clear();
  entries_.clear();
}

Status Tape::gradient(const std::vector<Tensor>& targets, const std::vector<Tensor>& sources,
                      const std::vector<Tensor>& output_gradients, std::vector<Tensor>* result, bool keep) {
  // A non-persistent tape stops recording; a persistent one that is still active records its own
  // gradient ops, as TF's does (higher derivatives from one tape), so entries may be appended while
  // this loop runs: it walks the entries recorded before, by index.
  PauseTape pause(persistent_ ? nullptr : this);
  EagerGradBuilder b;
  std::unordered_set<uint64_t> source_ids;
  for (const Tensor& s : sources) source_ids.insert(s.id());
  // Gradients reaching each tensor, summed when the tensor's producer is reached.
  std::unordered_map<uint64_t, std::vector<GradValue>> pending;
  for (size_t i = 0; i < targets.size(); ++i) {
    const uint64_t id = targets[i].id_if_any();
    if (!is_tracked(id) && !source_ids.count(id)) continue;
    const bool given = i < output_gradients.size() && output_gradients[i].valid();
    GradValue seed = given ? GradValue(output_gradients[i]) : b.ones_like(GradValue(targets[i]));
    GRAPHFN_RETURN_IF_ERROR(b.status());
    pending[id].push_back(std::move(seed));
  }
  // Sums the gradients pending for `id`; a source keeps its sum for the result.
  auto take = [&](uint64_t id) -> GradValue {
    auto it = pending.find(id);
    if (it == pending.end()) return GradValue();
    GradValue sum = b.add_n(it->second);
    if (source_ids.count(id)) {
      it->second.assign(1, sum);
    } else {
      pending.erase(it);
    }
    return sum;
  };

  std::vector<GradValue> input_grads;
  for (size_t i = entries_.size(); i-- > 0 && !pending.empty();) {
    GradInputs in;
    bool any = false;
    in.output_grads.reserve(entries_[i].outputs.size());
    for (size_t k = 0; k < entries_[i].outputs.size(); ++k) {
      in.output_grads.push_back(take(entries_[i].outputs[k].id_if_any()));  // may record: re-index
      any = any || !in.output_grads.back().is_null();
    }
    GRAPHFN_RETURN_IF_ERROR(b.status());
    if (!any) continue;
    // Copies: the gradient's own ops may grow entries_ (a persistent tape in its context).
    const AttrMap attrs = entries_[i].attrs;
    const std::shared_ptr<const void> context = entries_[i].context;
    in.op = entries_[i].op;
    in.attrs = &attrs;
    in.context = context.get();
    in.inputs.assign(entries_[i].inputs.begin(), entries_[i].inputs.end());
    in.outputs.assign(entries_[i].outputs.begin(), entries_[i].outputs.end());
    GRAPHFN_RETURN_IF_ERROR(call_gradient(b, in, &input_grads));
    for (size_t j = 0; j < in.inputs.size(); ++j) {
      const uint64_t id = in.inputs[j].tensor.id_if_any();
      if (input_grads[j].is_null() || !is_tracked(id)) continue;  // TF: only to watched and recorded values
      pending[id].push_back(std::move(input_grads[j]));
    }
  }

  result->clear();
  for (const Tensor& s : sources) {
    GradValue g = take(s.id_if_any());
    GRAPHFN_RETURN_IF_ERROR(b.status());
    result->push_back(g.tensor);
  }
  if (!persistent_ && !keep) reset();
  return Status::OK();
}

Status EagerGradBuilder::run(const OpDef& op, const std::vector<GradValue>& inputs, const AttrMap& attrs,
                             std::vector<GradValue>* outputs) {
  std::vector<Tensor> tensors;
  tensors.reserve(inputs.size());
  for (const GradValue& v : inputs) tensors.push_back(v.tensor);
  std::vector<Tensor> results;
  GRAPHFN_RETURN_IF_ERROR(execute_and_record(op, tensors.data(), static_cast<int>(tensors.size()), attrs, &results));
  outputs->clear();
  for (Tensor& t : results) outputs->emplace_back(std::move(t));
  return Status::OK();
}

Status execute_and_record(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                          std::vector<Tensor>* outputs) {
  GRAPHFN_RETURN_IF_ERROR(execute_eager(op, inputs, num_inputs, attrs, outputs));
  if (t_num_active == 0 || op.not_differentiable) return Status::OK();
  record_on_tapes(op, inputs, num_inputs, attrs, outputs, nullptr);
  return Status::OK();
}

Status execute_and_record(const OpDef& op, const Tensor* const* inputs, int num_inputs, const AttrMap& attrs,
                          std::vector<Tensor>* outputs) {
  GRAPHFN_RETURN_IF_ERROR(execute_eager(op, inputs, num_inputs, attrs, outputs));
  if (t_num_active == 0 || op.not_differentiable) return Status::OK();
  std::vector<Tensor> recorded;
  recorded.reserve(num_inputs);
  for (int i = 0; i < num_inputs; ++i) recorded.push_back(*inputs[i]);
  record_on_tapes(op, recorded.data(), num_inputs, attrs, outputs, nullptr);
  return Status::OK();
}

bool tapes_would_record(const Tensor* inputs, int num_inputs, std::vector<bool>* tracked) {
  if (t_num_active == 0) return false;
  bool any = false;
  tracked->assign(num_inputs, false);
  for (const auto& entry : tape_stack()) {
    const Tape* tape = eager(entry);
    if (!tape || !tape->should_record(inputs, num_inputs)) continue;
    any = true;
    for (int i = 0; i < num_inputs; ++i) {
      if (is_trainable_dtype(inputs[i].dtype()) && tape->is_tracked(inputs[i].id_if_any())) (*tracked)[i] = true;
    }
  }
  return any;
}

void record_on_tapes(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs, const std::shared_ptr<const void>& context) {
  if (t_num_active == 0) return;
  bool ids_assigned = false;
  for (const auto& entry : tape_stack()) {
    Tape* tape = eager(entry);
    if (!tape || !tape->should_record(inputs, num_inputs)) continue;
    if (!ids_assigned) {
      for (Tensor& t : *outputs) t.assign_new_id();
      ids_assigned = true;
    }
    tape->record(op, inputs, num_inputs, attrs, *outputs, context);
  }
}

}  // namespace graphfn
