"""graphfn against TensorFlow 2.21's recorded values and errors: the GATHER_SCATTER tables of
tests/python/shape_index_cases.py (recorded by tools/record_shape_index_goldens.py)."""

from shape_index_golden_helpers import golden_tests

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests("GATHER_SCATTER", "GATHER_SCATTER_ERRORS")
