// JPEG through the system's libjpeg-turbo, set up as TensorFlow sets up the copy it bundles: the
// same decompression parameters (scaling, upsampling, DCT method, CMYK handling) and the same
// compression parameters, so decoded pixels and encoded bytes match TF's.
//
// libjpeg reports fatal errors through a callback that must not return: it longjmps back to the
// function that started the work. Those functions hold only plain C objects on their own frame
// (what they fill is owned by the caller), so the jump skips no destructor.
#include <algorithm>
#include <cstdio>

#include "graphfn/kernels/image_codecs.h"

#ifdef GRAPHFN_HAVE_JPEG
#include <csetjmp>

#include <jpeglib.h>
#include <jerror.h>
#endif

namespace graphfn {

#ifndef GRAPHFN_HAVE_JPEG

bool jpeg_codec_available() { return false; }

static Status jpeg_missing() {
  return errors::Unimplemented(
      "graphfn was built without libjpeg: JPEG images cannot be decoded or encoded (install libjpeg-turbo's "
      "headers, e.g. Debian's libjpeg62-turbo-dev, and rebuild graphfn)");
}
Status decode_jpeg(const std::string&, const JpegDecodeOptions&, DecodedImage*) { return jpeg_missing(); }
Status jpeg_shape(const std::string&, int64_t*) { return jpeg_missing(); }
Status encode_jpeg(const uint8_t*, int, int, int, const JpegEncodeOptions&, std::string*) { return jpeg_missing(); }

#else

bool jpeg_codec_available() { return true; }

namespace {

struct JpegErrorTrap {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
};

[[noreturn]] void jpeg_trap_exit(j_common_ptr cinfo) {
  std::longjmp(reinterpret_cast<JpegErrorTrap*>(cinfo->err)->jump, 1);
}

void jpeg_quiet(j_common_ptr) {}  // libjpeg would print warnings and errors on stderr

void jpeg_install_trap(JpegErrorTrap* trap) {
  jpeg_std_error(&trap->pub);
  trap->pub.error_exit = jpeg_trap_exit;
  trap->pub.output_message = jpeg_quiet;
}

// The compressed bytes, all in memory. When libjpeg wants more than there is, decoding fails,
// unless the caller asked to recover truncated files: then an end-of-image marker is supplied
// (with libjpeg's "premature end" warning) and libjpeg fills the missing blocks itself.
struct JpegMemorySource {
  jpeg_source_mgr pub;
  const JOCTET* data;
  size_t size;
  bool try_recover;
};

const JOCTET kJpegEndOfImage[2] = {0xFF, JPEG_EOI};

void jpeg_source_start(j_decompress_ptr cinfo) {
  auto* src = reinterpret_cast<JpegMemorySource*>(cinfo->src);
  src->pub.next_input_byte = src->data;
  src->pub.bytes_in_buffer = src->size;
}

boolean jpeg_source_refill(j_decompress_ptr cinfo) {
  auto* src = reinterpret_cast<JpegMemorySource*>(cinfo->src);
  if (!src->try_recover) ERREXIT(cinfo, JERR_FILE_READ);
  WARNMS(cinfo, JWRN_JPEG_EOF);
  src->pub.next_input_byte = kJpegEndOfImage;
  src->pub.bytes_in_buffer = 2;
  return TRUE;
}

void jpeg_source_skip(j_decompress_ptr cinfo, long count) {
  auto* src = reinterpret_cast<JpegMemorySource*>(cinfo->src);
  if (count <= 0) return;
  if (static_cast<size_t>(count) > src->pub.bytes_in_buffer) {
    src->pub.bytes_in_buffer = 0;
    jpeg_source_refill(cinfo);
    return;
  }
  src->pub.next_input_byte += count;
  src->pub.bytes_in_buffer -= static_cast<size_t>(count);
}

void jpeg_source_end(j_decompress_ptr) {}

void jpeg_set_memory_source(j_decompress_ptr cinfo, JpegMemorySource* src, const std::string& data, bool recover) {
  src->pub.init_source = jpeg_source_start;
  src->pub.fill_input_buffer = jpeg_source_refill;
  src->pub.skip_input_data = jpeg_source_skip;
  src->pub.resync_to_restart = jpeg_resync_to_restart;
  src->pub.term_source = jpeg_source_end;
  src->pub.next_input_byte = nullptr;
  src->pub.bytes_in_buffer = 0;
  src->data = reinterpret_cast<const JOCTET*>(data.data());
  src->size = data.size();
  src->try_recover = recover;
  cinfo->src = &src->pub;
}

// CMYK (or YCCK, which libjpeg turns into CMYK) scanlines to RGB, as TF converts them: Adobe's
// files store the inks inverted.
void jpeg_cmyk_row_to_rgb(const JSAMPLE* cmyk, int width, bool adobe, uint8_t* rgb) {
  for (int x = 0; x < width; ++x, cmyk += 4, rgb += 3) {
    const int c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
    if (adobe) {
      rgb[0] = static_cast<uint8_t>(k * c / 255);
      rgb[1] = static_cast<uint8_t>(k * m / 255);
      rgb[2] = static_cast<uint8_t>(k * y / 255);
    } else {
      rgb[0] = static_cast<uint8_t>((255 - k) * (255 - c) / 255);
      rgb[1] = static_cast<uint8_t>((255 - k) * (255 - m) / 255);
      rgb[2] = static_cast<uint8_t>((255 - k) * (255 - y) / 255);
    }
  }
}

// Decodes into out->pixels; false on any failure. `rows_read` is how many rows were decoded.
bool jpeg_decompress(const std::string& data, const JpegDecodeOptions& o, DecodedImage* out, int* rows_read) {
  jpeg_decompress_struct cinfo;
  JpegErrorTrap trap;
  JpegMemorySource source;
  cinfo.err = &trap.pub;
  jpeg_install_trap(&trap);
  if (setjmp(trap.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_set_memory_source(&cinfo, &source, data, o.try_recover_truncated);
  jpeg_read_header(&cinfo, TRUE);

  const int channels = o.channels == 0 ? std::min(cinfo.num_components, 3) : o.channels;
  const bool cmyk = channels == 3 && (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK);
  cinfo.out_color_space = channels == 1 ? JCS_GRAYSCALE : (cmyk ? JCS_CMYK : JCS_RGB);
  cinfo.do_fancy_upsampling = o.fancy_upscaling ? TRUE : FALSE;
  cinfo.scale_num = 1;
  cinfo.scale_denom = static_cast<unsigned>(o.ratio);
  cinfo.dct_method = o.accurate_dct ? JDCT_ISLOW : JDCT_IFAST;
  jpeg_calc_output_dimensions(&cinfo);
  // TF's limits, checked before anything large is allocated.
  const int64_t total = static_cast<int64_t>(cinfo.output_height) * cinfo.output_width * cinfo.num_components;
  if (cinfo.output_width == 0 || cinfo.output_height == 0 || total >= (int64_t{1} << 29)) {
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_start_decompress(&cinfo);

  const int full_width = static_cast<int>(cinfo.output_width);
  int width = full_width;
  int height = static_cast<int>(cinfo.output_height);
  JDIMENSION skipped = 0;
  if (o.crop) {
    if (o.crop_width <= 0 || o.crop_height <= 0 || o.crop_x < 0 || o.crop_y < 0 ||
        o.crop_y + o.crop_height > height || o.crop_x + o.crop_width > full_width) {
      jpeg_destroy_decompress(&cinfo);
      return false;
    }
    width = static_cast<int>(o.crop_width);
    height = static_cast<int>(o.crop_height);
    // libjpeg decodes from the iMCU boundary at or left of crop_x (output_width grows to match);
    // the columns left of the window are dropped when each row is copied out.
    JDIMENSION x = static_cast<JDIMENSION>(o.crop_x), w = static_cast<JDIMENSION>(o.crop_width);
    jpeg_crop_scanline(&cinfo, &x, &w);
    skipped = jpeg_skip_scanlines(&cinfo, static_cast<JDIMENSION>(o.crop_y));
  }
  out->height = height;
  out->width = width;
  out->channels = channels;
  out->bits = 8;
  uint8_t* const pixels = out->allocate();
  const size_t stride = static_cast<size_t>(width) * channels;
  const bool realign = static_cast<JDIMENSION>(width) != cinfo.output_width;
  const size_t realign_offset = (cinfo.output_width - width) * (cmyk ? 4 : channels);
  JSAMPARRAY scratch =
      cmyk || realign
          ? (*cinfo.mem->alloc_sarray)(reinterpret_cast<j_common_ptr>(&cinfo), JPOOL_IMAGE,
                                       cinfo.output_width * (cmyk ? 4 : channels), 1)
          : nullptr;
  const JDIMENSION last = skipped + static_cast<JDIMENSION>(height);
  bool ended_early = false;
  *rows_read = height;
  while (cinfo.output_scanline < last) {
    const int y = static_cast<int>(cinfo.output_scanline - skipped);
    uint8_t* row = pixels + y * stride;
    JSAMPROW target = scratch ? scratch[0] : row;
    if (jpeg_read_scanlines(&cinfo, &target, 1) == 1) {
      if (cmyk) {
        jpeg_cmyk_row_to_rgb(scratch[0] + (realign ? realign_offset : 0), width, cinfo.saw_Adobe_marker, row);
      } else if (realign) {
        std::copy(scratch[0] + realign_offset, scratch[0] + realign_offset + stride, row);
      }
      continue;
    }
    // No row although there are more (a suspending source): TF keeps what was read, or with
    // try_recover_truncated repeats the last row (black when there is none) to the end.
    if (!o.try_recover_truncated) {
      *rows_read = y;
      ended_early = true;
      std::fill(row, pixels + height * stride, uint8_t{0});  // the rows never read are black
    } else {
      for (int r = y; r < height; ++r) {
        uint8_t* dst = pixels + r * stride;
        if (r > 0) {
          std::copy(dst - stride, dst, dst);
        } else {
          std::fill(dst, dst + stride, uint8_t{0});
        }
      }
      cinfo.output_scanline = last;
    }
    break;
  }
  if (o.crop && cinfo.output_scanline < cinfo.output_height) {
    // libjpeg must see every row before it is finished with: skip the rows below the window.
    jpeg_skip_scanlines(&cinfo, cinfo.output_height - cinfo.output_scanline);
  }
  if (ended_early) {
    jpeg_abort(reinterpret_cast<j_common_ptr>(&cinfo));
  } else {
    jpeg_finish_decompress(&cinfo);
  }
  jpeg_destroy_decompress(&cinfo);
  return true;
}

bool jpeg_read_shape(const std::string& data, int64_t shape[3]) {
  jpeg_decompress_struct cinfo;
  JpegErrorTrap trap;
  JpegMemorySource source;
  cinfo.err = &trap.pub;
  jpeg_install_trap(&trap);
  if (setjmp(trap.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_set_memory_source(&cinfo, &source, data, false);
  jpeg_read_header(&cinfo, TRUE);
  jpeg_start_decompress(&cinfo);  // computes the output size (TF reads it from here too)
  shape[0] = cinfo.output_height;
  shape[1] = cinfo.output_width;
  shape[2] = cinfo.output_components;
  jpeg_destroy_decompress(&cinfo);
  return true;
}

// Compressed bytes appended to a string, 64 KiB at a time.
struct JpegStringDestination {
  jpeg_destination_mgr pub;
  std::string* out;
  JOCTET* buffer;
};
constexpr size_t kJpegChunk = 1 << 16;

void jpeg_destination_start(j_compress_ptr cinfo) {
  auto* dest = reinterpret_cast<JpegStringDestination*>(cinfo->dest);
  dest->buffer = static_cast<JOCTET*>(
      (*cinfo->mem->alloc_small)(reinterpret_cast<j_common_ptr>(cinfo), JPOOL_IMAGE, kJpegChunk));
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = kJpegChunk;
}

boolean jpeg_destination_flush(j_compress_ptr cinfo) {
  auto* dest = reinterpret_cast<JpegStringDestination*>(cinfo->dest);
  dest->out->append(reinterpret_cast<const char*>(dest->buffer), kJpegChunk);
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = kJpegChunk;
  return TRUE;
}

void jpeg_destination_end(j_compress_ptr cinfo) {
  auto* dest = reinterpret_cast<JpegStringDestination*>(cinfo->dest);
  dest->out->append(reinterpret_cast<const char*>(dest->buffer), kJpegChunk - dest->pub.free_in_buffer);
}

bool jpeg_compress(const uint8_t* pixels, int height, int width, int channels, const JpegEncodeOptions& o,
                   std::string* out) {
  out->clear();
  if (width <= 0 || height <= 0 || static_cast<int64_t>(width) * height >= (int64_t{1} << 29)) return false;
  jpeg_compress_struct cinfo;
  JpegErrorTrap trap;
  JpegStringDestination dest;
  cinfo.err = &trap.pub;
  jpeg_install_trap(&trap);
  if (setjmp(trap.jump)) {
    jpeg_destroy_compress(&cinfo);
    out->clear();
    return false;
  }
  jpeg_create_compress(&cinfo);
  dest.pub.init_destination = jpeg_destination_start;
  dest.pub.empty_output_buffer = jpeg_destination_flush;
  dest.pub.term_destination = jpeg_destination_end;
  dest.out = out;
  dest.buffer = nullptr;
  cinfo.dest = &dest.pub;

  cinfo.image_width = static_cast<JDIMENSION>(width);
  cinfo.image_height = static_cast<JDIMENSION>(height);
  cinfo.input_components = channels;
  cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&cinfo);
  if (o.optimize_size) cinfo.optimize_coding = TRUE;
  cinfo.density_unit = static_cast<UINT8>(o.density_unit);
  cinfo.X_density = static_cast<UINT16>(o.x_density);
  cinfo.Y_density = static_cast<UINT16>(o.y_density);
  jpeg_set_quality(&cinfo, o.quality, TRUE);
  if (o.progressive) jpeg_simple_progression(&cinfo);
  if (!o.chroma_downsampling) {
    for (int i = 0; i < cinfo.num_components; ++i) {
      cinfo.comp_info[i].h_samp_factor = 1;
      cinfo.comp_info[i].v_samp_factor = 1;
    }
  }
  jpeg_start_compress(&cinfo, TRUE);
  if (!o.xmp_metadata.empty()) {
    // XMP goes in an APP1 segment: Adobe's namespace, a NUL, then the packet.
    static const char kXmpNamespace[] = "http://ns.adobe.com/xap/1.0/";
    const size_t prefix = sizeof(kXmpNamespace);  // with its NUL
    const size_t length = prefix + o.xmp_metadata.size();
    auto* packet = static_cast<JOCTET*>(
        (*cinfo.mem->alloc_large)(reinterpret_cast<j_common_ptr>(&cinfo), JPOOL_IMAGE, length));
    std::copy(kXmpNamespace, kXmpNamespace + prefix, packet);
    std::copy(o.xmp_metadata.begin(), o.xmp_metadata.end(), packet + prefix);
    jpeg_write_marker(&cinfo, JPEG_APP0 + 1, packet, static_cast<unsigned>(length));
  }
  const size_t stride = static_cast<size_t>(width) * channels;
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<JSAMPLE*>(pixels + cinfo.next_scanline * stride);
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  return true;
}

}  // namespace

Status decode_jpeg(const std::string& data, const JpegDecodeOptions& options, DecodedImage* out) {
  int rows_read = 0;
  bool ok = jpeg_decompress(data, options, out, &rows_read);
  if (ok && out->height > 0) {
    const float fraction = static_cast<float>(rows_read) / static_cast<float>(out->height);
    ok = fraction >= std::min(1.0f, options.acceptable_fraction);
  }
  if (!ok) return errors::InvalidArgument("jpeg::Uncompress failed. Invalid JPEG data or crop window.");
  return Status::OK();
}

Status jpeg_shape(const std::string& data, int64_t shape[3]) {
  if (data.empty() || !jpeg_read_shape(data, shape)) {
    return errors::InvalidArgument("Invalid JPEG data, size ", data.size());
  }
  return Status::OK();
}

Status encode_jpeg(const uint8_t* pixels, int height, int width, int channels, const JpegEncodeOptions& options,
                   std::string* out) {
  if (!jpeg_compress(pixels, height, width, channels, options, out)) return errors::Internal("JPEG encoding failed");
  return Status::OK();
}

#endif  // GRAPHFN_HAVE_JPEG

}  // namespace graphfn
