"""Clipping (tf.clip_by_value)."""

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.tensor import EagerTensor, Tensor
from graphfn.ops import _fast_path
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export

_CLIP_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16,
                dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16)


def _like(value, t):
    """A bound as a tensor of t's dtype; a Python value that does not fit raises TypeError."""
    return value if isinstance(value, Tensor) else _core.to_tensor(value, t._dtype_enum)


@tf_export("clip_by_value")
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """TF computes maximum(minimum(t, max), min), so bounds may broadcast as long as the result
    keeps t's shape. Same-dtype scalar or full-shape bounds take the one-pass ClipByValue
    kernel, which computes exactly that; everything else (and every error) goes through
    Minimum/Maximum like TF."""
    values = t if isinstance(t, Tensor) else _core.to_tensor(t)
    hi = _like(clip_value_max, values)
    try:
        lo = _like(clip_value_min, values)
    except (TypeError, ValueError):
        lo = None  # TF reports this only after Minimum has run: convert again below
    eager = all(isinstance(v, EagerTensor) for v in (values, lo, hi))
    if (eager and values.dtype in _CLIP_DTYPES and lo._dtype_enum == values._dtype_enum and
            hi._dtype_enum == values._dtype_enum and
            (lo._rank == 0 or lo._shape_tuple() == values._shape_tuple()) and
            (hi._rank == 0 or hi._shape_tuple() == values._shape_tuple())):
        return ops.ClipByValue(values, lo, hi)
    t_min = _fast_path.call(_fast_path.is_plain(clip_value_max), ops.Minimum, values, hi)
    _check_same_shape(values, t_min)
    if lo is None:
        lo = _like(clip_value_min, values)
    t_max = _fast_path.call(_fast_path.is_plain(clip_value_min), ops.Maximum, t_min, lo)
    _check_same_shape(values, t_max)
    return t_max


def _check_same_shape(values, result):
    if not values.shape.is_compatible_with(result.shape):
        raise ValueError("Shapes %s and %s are incompatible" % (values.shape, result.shape))
