"""TF's two eager calling paths, as far as they show in results and error text.

TF converts op inputs on a C++ fast path unless an input is a Python list/tuple or a NumPy
scalar (or an attr needs converting, e.g. a dtype given as a string); then a Python slow path
converts them (with slightly different rules, see reduction_ops) and its errors lack the
trailing " name: " that fast-path errors carry."""

from graphfn.framework import errors
from graphfn.framework.tensor import Tensor
from graphfn.util.lazy_numpy import is_ndarray

_NAME_SUFFIX = " name: "


def is_plain(value):
    """True for values the fast path converts itself."""
    return isinstance(value, (Tensor, int, float)) or is_ndarray(value)


def call(fast_path, op, *inputs, **attrs):
    """Runs `op`; errors from the slow path drop the " name: " suffix, as TF's do."""
    try:
        return op(*inputs, **attrs)
    except errors.OpError as e:
        if not fast_path and e._message.endswith(_NAME_SUFFIX):
            e._message = e._message[:-len(_NAME_SUFFIX)]
        raise


def call_named(error_name, op, *inputs, **attrs):
    """Runs `op`; an eager error's " name: " suffix becomes the one TF's wrapper shows: none when
    `error_name` is None (tf.reshape, tf.slice), else " name: <error_name>" (tf.concat's
    "concat", indexing's "strided_slice/")."""
    try:
        return op(*inputs, **attrs)
    except errors.OpError as e:
        if e._message.endswith(_NAME_SUFFIX):
            e._message = e._message[:-len(_NAME_SUFFIX)] + ("" if error_name is None else _NAME_SUFFIX + error_name)
        raise
