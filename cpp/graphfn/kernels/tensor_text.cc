#include "graphfn/kernels/tensor_text.h"

#include <cstdio>
#include <cstdlib>

namespace graphfn {
namespace {

std::string float_text(double v, bool is_double) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.*g", is_double ? 15 : 6, v);
  const bool exact = is_double ? std::strtod(buf, nullptr) == v
                               : std::strtof(buf, nullptr) == static_cast<float>(v);
  if (!exact && v == v) std::snprintf(buf, sizeof(buf), "%.*g", is_double ? 17 : 9, v);
  return buf;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string element_text(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::kFloat32: return float_text(t.data<float>()[i], false);
    case DType::kFloat64: return float_text(t.data<double>()[i], true);
    case DType::kBool: return t.data<bool>()[i] ? "1" : "0";
    case DType::kString: return quoted(t.data<std::string>()[i]);
    case DType::kInt8: return std::to_string(t.data<int8_t>()[i]);
    case DType::kInt16: return std::to_string(t.data<int16_t>()[i]);
    case DType::kInt32: return std::to_string(t.data<int32_t>()[i]);
    case DType::kInt64: return std::to_string(t.data<int64_t>()[i]);
    case DType::kUInt8: return std::to_string(t.data<uint8_t>()[i]);
    default: return "<resource>";
  }
}

// Dimension `dim` of the block starting at element `offset`.
void append_dim(const Tensor& t, int dim, int64_t offset, const std::vector<int64_t>& strides, int64_t summarize,
                std::string* out) {
  const int rank = t.rank();
  const int64_t n = t.dim(dim);
  const bool elide = summarize >= 0 && summarize < n && n > 2 * summarize;  // summarize < n: no overflow
  const std::string sep = dim == rank - 1 ? std::string(" ")
                                          : std::string(rank - 1 - dim, '\n') + std::string(dim + 1, ' ');
  *out += '[';
  if (elide && summarize == 0) {  // nothing shown but the ellipsis: "[ ...]", as TF
    *out += sep + "...]";
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (elide && i == summarize) {
      *out += "..." + sep;
      i = n - summarize;
    }
    if (dim == rank - 1) {
      *out += element_text(t, offset + i);
    } else {
      append_dim(t, dim + 1, offset + i * strides[dim], strides, summarize, out);
    }
    if (i + 1 < n) *out += sep;
  }
  *out += ']';
}

}  // namespace

std::string tensor_text(const Tensor& t, int64_t summarize) {
  if (t.rank() == 0) return element_text(t, 0);
  std::string out;
  append_dim(t, 0, 0, row_major_strides(t.shape()), summarize, &out);
  return out;
}

}  // namespace graphfn
