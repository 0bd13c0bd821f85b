"""tf.experimental.DynamicRaggedShape: the shape of a ragged or dense tensor, what tf.shape gives
for a RaggedTensor.

A shape is a list of RowPartitions (row_partitions.py; one per ragged dimension, outermost first)
and `inner_shape`, the shape of the flat values (a dense tensor's whole shape when there are no
partitions). tf.zeros, tf.ones, tf.fill, tf.reshape and tf.broadcast_to accept one and give a
RaggedTensor of that shape. Not a composite tensor in graphfn (TF's is an ExtensionType), so it
cannot be passed into or returned from a tf.function yet."""

import numpy as np

from graphfn.framework import dispatch
from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import ragged_dense as dense
from graphfn.ops.ragged_tensor import RaggedTensor, _eager
from graphfn.ops.row_partition import RowPartition
from graphfn.util.tf_export import tf_export


@tf_export("experimental.DynamicRaggedShape")
class DynamicRaggedShape:
    """The shape of a ragged or dense tensor: row partitions and the flat values' shape."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=False, static_inner_shape=None):
        row_partitions = tuple(row_partitions)
        for rp in row_partitions:
            if not isinstance(rp, RowPartition):
                raise TypeError("row_partitions must be a list of RowPartitions, got %r" % (rp,))
        if dtype is None:
            dtype = row_partitions[0].dtype if row_partitions else getattr(inner_shape, "dtype", dtypes.int64)
            if dtype not in (dtypes.int32, dtypes.int64):
                dtype = dtypes.int64
        self._dtype = dtypes.as_dtype(dtype)
        if self._dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError("dtype must be tf.int32 or tf.int64")
        self._row_partitions = tuple(rp.with_dtype(self._dtype) for rp in row_partitions)
        inner = inner_shape if isinstance(inner_shape, Tensor) else dense.constant(inner_shape, self._dtype)
        self._inner_shape = dense.cast(inner, self._dtype) if inner.dtype != self._dtype else inner
        if self._inner_shape.shape.rank != 1:
            raise ValueError("inner_shape must be a vector")
        if row_partitions and self._inner_shape.shape[0] == 0:
            raise ValueError("A RaggedShape with row partitions must have a nonempty inner_shape")
        self._static_inner_shape = TensorShape(static_inner_shape) if static_inner_shape is not None else None

    # Factories ---------------------------------------------------------------------------------

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=dtypes.int64):
        """From each dimension's length: an int for a uniform dimension, a list of row lengths for
        a ragged one (TF's: from_lengths([2, (2, 1), 2]))."""
        lengths = list(lengths)
        if not lengths:
            return cls([], dense.constant([], dtypes.as_dtype(dtype)), dtype=dtype)
        if not isinstance(lengths[0], (int, np.integer)):
            raise ValueError("First element of lengths must be a nonnegative int: %r" % (lengths[0],))
        last_ragged = max((i for i, d in enumerate(lengths) if not isinstance(d, (int, np.integer))), default=0)
        if num_row_partitions is None:
            num_row_partitions = last_ragged
        elif num_row_partitions < last_ragged:
            raise ValueError("num_row_partitions too small for the ragged dimensions of %r" % (lengths,))
        partitions = []
        nvals = lengths[0]
        for d in lengths[1:num_row_partitions + 1]:
            if isinstance(d, (int, np.integer)):
                partitions.append(RowPartition.from_uniform_row_length(d, nrows=nvals, dtype=dtype))
                nvals = nvals * d
            else:
                row_lengths = list(d)
                if len(row_lengths) != nvals:
                    raise ValueError("Lengths %r do not match %d rows" % (row_lengths, nvals))
                partitions.append(RowPartition.from_row_lengths(row_lengths, dtype=dtype))
                nvals = sum(row_lengths)
        inner = [nvals] + [int(d) for d in lengths[num_row_partitions + 1:]]
        return cls(partitions, dense.constant(inner, dtypes.as_dtype(dtype)), dtype=dtype)

    @classmethod
    def from_tensor(cls, t, dtype=None):
        """The shape of `t`, a RaggedTensor or a tensor (dtype: the row splits' for a ragged tensor,
        int32 for a dense one, unless given)."""
        if isinstance(t, RaggedTensor):
            dtype = t.row_splits_dtype if dtype is None else dtypes.as_dtype(dtype)
            partitions = [RowPartition.from_row_splits(s, validate=False, dtype=dtype) for s in t.nested_row_splits]
            return cls(partitions, dense.shape(t.flat_values, out_type=dtype), dtype=dtype)
        t = dense.convert_to_tensor(t)
        dtype = dtypes.int32 if dtype is None else dtypes.as_dtype(dtype)
        return cls([], dense.shape(t, out_type=dtype), dtype=dtype)

    # Properties --------------------------------------------------------------------------------

    @property
    def row_partitions(self):
        return self._row_partitions

    @property
    def num_row_partitions(self):
        return len(self._row_partitions)

    @property
    def inner_shape(self):
        return self._inner_shape

    @property
    def inner_rank(self):
        return self._inner_shape.shape[0]

    @property
    def rank(self):
        inner = self.inner_rank
        return None if inner is None else inner + self.num_row_partitions

    @property
    def dtype(self):
        return self._dtype

    def is_uniform(self, axis):
        """Whether every row has the same length along `axis`."""
        axis = self._axis(axis)
        if axis == 0 or axis > self.num_row_partitions:
            return True
        return self._row_partitions[axis - 1].is_uniform()

    def _axis(self, index):
        rank = self.rank
        if index < 0:
            if rank is None:
                raise ValueError("Rank must be known to use a negative index.")
            index += rank
        if index < 0:
            raise IndexError("Index must be non-negative: %d" % index)  # TF's texts
        if rank is not None and index >= rank:
            raise IndexError("Index is too big: %d>=%d" % (index, rank))
        return index

    def __getitem__(self, index):
        """The length of a uniform dimension (a scalar tensor); ValueError for a ragged one."""
        if isinstance(index, slice):
            raise NotImplementedError("graphfn does not support slicing a DynamicRaggedShape yet")
        axis = self._axis(int(index))
        if axis == 0:
            return self._row_partitions[0].nrows() if self._row_partitions else self._inner_shape[0]
        if axis <= self.num_row_partitions:
            rp = self._row_partitions[axis - 1]
            if not rp.is_uniform():
                raise ValueError("Index %d is not uniform" % axis)
            return rp.uniform_row_length()
        return self._inner_shape[axis - self.num_row_partitions]

    def static_lengths(self, ragged_lengths=True):
        """Each dimension's length where known before running: an int, a tuple of row lengths for
        a ragged dimension (eagerly, when ragged_lengths), else None."""
        out = []
        partitions = self._row_partitions
        if partitions:
            out.append(partitions[0].static_nrows)
            for rp in partitions:
                if rp.is_uniform():
                    out.append(rp.static_uniform_row_length)
                elif ragged_lengths and _eager(rp.row_splits()):
                    out.append(tuple(int(n) for n in rp.row_lengths().numpy()))
                else:
                    out.append(None)
            inner = self._static_inner()[1:]
        else:
            inner = self._static_inner()
        return out + inner

    def _static_inner(self):
        if _eager(self._inner_shape):
            return [int(d) for d in self._inner_shape.numpy()]
        if self._static_inner_shape is not None and self._static_inner_shape.rank is not None:
            return self._static_inner_shape.as_list()
        rank = self.inner_rank
        return [None] * (rank or 0)

    def _to_tensor_shape(self):
        """A TensorShape: None for the ragged dimensions and unknown lengths."""
        return TensorShape([None if isinstance(d, tuple) else d for d in self.static_lengths(ragged_lengths=False)])

    def __repr__(self):
        return "<DynamicRaggedShape lengths=%s num_row_partitions=%d>" % (
            _lengths_text(self.static_lengths()), self.num_row_partitions)

    __str__ = __repr__

    # Building tensors of this shape ------------------------------------------------------------

    def _ragged_of(self, flat_values):
        """flat_values (shaped inner_shape) cut by the row partitions."""
        if not self._row_partitions:
            return flat_values
        splits = [rp.row_splits() for rp in self._row_partitions]
        return RaggedTensor.from_nested_row_splits(flat_values, splits, validate=False)


def _lengths_text(lengths):
    """TF's text of a lengths list: [3, (3, 2, 1)], None for unknown."""
    return "[%s]" % ", ".join(str(d) for d in lengths)


# Dispatch of the shape-taking APIs ----------------------------------------------------------------

def _shape_in(*params):
    """A matcher: one of `params` (name, position) holds a DynamicRaggedShape."""
    def matcher(args, kwargs):
        for name, position in params:
            value = args[position] if position < len(args) else kwargs.get(name)
            if isinstance(value, DynamicRaggedShape):
                return True
        return False
    return matcher


def _ragged_in(name, position):
    def matcher(args, kwargs):
        value = args[position] if position < len(args) else kwargs.get(name)
        return isinstance(value, RaggedTensor)
    return matcher


def _shape(input, out_type=None, name=None):  # noqa: A002
    return DynamicRaggedShape.from_tensor(input, dtype=dtypes.int32 if out_type is None else out_type)


def _zeros(shape, dtype=dtypes.float32, name=None, layout=None):
    return shape._ragged_of(dense.zeros(shape.inner_shape, dtype))


def _ones(shape, dtype=dtypes.float32, name=None, layout=None):
    return shape._ragged_of(dense.ones(shape.inner_shape, dtype))


def _fill(dims, value, name=None, layout=None):
    from graphfn.ops import array_ops  # lazily: tf.fill's own module
    return dims._ragged_of(array_ops.fill(dims.inner_shape, value))


def _reshape(tensor, shape, name=None):
    if isinstance(tensor, RaggedTensor):
        tensor = tensor.flat_values if tensor.flat_values.shape.rank == 1 else dense.reshape(tensor.flat_values, [-1])
    return shape._ragged_of(dense.reshape(tensor, shape.inner_shape))


def _broadcast_to(input, shape, name=None):  # noqa: A002
    """A dense `input` broadcast to a ragged shape: each flat value takes the element of `input`
    at its position along every dimension (index 0 along `input`'s dimensions of size 1)."""
    if isinstance(input, RaggedTensor):
        raise NotImplementedError("graphfn does not support tf.broadcast_to of a RaggedTensor to a "
                                  "DynamicRaggedShape yet")
    x = dense.convert_to_tensor(input)
    if not shape.row_partitions:
        return dense.broadcast_to(x, shape.inner_shape)
    rank, x_rank = shape.rank, x.shape.rank
    if rank is None or x_rank is None or x_rank > rank:
        raise ValueError("Cannot broadcast a tensor of rank %s to a shape of rank %s" % (x_rank, rank))
    x = dense.reshape(x, dense.concat([dense.ones([rank - x_rank], dtypes.int32), dense.shape(x)], 0)) \
        if x_rank < rank else x
    dtype = shape.dtype
    # Each flat value's index along the outer dimensions 0 .. num_row_partitions.
    nvals = shape.inner_shape[0]
    positions = dense.range(nvals, dtype=dtype)
    indices = []
    for rp in reversed(shape.row_partitions):
        rowids = dense.gather(rp.value_rowids(), positions) if indices else rp.value_rowids()
        within = positions - dense.gather(rp.row_splits(), rowids)
        indices.insert(0, within)
        positions = rowids
    indices.insert(0, positions)
    x_shape = dense.shape(x, out_type=dtype)
    outer = [dense.where(x_shape[i] > 1, idx, dense.zeros_like(idx)) for i, idx in enumerate(indices)]
    gathered = _gather_outer(x, outer, dtype)  # [nvals] + x's inner dims
    inner_target = shape.inner_shape[1:]
    return shape._ragged_of(dense.broadcast_to(gathered, dense.concat([[nvals], inner_target], 0)))


def _gather_outer(x, outer_indices, dtype):
    """x[i0, i1, ..., ir] for each flat value (rows of the outer_indices), keeping x's inner dims."""
    from graphfn.ops import shape_index  # lazily: gather_nd
    return shape_index.gather_nd(x, dense.stack(outer_indices, axis=1))


def register():
    handlers = {
        "shape": (_shape, _ragged_in("input", 0), RaggedTensor),
        "zeros": (_zeros, _shape_in(("shape", 0)), DynamicRaggedShape),
        "ones": (_ones, _shape_in(("shape", 0)), DynamicRaggedShape),
        "fill": (_fill, _shape_in(("dims", 0)), DynamicRaggedShape),
        "reshape": (_reshape, _shape_in(("shape", 1)), DynamicRaggedShape),
        "broadcast_to": (_broadcast_to, _shape_in(("shape", 1)), DynamicRaggedShape),
    }
    for name, (handler, matcher, kind) in handlers.items():
        api = dispatch.exported_api(name)
        if api is not None:
            dispatch.register_api(api, handler, matcher, (kind,))


register()
