"""TensorSpec: the dtype and (possibly partial) shape of a tensor, as in tf.TensorSpec."""

from graphfn.framework import dtypes
from graphfn.framework.tensor_shape import TensorShape, as_shape


class TensorSpec:
    """Describes a tensor. Used in `input_signature`, signatures and as the trace type of tensors."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    def is_compatible_with(self, other):
        other_dtype = other.dtype
        return self._dtype == other_dtype and self._shape.is_compatible_with(other.shape)

    def is_subtype_of(self, other):
        """True when every tensor this spec describes is also described by `other` (a named spec
        is only a subtype of a spec of the same name, as in TF)."""
        if not isinstance(other, TensorSpec) or self._dtype != other._dtype:
            return False
        if self._name and self._name != other._name:
            return False
        mine, theirs = self._shape.dims, other._shape.dims
        if theirs is None:
            return True
        if mine is None or len(mine) != len(theirs):
            return False
        return all(t is None or m == t for m, t in zip(mine, theirs))

    def most_specific_common_supertype(self, other):
        if not isinstance(other, TensorSpec) or self._dtype != other._dtype:
            return None
        name = self._name if self._name == other._name else None
        mine, theirs = self._shape.dims, other._shape.dims
        if mine is None or theirs is None or len(mine) != len(theirs):
            return TensorSpec(None, self._dtype, name)
        return TensorSpec([m if m == t else None for m, t in zip(mine, theirs)], self._dtype, name)

    def _key(self):
        dims = self._shape.dims
        return (None if dims is None else tuple(dims), self._dtype, self._name)

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "TensorSpec(shape=%s, dtype=%r, name=%r)" % (self._shape, self._dtype, self._name)


__all__ = ["TensorSpec", "TensorShape"]
