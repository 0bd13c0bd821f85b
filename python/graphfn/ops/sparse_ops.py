"""tf.sparse: the SparseTensor functions, as TF's sparse_ops.py builds them on the sparse kernels
(cpp/graphfn/ops/sparse_ops.cc) and on dense ops. The class is ops/sparse_tensor.py."""

from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import EagerTensor, SymbolicTensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import array_ops
from graphfn.ops import check_ops
from graphfn.ops import gradient_ops
from graphfn.ops import math_ops
from graphfn.ops import reduction_ops
from graphfn.ops import shape_index
from graphfn.ops._op_table import node, ops
from graphfn.ops.sparse_tensor import SparseTensor
from graphfn.util import nest
from graphfn.util.lazy_numpy import numpy
from graphfn.util.tf_export import tf_export


def _int64(value, name=None):
    return array_ops.convert_to_tensor(value, dtype=dtypes.int64, name=name)


def _rank(sp):
    """The static rank of a SparseTensor, or None."""
    if sp.shape.rank is not None:
        return sp.shape.rank
    dims = TensorShape(sp.indices.shape).dims
    return None if dims is None else dims[1]


def _with_static_shape(sp, shape):
    sp._dense_shape_default = TensorShape(shape)
    return sp


def _convert_sparse(value, name):
    if isinstance(value, SparseTensor):
        return value
    raise TypeError("Input must be a SparseTensor.")


# Conversion ----------------------------------------------------------------------------------


@tf_export("sparse.from_dense")
def from_dense(tensor, name=None):
    """The non-zero (non-empty, for strings) elements of a dense tensor."""
    with name_scope(name or "dense_to_sparse"):
        tensor = array_ops.convert_to_tensor(tensor)
        indices = array_ops.where(ops.NotEqual(tensor, array_ops.zeros_like(tensor)))
        values = shape_index.gather_nd(tensor, indices)
        shape = array_ops.shape(tensor, out_type=dtypes.int64)
        return _with_static_shape(SparseTensor(indices, values, shape), tensor.shape)


@tf_export("sparse.to_dense")
def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor: the entries at their indices, `default_value` (zero) elsewhere."""
    sp_input = _convert_sparse(sp_input, "sp_input")
    if default_value is None:
        default_value = "" if sp_input.dtype == dtypes.string else array_ops.zeros([], sp_input.dtype)
    default_value = array_ops.convert_to_tensor(default_value, dtype=sp_input.dtype)
    result = node("SparseToDense", name or "SparseToDense")(
        sp_input.indices, sp_input.dense_shape, sp_input.values, default_value, validate_indices=validate_indices)
    if not isinstance(result, EagerTensor) and sp_input.shape.rank is not None:
        result.set_shape(sp_input.shape)
    return result


@tf_export("sparse.to_indicator")
def to_indicator(sp_input, vocab_size, name=None):
    """A bool tensor [..., vocab_size]: True at [..., id] for each id in a row's values."""
    sp_input = _convert_sparse(sp_input, "sp_input")
    with name_scope(name or "SparseToIndicator"):
        ids = math_ops.cast(sp_input.values, dtypes.int64)
        prefix = array_ops.gather(sp_input.indices, array_ops.range_(_rank(sp_input) - 1), axis=1)
        indices = array_ops.concat([prefix, array_ops.expand_dims(ids, 1)], 1)
        shape = array_ops.concat([sp_input.dense_shape[:-1], _int64([vocab_size])], 0)
        entries = SparseTensor(indices, array_ops.ones_like(sp_input.values, dtype=dtypes.bool), shape)
        return to_dense(reorder(entries), default_value=False, validate_indices=False)


# Rearranging entries -------------------------------------------------------------------------


@tf_export("sparse.reorder")
def reorder(sp_input, name=None):
    """The same SparseTensor with its entries in row-major (lexicographic) order."""
    sp_input = _convert_sparse(sp_input, "sp_input")
    indices, values = node("SparseReorder", name or "SparseReorder")(
        sp_input.indices, sp_input.values, sp_input.dense_shape)
    return _with_static_shape(SparseTensor(indices, values, sp_input.dense_shape), sp_input.shape)


