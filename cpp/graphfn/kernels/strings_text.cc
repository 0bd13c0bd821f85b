// Element-wise tf.strings kernels: StringLength, StringLower/StringUpper, StringStrip, Substr,
// StringToNumber, and the joins StringJoin and ReduceJoin.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/kernels/strings_utf.h"

#ifdef GRAPHFN_HAVE_ICU
#include <unicode/ustring.h>
#include <unicode/utf8.h>
#endif

namespace graphfn {
namespace {

std::string string_attr(const AttrMap& attrs, const char* name, const char* fallback = "") {
  const std::string* s = attrs.get_string(name);
  return s ? *s : fallback;
}

Status string_length_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const bool chars = string_attr(c.attrs, "unit", "BYTE") == "UTF8_CHAR";
  Tensor& out = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  int32_t* o = out.data<int32_t>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    o[i] = static_cast<int32_t>(chars ? utf::count_utf8_chars(s[i]) : static_cast<int64_t>(s[i].size()));
  }
  return Status::OK();
}

#ifdef GRAPHFN_HAVE_ICU
// Full Unicode case mapping (ß upper-cases to SS), ill-formed bytes read as U+FFFD, as TF's
// utf-8 lower/upper do through ICU.
Status unicode_case(const std::string& in, bool upper, std::string* out) {
  UErrorCode status = U_ZERO_ERROR;
  std::u16string wide(in.size() + 1, u'\0');
  int32_t wide_len = 0;
  u_strFromUTF8WithSub(reinterpret_cast<UChar*>(wide.data()), static_cast<int32_t>(wide.size()), &wide_len,
                       in.data(), static_cast<int32_t>(in.size()), 0xFFFD, nullptr, &status);
  if (U_FAILURE(status)) return errors::InvalidArgument("Invalid UTF-8 input");
  std::u16string mapped(static_cast<size_t>(wide_len) * 3 + 1, u'\0');
  status = U_ZERO_ERROR;
  const auto map = upper ? &u_strToUpper : &u_strToLower;
  const int32_t mapped_len = map(reinterpret_cast<UChar*>(mapped.data()), static_cast<int32_t>(mapped.size()),
                                 reinterpret_cast<const UChar*>(wide.data()), wide_len, "", &status);
  if (U_FAILURE(status)) return errors::Internal("case mapping failed: ", u_errorName(status));
  out->assign(static_cast<size_t>(mapped_len) * 3, '\0');
  int32_t out_len = 0;
  status = U_ZERO_ERROR;
  u_strToUTF8(out->data(), static_cast<int32_t>(out->size()), &out_len, reinterpret_cast<const UChar*>(mapped.data()),
              mapped_len, &status);
  if (U_FAILURE(status)) return errors::Internal("UTF-8 output failed: ", u_errorName(status));
  out->resize(static_cast<size_t>(out_len));
  return Status::OK();
}
#endif

template <bool kUpper>
Status string_case_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const std::string encoding = string_attr(c.attrs, "encoding");
  if (!encoding.empty() && encoding != "utf-8") {
    return errors::InvalidArgument("only utf-8 or '' (no encoding) is supported, received ", encoding);
  }
  Tensor& out_tensor = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  std::string* out = out_tensor.data<std::string>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    if (encoding.empty()) {  // ASCII letters only, byte by byte
      std::string r = s[i];
      for (char& ch : r) {
        if (kUpper && ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
        if (!kUpper && ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      }
      out[i] = std::move(r);
      continue;
    }
#ifdef GRAPHFN_HAVE_ICU
    GRAPHFN_RETURN_IF_ERROR(unicode_case(s[i], kUpper, &out[i]));
#else
    return errors::Unimplemented("encoding='utf-8' needs ICU: graphfn was built without libicu (apt-get install libicu-dev)");
#endif
  }
  return Status::OK();
}

bool is_ascii_space(char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r'); }

Status string_strip_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out_tensor = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  std::string* out = out_tensor.data<std::string>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    size_t b = 0, e = s[i].size();
    while (b < e && is_ascii_space(s[i][b])) ++b;
    while (e > b && is_ascii_space(s[i][e - 1])) --e;
    out[i] = s[i].substr(b, e - b);
  }
  return Status::OK();
}

// For each output element, the flat index into a broadcast operand of shape `from`.
std::vector<int64_t> broadcast_indices(const Shape& from, const Shape& to) {
  const int64_t n = to.num_elements();
  std::vector<int64_t> idx(static_cast<size_t>(n), 0);
  const int rank = to.rank();
  std::vector<int64_t> stride(rank, 0);
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const int fd = from.rank() - rank + d;
    if (fd >= 0) {
      stride[d] = from.dim(fd) == 1 ? 0 : s;
      s *= from.dim(fd);
    }
  }
  std::vector<int64_t> pos(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < n; ++i) {
    idx[static_cast<size_t>(i)] = offset;
    for (int d = rank - 1; d >= 0; --d) {
      offset += stride[d];
      if (++pos[d] < to.dim(d)) break;
      offset -= stride[d] * to.dim(d);
      pos[d] = 0;
    }
  }
  return idx;
}

