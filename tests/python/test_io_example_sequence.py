"""tf.io.FixedLenSequenceFeature in parse_example / parse_single_example: TF 2.21's values,
shapes and errors (recorded with ~/tf/bin/python from the same Examples). TF words a bad value
count differently for one Example (parse_single_example) and for a batch; both are checked."""

import pytest

import graphfn as tf


def example(**features):
    """A serialized Example from {key: (kind, values)}; kind "f" (float), "i" (int64) or "b" (bytes)."""
    feature = {}
    for key, (kind, values) in features.items():
        if kind == "f":
            feature[key] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
        elif kind == "i":
            feature[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
        else:
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString(deterministic=True)


def namespace():
    return {
        "tf": tf,
        "E": [example(a=("f", [1., 2., 3., 4.]), s=("b", [b"x"]), n=("i", [1, 2, 3])),
              example(a=("f", [5., 6.]), n=("i", [])),
              example(s=("b", [b"y", b"zz", b"w"]), n=("i", [7]))],
        "B": [example(a=("f", [1., 2., 3., 4.]), s=("b", [b"x", b"y", b"z"]), n=("i", [1, 2, 3]))],
    }


# (function, serialized, features, TF's {key: (dtype, shape, values)} or (exception class, message))
CASES = [
    ('parse_example', 'E', '{"a": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True)}', {'a': ('float32', (3, 2, 2), [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]])}),
    ('parse_example', 'E', '{"a": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True, default_value=-1.0)}', {'a': ('float32', (3, 4), [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, -1.0, -1.0], [-1.0, -1.0, -1.0, -1.0]])}),
    ('parse_example', 'E', '{"s": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True)}', {'s': ('object', (3, 3), [[b'x', b'', b''], [b'', b'', b''], [b'y', b'zz', b'w']])}),
    ('parse_example', 'E', '{"s": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True, default_value="pad")}', {'s': ('object', (3, 3), [[b'x', b'pad', b'pad'], [b'pad', b'pad', b'pad'], [b'y', b'zz', b'w']])}),
    ('parse_example', 'E', '{"n": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=9)}', {'n': ('int64', (3, 3), [[1, 2, 3], [9, 9, 9], [7, 9, 9]])}),
    ('parse_example', 'E', '{"n": tf.io.FixedLenSequenceFeature([1], tf.int64, allow_missing=True)}', {'n': ('int64', (3, 3, 1), [[[1], [2], [3]], [[0], [0], [0]], [[7], [0], [0]]])}),
    ('parse_example', 'E', '{"a": tf.io.FixedLenSequenceFeature([3], tf.float32, allow_missing=True)}', ('InvalidArgumentError', 'Name: <unknown>, Key: a, Index: 0.  Number of float values is not a multiple of stride length. Saw 4 values but output shape is: [?,3] [Op:ParseExampleV2]')),
    ('parse_example', 'E', '{"a": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)}', ('InvalidArgumentError', "Name: <unknown>, Key: a, Index: 0.  Data types don't match. Data type: float but expected type: int64 [Op:ParseExampleV2]")),
    ('parse_example', 'E', '{"zz": tf.io.FixedLenSequenceFeature([2, 2], tf.float32, allow_missing=True)}', {'zz': ('float32', (3, 0, 2, 2), [[], [], []])}),
    ('parse_example', 'E', '{"a": tf.io.FixedLenSequenceFeature([2], tf.float32)}', ('ValueError', 'Unsupported: FixedLenSequenceFeature requires allow_missing to be True.')),
    ('parse_example', 'E', '{"a": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True, default_value=[1.0, 2.0])}', ('InvalidArgumentError', 'Input to reshape is a tensor with 2 values, but the requested shape has 1 [Op:Reshape]')),
    ('parse_example', 'E', '{"a": tf.io.FixedLenSequenceFeature([None], tf.float32, allow_missing=True)}', ('InvalidArgumentError', 'dense_shapes[0] has unknown rank or unknown inner dimensions: [?,?] [Op:ParseExampleV2]')),
    ('parse_single_example', 'E[0]', '{"a": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True), "n": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)}', {'a': ('float32', (2, 2), [[1.0, 2.0], [3.0, 4.0]]), 'n': ('int64', (3,), [1, 2, 3])}),
    ('parse_single_example', 'E[1]', '{"n": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=5), "s": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True)}', {'n': ('int64', (0,), []), 's': ('object', (0,), [])}),
    ('parse_single_example', 'E[2]', '{"a": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True)}', {'a': ('float32', (0, 2), [])}),
    ('parse_single_example', 'E[0]', '{"a": tf.io.FixedLenSequenceFeature([3], tf.float32, allow_missing=True)}', ('InvalidArgumentError', 'Error while parsing feature with key a: number of elements should be divisible by 3, found 4 instead [Op:ParseExampleV2]')),
    ('parse_example', 'E', '{"a": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True), "n": tf.io.FixedLenFeature([], tf.int64, default_value=0)}', ('InvalidArgumentError', 'Name: <unknown>, Key: n, Index: 0.  Number of int64 values != expected.  Values size: 3 but output shape: [] [Op:ParseExampleV2]')),
    ('parse_example', 'E', '{"a": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True, default_value="x")}', ('TypeError', "Cannot convert 'x' to EagerTensor of dtype float")),
    ('parse_example', 'B', '{"s": tf.io.FixedLenSequenceFeature([2], tf.string, allow_missing=True)}', ('InvalidArgumentError', 'Name: <unknown>, Key: s, Index: 0.  Number of bytes values is not a multiple of stride length. Saw 3 values but output shape is: [?,2] [Op:ParseExampleV2]')),
    ('parse_single_example', 'B[0]', '{"s": tf.io.FixedLenSequenceFeature([2], tf.string, allow_missing=True)}', ('InvalidArgumentError', 'Error while parsing feature with key s: number of elements should be divisible by 2, found 3 instead [Op:ParseExampleV2]')),
    ('parse_example', 'B * 2', '{"s": tf.io.FixedLenSequenceFeature([2], tf.string, allow_missing=True)}', ('InvalidArgumentError', 'Name: <unknown>, Key: s, Index: 0.  Number of bytes values is not a multiple of stride length. Saw 3 values but output shape is: [?,2] [Op:ParseExampleV2]')),
    ('parse_example', 'B', '{"n": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)}', ('InvalidArgumentError', 'Name: <unknown>, Key: n, Index: 0.  Number of int64 values is not a multiple of stride length. Saw 3 values but output shape is: [?,2] [Op:ParseExampleV2]')),
    ('parse_single_example', 'B[0]', '{"n": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)}', ('InvalidArgumentError', 'Error while parsing feature with key n: number of elements should be divisible by 2, found 3 instead [Op:ParseExampleV2]')),
    ('parse_example', 'B * 2', '{"n": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)}', ('InvalidArgumentError', 'Name: <unknown>, Key: n, Index: 0.  Number of int64 values is not a multiple of stride length. Saw 3 values but output shape is: [?,2] [Op:ParseExampleV2]')),
    ('parse_example', 'B', '{"a": tf.io.FixedLenSequenceFeature([3, 1], tf.float32, allow_missing=True)}', ('InvalidArgumentError', 'Name: <unknown>, Key: a, Index: 0.  Number of float values is not a multiple of stride length. Saw 4 values but output shape is: [?,3,1] [Op:ParseExampleV2]')),
    ('parse_single_example', 'B[0]', '{"a": tf.io.FixedLenSequenceFeature([3, 1], tf.float32, allow_missing=True)}', ('InvalidArgumentError', 'Error while parsing feature with key a: number of elements should be divisible by 3, found 4 instead [Op:ParseExampleV2]')),
    ('parse_example', 'B * 2', '{"a": tf.io.FixedLenSequenceFeature([3, 1], tf.float32, allow_missing=True)}', ('InvalidArgumentError', 'Name: <unknown>, Key: a, Index: 0.  Number of float values is not a multiple of stride length. Saw 4 values but output shape is: [?,3,1] [Op:ParseExampleV2]')),
    ('parse_example', 'B', '{"s": tf.io.FixedLenFeature([2], tf.string)}', ('InvalidArgumentError', "Name: <unknown>, Key: s, Index: 0.  Can't parse serialized Example. [Op:ParseExampleV2]")),
    ('parse_single_example', 'B[0]', '{"s": tf.io.FixedLenFeature([2], tf.string)}', ('InvalidArgumentError', "Key: s.  Can't parse serialized Example: Parsing bytes_list failed. [Op:ParseExampleV2]")),
    ('parse_example', 'B * 2', '{"s": tf.io.FixedLenFeature([2], tf.string)}', ('InvalidArgumentError', "Name: <unknown>, Key: s, Index: 0.  Can't parse serialized Example. [Op:ParseExampleV2]")),
    ('parse_example', 'B', '{"a": tf.io.FixedLenFeature([2, 1], tf.float32)}', ('InvalidArgumentError', 'Name: <unknown>, Key: a, Index: 0.  Number of float values != expected.  Values size: 4 but output shape: [2,1] [Op:ParseExampleV2]')),
    ('parse_single_example', 'B[0]', '{"a": tf.io.FixedLenFeature([2, 1], tf.float32)}', ('InvalidArgumentError', "Key: a.  Can't parse serialized Example: Some float_list slice was not parsed. [Op:ParseExampleV2]")),
    ('parse_example', 'B * 2', '{"a": tf.io.FixedLenFeature([2, 1], tf.float32)}', ('InvalidArgumentError', 'Name: <unknown>, Key: a, Index: 0.  Number of float values != expected.  Values size: 4 but output shape: [2,1] [Op:ParseExampleV2]')),
    ('parse_example', 'B', '{"n": tf.io.FixedLenFeature([], tf.int64)}', ('InvalidArgumentError', 'Name: <unknown>, Key: n, Index: 0.  Number of int64 values != expected.  Values size: 3 but output shape: [] [Op:ParseExampleV2]')),
    ('parse_single_example', 'B[0]', '{"n": tf.io.FixedLenFeature([], tf.int64)}', ('InvalidArgumentError', "Key: n.  Can't parse serialized Example: Some int64_list slice was not parsed. [Op:ParseExampleV2]")),
    ('parse_example', 'B * 2', '{"n": tf.io.FixedLenFeature([], tf.int64)}', ('InvalidArgumentError', 'Name: <unknown>, Key: n, Index: 0.  Number of int64 values != expected.  Values size: 3 but output shape: [] [Op:ParseExampleV2]')),
    ('parse_example', 'B', '{"a": tf.io.FixedLenFeature([None], tf.float32)}', ('ValueError', 'First dimension of shape for feature a unknown. Consider using FixedLenSequenceFeature. Received feature=FixedLenFeature(shape=[None], dtype=tf.float32, default_value=None).')),
]


