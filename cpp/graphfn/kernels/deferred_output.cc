#include "graphfn/kernels/deferred_output.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <ctime>
#include <string>

namespace graphfn {
namespace {

constexpr size_t kMaxPending = 64 * 1024;
std::atomic<int64_t> max_age_ns{100 * 1000 * 1000};

// A coarse clock (a few ms resolution) costs a few ns: read at every print.
int64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

struct Pending {
  int depth = 0;  // open scopes
  int fd = -1;    // where `text` goes
  std::string text;
  int64_t since = 0;  // when `text` got its first byte
  int64_t last_write = INT64_MIN / 2;  // when this thread last wrote output (a write() call)
};
thread_local Pending pending;
std::atomic<OutputListener> output_listener{nullptr};

Status write_all(int fd, std::string_view text) {
  if (OutputListener listener = output_listener.load(std::memory_order_acquire)) {
    if ((fd == 1 || fd == 2) && listener(text)) return Status::OK();
  }
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
  pending.last_write = now_ns();
  return s;
}

Status write_output(int fd, std::string_view text, std::string_view end) {
  const size_t n = text.size() + end.size();
  const int64_t now = now_ns();
  const int64_t max_age = max_age_ns.load(std::memory_order_relaxed);
  // At once: outside a run, a huge text, or the first print after a quiet spell (a loop that
  // prints, then works for a while, shows its line as it goes).
  const bool quiet = pending.text.empty() && now - pending.last_write >= max_age;
  if (pending.depth == 0 || n > kMaxPending || quiet) {
    GRAPHFN_RETURN_IF_ERROR(flush_output());
    pending.last_write = now;
    return write_all(fd, std::string(text).append(end));  // one write(), as one line
  }
  if (!pending.text.empty() && (pending.fd != fd || pending.text.size() + n > kMaxPending)) {
    GRAPHFN_RETURN_IF_ERROR(flush_output());
  }
  if (pending.text.empty()) {
    pending.fd = fd;
    pending.since = now;
  }
  pending.text.append(text).append(end);
  return now - pending.since >= max_age ? flush_output() : Status::OK();
}

void set_output_listener(OutputListener listener) { output_listener.store(listener, std::memory_order_release); }

int64_t set_output_max_age_ns(int64_t ns) { return max_age_ns.exchange(ns); }

DeferredOutputScope::DeferredOutputScope() { ++pending.depth; }

DeferredOutputScope::~DeferredOutputScope() { (void)close(); }

Status DeferredOutputScope::close() {
  if (!open_) return Status::OK();
  open_ = false;
  return --pending.depth == 0 ? flush_output() : Status::OK();
}

}  // namespace graphfn
