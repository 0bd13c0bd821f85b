"""tf.config.threading and tf.config.experimental.enable_op_determinism, as TF 2.21 behaves.

The thread settings are per process and freeze when the runtime starts, so each scenario runs in
a fresh interpreter and prints one line per expression (its repr, or its error type and message);
the expected transcripts were recorded by running the same scenarios with TensorFlow 2.21
(`import tensorflow as tf`)."""

import os
import subprocess
import sys
import textwrap

import pytest

_RUNNER = textwrap.dedent('''
    import sys
    import numpy as np
    import graphfn as tf

    c = tf.config.threading
    ns = {"tf": tf, "c": c, "np": np}
    for expr in sys.stdin.read().splitlines():
        try:
            print("%s -> %r" % (expr, eval(expr, ns)))
        except Exception as e:
            print("%s %s %r" % (expr, type(e).__name__, str(e)))
''')

SCENARIOS = {
    "set_before_first_op": [
        "c.get_intra_op_parallelism_threads()",
        "c.get_inter_op_parallelism_threads()",
        "c.set_intra_op_parallelism_threads(3)",
        "c.get_intra_op_parallelism_threads()",
        "c.set_intra_op_parallelism_threads(3)",
        "c.set_intra_op_parallelism_threads(2)",
        "c.get_intra_op_parallelism_threads()",
        "c.set_inter_op_parallelism_threads(np.int64(5))",
        "c.get_inter_op_parallelism_threads()",
        "type(c.get_inter_op_parallelism_threads()).__name__",
        "c.set_intra_op_parallelism_threads(-1)",
        "c.get_intra_op_parallelism_threads()",
        "c.set_intra_op_parallelism_threads(None)",
        "c.get_intra_op_parallelism_threads()",
        "c.set_intra_op_parallelism_threads(2)",
        "(tf.constant(1.0) + 1).numpy()",
        "c.set_intra_op_parallelism_threads(2)",
        "c.set_intra_op_parallelism_threads(4)",
        "c.set_intra_op_parallelism_threads(0)",
        "c.set_inter_op_parallelism_threads(5)",
        "c.set_inter_op_parallelism_threads(1)",
        "c.get_intra_op_parallelism_threads()",
        "c.get_inter_op_parallelism_threads()",
    ],
    "unset_after_first_op": [
        "(tf.constant([1.0, 2.0]) * 3).numpy()",
        "c.get_intra_op_parallelism_threads()",
        "c.set_intra_op_parallelism_threads(None)",
        "c.set_intra_op_parallelism_threads(0)",
        "c.set_inter_op_parallelism_threads(None)",
        "c.set_inter_op_parallelism_threads(0)",
        "c.set_inter_op_parallelism_threads(-1)",
        "c.set_intra_op_parallelism_threads(2.5)",
    ],
    "function_call_initialises": [
        "tf.function(lambda x: x * 2)(tf.constant(3)).numpy()",
        "c.set_intra_op_parallelism_threads(1)",
        "c.set_inter_op_parallelism_threads(2)",
    ],
    "bad_values": [
        "c.set_intra_op_parallelism_threads(2.5)",
        "c.get_intra_op_parallelism_threads()",
        "c.get_inter_op_parallelism_threads()",
        "c.set_intra_op_parallelism_threads('3')",
        "c.get_intra_op_parallelism_threads()",
        "c.set_intra_op_parallelism_threads(4)",
        "c.get_intra_op_parallelism_threads()",
        "c.set_inter_op_parallelism_threads(True)",
        "c.get_inter_op_parallelism_threads()",
        "c.get_intra_op_parallelism_threads()",
        "c.set_inter_op_parallelism_threads(2**40)",
        "c.get_inter_op_parallelism_threads()",
        "c.set_inter_op_parallelism_threads(-2**31)",
        "c.get_inter_op_parallelism_threads()",
        "c.set_inter_op_parallelism_threads(None)",
        "c.get_inter_op_parallelism_threads()",
    ],
    "determinism": [
        "sorted(n for n in dir(tf.config.experimental) if 'determinism' in n)",
        "tf.config.experimental.enable_op_determinism()",
        "tf.random.normal([2])",
        "tf.random.shuffle([1, 2, 3])",
        "tf.nn.dropout(tf.ones([3]), 0.5)",
        "tf.random.uniform([2], seed=3).shape",
        "tf.random.Generator.from_non_deterministic_state()",
        "tf.random.Generator.from_seed(1).normal([2]).shape",
        "tf.data.Dataset.range(3).shuffle(3)",
        "tf.random.set_seed(1)",
        "tf.random.normal([2]).shape",
        "tf.config.experimental.enable_op_determinism()",
        "c.set_intra_op_parallelism_threads(1)",
    ],
}

