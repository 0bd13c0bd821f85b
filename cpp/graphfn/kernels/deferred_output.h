// tf.print's writes to stdout/stderr while a graph runs. A print after a quiet spell goes out at
// once; prints that follow it quickly (a loop printing every iteration) are collected per thread
// and written together (one write() instead of one per print) when the outermost run on the
// thread ends, when a loop starts or ends, or at the next print a tenth of a second on. The order
// of all writes is kept: switching file descriptors, printing to a file or a full buffer writes
// what is pending first. Outside a run (eager tf.print) writes happen at once.
#pragma once
#include <cstdint>
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

// Where stdout/stderr text goes instead of file descriptors 1 and 2 when one is installed: the
// Python bindings install one inside IPython/Jupyter that writes to Python's sys.stdout, so
// tf.print output becomes the cell's output as TensorFlow's "interactive logging" makes it.
// Returns false when it could not take the text (then it goes to the descriptor). Null: none.
using OutputListener = bool (*)(std::string_view text);
void set_output_listener(OutputListener listener);

// For tests: the quiet spell / age limit in nanoseconds (default 100 ms); returns the old one.
int64_t set_output_max_age_ns(int64_t ns);

}  // namespace graphfn