@tf_export("sparse.reshape")
def reshape(sp_input, shape, name=None):
    """The SparseTensor with a new dense shape of as many elements (one dim may be -1)."""
    sp_input = _convert_sparse(sp_input, "sp_input")
    with name_scope(name or "SparseReshape"):
        shape_arg = shape
        shape = _int64(shape, name="shape")
        target = _python_ints(shape_arg)
        indices, dense_shape = ops.SparseReshape(sp_input.indices, sp_input.dense_shape, shape)
        result = SparseTensor(indices, array_ops.identity(sp_input.values), dense_shape)
        if target is not None and sp_input.shape.is_fully_defined() and target.count(-1) <= 1:
            total = sp_input.shape.num_elements()
            known = int(numpy().prod([d for d in target if d != -1], dtype=numpy().int64))
            if -1 in target and known:
                target[target.index(-1)] = total // known
            if -1 not in target:
                _with_static_shape(result, target)
        return result


@tf_export("sparse.slice")
def slice(sp_input, start, size, name=None):  # noqa: A001 (TF's name)
    """The entries inside the box [start, start + size), shifted to start at 0."""
    sp_input = _convert_sparse(sp_input, "sp_input")
    start = _int64(start, name="start")
    size = _int64(size, name="size")
    indices, values, shape = node("SparseSlice", name or "SparseSlice")(
        sp_input.indices, sp_input.values, sp_input.dense_shape, start, size)
    return SparseTensor(indices, values, shape)


@tf_export("sparse.transpose")
def transpose(sp_input, perm=None, name=None):
    """The SparseTensor with its dims permuted (reversed by default), entries reordered."""
    sp_input = _convert_sparse(sp_input, "sp_input")
    with name_scope(name or "SparseTranspose"):
        static_perm = _python_ints(perm)
        if perm is None:
            rank = _rank(sp_input)
            if rank is None:
                rank = array_ops.rank(sp_input.indices[0])
            else:
                static_perm = list(range(rank - 1, -1, -1))
            perm = array_ops.range_(rank - 1, -1, -1)
        perm = array_ops.convert_to_tensor(perm, dtype_hint=dtypes.int32)
        indices = array_ops.gather(sp_input.indices, perm, axis=1)
        dense_shape = array_ops.gather(sp_input.dense_shape, perm)
        result = SparseTensor(indices, sp_input.values, dense_shape)
        if static_perm is not None and sp_input.shape.is_fully_defined():
            old = sp_input.shape.as_list()
            _with_static_shape(result, [old[p] for p in static_perm])
        return reorder(result)


def _python_ints(value):
    """`value` as a list of Python ints when it is known now (a list, an array, an eager
    tensor), else None."""
    if value is None or isinstance(value, SymbolicTensor):
        return None
    try:
        return [int(v) for v in numpy().asarray(value).reshape(-1)]
    except (TypeError, ValueError):
        return None


@tf_export("sparse.expand_dims")
def expand_dims(sp_input, axis=None, name=None):
    """The SparseTensor with a new dim of size 1 at `axis` (default: last)."""
    sp_input = _convert_sparse(sp_input, "sp_input")
    with name_scope(name or "expand_dims"):
        rank = _rank(sp_input)
        if axis is None:
            axis = -1
        axis = int(axis)
        if rank is None:
            raise ValueError("tf.sparse.expand_dims needs a SparseTensor of known rank in graphfn")
        if axis < -rank - 1 or axis > rank:
            raise errors.InvalidArgumentError(
                None, None, "Tried to expand dim index %d for tensor with %d dimensions." % (axis, rank))
        if axis < 0:
            axis += rank + 1
        columns = array_ops.constant(list(range(rank)), dtypes.int32)
        new_column = array_ops.expand_dims(array_ops.zeros_like(sp_input.values, dtype=dtypes.int64), 1)
        before = array_ops.gather(sp_input.indices, columns[:axis], axis=1)
        after = array_ops.gather(sp_input.indices, columns[axis:], axis=1)
        indices = array_ops.concat([before, new_column, after], 1)
        shape = array_ops.concat([sp_input.dense_shape[:axis], _int64([1]), sp_input.dense_shape[axis:]], 0)
        result = SparseTensor(indices, sp_input.values, shape)
        if sp_input.shape.rank is not None:
            dims = sp_input.shape.dims
            _with_static_shape(result, dims[:axis] + [1] + dims[axis:])
        return result


