"""Flattening nested Python structures (lists, tuples, namedtuples, dicts) and rebuilding them.

Dicts are traversed in sorted key order, as TensorFlow's nest does. With expand_composites=True,
a composite tensor (framework/composite_tensor.py) is a structure too: its children are its
spec's components, and a TypeSpec's children are its component specs."""

from graphfn.util.tf_export import tf_export


# Composites are recognised by class markers: framework/ (a higher layer) defines them.
def _is_composite(value):
    return getattr(type(value), "_graphfn_composite", False)  # framework.composite_tensor.CompositeTensor


def _is_type_spec(value):
    return getattr(type(value), "_graphfn_type_spec", False)  # framework.type_spec.TypeSpec


def _children(structure, expand_composites=False):
    if isinstance(structure, dict):
        return [structure[k] for k in sorted(structure, key=_sort_key)]
    if isinstance(structure, (list, tuple)):
        return list(structure)
    if expand_composites:
        if _is_composite(structure):
            return [structure._type_spec._to_components(structure)]
        if _is_type_spec(structure):
            return [structure._component_specs]
    return None


def _sort_key(key):
    return (type(key).__name__, key) if isinstance(key, (int, float, str)) else (type(key).__name__, repr(key))


def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first."""
    children = _children(structure, expand_composites)
    if children is None:
        return [structure]
    out = []
    for child in children:
        out.extend(flatten(child, expand_composites))
    return out


def map_structure(fn, structure, expand_composites=False):
    """A structure of the same shape with fn applied to every leaf."""
    return pack_sequence_as(structure, [fn(leaf) for leaf in flatten(structure, expand_composites)],
                            expand_composites)


def pack_sequence_as(structure, flat, expand_composites=False):
    """Rebuilds `structure` with its leaves replaced, in order, by `flat`."""
    leaves = iter(flat)
    result = _pack(structure, leaves, expand_composites)
    return result


def _pack(structure, leaves, expand_composites=False):
    if isinstance(structure, dict):
        rebuilt = {k: _pack(structure[k], leaves, expand_composites) for k in sorted(structure, key=_sort_key)}
        return type(structure)((k, rebuilt[k]) for k in structure)
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*[_pack(v, leaves, expand_composites) for v in structure])
    if isinstance(structure, (list, tuple)):
        return type(structure)(_pack(v, leaves, expand_composites) for v in structure)
    if expand_composites:
        if _is_composite(structure):
            spec = structure._type_spec
            components = _pack(spec._component_specs, leaves, True)
            _check_component_shapes(spec._component_specs, components)
            return spec._from_components(components)
        if _is_type_spec(structure):
            return structure._from_components(_pack(structure._component_specs, leaves, True))
    return next(leaves)


def _check_component_shapes(specs, components):
    """As TF: a composite rebuilt from tensors whose shapes do not fit its components is an error."""
    for spec, value in zip(flatten(specs, True), flatten(components, True)):
        spec_shape, shape = getattr(spec, "shape", None), getattr(value, "shape", None)
        if spec_shape is not None and hasattr(shape, "is_compatible_with") and not spec_shape.is_compatible_with(shape):
            raise ValueError("Tensor's shape %s is not compatible with supplied shape %s." % (shape, spec_shape))


def is_nested(structure, expand_composites=False):
    return _children(structure, expand_composites) is not None


class _Dot:
    def __repr__(self):
        return "."


def _describe(structure):
    return "type=%s str=%s" % (type(structure).__name__, structure)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raises ValueError (TypeError for differing sequence types) with TF's message unless both
    structures have the same nesting."""
    try:
        _assert_same(nest1, nest2, check_types, expand_composites)
    except (ValueError, TypeError) as e:
        dots = [map_structure(lambda _: _Dot(), s) for s in (nest1, nest2)]
        raise type(e)("The two structures don't have the same nested structure.\n\nFirst structure: %s\n\n"
                      "Second structure: %s\n\nMore specifically: %s\nEntire first structure:\n%s\n"
                      "Entire second structure:\n%s" % (_describe(nest1), _describe(nest2), e, dots[0], dots[1])) from None


