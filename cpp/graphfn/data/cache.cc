// Dataset.cache(): the first iterator that reads its input to the end keeps every element, and
// later iterators replay them instead of running the input again. An iterator abandoned part way
// keeps nothing (TF: a partially read cache is not reused). In memory, the elements are shared
// by the dataset's iterators; with a filename, they go to "<filename>.data-00000-of-00001" and
// "<filename>.index" (TF's file names; the contents are graphfn's own format, TFRecord-framed
// elements, which TensorFlow cannot read), written under the lock file "<filename>_0.lockfile"
// so that a second writer fails with TF's AlreadyExists error.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>

#include "graphfn/data/datasets.h"
#include "graphfn/kernels/record_io.h"

namespace graphfn {
namespace data {
namespace {

// ---- In memory ----

using Elements = std::vector<Element>;

struct MemoryCache {
  std::mutex mu;
  std::shared_ptr<const Elements> elements;  // null until an iterator completes
};

class MemoryCacheIterator : public Iterator {
 public:
  MemoryCacheIterator(const DatasetNode& input, std::shared_ptr<MemoryCache> cache) : cache_(std::move(cache)) {
    std::lock_guard<std::mutex> lock(cache_->mu);
    replay_ = cache_->elements;
    if (!replay_) input_ = input.make_iterator();
  }
  Status next(Element* out, bool* end) override {
    if (replay_) {
      *end = row_ >= replay_->size();
      if (!*end) *out = (*replay_)[row_++];
      return Status::OK();
    }
    if (!input_) {
      *end = true;
      return Status::OK();
    }
    Status s = input_->next(out, end);
    if (!s.ok()) {
      input_.reset();
      return s;
    }
    if (!*end) {
      recorded_.push_back(*out);
      return Status::OK();
    }
    input_.reset();
    std::lock_guard<std::mutex> lock(cache_->mu);
    if (!cache_->elements) cache_->elements = std::make_shared<const Elements>(std::move(recorded_));
    return Status::OK();
  }

 private:
  std::shared_ptr<MemoryCache> cache_;
  std::shared_ptr<const Elements> replay_;
  size_t row_ = 0;
  std::unique_ptr<Iterator> input_;
  Elements recorded_;
};

class MemoryCacheDataset : public DatasetNode {
 public:
  explicit MemoryCacheDataset(DatasetPtr input) : input_(std::move(input)), cache_(std::make_shared<MemoryCache>()) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<MemoryCacheIterator>(*input_, cache_);
  }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override { return "CacheDataset"; }

