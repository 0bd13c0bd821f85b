// GIF through the system's giflib (the library TensorFlow bundles): frames read with giflib's
// record-level calls and composed onto one canvas by TF's rules, so decoded pixels equal TF's.
#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "graphfn/kernels/image_codecs.h"

#ifdef GRAPHFN_HAVE_GIF
#include <gif_lib.h>
#endif

namespace graphfn {

#ifndef GRAPHFN_HAVE_GIF

bool gif_codec_available() { return false; }

Status decode_gif(const std::string&, bool, const std::function<Status(int, int, int)>&, DecodedImage*) {
  return errors::Unimplemented(
      "graphfn was built without giflib: GIF images cannot be decoded (install giflib's headers, e.g. Debian's "
      "libgif-dev, and rebuild graphfn)");
}

#else

bool gif_codec_available() { return true; }

namespace {

struct GifInput {
  const uint8_t* data;
  size_t left;
};

int gif_read_from_memory(GifFileType* gif, GifByteType* out, int size) {
  auto* in = static_cast<GifInput*>(gif->UserData);
  const size_t n = std::min(static_cast<size_t>(size < 0 ? 0 : size), in->left);
  std::memcpy(out, in->data, n);
  in->data += n;
  in->left -= n;
  return static_cast<int>(n);
}

const char* gif_error_text(int code) {
  const char* text = GifErrorString(code);
  return text ? text : "Unknown error";
}

// Closes the file however decoding ends.
struct GifFileCloser {
  GifFileType* gif;
  ~GifFileCloser() {
    int ignored;
    if (gif) DGifCloseFile(gif, &ignored);
  }
};

// One frame as read: where it goes on the canvas, its colors, its transparent index (-1: none).
struct GifFrame {
  int left, top, width, height;
  const ColorMapObject* colors;
  int transparent;
  std::vector<uint8_t> indices;
};

// Reads every frame that is complete, as giflib's DGifSlurp does, except that a frame cut short
// by an error is left out (the frames TF 2.21's bundled giflib keeps); the error, if any, is
// in gif->Error. Returns whether the file was read to its end without error.
bool gif_read_frames(GifFileType* gif, std::vector<GifFrame>* frames) {
  GraphicsControlBlock control{DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
  bool have_control = false;  // the first graphics control block since the last frame applies
  for (;;) {
    GifRecordType type;
    if (DGifGetRecordType(gif, &type) == GIF_ERROR) return false;
    if (type == TERMINATE_RECORD_TYPE) return true;
    if (type == EXTENSION_RECORD_TYPE) {
      int function;
      GifByteType* block;
      if (DGifGetExtension(gif, &function, &block) == GIF_ERROR) return false;
      if (block && function == GRAPHICS_EXT_FUNC_CODE && !have_control) {
        have_control = true;
        DGifExtensionToGCB(block[0], block + 1, &control);
      }
      while (block) {
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return false;
      }
      continue;
    }
    if (type != IMAGE_DESC_RECORD_TYPE) continue;
    if (DGifGetImageDesc(gif) == GIF_ERROR) return false;
    const GifImageDesc& desc = gif->Image;
    if (desc.Width <= 0 || desc.Height <= 0 || desc.Width > INT_MAX / desc.Height) return false;
    GifFrame frame{desc.Left, desc.Top, desc.Width, desc.Height,
                   desc.ColorMap ? gif->SavedImages[gif->ImageCount - 1].ImageDesc.ColorMap : gif->SColorMap,
                   control.TransparentColor, {}};
    frame.indices.resize(static_cast<size_t>(desc.Width) * desc.Height);
    if (desc.Interlace) {  // rows in four passes: every 8th from 0, every 8th from 4, every 4th from 2, odd
      static const int kStart[] = {0, 4, 2, 1}, kStep[] = {8, 8, 4, 2};
      for (int pass = 0; pass < 4; ++pass) {
        for (int y = kStart[pass]; y < desc.Height; y += kStep[pass]) {
          if (DGifGetLine(gif, frame.indices.data() + static_cast<size_t>(y) * desc.Width, desc.Width) == GIF_ERROR) {
            return false;
          }
        }
      }
    } else if (DGifGetLine(gif, frame.indices.data(), static_cast<int>(frame.indices.size())) == GIF_ERROR) {
      return false;
    }
    frames->push_back(std::move(frame));
    control = GraphicsControlBlock{DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
    have_control = false;
  }
}

// Decoding more than this (all frames together, as bytes) is refused: an animation's canvas is
// its largest frame times the number of frames, which a small crafted file can make huge.
constexpr uint64_t kGifMaxOutputBytes = uint64_t{1} << 32;

}  // namespace

Status decode_gif(const std::string& data, bool all_frames,
                  const std::function<Status(int frames, int height, int width)>& accept, DecodedImage* out) {
  const auto invalid = [&](const std::string& why) {
    return errors::InvalidArgument("Invalid GIF data (size ", data.size(), "), ", why);
  };
  GifInput input{reinterpret_cast<const uint8_t*>(data.data()), data.size()};
  int code = D_GIF_SUCCEEDED;
  GifFileType* gif = DGifOpen(&input, gif_read_from_memory, &code);
  GifFileCloser closer{gif};
  if (!gif || code != D_GIF_SUCCEEDED) return invalid(std::string("failed to open gif file: ") + gif_error_text(code));
  std::vector<GifFrame> read;
  if (!gif_read_frames(gif, &read)) {
    // As TF: the complete frames of a damaged file still decode, unless the data simply ended.
    if (read.empty() || gif->Error == D_GIF_ERR_EOF_TOO_SOON) {
      return invalid(std::string("failed to slurp gif file: ") + gif_error_text(gif->Error));
    }
  }
  if (read.empty()) return invalid("gif file does not contain any image");
  int width = 0, height = 0;
  for (const GifFrame& f : read) {
    width = std::max(width, f.width);
    height = std::max(height, f.height);
  }
  const int frames = all_frames ? static_cast<int>(read.size()) : 1;
  GRAPHFN_RETURN_IF_ERROR(accept(frames, height, width));
  if (static_cast<uint64_t>(frames) * height * width * 3 >= kGifMaxOutputBytes) {
    return invalid("its frames are too large to decode");
  }
  out->frames = frames;
  out->height = height;
  out->width = width;
  out->channels = 3;
  out->bits = 8;
  uint8_t* const pixels = out->allocate();
  const size_t frame_bytes = static_cast<size_t>(height) * width * 3;
  for (int k = 0; k < frames; ++k) {
    uint8_t* canvas = pixels + k * frame_bytes;
    const GifFrame& f = read[k];
    const bool covers = f.left == 0 && f.top == 0 && f.width == width && f.height == height;
    if (k > 0) {
      std::memcpy(canvas, canvas - frame_bytes, frame_bytes);
    } else if (!covers) {
      std::memset(canvas, 0, frame_bytes);  // the first frame's uncovered canvas is black
    }
    const int left = std::max(f.left, 0), top = std::max(f.top, 0);
    const int right = std::min(f.left + f.width, width), bottom = std::min(f.top + f.height, height);
    if (!f.colors) return invalid("missing color map for frame " + std::to_string(k));
    for (int y = top; y < bottom; ++y) {
      uint8_t* row = canvas + static_cast<size_t>(y) * width * 3;
      for (int x = left; x < right; ++x) {
        const int index = f.indices[static_cast<size_t>(y - f.top) * f.width + static_cast<size_t>(x - f.left)];
        uint8_t* px = row + x * 3;
        if (index == f.transparent) {  // the previous frame shows through
          if (k == 0) px[0] = px[1] = px[2] = 0;
          continue;
        }
        if (index >= f.colors->ColorCount) {
          return invalid("found color index " + std::to_string(index) + " outside of color map range " +
                         std::to_string(f.colors->ColorCount));
        }
        px[0] = f.colors->Colors[index].Red;
        px[1] = f.colors->Colors[index].Green;
        px[2] = f.colors->Colors[index].Blue;
      }
    }
  }
  return Status::OK();
}

#endif  // GRAPHFN_HAVE_GIF

}  // namespace graphfn
