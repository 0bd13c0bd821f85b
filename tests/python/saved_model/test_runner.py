"""The C++ runner (graphfn-run, which `pip install .` installs beside python) on models saved
from Python: same numbers as the Python load, .npy in and out, clear failures. The tests run the
installed command (GRAPHFN_RUN overrides it; saved_cases._runner says where else it looks)."""

import os
import subprocess
import sysconfig

import numpy as np
import pytest

import graphfn as tf
from saved_cases import Scaler, halve_until_small_np, make_module
from saved_cases import installed_from_source_tree, installed_runner
from saved_cases import run_graphfn_run as _run


def test_pip_install_installs_the_command():
    if installed_from_source_tree():
        pytest.skip("graphfn comes from the source tree (PYTHONPATH), not from pip install")
    command = installed_runner()
    assert command is not None, "graphfn-run not in %s nor on PATH" % sysconfig.get_path("scripts")
    assert os.access(command, os.X_OK)
    result = subprocess.run([command, "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stderr.startswith("usage: graphfn-run MODEL_DIR")


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("runner")
    root = make_module()
    tf.saved_model.save(root, str(d / "scaler"), signatures={"serving_default": root.__call__,
                                                             "halve": root.halve,
                                                             "relu": root.relu.get_concrete_function(tf.constant(0))})
    return d


def test_runner_matches_python(model_dir, tmp_path):
    x = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)
    np.save(tmp_path / "x.npy", x)
    result = _run(model_dir / "scaler", "--signature", "serving_default", "--input", "x=%s" % (tmp_path / "x.npy"),
                  "--output_dir", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert os.listdir(tmp_path / "out") == ["output_0.npy"]
    got = np.load(tmp_path / "out" / "output_0.npy")
    loaded = tf.saved_model.load(str(model_dir / "scaler"))
    python = loaded.signatures["serving_default"](x=tf.constant(x))["output_0"].numpy()
    np.testing.assert_array_equal(got, python)
    np.testing.assert_array_equal(got, x * np.array([1.0, 2.0], np.float32) + np.float32(0.5))
    assert got.dtype == np.float32


def test_runner_while_loop_and_cond(model_dir, tmp_path):
    for i, values in enumerate(([3.0, 5.0], [0.25], [100.0, -20.0, 7.0])):
        np.save(tmp_path / "x.npy", np.array(values, np.float32))
        out = tmp_path / ("out%d" % i)
        result = _run(model_dir / "scaler", "--signature", "halve", "--input", "x=%s" % (tmp_path / "x.npy"),
                      "--output_dir", out)
        assert result.returncode == 0, result.stderr
        np.testing.assert_array_equal(np.load(out / "output_0.npy"), halve_until_small_np(values))
    for value, expected in ((4, 4), (-4, 0)):
        np.save(tmp_path / "x.npy", np.array(value, np.int32))
        result = _run(model_dir / "scaler", "--signature", "relu", "--input", "x=%s" % (tmp_path / "x.npy"),
                      "--output_dir", tmp_path / "relu")
        assert result.returncode == 0, result.stderr
        assert np.load(tmp_path / "relu" / "output_0.npy") == expected


def test_runner_lists_signatures(model_dir):
    result = _run(model_dir / "scaler", "--list")
    assert result.returncode == 0
    assert "signature 'serving_default'\n  input  x: float32[?,2]\n  output output_0: float32[?,2]\n" in result.stdout


def test_runner_failures_exit_nonzero_with_a_message(model_dir, tmp_path):
    np.save(tmp_path / "i.npy", np.array([[1, 2]], np.int32))
    cases = [
        ((tmp_path / "none",), 1, "SavedModel file does not exist at:"),
        ((model_dir / "scaler", "--signature", "nope"), 1, "no signature 'nope' (the model has: halve, relu, serving_default)"),
        ((model_dir / "scaler", "--input", "x=%s" % (tmp_path / "i.npy")), 1,
         "input 'x' of signature 'serving_default' must be float32[?,2], got int32[1,2]"),
        ((model_dir / "scaler",), 1, "signature 'serving_default' needs input 'x'"),
        ((model_dir / "scaler", "--input", "x"), 2, "--input wants NAME=FILE.npy"),
        ((), 2, "MODEL_DIR is missing"),
    ]
    (tmp_path / "bad.npy").write_bytes(b"\x93NUMPY\x01\x00\x10\x00{'descr': '<U3',}")
    cases.append(((model_dir / "scaler", "--input", "x=%s" % (tmp_path / "bad.npy")), 1, "invalid .npy data"))
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    data = bytearray((model_dir / "scaler" / "saved_graph.gfn").read_bytes())
    data[100] ^= 0xFF
    (damaged / "saved_graph.gfn").write_bytes(bytes(data))
    cases.append(((damaged,), 1, "DATA_LOSS: "))
    for args, code, message in cases:
        result = _run(*args)
        assert result.returncode == code, (args, result.stderr)
        assert message in result.stderr, (args, result.stderr)


def test_variable_values_reach_the_runner(tmp_path):
    m = Scaler()
    m.v.assign([5.0, -1.0])
    tf.saved_model.save(m, str(tmp_path / "m"))
    np.save(tmp_path / "x.npy", np.ones((1, 2), np.float32))
    result = _run(tmp_path / "m", "--input", "x=%s" % (tmp_path / "x.npy"))  # prints without --output_dir
    assert result.returncode == 0, result.stderr
    assert result.stdout == "output_0: float32[1,2] {5.5, -0.5}\n"


def test_runner_finds_openblas_for_linalg(tmp_path):
    # The linalg kernels load OpenBLAS's LAPACK from the scipy-openblas32 package; the installed
    # graphfn-run finds it in its own prefix's site-packages. A build-folder runner (graphfn from
    # the source tree) is told where it is, as the Python module is.
    from graphfn.util import openblas
    module = tf.Module()
    module.inverse = tf.function(lambda x: tf.linalg.inv(x), input_signature=[tf.TensorSpec([2, 2], tf.float64)])
    tf.saved_model.save(module, str(tmp_path / "inverse"), signatures={"serving_default": module.inverse})
    np.save(tmp_path / "x.npy", np.array([[1.0, 2.0], [3.0, 4.0]]))
    env = {"GRAPHFN_OPENBLAS_LIBRARY": openblas.locate()} if installed_from_source_tree() else None
    result = _run(tmp_path / "inverse", "--input", "x=%s" % (tmp_path / "x.npy"), "--output_dir", tmp_path / "out",
                  env=env)
    assert result.returncode == 0, result.stderr
    got = np.load(tmp_path / "out" / "output_0.npy")
    np.testing.assert_allclose(got, [[-2.0, 1.0], [1.5, -0.5]], rtol=1e-12)
