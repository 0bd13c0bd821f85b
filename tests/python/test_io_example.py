"""tf.train.Example & co. (real protobuf messages) and tf.io.parse_single_example /
parse_example (the ParseExampleV2 op). Bytes, text and results recorded from TensorFlow 2.21."""

import re
import subprocess
import sys

import pytest

import graphfn as tf

# TF's bytes for Example(features={a: float [1.5, 2.5], b: int64 [7], c: bytes [hi, yo],
# s: float [1, 2, 3, 4]}) as TF serialized it (its map order that run: s, c, b, a).
E1 = bytes.fromhex("0a4b0a190a0173121412120a100000803f0000004000004040000080400a0f0a0163120a0a080a0268690a0279"
                   "6f0a0a0a016212051a030a01070a110a0161120c120a0a080000c03f00002040")


def F(kind, *values):
    if kind == "bytes":
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=list(values)))
    if kind == "float":
        return tf.train.Feature(float_list=tf.train.FloatList(value=list(values)))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=list(values)))


def ex(**features):
    return tf.train.Example(features=tf.train.Features(feature=features)).SerializeToString(deterministic=True)


E2 = ex(a=F("float", 3.0, 4.0), c=F("bytes", b"x"), s=F("float", 5, 6))


def values(result):
    return {k: (v.dtype.name, v.shape.as_list(), v.numpy().tolist()) for k, v in result.items()}


def test_messages_are_protobuf_and_parse_tf_bytes():
    e = tf.train.Example.FromString(E1)
    assert list(e.features.feature["a"].float_list.value) == [1.5, 2.5]
    assert e.features.feature["c"].WhichOneof("kind") == "bytes_list"
    # TF's text form (protobuf's) lists the map in the order read, here TF's wire order
    assert str(e).startswith('features {\n  feature {\n    key: "s"\n    value {\n      float_list {\n'
                             '        value: 1\n        value: 2\n')
    same = tf.train.Example()
    same.ParseFromString(E1)
    assert same == e
    # deterministic bytes: the map sorted by key
    assert e.SerializeToString(deterministic=True) == ex(a=F("float", 1.5, 2.5), b=F("int64", 7),
                                                         c=F("bytes", b"hi", b"yo"), s=F("float", 1, 2, 3, 4))


def test_sequence_example_bytes_and_text():
    seq = tf.train.SequenceExample(
        context=tf.train.Features(feature={"x": F("int64", 1)}),
        feature_lists=tf.train.FeatureLists(feature_list={"f": tf.train.FeatureList(feature=[F("float", 1.0),
                                                                                              F("float", 2.0)])}))
    assert seq.SerializeToString().hex() == ("0a0c0a0a0a017812051a030a0101121b0a190a016612140a0812060a040000803f0a0812"
                                             "060a0400000040")
    assert str(seq) == ('context {\n  feature {\n    key: "x"\n    value {\n      int64_list {\n        value: 1\n'
                        '      }\n    }\n  }\n}\nfeature_lists {\n  feature_list {\n    key: "f"\n    value {\n'
                        '      feature {\n        float_list {\n          value: 1\n        }\n      }\n'
                        '      feature {\n        float_list {\n          value: 2\n        }\n      }\n    }\n'
                        '  }\n}\n')


