// The dataset-loop ops (ops/data_ops.cc) have no gradient, as TF declares its iterator ops; nor,
// in graphfn, the Optional ops (TF passes gradients through OptionalFromValue/GetValue).
#include "graphfn/autodiff/gradient.h"
#include "graphfn/ir/op_registry.h"

namespace graphfn {

void register_data_gradients(OpRegistry& reg) {
  for (const char* op : {"GraphfnDatasetIterator", "GraphfnIteratorHasNext", "GraphfnIteratorGetNext",
                         "GraphfnIteratorGetNextAsOptional", "OptionalFromValue", "OptionalNone", "OptionalHasValue",
                         "OptionalGetValue"}) {
    reg.set_not_differentiable(op);
  }
}

}  // namespace graphfn
