"""Saving what cannot be saved, and loading damaged or hostile directories: clear exceptions
(TF's type and text where TF has one), never a crash."""

import os
import random

import pytest

import graphfn as tf
from saved_cases import Scaler, make_module


def test_load_of_a_missing_directory_raises_oserror(tmp_path):
    # TF 2.21: OSError "SavedModel file does not exist at: <dir>/{saved_model.pbtxt|saved_model.pb}".
    missing = str(tmp_path / "nope")
    with pytest.raises(OSError, match="^SavedModel file does not exist at: %s$" % os.path.join(missing, "saved_graph.gfn")):
        tf.saved_model.load(missing)
    (tmp_path / "tfmodel").mkdir()
    (tmp_path / "tfmodel" / "saved_model.pb").write_bytes(b"\x08\x01")
    with pytest.raises(OSError, match="this looks like a TensorFlow SavedModel; graphfn reads only its own format"):
        tf.saved_model.load(str(tmp_path / "tfmodel"))


def test_saving_non_trackable_objects_raises_tf_valueerror(tmp_path):
    with pytest.raises(ValueError, match=r"^Expected an object of type `Trackable`, such as `tf.Module` or a subclass "
                       r"of the `Trackable` class, for export. Got 3 with type <class 'int'>.$"):
        tf.saved_model.save(3, str(tmp_path))


def test_bad_signatures_raise_tf_valueerror(tmp_path):
    m = Scaler()
    with pytest.raises(ValueError, match=r"^Expected a TensorFlow function for which to generate a signature, but got "
                       r"3. Only `tf.functions` with an input signature or concrete functions can be used as a "
                       r"signature.$"):
        tf.saved_model.save(m, str(tmp_path), signatures=3)
    untraced = tf.function(lambda x: x)
    with pytest.raises(ValueError, match=r"Only `tf.functions` with an input signature or concrete functions"):
        tf.saved_model.save(m, str(tmp_path), signatures={"a": untraced})
    nested = tf.function(lambda x: (x, (x, x))).get_concrete_function(tf.TensorSpec([], tf.float32))
    with pytest.raises(ValueError, match=r"Got a non-Tensor value \(.*\) for key 'output_1' in the output of the "
                       r"function __inference_<lambda>_\d+ used to generate the SavedModel signature 'serving_default'. "
                       r"Outputs for functions used as signatures must be a single Tensor, a sequence of Tensors, or a "
                       r"dictionary from string to Tensor."):
        tf.saved_model.save(m, str(tmp_path), signatures=nested)


def test_functions_capturing_untracked_variables_are_refused(tmp_path):
    outside = tf.Variable(1.0)
    m = tf.Module()
    m.f = tf.function(lambda x: x * outside, input_signature=[tf.TensorSpec([], tf.float32)])
    with pytest.raises(AssertionError, match=r"^Tried to export a function which references an 'untracked' resource."):
        tf.saved_model.save(m, str(tmp_path))


def test_functions_taking_variables_are_refused(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.f = tf.function(lambda v: v * 2.0)
    m.f(m.v)
    with pytest.raises(ValueError, match="graphfn cannot save a function that takes a tf.Variable argument"):
        tf.saved_model.save(m, str(tmp_path))


@pytest.fixture(scope="module")
def saved_bytes(tmp_path_factory):
    d = tmp_path_factory.mktemp("saved")
    tf.saved_model.save(make_module(), str(d))
    return (d / "saved_graph.gfn").read_bytes()


def _load_bytes(tmp_path, data):
    (tmp_path / "saved_graph.gfn").write_bytes(data)
    return tf.saved_model.load(str(tmp_path))


def test_damaged_files_raise_dataloss_naming_the_problem(tmp_path, saved_bytes):
    with pytest.raises(tf.errors.DataLossError, match=r"saved_graph.gfn: not a graphfn saved graph \(wrong magic number\)"):
        _load_bytes(tmp_path, b"PK\x03\x04" + saved_bytes[4:])
    wrong_version = saved_bytes[:8] + b"\x07\x00\x00\x00" + saved_bytes[12:]
    with pytest.raises(tf.errors.DataLossError, match=r"format version 7 is not supported \(this build reads version 1\)"):
        _load_bytes(tmp_path, wrong_version)
    with pytest.raises(tf.errors.DataLossError, match=r"the header says the body has \d+ bytes, but \d+ follow"):
        _load_bytes(tmp_path, saved_bytes[:-10])
    flipped = bytearray(saved_bytes)
    flipped[len(flipped) // 2] ^= 0x40
    with pytest.raises(tf.errors.DataLossError, match="checksum mismatch: the file is corrupted"):
        _load_bytes(tmp_path, bytes(flipped))


def test_random_damage_never_crashes(tmp_path, saved_bytes):
    # The C++ fuzzer (graphfn_fuzz_saved) does this at scale; here a few hundred damaged files,
    # mostly with their checksum fixed so the damage reaches the parser, through the Python API.
    import zlib
    rng = random.Random(7)
    expected = (tf.errors.OpError, ValueError, OSError)
    outcomes = {}
    for _ in range(300):
        data = bytearray(saved_bytes)
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(24, len(data))
            kind = rng.randrange(3)
            if kind == 0:
                data[pos] ^= 1 << rng.randrange(8)
            elif kind == 1:
                del data[pos:pos + rng.randint(1, 16)]
            else:
                data[pos] = rng.choice([0, 1, 0x7F, 0x80, 0xFF])
        if rng.random() < 0.8:  # recompute body size and CRC-32 (docs/saving.md)
            body = bytes(data[24:])
            data[12:24] = len(body).to_bytes(8, "little") + zlib.crc32(body).to_bytes(4, "little")
        try:
            _load_bytes(tmp_path, bytes(data))
            outcomes["loaded"] = outcomes.get("loaded", 0) + 1
        except expected as e:
            assert str(e)
            outcomes[type(e).__name__] = outcomes.get(type(e).__name__, 0) + 1
    assert outcomes.get("DataLossError", 0) > 50


def test_hostile_object_graph_json_is_a_valueerror(tmp_path, saved_bytes):
    import zlib
    # Replace the object graph (the body's first string) with JSON of the wrong shape.
    body = saved_bytes[24:]
    length, pos = 0, 0
    for shift in range(0, 64, 7):
        length |= (body[pos] & 0x7F) << shift
        pos += 1
        if body[pos - 1] < 0x80:
            break
    for text in (b'{"format": "graphfn.saved_model", "nodes": [{"type": "module", "children": {"a": 99}}]}',
                 b'{"format": "graphfn.saved_model", "nodes": [{"type": "rocket"}]}', b"[" * 100000, b"\xff\xfe"):
        n = len(text)
        varint = bytearray()
        while True:
            byte = n & 0x7F
            n >>= 7
            varint.append(byte | (0x80 if n else 0))
            if not n:
                break
        new_body = bytes(varint) + text + body[pos + length:]
        header = saved_bytes[:12] + len(new_body).to_bytes(8, "little") + zlib.crc32(new_body).to_bytes(4, "little")
        with pytest.raises(ValueError, match="is not a valid graphfn saved model"):
            _load_bytes(tmp_path, header + new_body)
