// File and record ops (tf.io): ReadFile / WriteFile (stateful: they touch the file system, so
// they are never folded, merged or pruned, and a loaded model's use of them is a policy
// question, serialize/load_policy.cc), DecodeRaw / DecodePaddedRaw, DecodeCSV and ParseExampleV2
// (tf.io.parse_example / parse_single_example). Signatures are TF 2.21's; list(type) attrs take
// any type here and the shape functions check TF's allowed lists with TF's message.
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

Status io_scalar_input(InferenceContext& c, int i, const char* what) {
  const Shape& s = c.input_shape(i);
  if (s.known_rank() && s.rank() != 0) {
    return errors::InvalidArgument(what, " tensor must be scalar, but had shape: ", s.to_string());
  }
  return Status::OK();
}

Status io_allowed(const std::vector<DType>& types, const char* attr, const std::vector<DType>& allowed,
                  const char* allowed_text) {
  for (DType dt : types) {
    bool ok = false;
    for (DType a : allowed) ok = ok || a == dt;
    if (!ok) {
      return errors::InvalidArgument("Value for attr '", attr, "' of ", dtype_tf_string(dt),
                                     " is not in the list of allowed values: ", allowed_text);
    }
  }
  return Status::OK();
}

Status io_allowed_types(InferenceContext& c, const char* attr, const std::vector<DType>& allowed,
                        const char* allowed_text) {
  const std::vector<DType>* types = c.attrs().get_type_list(attr);
  return types ? io_allowed(*types, attr, allowed, allowed_text) : Status::OK();
}

// The dtypes of inputs [first, end): a list(type) attr inferred from its inputs is not in attrs.
std::vector<DType> io_input_types(InferenceContext& c, int first) {
  std::vector<DType> types;
  for (int i = first; i < c.num_inputs(); ++i) types.push_back(c.input_dtype(i));
  return types;
}

Status read_file_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(io_scalar_input(c, 0, "Input filename"));
  c.set_output(0, DType::kString, Shape());
  return Status::OK();
}

Status write_file_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(io_scalar_input(c, 0, "Input filename"));
  return io_scalar_input(c, 1, "Contents");
}

// The input's shape plus one dimension: the values of each string (known only from the data).
Status decode_raw_shape(InferenceContext& c) {
  Shape s = c.input_shape(0);
  if (s.known_rank()) s.add_dim(Shape::kUnknownDim);
  c.set_output(0, c.type_attr("out_type"), s);
  return Status::OK();
}

Status decode_padded_raw_shape(InferenceContext& c) {
  Shape s = c.input_shape(0);
  const Tensor* length = c.input_value(1);
  const DType dt = c.type_attr("out_type");
  int64_t dim = Shape::kUnknownDim;
  if (length) {
    if (length->num_elements() != 1) {
      return errors::InvalidArgument("fixed_length must be a scalar, but had shape: ", length->shape().to_string());
    }
    const int64_t n = length->data<int32_t>()[0];
    const int64_t width = static_cast<int64_t>(dtype_size(dt));
    if (n < 0 || n % width != 0) {
      return errors::InvalidArgument("fixed_length (", n, ") must be a multiple of the size of out_type (", width, ")");
    }
    dim = n / width;
  }
  if (s.known_rank()) s.add_dim(dim);
  c.set_output(0, dt, s);
  return Status::OK();
}

Status decode_csv_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(io_allowed(io_input_types(c, 1), "OUT_TYPE",
                                     {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64, DType::kString},
                                     "float, double, int32, int64, string"));
  const std::string* delim = c.attrs().get_string("field_delim");
  if (delim && delim->size() != 1) return errors::InvalidArgument("field_delim should be only 1 char");
  for (int i = 1; i < c.num_inputs(); ++i) {
    const Shape& d = c.input_shape(i);
    if (d.known_rank() && d.rank() > 1) return errors::InvalidArgument("Each record default should be at most rank 1");
    if (d.known_rank() && d.rank() == 1 && d.dim(0) > 1) {
      return errors::InvalidArgument("Shape of a default must be a length-0 or length-1 vector, or a scalar.");
    }
  }
  for (int i = 1; i < c.num_inputs(); ++i) c.set_output(i - 1, c.input_dtype(i), c.input_shape(0));
  return Status::OK();
}

