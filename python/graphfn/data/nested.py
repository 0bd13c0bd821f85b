"""Functions that return a dataset (flat_map, interleave, group_by_window) and datasets as
elements (window). docs/data.md, "Functions returning datasets", explains the design.

The function is traced once. While it runs, a dataset built from the function's tensors (its
element, or values computed from it) is a SymbolicDataset: instead of a C++ node it holds a
C++ DatasetRecipe, which records the constructors and transformations the user called and reads
its tensor arguments from slots, outputs of the traced function. Per input element, the C++
runtime calls the compiled function and builds the dataset from the recipe: no Python."""

import sys
import threading

from graphfn import _core
from graphfn import context
from graphfn.data import dataset_ops
from graphfn.data import iterator as iterator_ops
from graphfn.data import structure
from graphfn.data.dataset_ops import DatasetSpec, DatasetV2, _batched_shape, _int
from graphfn.data.traced import TracedFunction
from graphfn.framework import dtypes
from graphfn.framework.tensor import SymbolicTensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.function import polymorphic_function
from graphfn.ops import array_ops

_recording = threading.local()  # .stack: the _Slots of the dataset functions being traced


class _Slots:
    """The tensors a recipe reads: they become the traced function's outputs, in this order."""

    def __init__(self):
        self.tensors = []

    def slot(self, tensor):
        for i, t in enumerate(self.tensors):
            if t is tensor:
                return i
        self.tensors.append(tensor)
        return len(self.tensors) - 1


def _slots():
    stack = getattr(_recording, "stack", None)
    return stack[-1] if stack else None


def recording():
    """Whether a function returning a dataset is being traced (and its graph is current)."""
    return _slots() is not None and not context.executing_eagerly()


def _symbolic(value):
    return isinstance(value, SymbolicTensor)


def _count(value):
    """A count or size argument: (constant, -1), or (0, slot) for a tensor of the function."""
    if _symbolic(value):
        return 0, _slots().slot(array_ops.cast(value, dtypes.int64) if value.dtype != dtypes.int64 else value)
    return _int(value), -1


def recipe_of(dataset):
    if isinstance(dataset, SymbolicDataset):
        return dataset._recipe
    return _core.data_recipe_fixed(dataset._node)


# Sources with the function's tensors (hooks in DatasetV2.from_tensor_slices, from_tensors,
# range, zip) ----------------------------------------------------------------------------------

def tensors_source(cls, slices, flat, spec):
    """cls(node, spec), or, while recording with a tensor of the function, a SymbolicDataset."""
    if recording() and any(_symbolic(t) for t in flat):
        slots = [_slots().slot(t) for t in flat]
        recipe = _core.data_recipe_tensor_slices(slots) if slices else _core.data_recipe_tensors(slots)
        return SymbolicDataset(recipe, spec)
    node = _core.data_tensor_slices(flat) if slices else _core.data_tensors(flat)
    return cls(node, spec)


def symbolic_range(args, output_type):
    if not recording() or not any(_symbolic(a) for a in args):
        return None
    tensors = [array_ops.convert_to_tensor(a, dtype=dtypes.int64) if not _symbolic(a) or a.dtype != dtypes.int64
               else a for a in args]
    start, stop, step = ([array_ops.constant(0, dtypes.int64)] + tensors + [array_ops.constant(1, dtypes.int64)])[:3] \
        if len(tensors) == 1 else (tensors + [array_ops.constant(1, dtypes.int64)])[:3]
    recipe = _core.data_recipe_range(_slots().slot(start), _slots().slot(stop), _slots().slot(step),
                                     output_type.as_datatype_enum)
    return SymbolicDataset(recipe, TensorSpec([], output_type))


def symbolic_zip(datasets, spec):
    flat = structure.flatten(datasets)
    if not any(isinstance(d, SymbolicDataset) for d in flat):
        return None
    return SymbolicDataset(_core.data_recipe_zip([recipe_of(d) for d in flat]), spec)


# Tracing a function that returns a dataset ---------------------------------------------------

