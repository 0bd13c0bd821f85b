"""Elements as TF's tf.data sees them: a nest of tuples, namedtuples and dicts (dicts in sorted
key order) whose leaves are tensors or composite tensors (a SparseTensor: several flat tensors,
described by its TypeSpec). Python lists are not structure here, as in TF: a list is converted to
one tensor. The C++ runtime sees only the flat list of tensors."""

import collections

from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.framework.type_spec import BatchableTypeSpec, TypeSpec
from graphfn.ops import array_ops


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def map_structure(fn, value):
    """fn applied to every leaf; tuples, namedtuples and dicts keep their shape."""
    if _is_namedtuple(value):
        return type(value)(*[map_structure(fn, v) for v in value])
    if isinstance(value, tuple):
        return tuple(map_structure(fn, v) for v in value)
    if isinstance(value, dict):
        return _dict_like(value, [(k, map_structure(fn, value[k])) for k in value])
    return fn(value)


def _dict_like(model, items):
    """A dict of `items`, an OrderedDict when `model` is one (TF keeps it in element specs)."""
    return collections.OrderedDict(items) if isinstance(model, collections.OrderedDict) else dict(items)


def flatten(value):
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in flatten(v)]
    if isinstance(value, dict):
        return [leaf for k in sorted(value) for leaf in flatten(value[k])]
    if _expands(value):
        spec = value if isinstance(value, TypeSpec) else value._type_spec
        return list(spec._flat_tensor_specs) if value is spec else spec._to_tensor_list(value)
    return [value]


def _expands(value):
    """Whether `value` (a leaf) is a batchable composite tensor (SparseTensor, RaggedTensor) or its
    spec, which tf.data carries as its flat tensors. Other composites, such as a dataset (a
    group_by_window reduce function's argument), stay one leaf."""
    spec = value if isinstance(value, TypeSpec) else getattr(value, "_type_spec", None)
    return isinstance(spec, BatchableTypeSpec) and isinstance(value, (CompositeTensor, TypeSpec))


def _composite_leaf(spec, leaves):
    """A composite leaf of a structure from its flat parts: its spec when the parts are specs
    (an element spec being built), else the value."""
    parts = [next(leaves) for _ in spec._flat_tensor_specs]
    if all(isinstance(p, TensorSpec) for p in parts):
        return spec
    return spec._from_tensor_list(parts)


def pack(structure, flat):
    """The leaves of `flat` placed into the shape of `structure`."""
    leaves = iter(flat)

    def fill(s):
        if _is_namedtuple(s):
            return type(s)(*[fill(v) for v in s])
        if isinstance(s, tuple):
            return tuple(fill(v) for v in s)
        if isinstance(s, dict):
            filled = {k: fill(s[k]) for k in sorted(s)}
            return _dict_like(s, [(k, filled[k]) for k in s])
        if _expands(s):
            return _composite_leaf(s if isinstance(s, TypeSpec) else s._type_spec, leaves)
        return next(leaves)

    return fill(structure)


def to_tensors(value):
    """The element with every leaf (including lists, NumPy arrays, strings) converted to a tensor."""
    return map_structure(
        lambda v: v if isinstance(v, (Tensor, CompositeTensor)) else array_ops.convert_to_tensor(v), value)


def spec_of(tensor, batched=False):
    """The TensorSpec of one leaf; batched: of its rows (shape without the first dimension)."""
    shape = tensor.shape
    if batched:
        shape = TensorShape(shape.as_list()[1:]) if shape.rank is not None else TensorShape(None)
    return TensorSpec(shape, tensor.dtype)


def same_structure(a, b):
    """Whether two element specs nest the same way (leaves not compared)."""
    if isinstance(a, tuple) != isinstance(b, tuple) or isinstance(a, dict) != isinstance(b, dict):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same_structure(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return sorted(a) == sorted(b) and all(same_structure(a[k], b[k]) for k in a)
    return True


def most_specific_common_shape(a, b):
    """The shape both shapes fit: unknown where they differ (TF's concatenate spec)."""
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])
