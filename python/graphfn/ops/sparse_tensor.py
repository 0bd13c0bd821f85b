"""tf.sparse.SparseTensor (also tf.SparseTensor) and tf.SparseTensorSpec.

A SparseTensor is three tensors: `indices` (int64 [N, rank], the coordinates of the entries),
`values` ([N], any dtype) and `dense_shape` (int64 [rank]). It is a CompositeTensor
(composite_tensor.py): functions take and return it, traced by its SparseTensorSpec, and
tf.nest(expand_composites=True) flattens it into those three tensors. The ops are in
python/graphfn/ops/sparse_ops.py, which also gives the class its operators (`*`, `/`) and makes
tf.abs & co. take it when the first SparseTensor is made."""

from graphfn.framework import dtypes
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import EagerTensor, SymbolicTensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.framework.type_spec import BatchableTypeSpec
from graphfn.ops import array_ops
from graphfn.util.lazy_numpy import numpy
from graphfn.util.tf_export import tf_export


def _with_rank(shape, rank):
    """TF's TensorShape.with_rank: the shape, or ValueError naming it."""
    if shape.rank is not None and shape.rank != rank:
        raise ValueError("Shape %s must have rank %d" % (shape, rank))
    return shape


def _assert_compatible(a, b):
    """TF's Dimension.assert_is_compatible_with."""
    if a is not None and b is not None and a != b:
        raise ValueError("Dimensions %d and %d are not compatible" % (a, b))


def _dim(shape, i):
    return None if shape.rank is None else shape.dims[i]


def _static_dense_shape(value, dense_shape):
    """The static shape a dense_shape argument gives: its values when they are known now (a Python
    list, a NumPy array, an eager tensor; -1 is an unknown dim), else only its length."""
    dims = None
    if not isinstance(value, SymbolicTensor):
        try:
            dims = [int(d) for d in numpy().asarray(value).reshape(-1)]
        except (TypeError, ValueError):  # a list holding graph tensors
            dims = None
    if dims is not None:
        for d in dims:
            if d < -1:
                raise ValueError("Dimension %d must be >= 0" % d)
        return TensorShape([None if d == -1 else d for d in dims])
    length = _dim(TensorShape(dense_shape.shape), 0)
    return TensorShape(None) if length is None else TensorShape([None] * length)


@tf_export("sparse.SparseTensor", "SparseTensor")
class SparseTensor(CompositeTensor):
    """A tensor whose entries are listed by coordinates: `indices[i]` holds `values[i]`, every
    other element of the `dense_shape` tensor is zero (or a default)."""

    # Run when the first SparseTensor is made: sparse_ops.register_dispatch (tf.abs & co.).
    _on_first_use = None

    @classmethod
    def from_value(cls, sparse_tensor_value):
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        return SparseTensor(sparse_tensor_value.indices, sparse_tensor_value.values, sparse_tensor_value.dense_shape)

    def __init__(self, indices, values, dense_shape):
        with name_scope("SparseTensor"):
            indices = _converted(indices, dtypes.int64, "indices")
            values = _converted(values, None, "values")
            static_shape = dense_shape
            dense_shape = _converted(dense_shape, dtypes.int64, "dense_shape")
        indices_shape = _with_rank(TensorShape(indices.shape), 2)
        _with_rank(TensorShape(values.shape), 1)
        _with_rank(TensorShape(dense_shape.shape), 1)
        _assert_compatible(_dim(indices_shape, 0), _dim(TensorShape(values.shape), 0))
        _assert_compatible(_dim(indices_shape, 1), _dim(TensorShape(dense_shape.shape), 0))
        self._indices = indices
        self._values = values
        self._dense_shape = dense_shape
        self._dense_shape_default = _static_dense_shape(static_shape, dense_shape)
        if SparseTensor._on_first_use is not None:
            hook, SparseTensor._on_first_use = SparseTensor._on_first_use, None
            hook()

    @property
    def indices(self):
        return self._indices

    @property
    def values(self):
        return self._values

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self):
        return self._dense_shape_default

    def get_shape(self):
        return self._dense_shape_default

    def set_shape(self, shape):
        shape = TensorShape(shape)
        if not self._dense_shape_default.is_compatible_with(shape):
            raise ValueError("Shapes %s and %s are incompatible" % (self._dense_shape_default, shape))
        if shape.rank is not None:
            self._dense_shape_default = TensorShape(
                [b if a is None else a for a, b in zip(self._dense_shape_default.dims or [None] * shape.rank,
                                                        shape.dims)])

    @property
    def op(self):
        return self._values.op

    @property
    def graph(self):
        return self._values.graph

    def with_values(self, new_values):
        """The same indices and dense shape with other values (of any dtype)."""
        result = SparseTensor(self._indices, new_values, self._dense_shape)
        result._dense_shape_default = self._dense_shape_default
        return result

    def __str__(self):
        return "SparseTensor(indices=%s, values=%s, dense_shape=%s)" % (self._indices, self._values, self._dense_shape)

    __repr__ = __str__

    @property
    def _type_spec(self):
        return SparseTensorSpec(self._dense_shape_default, self.dtype)

    def _shape_invariant_to_type_spec(self, shape):
        return SparseTensorSpec(shape, self.dtype)

    def consumers(self):
        raise NotImplementedError("graphfn does not track the consumers of a SparseTensor")

    def __tf_tensor__(self, dtype=None, name=None):
        # TF's refusal, naming TF's class as TF's message does.
        raise ValueError("Attempt to convert a value (%s) with an unsupported type (<class 'tensorflow.python."
                         "framework.sparse_tensor.SparseTensor'>) to a Tensor." % self)


def _converted(value, dtype, name):
    """convert_to_tensor with TF's "<name>: " prefix on a refused tensor's message."""
    try:
        return array_ops.convert_to_tensor(value, dtype=dtype, name=name)
    except ValueError as e:
        if str(e).startswith("Tensor conversion requested"):
            raise ValueError("%s: %s" % (name, e)) from None
        raise


@tf_export("SparseTensorSpec")
class SparseTensorSpec(BatchableTypeSpec):
    """The type of a SparseTensor: its dense shape (possibly partial) and its values' dtype."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    value_type = property(lambda self: SparseTensor)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    def _serialize(self):
        return (self._shape, self._dtype)

    @property
    def _component_specs(self):
        rank = self._shape.rank
        return [TensorSpec([None, rank], dtypes.int64), TensorSpec([None], self._dtype),
                TensorSpec([rank], dtypes.int64)]

    def _to_components(self, value):
        return [value.indices, value.values, value.dense_shape]

    def _from_components(self, components):
        indices, values, dense_shape = components
        result = SparseTensor(indices, values, dense_shape)
        if not isinstance(dense_shape, EagerTensor):
            result._dense_shape_default = self._shape  # a traced argument keeps its spec's shape
        return result

    def _batch(self, batch_size):
        dims = None if self._shape.rank is None else [batch_size] + self._shape.dims
        return SparseTensorSpec(dims, self._dtype)

    def _unbatch(self):
        return SparseTensorSpec(None if self._shape.rank is None else self._shape.dims[1:], self._dtype)

    @classmethod
    def from_value(cls, value):
        return value._type_spec
