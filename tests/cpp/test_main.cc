// The Catch2 suite's main: installs the built-in op library (ir's registry is empty until a
// program does, runtime/builtin_ops.h), then runs the tests. Catch2 v2 and v3 both.
#ifdef GRAPHFN_CATCH3
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include "graphfn/runtime/builtin_ops.h"

int main(int argc, char** argv) {
  graphfn::install_builtin_ops();
  return Catch::Session().run(argc, argv);
}
