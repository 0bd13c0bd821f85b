"""Runs part of Keras 3's own test suite (the *_test.py files the keras wheel ships) on graphfn
and, for comparison, on the real TensorFlow 2.21, and prints the pass counts of both.

    python3 tests/keras_suite/run.py                       # the default subset, graphfn and TF
    python3 tests/keras_suite/run.py --backend graphfn     # one side only
    python3 tests/keras_suite/run.py --paths ops/core_test.py layers/pooling   # other tests
    python3 tests/keras_suite/run.py --tf-python ~/tf/bin/python -- -x       # pytest options after --

graphfn runs in this interpreter (keras installed: pip install graphfn[keras]); TensorFlow in
--tf-python (default ~/tf/bin/python, a venv with tensorflow-cpu and the same keras version).
It is not part of the default test run (minutes, and it measures rather than asserts); see
docs/keras.md for the latest counts."""

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_PYTHON = os.path.join(os.path.dirname(os.path.dirname(HERE)), "python")
DEFAULT_PATHS = ["layers/core", "models", "ops/numpy_test.py"]


def keras_src_dir(python):
    """keras/src of `python`'s keras, found without importing keras (it would import TF)."""
    code = "import importlib.util, os; print(os.path.join(os.path.dirname(importlib.util.find_spec('keras').origin), 'src'))"
    return subprocess.run([python, "-c", code], check=True, capture_output=True, text=True).stdout.strip()


def run(backend, python, paths, pytest_args):
    src = keras_src_dir(python)
    env = dict(os.environ, GRAPHFN_KERAS_SUITE=backend, KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")
    env["PYTHONPATH"] = os.pathsep.join([HERE] + ([REPO_PYTHON] if backend == "graphfn" else []) +
                                        [p for p in [os.environ.get("PYTHONPATH")] if p])
    command = [python, "-m", "pytest", "-p", "graphfn_as_tensorflow", "-p", "no:cacheprovider", "-p", "no:benchmark",
               "-q", "--no-header", "-rfE", "--rootdir", src, "-o", "addopts=", "-W", "ignore"]
    command += [os.path.join(src, p) for p in paths] + pytest_args
    start = time.time()
    # Not from keras/src: its folders (random, tree, ...) would shadow the standard library.
    result = subprocess.run(command, env=env, capture_output=True, text=True, cwd=HERE)
    seconds = time.time() - start
    lines = (result.stdout + result.stderr).strip().splitlines()
    summary = next((line for line in reversed(lines) if re.search(r"\d+ (passed|failed|error)", line)), lines[-1:])
    return summary, seconds, result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["graphfn", "tensorflow", "both"], default="both")
    parser.add_argument("--paths", nargs="+", default=DEFAULT_PATHS, help="test files/folders under keras/src")
    parser.add_argument("--tf-python", default=os.path.expanduser("~/tf/bin/python"))
    parser.add_argument("--log-dir", help="write each side's full pytest output here")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args()
    sides = ["graphfn", "tensorflow"] if args.backend == "both" else [args.backend]
    for backend in sides:
        python = sys.executable if backend == "graphfn" else args.tf_python
        summary, seconds, output = run(backend, python, args.paths, args.pytest_args)
        print("%-10s %s  (%.0f s)  [%s]" % (backend, summary, seconds, " ".join(args.paths)), flush=True)
        if args.log_dir:
            os.makedirs(args.log_dir, exist_ok=True)
            with open(os.path.join(args.log_dir, backend + ".log"), "w") as f:
                f.write(output)


if __name__ == "__main__":
    main()
