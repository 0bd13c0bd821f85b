#include "graphfn/serialize/npy.h"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "graphfn/serialize/file_reader.h"

namespace graphfn {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicBytes = 6;
constexpr size_t kMaxHeaderBytes = size_t(1) << 20;

Status bad(const std::string& what) { return errors::InvalidArgument("invalid .npy data: ", what); }

struct NumericCode {
  DType dtype;
  const char* descr;  // as NumPy writes it on a little-endian machine
};
constexpr NumericCode kCodes[] = {
    {DType::kFloat32, "<f4"}, {DType::kFloat64, "<f8"}, {DType::kInt32, "<i4"}, {DType::kInt64, "<i8"},
    {DType::kInt16, "<i2"},   {DType::kInt8, "|i1"},    {DType::kUInt8, "|u1"}, {DType::kBool, "|b1"},
    {DType::kHalf, "<f2"},    {DType::kUInt16, "<u2"},  {DType::kUInt32, "<u4"}, {DType::kUInt64, "<u8"},
    {DType::kComplex64, "<c8"}, {DType::kComplex128, "<c16"},
    // NumPy has no bfloat16: np.save writes ml_dtypes' bfloat16 (TF's .numpy()) as 2 raw bytes.
    {DType::kBFloat16, "<V2"},
};

// The header: a Python dict literal with exactly 'descr', 'fortran_order' and 'shape'.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : s_(text) {}

