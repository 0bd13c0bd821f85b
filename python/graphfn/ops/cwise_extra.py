"""tf.math.xlog1py and tf.math.nextafter (ops/cwise_extra_ops.cc; the fused gradient ops and
ApproximateEqual of that file are reached through tf.raw_ops)."""

from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


@tf_export("math.xlog1py")
def xlog1py(x, y, name=None):
    return node("Xlog1py", name)(x, y)


@tf_export("math.nextafter")
def nextafter(x1, x2, name=None):
    return node("NextAfter", name)(x1, x2)
