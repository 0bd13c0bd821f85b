"""tf.math.cumsum and tf.math.cumprod."""

from graphfn.ops import _fast_path
from graphfn.ops import array_ops
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export


def _scan(op, x, axis, exclusive, reverse):
    x = array_ops.convert_to_tensor(x)  # as TF's wrapper: only `axis` can take the slow path
    return _fast_path.call(_fast_path.is_plain(axis), op, x, axis, exclusive=bool(exclusive), reverse=bool(reverse))


@tf_export("math.cumsum", "cumsum")
def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    return _scan(ops.Cumsum, x, axis, exclusive, reverse)


@tf_export("math.cumprod")
def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    return _scan(ops.Cumprod, x, axis, exclusive, reverse)
