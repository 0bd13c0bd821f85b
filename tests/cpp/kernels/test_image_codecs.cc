// The image codec ops (kernels/image_codec_kernels.cc) from C++: round trips, and the decoders on
// damaged and crafted files, which must fail with InvalidArgumentError (or Unimplemented for the
// formats graphfn does not decode), never crash. Pixel values against TF's are checked by
// tests/python/test_image_codecs.py. Longer runs of the fuzz test (under ASan, say):
//   GRAPHFN_IMAGE_FUZZ_RUNS=200000 ./graphfn_tests "image codec decoders on mutated files"
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "harness.h"
#include "graphfn/kernels/image_codecs.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

Tensor test_image(int64_t h, int64_t w, int64_t c) {
  Tensor t(DType::kUInt8, Shape{h, w, c});
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<uint8_t>()[i] = static_cast<uint8_t>(i * 37 % 251);
  return t;
}

std::string encoded(const std::string& op, const Tensor& image, const AttrMap& attrs = AttrMap()) {
  return run1(op, {image}, attrs).data<std::string>()[0];
}

// A BMP as TF reads it: 54-byte header (pixel data at offset 54), rows padded to 4 bytes; with
// `header_only`, the header and 6 more bytes.
std::string bmp_file(int width, int height, int bits, bool header_only = false) {
  const int64_t row = (bits / 8 * int64_t{width} + 3) / 4 * 4;
  std::string out(header_only ? 60 : 54 + row * (height < 0 ? -int64_t{height} : height), '\0');
  auto put32 = [&](size_t at, int32_t v) {
    for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>((static_cast<uint32_t>(v) >> (8 * i)) & 0xFF);
  };
  out[0] = 'B';
  out[1] = 'M';
  put32(10, 54);
  put32(14, 40);
  put32(18, width);
  put32(22, height);
  out[28] = static_cast<char>(bits);
  for (size_t i = 54; i < out.size(); ++i) out[i] = static_cast<char>(i * 13);
  return out;
}

// tests/python/data_fixtures/images/animated.gif: three frames (a patch, a full frame with a
// local palette and a transparent index, a patch), 10 x 8.
const std::string kAnimatedGif = bytes_from_hex(
    "4749463839610a000800f3000000ff0010f04620e18c30d2d240c31850b45e60a5a47096ea808730907876a069bcb05a02c04b48d0"
    "3c8ee02dd4f01e1a2c020001000500040000040f100431481083142806296690624e040021f904010a0005002c000000000a000800"
    "830000c82808c35010be7818b9a020b4c828aff030aa1838a54040a068489b905096b85891e0608c08688730708258787d0438100c"
    "93d813052d384c624f14b41c34893d51d0720126f64441cb0502d913052d17c8814f14b45c20474151d072811cd56041cb05725403"
    "110021f904010a0000002c0300020006000500000416f0a0a41643492dc85a528b35a71664cdbdc59a7b2002003b");

Status decode(const std::string& op, const std::string& bytes, const AttrMap& attrs) {
  std::vector<Tensor> out;
  return execute_eager(op, {Tensor::scalar<std::string>(bytes)}, attrs, &out);
}

}  // namespace

TEST_CASE("image codec round trips") {
  if (!png_codec_available() || !jpeg_codec_available()) return;  // the Unimplemented path is tested below
  const Tensor image = test_image(9, 11, 3);
  const Tensor back = run1("DecodePng", {Tensor::scalar<std::string>(encoded("EncodePng", image))});
  CHECK(back.shape() == Shape{9, 11, 3});
  CHECK(values<uint8_t>(back) == values<uint8_t>(image));
  const Tensor shape = run1("ExtractJpegShape", {Tensor::scalar<std::string>(encoded("EncodeJpeg", image))});
  CHECK(values<int32_t>(shape) == std::vector<int32_t>{9, 11, 3});
  AttrMap gray;
  gray.set("channels", int64_t{1});
  CHECK(run1("DecodeJpeg", {Tensor::scalar<std::string>(encoded("EncodeJpeg", image))}, gray).shape() ==
        Shape{9, 11, 1});
}

TEST_CASE("image codecs without their library say so") {
  const Tensor image = test_image(2, 2, 1);
  std::vector<Tensor> out;
  const Status st = execute_eager("EncodePng", {image}, AttrMap(), &out);
  if (png_codec_available()) {
    CHECK(st.ok());
  } else {
    CHECK(st.code() == Code::kUnimplemented);
    CHECK(contains(st, "graphfn was built without libpng"));
  }
}

