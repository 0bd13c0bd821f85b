"""Programs for test_ragged_dispatch_order.py, each run in a fresh interpreter: the public API
is looked up before the first RaggedTensor / SparseTensor / dispatch registration exists.
Run as `python ragged_dispatch_order_script.py gf|tf CASE` (tf: TensorFlow, to record)."""

import sys

if sys.argv[1] == "tf":
    import tensorflow as tf
else:
    import graphfn as tf

case = sys.argv[2]
if case == "reduce_sum_inline":
    print(tf.reduce_sum(tf.ragged.constant([[1, 2], [3]])))
elif case == "abs_fetched_early":
    abs_ = tf.math.abs
    print(abs_(tf.ragged.constant([[-1, 2], [-3]])))
elif case == "binary_and_list_apis":
    add, concat, reduce_max = tf.add, tf.concat, tf.math.reduce_max
    rt = tf.ragged.constant([[1.5, -2.0], [3.0]])
    print(add(rt, 1.0))
    print(concat([rt, rt], axis=0))
    print(reduce_max(rt, axis=1))
elif case == "inside_function":
    reduce_sum = tf.reduce_sum
    square = tf.math.square

    @tf.function
    def f(rt):
        return reduce_sum(square(rt), axis=1)

    print(f(tf.ragged.constant([[1, 2], [3]])))
elif case == "sparse_fetched_early":
    neg = tf.math.negative
    sp = tf.sparse.SparseTensor(indices=[[0, 1], [1, 0]], values=[2.0, -3.0], dense_shape=[2, 2])
    print(tf.sparse.to_dense(neg(sp)))
elif case == "strings_fetched_early":
    length, upper = tf.strings.length, tf.strings.upper
    words = tf.strings.split(tf.constant(["a bc", "def"]))
    print(length(words))
    print(upper(words))
elif case == "extension_type_fetched_early":
    reduce_sum = tf.math.reduce_sum

    class MaskedTensor(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

    @tf.experimental.dispatch_for_api(tf.math.reduce_sum)
    def masked_sum(input_tensor: MaskedTensor, axis=None, keepdims=False, name=None):
        return reduce_sum(tf.where(input_tensor.mask, input_tensor.values, 0), axis)

    m = MaskedTensor(tf.constant([1, 2, 3]), tf.constant([True, False, True]))
    print(reduce_sum(m))
    print(tf.function(lambda m: reduce_sum(m))(m))
    print(reduce_sum(tf.constant([1, 2])))
elif case == "identity_and_signature":
    import inspect
    reduce_sum = tf.reduce_sum
    tf.ragged.constant([[1]])
    print(reduce_sum is tf.reduce_sum, tf.reduce_sum is tf.math.reduce_sum, reduce_sum.__name__)
    print(inspect.signature(reduce_sum))
    print(reduce_sum(tf.constant([[1, 2], [3, 4]]), axis=0))