// Byte offsets of the UTF-8 characters of s (each non-continuation byte starts one), plus s.size().
void char_starts(const std::string& s, std::vector<size_t>* starts) {
  starts->clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts->push_back(i);
  }
  starts->push_back(s.size());
}

template <typename T>
Status substr_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const Tensor& pos_t = c.input(1);
  const Tensor& len_t = c.input(2);
  if (pos_t.shape() != len_t.shape()) {
    return errors::InvalidArgument("pos and len should have the same shape, got: ", pos_t.shape().to_string(),
                                   " vs. ", len_t.shape().to_string());
  }
  const bool chars = string_attr(c.attrs, "unit", "BYTE") == "UTF8_CHAR";
  Tensor& out_tensor = c.allocate_output(0);
  const Shape& shape = out_tensor.shape();
  const std::vector<int64_t> in_idx = broadcast_indices(in.shape(), shape);
  const std::vector<int64_t> pos_idx = broadcast_indices(pos_t.shape(), shape);
  const std::string* s = in.data<std::string>();
  const T* pos_v = pos_t.data<T>();
  const T* len_v = len_t.data<T>();
  std::string* out = out_tensor.data<std::string>();
  std::vector<size_t> starts;
  for (int64_t i = 0, n = shape.num_elements(); i < n; ++i) {
    const std::string& str = s[in_idx[i]];
    int64_t pos = static_cast<int64_t>(pos_v[pos_idx[i]]);
    const int64_t len = static_cast<int64_t>(len_v[pos_idx[i]]);
    if (chars) char_starts(str, &starts);
    const int64_t size = chars ? static_cast<int64_t>(starts.size()) - 1 : static_cast<int64_t>(str.size());
    if (pos < -size || pos > size) {
      if (chars) return errors::InvalidArgument("pos ", pos, " out of range for string at index ", i);
      return errors::InvalidArgument("pos ", pos, " out of range for string b'", str, "' at index ", i);
    }
    if (pos < 0) pos += size;
    const int64_t end = (len < 0 || len > size - pos) ? size : pos + len;
    if (chars) {
      out[i] = str.substr(starts[pos], starts[end] - starts[pos]);
    } else {
      out[i] = str.substr(static_cast<size_t>(pos), static_cast<size_t>(end - pos));
    }
  }
  return Status::OK();
}

// TF's parsing: surrounding ASCII whitespace is allowed, the rest must be the number.
bool trimmed(const std::string& s, std::string* out) {
  size_t b = 0, e = s.size();
  while (b < e && is_ascii_space(s[b])) ++b;
  while (e > b && is_ascii_space(s[e - 1])) --e;
  out->assign(s, b, e - b);
  return !out->empty();
}

bool parse_integer(const std::string& text, bool is_signed, int64_t lo, uint64_t hi, uint64_t* magnitude, bool* negative) {
  size_t i = 0;
  *negative = false;
  if (text[i] == '+' || text[i] == '-') {
    *negative = text[i] == '-';
    if (*negative && !is_signed) return false;
    ++i;
  }
  if (i == text.size()) return false;
  uint64_t v = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (v > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
    v = v * 10 + digit;
  }
  const uint64_t limit = *negative ? static_cast<uint64_t>(-(lo + 1)) + 1 : hi;
  if (v > limit) return false;
  *magnitude = v;
  return true;
}

// Decimal and hexadecimal floats, inf/infinity/nan in any case (as TF reads them); no "nan(...)".
template <typename T>
bool parse_float(const std::string& text, T* out) {
  for (char ch : text) {
    if (ch == '(' || is_ascii_space(ch)) return false;
  }
  errno = 0;
  char* end = nullptr;
  const T v = std::is_same<T, float>::value ? static_cast<T>(std::strtof(text.c_str(), &end))
                                            : static_cast<T>(std::strtod(text.c_str(), &end));
  if (end != text.c_str() + text.size()) return false;
  *out = v;
  return true;
}

template <typename T>
Status string_to_number_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out_tensor = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  T* out = out_tensor.data<T>();
  std::string text;
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    bool ok = trimmed(s[i], &text);
    if (ok) {
      if constexpr (std::is_floating_point<T>::value) {
        ok = parse_float<T>(text, &out[i]);
      } else {
        uint64_t magnitude = 0;
        bool negative = false;
        ok = parse_integer(text, std::is_signed<T>::value, static_cast<int64_t>(std::numeric_limits<T>::min()),
                           static_cast<uint64_t>(std::numeric_limits<T>::max()), &magnitude, &negative);
        if (ok) out[i] = negative ? static_cast<T>(0 - magnitude) : static_cast<T>(magnitude);
      }
    }
    if (!ok) return errors::InvalidArgument("StringToNumberOp could not correctly convert string: ", s[i]);
  }
  return Status::OK();
}

