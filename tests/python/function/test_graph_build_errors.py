"""Errors while tracing, as TF 2.21 raises them (texts copied from its output for the same
functions): a dtype mismatch is a TypeError naming the argument, a shape function's error a
ValueError that describes the node, its input shapes and the input values it read. Run with
GRAPHFN_CASES_BACKEND=tensorflow to re-check against TensorFlow."""

import importlib
import os

import pytest

tf = importlib.import_module(os.environ.get("GRAPHFN_CASES_BACKEND", "graphfn"))

CASES = [
    (lambda x: tf.add(x, tf.constant(1.0)), lambda: tf.constant(1), TypeError,
     "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."),
    (lambda x: x + tf.ones([4]), lambda: tf.ones([3]), ValueError,
     "Dimensions must be equal, but are 3 and 4 for '{{node add}} = AddV2[T=DT_FLOAT](x, ones)' with input "
     "shapes: [3], [4]."),
    (lambda x: tf.matmul(x, x), lambda: tf.ones([2, 3]), ValueError,
     "Dimensions must be equal, but are 3 and 2 for '{{node MatMul}} = MatMul[T=DT_FLOAT, grad_a=false, "
     "grad_b=false, transpose_a=false, transpose_b=false](x, x)' with input shapes: [2,3], [2,3]."),
    (lambda x: tf.matmul(x, tf.constant([1.0])), lambda: tf.ones([2, 3]), ValueError,
     "Shape must be rank 2 but is rank 1 for '{{node MatMul}} = MatMul[T=DT_FLOAT, grad_a=false, grad_b=false, "
     "transpose_a=false, transpose_b=false](x, Const)' with input shapes: [2,3], [1]."),
    (lambda x: tf.reshape(x, [7]), lambda: tf.ones([3]), ValueError,
     "Cannot reshape a tensor with 3 elements to shape [7] (7 elements) for '{{node Reshape}} = "
     "Reshape[T=DT_FLOAT, Tshape=DT_INT32](x, Reshape/shape)' with input shapes: [3], [1] and with input "
     "tensors computed as partial shapes: input[1] = [7]."),
    (lambda x: tf.reduce_sum(x, axis=3), lambda: tf.ones([3]), ValueError,
     "Invalid reduction dimension 3 for input with 1 dimensions. for '{{node Sum}} = Sum[T=DT_FLOAT, "
     "Tidx=DT_INT32, keep_dims=false](x, Sum/reduction_indices)' with input shapes: [3], [] and with computed "
     "input tensors: input[1] = <3>."),
    (lambda x: tf.expand_dims(x, 3), lambda: tf.ones([2]), ValueError,
     "dim 3 not in the interval [-2, 1]. for '{{node ExpandDims}} = ExpandDims[T=DT_FLOAT, Tdim=DT_INT32](x, "
     "ExpandDims/dim)' with input shapes: [2], [] and with computed input tensors: input[1] = <3>."),
]


@pytest.mark.parametrize("python_function, make_input, error, message", CASES)
def test_tracing_error_type_and_text(python_function, make_input, error, message):
    with pytest.raises(error) as e:
        tf.function(python_function, autograph=False)(make_input())
    assert str(e.value) == message


def test_eager_ops_keep_the_kernel_words():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[4\]"):
        tf.ones([3]) + tf.ones([4])
