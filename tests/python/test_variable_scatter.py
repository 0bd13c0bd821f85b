"""Variable scatters (scatter_update/add/sub/mul/div/min/max with tf.IndexedSlices,
scatter_nd_update/add/sub/min/max) and sliced assignment (v[1:3].assign(x)), eagerly and in
functions, against TensorFlow 2.21's recorded values and errors (the VARIABLE_SCATTER tables of
tests/python/shape_index_cases.py)."""

import pytest
from shape_index_golden_helpers import golden_tests

import graphfn as tf

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests("VARIABLE_SCATTER",
                                                                             "VARIABLE_SCATTER_ERRORS")


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
def test_indexed_slices_is_a_tensor_and_converts_to_its_dense_tensor(in_function):
    # TF 2.21: is_tensor True; duplicate rows summed: [[4, 6], [0, 0], [0, 0]] (Keras's sparse optimizer tests)
    def dense():
        return tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([0, 0]),
                                                     tf.constant([3, 2])))
    assert tf.is_tensor(tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), tf.constant([2, 1])))
    result = (tf.function(dense) if in_function else dense)()
    assert result.numpy().tolist() == [[4.0, 6.0], [0.0, 0.0], [0.0, 0.0]]
    rows = tf.convert_to_tensor(tf.IndexedSlices(tf.ones((3, 3, 2)), (0, 2, 4), (5, 3, 2)))
    assert rows.shape == (5, 3, 2) and rows.numpy()[:, 0, 0].tolist() == [1.0, 0.0, 1.0, 0.0, 1.0]


def test_indexed_slices_without_dense_shape_does_not_convert():
    # TF 2.21: ValueError "Tensor conversion requested for IndexedSlices for argument `value` without dense_shape: ..."
    with pytest.raises(ValueError, match="^Tensor conversion requested for IndexedSlices for argument `value` "
                                         "without dense_shape: "):
        tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1])))
