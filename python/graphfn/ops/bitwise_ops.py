"""tf.bitwise: and, or, xor, invert and shifts of integer tensors (TF's ops and dtype lists)."""

from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


@tf_export("bitwise.bitwise_and")
def bitwise_and(x, y, name=None):
    return node("BitwiseAnd", name)(x, y)


@tf_export("bitwise.bitwise_or")
def bitwise_or(x, y, name=None):
    return node("BitwiseOr", name)(x, y)


@tf_export("bitwise.bitwise_xor")
def bitwise_xor(x, y, name=None):
    return node("BitwiseXor", name)(x, y)


@tf_export("bitwise.invert")
def invert(x, name=None):
    return node("Invert", name)(x)


@tf_export("bitwise.left_shift")
def left_shift(x, y, name=None):
    return node("LeftShift", name)(x, y)


@tf_export("bitwise.right_shift")
def right_shift(x, y, name=None):
    return node("RightShift", name)(x, y)
