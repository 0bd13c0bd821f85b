#include "graphfn/serialize/tensor_codec.h"

#include <cstring>

namespace graphfn {
namespace {

bool host_is_little_endian() {
  const uint16_t probe = 1;
  uint8_t first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

Status check_little_endian() {
  return host_is_little_endian() ? Status::OK()
                                 : errors::Unimplemented("saved graphs are little-endian; this host is not");
}

}  // namespace

void write_dtype(ByteWriter& w, DType dt) { w.u8(static_cast<uint8_t>(dt)); }

Status read_dtype(ByteReader& r, DType* dt) {
  uint8_t code = 0;
  GRAPHFN_RETURN_IF_ERROR(r.u8(&code));
  const DType d = static_cast<DType>(code);
  if (code >= kNumDTypes || !(is_valid(d) || d == DType::kResource)) {
    return r.corrupt("unknown dtype code " + std::to_string(code));
  }
  *dt = d;
  return Status::OK();
}

void write_shape(ByteWriter& w, const Shape& shape) {
  w.u8(shape.known_rank() ? 1 : 0);
  if (!shape.known_rank()) return;
  w.varint(static_cast<uint64_t>(shape.rank()));
  for (int64_t d : shape.dims()) w.svarint(d);
}

Status read_shape(ByteReader& r, Shape* shape) {
  uint8_t known = 0;
  GRAPHFN_RETURN_IF_ERROR(r.u8(&known));
  if (known > 1) return r.corrupt("shape rank flag must be 0 or 1, got " + std::to_string(known));
  if (!known) {
    *shape = Shape::unknown_rank();
    return Status::OK();
  }
  int64_t rank = 0;
  GRAPHFN_RETURN_IF_ERROR(r.count(&rank, "dimensions", kMaxSavedRank));
  std::vector<int64_t> dims(rank);
  int64_t product = 1;
  for (int64_t& d : dims) {
    GRAPHFN_RETURN_IF_ERROR(r.svarint(&d));
    if (d < Shape::kUnknownDim || d > kMaxSavedDim) {
      return r.corrupt("dimension " + std::to_string(d) + " is out of range [-1, 2^40]");
    }
    if (d > 0 && product > kMaxSavedShapeProduct / d) return r.corrupt("shape has more than 2^62 elements");
    if (d > 0) product *= d;
  }
  *shape = Shape(dims);
  return Status::OK();
}

Status write_tensor(ByteWriter& w, const Tensor& t, const ResourceToIndex* resources) {
  GRAPHFN_RETURN_IF_ERROR(check_little_endian());
  write_dtype(w, t.dtype());
  write_shape(w, t.shape());
  const int64_t n = t.num_elements();
  if (t.dtype() == DType::kString) {
    for (int64_t i = 0; i < n; ++i) w.string(t.data<std::string>()[i]);
  } else if (t.dtype() == DType::kResource) {
    if (!resources) return errors::InvalidArgument("cannot save a resource tensor here");
    for (int64_t i = 0; i < n; ++i) {
      uint64_t index = 0;
      GRAPHFN_RETURN_IF_ERROR((*resources)(t.data<ResourceHandle>()[i], &index));
      w.varint(index);
    }
  } else {
    w.varint(t.bytes());
    w.bytes(t.raw_data(), t.bytes());
  }
  return Status::OK();
}

Status read_tensor(ByteReader& r, Tensor* t, const IndexToResource* resources) {
  GRAPHFN_RETURN_IF_ERROR(check_little_endian());
  DType dt = DType::kInvalid;
  Shape shape;
  GRAPHFN_RETURN_IF_ERROR(read_dtype(r, &dt));
  GRAPHFN_RETURN_IF_ERROR(read_shape(r, &shape));
  if (!shape.fully_defined()) return r.corrupt("a tensor's shape must be fully known, got " + shape.to_string());
  const int64_t n = shape.num_elements();  // < 2^62 (read_shape)
  // Every element takes at least one byte: check the claim before allocating anything.
  if (static_cast<uint64_t>(n) > r.remaining()) {
    return r.corrupt("tensor " + shape.to_string() + " claims more elements than the " +
                     std::to_string(r.remaining()) + " bytes left");
  }
  if (dt == DType::kResource && !resources) return r.corrupt("a resource tensor is not allowed here");
  Tensor out;
  GRAPHFN_RETURN_IF_ERROR(Tensor::make(dt, shape, &out));
  if (dt == DType::kString) {
    for (int64_t i = 0; i < n; ++i) GRAPHFN_RETURN_IF_ERROR(r.string(&out.data<std::string>()[i], "string element"));
  } else if (dt == DType::kResource) {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t index = 0;
      GRAPHFN_RETURN_IF_ERROR(r.varint(&index));
      GRAPHFN_RETURN_IF_ERROR((*resources)(index, &out.data<ResourceHandle>()[i]));
    }
  } else {
    uint64_t nbytes = 0;
    GRAPHFN_RETURN_IF_ERROR(r.varint(&nbytes));
    if (nbytes != out.bytes()) {
      return r.corrupt("tensor " + std::string(dtype_name(dt)) + shape.to_string() + " needs " +
                       std::to_string(out.bytes()) + " bytes of data, the file says " + std::to_string(nbytes));
    }
    GRAPHFN_RETURN_IF_ERROR(r.bytes(out.raw_data(), out.bytes(), "tensor data"));
    if (dt == DType::kBool) {
      const auto* bytes = static_cast<const uint8_t*>(out.raw_data());
      for (int64_t i = 0; i < n; ++i) {
        if (bytes[i] > 1) return r.corrupt("bool tensor element is neither 0 nor 1");
      }
    }
  }
  *t = std::move(out);
  return Status::OK();
}

}  // namespace graphfn
