"""Batching rules: for each op, how a node with stacked inputs becomes one batched node (or a few).

A rule takes the Converter and the Node (its op type, attrs and inputs as `Wrapped` values) and
returns the node's outputs as `Wrapped` values; it raises NoRule when it cannot batch this node
(the transform then falls back to a while_loop, as TF's pfor does). Axis arguments must be
loop-invariant; non-negative ones move past the leading batch dimension, negative ones already
count from the end.
"""

from graphfn.ops import array_ops
from graphfn.ops._op_table import ops
from graphfn.parallel_for.converter import NoRule, Wrapped
from graphfn.util.lazy_numpy import numpy as _numpy

RULES = {}
# Ops batched even when no input depends on the example: each example draws its own numbers.
PER_EXAMPLE = frozenset({"RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt"})


def _rule(*op_types):
    def register(fn):
        for op_type in op_types:
            RULES[op_type] = fn
        return fn
    return register


def _emit(node, *inputs, **extra):
    attrs = dict(node.attrs)
    attrs.update(extra)
    return getattr(ops, node.type)(*inputs, **attrs)


def _stacked(t):
    return [Wrapped(t, True)]


def _invariant(cv, w):
    if w.stacked:
        raise NoRule()
    return w


def _expand_after_batch(t, count):
    for _ in range(count):
        t = ops.ExpandDims(t, 1)
    return t


def _aligned(cv, inputs):
    """The inputs of a broadcasting op, stacked ones given as many example dims as the
    highest-rank input (so that the batch dim lines up with the batch dim, not an example dim)."""
    ranks = [cv.rank(w) for w in inputs]
    if any(r is None for r in ranks):
        if len({r for r, w in zip(ranks, inputs) if w.stacked or r != 0}) > 1:
            raise NoRule()
        return [w.t for w in inputs]
    top = max(ranks)
    return [_expand_after_batch(w.t, top - r) if w.stacked else w.t for w, r in zip(inputs, ranks)]


def _shifted_axis(cv, w, rank=None):
    """A loop-invariant axis input (scalar or vector) counted in the batched tensor."""
    _invariant(cv, w)
    value = cv.constant_value(w)
    if value is not None:
        shifted = _numpy().where(value >= 0, value + 1, value).astype(value.dtype)
        return shifted.tolist()
    return ops.AddV2(w.t, ops.Cast(ops.GreaterEqual(w.t, ops.ZerosLike(w.t)), DstT=w.t.dtype))


def _shifted(axis):
    return axis + 1 if axis >= 0 else axis


def _prepended(cv, w, first):
    """`[first] + w` for a loop-invariant 1-D input `w`."""
    _invariant(cv, w)
    value = cv.constant_value(w)
    if value is not None:
        return [first] + value.tolist()
    return ops.ConcatV2([ops.Cast(ops.Reshape(first, [1]), DstT=w.t.dtype) if not isinstance(first, int)
                         else _numpy().array([first], w.t.dtype.as_numpy_dtype), w.t], 0)


def _batch_prefixed(cv, w):
    """`[batch_size] + w` for a loop-invariant 1-D shape input."""
    _invariant(cv, w)
    value = cv.constant_value(w)
    if value is not None and isinstance(cv.batch_size, int):
        return [cv.batch_size] + value.tolist()
    return ops.ConcatV2([cv.batch_vector(w.t.dtype), w.t], 0)


# -- element-wise ----------------------------------------------------------------------------------

_UNARY = ("Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cast", "Ceil", "CheckNumerics", "Cos", "Cosh",
          "Digamma", "Elu", "Erf", "Erfc", "Exp", "Expm1", "Floor", "Identity", "Inv", "Invert", "IsFinite", "IsInf",
          "IsNan", "LeakyRelu", "Lgamma", "Log", "Log1p", "LogicalNot", "Neg", "OnesLike", "PreventGradient",
          "Reciprocal", "Relu", "Relu6", "Rint", "Round", "Rsqrt", "Selu", "Sigmoid", "Sign", "Sin", "Sinh",
          "Softplus", "Softsign", "Sqrt", "Square", "StopGradient", "Tan", "Tanh", "ZerosLike",
          # along the last axis, which batching leaves last
          "Softmax", "LogSoftmax")
_BROADCASTING = ("Add", "AddV2", "Atan2", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Div", "DivNoNan", "Equal",
                 "FloorDiv", "FloorMod", "Greater", "GreaterEqual", "Less", "LessEqual", "LogicalAnd", "LogicalOr",
                 "Maximum", "Minimum", "Mod", "Mul", "MulNoNan", "NotEqual", "Pow", "RealDiv", "SquaredDifference",
                 "Sub", "TruncateDiv", "TruncateMod", "Xdivy", "Xlogy", "SelectV2")
