// DecodeCSV (tf.io.decode_csv): each record split into fields (RFC 4180 quoting when
// use_quote_delim), each field converted to its column's dtype, an empty field or na_value
// taking the column's default. TF 2.21's checks and messages ("Expect 2 fields but have 1 in
// record 1", "Field 0 in record 0 is not a valid int32: x", ...).
#include <cmath>
#include <string>
#include <vector>

#include "graphfn/kernels/csv_fields.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/record_io.h"

namespace graphfn {
namespace {

// Splits one record; `keep(i)` says whether field i is wanted (select_cols).
Status csv_split(const std::string& rec, char delim, bool quotes, const std::vector<int64_t>& select,
                 std::vector<std::string>* fields) {
  fields->clear();
  size_t pos = 0;
  int64_t index = 0;
  size_t next_select = 0;
  const size_t n = rec.size();
  auto wanted = [&](int64_t i) {
    if (select.empty()) return true;
    if (next_select < select.size() && select[next_select] == i) {
      ++next_select;
      return true;
    }
    return false;
  };
  while (pos < n) {
    std::string field;
    if (quotes && rec[pos] == '"') {
      ++pos;
      for (;;) {
        if (pos >= n) return errors::InvalidArgument("Quoted field has to end with quote followed by delim or end");
        if (rec[pos] == '"') {
          if (pos + 1 < n && rec[pos + 1] == '"') {
            field += '"';
            pos += 2;
            continue;
          }
          ++pos;
          if (pos < n && rec[pos] != delim) {
            return errors::InvalidArgument("Quote inside a string has to be escaped by another quote");
          }
          break;
        }
        field += rec[pos++];
      }
    } else {
      const size_t start = pos;
      while (pos < n && rec[pos] != delim) {
        if (quotes && (rec[pos] == '"' || rec[pos] == '\n' || rec[pos] == '\r')) {
          return errors::InvalidArgument("Unquoted fields cannot have quotes/CRLFs inside");
        }
        ++pos;
      }
      field.assign(rec, start, pos - start);
    }
    if (wanted(index)) fields->push_back(std::move(field));
    ++index;
    if (pos < n) {  // at a delimiter: a record ending in one has an empty last field
      ++pos;
      if (pos == n && wanted(index)) fields->emplace_back();
    }
    if (!select.empty() && next_select == select.size()) break;
  }
  return Status::OK();
}

Status decode_csv_kernel(KernelContext& c) {
  const Tensor& records = c.input(0);
  const int num_cols = c.num_inputs - 1;
  const std::string* delim_attr = c.attrs.get_string("field_delim");
  const std::string delim = delim_attr ? *delim_attr : ",";
  if (delim.size() != 1) return errors::InvalidArgument("field_delim should be only 1 char");
  const bool quotes = c.attrs.get_bool("use_quote_delim", true);
  const std::string* na_attr = c.attrs.get_string("na_value");
  const std::string na = na_attr ? *na_attr : "";
  const std::vector<int64_t>* select_attr = c.attrs.get_int_list("select_cols");
  const std::vector<int64_t> select = select_attr ? *select_attr : std::vector<int64_t>{};
  if (!select.empty() && static_cast<int>(select.size()) != num_cols) {
    return errors::InvalidArgument("Length of select_cols and record_defaults do not match.");
  }
  for (size_t i = 0; i < select.size(); ++i) {
    if (select[i] < 0) return errors::InvalidArgument("select_cols contains negative values.");
    if (i > 0 && select[i] <= select[i - 1]) return errors::InvalidArgument("select_cols is not strictly increasing.");
  }
  std::vector<Tensor*> outs(num_cols);
  for (int col = 0; col < num_cols; ++col) {
    const Tensor& d = c.input(col + 1);
    if (d.shape().rank() > 1) return errors::InvalidArgument("Each record default should be at most rank 1");
    if (d.num_elements() > 1) {
      return errors::InvalidArgument("Shape of a default must be a length-0 or length-1 vector, or a scalar.");
    }
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(col, records.shape(), &outs[col]));
  }
  const std::string* recs = records.data<std::string>();
  std::vector<std::string> fields;
  for (int64_t r = 0, n = records.num_elements(); r < n; ++r) {
    GRAPHFN_RETURN_IF_ERROR(csv_split(recs[r], delim[0], quotes, select, &fields));
    if (static_cast<int>(fields.size()) != num_cols) {
      return errors::InvalidArgument("Expect ", num_cols, " fields but have ", fields.size(), " in record ", r);
    }
    for (int col = 0; col < num_cols; ++col) {
      const Tensor& def = c.input(col + 1);
      const std::string& field = fields[col];
      const bool missing = field.empty() || field == na;
      if (missing && def.num_elements() == 0) {
        return errors::InvalidArgument("Field ", col, " is required but missing in record ", r, "!");
      }
      Tensor& out = *outs[col];
      auto invalid = [&](const char* type) {
        return errors::InvalidArgument("Field ", col, " in record ", r, " is not a valid ", type, ": ", utf8_or_escaped(field));
      };
      switch (out.dtype()) {
        case DType::kInt32: {
          int64_t v;
          if (missing) v = def.data<int32_t>()[0];
          else if (!csv::parse_int(field, INT32_MIN, INT32_MAX, &v)) return invalid("int32");
          out.data<int32_t>()[r] = static_cast<int32_t>(v);
          break;
        }
        case DType::kInt64: {
          int64_t v;
          if (missing) v = def.data<int64_t>()[0];
          else if (!csv::parse_int(field, INT64_MIN, INT64_MAX, &v)) return invalid("int64");
          out.data<int64_t>()[r] = v;
          break;
        }
        case DType::kFloat32: {
          double v;
          if (missing) v = def.data<float>()[0];
          else if (!csv::parse_double(field, &v)) return invalid("float");
          out.data<float>()[r] = static_cast<float>(v);
          break;
        }
        case DType::kFloat64: {
          double v;
          if (missing) v = def.data<double>()[0];
          else if (!csv::parse_double(field, &v)) return invalid("double");
          out.data<double>()[r] = v;
          break;
        }
        case DType::kString:
          out.data<std::string>()[r] = missing ? def.data<std::string>()[0] : field;
          break;
        default:
          return errors::InvalidArgument("Value for attr 'OUT_TYPE' of ", dtype_tf_string(out.dtype()),
                                         " is not in the list of allowed values: float, double, int32, int64, string");
      }
    }
  }
  return Status::OK();
}

}  // namespace

void register_csv_kernels(OpRegistry& reg) { reg.set_kernel("DecodeCSV", DType::kInvalid, &decode_csv_kernel); }

}  // namespace graphfn