  Status parse(std::string* descr, bool* fortran, std::vector<int64_t>* shape) {
    bool has_descr = false, has_order = false, has_shape = false;
    GRAPHFN_RETURN_IF_ERROR(expect('{'));
    for (;;) {
      skip_space();
      if (peek() == '}') break;
      std::string key;
      GRAPHFN_RETURN_IF_ERROR(quoted(&key));
      GRAPHFN_RETURN_IF_ERROR(expect(':'));
      skip_space();
      if (key == "descr" && !has_descr) {
        has_descr = true;
        GRAPHFN_RETURN_IF_ERROR(quoted(descr));
      } else if (key == "fortran_order" && !has_order) {
        has_order = true;
        GRAPHFN_RETURN_IF_ERROR(boolean(fortran));
      } else if (key == "shape" && !has_shape) {
        has_shape = true;
        GRAPHFN_RETURN_IF_ERROR(tuple(shape));
      } else {
        return bad("header has an unexpected or repeated key '" + key + "'");
      }
      skip_space();
      if (peek() == ',') ++pos_;
      else if (peek() != '}') return bad("header dict is malformed");
    }
    ++pos_;
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n')) ++pos_;
    if (pos_ != s_.size()) return bad("header has text after its dict");
    if (!has_descr || !has_order || !has_shape) return bad("header lacks 'descr', 'fortran_order' or 'shape'");
    return Status::OK();
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_space() {
    while (peek() == ' ') ++pos_;
  }
  Status expect(char c) {
    skip_space();
    if (peek() != c) return bad(std::string("header: expected '") + c + "'");
    ++pos_;
    return Status::OK();
  }
  Status quoted(std::string* out) {
    const char q = peek();
    if (q != '\'' && q != '"') return bad("header: expected a quoted string");
    const size_t end = s_.find(q, pos_ + 1);
    if (end == std::string_view::npos) return bad("header: unterminated string");
    out->assign(s_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return Status::OK();
  }
  Status boolean(bool* out) {
    for (const char* word : {"True", "False"}) {
      if (s_.substr(pos_, std::strlen(word)) == word) {
        *out = word[0] == 'T';
        pos_ += std::strlen(word);
        return Status::OK();
      }
    }
    return bad("header: fortran_order must be True or False");
  }
  Status tuple(std::vector<int64_t>* dims) {
    GRAPHFN_RETURN_IF_ERROR(expect('('));
    for (;;) {
      skip_space();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') return bad("header: shape must be a tuple of non-negative integers");
      int64_t d = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (d > kMaxElements) return bad("header: a dimension is too large");
        d = d * 10 + (peek() - '0');
        ++pos_;
      }
      if (dims->size() >= 64) return bad("header: shape has more than 64 dimensions");
      dims->push_back(d);
      skip_space();
      if (peek() == ',') ++pos_;
      else if (peek() != ')') return bad("header: shape tuple is malformed");
    }
    ++pos_;
    return Status::OK();
  }

  std::string_view s_;
  size_t pos_ = 0;
};

// dtype and bytes per element for a descr; 'S<n>' gives a string tensor of n-byte elements.
Status parse_descr(const std::string& descr, DType* dt, size_t* item_bytes) {
  for (const NumericCode& code : kCodes) {
    // NumPy may write byte-sized types with '<' or '|'.
    if (descr == code.descr || (dtype_size(code.dtype) == 1 && descr == std::string("<") + (code.descr + 1)) ||
        (code.dtype == DType::kBFloat16 && descr == "|V2")) {
      *dt = code.dtype;
      *item_bytes = dtype_size(code.dtype);
      return Status::OK();
    }
  }
  if (descr.size() >= 3 && (descr[0] == '|' || descr[0] == '<') && descr[1] == 'S' &&
      descr.find_first_not_of("0123456789", 2) == std::string::npos && descr.size() <= 12) {
    *dt = DType::kString;
    *item_bytes = std::stoull(descr.substr(2));
    if (*item_bytes == 0) return bad("string dtype 'S0' has no room for characters");
    return Status::OK();
  }
  if (!descr.empty() && descr[0] == '>') return bad("big-endian arrays ('" + descr + "') are not supported");
  return bad("dtype '" + descr + "' is not supported (use float16/32/64, int8/16/32/64, uint8/16/32/64, complex64/128, bool, '<V2' for bfloat16 or bytes 'S')");
}

uint64_t read_le(const char* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  return v;
}

// What the header says: where the data starts and what it holds.
struct NpyLayout {
  size_t data_start = 0;
  std::string descr;
  DType dtype = DType::kInvalid;
  size_t item = 0;  // bytes per element
  Shape shape;
  int64_t num_elements = 0;
};

// Parses the magic string, version and header dict at the start of `bytes` (which need hold
// only the header).
Status parse_layout(std::string_view bytes, NpyLayout* layout) {
  if (bytes.size() < kMagicBytes + 4 || bytes.substr(0, kMagicBytes) != std::string_view(kMagic, kMagicBytes)) {
    return bad("not a .npy file (wrong magic string)");
  }
  const int major = static_cast<uint8_t>(bytes[6]), minor = static_cast<uint8_t>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0) {
    return bad("format version " + std::to_string(major) + "." + std::to_string(minor) + " is not supported");
  }
  const int len_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + static_cast<size_t>(len_bytes)) return bad("truncated header");
  const uint64_t header_len = read_le(bytes.data() + 8, len_bytes);
  layout->data_start = 8 + len_bytes + header_len;
  if (header_len > kMaxHeaderBytes || layout->data_start > bytes.size()) return bad("header length is out of range");
  bool fortran = false;
  std::vector<int64_t> dims;
  GRAPHFN_RETURN_IF_ERROR(HeaderParser(bytes.substr(8 + len_bytes, header_len)).parse(&layout->descr, &fortran, &dims));
  if (fortran) return bad("Fortran-order arrays are not supported");
  GRAPHFN_RETURN_IF_ERROR(parse_descr(layout->descr, &layout->dtype, &layout->item));
  layout->shape = Shape(dims);
  const Status counted = checked_num_elements(layout->shape, &layout->num_elements);
  if (!counted.ok()) return bad(counted.message());
  return Status::OK();
}