@pytest.mark.parametrize("function, serialized, features, expected", CASES)
def test_fixed_len_sequence_feature_matches_tensorflow(function, serialized, features, expected):
    ns = namespace()
    call = getattr(tf.io, function)
    if isinstance(expected, dict):
        got = call(eval(serialized, ns), eval(features, ns))
        shown = {k: (v.numpy().dtype.name, v.numpy().shape, v.numpy().tolist()) for k, v in got.items()}
        assert shown == expected
        return
    error, message = expected
    error = getattr(tf.errors, error, None) or {"ValueError": ValueError, "TypeError": TypeError}[error]
    with pytest.raises(error) as info:
        call(eval(serialized, ns), eval(features, ns))
    assert message in str(info.value)


def test_fixed_len_sequence_feature_in_functions():
    ns = namespace()
    spec = {"a": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True)}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def batch(x):
        return tf.io.parse_example(x, spec)["a"]

    @tf.function(input_signature=[tf.TensorSpec([], tf.string)])
    def single(x):
        return tf.io.parse_single_example(x, spec)["a"]

    # TF 2.21: static shapes (None, None, 2) and (None, 2); the values as eagerly.
    assert batch.get_concrete_function().structured_outputs.shape.as_list() == [None, None, 2]
    assert single.get_concrete_function().structured_outputs.shape.as_list() == [None, 2]
    assert batch(tf.constant(ns["E"])).numpy().tolist() == [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [0.0, 0.0]],
                                                           [[0.0, 0.0], [0.0, 0.0]]]
    assert single(tf.constant(ns["E"][1])).numpy().tolist() == [[5.0, 6.0]]
