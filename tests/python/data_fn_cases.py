"""Expressions for tf.data's function-based and structural transformations (flat_map,
interleave, window, scan, take_while, group_by_window, bucket_by_sequence_length, shard, unique,
rebatch, ignore_errors, assert_cardinality, get_single_element). record_data_fn_goldens.py runs
them in TensorFlow 2.21 and stores each repr or error in data_fn_goldens.json;
test_data_fn_transforms.py checks graphfn against that recording.

PRELUDE runs first in the namespace (with `tf` and `np`), in TF and in graphfn alike."""

PRELUDE = r'''
r = tf.data.Dataset.range
L = lambda ds: list(ds.as_numpy_iterator())
C = lambda ds: int(ds.cardinality())
def W(ds):  # a window dataset's windows, as lists (nests of lists for tuple windows)
    out = []
    for w in ds:
        if isinstance(w, tuple):
            out.append(tuple(L(x) for x in w))
        elif isinstance(w, dict):
            out.append({k: L(v) for k, v in sorted(w.items())})
        else:
            out.append(L(w))
    return out
def E(ds):  # every element or error (its type and TF's message, without TF's pipeline position)
    import re
    out, it = [], iter(ds)
    for _ in range(50):
        try:
            out.append(repr(next(it).numpy()))
        except StopIteration:
            return out
        except Exception as e:
            text = str(e).split("}} ", 1)[-1].split("\n\n")[-1].split(" [Op:")[0].split("\n")[0]
            text = re.sub(r"^Error in user-defined function passed to .*? transformation with iterator: \S+: ", "", text)
            out.append(type(e).__name__ + ": " + text)
    return out
inv = lambda x: tf.debugging.check_numerics(1. / x, "bad")
slices = tf.data.Dataset.from_tensor_slices
'''

