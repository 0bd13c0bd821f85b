"""JSON for what a saved function's Python side needs: nested argument and output structures
whose tensor leaves are TensorSpecs, Python values (None, bool, int, float, str), and
parameter lists. Decoding checks every piece, so a damaged file gives a ValueError."""

import collections
import inspect

from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_spec import TensorSpec

_MAX_DEPTH = 64
_KINDS = {
    "POSITIONAL_ONLY": inspect.Parameter.POSITIONAL_ONLY,
    "POSITIONAL_OR_KEYWORD": inspect.Parameter.POSITIONAL_OR_KEYWORD,
    "VAR_POSITIONAL": inspect.Parameter.VAR_POSITIONAL,
    "KEYWORD_ONLY": inspect.Parameter.KEYWORD_ONLY,
    "VAR_KEYWORD": inspect.Parameter.VAR_KEYWORD,
}
_KIND_NAMES = {kind: name for name, kind in _KINDS.items()}


class Unsaveable(ValueError):
    """A value a saved function's signature cannot hold."""


def encode(value):
    """`value` (a structure of tensors/TensorSpecs and Python values) as JSON-ready data."""
    if isinstance(value, (Tensor, TensorSpec)):
        dims = value.shape.dims
        name = value.name if isinstance(value, TensorSpec) else None
        return {"spec": [value.dtype.name, None if dims is None else list(dims), name]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"py": value}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {"namedtuple": [type(value).__name__, list(value._fields), [encode(v) for v in value]]}
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [encode(v) for v in value]}
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise Unsaveable("only dicts with string keys can be saved, got %r" % (value,))
        return {"dict": [[k, encode(v)] for k, v in value.items()]}
    if getattr(value, "_graphfn_type_spec", False):  # tf.data.DatasetSpec (TF saves these; graphfn not yet)
        raise Unsaveable("graphfn cannot save a function that takes a tf.data.Dataset argument yet (%r)" % (value,))
    raise Unsaveable("a saved function cannot take or return a %s (%r)" % (type(value).__name__, value))


def decode(data, depth=0):
    """The structure `encode` described, with TensorSpec leaves."""
    if depth > _MAX_DEPTH:
        raise ValueError("structure nested more than %d levels deep" % _MAX_DEPTH)
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError("bad structure entry %r" % (data,))
    (kind, body), = data.items()
    if kind == "spec":
        dtype, dims, name = body
        if dims is not None and not all(d is None or (isinstance(d, int) and d >= 0) for d in dims):
            raise ValueError("bad TensorSpec dims %r" % (dims,))
        if name is not None and not isinstance(name, str):
            raise ValueError("bad TensorSpec name %r" % (name,))
        return TensorSpec(dims, dtypes.as_dtype(dtype), name)
    if kind == "py":
        if body is not None and not isinstance(body, (bool, int, float, str)):
            raise ValueError("bad Python value %r" % (body,))
        return body
    if kind in ("tuple", "list"):
        items = [decode(v, depth + 1) for v in _list(body)]
        return tuple(items) if kind == "tuple" else items
    if kind == "namedtuple":
        name, fields, items = body
        cls = collections.namedtuple(name, fields)
        return cls(*[decode(v, depth + 1) for v in _list(items)])
    if kind == "dict":
        return {str(k): decode(v, depth + 1) for k, v in _list(body)}
    raise ValueError("bad structure kind %r" % (kind,))


def _list(value):
    if not isinstance(value, list):
        raise ValueError("expected a list, got %r" % (value,))
    return value


def encode_parameters(signature):
    """An inspect.Signature's parameters: name, kind and (when it can be saved) default."""
    params = []
    for p in signature.parameters.values():
        entry = {"name": p.name, "kind": _KIND_NAMES[p.kind]}
        if p.default is not inspect.Parameter.empty:
            try:
                entry["default"] = encode(p.default)
            except Unsaveable:
                pass  # a restored function then needs the argument
        params.append(entry)
    return params


def decode_parameters(data):
    params = []
    for entry in _list(data):
        default = decode(entry["default"]) if "default" in entry else inspect.Parameter.empty
        params.append(inspect.Parameter(entry["name"], _KINDS[entry["kind"]], default=default))
    return inspect.Signature(params)
