"""The cases of test_data_sources_goldens.py, shared with tools/record_data_sources.py (which runs
them under TensorFlow 2.21 and writes data_sources_goldens.json). `write_files(root, tf)` makes the
input files with the module it is given (TF when recording, graphfn when testing: the files are
the same bytes); each case is an expression evaluated with `tf`, `np`, `root` (the folder, as a
str) and the generators below in scope, and `outcome(...)` turns its value or error into text."""

import gzip
import os
import re
import zlib

import numpy as np

TEXT_FILES = {
    "a.txt": b"l1\nl2\r\nl3",
    "b.txt": b"m1\n\nm3\n",
    "empty.txt": b"",
    "a.csv": b'x,y,z\n1,2.5,"a,b"\n3,,c\n,4,"q""r"\n',
    "b.tsv": b"1\t2\n3\t4",
    "multiline.csv": b'1,"multi\nline"\r\n2,x\n3,"y"\n',
    "header_quoted.csv": b'x,"y\nz"\n1,2\n',
    "few.csv": b"1,2\n3\n\n",
    "blank_line.csv": b"1,2\n\n3,4\n",
    "trailing_delim.csv": b"1,2,\n",
    "na.csv": b"NA,2\n",
    "big.csv": b"99999999999,1e400,abc\n",
    "quote_after.csv": b'1,"ab"c\n',
    "quote_inside.csv": b'1,a"b\n',
    "unclosed.csv": b'1,"ab\n',
    "spaces.csv": b"1, 2 \n",
    "m.csv": b'a,b,c,label\n1,2.5,x,0\n2,,y,1\n3,4.5,"z,w",0\n4,5,q,1\n5,6,r,0\n',
    "m2.csv": b"a,b,c,label\n6,7.5,s,1\n",
}


def write_files(root, tf):
    for name, data in TEXT_FILES.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    with gzip.open(os.path.join(root, "c.gz"), "wb") as f:
        f.write(b"g1\ng2\n")
    with open(os.path.join(root, "c.z"), "wb") as f:
        f.write(zlib.compress(b"z1\nz2"))
    with gzip.open(os.path.join(root, "c.csv.gz"), "wb") as f:
        f.write(b"1,2\n3,4\n")
    for name, options in (("r.tfrecord", None), ("r_gzip.tfrecord", "GZIP"), ("r_zlib.tfrecord", "ZLIB")):
        with tf.io.TFRecordWriter(os.path.join(root, name), options) as w:
            for i in range(3):
                w.write(b"rec%d" % i)
    with open(os.path.join(root, "r.tfrecord"), "rb") as f:
        good = f.read()
    with open(os.path.join(root, "truncated.tfrecord"), "wb") as f:
        f.write(good[:-3])
    with open(os.path.join(root, "corrupt.tfrecord"), "wb") as f:
        f.write(good[:12] + b"X" + good[13:])
    os.makedirs(os.path.join(root, "listing"))
    for name in ("c.txt", "a.txt", "b.txt", "d.csv"):
        with open(os.path.join(root, "listing", name), "w") as f:
            f.write("x")


def pairs():
    for i in range(3):
        yield i, [i] * 2


def yields_text():
    yield "a"


def yields_three():
    yield [1, 2, 3]


def yields_float():
    yield 1.5


def yields_tuple():
    yield (1, 2)


def yields_one():
    yield 1


def yields_matrix():
    yield np.zeros((2, 3), np.float64)


def yields_dict():
    yield {"a": 1, "b": np.float32(2)}


def repeats(count, value):
    for _ in range(count):
        yield value


def echo(value):
    yield value


def error_text(e):
    """TF's message without the node TF names ("{{function_node ...}} "), the wrapper TF adds for
    an error inside its own reader function ("Error in user-defined function passed to
    FlatMapDataset:62 transformation with iterator: Iterator::Root::Prefetch::FlatMap: ", numbered
    per run) and what follows the first line (TF's Python tracebacks, " [Op:...]", "\\t [[...]]")."""
    text = str(e).split("}} ", 1)[-1]
    text = re.sub(r"^Error in user-defined function passed to \w+:\d+ transformation with iterator: [\w:]+: ", "",
                  text)
    for end in (" [Op:", "\n"):
        text = text.split(end, 1)[0]
    return text


def _neutral(text, root):
    """The text without what differs between the two libraries' runs: the folder, and the module
    paths in class names (<class 'tensorflow.python.framework.dtypes.DType'> -> <class 'DType'>)."""
    text = text.replace(root, "{root}")
    return re.sub(r"<class '(?:tensorflow|graphfn)\.[\w.]*\.(\w+)'>", r"<class '\1'>", text)


