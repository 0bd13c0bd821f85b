#!/usr/bin/env bash
# The whole test suite: installs graphfn and what the tests need, then runs the C++ (Catch2)
# tests and pytest. One CMake build makes the extension, graphfn-run and the Catch2 suite:
# `pip install .` with GRAPHFN_BUILD_TESTS=ON, in pip's persistent build folder
# (build/<cache tag>), so running this again after a change rebuilds only what changed.
# Set GRAPHFN_SANITIZE=1 to build the C++ tests with AddressSanitizer + UBSan (a separate build).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"

# System packages the build uses, installed in one apt-get call when any is missing: Catch2 (the
# C++ tests), zlib (compressed TFRecord files), libjpeg-turbo, libpng and giflib (the image codec ops),
# RE2 and ICU (tf.strings);
# cpp/CMakeLists.txt finds the libraries.
missing=()
if [ ! -f /usr/include/catch2/catch.hpp ] && [ ! -f /usr/include/catch2/catch_all.hpp ]; then missing+=(catch2); fi
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
[ -f /usr/include/jpeglib.h ] || missing+=(libjpeg62-turbo-dev)
[ -f /usr/include/png.h ] || missing+=(libpng-dev)
[ -f /usr/include/gif_lib.h ] || missing+=(libgif-dev)
[ -f /usr/include/re2/re2.h ] || missing+=(libre2-dev)
[ -f /usr/include/unicode/uscript.h ] || missing+=(libicu-dev)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "== building and installing graphfn with the test requirements"
# pip shows a build backend's output only with -v; of that, the build's progress lines ([n/N])
# are shown, the whole log kept in build/pip-install.log (its end is shown if the install fails).
mkdir -p build
status=0
"$PYTHON" -m pip install -v --disable-pip-version-check ".[test]" -Ccmake.define.GRAPHFN_BUILD_TESTS=ON 2>&1 \
  | tee build/pip-install.log | { grep --line-buffered -E '^ *(\[[0-9]+/[0-9]+\] |\*\*\* |Successfully installed)' || true; } \
  || status=$?
if [ "$status" -ne 0 ]; then tail -n 60 build/pip-install.log >&2; echo "pip install failed" >&2; exit "$status"; fi
BUILD_DIR="build/$("$PYTHON" -c 'import sys; print(sys.implementation.cache_tag)')"

echo "== C++ tests (Catch2)"
if [ -n "${GRAPHFN_SANITIZE:-}" ]; then
  "$PYTHON" -m pip install -q --disable-pip-version-check "cmeel-eigen>=3.4" cmake
  BUILD_DIR=build/cpp-tests-sanitize
  "$PYTHON" -m cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DGRAPHFN_BUILD_PYTHON=OFF \
    -DGRAPHFN_BUILD_TESTS=ON -DGRAPHFN_SANITIZE=ON -DPython_EXECUTABLE="$(command -v "$PYTHON")" >/dev/null
  "$PYTHON" -m cmake --build "$BUILD_DIR" -j2
fi
"$BUILD_DIR"/tests/cpp/graphfn_tests

echo "== Python tests (pytest)"
# The package under test is the installed one (python/ is not on sys.path), and so is the
# graphfn-run command the saved-model tests run.
# conformance: the seed documents' cells; notebooks: the tutorials run top to bottom.
# -n auto (pytest-xdist): one worker per core; the tests do not depend on each other's order.
# -p no:benchmark: pytest-benchmark, where installed, turns xdist's presence into a warning,
# which this suite treats as an error.
"$PYTHON" -m pytest -q -n auto -p no:benchmark tests/python tests/conformance tests/notebooks
