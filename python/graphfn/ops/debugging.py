"""tf.debugging.check_numerics: the CheckNumerics op (cpp/graphfn/ops/debug_ops.cc), which fails
with TF's InvalidArgumentError when its input holds a NaN or an infinity and otherwise passes it
through (its gradient is the incoming gradient, checked the same way)."""

from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


@tf_export("debugging.check_numerics")
def check_numerics(tensor, message, name=None):
    """`tensor`, after checking that it holds no NaN or Inf (InvalidArgumentError naming `message`)."""
    return node("CheckNumerics", name)(tensor, message=message)
