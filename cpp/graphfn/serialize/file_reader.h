// Reading a file in parts, so a reader can check a header's claims against the file's real size
// before it reads (and allocates for) the rest: a damaged or hostile header never sizes a read.
#pragma once
#include <cstdint>
#include <fstream>
#include <string>

#include "graphfn/core/status.h"

namespace graphfn {

class FileReader {
 public:
  // NotFound when `path` is not a regular file or cannot be opened.
  Status open(const std::string& path);
  uint64_t size() const { return size_; }
  // Exactly `n` bytes from `offset` (within size()), else an error naming the file.
  Status read(uint64_t offset, uint64_t n, std::string* out);

 private:
  std::string path_;
  std::ifstream in_;
  uint64_t size_ = 0;
};

}  // namespace graphfn
