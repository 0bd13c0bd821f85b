#include "graphfn/kernels/record_io.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "graphfn/kernels/crc32c.h"

#if defined(GRAPHFN_HAVE_ZLIB)
#include <zlib.h>
#endif

namespace graphfn {
// Unity builds batch this folder's files: the helpers' names are prefixed to stay distinct.
namespace {

constexpr size_t kRecordHeaderSize = 12;            // length:u64 + masked crc:u32
constexpr size_t kRecordReadChunk = size_t{1} << 20;  // a record's data is read this much at a time

void record_put_u32(uint32_t v, char* out) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(v >> (8 * i));
}
void record_put_u64(uint64_t v, char* out) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(v >> (8 * i));
}
uint32_t record_get_u32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(p[i]);
  return v;
}
uint64_t record_get_u64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(p[i]);
  return v;
}

#if !defined(GRAPHFN_HAVE_ZLIB)
Status record_no_zlib() {
  return errors::Unimplemented("this graphfn was built without zlib: compressed TFRecord files are not available");
}
#endif

class RecordFileSource : public ByteSource {
 public:
  RecordFileSource(std::FILE* f, std::string path) : f_(f), path_(std::move(path)) {}
  ~RecordFileSource() override { std::fclose(f_); }
  Status read(size_t n, std::string* out) override {
    const size_t old = out->size();
    out->resize(old + n);
    const size_t got = std::fread(out->data() + old, 1, n, f_);
    out->resize(old + got);
    if (got < n && std::ferror(f_)) return file_error(path_, errno);
    return Status::OK();
  }

 private:
  std::FILE* f_;
  std::string path_;
};

class RecordStringSource : public ByteSource {
 public:
  explicit RecordStringSource(std::string bytes) : bytes_(std::move(bytes)) {}
  Status read(size_t n, std::string* out) override {
    const size_t take = std::min(n, bytes_.size() - pos_);
    out->append(bytes_, pos_, take);
    pos_ += take;
    return Status::OK();
  }

 private:
  std::string bytes_;
  size_t pos_ = 0;
};

#if defined(GRAPHFN_HAVE_ZLIB)
class RecordInflateSource : public ByteSource {
 public:
  RecordInflateSource(std::unique_ptr<ByteSource> in, RecordCompression kind) : in_(std::move(in)) {
    std::memset(&z_, 0, sizeof(z_));
    // 15-bit window; +16 reads the gzip framing instead of zlib's
    init_ = inflateInit2(&z_, kind == RecordCompression::kGzip ? MAX_WBITS + 16 : MAX_WBITS);
  }
  ~RecordInflateSource() override {
    if (init_ == Z_OK) inflateEnd(&z_);
  }
  Status read(size_t n, std::string* out) override {
    if (init_ != Z_OK) return errors::Internal("inflateInit2 failed with error ", init_);
    const size_t old = out->size();
    out->resize(old + n);
    z_.next_out = reinterpret_cast<Bytef*>(out->data() + old);
    size_t wanted = n;
    while (wanted > 0 && !ended_) {
      if (z_.avail_in == 0) {
        input_.clear();
        GRAPHFN_RETURN_IF_ERROR(in_->read(kInputChunk, &input_));
        if (input_.empty()) break;  // the compressed stream ends early: fewer bytes out
        z_.next_in = reinterpret_cast<Bytef*>(input_.data());
        z_.avail_in = static_cast<uInt>(input_.size());
      }
      const uInt step = static_cast<uInt>(std::min<size_t>(wanted, 1u << 30));
      z_.avail_out = step;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      wanted -= step - z_.avail_out;
      if (rc == Z_STREAM_END) {
        ended_ = true;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        out->resize(old);
        return Status(Code::kDataLoss, "inflate() failed with error " + std::to_string(rc) + ": " +
                                           (z_.msg ? z_.msg : "unknown error"));
      }
    }
    out->resize(old + (n - wanted));
    return Status::OK();
  }

 private:
  static constexpr size_t kInputChunk = 256 * 1024;
  std::unique_ptr<ByteSource> in_;
  z_stream z_;
  int init_;
  bool ended_ = false;
  std::string input_;
};
#endif

}  // namespace

Status parse_record_compression(std::string_view name, RecordCompression* out) {
  if (name.empty()) {
    *out = RecordCompression::kNone;
  } else if (name == "ZLIB") {
    *out = RecordCompression::kZlib;
  } else if (name == "GZIP") {
    *out = RecordCompression::kGzip;
  } else {
    return errors::InvalidArgument("Not a valid compression_type: \"", std::string(name), "\"");
  }
  return Status::OK();
}

