"""assert_stmt: what `assert` becomes with the ASSERT_STATEMENTS feature."""

import inspect

from graphfn.framework.tensor import Tensor
from graphfn.ops import check_ops


def assert_stmt(expression1, expression2):
    """`assert expression1, expression2()`: a Python assert for Python values; for a tensor,
    a tf.debugging.Assert (checked when the graph runs, failing with InvalidArgumentError).
    expression2 is a callable so the message is only built when it is needed."""
    if not callable(expression2):
        raise ValueError("{} must be a callable".format(expression2))
    parameters = inspect.signature(expression2).parameters
    if parameters:
        raise ValueError("{} may not have any arguments".format(expression2))
    if isinstance(expression1, Tensor) or hasattr(expression1, "__tf_tensor__"):
        data = expression2()
        return check_ops.Assert(expression1, data if isinstance(data, list) else [data])
    assert expression1, expression2()
    return None
