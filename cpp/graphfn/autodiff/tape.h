// Gradient tapes (tf.GradientTape) in C++. A thread-local stack holds the active tapes; eager
// dispatch (execute_and_record) records every op that has a watched input of a trainable dtype
// into each such tape: the op, its attrs and its input and output tensors. Tensors are known by
// their Tensor::id. gradient() walks a tape backwards, sums the gradients reaching each tensor
// and calls each op's gradient function (autodiff/gradient.h) through an EagerGradBuilder, whose ops
// go through execute_and_record themselves, so enclosing tapes record the gradient computation
// (second derivatives). The thread's stack of recording tapes holds GraphTapes too
// (autodiff/graph_tape.h, while a function is traced): one stack of every tf.GradientTape recording.
#pragma once
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/tensor.h"
#include "graphfn/autodiff/gradient.h"
#include "graphfn/ir/op_def.h"
#include "graphfn/autodiff/recording_tape.h"

namespace graphfn {

class Tape : public RecordingTape {
 public:
  Tape(bool persistent, bool watch_accessed_variables)
      : RecordingTape(Kind::kEager, watch_accessed_variables), persistent_(persistent) {}

  bool persistent() const { return persistent_; }

  // Gradients will flow to `t` (a variable's handle stands for the variable).
  void watch(const Tensor& t) { tensors_.insert(t.id()); }
  bool is_tracked(uint64_t id) const { return id != 0 && tensors_.count(id) != 0; }
  // True when an input is tracked and of a trainable dtype (TF's ShouldRecord).
  bool should_record(const Tensor* inputs, int num_inputs) const;
  // Records an op whose outputs already have ids; they become tracked. `context` is kept with the
  // entry and given to the gradient function (GradInputs::context): a function call's gradient.
  void record(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
              const std::vector<Tensor>& outputs, std::shared_ptr<const void> context = nullptr);
  // Forgets the recorded ops and watched tensors (watched_variables() stay, as after TF's gradient()).
  void reset();
  int num_entries() const { return static_cast<int>(entries_.size()); }

  // d(sum of targets)/d(source) for each source; an invalid Tensor where no gradient flows.
  // `output_gradients` is empty or has one entry per target (invalid = ones). A non-persistent
  // tape forgets its records afterwards unless `keep` (jacobian() calls it once per element).
  Status gradient(const std::vector<Tensor>& targets, const std::vector<Tensor>& sources,
                  const std::vector<Tensor>& output_gradients, std::vector<Tensor>* result, bool keep = false);

 private:
  struct Entry {
    const OpDef* op;
    AttrMap attrs;
    std::vector<Tensor> inputs;
    std::vector<Tensor> outputs;
    std::shared_ptr<const void> context;
  };
  bool persistent_;
  std::unordered_set<uint64_t> tensors_;  // watched and recorded-output ids
  std::vector<Entry> entries_;            // in execution order (a topological order)
};

// The recording tapes of this thread (eager Tapes and GraphTapes), innermost last. Pushing a
// tape starts it (RecordingTape::start: a GraphTape notes where its recording begins), popping
// stops it.
void push_tape(std::shared_ptr<RecordingTape> tape);
// Removes `tape` from the stack (wherever it is); false if it was not recording.
bool pop_tape(const RecordingTape* tape);
bool is_tape_recording(const RecordingTape* tape);
const std::vector<std::shared_ptr<RecordingTape>>& recording_tapes();
// True when any tape, eager or graph, records (the check before watching a variable read).
bool any_tape_recording();

// Eager execution that also records into the active tapes: what Python op calls and
// EagerGradBuilder use. With no active tape the only extra cost is one thread-local check.
Status execute_and_record(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                          std::vector<Tensor>* outputs);
// The same on inputs given by pointer (the Python binding's path: no tensor copies unless a tape
// records).
Status execute_and_record(const OpDef& op, const Tensor* const* inputs, int num_inputs, const AttrMap& attrs,
                          std::vector<Tensor>* outputs);
// True when an eager tape records.
bool any_tape_active();

// True if an active tape would record an op on these inputs; *tracked then tells which inputs
// some recording tape tracks (the gradients that can be asked for).
bool tapes_would_record(const Tensor* inputs, int num_inputs, std::vector<bool>* tracked);
// Records an op already run (a function call, runtime/function.h) into every active tape that
// tracks one of its inputs; the outputs get fresh ids first.
void record_on_tapes(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs, const std::shared_ptr<const void>& context);

// Builds gradients by running ops eagerly (recorded by enclosing tapes).
class EagerGradBuilder : public GradBuilder {
 public:
  GradValue constant(const Tensor& value) override { return GradValue(value); }
  DType dtype(const GradValue& v) const override { return v.tensor.dtype(); }
  Shape static_shape(const GradValue& v) const override { return v.tensor.shape(); }
  const Tensor* constant_value(const GradValue& v) const override { return &v.tensor; }

 protected:
  Status run(const OpDef& op, const std::vector<GradValue>& inputs, const AttrMap& attrs,
             std::vector<GradValue>* outputs) override;
};

}  // namespace graphfn