 private:
  DatasetPtr input_;
  std::shared_ptr<MemoryCache> cache_;
};

// ---- In files ----

constexpr char kIndexMagic[] = "graphfn tf.data cache v1\n";

void put_u64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

bool get_u64(const std::string& in, size_t* pos, uint64_t* v) {
  if (in.size() - *pos < 8) return false;
  *v = 0;
  for (int i = 0; i < 8; ++i) *v |= static_cast<uint64_t>(static_cast<unsigned char>(in[*pos + i])) << (8 * i);
  *pos += 8;
  return true;
}

// An element as bytes: count, then per tensor dtype, rank, dims and its values (strings as
// length + bytes).
std::string encode_element(const Element& element) {
  std::string out;
  put_u64(&out, element.size());
  for (const Tensor& t : element) {
    put_u64(&out, static_cast<uint64_t>(t.dtype()));
    put_u64(&out, static_cast<uint64_t>(t.rank()));
    for (int i = 0; i < t.rank(); ++i) put_u64(&out, static_cast<uint64_t>(t.dim(i)));
    if (t.dtype() == DType::kString) {
      const std::string* s = t.data<std::string>();
      for (int64_t i = 0; i < t.num_elements(); ++i) {
        put_u64(&out, s[i].size());
        out += s[i];
      }
    } else {
      out.append(static_cast<const char*>(t.raw_data()), t.bytes());
    }
  }
  return out;
}

Status decode_element(const std::string& bytes, const std::string& path, Element* element) {
  const Status damaged = Status(Code::kDataLoss, errors::cat("damaged tf.data cache file ", path));
  size_t pos = 0;
  uint64_t count;
  if (!get_u64(bytes, &pos, &count) || count > bytes.size()) return damaged;
  element->clear();
  for (uint64_t c = 0; c < count; ++c) {
    uint64_t dtype, rank;
    if (!get_u64(bytes, &pos, &dtype) || !get_u64(bytes, &pos, &rank) || rank > 64) return damaged;
    const DType dt = static_cast<DType>(dtype);
    if (!(is_numeric(dt) || dt == DType::kBool || dt == DType::kString)) return damaged;
    std::vector<int64_t> dims(rank);
    uint64_t elements = 1;
    for (auto& d : dims) {
      uint64_t v;
      if (!get_u64(bytes, &pos, &v) || v > bytes.size() * 8 + 1) return damaged;
      d = static_cast<int64_t>(v);
      if (d != 0 && elements > bytes.size() * 8 / d + 1) return damaged;
      elements *= v;
    }
    if (dt != DType::kString && elements * dtype_size(dt) > bytes.size() - pos) return damaged;
    if (dt == DType::kString && elements * 8 > bytes.size() - pos) return damaged;
    Tensor t;
    GRAPHFN_RETURN_IF_ERROR(Tensor::make(dt, Shape(dims), &t));
    if (dt == DType::kString) {
      std::string* s = t.data<std::string>();
      for (uint64_t i = 0; i < elements; ++i) {
        uint64_t n;
        if (!get_u64(bytes, &pos, &n) || n > bytes.size() - pos) return damaged;
        s[i].assign(bytes, pos, n);
        pos += n;
      }
    } else {
      std::memcpy(t.raw_data(), bytes.data() + pos, t.bytes());
      pos += t.bytes();
    }
    element->push_back(std::move(t));
  }
  return pos == bytes.size() ? Status::OK() : damaged;
}

bool file_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

Status read_small_file(const std::string& path, std::string* out) {
  std::unique_ptr<ByteSource> source;
  GRAPHFN_RETURN_IF_ERROR(open_file_source(path, &source));
  return source->read(1 << 20, out);
}

Status write_small_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return file_error(path, errno);
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  return ok && closed ? Status::OK() : file_error(path, errno);
}

struct CacheFiles {
  std::string data, index, lock, partial;
  explicit CacheFiles(const std::string& prefix)
      : data(prefix + ".data-00000-of-00001"),
        index(prefix + ".index"),
        lock(prefix + "_0.lockfile"),
        partial(prefix + "_0.data-00000-of-00001.partial") {}
};

class FileCacheIterator : public Iterator {
 public:
  // `input` null: only read (Dataset.load).
  FileCacheIterator(const DatasetNode* input, std::string prefix, const std::vector<DType>* dtypes)
      : input_node_(input), files_(prefix), dtypes_(dtypes) {}
  ~FileCacheIterator() override { abandon(); }

  Status next(Element* out, bool* end) override {
    *end = true;
    if (done_) return Status::OK();
    Status s = started_ ? step(out, end) : start_then_step(out, end);
    if (!s.ok() || *end) {
      if (!s.ok()) abandon();
      done_ = true;
    }
    return s;
  }

 private:
  Status start_then_step(Element* out, bool* end) {
    started_ = true;
    if (file_exists(files_.index)) {
      std::string index;
      GRAPHFN_RETURN_IF_ERROR(read_small_file(files_.index, &index));
      if (index.compare(0, sizeof(kIndexMagic) - 1, kIndexMagic) != 0) {
        return Status(Code::kDataLoss, errors::cat(files_.index, " is not a graphfn tf.data cache (graphfn cannot read "
                                                         "TensorFlow's cache files; delete them to rebuild the cache)"));
      }
      GRAPHFN_RETURN_IF_ERROR(RecordReader::open(files_.data, RecordCompression::kNone, &reader_));
      return step(out, end);
    }
    if (!input_node_) return errors::NotFound(files_.index, "; No such file or directory");  // load: nothing saved
    GRAPHFN_RETURN_IF_ERROR(take_lock());
    GRAPHFN_RETURN_IF_ERROR(RecordWriter::open(files_.partial, RecordCompression::kNone, &writer_));
    input_ = input_node_->make_iterator();
    return step(out, end);
  }

