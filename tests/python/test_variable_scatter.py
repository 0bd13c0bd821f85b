"""Variable scatters (scatter_update/add/sub/mul/div/min/max with tf.IndexedSlices,
scatter_nd_update/add/sub/min/max) and sliced assignment (v[1:3].assign(x)), eagerly and in
functions, against TensorFlow 2.21's recorded values and errors (the VARIABLE_SCATTER tables of
tests/python/shape_index_cases.py)."""

from shape_index_golden_helpers import golden_tests

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests("VARIABLE_SCATTER",
                                                                             "VARIABLE_SCATTER_ERRORS")
