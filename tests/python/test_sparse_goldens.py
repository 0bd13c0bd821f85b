"""SparseTensor and the sparse ops against TF 2.21: each expression of sparse_cases.py gives
TF's repr, or TF's error type and message (tests/python/sparse_goldens.json, recorded with
record_sparse_goldens.py under ~/tf/bin/python), eagerly and inside tf.function; the raw ops'
cases check the kernels' values and messages."""

import graphfn as tf
from sparse_cases import SETUP
from setup_goldens import golden_tests


# The recorded text leaves out the node TF names in its kernels' messages; the whole message
# (several lines for SparseToDense's ordering error) must appear in graphfn's.
def _same_message(recorded, actual):
    return recorded in actual


namespace, test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(
    tf, SETUP, "sp", "sp", "sparse_goldens.json", _same_message)
