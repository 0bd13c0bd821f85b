// Kernels of the image codec ops (ops/image_codec_ops.cc). As in TF, DecodeJpeg, DecodePng,
// DecodeGif and DecodeImage each sniff the format and decode JPEG, PNG or GIF alike (only the
// output rank and the attrs differ); BMP is decoded only by DecodeBmp and DecodeImage. Checks,
// their order and their messages are TF's. WebP and JPEG XL are recognized but not decoded yet:
// UnimplementedError.
#include <cstring>

#include "graphfn/kernels/image_codecs.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

enum class DecodeOp { kJpeg, kCropJpeg, kPng, kGif, kBmp, kImage };
enum class ImageFormat { kUnknown, kJpeg, kPng, kGif, kBmp, kWebp, kJxl };

const char* decode_op_name(DecodeOp op) {
  switch (op) {
    case DecodeOp::kJpeg: return "DecodeJpeg";
    case DecodeOp::kCropJpeg: return "DecodeAndCropJpeg";
    case DecodeOp::kPng: return "DecodePng";
    case DecodeOp::kGif: return "DecodeGif";
    case DecodeOp::kBmp: return "DecodeBmp";
    case DecodeOp::kImage: return "DecodeImage";
  }
  return "";
}

bool codec_starts_with(const std::string& data, const char* magic, size_t n, size_t at = 0) {
  return data.size() >= at + n && std::memcmp(data.data() + at, magic, n) == 0;
}

// The format from the first bytes, in TF's order.
ImageFormat sniff_image_format(const std::string& data) {
  if (codec_starts_with(data, "\xff\xd8\xff", 3)) return ImageFormat::kJpeg;
  if (codec_starts_with(data, "\x89PNG\r\n\x1a\n", 8)) return ImageFormat::kPng;
  if (codec_starts_with(data, "GIF8", 4)) return ImageFormat::kGif;
  if (codec_starts_with(data, "BM", 2)) return ImageFormat::kBmp;
  if (data.size() > 12 && codec_starts_with(data, "RIFF", 4) && codec_starts_with(data, "WEBP", 4, 8)) {
    return ImageFormat::kWebp;
  }
  if (codec_starts_with(data, "\xff\x0a", 2) || codec_starts_with(data, "\0\0\0\x0cJXL \r\n\x87\n", 12)) {
    return ImageFormat::kJxl;
  }
  return ImageFormat::kUnknown;
}

struct DecodeAttrs {
  DecodeOp op;
  int channels = 0;
  DType dtype = DType::kUInt8;
  bool expand_animations = true;
  JpegDecodeOptions jpeg;  // DecodeImage and the others decode with TF's defaults
};

// What TF's kernel checks of its attrs before looking at the data.
Status read_decode_attrs(const KernelContext& c, DecodeOp op, DecodeAttrs* a) {
  a->op = op;
  if (op == DecodeOp::kJpeg || op == DecodeOp::kCropJpeg) {
    a->jpeg.ratio = static_cast<int>(c.attrs.get_int("ratio", 1));
    if (a->jpeg.ratio != 1 && a->jpeg.ratio != 2 && a->jpeg.ratio != 4 && a->jpeg.ratio != 8) {
      return errors::InvalidArgument("ratio must be 1, 2, 4, or 8, got ", a->jpeg.ratio);
    }
    a->jpeg.fancy_upscaling = c.attrs.get_bool("fancy_upscaling", true);
    a->jpeg.try_recover_truncated = c.attrs.get_bool("try_recover_truncated", false);
    a->jpeg.acceptable_fraction = static_cast<float>(c.attrs.get_float("acceptable_fraction", 1.0));
    const std::string* dct = c.attrs.get_string("dct_method");
    const std::string method = dct ? *dct : "";
    if (!method.empty() && method != "INTEGER_FAST" && method != "INTEGER_ACCURATE") {
      return errors::InvalidArgument("dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}");
    }
    a->jpeg.accurate_dct = method == "INTEGER_ACCURATE";
  }
  if (op == DecodeOp::kPng || op == DecodeOp::kImage) a->dtype = c.type_attr("dtype");
  if (op == DecodeOp::kImage) a->expand_animations = c.attrs.get_bool("expand_animations", true);
  if (op == DecodeOp::kGif) {
    a->channels = 3;
  } else {
    const int64_t channels = c.attrs.get_int("channels", 0);
    if (channels != 0 && channels != 1 && channels != 3 && channels != 4) {
      return errors::InvalidArgument("`channels` must be 0, 1, 3 or 4 but got ", channels);
    }
    a->channels = static_cast<int>(channels);
  }
  return Status::OK();
}

