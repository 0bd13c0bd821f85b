"""Lookup-table and string-hashing cases: expressions evaluated under TF 2.21 by record.py into
goldens.json, and under graphfn by tests/python/test_lookup_ops.py. `setup` runs first."""

SETUP = """
import numpy as np
s_init = tf.lookup.KeyValueTensorInitializer(tf.constant(["emerson", "lake", "palmer"]), tf.constant([0, 1, 2], tf.int64))
s_table = tf.lookup.StaticHashTable(s_init, default_value=-1)
i_init = tf.lookup.KeyValueTensorInitializer(tf.constant([3, 5, 7], tf.int64), tf.constant([0.5, 1.5, 2.5]))
i_table = tf.lookup.StaticHashTable(i_init, default_value=-9.0)
v_table = tf.lookup.StaticVocabularyTable(s_init, num_oov_buckets=5)
vi_table = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer([10, 20, 30], [0, 1, 2], tf.int64, tf.int64), 4)
words = tf.constant(["emerson", "lake", "and", "palmer", "", "a much longer out-of-vocabulary word, longer than sixty-four bytes!!"])
"""

RESULTS = [
    "s_table.lookup(words)",
    "s_table.lookup(tf.constant([['lake', 'x'], ['palmer', 'emerson']]))",
    "s_table[tf.constant('palmer')]",
    "s_table.size()",
    "i_table.lookup(tf.constant([5, 6, 7, 3], tf.int64))",
    "(s_table.key_dtype, s_table.value_dtype, i_table.key_dtype, i_table.value_dtype)",
    "s_table.default_value",
    "(s_init.key_dtype, s_init.value_dtype)",
    "v_table.lookup(words)",
    "v_table.size()",
    "(v_table.key_dtype, v_table.value_dtype)",
    "vi_table.lookup(tf.constant([10, 11, 30, -5, 123456789], tf.int64))",
    "vi_table.size()",
    "tf.lookup.StaticVocabularyTable(None, 3).lookup(tf.constant(['a', 'b', 'c', 'd']))",
    "tf.function(lambda w: v_table.lookup(w))(words)",
    "tf.function(lambda w: s_table.lookup(w) + s_table.size())(words)",
    "tf.strings.to_hash_bucket_fast(['', 'a', 'hello', 'emerson lake and palmer'], 1000)",
    "tf.strings.as_string(tf.constant([1, -20, 300]))",
    "tf.strings.as_string(tf.constant([1, -20], tf.int64), width=5, fill='0')",
    "tf.strings.as_string(tf.constant([1.5, -2.25, 1e10]))",
    "tf.strings.as_string(tf.constant([1.5, -2.25]), precision=2)",
    "tf.strings.as_string(tf.constant([1.5, 123456.0], tf.float64), scientific=True)",
    "tf.strings.as_string(tf.constant([1.5, 0.1, 123456789.0]), shortest=True)",
    "tf.strings.as_string(tf.constant([True, False]))",
    "tf.strings.as_string(tf.constant([7], tf.int8), width=4)",
    "sorted(zip(*[t.numpy().tolist() for t in s_table.export()]))",
]

ERRORS = [
    "vi_table.lookup(tf.constant([10, 11, 30], tf.int32))",
    "s_table.lookup(tf.constant([1, 2]))",
    "i_table.lookup(tf.constant([1, 2], tf.int32))",
    "tf.lookup.StaticVocabularyTable(s_init, num_oov_buckets=0)",
    "tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(['a'], [1.0]), 2)",
    "tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer([1.0], [1], value_dtype=tf.int64), 2)",
    "tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(['a', 'b'], [1]), -1)",
    "tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(['a', 'a'], [1, 2]), -1)",
    "tf.lookup.StaticHashTable(s_init, default_value=[1, 2])",
    "tf.lookup.StaticHashTable(s_init, default_value='x')",
    "tf.strings.to_hash_bucket_fast(['a'], 0)",
    "tf.strings.to_hash_bucket_fast([1], 3)",
    "tf.strings.as_string(tf.constant([1]), precision=2)",
    "tf.strings.as_string(tf.constant([1.0]), scientific=True, shortest=True)",
    "tf.strings.as_string(tf.constant([1.0]), fill='x')",
    "tf.strings.as_string(tf.constant(['a']))",
]
