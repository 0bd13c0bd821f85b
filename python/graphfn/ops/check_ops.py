"""tf.debugging asserts. Eagerly they check at once and raise InvalidArgumentError with TF's
text; while tracing they add an Assert op, which always runs (it is stateful) and fails the
call when its condition is false."""

from graphfn import _core
from graphfn.framework import errors
from graphfn.framework.tensor import EagerTensor, Tensor
from graphfn.ops import math_ops, reduction_ops
from graphfn.framework.name_scope import name_scope
from graphfn.ops._op_table import node, ops
from graphfn.util.lazy_numpy import numpy
from graphfn.util.tf_export import tf_export


def _tensor(value, dtype_of=None):
    if hasattr(value, "__tf_tensor__"):
        return value.__tf_tensor__()
    if isinstance(value, Tensor):
        return value
    return _core.to_tensor(value, dtype_of._dtype_enum if isinstance(dtype_of, EagerTensor) else 0)


@tf_export("debugging.Assert", "Assert")
def Assert(condition, data, summarize=None, name=None):  # noqa: N802 (TF's name)
    """Raises InvalidArgumentError when `condition` is false, showing `data`."""
    condition = _tensor(condition)
    data = [_tensor(d) for d in data]
    if isinstance(condition, EagerTensor):
        if not condition.numpy():
            shown = "\n".join(str(d.numpy()) for d in data)
            raise errors.InvalidArgumentError(
                None, None, "Expected '%s' to be true. Summarized data: %s" % (condition, shown))
        return None
    with name_scope(name or "Assert"):  # TF's node is Assert/Assert
        return node("Assert", "Assert")(condition, data, summarize=3 if summarize is None else summarize)


def _first(t, n):
    return numpy().asarray(t.numpy()).reshape(-1)[:n]


def _binary_assert(symbol, op, x, y, message, summarize):
    x = _tensor(x)
    y = _tensor(y, x)
    condition = reduction_ops.reduce_all(op(x, y))
    if not isinstance(condition, EagerTensor):
        data = ([message] if message else []) + [
            "Condition x %s y did not hold element-wise:" % symbol,
            "x (%s) = " % getattr(x, "name", "x"), x, "y (%s) = " % getattr(y, "name", "y"), y]
        return ops.Assert(condition, data, summarize=3 if summarize is None else summarize)  # an Operation
    if condition.numpy():
        return None
    n = summarize if summarize is not None else max(x._num_elements, y._num_elements)
    lines = [message] if message else []
    lines.append("Condition x %s y did not hold." % symbol)
    if symbol == "==" and x._rank > 0 and x.shape == y.shape:
        differ = numpy().argwhere(x.numpy() != y.numpy())[:1]
        lines += ["Indices of first %d different values:" % len(differ), str(differ),
                  "Corresponding x values:", str(x.numpy()[tuple(differ.T)]),
                  "Corresponding y values:", str(y.numpy()[tuple(differ.T)])]
    lines += ["First %d elements of x:" % min(n, x._num_elements), str(_first(x, n)),
              "First %d elements of y:" % min(n, y._num_elements), str(_first(y, n))]
    raise errors.InvalidArgumentError(None, None, "\n".join(lines))


# TF 2.21 has these at the top level too; the other asserts only under tf.debugging.
_TOP_LEVEL = {"assert_equal", "assert_greater", "assert_less", "assert_rank"}


def _public_names(name):
    return ("debugging." + name, name) if name in _TOP_LEVEL else ("debugging." + name,)


def _export_binary(name, symbol, op):
    def assert_fn(x, y, message=None, summarize=None, name=None):
        return _binary_assert(symbol, op, x, y, message, summarize)
    assert_fn.__name__ = name
    assert_fn.__doc__ = "Asserts x %s y element-wise." % symbol
    return tf_export(*_public_names(name))(assert_fn)


assert_equal = _export_binary("assert_equal", "==", math_ops.equal)
assert_none_equal = _export_binary("assert_none_equal", "!=", math_ops.not_equal)
assert_less = _export_binary("assert_less", "<", math_ops.less)
assert_less_equal = _export_binary("assert_less_equal", "<=", math_ops.less_equal)
assert_greater = _export_binary("assert_greater", ">", math_ops.greater)
assert_greater_equal = _export_binary("assert_greater_equal", ">=", math_ops.greater_equal)


def _export_sign(name, symbol, op):
    def assert_fn(x, message=None, summarize=None, name=None):
        x = _tensor(x)
        condition = reduction_ops.reduce_all(op(x, math_ops.cast(0, x.dtype)))
        prefix = message + ".  " if message else ""  # TF's message prefix for the sign asserts
        text = "%s\nCondition x %s 0 did not hold element-wise:" % (prefix, symbol)
        if not isinstance(condition, EagerTensor):
            return ops.Assert(condition, [text, "x (%s) = " % x.name, x],
                              summarize=3 if summarize is None else summarize)
        if not condition.numpy():
            values = [str(v) for v in _first(x, summarize if summarize is not None else x._num_elements)]
            raise errors.InvalidArgumentError(None, None, "%s\nx (shape=%s dtype=%s) = \n%s" % (
                text, x.shape, x.dtype.name, values))
        return None
    assert_fn.__name__ = name
    return tf_export(*_public_names(name))(assert_fn)


assert_positive = _export_sign("assert_positive", ">", math_ops.greater)
assert_negative = _export_sign("assert_negative", "<", math_ops.less)
assert_non_negative = _export_sign("assert_non_negative", ">=", math_ops.greater_equal)
assert_non_positive = _export_sign("assert_non_positive", "<=", math_ops.less_equal)
