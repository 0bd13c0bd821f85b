"""tf.nest: expected values and messages recorded from TF 2.21."""

import collections

import pytest

import graphfn as tf


def test_flatten_sorts_dict_keys_and_keeps_none_and_strings_as_leaves():
    assert tf.nest.flatten({"b": 1, "a": [2, (3, None)]}) == [2, 3, None, 1]
    assert tf.nest.flatten(None) == [None]
    assert tf.nest.flatten("ab") == ["ab"]
    assert tf.nest.flatten([{}, [], ()]) == []
    assert tf.nest.flatten({1: "a", 0: "b"}) == ["b", "a"]


def test_ordered_dicts_flatten_sorted_and_pack_in_their_own_order():
    od = collections.OrderedDict([("b", 1), ("a", 2)])
    assert tf.nest.flatten(od) == [2, 1]
    assert tf.nest.pack_sequence_as(od, [5, 6]) == collections.OrderedDict([("b", 6), ("a", 5)])


def test_tensors_and_specs_are_leaves():
    t = tf.constant([1, 2])
    assert tf.nest.flatten(t)[0] is t
    assert tf.nest.flatten(tf.TensorSpec([2])) == [tf.TensorSpec([2])]


def test_map_structure_over_several_structures():
    assert tf.nest.map_structure(lambda *a: sum(a), (1, 2), (3, 4), (5, 6)) == (9, 12)
    assert tf.nest.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)]) == [11, (22, 33)]
    assert tf.nest.map_structure(lambda x: x * 2, {"a": 1, "b": (2, 3)}) == {"a": 2, "b": (4, 6)}
    assert tf.nest.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, [20, 30]], check_types=False) == [11, (22, 33)]


def test_map_structure_with_different_sequence_types_gives_tensorflows_type_error():
    with pytest.raises(TypeError) as info:
        tf.nest.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, [20, 30]])
    assert str(info.value) == (
        "The two structures don't have the same nested structure.\n\nFirst structure: type=list str=[1, (2, 3)]\n\n"
        "Second structure: type=list str=[10, [20, 30]]\n\nMore specifically: The two namedtuples don't have the same "
        "sequence type. First structure type=tuple str=(2, 3) has type tuple, while second structure type=list "
        "str=[20, 30] has type list\nEntire first structure:\n[., (., .)]\nEntire second structure:\n[., [., .]]")


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.nest.map_structure(1, [1]), TypeError, "func must be callable, got: 1"),
    (lambda: tf.nest.map_structure(lambda x: x), ValueError, "Must provide at least one structure"),
    (lambda: tf.nest.map_structure(lambda x: x, [1], foo=1), ValueError,
     "Only valid keyword arguments are `check_types` and `expand_composites`, not: `foo`"),
    (lambda: tf.nest.pack_sequence_as([1, 2], [1]), ValueError,
     "Could not pack sequence. Structure had 2 atoms, but flat_sequence had 1 items.  Structure: [1, 2], "
     "flat_sequence: [1]."),
    (lambda: tf.nest.pack_sequence_as([1, 2], 5), TypeError,
     "Attempted to pack value:\n  5\ninto a structure, but found incompatible type `<class 'int'>` instead."),
    (lambda: tf.nest.pack_sequence_as([1], "ab"), TypeError,
     "Attempted to pack value:\n  ab\ninto a structure, but found incompatible type `<class 'str'>` instead."),
    (lambda: tf.nest.pack_sequence_as(1, [1, 2]), ValueError,
     "The target structure is of type `<class 'int'>`\n  1\nHowever the input is a sequence (<class 'list'>) of "
     "length 2.\n  [1, 2]\nnest cannot guarantee that it is safe to map one to the other."),
    (lambda: tf.nest.assert_same_structure([1, 2], [1]), ValueError,
     "The two structures don't have the same nested structure.\n\nFirst structure: type=list str=[1, 2]\n\n"
     "Second structure: type=list str=[1]\n\nMore specifically: The two structures don't have the same number of "
     "elements. First structure: type=list str=[1, 2]. Second structure: type=list str=[1]\nEntire first "
     "structure:\n[., .]\nEntire second structure:\n[.]"),
])
def test_errors_match_tensorflow(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_pack_sequence_as():
    assert tf.nest.pack_sequence_as({"b": 0, "a": 0}, [1, 2]) == {"b": 2, "a": 1}
    assert tf.nest.pack_sequence_as(1, [7]) == 7
    assert tf.nest.pack_sequence_as([], []) == []
    assert tf.nest.pack_sequence_as([1, 2], (3, 4)) == [3, 4]


def test_is_nested():
    assert [tf.nest.is_nested(v) for v in ([1], 1, {}, "x")] == [True, False, True, False]
