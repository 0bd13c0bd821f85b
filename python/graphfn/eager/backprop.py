"""tf.GradientTape: records eager ops and differentiates them.

The tape itself is C++. Eagerly (autodiff/tape.h, exposed as _core.Tape) dispatch records every
op with a watched input, and gradient() runs each op's C++ gradient function backwards. A tape
entered while a function is traced is a _core.GraphTape (autodiff/graph_tape.h): it remembers which
nodes were created while it recorded, and gradient() appends the gradient nodes to the graph
(symbolic differentiation, with the same gradient functions). This module adds TF's Python API
on top: nested structures of targets and sources, variables (a variable is watched through its
resource handle; reads are recorded as ReadVariableOp), unconnected gradients,
stop_recording/reset and TF's errors and warnings. Both tapes share one per-thread stack of
recording tapes in C++, which also holds each tape's watched variables; a read of a trainable
variable tells them through _core.variable_accessed."""

import contextlib
import enum
import math

from graphfn import _core
from graphfn.framework.tensor import EagerTensor, SymbolicTensor, Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import array_ops
from graphfn.ops._op_table import ops
from graphfn.ops import script_ops
from graphfn.util import nest
from graphfn.util.tf_export import tf_export
from graphfn.variables import Variable

_warned = set()


def _warn_first_n(key, n, message, *args):
    count = sum(1 for k in _warned if k[0] == key)
    if count < n:
        _warned.add((key, count))
        import logging  # only when warning: logging costs ~8 ms of `import graphfn`
        logging.getLogger("graphfn").warning(message, *args)


@tf_export("UnconnectedGradients")
class UnconnectedGradients(enum.Enum):
    """What gradient() returns for a source the target does not depend on."""
    NONE = "none"
    ZERO = "zero"


def _is_variable(value):
    # Objects that wrap a variable and say so (Keras 3's Variable) are differentiated through its
    # handle, as TF's resource_variable_ops.is_resource_variable accepts them.
    return isinstance(value, Variable) or getattr(value, "_should_act_as_resource_variable", False)


def _is_trainable(value):
    return value.dtype.is_floating or value.dtype.is_complex


