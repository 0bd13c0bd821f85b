// The JPEG, PNG and GIF decoders (kernels/image_codec_{jpeg,png,gif}.cc) on mutated files, built on
// their own with AddressSanitizer + UBSan in a minute (no full sanitizer build needed;
// docs/fuzzing.md). The corpus is tests/python/data_fixtures/images (files TF wrote):
//
//   g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
//     -DGRAPHFN_HAVE_JPEG -DGRAPHFN_HAVE_PNG -DGRAPHFN_HAVE_GIF -Icpp tests/cpp/fuzz/main/fuzz_image_codecs.cc \
//     cpp/graphfn/kernels/image_codec_{jpeg,png,gif}.cc cpp/graphfn/core/status.cc -ljpeg -lpng -lgif -lz \
//     -o /tmp/fuzz_image_codecs && /tmp/fuzz_image_codecs tests/python/data_fixtures/images 100000
//
// Prints the outcomes (status codes); any memory error or undefined behaviour stops the run.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "graphfn/kernels/image_codecs.h"

using namespace graphfn;

static std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "tests/python/data_fixtures/images";
  const int runs = argc > 2 ? std::atoi(argv[2]) : 100000;
  std::vector<std::string> corpus;
  for (const char* name : {"rgb_q90.jpg", "gray.jpg", "rgb_progressive_444.jpg", "rgb.png", "rgba.png",
                           "gray_alpha.png", "rgb16.png", "palette_trns.png", "one_frame.gif", "animated.gif"}) {
    corpus.push_back(read_file(dir + "/" + name));
    if (corpus.back().empty()) {
      std::fprintf(stderr, "missing %s/%s\n", dir.c_str(), name);
      return 2;
    }
  }
  std::mt19937 rng(3);
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
    DecodedImage image;
    Status st;
    switch (rng() % 4) {
      case 0: {
        JpegDecodeOptions o;
        o.channels = static_cast<int>(rng() % 2) * 2 + static_cast<int>(rng() % 2);  // 0, 1, 2 -> 3 below
        if (o.channels == 2) o.channels = 3;
        o.ratio = 1 << (rng() % 4);
        o.try_recover_truncated = rng() % 4 == 0;
        o.fancy_upscaling = rng() % 2 == 0;
        o.accurate_dct = rng() % 2 == 0;
        if (rng() % 2) {  // DecodeAndCropJpeg's window, sometimes outside the image
          o.crop = true;
          o.crop_y = static_cast<int64_t>(rng() % 24) - 2;
          o.crop_x = static_cast<int64_t>(rng() % 28) - 2;
          o.crop_height = rng() % 24;
          o.crop_width = rng() % 28;
        }
        st = decode_jpeg(bytes, o, &image);
        break;
      }
      case 1: {
        const int channels[] = {0, 1, 2, 3, 4};
        st = decode_png(bytes, channels[rng() % 5], rng() % 2 ? 8 : 16, &image);
        break;
      }
      case 2: {
        int64_t shape[3];
        st = jpeg_shape(bytes, shape);
        break;
      }
      default:
        st = decode_gif(bytes, rng() % 2 == 0, [](int, int, int) { return Status::OK(); }, &image);
        break;
    }
    ++codes[static_cast<int>(st.code())];
  }
  for (const auto& [code, count] : codes) std::printf("status code %d: %d\n", code, count);
  return 0;
}
