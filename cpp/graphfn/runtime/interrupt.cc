#include "graphfn/runtime/interrupt.h"

#include <signal.h>

namespace graphfn {
namespace interrupt_detail {

std::atomic<bool> g_requested{false};

namespace {

thread_local int t_depth = 0;  // InterruptScopes open on this thread
struct sigaction g_previous;   // the handler the hook replaced, called after it

void on_sigint(int signum, siginfo_t* info, void* context) {
  g_requested.store(true, std::memory_order_relaxed);
  // Async-signal-safe: the flag, then the previous handler (Python's sets its own flag and
  // writes its wakeup fd).
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction) g_previous.sa_sigaction(signum, info, context);
  } else if (g_previous.sa_handler != SIG_IGN && g_previous.sa_handler != SIG_DFL) {
    g_previous.sa_handler(signum);
  }
}

bool is_hook(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) && action.sa_sigaction == &on_sigint;
}

}  // namespace

Status stop_if_interruptible() {
  if (t_depth == 0) return Status::OK();
  return Status(Code::kCancelled, "Interrupted by SIGINT (Ctrl-C)");
}

}  // namespace interrupt_detail

using interrupt_detail::g_requested;

void install_sigint_hook() {
  struct sigaction current;
  if (sigaction(SIGINT, nullptr, &current) != 0 || interrupt_detail::is_hook(current)) return;
  if (!(current.sa_flags & SA_SIGINFO) && (current.sa_handler == SIG_IGN || current.sa_handler == SIG_DFL)) return;
  interrupt_detail::g_previous = current;  // before the hook can run
  struct sigaction hook = {};
  hook.sa_sigaction = &interrupt_detail::on_sigint;
  hook.sa_flags = SA_SIGINFO | (current.sa_flags & SA_ONSTACK);
  hook.sa_mask = current.sa_mask;
  sigaction(SIGINT, &hook, nullptr);
}

void remove_sigint_hook() {
  struct sigaction current;
  if (sigaction(SIGINT, nullptr, &current) != 0 || !interrupt_detail::is_hook(current)) return;
  sigaction(SIGINT, &interrupt_detail::g_previous, nullptr);
}

InterruptScope::InterruptScope() {
  // A SIGINT before the run was Python's to handle (it raises after this call returns).
  if (interrupt_detail::t_depth++ == 0) g_requested.store(false, std::memory_order_relaxed);
}

InterruptScope::~InterruptScope() { --interrupt_detail::t_depth; }

bool InterruptScope::interrupted() const { return g_requested.load(std::memory_order_relaxed); }

}  // namespace graphfn
