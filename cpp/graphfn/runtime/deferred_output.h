// tf.print's writes to stdout/stderr while a graph runs: collected per thread and written when
// the outermost run on that thread ends (one write() instead of one per print in a loop). The
// order of all writes is kept: switching file descriptors, printing to a file, a full buffer or
// a buffer older than a tenth of a second writes what is pending first. Outside a run (eager
// tf.print) writes happen at once.
#pragma once
#include <string_view>

#include "graphfn/core/status.h"

namespace graphfn {

// Writes `text` then `end` to `fd` (1 or 2), or defers them while a DeferredOutputScope is open
// on this thread.
Status write_output(int fd, std::string_view text, std::string_view end = {});
// Writes whatever this thread deferred.
Status flush_output();

// Opened by each graph run; nested scopes (a run inside a run) flush with the outermost one.
class DeferredOutputScope {
 public:
  DeferredOutputScope();
  ~DeferredOutputScope();  // flushes if close() was not called (an error stopped the run)
  // Ends the scope; the outermost one writes what is pending and reports a failed write.
  Status close();
  DeferredOutputScope(const DeferredOutputScope&) = delete;
  DeferredOutputScope& operator=(const DeferredOutputScope&) = delete;

 private:
  bool open_ = true;
};

}  // namespace graphfn
