"""The attrs of a traced node, read from its NodeDef text (`Operation.node_def`, TF's text format).

The batching rules re-emit a node's op with its attrs (`transpose_a`, `keep_dims`, `DstT`, ...);
the text is the one complete public view of a node, so it is parsed here rather than widening
the C++ bindings. Tensor-valued attrs (Const's `value`) are not decoded: a rule that needs a
constant's value asks the graph to evaluate it."""

import re

from graphfn.framework import dtypes

_TOKEN = re.compile(r'\s*(?:(\{)|(\})|([A-Za-z_][A-Za-z0-9_]*)\s*:\s*("(?:[^"\\]|\\.)*"|[^\s{}]+)|([A-Za-z_][A-Za-z0-9_]*)\s*(?=\{))')


def _parse_block(text, pos):
    """[(key, value)] of one `{ ... }` block from `pos` (after its `{`) and the position after
    its `}`; a value is a scalar string or a nested list."""
    items = []
    while True:
        m = _TOKEN.match(text, pos)
        if m is None:
            return items, len(text)
        pos = m.end()
        if m.group(2):
            return items, pos
        if m.group(3):
            items.append((m.group(3), m.group(4)))
        elif m.group(5):
            brace = _TOKEN.match(text, pos)
            block, pos = _parse_block(text, brace.end())
            items.append((m.group(5), block))


def _scalar(kind, raw):
    if kind == "b":
        return raw == "true"
    if kind == "i":
        return int(raw)
    if kind == "f":
        return float(raw)
    if kind == "s":
        return raw[1:-1].encode().decode("unicode_escape")
    if kind == "type":
        return dtypes.as_dtype(getattr(dtypes, _DT_NAMES.get(raw, raw[3:].lower())))
    raise ValueError(kind)


_DT_NAMES = {"DT_FLOAT": "float32", "DT_DOUBLE": "float64", "DT_HALF": "float16", "DT_BOOL": "bool",
             "DT_STRING": "string", "DT_RESOURCE": "resource", "DT_VARIANT": "variant"}


def _shape(block):
    if any(k == "unknown_rank" for k, _ in block):
        return None
    return [int(dict(d).get("size", "0")) for k, d in block if k == "dim"]


def _value(block):
    """One AttrValue block as a Python value; None for what no rule reads (tensors, functions)."""
    for kind, raw in block:
        if kind in ("b", "i", "f", "s", "type"):
            return _scalar(kind, raw)
        if kind == "shape":
            return _shape(raw)
        if kind == "list":
            return [_scalar(k, v) if isinstance(v, str) else _shape(v) for k, v in raw]
        if kind in ("tensor", "func"):
            return _UNREADABLE
    return []  # an empty list prints as `list {}`, or as nothing


class _Unreadable:
    def __repr__(self):
        return "<tensor or function attr>"


_UNREADABLE = _Unreadable()


def node_attrs(node_def_text):
    """{attr name: value} of a node, from its NodeDef text. Values the rules cannot pass back
    (tensors, functions) are `UNREADABLE`."""
    items, _ = _parse_block(node_def_text, 0)
    attrs = {}
    for key, value in items:
        if key == "attr":
            entry = dict(value)
            attrs[entry["key"][1:-1]] = _value(entry["value"])
    return attrs


UNREADABLE = _UNREADABLE
