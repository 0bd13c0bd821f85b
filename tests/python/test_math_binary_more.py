"""The math ops of table "math_binary_more" (tests/python/math_goldens/cases.py) against TensorFlow 2.21's
recorded values, errors and gradients, eagerly and in functions (math_golden_tables.py)."""

from math_golden_tables import golden_table_tests

# Finite differences say nothing where the function jumps (a zero divisor) or goes through float32.
golden_table_tests("math_binary_more", globals(), not_smooth={
    "lambda x: tf.math.divide_no_nan(x, x - 1.0)",
    "lambda x: tf.saturate_cast(x * 100.0, tf.float32)",
})
