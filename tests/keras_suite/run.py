"""Runs part of Keras 3's own test suite (the *_test.py files the keras wheel ships) on graphfn
and, for comparison, on the real TensorFlow 2.21, and prints the pass counts of both.

    python3 tests/keras_suite/run.py                       # the default subset, graphfn and TF
    python3 tests/keras_suite/run.py --backend graphfn     # one side only
    python3 tests/keras_suite/run.py --paths ops/core_test.py layers/pooling   # other tests
    python3 tests/keras_suite/run.py --tf-python ~/tf/bin/python -- -x       # pytest options after --
    python3 tests/keras_suite/run.py --issue-folders --backend graphfn -- -n 2   # issue 20's folders, one by one
    python3 tests/keras_suite/run.py --issue-folders --subset -- -n 2            # a few files of each

--issue-folders runs the folders issue 20 names one pytest run each and prints a per-folder line
(passed/failed/skipped/errors); --counts-file FILE also writes them as JSON, one object per side
(tests/keras_suite/tf_counts.json holds TF 2.21's, of the full folders and of the subset).

graphfn runs in this interpreter or --graphfn-python (keras installed: pip install graphfn[keras]);
TensorFlow in --tf-python (default ~/tf/bin/python, a venv with tensorflow-cpu and the same keras
version). The plugin makes graphfn `tensorflow` in the graphfn run even in TF's venv.
It is not part of the default test run (minutes, and it measures rather than asserts); see
docs/keras.md for the latest counts."""

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_PYTHON = os.path.join(os.path.dirname(os.path.dirname(HERE)), "python")
DEFAULT_PATHS = ["layers/core", "models", "ops/numpy_test.py"]
# The folders of keras/src whose tests issue 20's conformance table counts.
ISSUE_FOLDERS = ["ops", "layers/core", "layers/convolutional", "layers/pooling", "layers/normalization",
                 "layers/rnn", "layers/activations", "layers/merging", "layers/reshaping", "models",
                 "trainers", "optimizers", "losses", "metrics", "callbacks", "saving"]

# A representative subset of those folders (a few files each) for a run of minutes, not an hour.
SUBSET = {
    "ops": ["ops/math_test.py", "ops/linalg_test.py"],
    "layers/core": ["layers/core/dense_test.py", "layers/core/embedding_test.py"],
    "layers/convolutional": ["layers/convolutional/conv_test.py", "layers/convolutional/conv_transpose_test.py"],
    "layers/pooling": ["layers/pooling/max_pooling_test.py", "layers/pooling/average_pooling_test.py"],
    "layers/normalization": ["layers/normalization/batch_normalization_test.py",
                             "layers/normalization/layer_normalization_test.py"],
    "layers/rnn": ["layers/rnn/lstm_test.py", "layers/rnn/gru_test.py", "layers/rnn/simple_rnn_test.py"],
    "layers/activations": ["layers/activations"],
    "layers/merging": ["layers/merging"],
    "layers/reshaping": ["layers/reshaping"],
    "models": ["models/sequential_test.py", "models/functional_test.py"],
    "trainers": ["trainers/trainer_test.py"],
    "optimizers": ["optimizers/optimizer_test.py", "optimizers/adam_test.py", "optimizers/sgd_test.py"],
    "losses": ["losses/losses_test.py"],
    "metrics": ["metrics/accuracy_metrics_test.py", "metrics/confusion_metrics_test.py"],
    "callbacks": ["callbacks/early_stopping_test.py", "callbacks/model_checkpoint_test.py"],
    "saving": ["saving/saving_lib_test.py", "saving/saving_api_test.py"],
}


def counts_of(summary):
    """{"passed": n, "failed": n, ...} from pytest's last summary line."""
    text = summary if isinstance(summary, str) else " ".join(summary)
    return {word.rstrip("s") if word.startswith("error") else word: int(number)
            for number, word in re.findall(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)", text)}


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
               "-q", "--no-header", "-rfE", "--continue-on-collection-errors", "--rootdir", src, "-o", "addopts=", "-W", "ignore"]
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
    parser.add_argument("--graphfn-python", default=sys.executable,
                        help="interpreter for the graphfn side (default: this one); ~/tf/bin/python gives both "
                             "sides the same optional packages (jax, torch), which some test files import")
    parser.add_argument("--issue-folders", action="store_true",
                        help="run issue 20's folders (%s), one pytest run each" % " ".join(ISSUE_FOLDERS))
    parser.add_argument("--subset", action="store_true",
                        help="with --issue-folders: only a few representative files of each folder (SUBSET)")
    parser.add_argument("--counts-file", help="with --issue-folders: write the per-folder counts here (JSON)")
    parser.add_argument("--log-dir", help="write each side's full pytest output here")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args()
    sides = ["graphfn", "tensorflow"] if args.backend == "both" else [args.backend]
    if args.issue_folders:
        groups = [SUBSET[folder] if args.subset else [folder] for folder in ISSUE_FOLDERS]
    else:
        groups = [args.paths]
    all_counts = {}
    for backend in sides:
        python = args.graphfn_python if backend == "graphfn" else args.tf_python
        for paths in groups:
            summary, seconds, output = run(backend, python, paths, args.pytest_args)
            print("%-10s %s  (%.0f s)  [%s]" % (backend, summary, seconds, " ".join(paths)), flush=True)
            key = ISSUE_FOLDERS[groups.index(paths)] if args.issue_folders else " ".join(paths)
            all_counts.setdefault(backend, {})[key] = counts_of(summary)
            if args.log_dir:
                os.makedirs(args.log_dir, exist_ok=True)
                name = backend + ("-" + key.replace("/", "_") if args.issue_folders else "")
                with open(os.path.join(args.log_dir, name + ".log"), "w") as f:
                    f.write(output)
            if args.counts_file:
                with open(args.counts_file, "w") as f:
                    json.dump(all_counts, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
