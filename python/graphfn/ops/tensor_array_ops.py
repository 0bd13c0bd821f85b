"""graphfn.TensorArray, as TF 2's: eagerly a Python list of tensors; while tracing a TensorList
(a `variant` scalar, the `flow`) that the TensorList* ops return updated copies of, so it can
be carried through graphfn.while_loop like any loop variable."""

from graphfn import context
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor import SymbolicTensor, Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import array_ops
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export
from graphfn import _core


def _shape_tensor(shape):
    """TF's encoding of an element shape: -1 for an unknown rank, else dims with -1 for unknown."""
    if shape.rank is None:
        return _core.to_tensor(-1, dtypes.int32.as_datatype_enum)
    return _core.to_tensor([-1 if d is None else d for d in shape.dims], dtypes.int32.as_datatype_enum)


def _merge(a, b):
    """The more specific of two compatible shapes."""
    if a.rank is None:
        return b
    if b.rank is None:
        return a
    return TensorShape([x if x is not None else y for x, y in zip(a.dims, b.dims)])


def _scoped(scope, op):
    """An op handle whose node is "<scope>/<op>", with `scope` made unique in the graph being
    traced like a TF name scope ("TensorArrayV2Write", "TensorArrayV2Write_1", ...); returns the
    handle and the scope (relative to the graph's own scope)."""
    graph = _core.current_graph()
    prefix = graph._name_scope
    unique = graph.unique_name(prefix + scope)[len(prefix):]
    return ops.named(op, unique + "/" + op), unique


def _shape_const(shape, scope):
    return array_ops.graph_constant(_shape_tensor(shape), scope + "/Const")


