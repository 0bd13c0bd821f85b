// PNG through the system's libpng, with the transformations TensorFlow asks libpng for (palette
// expansion, tRNS to alpha, alpha added or stripped, gray <-> RGB with Rec. 601 weights, 16 bits
// stripped or synthesized), so decoded pixels equal TF's; encoding uses TF's zlib settings.
//
// libpng reports errors by longjmp to the function that started the work; those functions keep
// only plain C objects on their own frame, so the jump skips no destructor.
#include <cstring>

#include "graphfn/kernels/image_codecs.h"

#ifdef GRAPHFN_HAVE_PNG
#include <png.h>
#include <zlib.h>
#endif

namespace graphfn {

#ifndef GRAPHFN_HAVE_PNG

bool png_codec_available() { return false; }

static Status png_missing() {
  return errors::Unimplemented(
      "graphfn was built without libpng: PNG images cannot be decoded or encoded (install libpng's headers, "
      "e.g. Debian's libpng-dev, and rebuild graphfn)");
}
Status decode_png(const std::string&, int, int, DecodedImage*, bool) { return png_missing(); }
Status encode_png(const void*, int, int, int, int, int, std::string*) { return png_missing(); }

#else

bool png_codec_available() { return true; }

namespace {

[[noreturn]] void png_fail(png_structp png, png_const_charp) { png_longjmp(png, 1); }
void png_quiet_warning(png_structp, png_const_charp) {}

struct PngInput {
  const uint8_t* data;
  size_t left;
};

void png_read_from_memory(png_structp png, png_bytep out, png_size_t length) {
  auto* in = static_cast<PngInput*>(png_get_io_ptr(png));
  if (in->left < length) png_error(png, "More bytes requested to read than available");
  std::memcpy(out, in->data, length);
  in->data += length;
  in->left -= length;
}

void png_write_to_string(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), length);
}
void png_flush_nothing(png_structp) {}

enum class PngOutcome { kOk, kBadHeader, kTooLarge, kBadData };

// Sets up the conversions to `channels` (0: the image's own) of `bits` bits; returns the number of
// interlace passes. Runs under the caller's longjmp target.
int png_request_format(png_structp png, png_infop info, int* channels, int bits) {
  const int color_type = png_get_color_type(png, info);
  const int bit_depth = png_get_bit_depth(png, info);
  const bool has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  if (*channels == 0) {
    *channels = color_type == PNG_COLOR_TYPE_PALETTE ? (has_trns ? 4 : 3) : png_get_channels(png, info);
  }
  const bool has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0;
  if (*channels % 2 == 0) {  // 2 or 4 channels: with alpha
    if (!has_alpha && has_trns) {
      png_set_tRNS_to_alpha(png);
    } else if (!has_alpha) {
      png_set_add_alpha(png, (1u << bit_depth) - 1, PNG_FILLER_AFTER);
    }
  } else if (has_alpha || has_trns) {
    png_set_strip_alpha(png);
  }
  if (bit_depth > 8 && bits == 8) png_set_strip_16(png);
  png_set_packing(png);
  const int passes = png_set_interlace_handling(png);
  if (bits == 16) png_set_swap(png);  // to this (little-endian) machine's order
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  const bool is_gray = (color_type & PNG_COLOR_MASK_COLOR) == 0;
  if (is_gray && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (*channels < 3 && !is_gray) png_set_rgb_to_gray(png, 1, 0.299, 0.587);
  if (*channels >= 3 && is_gray) png_set_gray_to_rgb(png);
  png_read_update_info(png, info);
  return passes;
}

PngOutcome png_decompress(const std::string& data, int channels, int bits, bool header_only, DecodedImage* out) {
  PngInput input{reinterpret_cast<const uint8_t*>(data.data()), data.size()};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, png_fail, png_quiet_warning);
  if (!png) return PngOutcome::kBadHeader;
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    return PngOutcome::kBadHeader;
  }
  volatile PngOutcome failure = PngOutcome::kBadHeader;  // what a longjmp means, by stage
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return failure;
  }
  png_set_read_fn(png, &input, png_read_from_memory);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  const int source_depth = png_get_bit_depth(png, info);
  out->channels = channels;  // (kept in the caller's object: a local would be clobbered by longjmp)
  const int passes = png_request_format(png, info, &out->channels, bits);
  // TF's limits: each side below 2^27, the area below 2^29.
  if (width == 0 || height == 0 || width >= (1u << 27) || height >= (1u << 27) ||
      static_cast<uint64_t>(width) * height >= (uint64_t{1} << 29)) {
    png_destroy_read_struct(&png, &info, nullptr);
    out->width = static_cast<int>(width);
    out->height = static_cast<int>(height);
    return PngOutcome::kTooLarge;
  }
  out->width = static_cast<int>(width);
  out->height = static_cast<int>(height);
  out->bits = bits;
  if (header_only) {
    png_destroy_read_struct(&png, &info, nullptr);
    return PngOutcome::kOk;
  }
  const size_t row_bytes = static_cast<size_t>(width) * out->channels * (bits / 8);
  png_bytep pixels = out->allocate();
  failure = PngOutcome::kBadData;
  for (int pass = 0; pass < passes; ++pass) {
    for (png_uint_32 y = 0; y < height; ++y) png_read_row(png, pixels + y * row_bytes, nullptr);
  }
  png_set_rows(png, info, png_get_rows(png, info));
  png_read_end(png, info);
  png_destroy_read_struct(&png, &info, nullptr);
  if (bits == 16 && source_depth <= 8) {
    // 8-bit samples were read into the low bytes' places: widen each v to v * 257, backwards.
    const uint8_t* narrow = pixels;
    uint16_t* wide = reinterpret_cast<uint16_t*>(pixels);
    for (size_t y = height; y-- > 0;) {
      for (size_t i = static_cast<size_t>(width) * out->channels; i-- > 0;) {
        const uint16_t v = narrow[y * row_bytes + i];
        wide[y * width * out->channels + i] = static_cast<uint16_t>(v | v << 8);
      }
    }
  }
  return PngOutcome::kOk;
}

