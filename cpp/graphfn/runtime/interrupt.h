// Ctrl-C during a graph run. graphfn's C-level SIGINT hook, installed over Python's own handler,
// sets one atomic flag and passes the signal on to the handler it replaced (Python's, which
// then raises KeyboardInterrupt once the caller holds the GIL again). Plans check the flag
// before every step (a relaxed load of a global and a branch), so a long while_loop or a chain
// of large ops stops within one step; a single kernel is never cut short. Only runs inside an
// InterruptScope stop (the caller opens one on Python's main thread, where Python runs signal
// handlers); other threads' runs ignore the flag.
#pragma once
#include <atomic>

#include "graphfn/core/status.h"

namespace graphfn {

namespace interrupt_detail {
extern std::atomic<bool> g_requested;
Status stop_if_interruptible();
}  // namespace interrupt_detail

// OK, or Cancelled when SIGINT arrived during an InterruptScope of this thread.
inline Status check_interrupt() {
  if (__builtin_expect(interrupt_detail::g_requested.load(std::memory_order_relaxed), 0)) {
    return interrupt_detail::stop_if_interruptible();
  }
  return Status::OK();
}

// Installs the hook over the current SIGINT handler unless it is installed already or SIGINT is
// ignored or left to its default action (then Ctrl-C keeps doing what it did). Two system calls:
// call it when compiling, not per run.
void install_sigint_hook();
// Puts the handler the hook replaced back, if the hook is the current handler.
void remove_sigint_hook();

// The runs of this thread stop at SIGINT while the scope lives. No system call: a counter and
// a store. Nests.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  // Whether SIGINT arrived during the scope.
  bool interrupted() const;
};

}  // namespace graphfn
