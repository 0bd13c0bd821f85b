#include "graphfn/core/status.h"

#include <cstdio>

namespace graphfn {

const char* code_name(Code code) {
  switch (code) {
    case Code::kOk: return "OK";
    case Code::kCancelled: return "CANCELLED";
    case Code::kUnknown: return "UNKNOWN";
    case Code::kInvalidArgument: return "INVALID_ARGUMENT";
    case Code::kDeadlineExceeded: return "DEADLINE_EXCEEDED";
    case Code::kNotFound: return "NOT_FOUND";
    case Code::kAlreadyExists: return "ALREADY_EXISTS";
    case Code::kPermissionDenied: return "PERMISSION_DENIED";
    case Code::kResourceExhausted: return "RESOURCE_EXHAUSTED";
    case Code::kFailedPrecondition: return "FAILED_PRECONDITION";
    case Code::kAborted: return "ABORTED";
    case Code::kOutOfRange: return "OUT_OF_RANGE";
    case Code::kUnimplemented: return "UNIMPLEMENTED";
    case Code::kInternal: return "INTERNAL";
    case Code::kUnavailable: return "UNAVAILABLE";
    case Code::kDataLoss: return "DATA_LOSS";
    case Code::kUnauthenticated: return "UNAUTHENTICATED";
  }
  return "UNKNOWN";
}

Status with_context(const Status& s, const std::string& where) {
  return s.ok() ? s : Status(s.code(), where + ": " + s.message());
}

std::string Status::to_string() const {
  if (ok()) return "OK";
  return std::string(code_name(code_)) + ": " + message_;
}

namespace errors {
namespace internal {
std::string to_text(const std::string& s) { return s; }
std::string to_text(const char* s) { return s; }
std::string to_text(long long v) { return std::to_string(v); }
std::string to_text(long v) { return std::to_string(v); }
std::string to_text(int v) { return std::to_string(v); }
std::string to_text(unsigned long v) { return std::to_string(v); }
std::string to_text(unsigned long long v) { return std::to_string(v); }
std::string to_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}
}  // namespace internal
}  // namespace errors

}  // namespace graphfn