std::string utf8_or_escaped(std::string_view bytes) {
  bool valid = true;
  for (size_t i = 0; i < bytes.size() && valid;) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xe ? 3 : (b >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > bytes.size()) {
      valid = false;
      break;
    }
    for (size_t k = 1; k < n; ++k) valid = valid && (static_cast<unsigned char>(bytes[i + k]) >> 6) == 0x2;
    if (n == 2 && b < 0xc2) valid = false;  // overlong
    i += n;
  }
  if (valid) return std::string(bytes);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (char ch : bytes) {
    const auto b = static_cast<unsigned char>(ch);
    if (b < 0x80) {
      out += ch;
    } else {
      out += "\\x";
      out += hex[b >> 4];
      out += hex[b & 15];
    }
  }
  return out;
}

Status file_error(const std::string& path, int err) {
  Code code;
  switch (err) {
    case ENOENT: case ENAMETOOLONG: case ENXIO: case ESRCH: code = Code::kNotFound; break;
    case EACCES: case EPERM: case EROFS: code = Code::kPermissionDenied; break;
    case EEXIST: code = Code::kAlreadyExists; break;
    case EISDIR: case ENOTDIR: case ENOTEMPTY: case EBUSY: case EBADF: case ESPIPE: code = Code::kFailedPrecondition; break;
    case ENOSPC: case EMFILE: case ENFILE: case ENOMEM: case EFBIG: code = Code::kResourceExhausted; break;
    case EINVAL: case E2BIG: case EFAULT: case EILSEQ: case ENOEXEC: code = Code::kInvalidArgument; break;
    case EAGAIN: case EINTR: case EIO: code = Code::kUnavailable; break;
    case ENOSYS: case ENOTSUP: code = Code::kUnimplemented; break;
    default: code = Code::kUnknown; break;
  }
  return Status(code, utf8_or_escaped(path) + "; " + std::strerror(err));
}

Status open_file_source(const std::string& path, std::unique_ptr<ByteSource>* out) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return file_error(path, errno);
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    std::fclose(f);
    return file_error(path, EISDIR);
  }
  *out = std::make_unique<RecordFileSource>(f, path);
  return Status::OK();
}

std::unique_ptr<ByteSource> string_source(std::string bytes) { return std::make_unique<RecordStringSource>(std::move(bytes)); }

std::unique_ptr<ByteSource> inflate_source(std::unique_ptr<ByteSource> compressed, RecordCompression kind) {
#if defined(GRAPHFN_HAVE_ZLIB)
  return std::make_unique<RecordInflateSource>(std::move(compressed), kind);
#else
  (void)kind;
  return compressed;  // RecordReader's constructor refuses compression without zlib
#endif
}

std::string record_header(uint64_t n) {
  std::string h(kRecordHeaderSize, '\0');
  record_put_u64(n, h.data());
  record_put_u32(crc32c_mask(crc32c_extend(0, h.data(), 8)), h.data() + 8);
  return h;
}

std::string record_footer(std::string_view data) {
  std::string f(4, '\0');
  record_put_u32(crc32c_mask(crc32c(data)), f.data());
  return f;
}

// ---- reading

RecordReader::RecordReader(std::unique_ptr<ByteSource> source, RecordCompression compression)
    : compression_(compression) {
  source_ = compression == RecordCompression::kNone ? std::move(source) : inflate_source(std::move(source), compression);
}

Status RecordReader::open(const std::string& path, RecordCompression compression, std::unique_ptr<RecordReader>* out) {
#if !defined(GRAPHFN_HAVE_ZLIB)
  if (compression != RecordCompression::kNone) return record_no_zlib();
#endif
  std::unique_ptr<ByteSource> file;
  GRAPHFN_RETURN_IF_ERROR(open_file_source(path, &file));
  *out = std::make_unique<RecordReader>(std::move(file), compression);
  return Status::OK();
}

Status RecordReader::read(std::string* record) {
#if !defined(GRAPHFN_HAVE_ZLIB)
  if (compression_ != RecordCompression::kNone) return record_no_zlib();
#endif
  const uint64_t start = offset_;
  header_.clear();
  GRAPHFN_RETURN_IF_ERROR(source_->read(kRecordHeaderSize, &header_));
  if (header_.size() < kRecordHeaderSize) return errors::OutOfRange("eof");  // TF ends quietly on a partial header
  if (crc32c_unmask(record_get_u32(header_.data() + 8)) != crc32c_extend(0, header_.data(), 8)) {
    return Status(Code::kDataLoss, "corrupted record at " + std::to_string(start) +
                                       (start == 0 ? " (Is this even a TFRecord file?)" : ""));
  }
  const uint64_t length = record_get_u64(header_.data());
  if (length >= UINT64_MAX - 4) return Status(Code::kDataLoss, "record size too large");
  // The data and its checksum, a chunk at a time, so a huge length costs only the bytes present.
  const uint64_t wanted = length + 4;
  record->clear();
  while (record->size() < wanted) {
    const size_t before = record->size();
    const size_t step = static_cast<size_t>(std::min<uint64_t>(wanted - before, kRecordReadChunk));
    GRAPHFN_RETURN_IF_ERROR(source_->read(step, record));
    if (record->size() - before < step) {
      return Status(Code::kDataLoss, "truncated record at " + std::to_string(start) + "' failed with " +
                                         (compression_ == RecordCompression::kNone ? "Read less bytes than requested"
                                                                                   : "EOF reached"));
    }
  }
  const uint32_t stored = record_get_u32(record->data() + length);
  record->resize(length);
  if (crc32c_unmask(stored) != crc32c(*record)) {
    return Status(Code::kDataLoss, "corrupted record at " + std::to_string(start + kRecordHeaderSize));
  }
  offset_ = start + kRecordHeaderSize + wanted;
  return Status::OK();
}