# Recorded from TensorFlow 2.21 running SCENARIOS.
TF_TRANSCRIPTS = {
    'set_before_first_op': [
        'c.get_intra_op_parallelism_threads() -> 0',
        'c.get_inter_op_parallelism_threads() -> 0',
        'c.set_intra_op_parallelism_threads(3) -> None',
        'c.get_intra_op_parallelism_threads() -> 3',
        'c.set_intra_op_parallelism_threads(3) -> None',
        'c.set_intra_op_parallelism_threads(2) -> None',
        'c.get_intra_op_parallelism_threads() -> 2',
        'c.set_inter_op_parallelism_threads(np.int64(5)) -> None',
        'c.get_inter_op_parallelism_threads() -> 5',
        "type(c.get_inter_op_parallelism_threads()).__name__ -> 'int'",
        'c.set_intra_op_parallelism_threads(-1) -> None',
        'c.get_intra_op_parallelism_threads() -> -1',
        'c.set_intra_op_parallelism_threads(None) -> None',
        'c.get_intra_op_parallelism_threads() -> 0',
        'c.set_intra_op_parallelism_threads(2) -> None',
        '(tf.constant(1.0) + 1).numpy() -> np.float32(2.0)',
        'c.set_intra_op_parallelism_threads(2) -> None',
        "c.set_intra_op_parallelism_threads(4) RuntimeError 'Intra op parallelism cannot be modified after initialization.'",
        "c.set_intra_op_parallelism_threads(0) RuntimeError 'Intra op parallelism cannot be modified after initialization.'",
        'c.set_inter_op_parallelism_threads(5) -> None',
        "c.set_inter_op_parallelism_threads(1) RuntimeError 'Inter op parallelism cannot be modified after initialization.'",
        'c.get_intra_op_parallelism_threads() -> 2',
        'c.get_inter_op_parallelism_threads() -> 5',
    ],
    'unset_after_first_op': [
        '(tf.constant([1.0, 2.0]) * 3).numpy() -> array([3., 6.], dtype=float32)',
        'c.get_intra_op_parallelism_threads() -> 0',
        'c.set_intra_op_parallelism_threads(None) -> None',
        "c.set_intra_op_parallelism_threads(0) RuntimeError 'Intra op parallelism cannot be modified after initialization.'",
        'c.set_inter_op_parallelism_threads(None) -> None',
        "c.set_inter_op_parallelism_threads(0) RuntimeError 'Inter op parallelism cannot be modified after initialization.'",
        "c.set_inter_op_parallelism_threads(-1) RuntimeError 'Inter op parallelism cannot be modified after initialization.'",
        "c.set_intra_op_parallelism_threads(2.5) RuntimeError 'Intra op parallelism cannot be modified after initialization.'",
    ],
    'function_call_initialises': [
        'tf.function(lambda x: x * 2)(tf.constant(3)).numpy() -> np.int32(6)',
        "c.set_intra_op_parallelism_threads(1) RuntimeError 'Intra op parallelism cannot be modified after initialization.'",
        "c.set_inter_op_parallelism_threads(2) RuntimeError 'Inter op parallelism cannot be modified after initialization.'",
    ],
    'bad_values': [
        'c.set_intra_op_parallelism_threads(2.5) -> None',
        'c.get_intra_op_parallelism_threads() TypeError "\'float\' object cannot be interpreted as an integer"',
        'c.get_inter_op_parallelism_threads() TypeError "\'float\' object cannot be interpreted as an integer"',
        "c.set_intra_op_parallelism_threads('3') -> None",
        'c.get_intra_op_parallelism_threads() TypeError "\'str\' object cannot be interpreted as an integer"',
        'c.set_intra_op_parallelism_threads(4) -> None',
        'c.get_intra_op_parallelism_threads() -> 4',
        'c.set_inter_op_parallelism_threads(True) -> None',
        "c.get_inter_op_parallelism_threads() TypeError 'Field tensorflow.ConfigProto.inter_op_parallelism_threads: Expected an int, got a boolean.'",
        "c.get_intra_op_parallelism_threads() TypeError 'Field tensorflow.ConfigProto.inter_op_parallelism_threads: Expected an int, got a boolean.'",
        'c.set_inter_op_parallelism_threads(2**40) -> None',
        "c.get_inter_op_parallelism_threads() ValueError 'Value out of range: 1099511627776'",
        'c.set_inter_op_parallelism_threads(-2**31) -> None',
        'c.get_inter_op_parallelism_threads() -> -2147483648',
        'c.set_inter_op_parallelism_threads(None) -> None',
        'c.get_inter_op_parallelism_threads() -> 0',
    ],
    'determinism': [
        "sorted(n for n in dir(tf.config.experimental) if 'determinism' in n) -> ['enable_op_determinism']",
        'tf.config.experimental.enable_op_determinism() -> None',
        "tf.random.normal([2]) RuntimeError 'Random ops require a seed to be set when determinism is enabled. Please set a seed before running the op, e.g. by calling tf.random.set_seed(1).'",
        "tf.random.shuffle([1, 2, 3]) RuntimeError 'Random ops require a seed to be set when determinism is enabled. Please set a seed before running the op, e.g. by calling tf.random.set_seed(1).'",
        "tf.nn.dropout(tf.ones([3]), 0.5) RuntimeError 'Random ops require a seed to be set when determinism is enabled. Please set a seed before running the op, e.g. by calling tf.random.set_seed(1).'",
        'tf.random.uniform([2], seed=3).shape -> TensorShape([2])',
        'tf.random.Generator.from_non_deterministic_state() RuntimeError \'"from_non_deterministic_state" cannot be called when determinism is enabled.\'',
        'tf.random.Generator.from_seed(1).normal([2]).shape -> TensorShape([2])',
        "tf.data.Dataset.range(3).shuffle(3) RuntimeError 'Random ops require a seed to be set when determinism is enabled. Please set a seed before running the op, e.g. by calling tf.random.set_seed(1).'",
        'tf.random.set_seed(1) -> None',
        'tf.random.normal([2]).shape -> TensorShape([2])',
        'tf.config.experimental.enable_op_determinism() -> None',
        "c.set_intra_op_parallelism_threads(1) RuntimeError 'Intra op parallelism cannot be modified after initialization.'",
    ],
}