@tf_export("GradientTape", "autodiff.GradientTape")
class GradientTape:
    """Records operations for automatic differentiation, as tf.GradientTape."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = bool(persistent)
        self._watch_accessed_variables = watch_accessed_variables
        self._tape = None
        self._recording = False
        self._spent_watched_variables = ()  # watched_variables() of the tape gradient() used up

    def __enter__(self):
        self._push_tape()
        return self

    def __exit__(self, typ, value, traceback):
        if self._recording:
            self._pop_tape()

    def _push_tape(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an already-active tape.")
        self._ensure_tape().push()
        self._recording = True

    def _pop_tape(self):
        if not self._recording:
            raise ValueError("Tape is not recording.")
        self._tape.pop()
        self._recording = False

    def _ensure_tape(self):
        """The C++ tape: a GraphTape on the graph being traced, else an eager Tape."""
        if self._tape is None:
            graph = _core.current_graph()
            if graph is not None:
                self._tape = _core.GraphTape(graph, bool(self._watch_accessed_variables))
            else:
                self._tape = _core.Tape(self._persistent, bool(self._watch_accessed_variables))
        return self._tape

    def _symbolic(self):
        return isinstance(self._tape, _core.GraphTape)

    def _use_up_tape(self):
        """A non-persistent tape is used up by gradient(); TF still lists what it watched."""
        self._spent_watched_variables = self._tape.watched_variables()
        self._tape = None

    def watch(self, tensor):
        """Ensures that `tensor` (a tensor, variable or nested structure of them) is traced."""
        for t in nest.flatten(tensor):
            if not (isinstance(t, Tensor) or _is_variable(t)):
                raise ValueError("Passed in object {} of type {!r}, not tf.Tensor or tf.Variable or "
                                 "ExtensionType.".format(t, type(t).__name__))
            if not _is_trainable(t):
                _warn_first_n("watch", 5, "The dtype of the watched tensor must be floating (e.g. tf.float32), "
                              "got %r", t.dtype)
            if _is_variable(t):
                self._ensure_tape().watch_variable(t)
            elif isinstance(self._ensure_tape(), _core.GraphTape):
                self._tape.watch(t)
            elif isinstance(t, EagerTensor):
                self._tape.watch(t)
            elif isinstance(t, SymbolicTensor):
                raise NotImplementedError("A GradientTape entered outside a graphfn.function cannot watch the "
                                          "function's tensors; enter the tape inside the function")

    @contextlib.contextmanager
    def stop_recording(self):
        """Temporarily stops recording operations on this tape."""
        if self._tape is None:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop_tape()
        try:
            yield
        finally:
            self._push_tape()

    def reset(self):
        """Clears all information stored in this tape (as if it were freshly entered)."""
        self._pop_tape()
        self._tape = None
        self._spent_watched_variables = ()
        self._push_tape()

    def watched_variables(self):
        """The variables watched by this tape, in the order they were created (as TF lists them)."""
        if self._tape is None:
            return self._spent_watched_variables
        return self._tape.watched_variables()

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """The gradient of `target` (summed over its elements and structure) with respect to each
        of `sources`, packed like `sources`."""
        if self._tape is None:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")
        if self._recording:
            if not self._persistent:
                self._pop_tape()
            else:
                _warn_first_n("inside", 1, "Calling GradientTape.gradient on a persistent tape inside its context is "
                              "significantly less efficient than calling it outside the context (it causes the "
                              "gradient ops to be recorded on the tape, leading to increased CPU and memory usage). "
                              "Only call GradientTape.gradient inside the context if you actually want to trace the "
                              "gradient in order to compute higher order derivatives.")
        target_values = nest.flatten(target)
        flat_targets = [_handle_or_self(t) for t in target_values]
        flat_sources = nest.flatten(sources)
        for s in flat_sources:
            s.dtype  # TF reads every source's dtype first: AttributeError for non-tensors
        unconnected_gradients = UnconnectedGradients(unconnected_gradients)
        source_tensors = [_handle_or_self(s) for s in flat_sources]
        if output_gradients is not None:
            output_gradients = nest.flatten(output_gradients)
        output_gradients = _seed_variable_targets(target_values, output_gradients)
        if self._symbolic():
            flat_grads = _symbolic_gradient(self._tape.gradient, flat_targets, source_tensors, output_gradients)
        else:
            for t in flat_targets + source_tensors:
                if isinstance(t, SymbolicTensor):
                    raise NotImplementedError("A GradientTape entered outside a graphfn.function cannot differentiate "
                                              "the function's tensors; enter the tape inside the function")
            flat_targets = [t if isinstance(t, EagerTensor) else _core.to_tensor(t) for t in flat_targets]
            if output_gradients is not None:
                output_gradients = [None if g is None else _core.to_tensor(g) for g in output_gradients]
            try:
                flat_grads = self._tape.gradient(flat_targets, source_tensors, output_gradients)
            except KeyError as e:
                raise LookupError(e.args[0]) from None
        if not self._persistent:
            self._use_up_tape()
        if unconnected_gradients is UnconnectedGradients.ZERO:
            flat_grads = [_zeros_like(s) if g is None else g for g, s in zip(flat_grads, flat_sources)]
        return nest.pack_sequence_as(sources, flat_grads)


    def _flat_gradient(self, targets, sources, output_gradients):
        """One backward pass that keeps the tape (jacobian rows)."""
        if self._symbolic():
            return _symbolic_gradient(self._tape.gradient, targets, sources, output_gradients)
        try:
            return self._tape.gradient(targets, sources, output_gradients, keep=True)
        except KeyError as e:
            raise LookupError(e.args[0]) from None

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i...] / d source[j...] for each source, shaped target.shape + source.shape.
        Computed with one backward pass per element of `target`."""
        if self._tape is None:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")
        if self._recording and not self._persistent:
            self._pop_tape()
        flat_sources = nest.flatten(sources)
        source_tensors = [_handle_or_self(s) for s in flat_sources]
        unconnected_gradients = UnconnectedGradients(unconnected_gradients)
        # Shape and dtype of the target's value (a Variable target is differentiated as its handle).
        target_shape = _static_dims(target, "GradientTape.jacobian")
        target_dtype = target.dtype
        target = _handle_or_self(target)
        n = math.prod(target_shape)
        rows = [[] for _ in flat_sources]
        for i in range(n):
            one_hot = ops.Reshape(ops.OneHot(i, n, ops.Cast(1, DstT=target_dtype),
                                             ops.Cast(0, DstT=target_dtype)), target_shape)
            grads = self._flat_gradient([target], source_tensors, [one_hot])
            for k, g in enumerate(grads):
                rows[k].append(g)
        if not self._persistent:
            self._use_up_tape()
        result = []
        for s, column in zip(flat_sources, rows):
            source_shape = _static_dims(_zeros_like(s), "GradientTape.jacobian")
            if all(g is None for g in column) and unconnected_gradients is UnconnectedGradients.NONE:
                result.append(None)
                continue
            column = [_zeros_like(s) if g is None else g for g in column]
            stacked = ops.Pack(column) if column else ops.Fill([0] + source_shape, ops.Cast(0, DstT=s.dtype))
            result.append(ops.Reshape(stacked, target_shape + source_shape))
        return nest.pack_sequence_as(sources, result)


    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """d target[b, i...] / d source[b, j...] for each batch row b (rows independent), shaped
        [batch] + target.shape[1:] + source.shape[1:]; one backward pass per element of a row."""
        if self._tape is None:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")
        if self._recording and not self._persistent:
            self._pop_tape()
        source_tensor = _handle_or_self(source)
        target_shape, source_shape = TensorShape(target.shape), TensorShape(source.shape)
        for shape in (target_shape, source_shape):
            if shape.rank is not None and shape.rank < 2:
                raise ValueError("Shape %s must have rank at least 2" % shape)
        if target_shape[0] != source_shape[0]:
            raise ValueError("Need first dimension of target shape (%s) and source shape (%s) to match."
                             % (target_shape, source_shape))
        batch = int(target_shape[0])
        row = 1
        for d in target_shape.as_list()[1:]:
            row *= d
        columns = []
        for j in range(row):
            one_hot = ops.OneHot([j] * batch, row, ops.Cast(1, DstT=target.dtype), ops.Cast(0, DstT=target.dtype))
            g = self._flat_gradient([target], [source_tensor], [ops.Reshape(one_hot, target_shape.as_list())])[0]
            columns.append(_zeros_like(source) if g is None else g)
        if not self._persistent:
            self._use_up_tape()
        out_shape = target_shape.as_list() + source_shape.as_list()[1:]
        if not columns:
            return ops.Fill(out_shape, ops.Cast(0, DstT=source.dtype))
        return ops.Reshape(ops.Pack(columns, axis=1), out_shape)


