"""Keras-level global state: automatic object names, the path scope of variables, floatx and
epsilon, and values attached to tensors (the logits behind softmax outputs, loss masks).

Keras names objects from their class ("dense", then "dense_1", ...; explicit names are never
changed), and names a variable by the path of the layers whose scopes were open when it was
created ("sequential/dense_1/kernel"). Both are kept here, per process as in Keras, and reset
by clear_session()."""

import collections
import re
import threading
import weakref

_counters = collections.Counter()  # auto-name prefix -> how many objects took it
_scopes = threading.local()        # the open path scopes, outermost first
_notes = {}                        # id(tensor) -> (weakref to it, {key: value}), see annotate()

_FLOATX = "float32"
_EPSILON = 1e-7


def floatx():
    return _FLOATX


def epsilon():
    return _EPSILON


def snake_case(name):
    name = re.sub(r"\W+", "", name)
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def auto_name(prefix):
    """`prefix` the first time it is asked for, then prefix_1, prefix_2, ..."""
    count = _counters[prefix]
    _counters[prefix] += 1
    return prefix if count == 0 else "%s_%d" % (prefix, count)


def clear_session():
    """Forgets automatic names (the next Dense is "dense" again)."""
    _counters.clear()


def _stack():
    stack = getattr(_scopes, "stack", None)
    if stack is None:
        stack = _scopes.stack = []
    return stack


class path_scope:
    """Opens `name` as a path component for variables created inside; `owner` (the layer or
    optimizer that opens it) does not open its own scope twice when it is already innermost."""

    def __init__(self, name, owner=None):
        self._name = name
        self._owner = owner
        self._pushed = False

    def __enter__(self):
        stack = _stack()
        if not (self._owner is not None and stack and stack[-1][1] is self._owner):
            stack.append((self._name, self._owner))
            self._pushed = True
        return self

    def __exit__(self, *exc_info):
        if self._pushed:
            _stack().pop()
        return False


def current_path(name):
    return "/".join([scope for scope, _ in _stack()] + [name])


def annotate(tensor, key, value):
    """Attaches `value` to `tensor` under `key`, for as long as the tensor lives. Keras sets
    attributes on tensors for this (`_keras_logits` on softmax/sigmoid outputs, `_keras_mask`
    on losses with ignored entries); graphfn tensors take no attributes."""
    ident = id(tensor)
    entry = _notes.get(ident)
    if entry is None or entry[0]() is not tensor:
        try:
            ref = weakref.ref(tensor, lambda _, ident=ident: _notes.pop(ident, None))
        except TypeError:
            return
        entry = _notes[ident] = (ref, {})
    entry[1][key] = value


def annotation(tensor, key):
    entry = _notes.get(id(tensor))
    if entry is not None and entry[0]() is tensor:
        return entry[1].get(key)
    return None


def innermost_owner():
    """The object that opened the innermost path scope (None outside every scope)."""
    stack = _stack()
    return stack[-1][1] if stack else None