bool png_compress(const void* pixels, int height, int width, int channels, int bits, int compression,
                  std::string* out) {
  out->clear();
  if (width == 0 || height == 0) return false;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, png_fail, png_quiet_warning);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  static const int kColorTypes[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                    PNG_COLOR_TYPE_RGB_ALPHA};
  png_set_write_fn(png, out, png_write_to_string, png_flush_nothing);
  png_set_compression_level(png, compression < 0 ? Z_DEFAULT_COMPRESSION : compression);
  png_set_compression_mem_level(png, MAX_MEM_LEVEL);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), bits,
               kColorTypes[channels - 1], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (bits == 16) png_set_swap(png);
  const size_t row_bytes = static_cast<size_t>(width) * channels * (bits / 8);
  const auto* row = static_cast<const uint8_t*>(pixels);
  for (int y = 0; y < height; ++y, row += row_bytes) png_write_row(png, const_cast<png_bytep>(row));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

Status decode_png(const std::string& data, int channels, int bits, DecodedImage* out, bool header_only) {
  switch (png_decompress(data, channels, bits, header_only, out)) {
    case PngOutcome::kOk:
      return Status::OK();
    case PngOutcome::kBadHeader:
      return errors::InvalidArgument("Invalid PNG. Failed to initialize decoder.");
    case PngOutcome::kTooLarge:
      return errors::InvalidArgument("PNG size too large for int: ", static_cast<uint64_t>(static_cast<uint32_t>(out->width)), " by ",
                                     static_cast<uint64_t>(static_cast<uint32_t>(out->height)));
    case PngOutcome::kBadData:
      break;
  }
  return errors::InvalidArgument("Invalid PNG data, size ", data.size());
}

Status encode_png(const void* pixels, int height, int width, int channels, int bits, int compression,
                  std::string* out) {
  if (!png_compress(pixels, height, width, channels, bits, compression, out)) {
    return errors::Internal("PNG encoding failed");
  }
  return Status::OK();
}

#endif  // GRAPHFN_HAVE_PNG

}  // namespace graphfn