# Gradient ops whose inputs have one shape: every input is stacked.
_SAME_SHAPE = ("EluGrad", "LeakyReluGrad", "ReciprocalGrad", "Relu6Grad", "ReluGrad", "RsqrtGrad", "SeluGrad",
               "SigmoidGrad", "SoftplusGrad", "SoftsignGrad", "SqrtGrad", "TanhGrad", "AddN")


@_rule(*_UNARY)
def _unary(cv, node):
    if node.type in ("Softmax", "LogSoftmax") and cv.rank(node.inputs[0]) == 0:
        raise NoRule()
    return _stacked(_emit(node, node.inputs[0].t))


@_rule(*_BROADCASTING)
def _broadcasting(cv, node):
    return _stacked(_emit(node, *_aligned(cv, node.inputs)))


@_rule(*_SAME_SHAPE)
def _same_shape(cv, node):
    stacked = [cv.stack(w) for w in node.inputs]
    if node.type == "AddN":
        return _stacked(ops.AddN(stacked))
    return _stacked(_emit(node, *stacked))


@_rule("Select")
def _select(cv, node):
    condition, x, y = node.inputs
    if cv.rank(condition) != cv.rank(x):
        raise NoRule()  # a vector condition picks rows of a matrix: not batched here
    return _stacked(ops.SelectV2(*[cv.stack(w) for w in node.inputs]))


@_rule("ClipByValue")
def _clip_by_value(cv, node):
    x, low, high = node.inputs
    if low.stacked or high.stacked:
        x_t = cv.stack(x)
        return _stacked(ops.Minimum(ops.Maximum(*_aligned(cv, [Wrapped(x_t, True), low])),
                                    _aligned(cv, [Wrapped(x_t, True), high])[1]))
    return _stacked(_emit(node, x.t, low.t, high.t))


@_rule("BiasAdd")
def _bias_add(cv, node):
    value, bias = node.inputs
    if node.attrs.get("data_format", "NHWC") != "NHWC":
        raise NoRule()
    if not bias.stacked:
        return _stacked(_emit(node, value.t, bias.t))
    return _stacked(ops.AddV2(*_aligned(cv, [Wrapped(cv.stack(value), True), bias])))


# -- matrix products -------------------------------------------------------------------------------

def _static_dims(t):
    dims = t.shape.dims
    return None if dims is None or any(d is None for d in dims) else list(dims)


@_rule("MatMul")
def _matmul(cv, node):
    """One GEMM when one side is loop-invariant: the stacked side's batch folds into its rows
    (a: [n, i, k] -> [n*i, k]) or columns (b: [n, k, j] -> [k, n*j]); else a batched product."""
    a, b = node.inputs
    transpose_a, transpose_b = node.attrs["transpose_a"], node.attrs["transpose_b"]
    out = _static_dims(node.op.outputs[0])
    if out is not None and a.stacked != b.stacked:
        i, j = out
        if a.stacked:
            rows = ops.Transpose(a.t, [0, 2, 1]) if transpose_a else a.t  # [n, i, k]
            k = rows.shape.dims[2]
            if k is not None:
                product = ops.MatMul(ops.Reshape(rows, [-1, k]), b.t, transpose_b=transpose_b)  # [n*i, j]
                return _stacked(ops.Reshape(product, [-1, i, j]))
            return _stacked(ops.BatchMatMulV2(a.t, b.t, adj_x=transpose_a, adj_y=transpose_b))
        columns = ops.Transpose(b.t, [0, 2, 1]) if transpose_b else b.t  # [n, k, j]
        k = columns.shape.dims[1]
        if k is not None:
            folded = ops.Reshape(ops.Transpose(columns, [1, 0, 2]), [k, -1])  # [k, n*j]
            product = ops.MatMul(a.t, folded, transpose_a=transpose_a)  # [i, n*j]
            return _stacked(ops.Transpose(ops.Reshape(product, [i, -1, j]), [1, 0, 2]))
    return _stacked(ops.BatchMatMulV2(a.t, b.t, adj_x=transpose_a, adj_y=transpose_b))


@_rule("BatchMatMul", "BatchMatMulV2")
def _batch_matmul(cv, node):
    a, b = _aligned(cv, node.inputs)
    return _stacked(ops.BatchMatMulV2(a, b, adj_x=node.attrs["adj_x"], adj_y=node.attrs["adj_y"]))


# -- reductions and scans --------------------------------------------------------------------------

@_rule("Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "EuclideanNorm", "ArgMax", "ArgMin", "Cumsum", "Cumprod",
       "CumulativeLogsumexp")
def _reduction(cv, node):
    x, axis = node.inputs[0], node.inputs[1]
    if not x.stacked:
        raise NoRule()
    return _stacked(_emit(node, x.t, _shifted_axis(cv, axis)))


