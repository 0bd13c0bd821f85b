"""Higher-order functions over the first dimension of tensors: tf.map_fn, tf.scan, tf.foldl,
tf.foldr. Each is a while_loop over TensorArrays, as in TF: eagerly the loop runs in Python,
while tracing it becomes one While node, and gradients flow through both."""

from graphfn.framework import dtypes
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.ops import array_ops
from graphfn.ops.control_flow_ops import while_loop
from graphfn.ops.tensor_array_ops import TensorArray
from graphfn.util import nest
from graphfn.util.tf_export import tf_export


def _flat_elems(elems):
    flat = [array_ops.convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. Got %s, which does not "
                         "contain any Tensors." % (elems,))
    return flat


def _static_length(flat, scalar_error):
    """The common first dimension of `flat` (None if unknown), checked for agreement; a scalar
    raises `scalar_error` (each API has TF's own)."""
    length = None
    for t in flat:
        if t.shape.rank == 0:
            raise scalar_error
        first = t.shape[0] if t.shape.rank is not None else None
        if first is None:
            continue
        if length is not None and first != length:
            raise ValueError("Dimensions %d and %d are not compatible" % (length, first))
        length = first
    return length


def _length(flat, static_length):
    return static_length if static_length is not None else array_ops.shape(flat[0])[0]


def _unstacked(flat, n):
    return [TensorArray(t.dtype, size=n, element_shape=t.shape[1:]).unstack(t) for t in flat]


def _output_spec(signature):
    """A TensorSpec for one leaf of `fn_output_signature` (a DType or a TensorSpec)."""
    if isinstance(signature, TensorSpec):
        return signature
    return TensorSpec(None, dtypes.as_dtype(signature))


def _with_length(t, static_length):
    if static_length is not None and t.shape.rank is not None and t.shape.rank >= 1 and t.shape[0] is None:
        t.set_shape(TensorShape([static_length]).concatenate(t.shape[1:]))
    return t


@tf_export("map_fn")
def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """Applies `fn` to each slice of `elems` along its first dimension and stacks the results."""
    if not callable(fn):
        # TF's error: it reads fn.__name__ first.
        raise AttributeError("'%s' object has no attribute '__name__'" % type(fn).__name__)
    if fn_output_signature is None:
        fn_output_signature = dtype
    with name_scope(name or "map"):
        flat = _flat_elems(elems)
        static_length = _static_length(
            flat, ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars"))
        n = _length(flat, static_length)
        if fn_output_signature is None:
            out_structure = elems
            out_specs = [TensorSpec(None, t.dtype) for t in flat]
        else:
            out_structure = fn_output_signature
            out_specs = [_output_spec(s) for s in nest.flatten(fn_output_signature)]
        inputs = _unstacked(flat, n)
        outputs = [TensorArray(s.dtype, size=n, infer_shape=infer_shape, element_shape=s.shape) for s in out_specs]

        def body(i, arrays):
            result = fn(nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs]))
            nest.assert_same_structure(out_structure, result)
            return i + 1, [ta.write(i, v) for ta, v in zip(arrays, nest.flatten(result))]

        _, outputs = while_loop(lambda i, _: i < n, body, (0, outputs), parallel_iterations=parallel_iterations or 10,
                                maximum_iterations=n)
        stacked = [_with_length(ta.stack(), static_length) for ta in outputs]
        return nest.pack_sequence_as(out_structure, stacked)


def _accumulate(fn, elems, initializer, reverse, keep_all, parallel_iterations, infer_shape=True):
    """The loop of scan (keep_all: every accumulator, stacked) and of foldl/foldr (the last)."""
    flat = _flat_elems(elems)
    # TF reads the first dimension of a scalar's shape here.
    static_length = _static_length(flat, IndexError("tuple index out of range"))
    n = _length(flat, static_length)
    inputs = _unstacked(flat, n)

    def element(i):
        return nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])

    first, last, step = (n - 1, -1, -1) if reverse else (0, n, 1)
    if initializer is None:
        accumulator = element(first)
        start = first + step
    else:
        accumulator = initializer
        start = first
    accumulator = nest.map_structure(array_ops.convert_to_tensor, accumulator)
    flat_acc = nest.flatten(accumulator)
    outputs = [TensorArray(a.dtype, size=n, infer_shape=infer_shape, element_shape=a.shape) for a in flat_acc]
    if keep_all and initializer is None:
        outputs = [ta.write(first, a) for ta, a in zip(outputs, flat_acc)]

    def body(i, acc, arrays):
        packed = fn(nest.pack_sequence_as(accumulator, acc), element(i))
        nest.assert_same_structure(accumulator, packed)
        new_acc = nest.flatten(packed)
        if keep_all:
            arrays = [ta.write(i, v) for ta, v in zip(arrays, new_acc)]
        return i + step, new_acc, arrays

    def cond(i, acc, arrays):
        return i > last if reverse else i < last

    _, flat_acc, outputs = while_loop(cond, body, (start, flat_acc, outputs),
                                      parallel_iterations=parallel_iterations)
    if keep_all:
        return nest.pack_sequence_as(accumulator, [_with_length(ta.stack(), static_length) for ta in outputs])
    return nest.pack_sequence_as(accumulator, flat_acc)


@tf_export("scan")
def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """The running accumulation `fn(acc, x)` over the first dimension of `elems`, every step kept."""
    with name_scope(name or "scan"):
        return _accumulate(fn, elems, initializer, reverse, True, parallel_iterations, infer_shape)


@tf_export("foldl")
def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """`fn(acc, x)` folded over the first dimension of `elems`, left to right."""
    with name_scope(name or "foldl"):
        return _accumulate(fn, elems, initializer, False, False, parallel_iterations)


@tf_export("foldr")
def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """`fn(acc, x)` folded over the first dimension of `elems`, right to left."""
    with name_scope(name or "foldr"):
        return _accumulate(fn, elems, initializer, True, False, parallel_iterations)
