// One CSV field as a number, as TF's DecodeCSV kernel and CsvDataset read it (TF's
// strings::safe_strto*): white space around it is allowed, integers are base 10 within the
// dtype's range, floats are what strtod reads (hexadecimal ones, nan, inf, and out-of-range
// values as inf included). Shared by kernels/csv_kernels.cc and data/csv_reader.cc.
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace graphfn {
namespace csv {

inline bool blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'; }

inline std::string trimmed(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && blank(s[b])) ++b;
  while (e > b && blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

inline bool parse_int(const std::string& text, int64_t lo, int64_t hi, int64_t* out) {
  const std::string t = trimmed(text);
  if (t.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(t.c_str(), &end, 10);
  if (errno != 0 || end != t.c_str() + t.size() || v < lo || v > hi) return false;
  *out = v;
  return true;
}

inline bool parse_double(const std::string& text, double* out) {
  const std::string t = trimmed(text);
  if (t.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size()) return false;
  *out = v;
  return true;
}

}  // namespace csv
}  // namespace graphfn
