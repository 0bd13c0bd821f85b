"""tf.math.xlog1py and nextafter (ops/cwise_extra_ops.cc; the fused gradient ops and
ApproximateEqual of that file are reached through tf.raw_ops), and tf.math.erfinv, ndtri,
igamma and igammac (ops/special_math_ops.cc)."""

from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


@tf_export("math.xlog1py")
def xlog1py(x, y, name=None):
    return node("Xlog1py", name)(x, y)


@tf_export("math.nextafter")
def nextafter(x1, x2, name=None):
    return node("NextAfter", name)(x1, x2)


@tf_export("math.erfinv")
def erfinv(x, name=None):
    return node("Erfinv", name)(x)


@tf_export("math.ndtri")
def ndtri(x, name=None):
    return node("Ndtri", name)(x)


@tf_export("math.igamma")
def igamma(a, x, name=None):
    return node("Igamma", name)(a, x)


@tf_export("math.igammac")
def igammac(a, x, name=None):
    return node("Igammac", name)(a, x)
