// Bitcast: the bytes of a tensor read as another dtype (TF's signature and dtype lists). A wider
// output dtype consumes the last dimension (which must hold the size ratio), a narrower one
// appends a dimension of the ratio. Keras 3 uses it (tf.bitcast) in its signbit and argmax.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

constexpr const char* kBitcastTypes =
    "{bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, int16, complex64, complex128}";

Status bitcast_shape(InferenceContext& c) {
  const DType in = c.input_dtype(0);
  const DType out = c.type_attr("type");
  const int64_t in_size = static_cast<int64_t>(dtype_size(in));
  const int64_t out_size = static_cast<int64_t>(dtype_size(out));
  Shape shape = c.input_shape(0);
  if (in_size > out_size) {
    if (shape.known_rank()) shape.add_dim(in_size / out_size);
  } else if (in_size < out_size && shape.known_rank()) {
    const int64_t ratio = out_size / in_size;
    // TF names the dtypes by their DataType numbers in these messages.
    if (shape.rank() == 0) {
      if (c.is_eager()) return errors::InvalidArgument("Cannot bitcast from ", static_cast<int>(in), " to ",
                                                       static_cast<int>(out));
      return errors::InvalidArgument("Shape must be at least rank 1 but is rank 0");
    }
    const int64_t last = shape.dim(shape.rank() - 1);
    if (last != Shape::kUnknownDim && last != ratio) {
      if (c.is_eager()) return errors::InvalidArgument("Cannot bitcast from ", static_cast<int>(in), " to ",
                                                       static_cast<int>(out));
      return errors::InvalidArgument("Cannot bitcast from ", static_cast<int>(in), " to ", static_cast<int>(out),
                                     " due to shape. ", last, " does not match ", ratio);
    }
    shape.remove_dim(shape.rank() - 1);
  }
  c.set_output(0, out, shape);
  return Status::OK();
}

}  // namespace

void register_bitcast_ops(OpRegistry& reg) {
  reg.op("Bitcast").input("input: T").output("output: type").attr(std::string("T: ") + kBitcastTypes)
      .attr(std::string("type: ") + kBitcastTypes).shape_fn(bitcast_shape, true);
}

}  // namespace graphfn
