"""The math ops of table "top_k" (tests/python/math_goldens/cases.py) against TensorFlow 2.21's
recorded values, errors and gradients, eagerly and in functions (math_golden_tables.py)."""

from math_golden_tables import golden_table_tests

golden_table_tests("top_k", globals())
