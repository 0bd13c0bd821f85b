#include <signal.h>

#include "harness.h"

#include "graphfn/runtime/interrupt.h"

using namespace graphfn;

namespace {
volatile sig_atomic_t g_program_handler_calls = 0;
void program_handler(int) { g_program_handler_calls = g_program_handler_calls + 1; }
}  // namespace

TEST_CASE("the SIGINT hook stops runs in an InterruptScope and chains to the program's handler",
          "[runtime][interrupt]") {
  struct sigaction program = {}, saved;
  program.sa_handler = &program_handler;
  sigemptyset(&program.sa_mask);
  REQUIRE(sigaction(SIGINT, &program, &saved) == 0);
  install_sigint_hook();
  install_sigint_hook();  // idempotent: does not chain to itself
  g_program_handler_calls = 0;
  {
    InterruptScope scope;
    CHECK(check_interrupt().ok());
    raise(SIGINT);
    CHECK(scope.interrupted());
    CHECK(check_interrupt().code() == Code::kCancelled);
    CHECK(g_program_handler_calls == 1);
  }
  CHECK(check_interrupt().ok());  // outside a scope runs go on
  {
    InterruptScope scope;  // a new scope forgets the earlier signal
    CHECK(check_interrupt().ok());
  }
  remove_sigint_hook();
  struct sigaction now;
  REQUIRE(sigaction(SIGINT, nullptr, &now) == 0);
  CHECK(now.sa_handler == &program_handler);
  REQUIRE(sigaction(SIGINT, &saved, nullptr) == 0);
}