// ParseExampleV2's outputs: sparse (indices [?, rank+1], values [?], dense shape [rank+1]) and
// dense (the batch shape + dense_shapes[i], a -1 first dim for FixedLenSequenceFeature).
Status parse_example_shape(InferenceContext& c) {
  const std::vector<DType> allowed = {DType::kFloat32, DType::kInt64, DType::kString};
  const char* allowed_text = "float, int64, string";
  const std::vector<DType> dense_input_types = io_input_types(c, 5);
  GRAPHFN_RETURN_IF_ERROR(io_allowed(dense_input_types, "Tdense", allowed, allowed_text));
  GRAPHFN_RETURN_IF_ERROR(io_allowed_types(c, "sparse_types", allowed, allowed_text));
  GRAPHFN_RETURN_IF_ERROR(io_allowed_types(c, "ragged_value_types", allowed, allowed_text));
  GRAPHFN_RETURN_IF_ERROR(io_allowed_types(c, "ragged_split_types", {DType::kInt32, DType::kInt64}, "int32, int64"));
  const Shape& serialized = c.input_shape(0);
  if (serialized.known_rank() && serialized.rank() > 1) {
    return errors::InvalidArgument("Expected serialized to be a scalar or vector, got shape: ", serialized.to_string());
  }
  const int64_t num_sparse = c.attrs().get_int("num_sparse", 0);
  const std::vector<DType> none;
  const std::vector<DType>* sparse_types = c.attrs().get_type_list("sparse_types");
  const std::vector<DType>* dense_types = &dense_input_types;
  const std::vector<Shape>* dense_shapes = c.attrs().get_shape_list("dense_shapes");
  const std::vector<DType>* ragged_values = c.attrs().get_type_list("ragged_value_types");
  const std::vector<DType>* ragged_splits = c.attrs().get_type_list("ragged_split_types");
  if (!sparse_types) sparse_types = &none;
  if (!ragged_values) ragged_values = &none;
  if (!ragged_splits) ragged_splits = &none;
  const size_t num_dense = dense_types->size();
  if (static_cast<int64_t>(sparse_types->size()) != num_sparse) {
    return errors::InvalidArgument("len(sparse_types) != num_sparse: ", sparse_types->size(), " vs. ", num_sparse);
  }
  if (!dense_shapes || dense_shapes->size() != num_dense) {
    return errors::InvalidArgument("len(dense_shapes) != len(dense_types): ", dense_shapes ? dense_shapes->size() : 0,
                                   " vs. ", num_dense);
  }
  if (ragged_values->size() != ragged_splits->size()) {
    return errors::InvalidArgument("len(ragged_split_types) != len(ragged_value_types): ", ragged_splits->size(),
                                   " vs. ", ragged_values->size());
  }
  const bool known = serialized.known_rank();
  const int batch_rank = known ? serialized.rank() : 1;
  int out = 0;
  for (int64_t i = 0; i < num_sparse; ++i) c.set_output(out++, DType::kInt64, Shape{Shape::kUnknownDim, batch_rank + 1});
  for (int64_t i = 0; i < num_sparse; ++i) c.set_output(out++, (*sparse_types)[i], Shape{Shape::kUnknownDim});
  for (int64_t i = 0; i < num_sparse; ++i) c.set_output(out++, DType::kInt64, Shape{batch_rank + 1});
  for (size_t i = 0; i < num_dense; ++i) {
    Shape s = known ? serialized : Shape::unknown_rank();
    if (known) {
      for (int64_t d : (*dense_shapes)[i].dims()) s.add_dim(d < 0 ? Shape::kUnknownDim : d);
    }
    c.set_output(out++, (*dense_types)[i], s);
  }
  for (DType dt : *ragged_values) c.set_output(out++, dt, Shape{Shape::kUnknownDim});
  for (DType dt : *ragged_splits) c.set_output(out++, dt, Shape{Shape::kUnknownDim});
  return Status::OK();
}

}  // namespace

void register_io_ops(OpRegistry& reg) {
  reg.op("ReadFile").input("filename: string").output("contents: string").stateful().shape_fn(read_file_shape, true);
  reg.op("WriteFile").input("filename: string").input("contents: string").stateful()
      .shape_fn(write_file_shape, true);
  reg.op("DecodeRaw").input("bytes: string").output("output: out_type")
      .attr("out_type: {half, float, double, int32, uint16, uint8, int16, int8, int64, complex64, complex128, bool, "
            "bfloat16}")
      .attr("little_endian: bool = true").shape_fn(decode_raw_shape, true);
  reg.op("DecodePaddedRaw").input("input_bytes: string").input("fixed_length: int32").output("output: out_type")
      .attr("out_type: {half, float, double, int32, uint16, uint8, int16, int8, int64, bfloat16}")
      .attr("little_endian: bool = true").needs_value("fixed_length").shape_fn(decode_padded_raw_shape, true);
  reg.op("DecodeCSV").input("records: string").input("record_defaults: OUT_TYPE").output("output: OUT_TYPE")
      .attr("OUT_TYPE: list(type) >= 1").attr("field_delim: string = ','").attr("use_quote_delim: bool = true")
      .attr("na_value: string = ''").attr("select_cols: list(int) = []").shape_fn(decode_csv_shape, true);
  reg.op("ParseExampleV2").input("serialized: string").input("names: string").input("sparse_keys: string")
      .input("dense_keys: string").input("ragged_keys: string").input("dense_defaults: Tdense")
      .output("sparse_indices: num_sparse * int64").output("sparse_values: sparse_types")
      .output("sparse_shapes: num_sparse * int64").output("dense_values: Tdense")
      .output("ragged_values: ragged_value_types").output("ragged_row_splits: ragged_split_types")
      .attr("Tdense: list(type) >= 0").attr("num_sparse: int >= 0").attr("sparse_types: list(type) >= 0")
      .attr("ragged_value_types: list(type) >= 0").attr("ragged_split_types: list(type) >= 0")
      .attr("dense_shapes: list(shape) >= 0").shape_fn(parse_example_shape, true);
}

}  // namespace graphfn