@tf_export("sparse.concat")
def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """The SparseTensors joined along `axis` (other dims equal, or grown to the largest with
    expand_nonconcat_dims), entries in row-major order. TF's SparseConcat op has three list
    inputs, which graphfn's registry cannot declare: this is built from ConcatV2 and SparseReorder
    and checks the shapes (TF's messages) when they are known."""
    sp_inputs = [_convert_sparse(sp, "sp_inputs") for sp in sp_inputs]
    if len(sp_inputs) == 1:
        return sp_inputs[0]
    with name_scope(name or "SparseConcat"):
        rank = next((r for r in map(_rank, sp_inputs) if r is not None), None)
        if rank is None:
            raise ValueError("tf.sparse.concat needs SparseTensors of known rank in graphfn")
        axis = int(axis)
        if axis < -rank or axis >= rank:
            raise errors.InvalidArgumentError(
                None, None, "Concat dimension must be in range [%d, %d), got %d" % (-rank, rank, axis))
        if axis < 0:
            axis += rank
        shapes = [sp.dense_shape for sp in sp_inputs]
        if expand_nonconcat_dims:
            largest = reduction_ops.reduce_max(array_ops.stack(shapes), axis=0)
            shapes = [array_ops.concat([largest[:axis], s[axis:axis + 1], largest[axis + 1:]], 0) for s in shapes]
        known = [[int(d) for d in s.numpy()] for s in shapes] if all(isinstance(s, EagerTensor) for s in shapes) else None
        if known is not None:
            _check_concat_shapes(known, axis)
        sizes = [s[axis] for s in shapes]
        offsets = [array_ops.zeros([], dtypes.int64)]
        for size in sizes[:-1]:
            offsets.append(offsets[-1] + size)
        one_hot = array_ops.one_hot(axis, rank, dtype=dtypes.int64)
        indices = array_ops.concat([sp.indices + one_hot * offset for sp, offset in zip(sp_inputs, offsets)], 0)
        values = array_ops.concat([sp.values for sp in sp_inputs], 0)
        total = gradient_ops.add_n(sizes)
        dense_shape = array_ops.concat([shapes[0][:axis], array_ops.reshape(total, [1]), shapes[0][axis + 1:]], 0)
        result = reorder(SparseTensor(indices, values, dense_shape))
        statics = [sp.shape for sp in sp_inputs]
        if all(sh.is_fully_defined() and sh.rank == rank for sh in statics):
            dims = [max(sh.dims[d] for sh in statics) if expand_nonconcat_dims else statics[0].dims[d]
                    for d in range(rank)]
            dims[axis] = sum(sh.dims[axis] for sh in statics)
            _with_static_shape(result, dims)
        return result


def _check_concat_shapes(shapes, axis):
    first = shapes[0]
    for position, dims in enumerate(shapes[1:], 1):
        if len(dims) != len(first):
            raise errors.InvalidArgumentError(None, None, "Ranks of all input tensors must match: expected %d but got %d "
                                              "at position %d" % (len(first), len(dims), position))
        for d, (want, got) in enumerate(zip(first, dims)):
            if d != axis and want != got:
                raise errors.InvalidArgumentError(None, None, "Input shapes must match: expected %d for dimension %d "
                                                  "but got %d at position %d" % (want, d, got, position))


@tf_export("sparse.retain")
def retain(sp_input, to_retain):
    """The entries whose `to_retain` flag is True."""
    sp_input = _convert_sparse(sp_input, "sp_input")
    to_retain = array_ops.convert_to_tensor(to_retain)
    retain_shape = TensorShape(to_retain.shape)
    if retain_shape.rank is not None and retain_shape.rank != 1:
        raise ValueError("Shape %s must have rank 1" % retain_shape)
    n_values = TensorShape(sp_input.values.shape).dims
    if n_values is not None and retain_shape.rank == 1:
        a, b = n_values[0], retain_shape.dims[0]
        if a is not None and b is not None and a != b:
            raise ValueError("Dimensions %d and %d are not compatible" % (a, b))
    kept = array_ops.reshape(array_ops.where(to_retain), [-1])
    result = SparseTensor(array_ops.gather(sp_input.indices, kept), array_ops.gather(sp_input.values, kept),
                          array_ops.identity(sp_input.dense_shape))
    return _with_static_shape(result, sp_input.shape)


@tf_export("sparse.fill_empty_rows")
def fill_empty_rows(sp_input, default_value, name=None):
    """Every empty row gets one entry, `default_value` at [row, 0, ...]; also returns which rows
    were empty."""
    sp_input = _convert_sparse(sp_input, "sp_input")
    with name_scope(name or "SparseFillEmptyRows"):
        default_value = array_ops.convert_to_tensor(default_value, dtype=sp_input.dtype)
        indices, values, empty_rows, _ = ops.SparseFillEmptyRows(
            sp_input.indices, sp_input.values, sp_input.dense_shape, default_value)
        result = SparseTensor(indices, values, sp_input.dense_shape)
        return _with_static_shape(result, sp_input.shape), empty_rows


