"""Keras-level global state: automatic object names, the path scope of variables, floatx and
epsilon, and the logits behind softmax outputs.

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
_logits = {}                       # id(activation output) -> (weakref to it, logits, "softmax"/"sigmoid")

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


def remember_logits(output, logits, kind="softmax"):
    """Remembers that `output` is softmax(logits) (or sigmoid), so that the cross-entropy
    losses use the logits (as Keras does with the `_keras_logits` attribute it sets on these
    outputs; graphfn tensors take no attributes)."""
    key = id(output)
    try:
        ref = weakref.ref(output, lambda _, key=key: _logits.pop(key, None))
    except TypeError:
        return
    _logits[key] = (ref, logits, kind)


def logits_of(output):
    entry = _logits.get(id(output))
    if entry is not None and entry[0]() is output:
        return entry[1]
    return None


def innermost_owner():
    """The object that opened the innermost path scope (None outside every scope)."""
    stack = _stack()
    return stack[-1][1] if stack else None


def logits_kind(output):
    entry = _logits.get(id(output))
    return entry[2] if entry is not None and entry[0]() is output else None