// Copies (uint8) or scales (float32, to [0, 1] as TF: v * (1 / max)) decoded samples into output 0,
// [h, w, c] or, as an animation, [frames, h, w, c].
Status emit_decoded(KernelContext& c, const DecodeAttrs& a, const DecodedImage& image, bool as_animation) {
  Shape shape{image.height, image.width, image.channels};
  if (as_animation) shape = Shape{image.frames, image.height, image.width, image.channels};
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, shape, &out));
  const size_t n = image.num_samples();
  if (a.dtype == DType::kFloat32) {
    float* dst = out->data<float>();
    if (image.bits == 16) {
      const float scale = static_cast<float>(1.0 / 65535);
      const auto* src = reinterpret_cast<const uint16_t*>(image.pixels.get());
      for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]) * scale;
    } else {
      const float scale = static_cast<float>(1.0 / 255);
      const uint8_t* src = image.pixels.get();
      for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]) * scale;
    }
  } else if (n > 0) {
    std::memcpy(out->raw_data(), image.pixels.get(), n);
  }
  return Status::OK();
}

Status decode_jpeg_data(KernelContext& c, const DecodeAttrs& a, const std::string& data) {
  if (a.channels != 0 && a.channels != 1 && a.channels != 3) {
    return errors::InvalidArgument("JPEG does not support 4 channels");
  }
  JpegDecodeOptions options = a.jpeg;
  options.channels = a.channels;
  if (a.op == DecodeOp::kCropJpeg) {
    const Tensor& window = c.input(1);
    if (window.shape().rank() != 1) {
      return errors::InvalidArgument("crop_window must be 1-D, got shape ", window.shape().to_string());
    }
    if (window.shape().dim(0) != 4) {
      return errors::InvalidArgument("crop_size must have four elements ", window.shape().to_string());
    }
    const int32_t* w = window.data<int32_t>();
    options.crop = true;
    options.crop_y = w[0];
    options.crop_x = w[1];
    options.crop_height = w[2];
    options.crop_width = w[3];
  } else if (a.op == DecodeOp::kBmp) {
    return errors::InvalidArgument(
        "Trying to decode JPEG format using DecodeBmp op. Use `decode_jpeg` or `decode_image` instead.");
  }
  DecodedImage image;
  GRAPHFN_RETURN_IF_ERROR(decode_jpeg(data, options, &image));
  return emit_decoded(c, a, image, a.op == DecodeOp::kGif);
}

Status decode_png_data(KernelContext& c, const DecodeAttrs& a, const std::string& data) {
  const int bits = a.dtype == DType::kUInt8 ? 8 : 16;
  DecodedImage image;
  // The header first: TF reports a bad header or a huge size before a wrong op.
  GRAPHFN_RETURN_IF_ERROR(decode_png(data, a.channels, bits, &image, /*header_only=*/true));
  if (a.op == DecodeOp::kBmp) {
    return errors::InvalidArgument(
        "Trying to decode PNG format using DecodeBmp op. Use `decode_png` or `decode_image` instead.");
  }
  if (a.op == DecodeOp::kCropJpeg) {
    return errors::InvalidArgument("DecodeAndCropJpeg operation can run on JPEG only, but detected PNG.");
  }
  GRAPHFN_RETURN_IF_ERROR(decode_png(data, a.channels, bits, &image));
  return emit_decoded(c, a, image, a.op == DecodeOp::kGif);
}

Status decode_gif_data(KernelContext& c, const DecodeAttrs& a, const std::string& data) {
  if (a.channels != 0 && a.channels != 3) {
    return errors::InvalidArgument("channels must be 0 or 3 for GIF, got ", a.channels);
  }
  if (a.op == DecodeOp::kBmp) {
    return errors::InvalidArgument(
        "Trying to decode GIF format using DecodeBmp op. Use `decode_gif` or `decode_image` instead.");
  }
  if (a.op == DecodeOp::kCropJpeg) {
    return errors::InvalidArgument("DecodeAndCropJpeg operation can run on JPEG only, but detected GIF.");
  }
  // DecodeGif and DecodeImage give [frames, h, w, 3] (DecodeImage with expand_animations=False
  // the first frame, [h, w, 3]); DecodeJpeg and DecodePng take a one-frame GIF only.
  const bool one_frame_op = a.op == DecodeOp::kJpeg || a.op == DecodeOp::kPng;  // (DecodeAndCropJpeg refused)
  const auto accept = [&](int frames, int, int) {
    if (one_frame_op && frames != 1) {
      return errors::InvalidArgument("Got ", frames, " frames, but animated gifs can only be decoded by "
                                     "tf.io.decode_gif or tf.io.decode_image");
    }
    return Status::OK();
  };
  DecodedImage image;
  GRAPHFN_RETURN_IF_ERROR(decode_gif(data, a.expand_animations, accept, &image));
  const bool four_d = a.op == DecodeOp::kGif || (a.op == DecodeOp::kImage && a.expand_animations);
  return emit_decoded(c, a, image, four_d);
}