@_rule("L2Loss")
def _l2_loss(cv, node):
    x = node.inputs[0]
    rank = cv.rank(x)
    if rank is None:
        raise NoRule()
    return _stacked(ops.Mul(ops.Sum(ops.Square(x.t), list(range(1, rank + 1))), _numpy().array(0.5, x.t.dtype.as_numpy_dtype)))


# -- shapes ------------------------------------------------------------------------------------------

@_rule("Reshape")
def _reshape(cv, node):
    x, shape = node.inputs
    return _stacked(_emit(node, cv.stack(x), _batch_prefixed(cv, shape)))


@_rule("Transpose")
def _transpose(cv, node):
    x, perm = node.inputs
    rank = cv.rank(x)
    _invariant(cv, perm)
    value = cv.constant_value(perm)
    if value is not None:
        if rank is None and (value < 0).any():
            raise NoRule()
        return _stacked(_emit(node, x.t, [0] + [int(p % rank if p < 0 else p) + 1 for p in value]))
    return _stacked(_emit(node, x.t, ops.ConcatV2([_numpy().zeros([1], perm.t.dtype.as_numpy_dtype),
                                                    ops.AddV2(perm.t, _numpy().ones([], perm.t.dtype.as_numpy_dtype))], 0)))


@_rule("ExpandDims")
def _expand_dims(cv, node):
    x, axis = node.inputs
    return _stacked(_emit(node, x.t, _shifted_axis(cv, axis)))


@_rule("Squeeze")
def _squeeze(cv, node):
    x = node.inputs[0]
    dims = node.attrs.get("squeeze_dims") or []
    if not dims:
        # Every size-1 dim of an example, never the batch dim (the batch may be of size 1).
        shape = x.t.shape.dims[1:] if x.t.shape.rank is not None else None
        if shape is None or any(d is None for d in shape):
            raise NoRule()
        dims = [i for i, d in enumerate(shape) if d == 1]
        if not dims:
            return _stacked(x.t)
    return _stacked(ops.Squeeze(x.t, squeeze_dims=[_shifted(d) for d in dims]))


@_rule("ConcatV2")
def _concat(cv, node):
    *values, axis = node.inputs
    return _stacked(ops.ConcatV2([cv.stack(w) for w in values], _shifted_axis(cv, axis)))


@_rule("Pack")
def _pack(cv, node):
    return _stacked(ops.Pack([cv.stack(w) for w in node.inputs], axis=_shifted(node.attrs["axis"])))


@_rule("Unpack")
def _unpack(cv, node):
    outs = ops.Unpack(node.inputs[0].t, num=node.attrs["num"], axis=_shifted(node.attrs["axis"]))
    return [Wrapped(t, True) for t in outs]


@_rule("Split")
def _split(cv, node):
    axis, value = node.inputs
    if not value.stacked:
        raise NoRule()
    return [Wrapped(t, True) for t in _emit(node, _shifted_axis(cv, axis), value.t)]


@_rule("SplitV")
def _split_v(cv, node):
    value, sizes, axis = node.inputs
    _invariant(cv, sizes)
    return [Wrapped(t, True) for t in _emit(node, value.t, sizes.t, _shifted_axis(cv, axis))]


@_rule("Tile")
def _tile(cv, node):
    x, multiples = node.inputs
    return _stacked(_emit(node, cv.stack(x), _prepended(cv, multiples, 1)))


@_rule("Slice")
def _slice(cv, node):
    x, begin, size = node.inputs
    if not x.stacked:
        raise NoRule()
    return _stacked(_emit(node, x.t, _prepended(cv, begin, 0), _prepended(cv, size, -1)))


@_rule("StridedSlice")
def _strided_slice(cv, node):
    x, begin, end, strides = node.inputs
    if not x.stacked:
        raise NoRule()
    a = node.attrs
    # A full slice of the batch dim in front; each mask bit moves one place up.
    masks = dict(begin_mask=(a["begin_mask"] << 1) | 1, end_mask=(a["end_mask"] << 1) | 1,
                 ellipsis_mask=a["ellipsis_mask"] << 1, new_axis_mask=a["new_axis_mask"] << 1,
                 shrink_axis_mask=a["shrink_axis_mask"] << 1)
    return _stacked(_emit(node, x.t, _prepended(cv, begin, 0), _prepended(cv, end, 0), _prepended(cv, strides, 1),
                          **masks))


@_rule("BroadcastTo")
def _broadcast_to(cv, node):
    x, shape = node.inputs
    length = shape.t.shape.dims[0] if shape.t.shape.rank == 1 else None
    rank = cv.rank(x)
    if length is None or rank is None or rank > length:
        raise NoRule()
    return _stacked(_emit(node, _expand_after_batch(x.t, length - rank), _batch_prefixed(cv, shape)))


