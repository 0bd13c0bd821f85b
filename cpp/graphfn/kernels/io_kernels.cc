// ReadFile / WriteFile (whole files, TF's errors: "<path>; No such file or directory" is
// NotFoundError; WriteFile creates missing parent folders, as TF does) and DecodeRaw /
// DecodePaddedRaw (each string's bytes reinterpreted as numbers of out_type).
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/record_io.h"

namespace graphfn {
namespace {

Status read_file_kernel(KernelContext& c) {
  const std::string& path = c.input(0).data<std::string>()[0];
  std::unique_ptr<ByteSource> source;
  GRAPHFN_RETURN_IF_ERROR(open_file_source(path, &source));
  std::string contents;
  for (;;) {
    const size_t before = contents.size();
    GRAPHFN_RETURN_IF_ERROR(source->read(1 << 20, &contents));
    if (contents.size() - before < (1 << 20)) break;
  }
  Tensor& out = c.allocate_output(0);
  out.data<std::string>()[0] = std::move(contents);
  return Status::OK();
}

// mkdir -p of the folder holding `path`.
Status io_make_parents(const std::string& path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const std::string dir = path.substr(0, slash);
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return file_error(dir, errno);
  }
  return Status::OK();
}

Status write_file_kernel(KernelContext& c) {
  const std::string& path = c.input(0).data<std::string>()[0];
  const std::string& contents = c.input(1).data<std::string>()[0];
  GRAPHFN_RETURN_IF_ERROR(io_make_parents(path));
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return file_error(path, errno);
  const bool wrote = contents.empty() || std::fwrite(contents.data(), 1, contents.size(), f) == contents.size();
  const int err = errno;
  if (std::fclose(f) != 0 || !wrote) return file_error(path, wrote ? errno : err);
  return Status::OK();
}

// Copies `n` bytes of raw values of `width` bytes each, swapping byte order when the data's
// order differs from this machine's (little-endian here, as on every platform graphfn builds for).
void io_copy_values(const char* src, size_t n, size_t width, bool little_endian, char* dst) {
  if (n == 0) return;  // an empty tensor's data may be null
  std::memcpy(dst, src, n);
  if (little_endian || width == 1) return;
  for (size_t i = 0; i + width <= n; i += width) {
    for (size_t a = 0, b = width - 1; a < b; ++a, --b) std::swap(dst[i + a], dst[i + b]);
  }
}

Status decode_raw_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const DType dt = c.type_attr("out_type");
  const size_t width = dtype_size(dt);
  const bool little_endian = c.attrs.get_bool("little_endian", true);
  const std::string* s = in.data<std::string>();
  const int64_t n = in.num_elements();
  const size_t size = n > 0 ? s[0].size() : 0;
  for (int64_t i = 0; i < n; ++i) {
    if (s[i].size() != size) {
      // TF's order: the first string's size, then this one's
      return errors::InvalidArgument("DecodeRaw requires input strings to all be the same size, but element ", i,
                                     " has size ", size, " != ", s[i].size());
    }
  }
  if (size % width != 0) {
    return errors::InvalidArgument("Input to DecodeRaw has length ", size, " that is not a multiple of ", width,
                                   ", the size of ", dtype_tf_string(dt));
  }
  Shape shape = in.shape();
  shape.add_dim(static_cast<int64_t>(size / width));
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, shape, &out));
  char* dst = static_cast<char*>(out->raw_data());
  for (int64_t i = 0; i < n; ++i) io_copy_values(s[i].data(), size, width, little_endian, dst + i * size);
  if (dt == DType::kBool) {  // any nonzero byte is true, as TF reads a bool
    for (int64_t i = 0, total = n * static_cast<int64_t>(size); i < total; ++i) dst[i] = dst[i] != 0;
  }
  return Status::OK();
}

Status decode_padded_raw_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const DType dt = c.type_attr("out_type");
  const size_t width = dtype_size(dt);
  const int64_t length = c.input(1).data<int32_t>()[0];
  if (length < 0 || length % static_cast<int64_t>(width) != 0) {
    return errors::InvalidArgument("fixed_length (", length, ") must be a multiple of the size of out_type (", width,
                                   ")");
  }
  const bool little_endian = c.attrs.get_bool("little_endian", true);
  Shape shape = in.shape();
  shape.add_dim(length / static_cast<int64_t>(width));
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, shape, &out));
  char* dst = static_cast<char*>(out->raw_data());
  const std::string* s = in.data<std::string>();
  for (int64_t i = 0, n = length > 0 ? in.num_elements() : 0; i < n; ++i) {
    char* row = dst + i * length;
    std::memset(row, 0, static_cast<size_t>(length));  // shorter strings are zero-padded
    const size_t take = std::min(s[i].size(), static_cast<size_t>(length));
    io_copy_values(s[i].data(), take - take % width, width, little_endian, row);
  }
  return Status::OK();
}

}  // namespace

void register_io_kernels(OpRegistry& reg) {
  reg.set_kernel("ReadFile", DType::kInvalid, &read_file_kernel);
  reg.set_kernel("WriteFile", DType::kInvalid, &write_file_kernel);
  for (DType dt : {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kUInt8, DType::kInt16, DType::kInt8,
                   DType::kInt64, DType::kBool}) {
    reg.set_kernel("DecodeRaw", dt, &decode_raw_kernel);
    if (dt != DType::kBool) reg.set_kernel("DecodePaddedRaw", dt, &decode_padded_raw_kernel);
  }
}

}  // namespace graphfn
