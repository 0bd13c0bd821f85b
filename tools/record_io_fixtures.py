"""Records the TFRecord / tf.train.Example fixtures of tests/python/test_io_interop.py with real
TensorFlow 2.21:

    ~/tf/bin/python tools/record_io_fixtures.py            # writes tests/python/data_fixtures/
    PYTHONPATH=python ~/tf/bin/python tools/record_io_fixtures.py --check-graphfn
        # also: graphfn writes the same Examples, TF reads graphfn's files back

Each Example is serialized with deterministic=True (map keys sorted): protobuf's default order of
map entries is a hash order that changes from process to process, in TF too, so only the
deterministic bytes can be compared across processes."""

import json
import os
import sys

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "python", "data_fixtures")

# Each Example: {key: (kind, values)}; bytes values are given as latin-1 strings.
EXAMPLES = [
    {"label": ("int64", [1]), "weight": ("float", [0.5, -1.25]), "name": ("bytes", ["cat"])},
    {"label": ("int64", [0]), "weight": ("float", [3.0, 4.0]), "name": ("bytes", ["dog"]),
     "seq": ("float", [1.0, 2.0, 3.0, 4.0])},
    {"label": ("int64", [-7]), "weight": ("float", [1e-3, 2.5e10]), "name": ("bytes", ["\u00e9\u00ff\x00x"]),
     "seq": ("float", [5.0, 6.0])},
    {"label": ("int64", [2 ** 62]), "weight": ("float", [0.0, -0.0]), "name": ("bytes", [""]),
     "tags": ("bytes", ["a", "bb", "ccc"])},
    {"label": ("int64", [3]), "weight": ("float", [1.0, 1.0]), "name": ("bytes", ["empty lists"]),
     "seq": ("float", []), "tags": ("bytes", [])},
]
FEATURES = {
    "label": tf.io.FixedLenFeature([], tf.int64),
    "weight": tf.io.FixedLenFeature([2], tf.float32),
    "name": tf.io.FixedLenFeature([], tf.string),
    "seq": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True, default_value=-1.0),
    "tags": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True),
}


def make_example(spec, module):
    feature = {}
    for key, (kind, values) in spec.items():
        if kind == "int64":
            feature[key] = module.train.Feature(int64_list=module.train.Int64List(value=values))
        elif kind == "float":
            feature[key] = module.train.Feature(float_list=module.train.FloatList(value=values))
        else:
            feature[key] = module.train.Feature(
                bytes_list=module.train.BytesList(value=[v.encode("latin-1") for v in values]))
    return module.train.Example(features=module.train.Features(feature=feature))


def as_json(value):
    value = value.numpy() if hasattr(value, "numpy") else value
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return {"dtype": "string", "shape": list(value.shape),
                    "values": [v.decode("latin-1") for v in value.reshape(-1)]}
        return {"dtype": str(value.dtype), "shape": list(value.shape), "values": value.reshape(-1).tolist()}
    if isinstance(value, bytes):
        return {"dtype": "string", "shape": [], "values": [value.decode("latin-1")]}
    return {"dtype": type(value).__name__, "shape": [], "values": [value.item() if hasattr(value, "item") else value]}


def main():
    os.makedirs(OUT, exist_ok=True)
    serialized = [make_example(spec, tf).SerializeToString(deterministic=True) for spec in EXAMPLES]
    files = {"": "examples.tfrecord", "GZIP": "examples_gzip.tfrecord", "ZLIB": "examples_zlib.tfrecord"}
    for compression, name in files.items():
        with tf.io.TFRecordWriter(os.path.join(OUT, name), options=compression) as w:
            for s in serialized:
                w.write(s)
    read_back = [r.numpy() for r in tf.data.TFRecordDataset(os.path.join(OUT, files[""]))]
    assert read_back == serialized
    single = [{k: as_json(v) for k, v in tf.io.parse_single_example(s, {
        k: f for k, f in FEATURES.items() if k in ("label", "weight", "name")}).items()} for s in serialized]
    batch = {k: as_json(v) for k, v in tf.io.parse_example(serialized, FEATURES).items()}
    record = {
        "tensorflow": tf.__version__,
        "examples": [{k: [kind, values] for k, (kind, values) in spec.items()} for spec in EXAMPLES],
        "serialized_hex": [s.hex() for s in serialized],
        "text": [str(tf.train.Example.FromString(s)) for s in serialized],
        "parse_single_example": single,
        "parse_example": batch,
        "files": files,
    }
    with open(os.path.join(OUT, "examples.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", sorted(os.listdir(OUT)))
    if "--check-graphfn" in sys.argv:
        import tempfile

        import graphfn

        for compression, name in files.items():
            path = os.path.join(tempfile.mkdtemp(), name)
            with graphfn.io.TFRecordWriter(path, options=compression) as w:
                for spec in EXAMPLES:
                    w.write(make_example(spec, graphfn).SerializeToString(deterministic=True))
            got = [r.numpy() for r in tf.data.TFRecordDataset(path, compression_type=compression)]
            assert got == serialized, compression
            with open(path, "rb") as a, open(os.path.join(OUT, name), "rb") as b:
                assert a.read() == b.read(), compression
        print("graphfn's files: read back by TensorFlow, byte-for-byte equal to TensorFlow's")


if __name__ == "__main__":
    main()
