#!/usr/bin/env bash
# The whole test suite: installs what the tests need, then runs the C++ (Catch2) tests and pytest.
# Set GRAPHFN_SANITIZE=1 to build the C++ tests with AddressSanitizer + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"

echo "== installing test requirements"
if [ ! -f /usr/include/catch2/catch.hpp ] && [ ! -f /usr/include/catch2/catch_all.hpp ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq catch2 >/dev/null
fi
"$PYTHON" -m pip install -q --disable-pip-version-check ".[test]" "cmeel-eigen>=3.4" cmake

echo "== C++ tests (Catch2)"
SANITIZE=OFF; BUILD_DIR=build/cpp-tests
if [ -n "${GRAPHFN_SANITIZE:-}" ]; then SANITIZE=ON; BUILD_DIR=build/cpp-tests-sanitize; fi
"$PYTHON" -m cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DGRAPHFN_BUILD_PYTHON=OFF \
  -DGRAPHFN_BUILD_TESTS=ON -DGRAPHFN_SANITIZE="$SANITIZE" -DPython_EXECUTABLE="$(command -v "$PYTHON")" >/dev/null
"$PYTHON" -m cmake --build "$BUILD_DIR" -j2
"$BUILD_DIR"/tests/cpp/graphfn_tests
# The saved-model tests run the C++ runner this build made on models saved from Python.
export GRAPHFN_RUN="$PWD/$BUILD_DIR/graphfn-run"

echo "== Python tests (pytest)"
# The package under test is the installed one (python/ is not on sys.path).
# conformance: the seed documents' cells; notebooks: the tutorials run top to bottom
"$PYTHON" -m pytest -q tests/python tests/conformance tests/notebooks