@tf_export("sparse.eye")
def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """A sparse identity matrix [num_rows, num_columns]."""
    with name_scope(name or "eye"):
        num_rows = _int64(num_rows)
        num_columns = num_rows if num_columns is None else _int64(num_columns)
        diagonal = array_ops.range_(math_ops.minimum(num_rows, num_columns))
        indices = array_ops.stack([diagonal, diagonal], axis=1)
        values = array_ops.ones_like(diagonal, dtype=dtype)
        return SparseTensor(indices, values, array_ops.stack([num_rows, num_columns]))


# Arithmetic ----------------------------------------------------------------------------------


@tf_export("sparse.add")
def add(a, b, threshold=0):
    """SparseTensor + SparseTensor (entries whose sum's magnitude is below `threshold` dropped)
    or SparseTensor + dense tensor (a dense result)."""
    if not isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?")
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        thresh = array_ops.convert_to_tensor(threshold, dtype=a.values.dtype)
        indices, values, shape = ops.SparseAdd(a.indices, a.values, a.dense_shape, b.indices, b.values,
                                               b.dense_shape, thresh)
        result = SparseTensor(indices, values, shape)
        return _with_static_shape(result, a.shape if a.shape.is_fully_defined() else b.shape)
    if isinstance(b, SparseTensor):
        a, b = b, a
    b = array_ops.convert_to_tensor(b, dtype=a.dtype)
    return ops.SparseTensorDenseAdd(a.indices, a.values, a.dense_shape, b)


@tf_export("sparse.maximum")
def maximum(sp_a, sp_b, name=None):
    """Element-wise max of two SparseTensors of one dense shape, over the union of their entries
    (an entry missing from one is a zero there)."""
    return _extremum("SparseSparseMaximum", sp_a, sp_b, name)


@tf_export("sparse.minimum")
def minimum(sp_a, sp_b, name=None):
    """Element-wise min of two SparseTensors of one dense shape, over the union of their entries."""
    return _extremum("SparseSparseMinimum", sp_a, sp_b, name)


def _extremum(op, sp_a, sp_b, name):
    sp_a, sp_b = _convert_sparse(sp_a, "sp_a"), _convert_sparse(sp_b, "sp_b")
    indices, values = node(op, name or op)(sp_a.indices, sp_a.values, sp_a.dense_shape, sp_b.indices, sp_b.values,
                                           sp_b.dense_shape)
    return _with_static_shape(SparseTensor(indices, values, sp_a.dense_shape), sp_a.shape)


def sparse_dense_cwise(sp, dense, op):
    """SparseTensor * dense (or /): the dense operand, broadcast to the dense shape, read at the
    entries (TF's SparseDenseCwiseMul/Div)."""
    with name_scope("SparseDenseCwise" + op.capitalize()):
        dense = array_ops.convert_to_tensor(dense, dtype=sp.dtype)
        at_entries = shape_index.gather_nd(gradient_ops.broadcast_to(dense, sp.dense_shape), sp.indices)
        values = math_ops.multiply(sp.values, at_entries) if op == "mul" else math_ops.truediv(sp.values, at_entries)
        return _with_static_shape(SparseTensor(sp.indices, values, sp.dense_shape), sp.shape)


@tf_export("sparse.sparse_dense_matmul")
def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """SparseTensor × dense matrix (or dense × SparseTensor), with optional adjoints."""
    if isinstance(b, SparseTensor):
        # D·S = (S'·D')': the sparse operand goes first.
        if adjoint_a != adjoint_b:
            return array_ops.transpose(sparse_dense_matmul(b, sp_a, adjoint_a, adjoint_b))
        return array_ops.transpose(sparse_dense_matmul(b, sp_a, adjoint_a=not adjoint_a, adjoint_b=not adjoint_b))
    sp_a = _convert_sparse(sp_a, "sp_a")
    with name_scope(name or "SparseTensorDenseMatMul"):
        b = array_ops.convert_to_tensor(b, name="b")
        return ops.SparseTensorDenseMatMul(sp_a.indices, sp_a.values, sp_a.dense_shape, b,
                                           adjoint_a=adjoint_a, adjoint_b=adjoint_b)


