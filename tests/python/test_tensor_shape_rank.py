"""TensorShape.assert_has_rank / with_rank / with_rank_at_least / with_rank_at_most / merge_with / concatenate
and `+` (Keras's RNN layers check their input's rank with them). Expected reprs and messages were printed
by TF 2.21."""

import graphfn as tf
from tf_goldens import golden_tests

RESULTS = [
    ("tf.TensorShape([2]).assert_has_rank(1)", "None"),
    ("tf.TensorShape(None).assert_has_rank(3)", "None"),
    ("tf.TensorShape([1, None]) + (2,)", "TensorShape([1, None, 2])"),
    ("(2,) + tf.TensorShape([1])", "TensorShape([2, 1])"),
    ("tf.TensorShape([1]) + tf.TensorShape([3])", "TensorShape([1, 3])"),
    ("[4] + tf.TensorShape([1])", "TensorShape([4, 1])"),
    ("tf.TensorShape(None) + (1,)", "TensorShape(None)"),
    ('tf.TensorShape([2,None,3]).with_rank_at_least(2)', 'TensorShape([2, None, 3])'),
    ('tf.TensorShape([2,None,3]).with_rank_at_least(3)', 'TensorShape([2, None, 3])'),
    ('tf.TensorShape(None).with_rank_at_least(2)', 'TensorShape(None)'),
    ('tf.TensorShape([2,None,3]).with_rank_at_most(3)', 'TensorShape([2, None, 3])'),
    ('tf.TensorShape(None).with_rank_at_most(1)', 'TensorShape(None)'),
    ('tf.TensorShape([2,None]).with_rank(2)', 'TensorShape([2, None])'),
    ('tf.TensorShape(None).with_rank(3)', 'TensorShape([None, None, None])'),
    ('tf.TensorShape([2,None]).merge_with([None,4])', 'TensorShape([2, 4])'),
    ('tf.TensorShape(None).merge_with([1,2])', 'TensorShape([1, 2])'),
    ('tf.TensorShape([2,None]).merge_with(None)', 'TensorShape([2, None])'),
    ('tf.TensorShape([2,None]).concatenate([4])', 'TensorShape([2, None, 4])'),
    ('tf.TensorShape([2]).concatenate(None)', 'TensorShape(None)'),
    ('tf.TensorShape(None).concatenate([1])', 'TensorShape(None)'),
    ('tf.TensorShape([]).with_rank_at_least(0)', 'TensorShape([])'),
]

ERRORS = [
    ("tf.TensorShape([2, 3]).assert_has_rank(1)", ValueError, "Shape (2, 3) must have rank 1"),
    ('tf.TensorShape([2,None,3]).with_rank_at_least(4)', ValueError, 'Shape (2, None, 3) must have rank at least 4'),
    ('tf.TensorShape([2,None,3]).with_rank_at_most(2)', ValueError, 'Shape (2, None, 3) must have rank at most 2'),
    ('tf.TensorShape([2,None]).with_rank(3)', ValueError, 'Shape (2, None) must have rank 3'),
    ('tf.TensorShape([2,None]).merge_with([3,4])', ValueError, 'Shapes (2, None) and (3, 4) are not compatible'),
    ('tf.TensorShape([2,None]).merge_with([3])', ValueError, 'Shapes (2, None) and (3,) are not compatible'),
]

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS)
