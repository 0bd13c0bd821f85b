"""A fully known TensorShape converts to a 1-D integer tensor (`tf.reduce_prod(kernel.shape)`),
a partially known one raises TF's ValueError. Expected values, dtypes and messages were printed
by TensorFlow 2.21 for the same code."""

import pytest

import graphfn as tf

S = tf.TensorShape([4, 10])
PARTIAL = "Cannot convert a partially known TensorShape (None, 3) to a Tensor."


def _value(t):
    assert isinstance(t, tf.Tensor)
    return (t.numpy().tolist(), t.dtype.name)


def test_reduce_prod_of_a_layer_kernel_shape():
    layer = tf.keras.layers.Dense(10)
    layer.build((None, 4))
    assert _value(tf.reduce_prod(layer.kernel.shape)) == (40, "int32")

    @tf.function
    def in_function():
        return tf.reduce_prod(layer.kernel.shape)

    assert _value(in_function()) == (40, "int32")


def test_convert_to_tensor_and_constant():
    assert _value(tf.convert_to_tensor(S)) == ([4, 10], "int32")
    assert _value(tf.convert_to_tensor(S, tf.int64)) == ([4, 10], "int64")
    assert _value(tf.convert_to_tensor(S, dtype_hint=tf.int64)) == ([4, 10], "int64")
    assert _value(tf.convert_to_tensor(S, dtype_hint=tf.float32)) == ([4, 10], "int32")
    assert _value(tf.convert_to_tensor(tf.TensorShape([]))) == ([], "int32")
    assert _value(tf.convert_to_tensor(tf.TensorShape([2 ** 31, 3]))) == ([2147483648, 3], "int64")
    assert _value(tf.constant(S)) == ([4, 10], "int32")
    assert _value(tf.constant(S, tf.int64)) == ([4, 10], "int64")
    assert _value(tf.constant(S, tf.float32)) == ([4.0, 10.0], "float32")


def test_conversion_errors():
    with pytest.raises(TypeError) as e:
        tf.convert_to_tensor(S, tf.float32)
    assert str(e.value) == ("Cannot convert TensorShape (4, 10) to dtype <dtype: 'float32'>. Allowed dtypes are "
                            "tf.int32 and tf.int64.")
    with pytest.raises(ValueError) as e:
        tf.convert_to_tensor(tf.TensorShape([2 ** 31, 3]), tf.int32)
    assert str(e.value) == ("Cannot convert TensorShape (2147483648, 3) to dtype int32; a dimension is too large. "
                            "Consider using tf.int64.")
    with pytest.raises(ValueError) as e:
        tf.convert_to_tensor(tf.TensorShape(None))
    assert str(e.value) == "Cannot convert a partially known TensorShape <unknown> to a Tensor."
    with pytest.raises(ValueError) as e:
        tf.constant(tf.TensorShape([None, 3]))
    assert str(e.value) == "Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor."
    with pytest.raises(ValueError, match="Cannot take the length of shape with unknown rank."):
        tf.constant(tf.TensorShape(None))  # TF's message also carries a traceback


@pytest.mark.parametrize("make", [
    lambda s: tf.convert_to_tensor(s),
    lambda s: tf.reduce_prod(s),
    lambda s: tf.reshape(tf.range(6), s),
    lambda s: tf.zeros(s),
    lambda s: tf.fill(s, 1),
], ids=["convert_to_tensor", "reduce_prod", "reshape", "zeros", "fill"])
def test_partially_known_shapes_raise(make):
    with pytest.raises(ValueError) as e:
        make(tf.TensorShape([None, 3]))
    assert str(e.value) == PARTIAL


def test_ops_taking_shapes():
    x = tf.ones([2, 3])
    assert _value(tf.zeros(x.shape)) == ([[0.0] * 3] * 2, "float32")
    assert _value(tf.ones(x.shape)) == ([[1.0] * 3] * 2, "float32")
    assert _value(tf.fill(x.shape, 7)) == ([[7] * 3] * 2, "int32")
    assert _value(tf.reshape(tf.range(6), x.shape)) == ([[0, 1, 2], [3, 4, 5]], "int32")
    assert _value(tf.broadcast_to(1.0, x.shape)) == ([[1.0] * 3] * 2, "float32")
    assert _value(tf.shape(tf.random.uniform(x.shape))) == ([2, 3], "int32")
    assert _value(tf.convert_to_tensor(S) + 1) == ([5, 11], "int32")
    assert _value(tf.add(S, 1)) == ([5, 11], "int32")
    assert _value(tf.stack([S])) == ([[4, 10]], "int32")
    assert _value(tf.cast(S, tf.float32)) == ([4.0, 10.0], "float32")
    assert _value(tf.concat([S, [2]], 0)) == ([4, 10, 2], "int32")
    assert _value(tf.equal(S, [4, 10])) == ([True, True], "bool")
    assert _value(tf.convert_to_tensor(S.dims)) == ([4, 10], "int32")
    assert _value(tf.convert_to_tensor(S[0])) == (4, "int32")


def test_in_a_function():
    @tf.function
    def f(t):
        return (tf.reduce_prod(t.shape), tf.convert_to_tensor(t.shape), tf.zeros(t.shape),
                tf.reshape(tf.range(6), t.shape), tf.fill(t.shape, 2.0), tf.add(t.shape, 1))

    values = [_value(r) for r in f(tf.ones([2, 3]))]
    assert values == [(6, "int32"), ([2, 3], "int32"), ([[0.0] * 3] * 2, "float32"),
                      ([[0, 1, 2], [3, 4, 5]], "int32"), ([[2.0] * 3] * 2, "float32"), ([3, 4], "int32")]


@pytest.mark.parametrize("make", [
    lambda t: tf.convert_to_tensor(t.shape),
    lambda t: tf.zeros(t.shape),
], ids=["convert_to_tensor", "zeros"])
def test_partially_known_shapes_raise_in_a_function(make):
    f = tf.function(make)
    with pytest.raises(ValueError) as e:
        f.get_concrete_function(tf.TensorSpec([None, 3]))
    assert str(e.value).endswith("ValueError: " + PARTIAL + "\n")