def _reduction_axes(sp_input, axis):
    if axis is None:
        rank = _rank(sp_input)
        if rank is None:
            return array_ops.range_(array_ops.size(sp_input.dense_shape))
        return array_ops.constant(list(range(rank)), dtypes.int32)
    return array_ops.convert_to_tensor(axis, dtype=dtypes.int32)


def _sparse_reduce(op, sp_input, axis, keepdims, output_is_sparse, name):
    sp_input = _convert_sparse(sp_input, "sp_input")
    keepdims = bool(keepdims)
    axes = _reduction_axes(sp_input, axis)
    if output_is_sparse:
        indices, values, shape = node(op + "Sparse", name)(
            sp_input.indices, sp_input.values, sp_input.dense_shape, axes, keep_dims=keepdims)
        return SparseTensor(indices, values, shape)
    return node(op, name)(sp_input.indices, sp_input.values, sp_input.dense_shape, axes, keep_dims=keepdims)


@tf_export("sparse.reduce_sum")
def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """Sum of the entries along `axis` (all axes by default); implicit zeros add nothing."""
    return _sparse_reduce("SparseReduceSum", sp_input, axis, keepdims, output_is_sparse, name)


@tf_export("sparse.reduce_max")
def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """Max of the entries along `axis` (all by default), over the entries present only; an
    output element with no entry is 0 (or absent when the output is sparse)."""
    return _sparse_reduce("SparseReduceMax", sp_input, axis, keepdims, output_is_sparse, name)


@tf_export("sparse.map_values")
def map_values(op, *args, **kwargs):
    """`op` applied to the values of the SparseTensors among the arguments (which must share
    their indices); other arguments are passed as they are."""
    sparse_list = []

    def replace(value):
        if isinstance(value, SparseTensor):
            sparse_list.append(value)
            return value.values
        return value

    inner_args = nest.map_structure(replace, args)
    inner_kwargs = nest.map_structure(replace, kwargs)
    if not sparse_list:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = sparse_list[0]
    for other in sparse_list[1:]:
        check_ops.assert_equal(first.indices, other.indices, message="Mismatched indices!", summarize=3)
    result = SparseTensor(first.indices, op(*inner_args, **inner_kwargs), first.dense_shape)
    return _with_static_shape(result, first.shape)


# Parsing support ------------------------------------------------------------------------------


def from_components(indices, values, dense_shape, static_shape=None):
    """A SparseTensor from an op's three outputs (tf.io parsing), with a static shape when known."""
    result = SparseTensor(indices, values, dense_shape)
    return result if static_shape is None else _with_static_shape(result, static_shape)



# Element-wise APIs on SparseTensors ------------------------------------------------------------

# The zero-preserving unary APIs TF 2.21 applies to a SparseTensor's values (f(0) == 0, so the
# implicit zeros stay zeros); tf.cast too. Others (tf.exp, tf.cos, ...) refuse a SparseTensor.
_VALUE_APIS = ("math.abs", "math.negative", "math.sign", "math.square", "math.sqrt", "math.tanh", "math.sin",
               "math.asin", "math.atan", "math.asinh", "math.atanh", "math.tan", "math.erf", "cast")
_registered = False


def register_dispatch():
    """Makes the APIs of _VALUE_APIS take SparseTensors; run when the first SparseTensor is made
    (registration wraps the APIs, which programs without SparseTensors need not pay for)."""
    global _registered
    if _registered:
        return
    _registered = True
    from graphfn.framework import dispatch  # lazily: only a program with a SparseTensor registers

    def first_is_sparse(args, kwargs):
        x = args[0] if args else next(iter(kwargs.values()), None)
        return isinstance(x, SparseTensor)

    for name in _VALUE_APIS:
        api = dispatch.exported_api(name)
        if api is None:
            continue

        def on_values(*args, _api=api, **kwargs):
            sp, rest = (args[0], args[1:]) if args else (kwargs.pop(next(iter(kwargs))), ())
            result = SparseTensor(sp.indices, _api(sp.values, *rest, **kwargs), sp.dense_shape)
            return _with_static_shape(result, sp.shape)

        dispatch.register_api(api, on_values, first_is_sparse, (SparseTensor,))


SparseTensor.__mul__ = lambda self, other: sparse_dense_cwise(self, other, "mul")
SparseTensor.__truediv__ = lambda self, other: sparse_dense_cwise(self, other, "div")
SparseTensor._on_first_use = register_dispatch