def trace_dataset_function(fn, input_spec, name, check_result):
    """fn traced for elements of input_spec; returns (compiled, recipe, element_spec of the
    returned datasets). check_result(value) raises TF's error when fn returns no dataset."""
    flat_specs = structure.flatten(input_spec)
    signature = [TensorSpec([], dtypes.resource) if isinstance(s, DatasetSpec) else s for s in flat_specs]
    traced = {}

    def flat_function(tensors):
        slots = _Slots()
        stack = _recording.__dict__.setdefault("stack", [])
        stack.append(slots)
        try:
            leaves = [SymbolicDataset(_core.data_recipe_value(slots.slot(t)), s.element_spec)
                      if isinstance(s, DatasetSpec) else t for t, s in zip(tensors, flat_specs)]
            element = structure.pack(input_spec, leaves)
            if isinstance(element, tuple) and not hasattr(type(element), "_fields"):
                result = fn(*element)
            else:
                result = fn(element)
            if not isinstance(result, DatasetV2):
                check_result(result)
            traced["recipe"] = recipe_of(result)
            traced["spec"] = result.element_spec
            return list(slots.tensors)
        finally:
            stack.pop()

    function = polymorphic_function.Function(flat_function, name=name, input_signature=[signature])
    concrete = function.get_concrete_function()
    return concrete._function, traced["recipe"], traced["spec"]


def element_datasets(spec, flat):
    """The leaves of an element with each dataset component (a resource tensor) made a Dataset."""
    return [_VariantDataset(_core.data_of_tensor(t), s.element_spec) if isinstance(s, DatasetSpec) else t
            for t, s in zip(flat, structure.flatten(spec))]


def has_datasets(spec):
    return any(isinstance(s, DatasetSpec) for s in structure.flatten(spec))


class _VariantDataset(DatasetV2):
    """A dataset received as an element (a window, a group), as TF's _VariantDataset."""


# Symbolic datasets ---------------------------------------------------------------------------

_UNSUPPORTED = ("shuffle", "interleave", "scan", "take_while", "group_by_window", "bucket_by_sequence_length",
                "unique", "rebatch", "ignore_errors", "reduce", "as_numpy_iterator", "get_single_element",
                "cardinality", "__iter__", "__len__", "_graph_loop_source")


