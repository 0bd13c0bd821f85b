// Special functions of TF's math_ops beyond math_cwise.def's: Erfinv and Ndtri (inverse error
// function, inverse of the standard normal CDF), Igamma and Igammac (regularized lower and upper
// incomplete gamma functions, broadcasting) and IgammaGradA (d Igamma / d a). Signatures and
// dtype lists are TF's; TF's CPU kernels are float and double only.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {

void register_special_math_ops(OpRegistry& reg) {
  for (const char* name : {"Erfinv", "Ndtri"}) {
    reg.op(name).input("x: T").output("y: T").attr("T: {bfloat16, half, float, double}")
        .shape_fn(shape_fns::unchanged, true);
  }
  for (const char* name : {"Igamma", "Igammac"}) {
    reg.op(name).input("a: T").input("x: T").output("z: T").attr("T: {bfloat16, half, float, double}")
        .shape_fn(shape_fns::broadcast_binary, true);
  }
  reg.op("IgammaGradA").input("a: T").input("x: T").output("z: T").attr("T: {float, double}")
      .shape_fn(shape_fns::broadcast_binary, true);
}

}  // namespace graphfn