// ---- writing

struct RecordWriter::Deflater {
#if defined(GRAPHFN_HAVE_ZLIB)
  z_stream z;
  std::string out;
#endif
};

RecordWriter::~RecordWriter() { (void)close(); }

Status RecordWriter::open(const std::string& path, RecordCompression compression, std::unique_ptr<RecordWriter>* out) {
#if !defined(GRAPHFN_HAVE_ZLIB)
  if (compression != RecordCompression::kNone) return record_no_zlib();
#endif
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return file_error(path, errno);
  std::unique_ptr<RecordWriter> w(new RecordWriter());
  w->file_ = f;
  w->path_ = path;
  w->compression_ = compression;
#if defined(GRAPHFN_HAVE_ZLIB)
  if (compression != RecordCompression::kNone) {
    w->deflater_ = std::make_unique<Deflater>();
    std::memset(&w->deflater_->z, 0, sizeof(z_stream));
    // TF's defaults (ZlibCompressionOptions): default level, memLevel 9, 15-bit window, so the
    // compressed bytes equal TF's.
    const int bits = compression == RecordCompression::kGzip ? MAX_WBITS + 16 : MAX_WBITS;
    const int rc = deflateInit2(&w->deflater_->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, bits, 9, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) {
      w->deflater_.reset();
      return errors::Internal("deflateInit2 failed with error ", rc);
    }
  }
#endif
  *out = std::move(w);
  return Status::OK();
}

Status RecordWriter::write_file(const char* data, size_t n) {
  if (n > 0 && std::fwrite(data, 1, n, file_) != n) return file_error(path_, errno);
  return Status::OK();
}

Status RecordWriter::deflate_pending(int flush_mode) {
#if defined(GRAPHFN_HAVE_ZLIB)
  z_stream& z = deflater_->z;
  char buffer[64 * 1024];
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof(buffer);
    const int rc = deflate(&z, flush_mode);
    if (rc == Z_STREAM_ERROR) return errors::Internal("deflate() failed with error ", rc);
    GRAPHFN_RETURN_IF_ERROR(write_file(buffer, sizeof(buffer) - z.avail_out));
    if (flush_mode == Z_FINISH ? rc == Z_STREAM_END : (z.avail_in == 0 && z.avail_out != 0)) break;
  }
#else
  (void)flush_mode;
#endif
  return Status::OK();
}

Status RecordWriter::write_bytes(const char* data, size_t n) {
  if (!deflater_) return write_file(data, n);
#if defined(GRAPHFN_HAVE_ZLIB)
  while (n > 0) {
    const uInt step = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    deflater_->z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
    deflater_->z.avail_in = step;
    GRAPHFN_RETURN_IF_ERROR(deflate_pending(Z_NO_FLUSH));
    data += step;
    n -= step;
  }
#endif
  return Status::OK();
}

Status RecordWriter::write(std::string_view record) {
  if (!file_) return errors::FailedPrecondition("Writer is closed.");
  const std::string header = record_header(record.size());
  const std::string footer = record_footer(record);
  GRAPHFN_RETURN_IF_ERROR(write_bytes(header.data(), header.size()));
  GRAPHFN_RETURN_IF_ERROR(write_bytes(record.data(), record.size()));
  return write_bytes(footer.data(), footer.size());
}

Status RecordWriter::flush() {
  if (!file_) return errors::FailedPrecondition("Writer is closed.");
  // As TF with its default options: compressed output is not forced out (no Z_SYNC_FLUSH), so
  // the file's bytes do not depend on when flush was called.
  if (std::fflush(file_) != 0) return file_error(path_, errno);
  return Status::OK();
}

Status RecordWriter::close() {
  if (!file_) return Status::OK();
  Status s;
#if defined(GRAPHFN_HAVE_ZLIB)
  if (deflater_) {
    deflater_->z.next_in = nullptr;
    deflater_->z.avail_in = 0;
    s = deflate_pending(Z_FINISH);
    deflateEnd(&deflater_->z);
    deflater_.reset();
  }
#endif
  if (std::fclose(file_) != 0 && s.ok()) s = file_error(path_, errno);
  file_ = nullptr;
  return s;
}

}  // namespace graphfn
