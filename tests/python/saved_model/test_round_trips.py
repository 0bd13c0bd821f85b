"""Round trips: the seed tutorials' functions, a cond, a while loop with tf.print, FizzBuzz and
a trained MLP are saved from Python, then run from the loaded object in Python and by the C++
runner (graphfn-run); all three must give the original function's results. Expected values come
from arithmetic (written next to each case) or NumPy."""

import os
import sys

import numpy as np
import pytest

import graphfn as tf
from saved_cases import run_graphfn_run

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))
from train_mlp import MLP, make_data  # noqa: E402


def spec(shape, dtype=tf.float32, name=None):
    return tf.TensorSpec(shape, dtype, name)


def a_regular_function(x, y, b):  # seed 000, cell 3
    x = tf.matmul(x, y)
    x = x + b
    return x


def inner_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x


def outer_function(x):  # seed 000, cell 4: a Function applies to the functions it calls
    y = tf.constant([[2.0], [3.0]])
    b = tf.constant(4.0)
    return inner_function(x, y, b)


def get_MSE(y_true, y_pred):  # seed 000, cell 11
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)


def linear_layer(x):
    return 2 * x + 1


def deep_net(x):  # seed 002
    return tf.nn.relu(linear_layer(x))


def double(a):  # seed 002: one Function, three traces (int32, float32, string)
    return a + a


def fizzbuzz(max_num):  # seed 002, over tf.range so the loop is a While in the saved graph
    counter = 0
    for num in tf.range(max_num):
        if num % 3 == 0 and num % 5 == 0:
            tf.print("FizzBuzz")
        elif num % 3 == 0:
            tf.print("Fizz")
        elif num % 5 == 0:
            tf.print("Buzz")
        else:
            tf.print(num)
        counter += 1
    return counter


def tanh_until_small(x):  # seed 002's `while tf.reduce_sum(x) > 1` loop
    while tf.reduce_sum(x) > 1:
        tf.print(x)
        x = tf.tanh(x)
    return x


class CustomModel(tf.keras.Model):  # seed 002's Keras model with a converted `if`
    @tf.function(input_signature=[spec([None], tf.int32)])
    def call(self, input_data):
        if tf.reduce_mean(input_data) > 0:
            return input_data
        else:
            return input_data // 2


def fizzbuzz_text(n):
    words = []
    for num in range(n):
        words.append("FizzBuzz" if num % 15 == 0 else "Fizz" if num % 3 == 0 else "Buzz" if num % 5 == 0 else str(num))
    return "\n".join(words) + "\n"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tf.Module()
    root.a_regular_function = tf.function(a_regular_function,
                                          input_signature=[spec([1, 2]), spec([2, 1]), spec([])])
    root.outer_function = tf.function(outer_function, input_signature=[spec([None, 2])])
    root.get_MSE = tf.function(get_MSE, input_signature=[spec([5], tf.int32), spec([5], tf.int32)])
    root.deep_net = tf.function(deep_net, input_signature=[spec([None], tf.int32)])
    root.double = tf.function(double)
    for value in (tf.constant(1), tf.constant(1.1), tf.constant("a")):
        root.double(value)
    root.fizzbuzz = tf.function(fizzbuzz, input_signature=[spec([], tf.int32)])
    root.tanh_until_small = tf.function(tanh_until_small, input_signature=[spec([None])])
    root.model = CustomModel()
    signatures = {name: getattr(root, name) for name in
                  ("a_regular_function", "outer_function", "get_MSE", "deep_net", "fizzbuzz", "tanh_until_small")}
    signatures["double_string"] = root.double.get_concrete_function(tf.TensorSpec([], tf.string, "a"))
    signatures["custom_model"] = root.model.call
    path = tmp_path_factory.mktemp("seeds") / "seeds"
    tf.saved_model.save(root, str(path), signatures=signatures)
    return root, tf.saved_model.load(str(path)), path


def run_signature(path, tmp_path, signature, **inputs):
    """Runs `signature` in graphfn-run with .npy inputs; (outputs by name, stderr)."""
    args = [path, "--signature", signature, "--output_dir", tmp_path / signature]
    for name, value in inputs.items():
        np.save(tmp_path / (name + ".npy"), value)
        args += ["--input", "%s=%s" % (name, tmp_path / (name + ".npy"))]
    result = run_graphfn_run(*args)
    assert result.returncode == 0, result.stderr
    out = tmp_path / signature
    return {f[:-4]: np.load(out / f) for f in sorted(os.listdir(out))}, result.stderr