int32_t codec_le32(const std::string& d, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(d[at + i]);
  return static_cast<int32_t>(v);
}

// Uncompressed BMP of 8, 24 or 32 bits per pixel (BGR(A), rows padded to 4 bytes, bottom-up
// unless the height is negative), as TF reads it: the pixel data starts at the header's offset.
Status decode_bmp_data(KernelContext& c, const DecodeAttrs& a, const std::string& data) {
  if (a.channels == 1) return errors::InvalidArgument("`channels` must be 0, 3 or 4 for BMP, but got 1");
  if (a.op == DecodeOp::kCropJpeg) {
    return errors::InvalidArgument("DecodeAndCropJpeg operation can run on JPEG only, but detected BMP.");
  }
  if (a.op != DecodeOp::kBmp && a.op != DecodeOp::kImage) {
    return errors::InvalidArgument("Trying to decode BMP format using a wrong op. Use `decode_bmp` or "
                                   "`decode_image` instead. Op used: ", decode_op_name(a.op));
  }
  const size_t size = data.size();
  if (size < 32) {
    return errors::InvalidArgument("Incomplete bmp content, requires at least 32 bytes to find the header size, "
                                   "width, height, and bpp, got ", size, " bytes");
  }
  const int32_t header_size = codec_le32(data, 10);
  const int32_t width = codec_le32(data, 18);
  const int32_t height = codec_le32(data, 22);
  const int16_t bpp = static_cast<int16_t>(static_cast<uint8_t>(data[28]) | static_cast<uint8_t>(data[29]) << 8);
  const int source_channels = bpp / 8;
  if (source_channels != 1 && source_channels != 3 && source_channels != 4) {
    return errors::InvalidArgument("Number of channels inherent in the image must be 1, 3 or 4, was ",
                                   source_channels);
  }
  const int channels = a.channels ? a.channels : source_channels;
  if (width <= 0) return errors::InvalidArgument("Width must be positive");
  if (height == 0) return errors::InvalidArgument("Height must be nonzero");
  if (header_size < 0) return errors::InvalidArgument("header size must be nonnegative");
  const int64_t rows = height < 0 ? -static_cast<int64_t>(height) : height;
  if (static_cast<int64_t>(width) * rows >= 2147483647 / 8) {
    return errors::InvalidArgument("Total possible pixel bytes must be less than 2^30");
  }
  const int64_t row_size = (static_cast<int64_t>(source_channels) * width + 3) / 4 * 4;
  // TF computes the difference in a 32-bit int; so does this, wrapping alike.
  const auto size_diff = static_cast<int32_t>(static_cast<uint32_t>(
      static_cast<uint64_t>(size) - static_cast<uint64_t>(header_size) - static_cast<uint64_t>(row_size * rows)));
  if (size_diff != 0) {
    return errors::InvalidArgument("Input size should match (header_size + row_size * abs_height) but they "
                                   "differ by ", size_diff);
  }
  const int64_t expected = header_size + (rows - 1) * row_size + static_cast<int64_t>(width - 1) * source_channels +
                           source_channels;
  if (expected > static_cast<int64_t>(size)) {
    return errors::InvalidArgument("Incomplete bmp content, requires at least ", expected, " bytes, got ", size,
                                   " bytes");
  }
  DecodedImage image;
  image.height = static_cast<int>(rows);
  image.width = width;
  image.channels = channels;
  uint8_t* dst = image.allocate();
  const auto* pixels = reinterpret_cast<const uint8_t*>(data.data()) + header_size;
  const bool top_down = height < 0;
  for (int64_t y = 0; y < rows; ++y) {
    const uint8_t* src = pixels + (top_down ? y : rows - 1 - y) * row_size;
    for (int x = 0; x < width; ++x, src += source_channels, dst += channels) {
      if (source_channels == 1) {
        dst[0] = src[0];
        if (channels >= 3) dst[1] = dst[2] = src[0];
      } else {
        dst[0] = src[2];  // BGR(A) -> RGB(A)
        dst[1] = src[1];
        dst[2] = src[0];
      }
      if (channels == 4) dst[3] = source_channels == 4 ? src[3] : 255;
    }
  }
  return emit_decoded(c, a, image, false);
}

