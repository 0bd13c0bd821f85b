// StringToHashBucketFast: Fingerprint64(s) % num_buckets per string (TF's bucket numbers).
// AsString: each element through a printf format built as TF builds it from the attrs:
// "%" + fill + width + "." precision + d / lld / f / e / g; bools print true/false, strings pass.
#include <Eigen/Core>  // float16/bfloat16 elements
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "graphfn/kernels/fingerprint.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

Status hash_bucket_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const uint64_t buckets = static_cast<uint64_t>(c.attrs.get_int("num_buckets", 1));
  if (buckets < 1) return errors::InvalidArgument("num_buckets must be at least 1");
  Tensor& out = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  int64_t* o = out.data<int64_t>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    o[i] = static_cast<int64_t>(fingerprint64(s[i].data(), s[i].size()) % buckets);
  }
  return Status::OK();
}

// float16/bfloat16 format as floats, complex numbers as "(real,imag)" with the float format.
bool is_float(DType dt) {
  return dt == DType::kFloat32 || dt == DType::kFloat64 || dt == DType::kHalf || dt == DType::kBFloat16 ||
         is_complex(dt);
}

// glibc's snprintf returns 0 and prints nothing for a result longer than INT_MAX characters,
// which precisions near INT_MAX give; TF prints it. A double's decimal digits end within this many places, so
// such a result is the one at this precision with the remaining zeros put back.
constexpr int64_t kExactDigits = 1100;

// How to print one element: `format`, or when that overflows, `capped` plus `missing_zeros`.
struct PrintFormat {
  std::string format, capped;
  int64_t missing_zeros = 0;
};

// The printf format for the input's dtype, with TF's checks of the attrs.
Status format_for(const AttrMap& attrs, DType dt, PrintFormat* print) {
  const int64_t precision = attrs.get_int("precision", -1);
  const bool scientific = attrs.get_bool("scientific", false);
  const bool shortest = attrs.get_bool("shortest", false);
  const int64_t width = attrs.get_int("width", -1);
  const std::string* fill_attr = attrs.get_string("fill");
  const std::string fill = fill_attr ? *fill_attr : "";
  const char* name = dtype_tf_string(dt);
  // TF reads both attrs as int32 (a larger value would also overflow printf's field width).
  for (const auto& [attr, value] : {std::pair<const char*, int64_t>{"precision", precision}, {"width", width}}) {
    if (value < INT32_MIN || value > INT32_MAX) {
      return errors::InvalidArgument("Attr ", attr, " has value ", value, " out of range for an int32");
    }
  }
  if (fill.size() > 1) return errors::InvalidArgument("Fill string must be one or fewer characters");
  if (scientific && shortest) return errors::InvalidArgument("Cannot select both scientific and shortest notation");
  if (!is_float(dt)) {
    if (scientific || shortest) {
      return errors::InvalidArgument("scientific and shortest format not supported for datatype ", name);
    }
    if (precision > -1) return errors::InvalidArgument("precision not supported for datatype ", name);
  }
  std::string* format = &print->format;
  *format = "%";
  if (!fill.empty()) {
    switch (fill[0]) {
      case ' ': case '+': case '-': case '0': case '#':
        *format += fill;
        break;
      default:
        return errors::InvalidArgument("Fill argument not supported: \"", fill, "\"");
    }
  }
  print->capped = *format;  // no width: the full result is longer than any int32 width
  if (width > -1) *format += std::to_string(width);
  if (precision > -1) {
    *format += "." + std::to_string(precision);
    print->capped += "." + std::to_string(std::min(precision, kExactDigits));
  }
  std::string conversion = "d";
  if (is_float(dt)) {
    conversion = shortest ? "g" : scientific ? "e" : "f";
    // %g drops trailing zeros (unless the '#' flag keeps them).
    if (precision > kExactDigits && (!shortest || fill == "#") && !is_complex(dt)) {
      print->missing_zeros = precision - kExactDigits;
    }
  } else if (dt == DType::kInt64) {
    conversion = PRId64;
  } else if (dt == DType::kUInt64) {
    conversion = PRIu64;
  } else if (dt == DType::kUInt32) {
    conversion = "u";
  }
  *format += conversion;
  print->capped += conversion;
  if (is_complex(dt)) *format = "(" + *format + "," + *format + ")";
  return Status::OK();
}

