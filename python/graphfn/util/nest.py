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
