// The strict .npy reader and writer (serialize/npy.h) used by graphfn-run.
#include <filesystem>
#include <fstream>

#include "harness.h"

#include "graphfn/serialize/npy.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// np.save(f, np.array([[1, 2, 3], [4, 5, 6]], np.int32)), as NumPy 2.4 writes it.
const std::string kInt32Npy(
    "\x93NUMPY\x01\x00v\x00{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }"
    "                                                          \n"
    "\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00\x05\x00\x00\x00\x06\x00\x00\x00",
    128 + 24);

Tensor decoded(const std::string& bytes) {
  Tensor t;
  const Status s = decode_npy(bytes, &t);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return t;
}

void check_error(const std::string& bytes, const std::string& text) {
  Tensor t;
  const Status s = decode_npy(bytes, &t);
  INFO(s.to_string());
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message().find(text) != std::string::npos);
}

std::string npy_with_header(const std::string& dict, const std::string& data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size());
  out += '\0';
  return out + header + data;
}

}  // namespace

TEST_CASE("npy: reads what NumPy writes, writes the same bytes") {
  const Tensor t = decoded(kInt32Npy);
  CHECK(t.shape() == Shape{2, 3});
  CHECK(values<int32_t>(t) == std::vector<int32_t>{1, 2, 3, 4, 5, 6});
  std::string bytes;
  REQUIRE(encode_npy(t, &bytes).ok());
  CHECK(bytes == kInt32Npy);
}

TEST_CASE("npy: round trips of every dtype, scalars, empty arrays and byte strings") {
  const std::vector<Tensor> tensors{scalar<float>(2.5f), vec<double>({1, -2}), vec<int64_t>({-1, 1LL << 40}),
                                    vec<int16_t>({-3}), vec<int8_t>({-4}), vec<uint8_t>({255}),
                                    vec<bool>({true, false}), tensor<float>({}, Shape{0, 3}),
                                    vec<std::string>({"ab", "", "xyz"})};
  for (const Tensor& t : tensors) {
    std::string bytes;
    REQUIRE(encode_npy(t, &bytes).ok());
    CHECK(bytes.find('\n') % 64 == 63);  // header padded to 64 bytes, as NumPy does
    const Tensor back = decoded(bytes);
    CHECK(back.dtype() == t.dtype());
    CHECK(back.shape() == t.shape());
    CHECK(back.debug_string(100) == t.debug_string(100));
  }
}

TEST_CASE("npy: malformed files are refused with the reason") {
  check_error("hello", "not a .npy file (wrong magic string)");
  std::string v9 = kInt32Npy;
  v9[6] = 9;
  check_error(v9, "format version 9.0 is not supported");
  check_error(kInt32Npy.substr(0, 60), "header length is out of range");
  check_error(kInt32Npy.substr(0, kInt32Npy.size() - 1), "needs 6 x 4 bytes, the file has 23");
  check_error(kInt32Npy + "x", "needs 6 x 4 bytes, the file has 25");
  check_error(npy_with_header("{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }", "abcd"),
              "big-endian arrays ('>i4') are not supported");
  check_error(npy_with_header("{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", std::string(12, 'a')),
              "dtype '<U3' is not supported");
  check_error(npy_with_header("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", "abcdefgh"),
              "dtype '|O' is not supported");
  check_error(npy_with_header("{'descr': '<i4', 'fortran_order': True, 'shape': (1,), }", "abcd"),
              "Fortran-order arrays are not supported");
  check_error(npy_with_header("{'descr': '<i4', 'shape': (1,), }", "abcd"), "header lacks");
  check_error(npy_with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), 'x': 1}", "abcd"),
              "unexpected or repeated key 'x'");
  check_error(npy_with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (-1,), }", "abcd"),
              "shape must be a tuple of non-negative integers");
  check_error(npy_with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), } junk", "abcd"),
              "header has text after its dict");
  check_error(npy_with_header("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", "\x01\x02"),
              "bool array holds a byte that is neither 0 nor 1");
  check_error(npy_with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1048576, 1048576, 1048576), }", ""),
              "too many elements");
  check_error(npy_with_header("{'descr': '|S1000000000', 'fortran_order': False, 'shape': (1000,), }", "ab"),
              "needs 1000 x 1000000000 bytes");
  check_error(npy_with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", ""),
              "a dimension is too large");
}

TEST_CASE("npy: a file is judged by its header before its data is read") {
  const std::string path = (std::filesystem::temp_directory_path() / "graphfn_test_huge.npy").string();
  {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << kInt32Npy;
  }
  Tensor t;
  REQUIRE(read_npy(path, &t).ok());
  CHECK(values<int32_t>(t) == std::vector<int32_t>{1, 2, 3, 4, 5, 6});
  // A sparse 4 GiB file whose header describes 24 bytes of data: refused before it is read.
  std::filesystem::resize_file(path, uint64_t(1) << 32);
  const Status s = read_npy(path, &t);
  INFO(s.to_string());
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() == path + ": invalid .npy data: shape [2,3] of '<i4' needs 6 x 4 bytes, the file has " +
                           std::to_string((uint64_t(1) << 32) - 128));
  std::filesystem::remove(path);
  const Status missing = read_npy(path, &t);
  CHECK(missing.code() == Code::kNotFound);
}
