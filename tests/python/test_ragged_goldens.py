"""RaggedTensor against TF 2.21: each expression of ragged_cases.py gives TF's repr, or TF's
error type and message (tests/python/ragged_goldens.json, recorded with
record_ragged_goldens.py under ~/tf/bin/python), eagerly and inside tf.function."""

import graphfn as tf
from ragged_cases import SETUP
from setup_goldens import golden_tests


# TF names a graph op node in some messages ("{{function_node __wrapped__RaggedRange_...}}");
# the text is compared from its first line on, where graphfn's assertion texts stop early.
def _same_message(recorded, actual):
    return recorded.split("\n")[0] in actual


namespace, test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(
    tf, SETUP, "x", "rt", "ragged_goldens.json", _same_message)
