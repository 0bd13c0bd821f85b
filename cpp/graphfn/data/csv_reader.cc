#include "graphfn/data/csv_reader.h"

#include <climits>

#include "graphfn/kernels/csv_fields.h"

namespace graphfn {
namespace data {

CsvReader::CsvReader(std::unique_ptr<ByteSource> source, std::shared_ptr<const CsvOptions> options, size_t chunk)
    : source_(std::move(source)), options_(std::move(options)), chunk_(chunk) {}

Status CsvReader::peek(int* c) {
  while (pos_ >= buffer_.size() && !at_eof_) {
    buffer_.clear();
    pos_ = 0;
    GRAPHFN_RETURN_IF_ERROR(source_->read(chunk_, &buffer_));
    if (buffer_.size() < chunk_) at_eof_ = true;
  }
  *c = pos_ < buffer_.size() ? static_cast<unsigned char>(buffer_[pos_]) : kEof;
  return Status::OK();
}

Status CsvReader::read_field(std::string* field, bool* record_end) {
  const CsvOptions& o = *options_;
  field->clear();
  int c;
  GRAPHFN_RETURN_IF_ERROR(peek(&c));
  if (o.use_quote_delim && c == '"') {
    ++pos_;
    for (;;) {
      GRAPHFN_RETURN_IF_ERROR(peek(&c));
      if (c == kEof) return errors::InvalidArgument("Reached end of file without closing quoted field in record");
      ++pos_;
      if (c != '"') {
        *field += static_cast<char>(c);
        continue;
      }
      int after;
      GRAPHFN_RETURN_IF_ERROR(peek(&after));
      if (after == '"') {  // "" inside quotes is one quote
        ++pos_;
        *field += '"';
        continue;
      }
      if (after == o.delim) {
        ++pos_;
        *record_end = false;
        return Status::OK();
      }
      if (after == kEof || after == '\n' || after == '\r') {
        *record_end = true;
        if (after == kEof) return Status::OK();
        ++pos_;
        if (after == '\r') {
          GRAPHFN_RETURN_IF_ERROR(peek(&after));
          if (after == '\n') ++pos_;
        }
        return Status::OK();
      }
      // TF 2.21's text for a closing quote followed by other characters.
      return errors::InvalidArgument("Reached end of file without closing quoted field in record");
    }
  }
  for (;;) {
    GRAPHFN_RETURN_IF_ERROR(peek(&c));
    if (c == kEof) {
      *record_end = true;
      return Status::OK();
    }
    ++pos_;
    if (c == o.delim) {
      *record_end = false;
      return Status::OK();
    }
    if (c == '\n' || c == '\r') {
      if (c == '\r') {
        GRAPHFN_RETURN_IF_ERROR(peek(&c));
        if (c == '\n') ++pos_;
      }
      *record_end = true;
      return Status::OK();
    }
    if (o.use_quote_delim && c == '"') return errors::InvalidArgument("Unquoted fields cannot have quotes inside");
    *field += static_cast<char>(c);
  }
}

Status CsvReader::skip_rest_of_record() {
  std::string ignored;
  bool record_end = false;
  while (!record_end) GRAPHFN_RETURN_IF_ERROR(read_field(&ignored, &record_end));
  return Status::OK();
}

Status CsvReader::convert(const std::string& field, size_t column, Tensor* out) const {
  const Tensor& def = options_->defaults[column];
  const bool missing = field.empty() || field == options_->na_value;
  if (missing && def.num_elements() == 0) {
    return errors::InvalidArgument("Field ", column, " is required but missing in record!");
  }
  auto invalid = [&](const char* type) {
    return errors::InvalidArgument("Field ", column, " in record is not a valid ", type, ": ", utf8_or_escaped(field));
  };
  switch (def.dtype()) {
    case DType::kInt32: {
      int64_t v = 0;
      if (missing) v = def.data<int32_t>()[0];
      else if (!csv::parse_int(field, INT32_MIN, INT32_MAX, &v)) return invalid("int32");
      *out = Tensor::scalar<int32_t>(static_cast<int32_t>(v));
      return Status::OK();
    }
    case DType::kInt64: {
      int64_t v = 0;
      if (missing) v = def.data<int64_t>()[0];
      else if (!csv::parse_int(field, LLONG_MIN, LLONG_MAX, &v)) return invalid("int64");
      *out = Tensor::scalar<int64_t>(v);
      return Status::OK();
    }
    case DType::kFloat32: {
      double v = 0;
      if (missing) v = def.data<float>()[0];
      else if (!csv::parse_double(field, &v)) return invalid("float");
      *out = Tensor::scalar<float>(static_cast<float>(v));
      return Status::OK();
    }
    case DType::kFloat64: {
      double v = 0;
      if (missing) v = def.data<double>()[0];
      else if (!csv::parse_double(field, &v)) return invalid("double");
      *out = Tensor::scalar<double>(v);
      return Status::OK();
    }
    case DType::kString:
      *out = Tensor::scalar<std::string>(missing ? def.data<std::string>()[0] : field);
      return Status::OK();
    default:
      return errors::InvalidArgument("Unsupported output type ", dtype_name(def.dtype()));
  }
}

Status CsvReader::next(Element* out, bool* end) {
  const CsvOptions& o = *options_;
  if (!started_) {
    started_ = true;
    int first;
    GRAPHFN_RETURN_IF_ERROR(peek(&first));
    // The header is a record too (its quoted names may hold delimiters and line breaks).
    if (o.header && first != kEof) GRAPHFN_RETURN_IF_ERROR(skip_rest_of_record());
  }
  int c;
  GRAPHFN_RETURN_IF_ERROR(peek(&c));
  if (c == kEof) {
    *end = true;
    return Status::OK();
  }
  const size_t wanted = o.defaults.size();
  out->clear();
  out->reserve(wanted);
  std::string field;
  bool record_end = false;
  for (int64_t column = 0; !record_end; ++column) {
    const bool selected = o.select_cols.empty() || (out->size() < wanted && o.select_cols[out->size()] == column);
    if (o.select_cols.empty() && out->size() == wanted) {
      return errors::InvalidArgument("Expect ", wanted, " fields but have more in record");
    }
    GRAPHFN_RETURN_IF_ERROR(read_field(&field, &record_end));
    if (!selected) continue;
    Tensor value;
    GRAPHFN_RETURN_IF_ERROR(convert(field, out->size(), &value));
    out->push_back(std::move(value));
    if (!o.select_cols.empty() && out->size() == wanted && !record_end) {
      GRAPHFN_RETURN_IF_ERROR(skip_rest_of_record());
      record_end = true;
    }
  }
  if (out->size() < wanted) {
    return errors::InvalidArgument("Expect ", wanted, " fields but have ", out->size(), " in record");
  }
  *end = false;
  return Status::OK();
}

}  // namespace data
}  // namespace graphfn
