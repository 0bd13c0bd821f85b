"""Flattening nested Python structures (lists, tuples, namedtuples, dicts) and rebuilding them.

Dicts are traversed in sorted key order, as TensorFlow's nest does."""


def _children(structure):
    if isinstance(structure, dict):
        return [structure[k] for k in sorted(structure, key=_sort_key)]
    if isinstance(structure, (list, tuple)):
        return list(structure)
    return None


def _sort_key(key):
    return (type(key).__name__, key) if isinstance(key, (int, float, str)) else (type(key).__name__, repr(key))


def flatten(structure):
    """The leaves of `structure`, depth first."""
    children = _children(structure)
    if children is None:
        return [structure]
    out = []
    for child in children:
        out.extend(flatten(child))
    return out


def map_structure(fn, structure):
    """A structure of the same shape with fn applied to every leaf."""
    return pack_sequence_as(structure, [fn(leaf) for leaf in flatten(structure)])


def pack_sequence_as(structure, flat):
    """Rebuilds `structure` with its leaves replaced, in order, by `flat`."""
    leaves = iter(flat)
    result = _pack(structure, leaves)
    return result


def _pack(structure, leaves):
    if isinstance(structure, dict):
        rebuilt = {k: _pack(structure[k], leaves) for k in sorted(structure, key=_sort_key)}
        return type(structure)((k, rebuilt[k]) for k in structure)
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*[_pack(v, leaves) for v in structure])
    if isinstance(structure, (list, tuple)):
        return type(structure)(_pack(v, leaves) for v in structure)
    return next(leaves)


def is_nested(structure):
    return _children(structure) is not None


class _Dot:
    def __repr__(self):
        return "."


def _describe(structure):
    return "type=%s str=%s" % (type(structure).__name__, structure)


def assert_same_structure(nest1, nest2, check_types=True):
    """Raises ValueError (TypeError for differing sequence types) with TF's message unless both
    structures have the same nesting."""
    try:
        _assert_same(nest1, nest2, check_types)
    except (ValueError, TypeError) as e:
        dots = [map_structure(lambda _: _Dot(), s) for s in (nest1, nest2)]
        raise type(e)("The two structures don't have the same nested structure.\n\nFirst structure: %s\n\n"
                      "Second structure: %s\n\nMore specifically: %s\nEntire first structure:\n%s\n"
                      "Entire second structure:\n%s" % (_describe(nest1), _describe(nest2), e, dots[0], dots[1])) from None


def _assert_same(a, b, check_types):
    a_seq, b_seq = is_nested(a), is_nested(b)
    if a_seq != b_seq:
        seq, leaf = (a, b) if a_seq else (b, a)
        raise ValueError('Substructure "%s" is a sequence, while substructure "%s" is not'
                         % (_describe(seq), _describe(leaf)))
    if not a_seq:
        return
    if check_types:
        if type(a) is not type(b):
            raise TypeError("The two namedtuples don't have the same sequence type. First structure %s has type %s, "
                            "while second structure %s has type %s"
                            % (_describe(a), type(a).__name__, _describe(b), type(b).__name__))
        if isinstance(a, dict) and set(a) != set(b):
            raise ValueError("The two dictionaries don't have the same set of keys. First structure has keys type=list "
                             "str=%s, while second structure has keys type=list str=%s" % (list(a), list(b)))
    children_a, children_b = _children(a), _children(b)
    for x, y in zip(children_a, children_b):
        _assert_same(x, y, check_types)
    if len(children_a) != len(children_b):
        raise ValueError("The two structures don't have the same number of elements. First structure: %s. "
                         "Second structure: %s" % (_describe(a), _describe(b)))
