"""Cases for test_nn_activations.py, test_nn_normalization.py and test_nn_losses.py: Python
expressions that run unchanged with `import tensorflow as tf` and `import graphfn as tf`. Their
results (dtype, shape, values) or errors (type, message) were recorded from TF 2.21 into
nn_goldens.json by tools/record_nn_goldens.py; the tests evaluate them with graphfn and compare.

The namespace gives the expressions small helpers: grad(f, x) (the tape gradient of f at x),
grad2(f, x) (the gradient of that gradient), grads(f, *xs) (gradients for several inputs) and
graph(f, *xs) (f under tf.function)."""

import json
import os

import numpy as np

GOLDENS = os.path.join(os.path.dirname(__file__), "nn_goldens.json")

X = [-3.0, -1.0, -0.25, 0.0, 0.5, 2.0, 7.0]
X4 = np.linspace(-2.0, 3.0, 2 * 3 * 2 * 4).reshape(2, 3, 2, 4).astype(np.float32)
CHANNELS = [0.5, -1.0, 2.0, 1.5]


def namespace(tf):
    def constant(x, dtype):
        return x if isinstance(x, tf.Tensor) else tf.constant(x, dtype=dtype)

    def grad(f, x, dtype="float32"):
        x = constant(x, dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)

    def grad2(f, x, dtype="float32"):
        x = constant(x, dtype)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
        return outer.gradient(g, x)

    def grads(f, *xs, dtype="float32"):
        xs = [constant(x, dtype) for x in xs]
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = f(*xs)
        return tape.gradient(y, xs)

    def graph(f, *xs):
        return tf.function(f)(*xs)

    def fbn(x, scale, offset, mean, variance, **attrs):
        """FusedBatchNormV3 (TF 2 exports it only as a raw op)."""
        raw = getattr(tf, "raw_ops", None)
        if raw is not None and hasattr(raw, "FusedBatchNormV3"):
            return raw.FusedBatchNormV3(x=x, scale=scale, offset=offset, mean=mean, variance=variance, **attrs)
        from graphfn.ops._op_table import ops  # graphfn without raw_ops: the op handle
        return ops.FusedBatchNormV3(x, scale, offset, mean, variance, **attrs)

    return {"tf": tf, "np": np, "grad": grad, "grad2": grad2, "grads": grads, "graph": graph, "fbn": fbn, "X": X, "X4": X4,
            "CHANNELS": CHANNELS}


def encode(value):
    """A result as JSON: tensors as dtype, shape and values; lists and tuples element-wise."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    array = value.numpy()
    return {"dtype": value.dtype.name, "shape": list(array.shape),
            "value": np.where(np.isnan(array), None, array).tolist() if array.dtype.kind == "f" else array.tolist()}


def load():
    with open(GOLDENS) as f:
        return json.load(f)


def check(expr, recorded, tf, rtol=2e-6, atol=1e-6):
    """Evaluates expr with graphfn and compares it with TF's recorded result or error."""
    ns = namespace(tf)
    if "error" in recorded:
        try:
            eval(expr, ns)
        except Exception as e:  # noqa: BLE001 (compared below)
            assert type(e).__name__ == recorded["error"], (expr, e)
            want = _comparable(recorded["message"])
            assert want in str(e), (expr, str(e), want)
            return
        raise AssertionError("%s: expected %s" % (expr, recorded["error"]))
    _compare(expr, encode(eval(expr, ns)), recorded["result"], rtol, atol)


def _comparable(message):
    """An attr-validation message up to its OpDef summary (graphfn's summaries leave out string
    attrs' allowed values: the registry has no string enums yet); others: their last line."""
    if "\n\t; NodeDef: " in message:
        return message.split("Op<name=")[0]
    return _last_line(message)


def _last_line(message):
    """The part of a message both libraries word alike: its last line, without an "XError: " prefix
    (graph-building errors start with TF's "in user code:" traceback)."""
    line = [part for part in message.strip().split("\n") if part.strip()][-1].strip()
    head, sep, rest = line.partition(": ")
    return rest if sep and head.endswith("Error") and " " not in head else line


def _compare(expr, got, want, rtol, atol):
    if want is None or isinstance(want, list):
        assert (got is None) == (want is None), (expr, got, want)
        if want is not None:
            assert len(got) == len(want), expr
            for g, w in zip(got, want):
                _compare(expr, g, w, rtol, atol)
        return
    assert got["dtype"] == want["dtype"], (expr, got["dtype"], want["dtype"])
    assert got["shape"] == want["shape"], (expr, got["shape"], want["shape"])
    g = np.array(got["value"], dtype=float if want["dtype"].startswith("float") else None)
    w = np.array(want["value"], dtype=float if want["dtype"].startswith("float") else None)
    np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=expr)
