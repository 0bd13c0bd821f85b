// GraphTape: tf.GradientTape while a function is traced. Nothing runs, so nothing is recorded as
// it happens: the tape remembers which nodes of its graph were created while it was recording
// (intervals of node ids; stop_recording() makes a gap) and what was watched when, and
// gradient() derives the recorded nodes from that (recorded_nodes: the eager tape's rules) and
// appends the gradient nodes to the graph (add_gradients). Gradient nodes a recording tape sees
// being added are recorded like any other, so nested tapes give higher derivatives. It records
// while it is on the thread's stack of recording tapes (autodiff/tape.h: push_tape starts it).
#pragma once
#include <memory>
#include <vector>

#include "graphfn/ir/graph.h"
#include "graphfn/autodiff/recording_tape.h"
#include "graphfn/autodiff/symbolic_gradients.h"

namespace graphfn {

class GraphTape : public RecordingTape {
 public:
  explicit GraphTape(std::shared_ptr<Graph> graph, bool watch_accessed_variables = true)
      : RecordingTape(Kind::kGraph, watch_accessed_variables), graph_(std::move(graph)) {}

  const std::shared_ptr<Graph>& graph() const { return graph_; }
  void start() override;
  void stop() override;
  bool recording() const { return !intervals_.empty() && intervals_.back().second < 0; }

  // Gradients flow to `e` from nodes created from now on. A resource tensor (a variable's handle
  // captured by the graph) is watched through the Consts that hold it.
  void watch(Endpoint e);
  void watch_resource(const void* resource);

  // A value: an endpoint of the graph, or a captured resource (node -1).
  struct Value {
    Endpoint endpoint{-1, 0};
    const void* resource = nullptr;
  };
  // One gradient per source (node -1: None). `target_grads` is empty or one per target.
  Status gradient(const std::vector<Value>& targets, const std::vector<Value>& sources,
                  const std::vector<Endpoint>& target_grads, std::vector<Endpoint>* grads,
                  const std::vector<Endpoint>& stop = {});

  // tf.gradients: as a tape that recorded the whole graph with every source watched; gradients
  // do not pass through `stop` (stop_gradients).
  static Status graph_gradients(const std::shared_ptr<Graph>& graph, const std::vector<Value>& targets,
                                const std::vector<Value>& sources, const std::vector<Endpoint>& target_grads,
                                const std::vector<Endpoint>& stop, std::vector<Endpoint>* grads);

 private:
  Endpoint resolve(const Value& v) const;

  std::shared_ptr<Graph> graph_;
  std::vector<std::pair<int, int>> intervals_;  // [first, end) node ids; end -1 while recording
  std::vector<Watch> watched_;
  std::vector<std::pair<const void*, int>> watched_resources_;
};

}  // namespace graphfn
