"""The dense ops the ragged modules are composed of, gathered in one namespace (the ragged
modules sit in the ops layer, below the public `graphfn` namespace, so they cannot use it)."""

from graphfn.context import executing_eagerly  # noqa: F401
from graphfn.framework.name_scope import name_scope  # noqa: F401
from graphfn.ops.array_ops import (  # noqa: F401
    concat, constant, convert_to_tensor, expand_dims, gather, ones, ones_like, reshape, shape, size, squeeze, stack,
    where, zeros, zeros_like)
from graphfn.ops.array_ops import range_ as range  # noqa: F401,A001 (TF's name)
from graphfn.ops.control_flow_ops import cond  # noqa: F401
from graphfn.ops.gradient_ops import broadcast_to, unsorted_segment_sum  # noqa: F401
from graphfn.ops.math_ops import (  # noqa: F401
    add, cast, equal, floordiv, floormod, greater, greater_equal, less, less_equal, logical_and, logical_not,
    logical_or, maximum, minimum, multiply, not_equal, pow, sqrt, subtract, truediv)
from graphfn.ops.reduction_ops import reduce_all, reduce_any, reduce_max, reduce_min, reduce_prod, reduce_sum  # noqa: F401
from graphfn.ops.scan_ops import cumsum  # noqa: F401
from graphfn.ops.segment_ops import unsorted_segment_max, unsorted_segment_min, unsorted_segment_prod  # noqa: F401
from graphfn.ops.shape_index import (  # noqa: F401
    repeat, reverse, searchsorted, sequence_mask, tensor_scatter_nd_update, tile)
from graphfn.ops.slicing import boolean_mask  # noqa: F401
