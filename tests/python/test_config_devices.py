"""tf.config's devices, tf.device and tf.DeviceSpec against what TensorFlow 2.21 prints on a
CPU-only machine (config_devices_goldens.json, recorded by record_config_devices_goldens.py);
each scenario runs in its own process, since the device settings are fixed once per process."""

import json
import os
import subprocess
import sys
import threading

import pytest

import graphfn as tf
from config_devices_scenarios import SCENARIOS, run

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "config_devices_goldens.json")) as _f:
    GOLDENS = json.load(_f)
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_prints_what_tensorflow_prints(name):
    assert run(name).splitlines() == GOLDENS[name].splitlines()


LOG_SCRIPT = """
import sys
tf = __import__(sys.argv[1])
tf.debugging.set_log_device_placement(True)
print("log", tf.debugging.get_log_device_placement(), flush=True)
x = tf.constant(1.0)
y = x + x
with tf.device("/GPU:0"):
    w = tf.matmul(tf.reshape(y, [1, 1]), tf.reshape(y, [1, 1]))
tf.debugging.set_log_device_placement(False)
x * x
print("done", tf.debugging.get_log_device_placement(), flush=True)
"""


def _executed_ops(stderr):
    # TF logs through absl: "I0000 00:00:<time> <thread> execute.cc:1775] Executing op <op> in device <device>"
    return [line.split("] ", 1)[1] for line in stderr.splitlines() if "] Executing op " in line]


def test_log_device_placement_prints_each_executed_op_to_stderr():
    result = subprocess.run([sys.executable, "-c", LOG_SCRIPT, "graphfn"], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    # What TF 2.21 logs for this script, except its last line: TF still logs the Mul run after
    # set_log_device_placement(False) (its setting reaches the executor late); graphfn stops at once.
    assert _executed_ops(result.stderr) == [
        "Executing op _EagerConst in device " + CPU0,   # tf.constant(1.0)
        "Executing op AddV2 in device " + CPU0,
        "Executing op _EagerConst in device " + CPU0,   # the shape [1, 1]
        "Executing op Reshape in device " + CPU0,
        "Executing op _EagerConst in device " + CPU0,
        "Executing op Reshape in device " + CPU0,
        "Executing op MatMul in device " + CPU0,        # soft-placed from /GPU:0
    ]
    assert "Executing op" not in result.stdout
    assert result.stdout.splitlines()[0] == "log True" and result.stdout.splitlines()[-1] == "done False"


def _hook_is_set():
    from graphfn.framework import device_placement
    return device_placement._hook_is_set


def test_cpu0_and_soft_placed_scopes_leave_the_eager_path_alone():
    # Nothing to check or rename: the per-op Python hook stays unset (the eager path only reads a flag).
    x = tf.constant(1.0)
    assert not _hook_is_set()
    for spec in ["/CPU:0", "/device:CPU:0", CPU0, "/GPU:0", "/TPU:0", "cpu:0", None, ""]:
        with tf.device(spec):
            assert not _hook_is_set()
            assert (x + 1).device == CPU0
    assert not _hook_is_set()


def test_hard_placement_scope_sets_the_hook_only_while_open():
    x = tf.constant(1.0)
    tf.config.set_soft_device_placement(False)
    try:
        with tf.device("/GPU:0"):
            assert _hook_is_set()
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"Could not satisfy device specification"):
                x + 1
        assert not _hook_is_set()
        assert (x + 1).device == CPU0
    finally:
        tf.config.set_soft_device_placement(True)


def test_device_scope_is_per_thread():
    x = tf.constant(1.0)
    inside, other = threading.Event(), threading.Event()
    seen = {}

    def in_scope():
        tf.config.set_soft_device_placement(False)
        with tf.device("/GPU:0"):
            inside.set()
            other.wait(60)
            try:
                x + 1
            except tf.errors.InvalidArgumentError:
                seen["scoped"] = "error"

    thread = threading.Thread(target=in_scope)
    thread.start()
    try:
        inside.wait(60)
        seen["other"] = (x + 1).device  # this thread has no scope: runs on CPU:0
        other.set()
        thread.join(60)
    finally:
        tf.config.set_soft_device_placement(True)
    assert seen == {"scoped": "error", "other": CPU0}


def test_device_spec_is_exported_and_immutable():
    spec = tf.DeviceSpec(job="ps", device_type="GPU", device_index=0)
    assert spec.to_string() == "/job:ps/device:GPU:0"  # TF's docstring example
    with pytest.raises(AttributeError):
        spec.job = "worker"


def test_is_gpu_available_is_false_and_warns_deprecated(caplog):
    assert tf.test.is_gpu_available() is False
    assert "is_gpu_available (from tensorflow.python.framework.test_util) is deprecated" in caplog.text
