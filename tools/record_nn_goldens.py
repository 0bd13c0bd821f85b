"""Records TF 2.21's results for the nn cases of tests/python (nn_golden_cases.py).

    ~/tf/bin/python tools/record_nn_goldens.py

Evaluates every case of test_nn_activations.py, test_nn_normalization.py and test_nn_losses.py
with TensorFlow and writes tests/python/nn_goldens.json."""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, "..", "tests", "python")
sys.path.insert(0, TESTS)

import tensorflow as tf  # noqa: E402

import nn_golden_cases  # noqa: E402


def case_lists():
    """The CASES of each test module (the block between its imports and GOLDENS, run without graphfn)."""
    cases = []
    for name in ("test_nn_activations.py", "test_nn_normalization.py", "test_nn_losses.py"):
        source = open(os.path.join(TESTS, name)).read()
        start = source.index("import nn_golden_cases\n") + len("import nn_golden_cases\n")
        end = source.index("GOLDENS = nn_golden_cases.load()")
        scope = {}
        exec(source[start:end], scope)
        cases += [c if isinstance(c, str) else c[0] for c in scope["CASES"]]
    return cases


def main():
    ns = nn_golden_cases.namespace(tf)
    out = {}
    for expr in case_lists():
        try:
            out[expr] = {"result": nn_golden_cases.encode(eval(expr, ns))}
        except Exception as e:  # noqa: BLE001 (recorded)
            message = str(e).split("\n")[0] if type(e).__name__ != "InvalidArgumentError" else str(e)
            out[expr] = {"error": type(e).__name__, "message": message}
    with open(nn_golden_cases.GOLDENS, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write("\n")
    print("recorded %d cases" % len(out))


if __name__ == "__main__":
    main()
