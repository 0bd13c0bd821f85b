// Status: an error code (TensorFlow's canonical codes) and a message. Errors are values;
// nothing in the core throws or aborts on bad user input.
#pragma once
#include <string>
#include <utility>

namespace graphfn {

enum class Code : int {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status OK() { return Status(); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string to_string() const;

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

const char* code_name(Code code);  // "INVALID_ARGUMENT", ...

// `s` with "<where>: " before its message (OK stays OK): errors say where they happened.
Status with_context(const Status& s, const std::string& where);

// Builds a message from pieces: errors::InvalidArgument("Incompatible shapes: ", a, " vs. ", b).
namespace errors {
namespace internal {
std::string to_text(const std::string& s);
std::string to_text(const char* s);
std::string to_text(long long v);
std::string to_text(long v);
std::string to_text(int v);
std::string to_text(unsigned long v);
std::string to_text(unsigned long long v);
std::string to_text(double v);
template <typename T>
auto to_text(const T& v) -> decltype(v.to_string()) { return v.to_string(); }
}  // namespace internal

template <typename... Args>
std::string cat(const Args&... args) {
  std::string out;
  ((out += internal::to_text(args)), ...);
  return out;
}
template <typename... Args>
Status InvalidArgument(const Args&... args) { return Status(Code::kInvalidArgument, cat(args...)); }
template <typename... Args>
Status NotFound(const Args&... args) { return Status(Code::kNotFound, cat(args...)); }
template <typename... Args>
Status Unimplemented(const Args&... args) { return Status(Code::kUnimplemented, cat(args...)); }
template <typename... Args>
Status Internal(const Args&... args) { return Status(Code::kInternal, cat(args...)); }
template <typename... Args>
Status OutOfRange(const Args&... args) { return Status(Code::kOutOfRange, cat(args...)); }
template <typename... Args>
Status ResourceExhausted(const Args&... args) { return Status(Code::kResourceExhausted, cat(args...)); }
template <typename... Args>
Status FailedPrecondition(const Args&... args) { return Status(Code::kFailedPrecondition, cat(args...)); }
}  // namespace errors

#define GRAPHFN_RETURN_IF_ERROR(expr)            \
  do {                                           \
    ::graphfn::Status _graphfn_status = (expr);  \
    if (!_graphfn_status.ok()) return _graphfn_status; \
  } while (0)

}  // namespace graphfn