def test_protobuf_is_imported_on_first_use_only():
    code = ("import sys, graphfn as tf; assert 'google.protobuf' not in sys.modules; "
            "tf.train.Example; assert 'google.protobuf' in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "ok\n"


def test_the_readable_proto_matches_the_descriptors():
    import os

    from graphfn.file_io import example_pb
    with open(os.path.join(os.path.dirname(example_pb.__file__), "example.proto")) as f:
        text = f.read()
    for message in example_pb.TRAIN_NAMES:
        descriptor = getattr(example_pb, message).DESCRIPTOR
        assert "message %s {" % message in text
        for field in descriptor.fields:
            if field.message_type is not None and field.message_type.GetOptions().map_entry:
                continue
            assert re.search(r"\b%s = %d\b" % (field.name, field.number), text), (message, field.name)


def test_parse_single_example():
    got = tf.io.parse_single_example(E1, {"a": tf.io.FixedLenFeature([2], tf.float32),
                                          "b": tf.io.FixedLenFeature([], tf.int64),
                                          "c": tf.io.FixedLenFeature([2], tf.string)})
    assert values(got) == {"a": ("float32", [2], [1.5, 2.5]), "b": ("int64", [], 7),
                           "c": ("string", [2], [b"hi", b"yo"])}
    assert values(tf.io.parse_single_example(E2, {"b": tf.io.FixedLenFeature([], tf.int64, default_value=-1)})) == {
        "b": ("int64", [], -1)}
    assert values(tf.io.parse_single_example(E2, {"b": tf.io.FixedLenFeature([2], tf.int64, default_value=[1, 2])})) \
        == {"b": ("int64", [2], [1, 2])}
    assert values(tf.io.parse_single_example(E1, {"s": tf.io.FixedLenFeature([2, 2], tf.float32)})) == {
        "s": ("float32", [2, 2], [[1.0, 2.0], [3.0, 4.0]])}
    got = tf.io.parse_single_example(E1, {"s": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
                                          "z": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})
    assert values(got) == {"s": ("float32", [2, 2], [[1.0, 2.0], [3.0, 4.0]]), "z": ("int64", [0], [])}
    assert values(tf.io.parse_single_example(b"", {"a": tf.io.FixedLenFeature([], tf.float32, default_value=0.5)})) \
        == {"a": ("float32", [], 0.5)}
    empty_feature = tf.train.Example(features=tf.train.Features(feature={"a": tf.train.Feature()})).SerializeToString()
    assert values(tf.io.parse_single_example(empty_feature, {"a": tf.io.FixedLenFeature([], tf.float32,
                                                                                        default_value=2.0)})) == {
        "a": ("float32", [], 2.0)}
    assert values(tf.io.parse_single_example(empty_feature, {
        "a": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True)})) == {"a": ("float32", [0], [])}


def test_parse_example_batch_pads_sequences():
    got = tf.io.parse_example([E1, E2], {
        "a": tf.io.FixedLenFeature([2], tf.float32),
        "c": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True),
        "s": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True, default_value=-1.0)})
    assert values(got) == {"a": ("float32", [2, 2], [[1.5, 2.5], [3.0, 4.0]]),
                           "c": ("string", [2, 2], [[b"hi", b"yo"], [b"x", b""]]),
                           "s": ("float32", [2, 4], [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, -1.0, -1.0]])}


PARSE_ERRORS = [  # (serialized, features, kwargs, TF's exception, TF's message)
    (E2, {"b": tf.io.FixedLenFeature([], tf.int64)}, {}, tf.errors.InvalidArgumentError,
     "Feature: b (data type: int64) is required but could not be found. [Op:ParseExampleV2]"),
    (E1, {"a": tf.io.FixedLenFeature([2], tf.int64)}, {}, tf.errors.InvalidArgumentError,
     "Key: a.  Data types don't match. Data type: float but expected type: int64 [Op:ParseExampleV2]"),
    (E1, {"a": tf.io.FixedLenFeature([3], tf.float32)}, {}, tf.errors.InvalidArgumentError,
     "Key: a.  Can't parse serialized Example: Some float_list slice was not parsed. [Op:ParseExampleV2]"),
    (E1, {"s": tf.io.FixedLenSequenceFeature([3], tf.float32, allow_missing=True)}, {},
     tf.errors.InvalidArgumentError,
     "Error while parsing feature with key s: number of elements should be divisible by 3, found 4 instead"),
    (E1, {"s": tf.io.FixedLenSequenceFeature([], tf.float32)}, {}, ValueError,
     "Unsupported: FixedLenSequenceFeature requires allow_missing to be True."),
    ([E1], {"a": tf.io.FixedLenFeature([2], tf.float32)}, {}, ValueError, "Input serialized must be a scalar"),
    (E1, {}, {}, ValueError, "Invalid argument: features cannot be empty."),
    (E1, {"a": tf.io.FixedLenFeature([2], tf.int32)}, {}, tf.errors.InvalidArgumentError,
     "Value for attr 'Tdense' of int32 is not in the list of allowed values: float, int64, string"),
    (E1, {"c": tf.io.FixedLenFeature([2], tf.float32)}, {}, tf.errors.InvalidArgumentError,
     "Key: c.  Data types don't match. Data type: string but expected type: float"),
    (E1, {"b": tf.io.FixedLenFeature([], tf.float32)}, {}, tf.errors.InvalidArgumentError,
     "Key: b.  Data types don't match. Data type: int64 but expected type: float"),
    (E2, {"b": tf.io.FixedLenFeature([2], tf.int64, default_value=5)}, {}, tf.errors.InvalidArgumentError,
     "Input to reshape is a tensor with 1 values, but the requested shape has 2"),
]


