// String ops the lookup tables hash keys with: StringToHashBucketFast (Fingerprint64 modulo
// num_buckets) and AsString (numbers and bools to strings, printf-style as TF formats them).
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

Status elementwise_to(InferenceContext& c, DType dt) {
  c.set_output(0, dt, c.input_shape(0));
  return Status::OK();
}

}  // namespace

void register_string_hash_ops(OpRegistry& reg) {
  reg.op("StringToHashBucketFast").input("input: string").output("output: int64").attr("num_buckets: int >= 1")
      .shape_fn([](InferenceContext& c) { return elementwise_to(c, DType::kInt64); }, true);
  reg.op("AsString").input("input: T").output("output: string")
      .attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, complex64, "
            "complex128, bool, variant, string}")
      .attr("precision: int = -1").attr("scientific: bool = false").attr("shortest: bool = false")
      .attr("width: int = -1").attr("fill: string = ''")
      .shape_fn([](InferenceContext& c) { return elementwise_to(c, DType::kString); }, true);
}

}  // namespace graphfn