@_rule("Fill")
def _fill(cv, node):
    dims, value = node.inputs
    length = dims.t.shape.dims[0] if dims.t.shape.rank == 1 else None
    if length is None:
        raise NoRule()
    return _stacked(ops.BroadcastTo(_expand_after_batch(value.t, length), _batch_prefixed(cv, dims)))


def _example_shape(w):
    dims = w.t.shape.dims
    if dims is None:
        return None
    dims = dims[1:]
    return None if any(d is None for d in dims) else dims


@_rule("Shape")
def _shape(cv, node):
    x = node.inputs[0]
    dtype = node.attrs["out_type"]
    static = _example_shape(x)
    if static is not None:
        return [Wrapped(array_ops.constant(_numpy().array(static, dtype.as_numpy_dtype)), False)]
    return [Wrapped(ops.StridedSlice(ops.Shape(x.t, out_type=dtype), [1], [0], [1], end_mask=1), False)]


@_rule("ShapeN")
def _shape_n(cv, node):
    dtype = node.attrs["out_type"]
    out = []
    for w in node.inputs:
        full = ops.Shape(w.t, out_type=dtype)
        out.append(Wrapped(ops.StridedSlice(full, [1], [0], [1], end_mask=1) if w.stacked else full, False))
    return out


@_rule("Size")
def _size(cv, node):
    x = node.inputs[0]
    dtype = node.attrs["out_type"]
    example = ops.StridedSlice(ops.Shape(x.t, out_type=dtype), [1], [0], [1], end_mask=1)
    return [Wrapped(ops.Prod(example, 0), False)]


@_rule("Rank")
def _rank(cv, node):
    return [Wrapped(ops.Sub(ops.Rank(node.inputs[0].t), 1), False)]


# -- indexing ----------------------------------------------------------------------------------------

@_rule("GatherV2")
def _gather(cv, node):
    params, indices, axis_w = node.inputs
    _invariant(cv, axis_w)
    axis_value = cv.constant_value(axis_w)
    batch_dims = node.attrs.get("batch_dims", 0)
    params_rank, indices_rank = cv.rank(params), cv.rank(indices)
    if axis_value is None or params_rank is None or indices_rank is None or batch_dims < 0:
        raise NoRule()
    axis = int(axis_value)
    if axis < 0:
        axis += params_rank
    if params.stacked and not indices.stacked and batch_dims == 0:
        return _stacked(ops.GatherV2(params.t, indices.t, axis + 1, batch_dims=0))
    if params.stacked:
        return _stacked(ops.GatherV2(params.t, cv.stack(indices), axis + 1, batch_dims=batch_dims + 1))
    if batch_dims != 0:
        return _stacked(ops.GatherV2(cv.stack(params), indices.t, axis + 1, batch_dims=batch_dims + 1))
    gathered = ops.GatherV2(params.t, indices.t, axis, batch_dims=0)
    if axis == 0:
        return _stacked(gathered)
    # The batch dim of the indices landed at `axis`: move it to the front.
    out_rank = params_rank + indices_rank + 1 - 1
    perm = [axis] + [i for i in range(out_rank) if i != axis]
    return _stacked(ops.Transpose(gathered, perm))


@_rule("GatherNd")
def _gather_nd(cv, node):
    params, indices = node.inputs
    if params.stacked:
        raise NoRule()
    return _stacked(_emit(node, params.t, indices.t))


@_rule("OneHot")
def _one_hot(cv, node):
    indices, depth, on_value, off_value = node.inputs
    if depth.stacked or on_value.stacked or off_value.stacked:
        raise NoRule()
    axis = node.attrs["axis"]
    return _stacked(_emit(node, indices.t, depth.t, on_value.t, off_value.t, axis=_shifted(axis)))


# -- random numbers ------------------------------------------------------------------------------------

@_rule(*PER_EXAMPLE)
def _random(cv, node):
    """One draw of [batch_size] + shape: every example gets its own numbers, as in TF's pfor."""
    shape, *bounds = node.inputs
    if any(w.stacked for w in node.inputs):
        raise NoRule()  # a shape or bound that depends on the example
    return _stacked(_emit(node, _batch_prefixed(cv, shape), *[w.t for w in bounds]))


# -- einsum ------------------------------------------------------------------------------------------

@_rule("Einsum")
def _einsum(cv, node):
    """A new label for the batch dim, in front of every stacked operand's labels and the output's."""
    equation = node.attrs["equation"].replace(" ", "")
    if "->" not in equation:
        raise NoRule()
    operands, output = equation.split("->")
    unused = [c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in equation]
    batch = unused[0]
    labels = [batch + term if w.stacked else term for term, w in zip(operands.split(","), node.inputs)]
    return _stacked(ops.Einsum([w.t for w in node.inputs], equation=",".join(labels) + "->" + batch + output))