def run_scenario(expressions, extra_env=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.update(extra_env or {})
    out = subprocess.run([sys.executable, "-c", _RUNNER], input="\n".join(expressions), capture_output=True,
                         text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_tensorflow(name):
    assert run_scenario(SCENARIOS[name]) == TF_TRANSCRIPTS[name]


def test_intra_op_setting_sizes_the_pool():
    assert run_scenario(["c.set_intra_op_parallelism_threads(3)", "tf._core.parallel_threads()"])[-1] == \
        "tf._core.parallel_threads() -> 3"


def test_setting_overrides_the_environment_variable():
    lines = run_scenario(["c.set_intra_op_parallelism_threads(2)", "tf._core.parallel_threads()"],
                         {"GRAPHFN_NUM_THREADS": "5"})
    assert lines[-1] == "tf._core.parallel_threads() -> 2"


def test_environment_variable_sizes_the_pool_by_default():
    lines = run_scenario(["c.get_intra_op_parallelism_threads()", "tf._core.parallel_threads()"],
                         {"GRAPHFN_NUM_THREADS": "3"})
    assert lines == ["c.get_intra_op_parallelism_threads() -> 0", "tf._core.parallel_threads() -> 3"]


def test_negative_setting_runs_kernels_on_the_calling_thread():
    # TF aborts the process at initialisation for a negative intra-op count; graphfn uses no workers.
    lines = run_scenario(["c.set_intra_op_parallelism_threads(-1)", "tf._core.parallel_threads()",
                          "float(tf.reduce_sum(tf.ones([300000])))"])
    assert lines[1:] == ["tf._core.parallel_threads() -> 1", "float(tf.reduce_sum(tf.ones([300000]))) -> 300000.0"]


def test_import_does_not_start_the_runtime():
    assert run_scenario(["tf._core.threading_runtime_started()"]) == ["tf._core.threading_runtime_started() -> False"]