template <DecodeOp kOp>
Status decode_kernel(KernelContext& c) {
  DecodeAttrs a;
  GRAPHFN_RETURN_IF_ERROR(read_decode_attrs(c, kOp, &a));
  const Tensor& contents = c.input(0);
  if (contents.shape().rank() != 0) {
    return errors::InvalidArgument("`contents` must be scalar but got shape", contents.shape().to_string());
  }
  const std::string& data = contents.data<std::string>()[0];
  if (data.empty()) return errors::InvalidArgument("Input is empty.");
  if (data.size() > 2147483647u) return errors::InvalidArgument("Input contents are too large for int: ", data.size());
  switch (sniff_image_format(data)) {
    case ImageFormat::kJpeg:
      return decode_jpeg_data(c, a, data);
    case ImageFormat::kPng:
      return decode_png_data(c, a, data);
    case ImageFormat::kGif:
      return decode_gif_data(c, a, data);
    case ImageFormat::kBmp:
      return decode_bmp_data(c, a, data);
    case ImageFormat::kWebp:
      return errors::Unimplemented("graphfn cannot decode WebP images yet");
    case ImageFormat::kJxl:
      return errors::Unimplemented("graphfn cannot decode JPEG XL images yet");
    case ImageFormat::kUnknown:
      break;
  }
  return errors::InvalidArgument("Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required.");
}

Status encode_jpeg_kernel(KernelContext& c) {
  const std::string* format_attr = c.attrs.get_string("format");
  const std::string format = format_attr ? *format_attr : "";
  JpegEncodeOptions o;
  o.quality = static_cast<int>(c.attrs.get_int("quality", 95));
  if (o.quality < 0 || o.quality > 100) return errors::InvalidArgument("quality must be in [0,100], got ", o.quality);
  o.progressive = c.attrs.get_bool("progressive", false);
  o.optimize_size = c.attrs.get_bool("optimize_size", false);
  o.chroma_downsampling = c.attrs.get_bool("chroma_downsampling", true);
  const std::string* unit = c.attrs.get_string("density_unit");
  o.density_unit = unit && *unit == "cm" ? 2 : 1;
  o.x_density = static_cast<int>(c.attrs.get_int("x_density", 300));
  o.y_density = static_cast<int>(c.attrs.get_int("y_density", 300));
  if (const std::string* xmp = c.attrs.get_string("xmp_metadata")) o.xmp_metadata = *xmp;

  const Tensor& image = c.input(0);
  const Shape& s = image.shape();
  if (s.rank() != 3) return errors::InvalidArgument("image must be 3-dimensional", s.to_string());
  if (image.num_elements() >= 2147483647) {
    return errors::InvalidArgument("Cannot encode images with >= max int32 elements");
  }
  int channels;
  if (format.empty()) {
    channels = static_cast<int>(s.dim(2));
    if (channels != 1 && channels != 3) {
      return errors::InvalidArgument("image must have 1 or 3 channels, got ", s.to_string());
    }
  } else {
    channels = format == "grayscale" ? 1 : 3;
    if (channels != s.dim(2)) {
      return errors::InvalidArgument("format ", format, " expects ", channels, " channels, got ", s.to_string());
    }
  }
  Tensor& out = c.allocate_output(0);
  return encode_jpeg(image.data<uint8_t>(), static_cast<int>(s.dim(0)), static_cast<int>(s.dim(1)), channels, o,
                     &out.data<std::string>()[0]);
}

// tf.image.adjust_jpeg_quality's encoder: default settings, the quality a tensor.
Status encode_jpeg_variable_quality_kernel(KernelContext& c) {
  const Tensor& image = c.input(0);
  const Shape& s = image.shape();
  if (s.rank() != 3) return errors::InvalidArgument("image must be 3-dimensional", s.to_string());
  if (image.num_elements() >= 2147483647) {
    return errors::InvalidArgument("Cannot encode images with >= max int32 elements");
  }
  const Tensor& quality = c.input(1);
  if (quality.shape().rank() != 0) {
    return errors::InvalidArgument("quality must be scalar: ", quality.shape().to_string());
  }
  JpegEncodeOptions o;
  o.quality = quality.data<int32_t>()[0];
  if (o.quality < 0 || o.quality > 100) return errors::InvalidArgument("quality must be in [0,100], got ", o.quality);
  const int64_t channels = s.dim(2);
  if (channels != 1 && channels != 3) {
    return errors::InvalidArgument("image must have 1 or 3 channels, got ", s.to_string());
  }
  Tensor& out = c.allocate_output(0);
  return encode_jpeg(image.data<uint8_t>(), static_cast<int>(s.dim(0)), static_cast<int>(s.dim(1)),
                     static_cast<int>(channels), o, &out.data<std::string>()[0]);
}

