"""The math ops of table "segment_ops" (tests/python/math_goldens/cases.py) against TensorFlow 2.21's
recorded values, errors and gradients, eagerly and in functions (math_golden_tables.py)."""

from math_golden_tables import golden_table_tests

# Unsorted max/min fill empty segments with the dtype's lowest/highest value: their sum overflows.
golden_table_tests("segment_ops", globals(), not_smooth={
    "lambda x: tf.math.unsorted_segment_max(x, tf.constant([2, 0, 2, -1]), 4)",
    "lambda x: tf.math.unsorted_segment_min(x, tf.constant([2, 0, 2, -1]), 4)",
    "lambda x: tf.math.unsorted_segment_max(x, tf.constant([[0, 1], [1, 0]]), 2)",
    "lambda x: tf.math.segment_max(x, tf.constant([0, 0, 1, 3]))",
    "lambda x: tf.math.segment_min(x, tf.constant([0, 0, 1, 3]))",
})