@tf_export("TensorArray")
class TensorArray:
    """A list of tensors of one dtype, written and read by index."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = infer_shape
        self._element_shape = TensorShape(element_shape)
        self._flow = flow
        self._items = None
        # A fixed, known size lets stack() give its static first dimension (TF's num_elements).
        self._size = size if isinstance(size, int) and not self._dynamic_size else None
        if flow is not None:
            return
        if context.executing_eagerly():
            self._items = [None] * int(size)
        else:
            self._flow = ops.named("TensorListReserve", "TensorArrayV2")(
                _shape_tensor(self._element_shape), size, element_dtype=self._dtype)

    # Properties ----------------------------------------------------------------------------------

    @property
    def dtype(self):
        return self._dtype

    @property
    def element_shape(self):
        return self._element_shape

    @property
    def dynamic_size(self):
        return self._dynamic_size

    @property
    def flow(self):
        """The TensorList this array is (graph mode)."""
        return self._flow

    @property
    def handle(self):
        return self._flow

    def _with_flow(self, flow, element_shape=None):
        """This array's settings around another TensorList (a loop's placeholder or output)."""
        out = TensorArray(self._dtype, dynamic_size=self._dynamic_size, infer_shape=self._infer_shape,
                          element_shape=self._element_shape if element_shape is None else element_shape, flow=flow)
        out._size = self._size
        return out

    def _merged_shape(self, value):
        shape = TensorShape(value.shape)
        if not self._infer_shape:
            return self._element_shape
        if not self._element_shape.is_compatible_with(shape):
            raise ValueError("Incompatible shape for value (%s), expected (%s)" % (shape, self._element_shape))
        return _merge(self._element_shape, shape)

    def _value(self, value):
        if hasattr(value, "__tf_tensor__"):
            value = value.__tf_tensor__()
        if isinstance(value, Tensor):
            return value
        try:
            return array_ops.graph_constant(_core.to_tensor(value, self._dtype.as_datatype_enum))
        except (TypeError, ValueError):
            return array_ops.graph_constant(_core.to_tensor(value))

    # Writing -------------------------------------------------------------------------------------

    def write(self, index, value, name=None):
        value = self._value(value)
        if value.dtype != self._dtype:
            raise errors.InvalidArgumentError(None, None, "TensorArray dtype is %s but Op is trying to write dtype %s "
                                              % (self._dtype.name, value.dtype.name))
        shape = self._merged_shape(value)
        if self._items is not None:
            index = int(index)
            if index >= len(self._items):
                if not self._dynamic_size:
                    raise errors.OutOfRangeError(None, None, "Tried to write to index %d but array is not resizeable "
                                                 "and size is: %d " % (index, len(self._items)))
                self._items.extend([None] * (index + 1 - len(self._items)))
            self._items[index] = value
            self._element_shape = shape
            return self
        set_item, _ = _scoped("TensorArrayV2Write", "TensorListSetItem")
        flow = set_item(self._flow, index, value, element_dtype=self._dtype,
                        resize_if_index_out_of_bounds=self._dynamic_size)
        # As TF, the written shape is merged into this array too (not only the returned one), so
        # `old = ta; ta = ta.write(i, x); old.stack()` knows the element shape.
        self._element_shape = shape
        return self._with_flow(flow, shape)

    def unstack(self, value, name=None):
        value = self._value(value)
        element = TensorShape(value.shape)[1:] if TensorShape(value.shape).rank else TensorShape(None)
        if self._items is not None:
            self._items = list(array_ops.unstack(value))
            self._element_shape = _merge(self._element_shape, element) if self._infer_shape else self._element_shape
            return self
        from_tensor, _ = _scoped("TensorArrayUnstack", "TensorListFromTensor")
        flow = from_tensor(value, _shape_tensor(self._element_shape), element_dtype=self._dtype)
        return self._with_flow(flow, _merge(self._element_shape, element) if self._infer_shape else None)

    def close(self, name=None):
        return None

    def mark_used(self):
        return None

    # Reading -------------------------------------------------------------------------------------

    def _zeros(self):
        if not self._element_shape.is_fully_defined():
            raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % self._element_shape)
        return array_ops.zeros(self._element_shape.as_list(), self._dtype)

    def read(self, index, name=None):
        if self._items is not None:
            index = int(index)
            if index < 0 or index >= len(self._items):
                raise errors.OutOfRangeError(None, None, "Tried to read from index %d but array size is: %d "
                                             % (index, len(self._items)))
            item = self._items[index]
            return self._zeros() if item is None else item
        get_item, scope = _scoped("TensorArrayV2Read", "TensorListGetItem")
        return get_item(self._flow, index, _shape_const(self._element_shape, scope), element_dtype=self._dtype)

    def stack(self, name=None):
        if self._items is not None:
            if not self._items:
                shape = [0] + (self._element_shape.as_list() if self._element_shape.is_fully_defined() else [])
                return array_ops.zeros(shape, self._dtype)
            return array_ops.stack([self._zeros() if item is None else item for item in self._items])
        stack, scope = _scoped("TensorArrayV2Stack", "TensorListStack")
        return stack(self._flow, _shape_const(self._element_shape, scope), element_dtype=self._dtype,
                     num_elements=-1 if self._size is None else self._size)

    def gather(self, indices, name=None):
        return array_ops.gather(self.stack(), indices)

    def size(self, name=None):
        if self._items is not None:
            return _core.to_tensor(len(self._items), dtypes.int32.as_datatype_enum)
        return ops.TensorListLength(self._flow)

    def __repr__(self):
        return "<graphfn.TensorArray object at 0x%x>" % id(self)


def to_flows(values):
    """Flat loop values with TensorArrays replaced by their flows (graph mode)."""
    return [v.flow if isinstance(v, TensorArray) else v for v in values]


def from_flows(templates, values, shapes=None):
    """The inverse of to_flows: TensorArrays (with `templates`' settings) around the flows."""
    out = []
    for i, (t, v) in enumerate(zip(templates, values)):
        if isinstance(t, TensorArray) and isinstance(v, SymbolicTensor):
            shape = shapes[i].element_shape if shapes is not None and isinstance(shapes[i], TensorArray) else None
            v = t._with_flow(v, shape)
        out.append(v)
    return out