CASES = [  # (signature, inputs, expected output_0)
    ("a_regular_function", dict(x=np.array([[1.0, 2.0]], np.float32), y=np.array([[2.0], [3.0]], np.float32),
                                b=np.array(4.0, np.float32)), np.array([[12.0]], np.float32)),  # 1*2 + 2*3 + 4
    ("outer_function", dict(x=np.array([[1.0, 2.0], [0.0, -1.0]], np.float32)),
     np.array([[12.0], [1.0]], np.float32)),  # [1*2+2*3+4, 0*2-1*3+4]
    ("get_MSE", dict(y_true=np.array([7, 2, 7, 5, 2], np.int32), y_pred=np.array([9, 9, 0, 8, 8], np.int32)),
     np.int32(29)),  # (4+49+49+9+36) // 5, the seed's printed value
    ("deep_net", dict(x=np.array([1, 2, 3, -4], np.int32)), np.array([3, 5, 7, 0], np.int32)),  # relu(2x+1)
    ("custom_model", dict(input_data=np.array([-3, -6, 1], np.int32)), np.array([-2, -3, 0], np.int32)),  # mean<0: //2
    ("custom_model", dict(input_data=np.array([3, 6, -1], np.int32)), np.array([3, 6, -1], np.int32)),  # mean>0
]


@pytest.mark.parametrize("signature, inputs, expected", CASES, ids=[c[0] for c in CASES])
def test_seed_functions_in_python_and_in_the_runner(saved, tmp_path, signature, inputs, expected):
    root, loaded, path = saved
    python = loaded.signatures[signature](**{k: tf.constant(v) for k, v in inputs.items()})["output_0"].numpy()
    runner, _ = run_signature(path, tmp_path, signature, **inputs)
    for got in (python, runner["output_0"]):
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == expected.dtype


def test_polymorphic_function_keeps_its_traces(saved, tmp_path):
    _, loaded, path = saved
    assert loaded.double(tf.constant(1)).numpy() == 2
    assert loaded.double(tf.constant(1.1)).numpy() == np.float32(1.1) + np.float32(1.1)
    assert loaded.double(tf.constant("a")).numpy() == b"aa"
    with pytest.raises(ValueError, match="Could not find matching concrete function to call loaded from the SavedModel"):
        loaded.double(tf.constant([1, 2]))  # shape (2,) was never traced
    runner, _ = run_signature(path, tmp_path, "double_string", a=np.array(b"ab"))
    assert runner["output_0"] == b"abab"


def test_fizzbuzz_prints_the_same_in_python_and_in_the_runner(saved, tmp_path, capfd):
    _, loaded, path = saved
    assert loaded.fizzbuzz(tf.constant(16)).numpy() == 16
    assert capfd.readouterr().err == fizzbuzz_text(16)
    runner, stderr = run_signature(path, tmp_path, "fizzbuzz", max_num=np.array(16, np.int32))
    assert runner["output_0"] == 16
    assert stderr == fizzbuzz_text(16)


def test_while_loop_with_print_in_python_and_in_the_runner(saved, tmp_path, capfd):
    root, loaded, path = saved
    x = np.array([1.0, 2.0], np.float32)
    original = root.tanh_until_small(tf.constant(x)).numpy()
    printed = capfd.readouterr().err
    assert printed.startswith("[1 2]\n[0.761594176 0.964027584]\n")  # tanh(1), tanh(2) in float32
    assert loaded.tanh_until_small(tf.constant(x)).numpy().tolist() == original.tolist()
    assert capfd.readouterr().err == printed
    runner, stderr = run_signature(path, tmp_path, "tanh_until_small", x=x)
    assert runner["output_0"].tolist() == original.tolist()
    assert stderr == printed
    expected = x
    while expected.sum() > 1:
        expected = np.tanh(expected)
    np.testing.assert_allclose(original, expected, rtol=1e-6)


def test_trained_mlp_round_trips(tmp_path):
    tf.random.set_seed(1)
    x, y = make_data(n=128)
    model = MLP()
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def train_step(xb, yb):
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, model(xb, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    first = train_step(x, y).numpy()
    for _ in range(20):
        last = train_step(x, y).numpy()
    assert last < first  # it trained

    class Serving(tf.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        @tf.function(input_signature=[spec([None, 20], name="x")])
        def predict(self, x):
            return tf.nn.softmax(self.model(x))

    serving = Serving(model)
    tf.saved_model.save(serving, str(tmp_path / "mlp"))
    loaded = tf.saved_model.load(str(tmp_path / "mlp"))
    original = serving.predict(x).numpy()
    python = loaded.signatures["serving_default"](x=tf.constant(x))["output_0"].numpy()
    runner, _ = run_signature(tmp_path / "mlp", tmp_path, "serving_default", x=x)
    np.testing.assert_array_equal(python, original)
    np.testing.assert_array_equal(runner["output_0"], original)
    # The same forward pass in NumPy from the trained weights.
    w1, b1, w2, b2 = (v.numpy() for v in (model.hidden.kernel, model.hidden.bias, model.logits.kernel,
                                           model.logits.bias))
    logits = np.maximum(x @ w1 + b1, 0) @ w2 + b2
    softmax = np.exp(logits - logits.max(1, keepdims=True))
    np.testing.assert_allclose(original, softmax / softmax.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)
    saved_values = [v.numpy() for v in loaded.trainable_variables]  # the trained values were saved
    assert all(any(np.array_equal(w, s) for s in saved_values) for w in (w1, b1, w2, b2))