Status string_join_kernel(KernelContext& c) {
  const std::string separator = string_attr(c.attrs, "separator");
  Tensor& out_tensor = c.allocate_output(0);
  std::string* out = out_tensor.data<std::string>();
  const int64_t n = out_tensor.num_elements();
  for (int k = 0; k < c.num_inputs; ++k) {
    const Tensor& in = c.input(k);
    if (in.rank() != 0 && in.shape() != out_tensor.shape()) {
      return errors::InvalidArgument("Input shapes do not match: ", out_tensor.shape().to_string(), " vs. ",
                                     in.shape().to_string());
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    std::string r;
    for (int k = 0; k < c.num_inputs; ++k) {
      const Tensor& in = c.input(k);
      if (k > 0) r += separator;
      r += in.data<std::string>()[in.rank() == 0 ? 0 : i];
    }
    out[i] = std::move(r);
  }
  return Status::OK();
}

// Joins along the listed axes; the first listed axis varies fastest within each joined group, as
// in TF (reduce_join(x, axis=[0, 1]) of [[a, b], [c, d]] is "acbd").
Status reduce_join_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  std::vector<int64_t> axes;
  GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(c.input(1), &axes));
  const std::string separator = string_attr(c.attrs, "separator");
  const int rank = in.rank();
  std::vector<bool> reduced(rank, false);
  for (int64_t& a : axes) {
    if (a < 0) a += rank;
    reduced[a] = true;
  }
  std::vector<int64_t> strides(rank, 1);
  for (int d = rank - 2; d >= 0; --d) strides[d] = strides[d + 1] * in.dim(d + 1);
  std::vector<int> kept;
  for (int d = 0; d < rank; ++d) {
    if (!reduced[d]) kept.push_back(d);
  }
  Tensor& out_tensor = c.allocate_output(0);
  std::string* out = out_tensor.data<std::string>();
  const std::string* s = in.data<std::string>();
  int64_t group = 1;
  for (int64_t a : axes) group *= in.dim(static_cast<int>(a));
  std::vector<int64_t> kept_pos(kept.size(), 0), red_pos(axes.size(), 0);
  for (int64_t o = 0, n = out_tensor.num_elements(); o < n; ++o) {
    int64_t base = 0;
    for (size_t k = 0; k < kept.size(); ++k) base += kept_pos[k] * strides[kept[k]];
    std::string r;
    std::fill(red_pos.begin(), red_pos.end(), 0);
    for (int64_t g = 0; g < group; ++g) {
      int64_t offset = base;
      for (size_t k = 0; k < axes.size(); ++k) offset += red_pos[k] * strides[axes[k]];
      if (g > 0) r += separator;
      r += s[offset];
      for (size_t k = 0; k < axes.size(); ++k) {  // the first listed axis is the fastest
        if (++red_pos[k] < in.dim(static_cast<int>(axes[k]))) break;
        red_pos[k] = 0;
      }
    }
    out[o] = std::move(r);
    for (int k = static_cast<int>(kept.size()) - 1; k >= 0; --k) {
      if (++kept_pos[k] < in.dim(kept[k])) break;
      kept_pos[k] = 0;
    }
  }
  return Status::OK();
}

}  // namespace

void register_strings_text_kernels(OpRegistry& reg) {
  reg.set_kernel("StringLength", DType::kInvalid, &string_length_kernel);
  reg.set_kernel("StringLower", DType::kInvalid, &string_case_kernel<false>);
  reg.set_kernel("StringUpper", DType::kInvalid, &string_case_kernel<true>);
  reg.set_kernel("StringStrip", DType::kInvalid, &string_strip_kernel);
  reg.set_kernel("Substr", DType::kInt32, &substr_kernel<int32_t>);
  reg.set_kernel("Substr", DType::kInt64, &substr_kernel<int64_t>);
  reg.set_kernel("StringToNumber", DType::kFloat32, &string_to_number_kernel<float>);
  reg.set_kernel("StringToNumber", DType::kFloat64, &string_to_number_kernel<double>);
  reg.set_kernel("StringToNumber", DType::kInt32, &string_to_number_kernel<int32_t>);
  reg.set_kernel("StringToNumber", DType::kInt64, &string_to_number_kernel<int64_t>);
  reg.set_kernel("StringJoin", DType::kInvalid, &string_join_kernel);
  reg.set_kernel("ReduceJoin", DType::kInvalid, &reduce_join_kernel);
}

}  // namespace graphfn
