"""TensorShape: a possibly partially known shape, printed the way TensorFlow prints it."""


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


def as_shape(shape):
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)
