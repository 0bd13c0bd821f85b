// Little-endian byte encoding for the saved-graph format (docs/saving.md): fixed-width
// integers, LEB128 varints, length-prefixed strings, and a CRC-32. ByteReader never reads past
// its end or trusts a count: every read is checked and fails with a DataLoss status naming the
// offset, so truncated or hostile input gives an error, not a crash or a huge allocation.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "graphfn/core/status.h"

namespace graphfn {

uint32_t crc32(std::string_view bytes);

class ByteWriter {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(uint32_t v);
  void u64(uint64_t v);
  void f64(double v);
  void varint(uint64_t v);
  void svarint(int64_t v);  // zigzag, so small negative numbers stay short
  void string(std::string_view s);  // varint length, then the bytes
  void bytes(const void* data, size_t n) { out_.append(static_cast<const char*>(data), n); }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}

  Status u8(uint8_t* v);
  Status u32(uint32_t* v);
  Status u64(uint64_t* v);
  Status f64(double* v);
  Status varint(uint64_t* v);
  Status svarint(int64_t* v);
  Status string(std::string* s, const char* what);
  // A string that names something (a node, an attr, a signature input): non-empty UTF-8.
  Status name(std::string* s, const char* what);
  // A count of items that take at least `min_item_bytes` each: fails if the rest of the input
  // could not hold them (so a hostile count never sizes an allocation) or it exceeds `limit`.
  Status count(int64_t* n, const char* what, int64_t limit, int64_t min_item_bytes = 1);
  // An index in [0, size): fails naming `what` otherwise.
  Status index(int64_t size, int64_t* i, const char* what);
  Status bytes(void* data, size_t n, const char* what);

  size_t offset() const { return pos_; }
  size_t remaining() const { return in_.size() - pos_; }
  bool at_end() const { return pos_ == in_.size(); }
  // A DataLoss status "<message> (at byte N)".
  Status corrupt(const std::string& message) const;

 private:
  Status need(size_t n, const char* what);
  std::string_view in_;
  size_t pos_ = 0;
};

}  // namespace graphfn