class SymbolicDataset(DatasetV2):
    """A dataset built inside a function that returns a dataset, from the function's tensors: a
    recipe the C++ runtime builds per element (see the module docstring)."""

    def __init__(self, recipe, element_spec):  # no C++ node: DatasetV2.__init__ is not called
        self._recipe = recipe
        self._element_spec = element_spec

    @property
    def _node(self):
        raise NotImplementedError(
            "graphfn cannot use a dataset built from a function's element here yet: inside flat_map, interleave and "
            "group_by_window functions, such datasets support from_tensor_slices, from_tensors, range, zip, batch, "
            "padded_batch, unbatch, map, filter, flat_map, window, shard, repeat, take, skip, prefetch, concatenate "
            "and enumerate")

    def _derived(self, recipe, element_spec):
        return SymbolicDataset(recipe, element_spec)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        size, slot = _count(batch_size)
        if slot < 0 and size <= 0:
            DatasetV2.batch(_placeholder(self._element_spec), size, drop_remainder)  # TF's error
        dim = size if drop_remainder and slot < 0 else None
        spec = structure.map_structure(lambda s: TensorSpec(_batched_shape(dim, s.shape), s.dtype), self._element_spec)
        return self._derived(_core.data_recipe_batch(self._recipe, size, slot, bool(drop_remainder)), spec)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        size, slot = _count(batch_size)
        with context.init_scope():  # argument checks, shapes and padding values, eagerly
            shadow = DatasetV2.padded_batch(_placeholder(self._element_spec), size if slot < 0 else 1, padded_shapes,
                                            padding_values, drop_remainder)
            specs = structure.flatten(shadow.element_spec)
            shapes = [[-1 if d is None else d for d in s.shape.as_list()[1:]] for s in specs]
            if padding_values is None:
                values = [array_ops.constant("" if s.dtype == dtypes.string else 0, dtype=s.dtype) for s in specs]
            else:
                values = [array_ops.convert_to_tensor(v, dtype=s.dtype)
                          for v, s in zip(structure.flatten(padding_values), specs)]
        padding_slots = [_slots().slot(v) for v in values]
        spec = shadow.element_spec if slot < 0 else structure.map_structure(
            lambda s: TensorSpec(TensorShape([None] + s.shape.as_list()[1:]), s.dtype), shadow.element_spec)
        recipe = _core.data_recipe_padded_batch(self._recipe, size, slot, bool(drop_remainder), shapes, padding_slots)
        return self._derived(recipe, spec)

    def unbatch(self, name=None):
        spec = DatasetV2.unbatch(_placeholder(self._element_spec)).element_spec
        return self._derived(_core.data_recipe_unbatch(self._recipe), spec)

    def _counted(self, kind, count):
        value, slot = _count(count)
        return self._derived(_core.data_recipe_count(kind, self._recipe, value, slot), self._element_spec)

    def repeat(self, count=None, name=None):
        return self._counted("repeat", -1 if count is None else count)

    def take(self, count, name=None):
        return self._counted("take", count)

    def skip(self, count, name=None):
        return self._counted("skip", count)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        traced = TracedFunction(map_func, self._element_spec, getattr(map_func, "__name__", "map_func"))
        workers = 0 if num_parallel_calls is None else _int(num_parallel_calls)
        return self._derived(_core.data_recipe_map(self._recipe, traced.compiled, workers), traced.output_spec)

    def filter(self, predicate, name=None):
        traced = TracedFunction(predicate, self._element_spec, getattr(predicate, "__name__", "predicate"))
        out = traced.output_spec
        if not (isinstance(out, TensorSpec) and out.dtype == dtypes.bool and out.shape.rank == 0):
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its "
                             "return type is %r." % (out,))
        return self._derived(_core.data_recipe_filter(self._recipe, traced.compiled), self._element_spec)

    def flat_map(self, map_func, name=None):
        compiled, recipe, spec = trace_dataset_function(map_func, self._element_spec, "flat_map_func",
                                                        lambda r: returns_dataset_error("map_func", r))
        return self._derived(_core.data_recipe_flat_map(self._recipe, compiled, recipe), spec)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        size = _int(size)
        shift = size if shift is None else _int(shift)
        stride = _int(stride)
        spec = structure.map_structure(lambda s: DatasetSpec(s), self._element_spec)
        return self._derived(_core.data_recipe_window(self._recipe, size, shift, stride, bool(drop_remainder)), spec)

    def shard(self, num_shards, index, name=None):
        return self._derived(_core.data_recipe_shard(self._recipe, _int(num_shards), _int(index)), self._element_spec)

    def prefetch(self, buffer_size, name=None):
        return self._derived(_core.data_recipe_prefetch(self._recipe, _int(buffer_size)), self._element_spec)

    def concatenate(self, dataset, name=None):
        spec = DatasetV2.concatenate(_placeholder(self._element_spec), _placeholder(dataset.element_spec)).element_spec
        return self._derived(_core.data_recipe_concatenate(self._recipe, recipe_of(dataset)), spec)

    def __repr__(self):
        return "<SymbolicDataset element_spec=%r>" % (self._element_spec,)


def _unsupported(method):
    def raise_unsupported(self, *args, **kwargs):
        raise NotImplementedError(
            "graphfn does not support Dataset.%s on a dataset built from a function's element (inside flat_map, "
            "interleave or group_by_window) yet" % method)
    return raise_unsupported


for _method in _UNSUPPORTED:
    setattr(SymbolicDataset, _method, _unsupported(_method))


def _placeholder(element_spec):
    """A real dataset with element_spec (and no elements): DatasetV2's argument checks and
    element_spec rules run on it, for the symbolic dataset of the same spec."""
    return DatasetV2(_core.data_tensors([]), element_spec)


def returns_dataset_error(what, result):
    raise TypeError("Invalid `%s`. `%s` must return a `tf.data.Dataset` object but its return type is %s."
                    % (what, what, _spec_text(result)))


def _spec_text(value):
    try:
        return repr(structure.map_structure(structure.spec_of, structure.to_tensors(value)))
    except Exception:  # noqa: BLE001 - any value: show its type
        return repr(type(value))


dataset_ops._Extensions.nested = sys.modules[__name__]
iterator_ops.nested = sys.modules[__name__]