def _composite_spec(value):
    if _is_composite(value):
        return value._type_spec
    return value if _is_type_spec(value) else None


def _assert_same(a, b, check_types, expand_composites=False):
    a_seq, b_seq = is_nested(a, expand_composites), is_nested(b, expand_composites)
    if a_seq != b_seq:
        seq, leaf = (a, b) if a_seq else (b, a)
        raise ValueError('Substructure "%s" is a sequence, while substructure "%s" is not'
                         % (_describe(seq), _describe(leaf)))
    if not a_seq:
        return
    spec_a, spec_b = (_composite_spec(a), _composite_spec(b)) if expand_composites else (None, None)
    if spec_a is not None or spec_b is not None:
        if (spec_a is None or spec_b is None or type(spec_a) is not type(spec_b)
                or spec_a.most_specific_common_supertype([spec_b]) is None):
            raise ValueError("Incompatible CompositeTensor TypeSpecs: %s vs. %s"
                             % (_describe_spec(spec_a, a), _describe_spec(spec_b, b)))
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
        _assert_same(x, y, check_types, expand_composites)
    if len(children_a) != len(children_b):
        raise ValueError("The two structures don't have the same number of elements. First structure: %s. "
                         "Second structure: %s" % (_describe(a), _describe(b)))


def _describe_spec(spec, value):
    return _describe(value) if spec is None else "type=%s str=%s" % (type(spec).__name__, spec)


# The public tf.nest: TF's signatures and errors over the functions above.

def _flat_sequence_or_error(flat_sequence):
    if not isinstance(flat_sequence, (list, tuple)):
        raise TypeError("Attempted to pack value:\n  %s\ninto a structure, but found incompatible type `%s` instead."
                        % (flat_sequence, type(flat_sequence)))
    return list(flat_sequence)


@tf_export("nest.flatten")
def public_flatten(structure, expand_composites=False):
    return flatten(structure, expand_composites)


@tf_export("nest.pack_sequence_as")
def public_pack_sequence_as(structure, flat_sequence, expand_composites=False):
    flat = _flat_sequence_or_error(flat_sequence)
    if not is_nested(structure, expand_composites):
        if len(flat) != 1:
            raise ValueError("The target structure is of type `%s`\n  %s\nHowever the input is a sequence (%s) of "
                             "length %d.\n  %s\nnest cannot guarantee that it is safe to map one to the other."
                             % (type(structure), structure, type(flat_sequence), len(flat), flat_sequence))
        return flat[0]
    atoms = len(flatten(structure, expand_composites))
    if atoms != len(flat):
        raise ValueError("Could not pack sequence. Structure had %d atoms, but flat_sequence had %d items.  "
                         "Structure: %s, flat_sequence: %s." % (atoms, len(flat), structure, flat_sequence))
    return pack_sequence_as(structure, flat, expand_composites)


@tf_export("nest.map_structure")
def public_map_structure(func, *structure, **kwargs):
    if not callable(func):
        raise TypeError("func must be callable, got: %s" % (func,))
    if not structure:
        raise ValueError("Must provide at least one structure")
    for key in kwargs:
        if key not in ("check_types", "expand_composites"):
            raise ValueError("Only valid keyword arguments are `check_types` and `expand_composites`, not: `%s`" % key)
    check_types = kwargs.get("check_types", True)
    expand = kwargs.get("expand_composites", False)
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types, expand_composites=expand)
    leaves = [flatten(s, expand) for s in structure]
    return pack_sequence_as(structure[0], [func(*args) for args in zip(*leaves)], expand)


@tf_export("nest.assert_same_structure")
def public_assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    assert_same_structure(nest1, nest2, check_types=check_types, expand_composites=expand_composites)


@tf_export("nest.is_nested")
def public_is_nested(seq):
    return is_nested(seq)
