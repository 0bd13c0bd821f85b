// The bitwise ops beyond and/or/xor/invert (ops/math_ops.cc, math_cwise.def): LeftShift and
// RightShift (tf.bitwise.left_shift/right_shift, broadcasting) and PopulationCount (the number
// of set bits of each element, as uint8). Signatures and dtype lists are TF's.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

constexpr const char* kBitwiseTypes = "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}";

Status population_count_shape(InferenceContext& c) {
  c.set_output(0, DType::kUInt8, c.input_shape(0));
  return Status::OK();
}

}  // namespace

void register_bitwise_shift_ops(OpRegistry& reg) {
  for (const char* name : {"LeftShift", "RightShift"}) {
    reg.op(name).input("x: T").input("y: T").output("z: T").attr(kBitwiseTypes)
        .shape_fn(shape_fns::broadcast_binary, true);
  }
  reg.op("PopulationCount").input("x: T").output("y: uint8").attr(kBitwiseTypes)
      .shape_fn(population_count_shape, true);
}

}  // namespace graphfn
