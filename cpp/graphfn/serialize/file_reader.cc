#include "graphfn/serialize/file_reader.h"

#include <filesystem>

namespace graphfn {

Status FileReader::open(const std::string& path) {
  path_ = path;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return errors::NotFound("cannot open ", path, ": not a file");
  size_ = std::filesystem::file_size(path, ec);
  if (ec) return errors::NotFound("cannot open ", path, ": ", ec.message());
  in_.open(path, std::ios::binary);
  if (!in_) return errors::NotFound("cannot open ", path);
  return Status::OK();
}

Status FileReader::read(uint64_t offset, uint64_t n, std::string* out) {
  if (offset > size_ || n > size_ - offset) {
    return errors::Internal("reading bytes [", offset, ", ", offset + n, ") of ", path_, ", which has ", size_);
  }
  out->resize(n);
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(offset));
  if (n) in_.read(out->data(), static_cast<std::streamsize>(n));
  if (!in_ || static_cast<uint64_t>(in_.gcount()) != n) {
    return errors::FailedPrecondition("cannot read ", path_, " (it changed or shrank while being read)");
  }
  return Status::OK();
}

}  // namespace graphfn
