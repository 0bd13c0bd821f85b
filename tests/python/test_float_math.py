"""The hand-vectorised float32 kernels (Exp, Tanh, Sigmoid, Softmax, LogSoftmax, the sparse
softmax cross entropy; cpp/graphfn/kernels/float_math.cc): the AVX-512 variant (on CPUs that have
it) and the AVX2 code (GRAPHFN_MAX_CPU_ISA=avx2) give the same bits, one intra-op thread and two
give the same bits, and tanh and sigmoid give TF 2.21's bits. Odd sizes, so the 16-, 8-float and
masked tails all run, with infinities, NaNs, denormals and values beyond every clamp."""

import json
import os

import numpy as np
import pytest

import graphfn as tf
from fresh_interpreter import run_code

_SCRIPT = r'''
import sys
import numpy as np
import graphfn as tf

rng = np.random.default_rng(5)
special = np.array([0.0, -0.0, 1e-45, -1e-40, 1e-38, 3e-4, -4e-4, 7.9, -7.91, 8.1, 88.72, 88.73, -88.73,
                    -103.9, -104.1, -150.0, 1e4, -1e4, 3.4e38, -3.4e38, np.inf, -np.inf, np.nan], np.float32)
out = {}
for n in [1, 5, 8, 13, 16, 17, 25, 31, 33, 47, 1001, 4097, 70001]:
    for low, high in [(-20, 20), (-120, 95)]:
        x = rng.uniform(low, high, n).astype(np.float32)
        if n > 40:
            x[rng.integers(0, n, len(special))] = special
        key = "%d_%d" % (n, low)
        out["exp_" + key] = tf.exp(x).numpy()
        out["tanh_" + key] = tf.tanh(x).numpy()
        out["sigmoid_" + key] = tf.sigmoid(x).numpy()
        out["tanh_half_" + key] = tf.tanh(x.astype(np.float16)).numpy().astype(np.float32)
        out["exp_bfloat16_" + key] = tf.cast(tf.exp(tf.cast(x, tf.bfloat16)), tf.float32).numpy()
out["exp_special"] = tf.exp(special).numpy()
out["tanh_special"] = tf.tanh(special).numpy()
out["sigmoid_special"] = tf.sigmoid(special).numpy()
for shape in [(1, 1), (3, 7), (5, 9), (2, 16), (4, 17), (7, 33), (3, 47), (33, 1001), (1, 4099), (999, 37)]:
    for scale in [3.0, 60.0]:
        x = (rng.standard_normal(shape) * scale).astype(np.float32)
        if x.size > 100:
            x.reshape(-1)[rng.integers(0, x.size, 6)] = [np.inf, -np.inf, 1e-40, -1e4, 3e38, -3e38]
        key = "%dx%d_%g" % (shape + (scale,))
        out["softmax_" + key] = tf.nn.softmax(x).numpy()
        out["log_softmax_" + key] = tf.nn.log_softmax(x).numpy()
        out["softmax_nan_row_" + key] = tf.nn.softmax(np.where(np.arange(x.shape[-1]) == 0, np.nan, x)).numpy()
        out["softmax_half_" + key] = tf.nn.softmax(x.astype(np.float16)).numpy().astype(np.float32)
        labels = rng.integers(0, shape[1], shape[0])
        loss, grad = tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=x, labels=labels)
        out["xent_loss_" + key], out["xent_grad_" + key] = loss.numpy(), grad.numpy()
np.savez(sys.argv[1], **out)
'''


