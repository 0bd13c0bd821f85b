"""A short run of the op fuzzer (tests/fuzz/op_fuzzer.py): random calls of every registered op,
eagerly, while building graphs with known and unknown shapes, and inside `function`, raise only
TF's exception types for bad op calls (or succeed), and never crash. Deterministic: the same
seed draws the same calls. docs/fuzzing.md has the long run."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fuzz"))

import op_fuzzer  # noqa: E402

CALLS = 3000


def test_short_fuzz_run_raises_only_tf_exception_types():
    histogram = op_fuzzer.run(seed=15, calls=CALLS)
    assert sum(histogram.values()) == CALLS
    assert set(histogram) <= {"ok"} | {cls.__name__ for cls in op_fuzzer.ALLOWED} | {
        cls.__name__ for cls in op_fuzzer.tf.errors.OpError.__subclasses__()}
    # The draws reach every op and every mode, and some calls are valid.
    assert histogram["ok"] > 0


def test_every_op_and_mode_is_drawn():
    ops, modes = set(), set()
    resources = op_fuzzer.make_resources()
    op_list = op_fuzzer.op_names()
    for i in range(5000):  # about 12 draws per op (3000 draws missed one op of 424)
        choose = op_fuzzer.RandomChooser("7:%d" % i)
        ops.add(op_list[choose.int(0, len(op_list) - 1)])
        modes.add(op_fuzzer.MODES[choose.int(0, len(op_fuzzer.MODES) - 1)])
    assert ops == set(op_list)
    assert modes == set(op_fuzzer.MODES)
    assert resources


def test_runs_are_deterministic_by_seed():
    assert op_fuzzer.run(seed=3, calls=200) == op_fuzzer.run(seed=3, calls=200)
