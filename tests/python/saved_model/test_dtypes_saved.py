"""Saved graphs with float16, bfloat16, complex and unsigned tensors: signatures, constants and
variables of the new dtypes survive save/load, and graphfn-run reads and writes them as .npy
(bfloat16 as '<V2', what np.save writes for ml_dtypes.bfloat16). Expected values are arithmetic
on the inputs (TF 2.21 gives the same: the ops are exact for these values)."""

import ml_dtypes
import numpy as np

import graphfn as tf
from saved_cases import run_graphfn_run as _run


class Mixed(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable([2.0, 0.5], dtype=tf.float16)
        self.offset = tf.Variable(1 - 1j, dtype=tf.complex64)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float16), tf.TensorSpec([2], tf.complex64),
                                  tf.TensorSpec([2], tf.uint32), tf.TensorSpec([2], tf.bfloat16)])
    def __call__(self, a_h, b_c, c_u, d_b):  # names in alphabetical order: see the report of this test's commit
        return {"h": a_h * self.scale, "c": b_c * tf.constant(2j, tf.complex64) + self.offset,
                "u": c_u + tf.constant(4294967295, tf.uint32), "b": d_b * tf.constant(3.0, tf.bfloat16)}


def _inputs():
    return (np.array([1.5, -3.0], np.float16), np.array([1 + 2j, -0.5j], np.complex64),
            np.array([1, 7], np.uint32), np.array([0.5, -2.0], ml_dtypes.bfloat16))


EXPECTED = {"h": np.array([3.0, -1.5], np.float16), "c": np.array([-3 + 1j, 2 - 1j], np.complex64),
            "u": np.array([0, 6], np.uint32), "b": np.array([1.5, -6.0], ml_dtypes.bfloat16)}


def test_saved_module_round_trips_the_new_dtypes(tmp_path):
    tf.saved_model.save(Mixed(), str(tmp_path / "mixed"))
    loaded = tf.saved_model.load(str(tmp_path / "mixed"))
    out = loaded(*[tf.constant(x) for x in _inputs()])
    for key, want in EXPECTED.items():
        assert out[key].dtype == tf.as_dtype(want.dtype)
        np.testing.assert_array_equal(out[key].numpy(), want)
    assert loaded.offset.dtype == tf.complex64


def test_graphfn_run_reads_and_writes_the_new_dtypes_as_npy(tmp_path):
    tf.saved_model.save(Mixed(), str(tmp_path / "mixed"))
    args = []
    for name, x in zip(("a_h", "b_c", "c_u", "d_b"), _inputs()):
        np.save(tmp_path / (name + ".npy"), x)
        args += ["--input", "%s=%s" % (name, tmp_path / (name + ".npy"))]
    result = _run(tmp_path / "mixed", *args, "--output_dir", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    for key, want in EXPECTED.items():
        got = np.load(tmp_path / "out" / (key + ".npy"))
        if key == "b":  # NumPy reads '<V2' back as raw bytes
            got = got.view(ml_dtypes.bfloat16)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
