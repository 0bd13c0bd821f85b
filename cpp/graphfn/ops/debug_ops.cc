// Debugging ops: CheckNumerics (tf.debugging.check_numerics), the input passed through after a
// check that it holds no NaN or infinity.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {

void register_debug_ops(OpRegistry& reg) {
  // Stateful as in TF: the check must run even when nothing reads its output.
  reg.op("CheckNumerics").input("tensor: T").output("output: T").attr("T: {bfloat16, half, float, double}")
      .attr("message: string").stateful().shape_fn(shape_fns::unchanged, true);
}

}  // namespace graphfn