// The data after the header must be exactly the elements the header describes.
Status check_data_size(const NpyLayout& layout, uint64_t data_bytes) {
  const uint64_t n = static_cast<uint64_t>(layout.num_elements);
  if ((layout.item && n > data_bytes / layout.item) || n * layout.item != data_bytes) {
    return bad("shape " + layout.shape.to_string() + " of '" + layout.descr + "' needs " + std::to_string(n) + " x " +
               std::to_string(layout.item) + " bytes, the file has " + std::to_string(data_bytes));
  }
  return Status::OK();
}

}  // namespace

Status decode_npy(std::string_view bytes, Tensor* out) {
  NpyLayout layout;
  GRAPHFN_RETURN_IF_ERROR(parse_layout(bytes, &layout));
  const std::string_view data = bytes.substr(layout.data_start);
  GRAPHFN_RETURN_IF_ERROR(check_data_size(layout, data.size()));
  const DType dt = layout.dtype;
  const Shape& shape = layout.shape;
  const int64_t n = layout.num_elements;
  const size_t item = layout.item;
  Tensor t;
  GRAPHFN_RETURN_IF_ERROR(Tensor::make(dt, shape, &t));
  if (dt == DType::kString) {
    for (int64_t i = 0; i < n; ++i) {
      std::string_view s = data.substr(i * item, item);
      s = s.substr(0, s.find_last_not_of('\0') + 1);  // NumPy pads with NULs
      t.data<std::string>()[i].assign(s);
    }
  } else {
    if (dt == DType::kBool) {
      for (char c : data) {
        if (c != 0 && c != 1) return bad("bool array holds a byte that is neither 0 nor 1");
      }
    }
    if (n) std::memcpy(t.raw_data(), data.data(), data.size());
  }
  *out = std::move(t);
  return Status::OK();
}

Status encode_npy(const Tensor& t, std::string* bytes) {
  std::string descr;
  size_t item = dtype_size(t.dtype());
  for (const NumericCode& code : kCodes) {
    if (code.dtype == t.dtype()) descr = code.descr;
  }
  if (t.dtype() == DType::kString) {
    item = 1;
    for (int64_t i = 0; i < t.num_elements(); ++i) item = std::max(item, t.data<std::string>()[i].size());
    descr = "|S" + std::to_string(item);
  }
  if (descr.empty()) return errors::InvalidArgument("cannot write a ", dtype_name(t.dtype()), " tensor as .npy");
  std::string dims = "(";
  for (int i = 0; i < t.rank(); ++i) dims += std::to_string(t.dim(i)) + (t.rank() == 1 ? "," : i + 1 < t.rank() ? ", " : "");
  dims += ")";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + dims + ", }";
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, kMagicBytes);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  if (t.dtype() == DType::kString) {
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      const std::string& s = t.data<std::string>()[i];
      out += s;
      out.append(item - s.size(), '\0');
    }
  } else {
    out.append(static_cast<const char*>(t.raw_data()), t.bytes());
  }
  *bytes = std::move(out);
  return Status::OK();
}

Status read_npy(const std::string& path, Tensor* out) {
  FileReader file;
  GRAPHFN_RETURN_IF_ERROR(file.open(path));
  // The header first, so a file whose size does not match it is refused before it is read.
  std::string bytes;
  GRAPHFN_RETURN_IF_ERROR(file.read(0, std::min<uint64_t>(file.size(), 12 + kMaxHeaderBytes), &bytes));
  NpyLayout layout;
  GRAPHFN_RETURN_IF_ERROR(with_context(parse_layout(bytes, &layout), path));
  GRAPHFN_RETURN_IF_ERROR(with_context(check_data_size(layout, file.size() - layout.data_start), path));
  GRAPHFN_RETURN_IF_ERROR(file.read(0, file.size(), &bytes));
  return with_context(decode_npy(bytes, out), path);
}

Status write_npy(const std::string& path, const Tensor& t) {
  std::string bytes;
  GRAPHFN_RETURN_IF_ERROR(encode_npy(t, &bytes));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  return out ? Status::OK() : errors::FailedPrecondition("cannot write ", path);
}

}  // namespace graphfn
