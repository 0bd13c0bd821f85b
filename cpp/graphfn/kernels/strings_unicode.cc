// Unicode kernels: UnicodeDecode / UnicodeDecodeWithOffsets (strings to code points, one row per
// string), UnicodeEncode (rows of code points to strings), UnicodeTranscode and UnicodeScript.
// Encodings read: UTF-8, UTF-16-BE, UTF-32-BE and ISO-8859-1 (latin1), in TF's spellings;
// written: TF's three (UTF-8, UTF-16-BE, UTF-32-BE).
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/strings_utf.h"

#ifdef GRAPHFN_HAVE_ICU
#include <unicode/uscript.h>
#endif

namespace graphfn {
namespace {

std::string text_attr(const AttrMap& attrs, const char* name, const char* fallback = "") {
  const std::string* s = attrs.get_string(name);
  return s ? *s : fallback;
}

// How ill-formed input and code points are handled (the errors / replacement_char /
// replace_control_characters attrs).
struct DecodeOptions {
  std::string input_encoding;
  bool latin1 = false;
  utf::Encoding encoding = utf::Encoding::kUtf8;
  std::string errors;
  int32_t replacement = 0xFFFD;
  bool replace_controls = false;
};

// Input encodings by the names ICU accepts for them (case-insensitive, '-' and '_' optional).
Status read_decode_options(const AttrMap& attrs, DecodeOptions* o) {
  o->input_encoding = text_attr(attrs, "input_encoding");
  std::string key;
  for (char ch : o->input_encoding) {
    if (ch != '-' && ch != '_') key.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  }
  if (key == "UTF8") {
    o->encoding = utf::Encoding::kUtf8;
  } else if (key == "UTF16BE") {
    o->encoding = utf::Encoding::kUtf16Be;
  } else if (key == "UTF32BE") {
    o->encoding = utf::Encoding::kUtf32Be;
  } else if (key == "LATIN1" || key == "ISO88591" || key == "L1") {
    o->latin1 = true;
  } else {
    return errors::InvalidArgument("Could not create converter for input encoding: ", o->input_encoding);
  }
  o->errors = text_attr(attrs, "errors", "replace");
  const int64_t replacement = attrs.get_int("replacement_char", 0xFFFD);
  if (!utf::is_code_point_in_range(replacement)) {
    return errors::InvalidArgument("replacement_char out of unicode codepoint range");
  }
  o->replacement = static_cast<int32_t>(replacement);
  o->replace_controls = attrs.get_bool("replace_control_characters", false);
  return Status::OK();
}

// Calls emit(code_point, byte_start) for each character of s; ill-formed parts follow `errors`.
template <typename Emit>
Status decode_string(const DecodeOptions& o, const std::string& s, Emit&& emit) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const size_t start = i;
    int32_t cp;
    if (o.latin1) {
      cp = bytes[i++];
    } else {
      cp = utf::next_char(o.encoding, bytes, n, &i);
    }
    if (cp < 0) {
      if (o.errors == "strict") return errors::InvalidArgument("Invalid formatting on input string");
      if (o.errors == "ignore") continue;
      cp = o.replacement;
    } else if (o.replace_controls && cp < 0x20) {  // C0 controls count as errors
      if (o.errors == "ignore") continue;
      cp = o.replacement;
    }
    emit(cp, static_cast<int64_t>(start));
  }
  return Status::OK();
}

template <typename Splits>
Status unicode_decode_kernel(KernelContext& c, bool with_offsets) {
  DecodeOptions o;
  GRAPHFN_RETURN_IF_ERROR(read_decode_options(c.attrs, &o));
  const Tensor& in = c.input(0);
  const std::string* s = in.data<std::string>();
  const int64_t n = in.num_elements();
  std::vector<int32_t> chars;
  std::vector<int64_t> starts;
  Tensor& splits_tensor = c.allocate_output(0);
  Splits* splits = splits_tensor.data<Splits>();
  splits[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    GRAPHFN_RETURN_IF_ERROR(decode_string(o, s[i], [&](int32_t cp, int64_t start) {
      chars.push_back(cp);
      if (with_offsets) starts.push_back(start);
    }));
    splits[i + 1] = static_cast<Splits>(chars.size());
  }
  const int64_t total = static_cast<int64_t>(chars.size());
  Tensor* values;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{total}, &values));
  std::copy(chars.begin(), chars.end(), values->data<int32_t>());
  if (with_offsets) {
    Tensor* offsets;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(2, Shape{total}, &offsets));
    std::copy(starts.begin(), starts.end(), offsets->data<int64_t>());
  }
  return Status::OK();
}

template <typename Splits>
Status decode_kernel(KernelContext& c) { return unicode_decode_kernel<Splits>(c, false); }
template <typename Splits>
Status decode_with_offsets_kernel(KernelContext& c) { return unicode_decode_kernel<Splits>(c, true); }

