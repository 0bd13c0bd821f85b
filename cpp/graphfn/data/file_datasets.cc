// File sources: TextLineDataset, TFRecordDataset and CsvDataset. Each reads the files its
// filenames dataset names, one after the other or, with num_parallel_reads > 1, as TF's
// interleave of that many files (one element from each in turn, a finished file's slot taken by
// the next file when the cycle comes back to it). Files are opened when the iterator reaches
// them, so a missing file is TF's NotFound from next(), not from the factory.
#include <functional>

#include "graphfn/data/csv_reader.h"
#include "graphfn/data/datasets.h"
#include "graphfn/kernels/record_io.h"

namespace graphfn {
namespace data {
namespace {

constexpr int64_t kDefaultBufferSize = 256 * 1024;

// The elements one file holds.
class FileReader {
 public:
  virtual ~FileReader() = default;
  virtual Status next(Element* out, bool* end) = 0;
};

// Opens the reader of one file (the file named by a scalar string tensor).
using FileOpener = std::function<Status(const std::string& path, std::unique_ptr<FileReader>* out)>;

// Reads bytes from `source` and splits them into lines (TF's ReadLine: "\n" ends a line, a
// "\r" before it is dropped, the last line needs no "\n").
class LineReader : public FileReader {
 public:
  LineReader(std::unique_ptr<ByteSource> source, size_t chunk) : source_(std::move(source)), chunk_(chunk) {}
  Status next(Element* out, bool* end) override {
    for (;;) {
      const size_t newline = buffer_.find('\n', pos_);
      if (newline != std::string::npos) {
        emit(newline, newline + 1, out);
        *end = false;
        return Status::OK();
      }
      if (at_eof_) {
        *end = pos_ >= buffer_.size();
        if (!*end) emit(buffer_.size(), buffer_.size(), out);
        return Status::OK();
      }
      buffer_.erase(0, pos_);
      pos_ = 0;
      const size_t before = buffer_.size();
      GRAPHFN_RETURN_IF_ERROR(source_->read(chunk_, &buffer_));
      if (buffer_.size() - before < chunk_) at_eof_ = true;
    }
  }

 private:
  void emit(size_t line_end, size_t next_pos, Element* out) {
    size_t stop = line_end;
    if (stop > pos_ && buffer_[stop - 1] == '\r') --stop;
    out->assign(1, Tensor::scalar<std::string>(buffer_.substr(pos_, stop - pos_)));
    pos_ = next_pos;
  }

  std::unique_ptr<ByteSource> source_;
  size_t chunk_;
  std::string buffer_;
  size_t pos_ = 0;
  bool at_eof_ = false;
};

class RecordFileReader : public FileReader {
 public:
  explicit RecordFileReader(std::unique_ptr<RecordReader> reader) : reader_(std::move(reader)) {}
  Status next(Element* out, bool* end) override {
    std::string record;
    Status s = reader_->read(&record);
    if (s.code() == Code::kOutOfRange) {
      *end = true;
      return Status::OK();
    }
    GRAPHFN_RETURN_IF_ERROR(s);
    out->assign(1, Tensor::scalar<std::string>(std::move(record)));
    *end = false;
    return Status::OK();
  }

 private:
  std::unique_ptr<RecordReader> reader_;
};

class CsvFileReader : public FileReader {
 public:
  CsvFileReader(std::unique_ptr<ByteSource> source, std::shared_ptr<const CsvOptions> options, size_t chunk)
      : reader_(std::move(source), std::move(options), chunk) {}
  Status next(Element* out, bool* end) override { return reader_.next(out, end); }

 private:
  CsvReader reader_;
};

Status open_bytes(const std::string& path, RecordCompression compression, std::unique_ptr<ByteSource>* out) {
  GRAPHFN_RETURN_IF_ERROR(open_file_source(path, out));
  if (compression != RecordCompression::kNone) *out = inflate_source(std::move(*out), compression);
  return Status::OK();
}

// TF's interleave over the files (cycle_length = num_parallel_reads, block_length 1).
class FileListIterator : public Iterator {
 public:
  FileListIterator(std::unique_ptr<Iterator> filenames, const FileOpener* open, int64_t cycle_length)
      : filenames_(std::move(filenames)), open_(open), slots_(static_cast<size_t>(cycle_length)) {}

  Status next(Element* out, bool* end) override {
    if (failed_) {
      *end = true;
      return Status::OK();
    }
    Status s = advance(out, end);
    if (!s.ok()) failed_ = true;
    return s;
  }

 private:
  Status advance(Element* out, bool* end) {
    while (!filenames_done_ || open_count_ > 0) {
      std::unique_ptr<FileReader>& slot = slots_[index_];
      if (slot) {
        bool file_end = false;
        GRAPHFN_RETURN_IF_ERROR(slot->next(out, &file_end));
        if (file_end) {
          slot.reset();
          --open_count_;
        }
        index_ = (index_ + 1) % slots_.size();
        if (!file_end) {
          *end = false;
          return Status::OK();
        }
      } else if (!filenames_done_) {
        Element name;
        bool names_end = false;
        GRAPHFN_RETURN_IF_ERROR(filenames_->next(&name, &names_end));
        if (names_end) {
          filenames_done_ = true;
          continue;
        }
        if (name.size() != 1 || name[0].dtype() != DType::kString || name[0].num_elements() != 1) {
          return errors::InvalidArgument("`filenames` must be a scalar or a vector of strings");
        }
        GRAPHFN_RETURN_IF_ERROR((*open_)(name[0].data<std::string>()[0], &slot));
        ++open_count_;
      } else {
        index_ = (index_ + 1) % slots_.size();
      }
    }
    *end = true;
    return Status::OK();
  }

