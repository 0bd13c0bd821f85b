"""graphfn.Variable: mutable state, held by the C++ core as a resource and read or written with
ops (ReadVariableOp, AssignVariableOp, ...). Inside a traced function those ops become graph
nodes, and automatic control dependencies keep them in program order."""

import contextlib
import itertools
import threading
import weakref

from graphfn import _core
from graphfn import context
from graphfn.framework import device_placement
from graphfn.framework import dtypes, name_scope
from graphfn.framework.tensor import EagerTensor, Reference, SymbolicTensor, Tensor, numpy_text
from graphfn.framework.indexed_slices import IndexedSlices
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.variable_enums import VariableAggregationV2, VariableSynchronization
from graphfn.ops import array_ops, shape_index, slicing
from graphfn.ops._op_table import ops
from graphfn.util import lazy_numpy
from graphfn.util.tf_export import tf_export


# Creation numbers: a tape lists its watched variables in creation order, as TF does.
_creation_numbers = itertools.count()
# Every live Variable by the identity of its resource, so a traced graph's captured resources
# (Graph.captured_resources) name their variables (ConcreteFunction.variables).
_by_resource = weakref.WeakValueDictionary()


def variable_of_resource(resource_id):
    """The live Variable whose resource has this identity, or None."""
    return _by_resource.get(resource_id)


# tf.variable_creator_scope: this thread's creators, innermost last.
_creators = threading.local()

_CREATOR_ARGUMENTS = ("initial_value", "trainable", "validate_shape", "caching_device", "name", "variable_def",
                      "dtype", "import_scope", "constraint", "synchronization", "aggregation", "shape")


class _CreatedThroughCreators(type):
    """Runs `tf.Variable(...)` through the creators of the open tf.variable_creator_scope blocks
    (innermost first), each given the next one and the arguments as keywords, as TF does."""

    def __call__(cls, *args, **kwargs):
        stack = getattr(_creators, "stack", None)
        if cls is Variable:
            cls = ResourceVariable  # what TF's tf.Variable(...) makes (type(v).__name__ is 'ResourceVariable')
        if cls is not ResourceVariable or not stack:
            return super().__call__(*args, **kwargs)
        arguments = dict(zip(_CREATOR_ARGUMENTS, args))
        arguments.update(kwargs)
        for name in _CREATOR_ARGUMENTS:
            arguments.setdefault(name, None)
        arguments["validate_shape"] = True if arguments["validate_shape"] is None else arguments["validate_shape"]
        arguments["experimental_enable_variable_lifting"] = True
        create = lambda **kw: type.__call__(  # noqa: E731 (the end of the chain)
            cls, **{k: v for k, v in kw.items() if k != "experimental_enable_variable_lifting"})
        for creator in stack:  # outermost first: each wraps the chain built so far
            create = (lambda c, nxt: lambda **kw: c(nxt, **kw))(creator, create)
        return create(**arguments)


@tf_export("variable_creator_scope")
@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """Within the block, `tf.Variable(...)` calls `variable_creator(next_creator, **kwargs)`."""
    stack = getattr(_creators, "stack", None)
    if stack is None:
        stack = _creators.stack = []
    stack.append(variable_creator)
    try:
        yield
    finally:
        stack.pop()


