// TFRecord files: TensorFlow's record framing, optionally inside a zlib or gzip stream.
//
//   record := length:u64le  masked_crc32c(length):u32le  data[length]  masked_crc32c(data):u32le
//
// RecordReader is what tf.compat.v1.io.tf_record_iterator (and a TFRecordDataset) reads with;
// RecordWriter is tf.io.TFRecordWriter. Errors carry TF 2.21's codes and texts: a missing file is
// NotFound "<path>; No such file or directory"; a bad checksum is DataLoss "corrupted record at
// <offset>"; data cut short is DataLoss "truncated record at <offset>' failed with ..."; a header
// cut short ends the file quietly (OutOfRange, as TF). Never more memory than the bytes present:
// a huge length field reads in chunks until the data runs out.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "graphfn/core/status.h"

namespace graphfn {

enum class RecordCompression { kNone, kZlib, kGzip };

// "" / "ZLIB" / "GZIP" (TFRecordOptions' compression_type strings); else InvalidArgument.
Status parse_record_compression(std::string_view name, RecordCompression* out);

// Where a reader's bytes come from. read() appends up to n bytes; fewer only at the end.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual Status read(size_t n, std::string* out) = 0;
};

// A file opened for reading, with TF's errors for a missing path or a directory.
Status open_file_source(const std::string& path, std::unique_ptr<ByteSource>* out);
// Bytes held in memory (tests, fuzzing).
std::unique_ptr<ByteSource> string_source(std::string bytes);
// Inflates `compressed` (zlib or gzip framing).
std::unique_ptr<ByteSource> inflate_source(std::unique_ptr<ByteSource> compressed, RecordCompression kind);

class RecordReader {
 public:
  RecordReader(std::unique_ptr<ByteSource> source, RecordCompression compression);
  static Status open(const std::string& path, RecordCompression compression, std::unique_ptr<RecordReader>* out);

  // The next record; OutOfRange("eof") after the last; DataLoss for a damaged file.
  Status read(std::string* record);
  // Offset of the next record in the (uncompressed) stream.
  uint64_t offset() const { return offset_; }

 private:
  std::unique_ptr<ByteSource> source_;
  RecordCompression compression_;
  uint64_t offset_ = 0;
  std::string header_;
};

class RecordWriter {
 public:
  ~RecordWriter();
  static Status open(const std::string& path, RecordCompression compression, std::unique_ptr<RecordWriter>* out);

  Status write(std::string_view record);
  Status flush();
  Status close();  // idempotent
  bool closed() const { return file_ == nullptr; }

 private:
  RecordWriter() = default;
  Status write_bytes(const char* data, size_t n);  // through the compressor, if any
  Status write_file(const char* data, size_t n);
  Status deflate_pending(int flush_mode);

  std::FILE* file_ = nullptr;
  std::string path_;
  RecordCompression compression_ = RecordCompression::kNone;
  struct Deflater;
  std::unique_ptr<Deflater> deflater_;
};

// The header of a record of `n` bytes and the trailer of `data` (for writers that frame records
// themselves).
std::string record_header(uint64_t n);
std::string record_footer(std::string_view data);

// `bytes` unchanged when it is valid UTF-8, else with every byte >= 0x80 written as \xNN: error
// messages quote user bytes (TF quotes them raw, which Python then fails to decode).
std::string utf8_or_escaped(std::string_view bytes);

// TF's Status for a failed file operation on `path`: "<path>; <strerror>" with the code TF maps
// the errno to (ENOENT NotFound, EACCES PermissionDenied, EISDIR FailedPrecondition, ...).
Status file_error(const std::string& path, int err);

}  // namespace graphfn