  Status take_lock() {
    const int fd = ::open(files_.lock.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 && errno == EEXIST) {
      std::string contents;
      (void)read_small_file(files_.lock, &contents);
      return Status(Code::kAlreadyExists,
                    errors::cat("There appears to be a concurrent caching iterator running - cache lockfile already exists ('",
                        files_.lock, "'). If you are sure no other running TF computations are using this cache "
                        "prefix, delete the lockfile and re-initialize the iterator. Lockfile contents: ", contents));
    }
    if (fd < 0) return file_error(files_.lock, errno);
    const std::string contents = errors::cat("Created at: ", static_cast<int64_t>(std::time(nullptr)));
    const bool ok = ::write(fd, contents.data(), contents.size()) == static_cast<ssize_t>(contents.size());
    ::close(fd);
    locked_ = true;
    return ok ? Status::OK() : file_error(files_.lock, errno);
  }

  Status step(Element* out, bool* end) {
    if (reader_) {
      std::string record;
      Status s = reader_->read(&record);
      if (s.code() == Code::kOutOfRange) return Status::OK();
      GRAPHFN_RETURN_IF_ERROR(s);
      GRAPHFN_RETURN_IF_ERROR(decode_element(record, files_.data, out));
      GRAPHFN_RETURN_IF_ERROR(check_dtypes(*out));
      *end = false;
      return Status::OK();
    }
    GRAPHFN_RETURN_IF_ERROR(input_->next(out, end));
    if (!*end) return writer_->write(encode_element(*out));
    return finish();
  }

  Status check_dtypes(const Element& e) const {
    if (e.size() != dtypes_->size()) {
      return errors::InvalidArgument("Number of components mismatch: expected ", dtypes_->size(), " but got ", e.size(),
                                     " in the cache ", files_.data);
    }
    for (size_t i = 0; i < e.size(); ++i) {
      if (e[i].dtype() != (*dtypes_)[i]) {
        return errors::InvalidArgument("Data type mismatch at component ", i, ": expected ", dtype_name((*dtypes_)[i]),
                                       " but got ", dtype_name(e[i].dtype()), ".");
      }
    }
    return Status::OK();
  }

  // The input is complete: the data file and then the index (which marks the cache complete).
  Status finish() {
    GRAPHFN_RETURN_IF_ERROR(writer_->close());
    writer_.reset();
    if (std::rename(files_.partial.c_str(), files_.data.c_str()) != 0) return file_error(files_.data, errno);
    GRAPHFN_RETURN_IF_ERROR(write_small_file(files_.index, kIndexMagic));
    ::unlink(files_.lock.c_str());
    locked_ = false;
    return Status::OK();
  }

  // Stopped before the end (or failed): the partial files go, nothing is cached.
  void abandon() {
    if (writer_) {
      (void)writer_->close();
      writer_.reset();
      ::unlink(files_.partial.c_str());
    }
    if (locked_) ::unlink(files_.lock.c_str());
    locked_ = false;
    input_.reset();
  }

  const DatasetNode* input_node_;
  CacheFiles files_;
  const std::vector<DType>* dtypes_;
  bool started_ = false, done_ = false, locked_ = false;
  std::unique_ptr<RecordReader> reader_;
  std::unique_ptr<RecordWriter> writer_;
  std::unique_ptr<Iterator> input_;
};

class FileCacheDataset : public DatasetNode {
 public:
  FileCacheDataset(DatasetPtr input, std::string prefix, std::vector<DType> dtypes, int64_t cardinality)
      : input_(std::move(input)), prefix_(std::move(prefix)), dtypes_(std::move(dtypes)), cardinality_(cardinality) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<FileCacheIterator>(input_.get(), prefix_, &dtypes_);
  }
  int64_t cardinality() const override { return input_ ? input_->cardinality() : cardinality_; }
  std::string name() const override { return input_ ? "CacheDatasetV2" : "LoadDataset"; }

 private:
  DatasetPtr input_;  // null: a saved dataset (Dataset.load)
  std::string prefix_;
  std::vector<DType> dtypes_;
  int64_t cardinality_;
};

}  // namespace

DatasetPtr cache_dataset(DatasetPtr input, std::string filename, std::vector<DType> dtypes) {
  if (filename.empty()) return std::make_shared<MemoryCacheDataset>(std::move(input));
  return std::make_shared<FileCacheDataset>(std::move(input), std::move(filename), std::move(dtypes), kUnknown);
}

DatasetPtr load_cache_dataset(std::string prefix, std::vector<DType> dtypes, int64_t cardinality) {
  return std::make_shared<FileCacheDataset>(nullptr, std::move(prefix), std::move(dtypes), cardinality);
}

}  // namespace data
}  // namespace graphfn
