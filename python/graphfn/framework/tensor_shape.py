"""TensorShape: a possibly partially known shape, printed the way TensorFlow prints it."""

from graphfn import _core
from graphfn.framework import dtypes

_INT32_LIMIT = 2 ** 31


class TensorShape:
    """Dimensions are ints or None (unknown); `dims is None` means unknown rank."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        else:
            try:
                self._dims = tuple(None if d is None else int(d) for d in dims)
            except TypeError:
                self._dims = (None if dims is None else int(dims),)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    @property
    def ndims(self):
        return self.rank

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self):
        return self._dims is not None and all(d is not None for d in self._dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other):
        """ValueError (TF's text) unless `other` is compatible with this shape."""
        if not self.is_compatible_with(other):
            raise ValueError("Shapes %s and %s are incompatible" % (self, as_shape(other)))

    def with_rank(self, rank):
        """This shape, known to have `rank` dims (an unknown rank becomes `rank` unknown dims)."""
        if self._dims is None:
            return TensorShape([None] * rank)
        if len(self._dims) != rank:
            raise ValueError("Shape %s must have rank %d" % (self, rank))
        return self

    def assert_has_rank(self, rank):
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError("Shape %s must have rank %d" % (self, rank))

    def with_rank_at_least(self, rank):
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError("Shape %s must have rank at least %d" % (self, rank))
        return self

    def with_rank_at_most(self, rank):
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError("Shape %s must have rank at most %d" % (self, rank))
        return self

    def merge_with(self, other):
        """The most specific shape compatible with both (known dims fill unknown ones)."""
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError("Shapes %s and %s are not compatible" % (self, other))
        return TensorShape([a if b is None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return TensorShape(None) if isinstance(key, slice) else None
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except TypeError:
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return "(%s,)" % self._dims[0]
        return "(%s)" % ", ".join(str(d) for d in self._dims)

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return "TensorShape([%s])" % ", ".join(str(d) for d in self._dims)

    def __reduce__(self):
        return TensorShape, (self.dims,)

    def __tf_tensor__(self, dtype=None, name=None):
        """TF's conversion of a shape to a tensor (tf.reduce_prod(v.shape), tf.zeros(x.shape)): a
        1-D int32 tensor of the dims (int64 when one does not fit int32); only for fully known
        shapes, and only to an integer dtype."""
        if not self.is_fully_defined():
            raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % self)
        if dtype is None:
            dtype = dtypes.int64 if any(d >= _INT32_LIMIT for d in self._dims) else dtypes.int32
        else:
            dtype = dtypes.as_dtype(dtype)
            if dtype not in (dtypes.int32, dtypes.int64):
                raise TypeError("Cannot convert TensorShape %s to dtype %s. Allowed dtypes are tf.int32 and "
                                "tf.int64." % (self, dtype))
            if dtype == dtypes.int32 and any(d >= _INT32_LIMIT for d in self._dims):
                raise ValueError("Cannot convert TensorShape %s to dtype int32; a dimension is too large. "
                                 "Consider using tf.int64." % self)
        return _core.to_tensor(list(self._dims), dtype.as_datatype_enum)


def _dimension(value, shape):
    if value is None:
        return None
    if isinstance(value, str):
        raise TypeError("Failed to convert '%r' to a shape: '%r'could not be converted to a dimension. A shape "
                        "should either be single dimension (e.g. 10), or an iterable of dimensions "
                        "(e.g. [1, 10, None])." % (shape, value))
    if not hasattr(type(value), "__index__"):
        raise TypeError("Dimension value must be integer or None or have an __index__ method, got value "
                        "'%r' with type '%r'" % (value, type(value)))
    return value.__index__()


def checked_shape(shape):
    """`shape` as a TensorShape, with TF's errors for values that are not dimensions."""
    if shape is None or isinstance(shape, TensorShape):
        return TensorShape(shape)
    try:
        items = list(shape)
    except TypeError:
        items = [shape]
    return TensorShape([_dimension(d, shape) for d in items])


def _shape_text(dims):
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)


def merged_for_set_shape(current, new):
    """The shape a graph tensor gets from set_shape(new): `current` refined by `new`, with the
    errors TF's graph reports when they conflict."""
    if current._dims is None:
        return new
    if new._dims is None:
        return current
    if len(current._dims) != len(new._dims):
        raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(current._dims), len(new._dims)))
    merged = []
    for i, (a, b) in enumerate(zip(current._dims, new._dims)):
        if a is not None and b is not None and a != b:
            raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s and %s."
                             % (i, a, b, _shape_text(current._dims), _shape_text(new._dims)))
        merged.append(a if b is None else b)
    return TensorShape(merged)


def as_shape(shape):
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)
