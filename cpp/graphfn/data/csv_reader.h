// The records of one CSV file, as tf.data.experimental.CsvDataset reads them: RFC 4180 quoting
// (a quoted field may hold the delimiter, "" and line breaks), "\n" or "\r\n" ending a record,
// an optional header line skipped, each wanted field converted to its column's dtype with TF
// 2.21's messages ("Field 1 is required but missing in record!", "Expect 3 fields but have more
// in record", ...).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "graphfn/data/dataset.h"
#include "graphfn/kernels/record_io.h"

namespace graphfn {
namespace data {

struct CsvOptions {
  // One per output column: its dtype, and its default (one element) or none (required column).
  std::vector<Tensor> defaults;
  std::vector<int64_t> select_cols;  // increasing column indices, or empty for all columns
  bool header = false;
  std::string delim_text = ",";
  char delim = ',';  // delim_text's one character, set by csv_dataset
  bool use_quote_delim = true;
  std::string na_value;
};

class CsvReader {
 public:
  CsvReader(std::unique_ptr<ByteSource> source, std::shared_ptr<const CsvOptions> options, size_t chunk);
  Status next(Element* out, bool* end);

 private:
  static constexpr int kEof = -1;
  Status peek(int* c);
  Status read_field(std::string* field, bool* record_end);
  Status skip_rest_of_record();
  Status convert(const std::string& field, size_t column, Tensor* out) const;

  std::unique_ptr<ByteSource> source_;
  std::shared_ptr<const CsvOptions> options_;
  size_t chunk_;
  std::string buffer_;
  size_t pos_ = 0;
  bool at_eof_ = false;
  bool started_ = false;
};

}  // namespace data
}  // namespace graphfn