@pytest.mark.parametrize("serialized,features,kwargs,error,message", PARSE_ERRORS)
def test_parse_single_example_errors(serialized, features, kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        tf.io.parse_single_example(serialized, features, **kwargs)


def test_parse_example_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Name: two, Feature: b (data type: int64) is required but could not be found. [Op:ParseExampleV2]")):
        tf.io.parse_example([E1, E2], {"b": tf.io.FixedLenFeature([], tf.int64)}, example_names=["one", "two"])
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Name: <unknown>, Feature: b (data type: int64) is required but could not be found.")):
        tf.io.parse_example([E1, E2], {"b": tf.io.FixedLenFeature([], tf.int64)})
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Could not parse example input, value: '\n\x05abc' [Op:ParseExampleV2]")):
        tf.io.parse_example([E1, b"\x0a\x05abc"], {"a": tf.io.FixedLenFeature([2], tf.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Expected serialized to be a scalar or vector, got shape: [1,1]")):
        tf.io.parse_example([[E1]], {"b": tf.io.FixedLenFeature([], tf.int64)})


def test_feature_reprs():
    assert repr(tf.io.FixedLenFeature(None, tf.float32)) == \
        "FixedLenFeature(shape=None, dtype=tf.float32, default_value=None)"


def test_parse_inside_a_function():
    @tf.function
    def parse(s):
        return tf.io.parse_example(s, {"a": tf.io.FixedLenFeature([2], tf.float32),
                                       "q": tf.io.FixedLenSequenceFeature([3], tf.int64, allow_missing=True,
                                                                          default_value=0)})

    outs = parse.get_concrete_function(tf.TensorSpec([None], tf.string)).structured_outputs
    assert {k: (v.dtype.name, v.shape.as_list()) for k, v in outs.items()} == {
        "a": ("float32", [None, 2]), "q": ("int64", [None, None, 3])}
    assert values(parse(tf.constant([E1, E2]))) == {"a": ("float32", [2, 2], [[1.5, 2.5], [3.0, 4.0]]),
                                                    "q": ("int64", [2, 0, 3], [[], []])}

    @tf.function
    def single(s):
        return tf.io.parse_single_example(s, {"a": tf.io.FixedLenFeature([2], tf.float32, default_value=[1.0, 2.0])})

    out = single.get_concrete_function(tf.TensorSpec([], tf.string)).structured_outputs["a"]
    assert out.shape.as_list() == [2]
    assert single(tf.constant(b"")) ["a"].numpy().tolist() == [1.0, 2.0]


def test_eager_specs_are_prepared_once_and_never_confused():
    from graphfn.ops import parsing_ops
    for default in ([1, 2], [3, 4], (3, 4), [5, 6]):
        spec = {"b": tf.io.FixedLenFeature([2], tf.int64, default_value=default)}
        got = tf.io.parse_single_example(E2, spec)["b"].numpy().tolist()
        assert got == [int(v) for v in default]
    spec = {"a": tf.io.FixedLenFeature([2], tf.float32)}
    tf.io.parse_single_example(E1, spec)
    assert parsing_ops._spec_key(spec) in parsing_ops._PREPARED
    assert parsing_ops._spec_key({"a": tf.io.FixedLenFeature([2], tf.float32, default_value=tf.constant([1.0, 2.0]))}) \
        is None  # a tensor default: prepared on every call
