// The image codecs behind tf.io.decode_* / encode_* (kernels/image_codec_kernels.cc): JPEG through
// libjpeg-turbo (image_codec_jpeg.cc), PNG through libpng (image_codec_png.cc), BMP by hand.
// Each codec works on plain byte buffers and reports failure as a Status with TF's message; a
// build without the library keeps the functions, which then return UnimplementedError.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "graphfn/core/status.h"

namespace graphfn {

// Decoded pixels, row-major [height, width, channels] of `bits` (8, or 16 in this machine's byte
// order) each. The buffer is not zeroed when made: a crafted header may claim a huge image, and
// the pages it never reaches then cost nothing.
struct DecodedImage {
  int frames = 1;  // GIF animations: [frames, height, width, channels]
  int height = 0;
  int width = 0;
  int channels = 0;
  int bits = 8;
  std::unique_ptr<uint8_t[]> pixels;
  size_t num_samples() const { return static_cast<size_t>(frames) * height * width * channels; }
  uint8_t* allocate() {
    pixels.reset(new uint8_t[num_samples() * (bits / 8)]);
    return pixels.get();
  }
};

// TF's DecodeJpeg attrs. `channels` is 0 (the image's own, at most 3), 1 or 3.
struct JpegDecodeOptions {
  int channels = 0;
  int ratio = 1;  // 1, 2, 4 or 8: the image is scaled down by it while decoding
  bool fancy_upscaling = true;
  bool try_recover_truncated = false;
  float acceptable_fraction = 1.0f;
  bool accurate_dct = false;  // dct_method 'INTEGER_ACCURATE'; TF's default '' is the fast one
  // DecodeAndCropJpeg: decode only this window of the (scaled) image, as TF: libjpeg skips the
  // rows above it and decodes the columns from the iMCU boundary left of it.
  bool crop = false;
  int64_t crop_y = 0, crop_x = 0, crop_height = 0, crop_width = 0;
};

struct JpegEncodeOptions {
  int quality = 95;
  bool progressive = false;
  bool optimize_size = false;
  bool chroma_downsampling = true;
  int density_unit = 1;  // 1: dots per inch, 2: per cm (the JFIF codes)
  int x_density = 300;
  int y_density = 300;
  std::string xmp_metadata;
};

bool jpeg_codec_available();
bool png_codec_available();
bool gif_codec_available();

// Decodes a JPEG as TF's jpeg::Uncompress does (the same library calls, so the same pixels).
Status decode_jpeg(const std::string& data, const JpegDecodeOptions& options, DecodedImage* out);
// The [height, width, components] of a JPEG, read from its header as TF's ExtractJpegShape.
Status jpeg_shape(const std::string& data, int64_t shape[3]);
// `pixels` holds height * width * channels bytes; channels is 1 (grayscale) or 3 (RGB).
Status encode_jpeg(const uint8_t* pixels, int height, int width, int channels, const JpegEncodeOptions& options,
                   std::string* out);

// Decodes a PNG with TF's conversions (channels 0 = the image's own, 1..4; alpha added, stripped,
// gray <-> RGB) to 8 or 16 bits per sample. With `header_only`, checks the header and the size
// and sets out's height, width and channels without decoding.
Status decode_png(const std::string& data, int channels, int bits, DecodedImage* out, bool header_only = false);
// `pixels` holds height * width * channels samples of `bits` (8 or 16, native order) each.
Status encode_png(const void* pixels, int height, int width, int channels, int bits, int compression,
                  std::string* out);

// Decodes a GIF's frames (all, or the first unless `all_frames`) to RGB as TF does: the canvas is
// the largest frame, a frame's pixels outside it keep the previous frame's (black for the first),
// its transparent pixels likewise. `accept(frames, height, width)` may refuse the result's size
// (TF's decoders other than DecodeGif/DecodeImage take one frame only) before it is allocated.
Status decode_gif(const std::string& data, bool all_frames,
                  const std::function<Status(int frames, int height, int width)>& accept, DecodedImage* out);

}  // namespace graphfn
