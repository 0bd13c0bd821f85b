// The tf.strings ops TF declares not differentiable (their gradients are None). The other string
// ops have no entry in TF's gradient registry, so asking for their gradient is TF's LookupError.
#include "graphfn/ir/op_registry.h"

namespace graphfn {

void register_strings_gradients(OpRegistry& reg) {
  for (const char* op : {"StringToNumber", "StringToHashBucket", "StringToHashBucketStrong", "StringJoin",
                         "ReduceJoin", "RegexReplace", "StringSplit"}) {
    reg.set_not_differentiable(op);
  }
}

}  // namespace graphfn