  std::unique_ptr<Iterator> filenames_;
  const FileOpener* open_;  // owned by the dataset, which outlives its iterators
  std::vector<std::unique_ptr<FileReader>> slots_;
  size_t index_ = 0;
  int64_t open_count_ = 0;
  bool filenames_done_ = false;
  bool failed_ = false;
};

class FileDataset : public DatasetNode {
 public:
  FileDataset(DatasetPtr filenames, FileOpener open, int64_t num_parallel_reads, std::string name)
      : filenames_(std::move(filenames)), open_(std::move(open)),
        cycle_length_(num_parallel_reads > 1 ? num_parallel_reads : 1), name_(std::move(name)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<FileListIterator>(filenames_->make_iterator(), &open_, cycle_length_);
  }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return name_; }

 private:
  DatasetPtr filenames_;
  FileOpener open_;
  int64_t cycle_length_;
  std::string name_;
};

}  // namespace

DatasetPtr text_line_dataset(DatasetPtr filenames, std::string compression, int64_t buffer_size,
                             int64_t num_parallel_reads) {
  const size_t chunk = static_cast<size_t>(buffer_size > 0 ? buffer_size : kDefaultBufferSize);
  FileOpener open = [compression, chunk](const std::string& path, std::unique_ptr<FileReader>* out) {
    RecordCompression kind;
    // As TF: an unknown compression_type fails when the first file is read.
    if (!parse_record_compression(compression, &kind).ok()) return errors::InvalidArgument("Unsupported compression_type.");
    std::unique_ptr<ByteSource> bytes;
    GRAPHFN_RETURN_IF_ERROR(open_bytes(path, kind, &bytes));
    *out = std::make_unique<LineReader>(std::move(bytes), chunk);
    return Status::OK();
  };
  return std::make_shared<FileDataset>(std::move(filenames), std::move(open), num_parallel_reads, "TextLineDataset");
}

DatasetPtr tfrecord_dataset(DatasetPtr filenames, std::string compression, int64_t buffer_size,
                            int64_t num_parallel_reads) {
  FileOpener open = [compression, buffer_size](const std::string& path, std::unique_ptr<FileReader>* out) {
    if (buffer_size < 0) return errors::InvalidArgument("`buffer_size` must be >= 0 (0 == no buffering)");
    // TF 2.21 reads a TFRecord file with an unknown compression_type as uncompressed.
    RecordCompression kind = RecordCompression::kNone;
    if (!parse_record_compression(compression, &kind).ok()) kind = RecordCompression::kNone;
    std::unique_ptr<RecordReader> reader;
    GRAPHFN_RETURN_IF_ERROR(RecordReader::open(path, kind, &reader));
    *out = std::make_unique<RecordFileReader>(std::move(reader));
    return Status::OK();
  };
  return std::make_shared<FileDataset>(std::move(filenames), std::move(open), num_parallel_reads, "TFRecordDataset");
}

Status csv_dataset(DatasetPtr filenames, std::string compression, int64_t buffer_size, CsvOptions options,
                   int64_t num_parallel_reads, DatasetPtr* out) {
  if (buffer_size == 0 || buffer_size < -1) return errors::InvalidArgument("buffer_size should be positive");
  if (options.delim_text.size() != 1) return errors::InvalidArgument("field_delim should be only 1 char");
  options.delim = options.delim_text[0];
  const size_t n = options.defaults.size();
  if (!options.select_cols.empty() && options.select_cols.size() != n) {
    return errors::InvalidArgument("select_cols should match output size");
  }
  for (size_t i = 0; i < options.select_cols.size(); ++i) {
    if (options.select_cols[i] < 0 || (i > 0 && options.select_cols[i] <= options.select_cols[i - 1])) {
      return errors::InvalidArgument("select_cols should be strictly increasing indices");
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const Tensor& d = options.defaults[i];
    if (d.num_elements() > 1) {
      return errors::InvalidArgument("There should only be 1 default per field but field ", i, " has ", d.num_elements());
    }
    switch (d.dtype()) {
      case DType::kInt32: case DType::kInt64: case DType::kFloat32: case DType::kFloat64: case DType::kString: break;
      default:
        return errors::InvalidArgument("Unsupported output type ", dtype_name(d.dtype()), " in record_defaults");
    }
  }
  RecordCompression kind;
  GRAPHFN_RETURN_IF_ERROR(parse_record_compression(compression, &kind));
  const size_t chunk = static_cast<size_t>(buffer_size > 0 ? buffer_size : kDefaultBufferSize);
  auto shared = std::make_shared<const CsvOptions>(std::move(options));
  FileOpener open = [shared, kind, chunk](const std::string& path, std::unique_ptr<FileReader>* reader) {
    std::unique_ptr<ByteSource> bytes;
    GRAPHFN_RETURN_IF_ERROR(open_bytes(path, kind, &bytes));
    *reader = std::make_unique<CsvFileReader>(std::move(bytes), shared, chunk);
    return Status::OK();
  };
  *out = std::make_shared<FileDataset>(std::move(filenames), std::move(open), num_parallel_reads, "CSVDatasetV2");
  return Status::OK();
}

}  // namespace data
}  // namespace graphfn
