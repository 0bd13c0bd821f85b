"""The math ops of table "math_reductions_more" (tests/python/math_goldens/cases.py) against TensorFlow 2.21's
recorded values, errors and gradients, eagerly and in functions (math_golden_tables.py)."""

from math_golden_tables import golden_table_tests

# An exclusive cumulative log-sum-exp starts at -inf, whose sum with the rest is not finite.
golden_table_tests("math_reductions_more", globals(), not_smooth={
    "lambda x: tf.math.cumulative_logsumexp(x, exclusive=True, reverse=True) * tf.constant([1.0, -2.0, 3.0], "
    "tf.float64)",
})
