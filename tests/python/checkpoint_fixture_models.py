"""The models of the checkpoint fixtures, written once for TensorFlow and graphfn (`tf` is
either module): checkpoint_fixtures/make_fixtures.py records them with TF 2.21, the tests build
the same objects on graphfn."""

import numpy as np


def as_json(value):
    """A checkpoint value as the JSON expected.json holds (bytes as latin-1 text, complex as pairs)."""
    if isinstance(value, bytes):
        return value.decode("latin-1")
    value = np.asarray(value)
    if value.dtype == object:
        return [v.decode("latin-1") for v in value.reshape(-1)]
    if value.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in value.reshape(-1)]
    return value.astype(np.float64).tolist() if value.dtype.kind == "f" or value.dtype.name == "bfloat16" \
        else value.tolist()


def make_module(tf):
    """A tf.Module holding a variable of each common dtype, nested modules, a list and a dict."""
    net = tf.Module()
    net.v = tf.Variable([1.5, -2.25, 3.0], name="v")
    net.sub = tf.Module()
    net.sub.w = tf.Variable(np.arange(6, dtype=np.int32).reshape(2, 3), name="w")
    net.sub.d = tf.Variable(np.array([0.1, 0.2]), name="d")
    net.h = tf.Variable(np.array([1.5, -0.25], np.float16), name="h")
    net.bf = tf.Variable(tf.constant([1.5, 3.0], tf.bfloat16), name="bf")
    net.i8 = tf.Variable(np.array([-3, 7], np.int8), name="i8")
    net.u8 = tf.Variable(np.array([0, 255], np.uint8), name="u8")
    net.i64 = tf.Variable(np.int64(2) ** 40, name="i64")
    net.c64 = tf.Variable(np.array([1 + 2j, -0.5j], np.complex64), name="c64")
    net.flag = tf.Variable([True, False], name="flag")
    net.s = tf.Variable(b"hello", name="s")
    net.sv = tf.Variable([b"a", b"", b"xyz"], name="sv")
    net.lst = [tf.Variable(5.0, name="five"), {"a": tf.Variable(b"hi", name="a"),
                                                 "b.c/d": tf.Variable([True, False], name="bcd")}]
    return net


def change_module(net):
    """New values between the fixture's two saves."""
    net.v.assign([4.0, 5.0, -6.5])
    net.sub.w.assign_add(np.ones((2, 3), np.int32))
    net.s.assign(b"world")
    net.lst[0].assign(-1.0)


def keras_data():
    x = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    return x, y


def make_keras_sequential(keras):
    keras.utils.set_random_seed(7)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(2)])
    optimizer = keras.optimizers.Adam(0.05)
    model.compile(optimizer, keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model, optimizer


def make_keras_functional(keras):
    keras.utils.set_random_seed(11)
    inputs = keras.Input((3,))
    hidden = keras.layers.Dense(4, activation="relu")(inputs)
    outputs = keras.layers.Dense(2, activation="softmax")(keras.layers.Concatenate()([hidden, inputs]))
    model = keras.Model(inputs, outputs)
    model.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy")
    return model
