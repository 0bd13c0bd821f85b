#include "graphfn/runtime/deferred_output.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>

namespace graphfn {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMaxPending = 64 * 1024;
constexpr Clock::duration kMaxAge = std::chrono::milliseconds(100);  // a long loop's prints still show

struct Pending {
  int depth = 0;  // open scopes
  int fd = -1;    // where `text` goes
  std::string text;
  Clock::time_point since;  // when `text` got its first byte
};
thread_local Pending pending;

Status write_all(int fd, std::string_view text) {
  const char* data = text.data();
  const size_t n = text.size();
  size_t done = 0;
  while (done < n) {
    const ssize_t k = ::write(fd, data + done, n - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return errors::Internal("write to fd ", fd, " failed");
    done += static_cast<size_t>(k);
  }
  return Status::OK();
}

}  // namespace

Status flush_output() {
  if (pending.text.empty()) return Status::OK();
  const Status s = write_all(pending.fd, pending.text);
  pending.text.clear();  // keeps its capacity for the next run
  return s;
}

Status write_output(int fd, std::string_view text, std::string_view end) {
  const size_t n = text.size() + end.size();
  if (pending.depth == 0 || n > kMaxPending) {
    GRAPHFN_RETURN_IF_ERROR(flush_output());
    return write_all(fd, std::string(text).append(end));  // one write(), as one line
  }
  if (!pending.text.empty() && (pending.fd != fd || pending.text.size() + n > kMaxPending)) {
    GRAPHFN_RETURN_IF_ERROR(flush_output());
  }
  const Clock::time_point now = Clock::now();
  if (pending.text.empty()) {
    pending.fd = fd;
    pending.since = now;
  }
  pending.text.append(text).append(end);
  return now - pending.since >= kMaxAge ? flush_output() : Status::OK();
}

DeferredOutputScope::DeferredOutputScope() { ++pending.depth; }

DeferredOutputScope::~DeferredOutputScope() { (void)close(); }

Status DeferredOutputScope::close() {
  if (!open_) return Status::OK();
  open_ = false;
  return --pending.depth == 0 ? flush_output() : Status::OK();
}

}  // namespace graphfn