def outcome(tf, expression, namespace):
    """'ok: <repr>' or '<ErrorType>: <message>'; a dataset is shown with its repr, cardinality
    and elements."""
    try:
        value = eval(expression, namespace)
        if isinstance(value, tf.data.Dataset):
            value = (repr(value), int(value.cardinality()), list(value.as_numpy_iterator()))
        elif hasattr(value, "numpy"):
            value = value.numpy()
        return "ok: " + _neutral(repr(value), namespace["root"])
    except Exception as e:  # noqa: BLE001 (the error is the outcome)
        return "%s: %s" % (type(e).__name__, _neutral(error_text(e), namespace["root"]))


def namespace(tf, root):
    """What the cases see."""
    names = {"tf": tf, "np": np, "root": root}
    names.update({k: v for k, v in globals().items() if callable(v) and not k.startswith("_") and k not in (
        "write_files", "error_text", "outcome", "namespace")})
    return names


CASES = [
    # TextLineDataset
    "tf.data.TextLineDataset([root + '/a.txt', root + '/b.txt'])",
    "tf.data.TextLineDataset(root + '/a.txt')",
    "tf.data.TextLineDataset([[root + '/a.txt']])",
    "tf.data.TextLineDataset([])",
    "tf.data.TextLineDataset(root + '/empty.txt')",
    "tf.data.TextLineDataset(root + '/c.gz', compression_type='GZIP')",
    "tf.data.TextLineDataset(root + '/c.z', compression_type='ZLIB')",
    "tf.data.TextLineDataset(root + '/a.txt', buffer_size=3)",
    "tf.data.TextLineDataset(tf.data.Dataset.from_tensor_slices([root + '/a.txt', root + '/b.txt']))",
    "tf.data.TextLineDataset([root + '/a.txt', root + '/b.txt'], num_parallel_reads=2)",
    "tf.data.TextLineDataset(root + '/missing.txt')",
    "tf.data.TextLineDataset(root)",
    "tf.data.TextLineDataset(root + '/a.txt', compression_type='GZIP')",
    "tf.data.TextLineDataset(3)",
    "tf.data.TextLineDataset(root + '/a.txt').element_spec",
    "tf.data.TextLineDataset(root + '/a.txt').take(2).cardinality()",
    # TFRecordDataset
    "tf.data.TFRecordDataset([root + '/r.tfrecord'])",
    "tf.data.TFRecordDataset(root + '/r_gzip.tfrecord', compression_type='GZIP')",
    "tf.data.TFRecordDataset(root + '/r_zlib.tfrecord', compression_type='ZLIB')",
    "tf.data.TFRecordDataset(root + '/r.tfrecord', compression_type='X')",
    "tf.data.TFRecordDataset(root + '/r.tfrecord', buffer_size=0)",
    "tf.data.TFRecordDataset(root + '/r.tfrecord', buffer_size=-5)",
    "tf.data.TFRecordDataset([root + '/r.tfrecord'] * 2, num_parallel_reads=2)",
    "tf.data.TFRecordDataset([root + '/r.tfrecord', root + '/r.tfrecord'])",
    "tf.data.TFRecordDataset(root + '/truncated.tfrecord')",
    "tf.data.TFRecordDataset(root + '/corrupt.tfrecord')",
    "tf.data.TFRecordDataset(root + '/missing.tfrecord')",
    "tf.data.TFRecordDataset(root + '/r.tfrecord', compression_type='GZIP')",
    "tf.data.TFRecordDataset(root + '/r.tfrecord').batch(2)",
    # CsvDataset
    "tf.data.experimental.CsvDataset(root + '/a.csv', [tf.int32, tf.float32, tf.string], header=True)",
    "tf.data.experimental.CsvDataset(root + '/a.csv', [[0], [9.0], ['d']], header=True)",
    "tf.data.experimental.CsvDataset(root + '/a.csv', [[0], tf.string], header=True, select_cols=[0, 2])",
    "tf.data.experimental.CsvDataset(root + '/a.csv', [[0], tf.string], select_cols=[0, 2])",
    "tf.data.experimental.CsvDataset(root + '/a.csv', [tf.string] * 3, header=True, use_quote_delim=False)",
    "tf.data.experimental.CsvDataset(root + '/a.csv', [tf.string] * 2, header=True)",
    "tf.data.experimental.CsvDataset(root + '/a.csv', [tf.int64, tf.string, tf.string], header=True, na_value='3')",
    "tf.data.experimental.CsvDataset(root + '/a.csv', [tf.int32] * 3, header=True)",
    "tf.data.experimental.CsvDataset(root + '/a.csv', [[0], [0.0], ['']], header=True)",
    "tf.data.experimental.CsvDataset(root + '/b.tsv', [tf.int64] * 2, field_delim='\\t')",
    "tf.data.experimental.CsvDataset(root + '/b.tsv', [tf.int64] * 2, field_delim='ab')",
    "tf.data.experimental.CsvDataset(root + '/b.tsv', [tf.bool] * 2)",
    "tf.data.experimental.CsvDataset(root + '/b.tsv', [tf.int64] * 2, select_cols=[1, 0])",
    "tf.data.experimental.CsvDataset(root + '/b.tsv', [tf.int64] * 2, select_cols=[0])",
    "tf.data.experimental.CsvDataset(root + '/missing.csv', [tf.int64] * 2)",
    "tf.data.experimental.CsvDataset(root + '/multiline.csv', [tf.int64, tf.string])",
    "tf.data.experimental.CsvDataset(root + '/header_quoted.csv', [tf.int64, tf.int64], header=True)",
    "tf.data.experimental.CsvDataset(root + '/few.csv', [[0], [0]])",
    "tf.data.experimental.CsvDataset(root + '/blank_line.csv', [[0], [0]])",
    "tf.data.experimental.CsvDataset(root + '/trailing_delim.csv', [tf.int64, tf.int64, [7]])",
    "tf.data.experimental.CsvDataset(root + '/trailing_delim.csv', [tf.int64, tf.int64])",
    "tf.data.experimental.CsvDataset(root + '/na.csv', [[5], tf.int64], na_value='NA')",
    "tf.data.experimental.CsvDataset(root + '/na.csv', [tf.int64, tf.int64], na_value='NA')",
    "tf.data.experimental.CsvDataset(root + '/big.csv', [tf.int32, tf.float32, tf.string])",
    "tf.data.experimental.CsvDataset(root + '/big.csv', [tf.int64, tf.float64, tf.string])",
    "tf.data.experimental.CsvDataset(root + '/big.csv', [tf.int64, tf.float64, tf.float32])",
    "tf.data.experimental.CsvDataset(root + '/quote_after.csv', [tf.int64, tf.string])",
    "tf.data.experimental.CsvDataset(root + '/quote_inside.csv', [tf.int64, tf.string])",
    "tf.data.experimental.CsvDataset(root + '/unclosed.csv', [tf.int64, tf.string])",
    "tf.data.experimental.CsvDataset(root + '/spaces.csv', [tf.int64, tf.float64])",
    "tf.data.experimental.CsvDataset(root + '/spaces.csv', [tf.int64, tf.string])",
    "tf.data.experimental.CsvDataset([root + '/spaces.csv', root + '/b.tsv'], [tf.string])",
    "tf.data.experimental.CsvDataset(root + '/c.csv.gz', [tf.int64, tf.int64], compression_type='GZIP')",
    "tf.data.experimental.CsvDataset(root + '/spaces.csv', [tf.int64, tf.int64], compression_type='GZIP')",
    "tf.data.experimental.CsvDataset(root + '/spaces.csv', [tf.int64, tf.int64], buffer_size=10)",
    "tf.data.experimental.CsvDataset(root + '/spaces.csv', [tf.int64, tf.int64], buffer_size=0)",
    "tf.data.experimental.CsvDataset(root + '/spaces.csv', [[1, 2], tf.int64])",
    "tf.data.experimental.CsvDataset(root + '/m.csv', [tf.int64] * 4, header=True, buffer_size=2)",
    # make_csv_dataset
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=2, label_name='label', shuffle=False, "
    "num_epochs=1)",
    "tf.data.experimental.make_csv_dataset([root + '/m2.csv', root + '/m.csv'], batch_size=3, "
    "select_columns=['a', 'c'], shuffle=False, num_epochs=1)",
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=2, label_name='label', shuffle=False).take(3)",
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=2, label_name='label', shuffle=False)"
    ".element_spec",
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=2, column_names=['A', 'B', 'C', 'D'], "
    "shuffle=False, num_epochs=1, select_columns=[0, 3])",
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=4, column_defaults=[tf.int64, [0.0], "
    "tf.string, tf.int32], label_name='label', shuffle=False, num_epochs=1)",
    "tf.data.experimental.make_csv_dataset(root + '/m*.csv', batch_size=10, shuffle=False, num_epochs=1)",
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=2, label_name='nope')",
    "tf.data.experimental.make_csv_dataset(root + '/none*.csv', batch_size=2)",
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=2, select_columns=['a', 'zz'])",
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=2, header=False)",
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=2, select_columns=['a', 'a'])",
    "tf.data.experimental.make_csv_dataset(root + '/m.csv', batch_size=2, column_names=['a', 'a', 'b', 'c'])",
    # list_files
    "tf.data.Dataset.list_files(root + '/listing/*.txt', shuffle=False)",
    "tf.data.Dataset.list_files([root + '/listing/c*.txt', root + '/listing/*.csv'], shuffle=False)",
    "sorted(tf.data.Dataset.list_files(root + '/listing/*.txt', seed=4).as_numpy_iterator())",
    "repr(tf.data.Dataset.list_files(root + '/listing/*.txt', seed=4))",
    "tf.data.Dataset.list_files(root + '/listing/*.txt', seed=4).cardinality()",
    "tf.data.Dataset.list_files(root + '/listing/*.none')",
    "tf.data.Dataset.list_files(3)",
    # from_generator
    "tf.data.Dataset.from_generator(pairs, output_signature=(tf.TensorSpec((), tf.int64), "
    "tf.TensorSpec((None,), tf.int32)))",
    "tf.data.Dataset.from_generator(pairs, output_types=(tf.int64, tf.int32))",
    "tf.data.Dataset.from_generator(pairs, output_types=(tf.int64, tf.int32), output_shapes=((), (2,)))",
    "tf.data.Dataset.from_generator(pairs, output_types=(tf.int64, tf.int32), output_shapes=((), ())).element_spec",
    "tf.data.Dataset.from_generator(pairs, output_types=(tf.int64, tf.int32), output_shapes=((),))",
    "tf.data.Dataset.from_generator(pairs)",
    "tf.data.Dataset.from_generator(3, output_types=tf.int32)",
    "tf.data.Dataset.from_generator(pairs, output_types=tf.int32, output_signature=tf.TensorSpec((), tf.int32))",
    "tf.data.Dataset.from_generator(pairs, output_shapes=(), output_signature=tf.TensorSpec((), tf.int32))",
    "tf.data.Dataset.from_generator(pairs, output_signature=[tf.TensorSpec((), tf.int32)])",
    "tf.data.Dataset.from_generator(pairs, output_signature=3)",
    "tf.data.Dataset.from_generator(yields_text, output_signature=tf.TensorSpec((), tf.int32))",
    "tf.data.Dataset.from_generator(yields_three, output_signature=tf.TensorSpec((2,), tf.int32))",
    "tf.data.Dataset.from_generator(yields_three, output_types=tf.int32, output_shapes=(2,))",
    "tf.data.Dataset.from_generator(yields_three, output_signature=tf.TensorSpec((3,), tf.float32))",
    "tf.data.Dataset.from_generator(yields_three, output_signature=tf.TensorSpec((3,), tf.string))",
    "tf.data.Dataset.from_generator(yields_float, output_signature=tf.TensorSpec((), tf.int32))",
    "tf.data.Dataset.from_generator(yields_tuple, output_signature=tf.TensorSpec((), tf.int32))",
    "tf.data.Dataset.from_generator(yields_one, output_signature=(tf.TensorSpec((), tf.int32), "
    "tf.TensorSpec((), tf.int32)))",
    "tf.data.Dataset.from_generator(yields_matrix, output_types=tf.float32)",
    "tf.data.Dataset.from_generator(yields_matrix, output_types=tf.float64, output_shapes=(None, 3))",
    "tf.data.Dataset.from_generator(yields_matrix, output_types=tf.float64, output_shapes=(2, None, 3))",
    "tf.data.Dataset.from_generator(yields_dict, output_signature={'b': tf.TensorSpec((), tf.float32), "
    "'a': tf.TensorSpec((), tf.int64)})",
    "tf.data.Dataset.from_generator(repeats, args=(2, 'x'), output_signature=tf.TensorSpec((), tf.string))",
    "tf.data.Dataset.from_generator(echo, args=(np.int32(2),), output_signature=tf.TensorSpec((), tf.int32))",
    "tf.data.Dataset.from_generator(echo, args=([1, 2],), output_signature=tf.TensorSpec((2,), tf.int32))",
    "tf.data.Dataset.from_generator(lambda: iter([1, 2]), output_types=tf.int64)"
    ".map(lambda x: x * 2, num_parallel_calls=2).prefetch(2)",
    "tf.data.Dataset.from_generator(pairs, output_types=(tf.int64, tf.int32)).batch(2).element_spec",
    # Counter, choose_from_datasets, sample_from_datasets
    "tf.data.experimental.Counter().take(3)",
    "repr(tf.data.experimental.Counter())",
    "tf.data.experimental.Counter().cardinality()",
    "tf.data.experimental.Counter(start=5, step=-2, dtype=tf.int32).take(3)",
    "tf.data.experimental.Counter(start=1.5, dtype=tf.float32).take(2)",
    "tf.data.experimental.Counter(dtype=tf.string)",
    "tf.data.Dataset.counter(3).take(2)",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 1, 0, 1, 0, 0], tf.int64)))",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "tf.data.Dataset.from_tensor_slices(tf.constant([0, 0, 0, 0, 1], tf.int64)), stop_on_empty_dataset=False)",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "tf.data.Dataset.from_tensor_slices(tf.constant([0, 2], tf.int64)))",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "tf.data.Dataset.from_tensor_slices(tf.constant([0, -1], tf.int64)))",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "tf.data.Dataset.from_tensor_slices(tf.constant([0, 1], tf.int32)))",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "tf.data.Dataset.from_tensor_slices(tf.constant([[0, 1]], tf.int64)))",
    "tf.data.Dataset.choose_from_datasets([], tf.data.Dataset.from_tensor_slices(tf.constant([0], tf.int64)))",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(3, output_type=tf.int32)],"
    " tf.data.Dataset.from_tensor_slices(tf.constant([0], tf.int64)))",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(3).batch(2)], "
    "tf.data.Dataset.from_tensor_slices(tf.constant([0], tf.int64))).element_spec",
    "tf.data.experimental.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "tf.data.Dataset.range(2).repeat(4))",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "tf.data.Dataset.range(2).repeat()).cardinality()",
    "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3).repeat(), tf.data.Dataset.range(2).repeat()], "
    "tf.data.Dataset.range(2).repeat()).cardinality()",
    "sorted(tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "weights=[0.5, 0.5], seed=1).as_numpy_iterator())",
    "repr(tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], seed=1))",
    "tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "seed=1).cardinality()",
    "tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "weights=[1.0, 0.0], seed=1)",
    "tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "weights=[1.0, 0.0], seed=1, stop_on_empty_dataset=True)",
    "tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], weights=[1.0])",
    "tf.data.Dataset.sample_from_datasets([])",
    "tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3).repeat(), "
    "tf.data.Dataset.range(2).repeat()]).cardinality()",
    "tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3)])",
    "tf.data.experimental.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "weights=[-1.0, 1.0])",
    "tf.data.experimental.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], "
    "weights=[0.0, 0.0])",
    "tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], weights=[1, 1])",
    # cache
    "tf.data.Dataset.range(4).cache()",
    "tf.data.Dataset.range(3).cache(root + '/nodir/x')",
    "tf.data.Dataset.range(3).cache(3)",
    "tf.data.Dataset.range(3).repeat().cache().cardinality()",
    "tf.data.Dataset.range(3).cache().take(2).cardinality()",
    "tf.data.Dataset.range(3).cache(root + '/c1').cardinality()",
    "tf.data.TextLineDataset(root + '/a.txt').cache(root + '/c2')",
    # Options
    "tf.data.Dataset.range(3).with_options(tf.data.Options())",
    "tf.data.Dataset.range(3).with_options(tf.data.Options()).take(2)",
    "tf.data.Dataset.range(3).with_options(3)",
    "tf.data.Dataset.range(3).options() == tf.data.Options()",
    "tf.data.experimental.AutoShardPolicy.DATA",
    "list(tf.data.experimental.AutoShardPolicy)",
    "tf.data.experimental.ExternalStatePolicy.WARN",
    "tf.data.Options().experimental_distribute.auto_shard_policy",
    "[tf.data.Options().deterministic, tf.data.Options().threading.private_threadpool_size, "
    "tf.data.Options().experimental_optimization.map_parallelization, tf.data.Options().autotune.enabled]",
    "sorted(k for k, v in vars(type(tf.data.Options())).items() if isinstance(v, property))",
    "sorted(k for k, v in vars(type(tf.data.Options().experimental_optimization)).items() if isinstance(v, property))",
    "sorted(k for k, v in vars(type(tf.data.Options().threading)).items() if isinstance(v, property))",
    "sorted(k for k, v in vars(type(tf.data.Options().autotune)).items() if isinstance(v, property))",
    "setattr(tf.data.Options(), 'foo', 1)",
    "setattr(tf.data.Options(), 'deterministic', 3)",
    "setattr(tf.data.Options().threading, 'private_threadpool_size', 'a')",
    "setattr(tf.data.Options().threading, 'private_threadpool_size', -1)",
    "tf.data.Options.__hash__",
]