@tf_export("Variable")
class Variable(_core.VariableBase, metaclass=_CreatedThroughCreators):
    """A tensor-valued variable, as tf.Variable."""

    # `_handle` and `_trainable` live in VariableBase's C fields, not in `__dict__`: a call of a
    # tf.function reads them from every Variable argument (bindings/variable_object.h).

    # As for tensors: NumPy defers `ndarray op variable` to the variable's reflected operator,
    # so `X_np @ v` is a tensor the tape sees, not a NumPy array.
    __array_priority__ = 100

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, caching_device=None,
                 name=None, variable_def=None, dtype=None, import_scope=None, constraint=None,
                 synchronization=None, aggregation=None, shape=None):
        if initial_value is None:
            raise ValueError("The initial_value must be specified.")
        context.check_variable_creation()
        if callable(initial_value):
            # A function's initializer runs once, outside the trace (TF lifts it out of the
            # function): evaluating it inside would also run the trace's earlier stateful ops.
            with context.init_scope():
                initial_value = initial_value()
        if constraint is not None and not callable(constraint):
            raise ValueError("Argument `constraint` must be None or a callable. a callable. Got a %s:  %s"
                             % (type(constraint), constraint))
        synchronization = _synchronization_mode(synchronization, name)
        aggregation = _aggregation_mode(aggregation, name)
        if trainable is None:  # as TF: a variable synchronized on read is not trained by default
            trainable = synchronization != VariableSynchronization.ON_READ
        value = _initial_tensor(initial_value, dtype)
        self._constraint = constraint
        self._synchronization = synchronization
        self._aggregation = aggregation
        self._dtype = value.dtype
        self._shape = value.shape if shape is None else _explicit_shape(shape, value.shape)
        self._handle = _core.new_variable(value, self._shape.dims, self._shape.rank is None)
        device_placement.place_new_variable(self._handle)
        self._name = name_scope.current_scope() + (name or "Variable") + ":0"
        self._trainable = True if trainable is None else bool(trainable)
        self._unique_id = next(_creation_numbers)
        _by_resource[_core.resource_id(self._handle)] = self
        context.note_variable_created()

    @classmethod
    def _from_handle(cls, handle, value, name, trainable):
        """A Variable for an existing resource (one restored by graphfn.saved_model.load);
        `value` is its current value, for the dtype and shape."""
        variable = cls.__new__(cls)
        variable._handle = handle
        variable._dtype = value.dtype
        variable._shape = value.shape
        variable._name = name
        variable._trainable = bool(trainable)
        variable._unique_id = next(_creation_numbers)
        _by_resource[_core.resource_id(handle)] = variable
        return variable

    def __deepcopy__(self, memo):
        """A new variable holding a copy of the value, as TF's (eagerly only); copy.copy shares it."""
        if not context.executing_eagerly():
            raise NotImplementedError("__deepcopy__() is only available when eager execution is enabled.")
        copied = Variable(self.read_value(), trainable=self._trainable, dtype=self._dtype, shape=self._shape)
        copied._name = self._name
        memo[id(self)] = copied
        return copied

    # Reading -------------------------------------------------------------------------------------

    def read_value(self):
        _core.variable_accessed(self)  # recording tapes watch it (at once when none records)
        if self._trainable:
            context.note_variable_read(self)  # remembered when traced through a captured handle
        return ops.ReadVariableOp(self.handle, dtype=self._dtype)

    value = read_value

    def __tf_tensor__(self, dtype=None, name=None):
        return self.read_value()

    def numpy(self):
        return self.read_value().numpy()

    # Checkpoints: the protocol of TF's Trackable objects (Keras 3's variables forward to it) --------

    @property
    def _shared_name(self):
        return self._name[:-2] if self._name.endswith(":0") else self._name

    def _serialize_to_tensors(self):
        return {"VARIABLE_VALUE": self.read_value()}

    def _restore_from_tensors(self, restored_tensors):
        return self.assign(restored_tensors["VARIABLE_VALUE"])

    # Writing -------------------------------------------------------------------------------------

    def _write(self, op, value, read_value):
        value = _assigned_tensor(self, value)
        written = op(self.handle, value, dtype=self._dtype)
        if not read_value:
            return None
        unread = _UnreadVariable(self)
        if isinstance(written, _core.Operation):
            unread._control_op = written  # tf.control_dependencies([v.assign(x)]) waits for the write
        return unread

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._write(ops.AssignVariableOp, value, read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._write(ops.AssignAddVariableOp, delta, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._write(ops.AssignSubVariableOp, delta, read_value)

    # Scatters: rows (IndexedSlices) or n-d index rows written, combined with what is there ----------

    def _update(self, written):
        unread = _UnreadVariable(self)
        if isinstance(written, _core.Operation):
            unread._control_op = written
        return unread

    def _scatter(self, op, sparse_delta):
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError("Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: %s" % (sparse_delta,))
        values = _core.to_tensor(sparse_delta.values, self._dtype.as_datatype_enum) \
            if not isinstance(sparse_delta.values, (EagerTensor, SymbolicTensor)) else sparse_delta.values
        return self._update(op(self.handle, sparse_delta.indices, values, dtype=self._dtype))

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(ops.ResourceScatterUpdate, sparse_delta)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(ops.ResourceScatterAdd, sparse_delta)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(ops.ResourceScatterSub, sparse_delta)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(ops.ResourceScatterMul, sparse_delta)

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(ops.ResourceScatterDiv, sparse_delta)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(ops.ResourceScatterMax, sparse_delta)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(ops.ResourceScatterMin, sparse_delta)

    def _scatter_nd(self, op, indices, updates):
        if not isinstance(updates, (EagerTensor, SymbolicTensor)):
            updates = _core.to_tensor(updates, self._dtype.as_datatype_enum)
        return self._update(op(self.handle, indices, updates, T=self._dtype))

    def scatter_nd_update(self, indices, updates, name=None):
        return self._scatter_nd(ops.ResourceScatterNdUpdate, indices, updates)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter_nd(ops.ResourceScatterNdAdd, indices, updates)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter_nd(ops.ResourceScatterNdSub, indices, updates)

    def scatter_nd_max(self, indices, updates, name=None):
        return self._scatter_nd(ops.ResourceScatterNdMax, indices, updates)

    def scatter_nd_min(self, indices, updates, name=None):
        return self._scatter_nd(ops.ResourceScatterNdMin, indices, updates)

    def _assign_slice(self, key, value):
        """v[key].assign(value): ResourceStridedSliceAssign (value broadcast to the slice)."""
        begin, end, strides, masks = slicing.strided_slice_spec(key)
        if not isinstance(value, (EagerTensor, SymbolicTensor)):
            value = _core.to_tensor(value, self._dtype.as_datatype_enum)
        return self._update(ops.named("ResourceStridedSliceAssign", "strided_slice/_assign")(
            self.handle, begin, end, strides, value, T=self._dtype, **masks))

    # Properties ----------------------------------------------------------------------------------

    @property
    def handle(self):
        return self._handle

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    @property
    def name(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    @property
    def device(self):
        return device_placement.eager_tensor_device(self._handle)

    # What tf.Variable(...) was given, as TF keeps it (optimizers apply `constraint`; graphfn has
    # one replica, so synchronization and aggregation change nothing else). Class defaults serve
    # variables made without __init__ (restored ones).
    _constraint = None
    _synchronization = VariableSynchronization.AUTO
    _aggregation = VariableAggregationV2.NONE

    @property
    def constraint(self):
        return self._constraint

    @property
    def synchronization(self):
        return self._synchronization

    @property
    def aggregation(self):
        return self._aggregation

    @property
    def initial_value(self):
        if context.executing_eagerly():
            raise RuntimeError("This property is not supported when eager execution is enabled.")
        raise NotImplementedError("graphfn does not have Variable.initial_value inside a function yet")

    @property
    def initializer(self):
        """TF's initializer op: None eagerly (the variable was initialized at creation)."""
        if context.executing_eagerly():
            return None
        raise NotImplementedError("graphfn does not have Variable.initializer inside a function yet")

    def is_initialized(self, name=None):
        return _core.to_tensor(True, dtypes.bool.as_datatype_enum)  # created initialized, never uninitialized

    @property
    def op(self):
        if context.executing_eagerly():
            raise AttributeError("Tensor.op is undefined when eager execution is enabled.")
        return self.handle.op

    @property
    def graph(self):
        if context.executing_eagerly():
            raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")
        return self.handle.graph

    def sparse_read(self, indices, name=None):
        """The rows of the value at `indices` (axis 0), as tf.gather of the value."""
        return array_ops.gather(self.read_value(), indices)

    def gather_nd(self, indices, name=None):
        return shape_index.gather_nd(self.read_value(), indices)

    def experimental_ref(self):
        return self.ref()

    def __repr__(self):
        if context.executing_eagerly() and isinstance(self.handle, EagerTensor):
            return "<tf.Variable '%s' shape=%s dtype=%s, numpy=%s>" % (
                self._display_name(), self._shape, self._dtype.name, numpy_text(self.read_value(), True))
        return "<tf.Variable '%s' shape=%s dtype=%s>" % (self._display_name(), self._shape, self._dtype.name)

    def _display_name(self):
        return self._name

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key. (Variable: %s)" % self)

    def ref(self):
        return Reference(self)

    # copy.copy and copy.deepcopy: the state is `__dict__` plus the two C fields.
    def __getstate__(self):
        state = dict(self.__dict__)
        state.update(_handle=self._handle, _trainable=self._trainable)
        return state

    def __setstate__(self, state):
        for name, value in state.items():
            setattr(self, name, value)

    def _share_state(self, variable):
        """Becomes another view of `variable`: the same handle, flags and attributes."""
        self.__dict__.update(variable.__dict__)
        self._handle = variable._handle
        self._trainable = variable._trainable

    def __bool__(self):
        return bool(self.read_value())

    def __int__(self):
        return int(self.read_value())

    def __float__(self):
        return float(self.read_value())

    def __index__(self):
        return self.read_value().__index__()

    def __array__(self, dtype=None, copy=None):
        return lazy_numpy.numpy().asarray(self.numpy(), dtype=dtype)

    def __getitem__(self, key):
        sliced = self.read_value()[key]
        if not slicing._is_bool_mask(key):
            _remember_slice(sliced, self, key)
        return sliced

    def __iter__(self):
        return iter(self.read_value())

    def __len__(self):
        return len(self.read_value())


def _delegate(name):
    def method(self, *args):
        return getattr(self.read_value(), name)(*args)
    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
              "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__",
              "__matmul__", "__rmatmul__", "__neg__", "__abs__", "__lt__", "__le__", "__gt__", "__ge__",
              "__eq__", "__ne__", "__and__", "__rand__", "__or__", "__ror__", "__invert__"):
    setattr(Variable, _name, _delegate(_name))


# A slice of a variable has `assign` (v[1:3].assign(x)), as TF's has; other tensors have none. The
# slice's tensor is remembered by identity while it lives (tensors are unhashable).
_slices = {}


def _remember_slice(tensor, variable, key):
    tensor_id = id(tensor)
    _slices[tensor_id] = (weakref.ref(tensor, lambda _: _slices.pop(tensor_id, None)), variable, key)


_TF_TYPE_NAMES = {"EagerTensor": "tensorflow.python.framework.ops.EagerTensor",
                  "SymbolicTensor": "tensorflow.python.framework.ops.SymbolicTensor"}


def _slice_assign(tensor):
    """The `assign` of a variable's slice: raises AttributeError (so hasattr is False) on others."""
    entry = _slices.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        raise AttributeError("'%s' object has no attribute 'assign'" % _TF_TYPE_NAMES.get(type(tensor).__name__))
    _, variable, key = entry

    def assign(value, name=None):
        return variable._assign_slice(key, value)
    return assign


EagerTensor.assign = property(_slice_assign)
SymbolicTensor.assign = property(_slice_assign)


class ResourceVariable(Variable):
    """The class of the variables `tf.Variable(...)` makes, named as TF names it."""


class _UnreadVariable(Variable):
    """What assign() returns: the same variable, printed as TF prints it ('UnreadVariable')."""

    def __init__(self, variable):  # no creation: shares the variable's state
        self._share_state(variable)

    def _display_name(self):
        return "UnreadVariable"


class _TracedVariable(Variable):
    """A Variable argument seen while tracing: its handle is the graph's resource placeholder."""

    def __init__(self, variable, handle):
        self._share_state(variable)
        self._handle = handle
        self._traced_from = variable  # the caller's variable (state keyed by variable, e.g. optimizer slots)


def _synchronization_mode(value, name):
    if value is None:
        return VariableSynchronization.AUTO
    if isinstance(value, VariableSynchronization):
        return value
    raise ValueError("Invalid variable synchronization mode: %s for variable: %s" % (value, name))


def _aggregation_mode(value, name):
    if value is None:
        return VariableAggregationV2.NONE
    if isinstance(value, VariableAggregationV2):
        return value
    raise ValueError("Invalid variable aggregation mode: %s for variable: %s" % (value, name))


def _initial_tensor(initial_value, dtype):
    if isinstance(initial_value, Variable):
        initial_value = initial_value.read_value()
    if isinstance(initial_value, SymbolicTensor):
        # Created while tracing from graph ops: compute the value now, with no inputs fed.
        try:
            initial_value = initial_value.graph.evaluate(initial_value)
        except Exception as e:
            raise ValueError("A tf.Variable created inside a tf.function must have an initial value that "
                             "does not depend on the function's arguments: %s" % e) from None
    enum = 0 if dtype is None else dtypes.as_dtype(dtype).as_datatype_enum
    if isinstance(initial_value, Tensor):
        if enum and initial_value._dtype_enum != enum:
            return _core.to_tensor(initial_value.numpy(), enum)
        return initial_value
    return _core.to_tensor(initial_value, enum)


def _explicit_shape(shape, value_shape):
    """The `shape` argument of a Variable: may leave dims (or the rank) unknown, so that
    assignments can change them."""
    declared = TensorShape(shape)
    if not declared.is_compatible_with(value_shape):
        raise ValueError("In this `tf.Variable` creation, the initial value's shape (%s) is not compatible with "
                         "the explicitly supplied `shape` argument (%s)." % (value_shape, shape))
    return declared


def _assigned_tensor(variable, value):
    if isinstance(value, Variable):
        value = value.read_value()
    if not isinstance(value, Tensor):
        value = _core.to_tensor(value, variable.dtype.as_datatype_enum)
    shape = TensorShape(value.shape)
    if shape.rank is not None and not shape.is_compatible_with(variable.shape):
        raise ValueError("Cannot assign value to variable ' %s': Shape mismatch.The variable shape %s, and the "
                         "assigned value shape %s are incompatible." % (variable.name, variable.shape, shape))
    return value