def _static_dims(tensor, what):
    """The tensor's dims, which must all be known (a jacobian makes one backward pass per element)."""
    dims = tensor.shape.as_list() if tensor.shape.rank is not None else None
    if dims is None or any(d is None for d in dims):
        raise NotImplementedError("%s needs a tensor of fully known shape inside a graphfn.function, got %s"
                                  % (what, tensor.shape))
    return dims


def _graph_tensor(value, like=None):
    """`value` as a tensor of the graph being traced (Python values and eager tensors become
    constants, of `like`'s dtype when given)."""
    if isinstance(value, SymbolicTensor) or value is None:
        return value
    if _is_variable(value):
        return value.read_value()
    if not isinstance(value, EagerTensor):
        value = _core.to_tensor(value, like._dtype_enum if isinstance(like, Tensor) else 0)
    return array_ops.graph_constant(value)


def _symbolic_gradient(differentiate, targets, sources, output_gradients):
    """Runs a GraphTape's (or tf.gradients') differentiation on Python values: targets that are
    not graph tensors have no gradient; output gradients become graph tensors."""
    targets = [t if isinstance(t, (SymbolicTensor, EagerTensor)) else _core.to_tensor(t) for t in targets]
    if output_gradients is not None:
        output_gradients = [_graph_tensor(g, t) for g, t in zip(output_gradients, targets)]
    try:
        return differentiate(targets, sources, output_gradients)
    except KeyError as e:
        raise LookupError(e.args[0]) from None


def _handle_or_self(value):
    return value.handle if _is_variable(value) else value


def _seed_variable_targets(targets, output_gradients):
    """The output gradients with a seed for each Variable target that has none: ones of the
    variable's dtype and shape (the tape's default seed, OnesLike of the target, cannot be made
    for the variable's resource handle). So `gradient(v, [v, w])` is [ones, None], as TF."""
    if not any(_is_variable(t) for t in targets):
        return output_gradients
    if output_gradients is not None and len(output_gradients) != len(targets):
        return output_gradients  # the tape reports the mismatch
    seeds = list(output_gradients) if output_gradients is not None else [None] * len(targets)
    for i, t in enumerate(targets):
        if not _is_variable(t):
            continue
        if seeds[i] is None:
            seeds[i] = ops.OnesLike(ops.ReadVariableOp(t.handle, dtype=t.dtype))
        elif not isinstance(seeds[i], Tensor):
            seeds[i] = _core.to_tensor(seeds[i], t.dtype.as_datatype_enum)
    return seeds


def _zeros_like(source):
    if _is_variable(source):
        source = source.read_value()
    return ops.ZerosLike(source)


def _differentiate_python_function(func, xs, dys):
    """The gradient a tf.py_function node's gradient node returns: func run again under a tape."""
    with GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        ys = nest.flatten(func(*xs))
    return tape.gradient(ys, xs, output_gradients=dys[:len(ys)])


script_ops.set_differentiator(_differentiate_python_function)