def _run(tmp_path, name, **env):
    path = str(tmp_path / (name + ".npz"))
    proc = run_code(_SCRIPT, path, **env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return np.load(path)


def _assert_same_bits(a, b):
    assert sorted(a.files) == sorted(b.files)
    for name in a.files:
        x, y = a[name], b[name]
        both_nan = np.isnan(x) & np.isnan(y)
        np.testing.assert_array_equal(np.where(both_nan, 0, x).view(np.uint32), np.where(both_nan, 0, y).view(np.uint32),
                                      err_msg=name)


def test_avx512_and_avx2_code_give_the_same_bits(tmp_path):
    _assert_same_bits(_run(tmp_path, "default", GRAPHFN_NUM_THREADS="1"),
                      _run(tmp_path, "avx2", GRAPHFN_NUM_THREADS="1", GRAPHFN_MAX_CPU_ISA="avx2"))


@pytest.mark.parametrize("isa", ["", "avx2"])
def test_one_thread_and_two_give_the_same_bits(tmp_path, isa):
    _assert_same_bits(_run(tmp_path, "one", GRAPHFN_NUM_THREADS="1", GRAPHFN_MAX_CPU_ISA=isa),
                      _run(tmp_path, "two", GRAPHFN_NUM_THREADS="2", GRAPHFN_MAX_CPU_ISA=isa))


@pytest.mark.parametrize("name", ["tanh", "sigmoid"])
def test_tanh_and_sigmoid_give_tf_bits(name):
    # recorded from TF 2.21 by float_math/record.py
    with open(os.path.join(os.path.dirname(__file__), "float_math", "tf_float32_bits.json")) as f:
        recorded = json.load(f)
    x = np.array(recorded["x_bits"], np.uint32).view(np.float32)
    expected = np.array(recorded[name + "_bits"], np.uint32).view(np.float32)
    # TF flushes denormal inputs (tanh(x) = x there) and results (sigmoid of -104 < x < -87.3) to
    # zero; graphfn keeps them
    tiny = np.finfo(np.float32).tiny
    if name == "tanh":
        flushed = (x != 0) & (np.abs(x) < tiny)
    else:
        flushed = (expected == 0) & (x > -104) & (x < -80)
    op = getattr(tf.math, name)
    for n in (len(x), 1, 9, 17, 31):  # whole vectors and masked tails
        got = op(x[:n]).numpy()
        keep = ~flushed[:n]
        np.testing.assert_array_equal(got[keep], expected[:n][keep])
        assert np.all(np.abs(got[~keep]) < tiny)
    np.testing.assert_array_equal(op(tf.reshape(x[:1000], [40, 25])).numpy().reshape(-1)[~flushed[:1000]],
                                  expected[:1000][~flushed[:1000]])


def test_softmax_of_rows_with_nan_inf_and_huge_values():
    # TF 2.21: a float32 or bfloat16 row holding NaN or +inf is NaN there and 0 elsewhere (float16:
    # all NaN); log_softmax is all NaN; -inf gives 0; huge finite logits are fine
    x = np.array([[1, np.nan, 2], [1, np.inf, 2], [0, -np.inf, 0], [3e38, -3e38, 3e38]], np.float32)
    expected = np.array([[0, np.nan, 0], [0, np.nan, 0], [0.5, 0, 0.5], [0.5, 0, 0.5]], np.float32)
    np.testing.assert_array_equal(tf.nn.softmax(x).numpy(), expected)
    np.testing.assert_array_equal(tf.cast(tf.nn.softmax(tf.cast(x, tf.bfloat16)), tf.float32).numpy(), expected)
    np.testing.assert_array_equal(tf.nn.softmax(x[:2].astype(np.float16)).numpy(), np.full((2, 3), np.nan, np.float16))
    np.testing.assert_array_equal(tf.nn.softmax(x.astype(np.float64)).numpy()[:2], np.full((2, 3), np.nan))
    log = np.float32(np.log(0.5))
    np.testing.assert_array_equal(tf.nn.log_softmax(x).numpy(),
                                  np.array([[np.nan] * 3, [np.nan] * 3, [log, -np.inf, log], [log, -np.inf, log]], np.float32))
    # (a NaN in a long row also makes a few other entries NaN in TF, from how oneDNN's vector
    # lanes meet the NaN; graphfn gives NaN at the NaN only)
    wide = np.zeros((1, 37), np.float32)
    wide[0, 35] = np.inf
    expected = np.zeros((1, 37), np.float32)
    expected[0, 35] = np.nan
    np.testing.assert_array_equal(tf.nn.softmax(wide).numpy(), expected)


@pytest.mark.parametrize("name", ["exp", "tanh", "sigmoid"])
def test_an_element_does_not_depend_on_where_it_lies(name):
    # every element goes through the same vector code (before, exp computed the elements ahead of
    # the output's first 32-byte boundary and the last n % 8 with scalar std::exp)
    x = np.random.default_rng(11).uniform(-80, 80, 97).astype(np.float32)
    op = getattr(tf.math, name)
    whole = op(x).numpy()
    for start in range(0, 20):
        for n in (1, 3, 8, 13, 17, 40):
            np.testing.assert_array_equal(op(x[start:start + n]).numpy(), whole[start:start + n])