Status encode_png_kernel(KernelContext& c) {
  const int compression = static_cast<int>(c.attrs.get_int("compression", -1));
  if (compression < -1 || compression > 9) {
    return errors::InvalidArgument("compression should be in [-1,9], got ", compression);
  }
  const Tensor& image = c.input(0);
  const Shape& s = image.shape();
  if (s.rank() < 3) return errors::InvalidArgument("images must be at least rank 3", s.to_string());
  if (image.num_elements() >= 2147483647) return errors::InvalidArgument("image cannot have >= int32 max elements");
  const int batch_rank = s.rank() - 3;
  const int64_t height = s.dim(batch_rank), width = s.dim(batch_rank + 1), channels = s.dim(batch_rank + 2);
  if (width * channels >= 2147483647 / 2) return errors::InvalidArgument("image too wide to encode");
  if (channels < 1 || channels > 4) {
    return errors::InvalidArgument("image must have 1, 2, 3, or 4 channels, got ", channels);
  }
  Shape batch;
  int64_t num_images = 1;
  for (int i = 0; i < batch_rank; ++i) {
    batch.add_dim(s.dim(i));
    num_images *= s.dim(i);
  }
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, batch, &out));
  const int64_t image_bytes = height * width * channels;
  std::string failed;
  for (int64_t i = 0; i < num_images; ++i) {
    const Status st = encode_png(image.data<uint8_t>() + i * image_bytes, static_cast<int>(height),
                                 static_cast<int>(width), static_cast<int>(channels), 8, compression,
                                 &out->data<std::string>()[i]);
    if (st.code() == Code::kUnimplemented) return st;
    if (!st.ok()) failed += (failed.empty() ? "" : ", ") + std::to_string(i);
  }
  if (!failed.empty()) {
    return errors::Internal("PNG encoding failed at the following flattened batch indices: ", failed);
  }
  return Status::OK();
}

template <typename T>
Status extract_jpeg_shape_kernel(KernelContext& c) {
  const Tensor& contents = c.input(0);
  if (contents.shape().rank() != 0) {
    return errors::InvalidArgument("contents must be scalar, got shape ", contents.shape().to_string());
  }
  int64_t shape[3];
  GRAPHFN_RETURN_IF_ERROR(jpeg_shape(contents.data<std::string>()[0], shape));
  T* out = c.allocate_output(0).data<T>();
  for (int i = 0; i < 3; ++i) out[i] = static_cast<T>(shape[i]);
  return Status::OK();
}

}  // namespace

void register_image_codec_kernels(OpRegistry& reg) {
  reg.set_kernel("DecodeJpeg", DType::kInvalid, &decode_kernel<DecodeOp::kJpeg>);
  reg.set_kernel("DecodeAndCropJpeg", DType::kInvalid, &decode_kernel<DecodeOp::kCropJpeg>);
  reg.set_kernel("DecodePng", DType::kUInt8, &decode_kernel<DecodeOp::kPng>);
  reg.set_kernel("DecodeGif", DType::kInvalid, &decode_kernel<DecodeOp::kGif>);
  reg.set_kernel("DecodeBmp", DType::kInvalid, &decode_kernel<DecodeOp::kBmp>);
  reg.set_kernel("DecodeImage", DType::kUInt8, &decode_kernel<DecodeOp::kImage>);
  reg.set_kernel("DecodeImage", DType::kFloat32, &decode_kernel<DecodeOp::kImage>);
  reg.set_kernel("EncodeJpeg", DType::kInvalid, &encode_jpeg_kernel);
  reg.set_kernel("EncodeJpegVariableQuality", DType::kInvalid, &encode_jpeg_variable_quality_kernel);
  reg.set_kernel("EncodePng", DType::kUInt8, &encode_png_kernel);
  reg.set_kernel("ExtractJpegShape", DType::kInt32, &extract_jpeg_shape_kernel<int32_t>);
  reg.set_kernel("ExtractJpegShape", DType::kInt64, &extract_jpeg_shape_kernel<int64_t>);
}

}  // namespace graphfn