// Complex elements: both parts through the "(%f,%f)" format.
template <typename T>
void format_complex(const Tensor& in, const std::string& format, std::string* out) {
  const T* data = in.data<T>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    const double re = data[i].real(), im = data[i].imag();
    const int len = std::snprintf(nullptr, 0, format.c_str(), re, im);
    std::string text(static_cast<size_t>(len > 0 ? len : 0) + 1, '\0');
    std::snprintf(text.data(), text.size(), format.c_str(), re, im);
    text.pop_back();
    out[i] = std::move(text);
  }
}

template <typename Wide>
std::string print_big(const std::string& format, Wide value, int len) {
  std::string big(static_cast<size_t>(len > 0 ? len : 0) + 1, '\0');
  std::snprintf(big.data(), big.size(), format.c_str(), value);
  big.pop_back();
  return big;
}

template <typename T, typename Wide>
void format_all(const Tensor& in, const PrintFormat& print, std::string* out) {
  const T* data = in.data<T>();
  const char* format = print.format.c_str();
  char buffer[128];
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    const Wide value = static_cast<Wide>(data[i]);
    const int len = std::snprintf(buffer, sizeof(buffer), format, value);
    if (len > 0 && static_cast<size_t>(len) < sizeof(buffer)) {
      out[i].assign(buffer, static_cast<size_t>(len));
    } else if (len > 0) {  // a wide width or precision: format again into a buffer of the right size
      out[i] = print_big(print.format, value, len);
    } else if (print.missing_zeros > 0) {  // longer than INT_MAX (see kExactDigits)
      std::string capped = print_big(print.capped, value, std::snprintf(nullptr, 0, print.capped.c_str(), value));
      const size_t exponent = capped.find_first_of("eE");  // nan and inf have neither, nor digits
      if (std::isfinite(static_cast<double>(value))) {
        capped.insert(exponent == std::string::npos ? capped.size() : exponent, static_cast<size_t>(print.missing_zeros), '0');
      }
      out[i] = std::move(capped);
    }
  }
}

Status as_string_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const DType dt = in.dtype();
  if (dt == DType::kString) {
    c.set_output(0, in);
    return Status::OK();
  }
  PrintFormat format;
  if (dt != DType::kBool) GRAPHFN_RETURN_IF_ERROR(format_for(c.attrs, dt, &format));
  Tensor& out_tensor = c.allocate_output(0);
  std::string* out = out_tensor.data<std::string>();
  switch (dt) {
    case DType::kBool: {
      const bool* b = in.data<bool>();
      for (int64_t i = 0, n = in.num_elements(); i < n; ++i) out[i] = b[i] ? "true" : "false";
      break;
    }
    case DType::kFloat32: format_all<float, double>(in, format, out); break;
    case DType::kFloat64: format_all<double, double>(in, format, out); break;
    case DType::kInt8: format_all<int8_t, int>(in, format, out); break;
    case DType::kInt16: format_all<int16_t, int>(in, format, out); break;
    case DType::kInt32: format_all<int32_t, int>(in, format, out); break;
    case DType::kUInt8: format_all<uint8_t, int>(in, format, out); break;
    case DType::kInt64: format_all<int64_t, int64_t>(in, format, out); break;
    case DType::kHalf: format_all<Eigen::half, double>(in, format, out); break;
    case DType::kBFloat16: format_all<Eigen::bfloat16, double>(in, format, out); break;
    case DType::kUInt16: format_all<uint16_t, int>(in, format, out); break;
    case DType::kUInt32: format_all<uint32_t, unsigned>(in, format, out); break;
    case DType::kUInt64: format_all<uint64_t, uint64_t>(in, format, out); break;
    case DType::kComplex64: format_complex<std::complex<float>>(in, format.format, out); break;
    case DType::kComplex128: format_complex<std::complex<double>>(in, format.format, out); break;
    default: return errors::Unimplemented("AsString has no kernel for ", dtype_tf_string(dt));
  }
  return Status::OK();
}

}  // namespace

void register_string_hash_kernels(OpRegistry& reg) {
  reg.set_kernel("StringToHashBucketFast", DType::kInvalid, &hash_bucket_kernel);
  for (DType dt : {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kUInt8, DType::kInt16, DType::kInt8,
                   DType::kInt64, DType::kBool, DType::kString, DType::kHalf, DType::kBFloat16, DType::kUInt16,
                   DType::kUInt32, DType::kUInt64, DType::kComplex64, DType::kComplex128}) {
    reg.set_kernel("AsString", dt, &as_string_kernel);
  }
}

}  // namespace graphfn