CASES = [
    # flat_map
    "L(r(4).flat_map(lambda x: r(x)))",
    "r(4).flat_map(lambda x: r(x))",
    "C(r(4).flat_map(lambda x: r(x)))",
    "L(slices([[1, 2], [3, 4]]).flat_map(lambda x: slices(x)))",
    "L(slices([[1, 2], [3, 4]]).flat_map(tf.data.Dataset.from_tensor_slices))",
    "L(r(3).flat_map(lambda x: tf.data.Dataset.from_tensors(x).repeat(2)))",
    "L(r(3).flat_map(lambda x: tf.data.Dataset.from_tensors((x, x * 2)).repeat(x)))",
    "r(3).flat_map(lambda x: tf.data.Dataset.from_tensors({'a': x, 'b': [1.0, 2.0]}))",
    "L(r(3).flat_map(lambda x: r(3)))",
    "L(r(0).flat_map(lambda x: r(x)))",
    "L(r(4).flat_map(lambda x: r(x).map(lambda y: y * 10)))",
    "L(r(6).flat_map(lambda x: r(x).filter(lambda y: y % 2 == 0)))",
    "L(r(4).flat_map(lambda x: r(x).batch(2)))",
    "L(r(3).flat_map(lambda x: tf.data.Dataset.zip((r(x), r(10, 20)))))",
    "L(r(3).flat_map(lambda x: r(x).concatenate(r(100, 101))))",
    "L(r(4).flat_map(lambda x: r(x).skip(1).take(2)))",
    "L(r(3).flat_map(lambda x: r(x).enumerate()))",
    "L(r(3).flat_map(lambda x: r(x, 2 * x)))",
    "L(r(3).flat_map(lambda x: r(0, 10, x + 1)))",
    "L(r(2).flat_map(lambda x: r(3).flat_map(lambda y: r(y))))",
    "L(slices(([1, 2], [3, 4])).flat_map(lambda a, b: slices([a, b])))",
    "L(r(3).flat_map(lambda x: r(x, output_type=tf.int32)))",
    "E(slices([1., 0., 2.]).flat_map(lambda x: tf.data.Dataset.from_tensors(x).map(inv)))",
    "E(r(3).flat_map(lambda x: slices(tf.reshape(x, [1, 1])).unbatch()))",
    "L(r(3).flat_map(lambda x: slices(tf.fill([x, 2], x)).padded_batch(2)))",
    "L(r(1, 4).flat_map(lambda x: tf.data.Dataset.from_tensors(x).repeat(x).batch(x)))",
    # interleave
    "L(r(1, 6).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4))",
    "L(r(1, 6).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4, num_parallel_calls=tf.data.AUTOTUNE))",
    "L(r(1, 6).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=3, block_length=2, num_parallel_calls=2))",
    "L(r(1, 4).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=2, block_length=10))",
    "L(r(1, 4).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=2, num_parallel_calls=2, deterministic=False))",
    "L(r(4).interleave(lambda x: r(x * 10, x * 10 + 3), cycle_length=4))",
    "L(r(4).interleave(lambda x: r(x * 10, x * 10 + 3), cycle_length=4, num_parallel_calls=4))",
    "L(r(5).interleave(lambda x: r(x), cycle_length=1))",
    "L(r(0).interleave(lambda x: r(x), cycle_length=2))",
    "L(r(4).interleave(lambda x: r(0), cycle_length=2, num_parallel_calls=2))",
    "L(r(3).interleave(lambda x: r(x), cycle_length=5, block_length=2))",
    "r(3).interleave(lambda x: r(x), cycle_length=2)",
    "r(3).interleave(lambda x: r(x), cycle_length=2, num_parallel_calls=1)",
    "C(r(3).interleave(lambda x: r(x), cycle_length=2))",
    "L(r(3).interleave(lambda x: tf.data.Dataset.from_tensors((x, tf.strings.as_string(x))), cycle_length=2))",
    "E(slices([1., 0., 2.]).interleave(lambda x: tf.data.Dataset.from_tensors(x).map(inv), cycle_length=1))",
    "r(3).interleave(lambda x: r(x), cycle_length=0)",
    "r(3).interleave(lambda x: r(x), cycle_length=1, block_length=0)",
    "r(3).interleave(lambda x: r(x), cycle_length=1, num_parallel_calls=0)",
    "r(3).interleave(lambda x: r(x), cycle_length=1, num_parallel_calls=4)",
    # window
    "r(7).window(3)",
    "C(r(7).window(3))",
    "W(r(7).window(3))",
    "W(r(7).window(3, 2, 1, True))",
    "C(r(7).window(3, 2, 1, True))",
    "W(r(10).window(3, 2, 2))",
    "C(r(10).window(3, 2, 2))",
    "W(r(10).window(3, 2, 2, drop_remainder=True))",
    "C(r(10).window(3, 2, 2, drop_remainder=True))",
    "W(r(10).window(2, 5))",
    "C(r(10).window(2, 5))",
    "W(r(0).window(3))",
    "C(r(0).window(3))",
    "W(r(2).window(3, drop_remainder=True))",
    "C(r(2).window(3, drop_remainder=True))",
    "W(slices(([1, 2, 3], [4., 5., 6.])).window(2))",
    "W(slices({'a': [1, 2, 3], 'b': ['x', 'y', 'z']}).window(2, 1))",
    "slices(([1, 2, 3], {'a': [4., 5., 6.]})).window(2)",
    "C(r(5).repeat().window(2))",
    "next(iter(r(3).window(2)))",
    "[C(w) for w in r(5).window(2)]",
    "L(r(7).window(3).flat_map(lambda w: w.batch(3)))",
    "L(r(7).window(3, 1, 1, True).flat_map(lambda w: w.batch(3, drop_remainder=True)))",
    "r(7).window(3, 1, 1, True).flat_map(lambda w: w.batch(3, drop_remainder=True))",
    "L(slices(([1, 2, 3, 4], [5, 6, 7, 8])).window(2).flat_map(lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2)))))",
    "L(r(6).window(2).flat_map(lambda w: w.map(lambda x: x * x)))",
    "L(r(6).window(4, 2).interleave(lambda w: w, cycle_length=2))",
    "L(r(8).window(3, 3).flat_map(lambda w: w.padded_batch(3)))",
    "r(10).window(0)",
    "r(10).window(2, 0)",
    "r(10).window(2, 1, 0)",
    "r(3).window(2).as_numpy_iterator()",
    # scan
    "L(r(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10)))",
    "r(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10))",
    "C(r(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10)))",
    "L(r(4).apply(tf.data.experimental.scan(tf.constant(1, tf.int64), lambda s, x: (s * 2, (s, x)))))",
    "L(r(3).scan((tf.constant(0, tf.int64), tf.constant(1.0)), lambda s, x: ((s[0] + x, s[1] * 2.0), s[1])))",
    "L(r(3).scan(tf.constant([0], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), x)))",
    "r(3).scan(tf.constant([0], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), s))",
    "L(r(0).scan(tf.constant(0, tf.int64), lambda s, x: (s, x)))",
    "r(10).scan(0, lambda s, x: s)",
    "r(10).scan(0, lambda s, x: (x, x))",
    # take_while
    "L(r(10).take_while(lambda x: x < 4))",
    "r(10).take_while(lambda x: x < 4)",
    "C(r(10).take_while(lambda x: x < 4))",
    "L(r(10).take_while(lambda x: x > 4))",
    "L(r(10).repeat().take_while(lambda x: x < 3))",
    "L(r(3).apply(tf.data.experimental.take_while(lambda x: True)))",
    "r(10).take_while(lambda x: x)",
    "r(10).take_while(lambda x: tf.stack([x < 3, x < 3]))",
    # group_by_window
    "L(r(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(3), window_size=3))",
    "r(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(3), window_size=3)",
    "C(r(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(3), window_size=3))",
    "L(r(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(5), window_size_func=lambda k: k + 2))",
    "L(r(10).apply(tf.data.experimental.group_by_window(lambda x: x % 3, lambda k, d: d.batch(10), 4)))",
    "L(r(10).group_by_window(lambda x: 4 - x % 5, lambda k, d: d, window_size=100))",
    "L(r(0).group_by_window(lambda x: x, lambda k, d: d.batch(2), window_size=2))",
    "L(slices(([1, 2, 3, 4], ['a', 'b', 'c', 'd'])).group_by_window(lambda a, b: tf.cast(a % 2, tf.int64), lambda k, d: d.batch(2), window_size=2))",
    "r(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(3), window_size=3, window_size_func=lambda k: 3)",
    "r(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(3))",
    "r(10).group_by_window(lambda x: x % 2, lambda k, d: k, 3)",
    "E(r(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(5), window_size_func=lambda k: k))",
    # bucket_by_sequence_length
    "L(slices([[1], [2], [3]]).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [2], [2, 2]))",
    "slices([[1], [2], [3]]).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [2], [2, 2])",
    "L(r(1, 8).map(lambda n: tf.range(n)).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2, 3]))",
    "L(r(1, 8).map(lambda n: tf.range(n)).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2, 3], drop_remainder=True))",
    "L(r(1, 8).map(lambda n: tf.range(n)).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2, 3], padding_values=tf.constant(-1, tf.int64)))",
    "L(r(1, 8).map(lambda n: tf.fill([2], n)).bucket_by_sequence_length(lambda x: tf.cast(x[0], tf.int32), [3, 5], [2, 2, 3], no_padding=True))",
    "L(r(1, 8).map(lambda n: tf.range(n)).apply(tf.data.experimental.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [4], [3, 3], padded_shapes=[8])))",
    "r(3).bucket_by_sequence_length(lambda x: x, [2], [2])",
    # shard
    "L(r(10).shard(3, 1))",
    "r(10).shard(3, 1)",
    "C(r(10).shard(3, 1))",
    "L(r(11).shard(3, 2))",
    "C(r(11).shard(3, 2))",
    "C(r(11).shard(3, 0))",
    "L(r(2).shard(5, 3))",
    "C(r(2).shard(5, 3))",
    "C(r(3).repeat().shard(3, 2))",
    "L(r(3).repeat().shard(3, 2).take(2))",
    "C(r(3).filter(lambda x: True).shard(2, 0))",
    "r(10).shard(0, 0)",
    "r(10).shard(3, 3)",
    "r(10).shard(3, -1)",
    # unique
    "L(slices([1, 2, 1, 3, 2]).unique())",
    "slices([1, 2, 1, 3, 2]).unique()",
    "C(slices([1, 2, 1, 3, 2]).unique())",
    "L(slices(['a', 'b', 'a', '', 'b', '']).unique())",
    "L(slices([[1, 2], [1, 2], [2, 1]]).unique())",
    "L(r(5).map(lambda x: x // 2).apply(tf.data.experimental.unique()))",
    "slices([1., 2.]).unique()",
    "slices(([1], [2])).unique()",
    # rebatch
    "L(r(10).batch(4).rebatch(3))",
    "r(10).batch(4).rebatch(3)",
    "C(r(10).batch(4).rebatch(3))",
    "L(r(10).batch(4).rebatch([1, 2, 3]))",
    "L(r(10).batch(4).rebatch(3, drop_remainder=True))",
    "r(10).batch(4).rebatch(3, drop_remainder=True)",
    "L(r(10).batch(4).rebatch([2, 3], drop_remainder=True))",
    "r(10).batch(4).rebatch([2, 3], drop_remainder=True)",
    "L(r(6).batch(3).rebatch([1, 0, 2]))",
    "L(r(8).batch(4, drop_remainder=True).rebatch(2))",
    "L(slices(([[1, 2], [3, 4], [5, 6]], [7, 8, 9])).batch(2).rebatch(1))",
    "L(r(0).batch(2).rebatch(2))",
    "r(10).rebatch(2)",
    # ignore_errors
    "L(slices([1., 0., 2.]).map(inv).ignore_errors())",
    "slices([1., 0., 2.]).map(inv).ignore_errors()",
    "C(r(10).ignore_errors())",
    "L(slices([1., 0., 2.]).map(inv).apply(tf.data.experimental.ignore_errors()))",
    "L(slices([0., 0., 1., 0., 4.]).map(inv, num_parallel_calls=2).ignore_errors(log_warning=False))",
    "L(slices([1., 0., 2.]).map(inv).ignore_errors().batch(2))",
    "E(slices([1., 0., 2.]).map(inv))",
    "E(slices([1., 0., 2.]).map(inv, num_parallel_calls=2))",
    # assert_cardinality
    "L(r(3).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(3)))",
    "r(3).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(3))",
    "C(r(3).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(3)))",
    "C(r(3).apply(tf.data.experimental.assert_cardinality(tf.data.INFINITE_CARDINALITY)))",
    "E(r(3).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(5)))",
    "E(r(3).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(2)))",
    "E(r(1).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(3)))",
    "E(r(3).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(1)))",
    "E(r(3).apply(tf.data.experimental.assert_cardinality(tf.data.INFINITE_CARDINALITY)))",
    "L(r(10).repeat().apply(tf.data.experimental.assert_cardinality(-1)).take(3))",
    # get_single_element
    "tf.data.Dataset.from_tensors(5).get_single_element()",
    "tf.data.experimental.get_single_element(tf.data.Dataset.from_tensors(5))",
    "tf.data.Dataset.from_tensors((1, {'a': 2.})).get_single_element()",
    "r(5).batch(5).get_single_element()",
    "r(3).get_single_element()",
    "r(0).get_single_element()",
    "L(r(2).window(2).get_single_element())",
]
