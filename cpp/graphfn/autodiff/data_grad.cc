// The dataset-loop ops (ops/data_ops.cc) have no gradient, as TF declares its iterator ops.
#include "graphfn/autodiff/gradient.h"
#include "graphfn/ir/op_registry.h"

namespace graphfn {

void register_data_gradients(OpRegistry& reg) {
  for (const char* op : {"GraphfnDatasetIterator", "GraphfnIteratorHasNext", "GraphfnIteratorGetNext"}) {
    reg.set_not_differentiable(op);
  }
}

}  // namespace graphfn
