// ParseExampleV2 (tf.io.parse_example / parse_single_example): the requested features of each
// serialized tf.train.Example as dense tensors (FixedLenFeature; FixedLenSequenceFeature when the
// dense shape starts with -1, padded to the longest) and sparse triples (VarLenFeature). Errors
// are TF 2.21's texts; a scalar `serialized` drops the "Name: ..." prefix, as TF does.
#include <map>
#include <string>
#include <vector>

#include "graphfn/kernels/example_wire.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/record_io.h"

namespace graphfn {
namespace {

const char* example_type_name(DType dt) { return dt == DType::kFloat32 ? "float" : dt == DType::kInt64 ? "int64" : "string"; }
const char* example_kind_name(FeatureView::Kind k) {
  return k == FeatureView::kFloat ? "float" : k == FeatureView::kInt64 ? "int64" : "string";
}
FeatureView::Kind example_kind_of(DType dt) {
  return dt == DType::kFloat32 ? FeatureView::kFloat : dt == DType::kInt64 ? FeatureView::kInt64 : FeatureView::kBytes;
}

// A dense shape as TF prints it in these messages: "[?,3,1]" (a variable-length first dim is ?).
std::string example_shape_text(const Shape& shape) {
  std::string out = "[";
  for (int i = 0; i < shape.rank(); ++i) {
    out += (i ? "," : "") + (shape.dim(i) < 0 ? std::string("?") : std::to_string(shape.dim(i)));
  }
  return out + "]";
}

// One feature's values of one example, in a form that can be copied into a tensor.
struct ExampleValues {
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string_view> bytes;
  size_t size(DType dt) const { return dt == DType::kFloat32 ? floats.size() : dt == DType::kInt64 ? ints.size() : bytes.size(); }
  void copy_to(DType dt, const Tensor& t, int64_t at) const {
    if (dt == DType::kFloat32) std::copy(floats.begin(), floats.end(), t.data<float>() + at);
    else if (dt == DType::kInt64) std::copy(ints.begin(), ints.end(), t.data<int64_t>() + at);
    else for (size_t i = 0; i < bytes.size(); ++i) t.data<std::string>()[at + i].assign(bytes[i]);
  }
};

void example_fill(const Tensor& t, int64_t at, int64_t n, const Tensor& value, int64_t value_at) {
  switch (t.dtype()) {
    case DType::kFloat32: for (int64_t i = 0; i < n; ++i) t.data<float>()[at + i] = value.data<float>()[value_at]; break;
    case DType::kInt64: for (int64_t i = 0; i < n; ++i) t.data<int64_t>()[at + i] = value.data<int64_t>()[value_at]; break;
    default: for (int64_t i = 0; i < n; ++i) t.data<std::string>()[at + i] = value.data<std::string>()[value_at]; break;
  }
}

void example_zero(const Tensor& t, int64_t at, int64_t n) {
  switch (t.dtype()) {
    case DType::kFloat32: std::fill_n(t.data<float>() + at, n, 0.0f); break;
    case DType::kInt64: std::fill_n(t.data<int64_t>() + at, n, int64_t{0}); break;
    default: for (int64_t i = 0; i < n; ++i) t.data<std::string>()[at + i].clear(); break;
  }
}

Status parse_example_kernel(KernelContext& c) {
  const Tensor& serialized = c.input(0);
  const Tensor& names = c.input(1);
  const Tensor& sparse_keys = c.input(2);
  const Tensor& dense_keys = c.input(3);
  const Tensor& ragged_keys = c.input(4);
  const bool single = serialized.shape().rank() == 0;
  if (serialized.shape().rank() > 1) {
    return errors::InvalidArgument("Expected serialized to be a scalar or vector, got shape: ",
                                   serialized.shape().to_string());
  }
  if (ragged_keys.num_elements() > 0) {
    return errors::Unimplemented("ParseExampleV2 with ragged_keys (tf.io.RaggedFeature): graphfn has no RaggedTensor yet");
  }
  const int64_t batch = serialized.num_elements();
  const int64_t num_sparse = c.attrs.get_int("num_sparse", 0);
  const std::vector<Shape>* dense_shapes = c.attrs.get_shape_list("dense_shapes");
  const int64_t num_dense = dense_shapes ? static_cast<int64_t>(dense_shapes->size()) : 0;
  if (sparse_keys.num_elements() != num_sparse) {
    return errors::InvalidArgument("Expected len(sparse_keys) == num_sparse: ", sparse_keys.num_elements(), " vs. ", num_sparse);
  }
  if (dense_keys.num_elements() != num_dense || c.num_inputs - 5 != num_dense) {
    return errors::InvalidArgument("Expected len(dense_keys) == len(dense_shapes) == len(dense_defaults): ",
                                   dense_keys.num_elements(), " vs. ", num_dense, " vs. ", c.num_inputs - 5);
  }
  if (names.num_elements() != 0 && names.num_elements() != batch) {
    return errors::InvalidArgument("Expected len(names) == 0 or len(names) == len(serialized): ", names.num_elements(),
                                   " vs. ", batch);
  }
  const std::string* ser = serialized.data<std::string>();
  auto example_name = [&](int64_t b) { return names.num_elements() ? names.data<std::string>()[b] : std::string("<unknown>"); };
  auto prefix = [&](int64_t b, const std::string& key) {
    return single ? "Key: " + utf8_or_escaped(key) + ".  " : "Name: " + utf8_or_escaped(example_name(b)) + ", Key: " + utf8_or_escaped(key) + ", Index: " + std::to_string(b) + ".  ";
  };

  // Parse every example once; look features up by key (the last entry of a key wins).
  std::vector<std::vector<std::pair<std::string_view, FeatureView>>> parsed(batch);
  for (int64_t b = 0; b < batch; ++b) {
    if (!parse_example_features(ser[b], &parsed[b])) {
      return errors::InvalidArgument("Could not parse example input, value: '", utf8_or_escaped(ser[b]), "'");
    }
  }
  auto find = [&](int64_t b, const std::string& key) -> const FeatureView* {
    const auto& fs = parsed[b];
    for (size_t i = fs.size(); i-- > 0;) {
      if (fs[i].first == key) return fs[i].second.kind == FeatureView::kNone ? nullptr : &fs[i].second;
    }
    return nullptr;
  };
  auto values_of = [&](const FeatureView& f, DType dt, int64_t b, const std::string& key, ExampleValues* v) -> Status {
    if (f.kind != example_kind_of(dt)) {
      return errors::InvalidArgument(prefix(b, key), "Data types don't match. Data type: ", example_kind_name(f.kind),
                                     " but expected type: ", example_type_name(dt));
    }
    const bool ok = dt == DType::kFloat32 ? feature_floats(f, &v->floats)
                    : dt == DType::kInt64 ? feature_int64s(f, &v->ints)
                                          : feature_bytes(f, &v->bytes);
    if (!ok) return errors::InvalidArgument("Could not parse example input, value: '", utf8_or_escaped(ser[b]), "'");
    return Status::OK();
  };

  const int out_rank = single ? 1 : 2;
  // Sparse features: indices [n, rank+1], values [n], dense shape [rank+1].
  const std::string* skeys = sparse_keys.data<std::string>();
  for (int64_t s = 0; s < num_sparse; ++s) {
    const DType dt = c.output_dtypes[num_sparse + s];
    std::vector<ExampleValues> per(batch);
    int64_t total = 0, longest = 0;
    for (int64_t b = 0; b < batch; ++b) {
      const FeatureView* f = find(b, skeys[s]);
      if (!f) continue;
      GRAPHFN_RETURN_IF_ERROR(values_of(*f, dt, b, skeys[s], &per[b]));
      const int64_t n = static_cast<int64_t>(per[b].size(dt));
      total += n;
      longest = std::max(longest, n);
    }
    Tensor *indices, *values, *shape;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(static_cast<int>(s), Shape{total, out_rank}, &indices));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(static_cast<int>(num_sparse + s), Shape{total}, &values));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(static_cast<int>(2 * num_sparse + s), Shape{out_rank}, &shape));
    int64_t at = 0;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t n = static_cast<int64_t>(per[b].size(dt));
      per[b].copy_to(dt, *values, at);
      for (int64_t j = 0; j < n; ++j, ++at) {
        int64_t* row = indices->data<int64_t>() + at * out_rank;
        if (!single) *row++ = b;
        *row = j;
      }
    }
    int64_t* sh = shape->data<int64_t>();
    if (!single) *sh++ = batch;
    *sh = longest;
  }

  // Dense features.
  const std::string* dkeys = dense_keys.data<std::string>();
  const int first_dense = static_cast<int>(3 * num_sparse);
  for (int64_t d = 0; d < num_dense; ++d) {
    const Shape& fshape = (*dense_shapes)[d];
    const Tensor& def = c.input(static_cast<int>(5 + d));
    const DType dt = def.dtype();
    const std::string& key = dkeys[d];
    const bool variable = fshape.rank() > 0 && fshape.dim(0) < 0;
    int64_t stride = 1;  // values per row (variable) or per example (fixed)
    for (int i = variable ? 1 : 0; i < fshape.rank(); ++i) {
      if (fshape.dim(i) < 0) {
        return errors::InvalidArgument("dense_shapes[", d, "] has unknown rank or unknown inner dimensions: ",
                                       example_shape_text(fshape));
      }
      stride *= fshape.dim(i);
    }
    if (!variable && def.num_elements() != 0 && def.num_elements() != stride) {
      return errors::InvalidArgument("dense_defaults[", d, "] must have ", stride, " values (shape ", fshape.to_string(),
                                     "), got shape: ", def.shape().to_string());
    }
    if (variable && def.num_elements() > 1) {
      return errors::InvalidArgument("dense_defaults[", d, "] of a variable-length feature must be a scalar, got shape: ",
                                     def.shape().to_string());
    }
    std::vector<ExampleValues> per(batch);
    std::vector<bool> present(batch, false);
    int64_t rows = 0;  // the longest example, for a variable-length feature
    for (int64_t b = 0; b < batch; ++b) {
      const FeatureView* f = find(b, key);
      if (!f) {
        if (!variable && def.num_elements() == 0) {
          return errors::InvalidArgument(single ? "" : "Name: " + utf8_or_escaped(example_name(b)) + ", ", "Feature: ", utf8_or_escaped(key),
                                         " (data type: ", example_type_name(dt), ") is required but could not be found.");
        }
        continue;
      }
      GRAPHFN_RETURN_IF_ERROR(values_of(*f, dt, b, key, &per[b]));
      present[b] = true;
      const int64_t n = static_cast<int64_t>(per[b].size(dt));
      // TF words these in two ways: parse_single_example (a scalar) and parse_example (a batch).
      const char* values_kind = dt == DType::kString ? "bytes" : example_type_name(dt);
      if (variable) {
        if (stride == 0 ? n != 0 : n % stride != 0) {
          if (!single) {
            return errors::InvalidArgument(prefix(b, key), "Number of ", values_kind,
                                           " values is not a multiple of stride length. Saw ", n,
                                           " values but output shape is: ", example_shape_text(fshape));
          }
          return errors::InvalidArgument("Error while parsing feature with key ", utf8_or_escaped(key),
                                         ": number of elements should be divisible by ", stride, ", found ", n, " instead");
        }
        rows = std::max(rows, stride == 0 ? 0 : n / stride);
      } else if (n != stride) {
        if (!single && dt == DType::kString) return errors::InvalidArgument(prefix(b, key), "Can't parse serialized Example.");
        if (!single) {
          return errors::InvalidArgument(prefix(b, key), "Number of ", values_kind, " values != expected.  Values size: ", n,
                                         " but output shape: ", example_shape_text(fshape));
        }
        if (dt == DType::kString) {
          return errors::InvalidArgument(prefix(b, key), "Can't parse serialized Example: Parsing bytes_list failed.");
        }
        return errors::InvalidArgument(prefix(b, key), "Can't parse serialized Example: Some ", values_kind,
                                       "_list slice was not parsed.");
      }
    }
    Shape out_shape = serialized.shape();
    if (variable) out_shape.add_dim(rows);
    for (int i = variable ? 1 : 0; i < fshape.rank(); ++i) out_shape.add_dim(fshape.dim(i));
    Tensor* out;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(first_dense + static_cast<int>(d), out_shape, &out));
    const int64_t per_example = variable ? rows * stride : stride;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t at = b * per_example;
      int64_t filled = 0;
      if (present[b]) {
        per[b].copy_to(dt, *out, at);
        filled = static_cast<int64_t>(per[b].size(dt));
      }
      if (filled == per_example) continue;
      if (variable) {  // padding: the default value, or zero / ""
        if (def.num_elements() == 1) example_fill(*out, at + filled, per_example - filled, def, 0);
        else example_zero(*out, at + filled, per_example - filled);
      } else {
        for (int64_t i = 0; i < per_example; ++i) example_fill(*out, at + i, 1, def, i);
      }
    }
  }
  return Status::OK();
}

}  // namespace

void register_example_kernels(OpRegistry& reg) {
  reg.set_kernel("ParseExampleV2", DType::kInvalid, &parse_example_kernel);
  // As TF 2.21's gradient registry: DecodeRaw / DecodePaddedRaw are declared NotDifferentiable;
  // ReadFile, WriteFile, DecodeCSV and ParseExampleV2 have no entry (a gradient through a float
  // default of DecodeCSV / ParseExampleV2 is TF's LookupError).
  for (const char* op : {"DecodeRaw", "DecodePaddedRaw"}) reg.set_not_differentiable(op);
}

}  // namespace graphfn