// Appends code point cp in encoding e, following `errors` for those that are not characters.
Status encode_char(utf::Encoding e, const std::string& errors, int32_t replacement, int64_t cp, std::string* out) {
  if (!utf::is_valid_code_point(cp)) {
    if (errors == "strict") {
      return errors::InvalidArgument("Code point is out of range for Unicode, or is a surrogate.");
    }
    if (errors == "ignore") return Status::OK();
    cp = replacement;
  }
  utf::append_char(e, static_cast<int32_t>(cp), out);
  return Status::OK();
}

template <typename Splits>
Status unicode_encode_kernel(KernelContext& c) {
  const Tensor& values = c.input(0);
  const Tensor& splits_t = c.input(1);
  const std::string errors = text_attr(c.attrs, "errors", "replace");
  const utf::Encoding e = utf::encoding_named(text_attr(c.attrs, "output_encoding"));
  const int64_t replacement = c.attrs.get_int("replacement_char", 0xFFFD);
  if (!utf::is_code_point_in_range(replacement)) {  // checked whatever `errors` is, as TF
    return errors::InvalidArgument("replacement_char out of unicode codepoint range");
  }
  const Splits* splits = splits_t.data<Splits>();
  const int64_t num_splits = splits_t.num_elements();
  const int64_t num_values = values.num_elements();
  // TF's order: some splits, the first zero, the last the number of values, then each in order.
  if (num_splits == 0) {
    // (TF's text counts the splits, so it always says 0.)
    return errors::InvalidArgument("Input_splits should contain elements, but given input_values has ", num_splits,
                                   " elements");
  }
  if (splits[0] != 0) return errors::InvalidArgument("First value in input_splits must be zero.");
  if (splits[num_splits - 1] != num_values) {
    return errors::InvalidArgument("Last value in input_splits must be equal to length of input_tensor.");
  }
  for (int64_t k = 1; k < num_splits; ++k) {
    if (splits[k] < splits[k - 1]) {
      return errors::InvalidArgument("Values in input_splits must be equal or in ascending order.");
    }
    if (splits[k] > num_values) {
      return errors::InvalidArgument("Values in input_splits must be less than or equal to input_tensor length.");
    }
  }
  Tensor& out_tensor = c.allocate_output(0);
  std::string* out = out_tensor.data<std::string>();
  const int32_t* cps = values.data<int32_t>();
  for (int64_t row = 0; row + 1 < num_splits; ++row) {
    std::string r;
    for (int64_t k = splits[row]; k < splits[row + 1]; ++k) {
      GRAPHFN_RETURN_IF_ERROR(encode_char(e, errors, static_cast<int32_t>(replacement), cps[k], &r));
    }
    out[row] = std::move(r);
  }
  return Status::OK();
}

Status unicode_transcode_kernel(KernelContext& c) {
  DecodeOptions o;
  GRAPHFN_RETURN_IF_ERROR(read_decode_options(c.attrs, &o));
  const utf::Encoding e = utf::encoding_named(text_attr(c.attrs, "output_encoding"));
  const Tensor& in = c.input(0);
  Tensor& out_tensor = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  std::string* out = out_tensor.data<std::string>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    std::string r;
    GRAPHFN_RETURN_IF_ERROR(decode_string(o, s[i], [&](int32_t cp, int64_t) { utf::append_char(e, cp, &r); }));
    out[i] = std::move(r);
  }
  return Status::OK();
}

Status unicode_script_kernel(KernelContext& c) {
#ifdef GRAPHFN_HAVE_ICU
  const Tensor& in = c.input(0);
  Tensor& out_tensor = c.allocate_output(0);
  const int32_t* cps = in.data<int32_t>();
  int32_t* out = out_tensor.data<int32_t>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    UErrorCode status = U_ZERO_ERROR;
    const UScriptCode code = uscript_getScript(cps[i], &status);
    out[i] = U_SUCCESS(status) ? static_cast<int32_t>(code) : -1;
  }
  return Status::OK();
#else
  return errors::Unimplemented("graphfn was built without ICU (apt-get install libicu-dev): UnicodeScript is unavailable");
#endif
}

}  // namespace

void register_strings_unicode_kernels(OpRegistry& reg) {
  reg.set_kernel("UnicodeDecode", DType::kInt32, &decode_kernel<int32_t>);
  reg.set_kernel("UnicodeDecode", DType::kInt64, &decode_kernel<int64_t>);
  reg.set_kernel("UnicodeDecodeWithOffsets", DType::kInt32, &decode_with_offsets_kernel<int32_t>);
  reg.set_kernel("UnicodeDecodeWithOffsets", DType::kInt64, &decode_with_offsets_kernel<int64_t>);
  reg.set_kernel("UnicodeEncode", DType::kInt32, &unicode_encode_kernel<int32_t>);
  reg.set_kernel("UnicodeEncode", DType::kInt64, &unicode_encode_kernel<int64_t>);
  reg.set_kernel("UnicodeTranscode", DType::kInvalid, &unicode_transcode_kernel);
  reg.set_kernel("UnicodeScript", DType::kInvalid, &unicode_script_kernel);
}

}  // namespace graphfn