TEST_CASE("image codec decoders on crafted headers") {
  // Sizes over TF's limits fail before anything is allocated; odd BMP fields fail with TF's words.
  CHECK(contains(decode("DecodeBmp", bmp_file(100000, 100000, 24, true), AttrMap()),
                 "Total possible pixel bytes must be less than 2^30"));
  CHECK(contains(decode("DecodeBmp", bmp_file(3, -2147483647 - 1, 24, true), AttrMap()),
                 "Total possible pixel bytes must be less than 2^30"));
  CHECK(contains(decode("DecodeBmp", bmp_file(5, 3, 8).substr(0, 40), AttrMap()), "Input size should match"));
  CHECK(decode("DecodeBmp", bmp_file(5, -3, 32), AttrMap()).ok());
  if (gif_codec_available()) {
    CHECK(run1("DecodeGif", {Tensor::scalar<std::string>(kAnimatedGif)}).shape() == Shape{3, 8, 10, 3});
    CHECK(contains(decode("DecodePng", kAnimatedGif, AttrMap()), "Got 3 frames, but animated gifs"));
    CHECK(contains(decode("DecodeImage", std::string("GIF89a") + std::string(20, '\0'), AttrMap()),
                   "Invalid GIF data (size 26), failed to slurp gif file: Wrong record type detected"));
  }
  if (!jpeg_codec_available()) return;
  // A baseline JPEG header claiming 65500 x 65500 pixels, then nothing.
  const std::string huge_jpeg = std::string("\xff\xd8\xff\xc0\x00\x11\x08\xff\xdc\xff\xdc\x03\x01\x22\x00\x02\x11\x01"
                                            "\x03\x11\x01",
                                            21);
  CHECK(contains(decode("DecodeJpeg", huge_jpeg, AttrMap()), "jpeg::Uncompress failed"));
}

TEST_CASE("image codec decoders on mutated files") {
  const char* env = std::getenv("GRAPHFN_IMAGE_FUZZ_RUNS");
  const int runs = env ? std::atoi(env) : 3000;
  std::vector<std::string> corpus = {bmp_file(5, 3, 24), bmp_file(4, -3, 32), bmp_file(7, 2, 8)};
  if (gif_codec_available()) corpus.push_back(kAnimatedGif);
  if (png_codec_available()) {
    corpus.push_back(encoded("EncodePng", test_image(6, 5, 4)));
    corpus.push_back(encoded("EncodePng", test_image(3, 8, 1)));
  }
  if (jpeg_codec_available()) {
    AttrMap progressive;
    progressive.set("progressive", true);
    corpus.push_back(encoded("EncodeJpeg", test_image(19, 23, 3)));
    corpus.push_back(encoded("EncodeJpeg", test_image(17, 9, 1), progressive));
  }
  const char* ops[] = {"DecodeJpeg", "DecodePng", "DecodeBmp", "DecodeGif", "DecodeImage", "ExtractJpegShape",
                       "DecodeAndCropJpeg"};
  std::mt19937 rng(7);
  std::map<int, int> codes;
  for (int run = 0; run < runs; ++run) {
    std::string bytes = corpus[rng() % corpus.size()];
    for (int e = 0, n = 1 + rng() % 4; e < n && !bytes.empty(); ++e) {
      const size_t at = rng() % bytes.size();
      switch (rng() % 4) {
        case 0: bytes[at] ^= static_cast<char>(1 << (rng() % 8)); break;
        case 1: bytes.resize(at); break;
        case 2: bytes.insert(at, 1, static_cast<char>(rng())); break;
        default: bytes[at] = static_cast<char>(rng()); break;
      }
    }
    const std::string op = ops[rng() % 7];
    AttrMap attrs;
    const int64_t channel_choices[] = {0, 1, 3, 4};
    if (op != "DecodeGif" && op != "ExtractJpegShape") attrs.set("channels", channel_choices[rng() % 4]);
    if (op == "DecodeJpeg" || op == "DecodeAndCropJpeg") {
      attrs.set("ratio", int64_t{1} << (rng() % 4));
      attrs.set("try_recover_truncated", rng() % 4 == 0);
      attrs.set("fancy_upscaling", rng() % 2 == 0);
    }
    if (op == "DecodeImage" && rng() % 2) attrs.set("dtype", DType::kFloat32);
    if (op == "DecodeImage" && rng() % 2) attrs.set("expand_animations", false);
    Status st;
    if (op == "DecodeAndCropJpeg") {
      std::vector<Tensor> out;
      const int32_t window[] = {static_cast<int32_t>(rng() % 20) - 2, static_cast<int32_t>(rng() % 24) - 2,
                                static_cast<int32_t>(rng() % 20), static_cast<int32_t>(rng() % 24)};
      st = execute_eager(op, {Tensor::scalar<std::string>(bytes), vec<int32_t>({window[0], window[1], window[2], window[3]})},
                         attrs, &out);
    } else {
      st = decode(op, bytes, attrs);
    }
    ++codes[static_cast<int>(st.code())];
    INFO(op << " run " << run << ": " << st.to_string());
    CHECK((st.ok() || st.code() == Code::kInvalidArgument || st.code() == Code::kUnimplemented));
  }
  CHECK(codes[0] > 0);  // some mutations still decode
}
