"""tf.data.Dataset: TensorFlow's API over the C++ pipeline runtime (docs/data.md). A dataset
holds its C++ node (_core.DatasetNode) and its element_spec (a nest of TensorSpecs); every
transformation builds a new node. Subclasses exist only for TF's reprs (<_BatchDataset ...>)."""

import operator
import os
import types

from graphfn import _core
from graphfn.data import iterator as iterator_ops
from graphfn.data import options as options_lib
from graphfn.data import structure
from graphfn.data.dataset_spec import DatasetSpec
from graphfn.data.traced import TracedFunction
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework import random_seed
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.ops import array_ops
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export

AUTOTUNE = -1
INFINITE = -1
UNKNOWN = -2
_INT64_MAX = 2 ** 63 - 1

tf_export("data.AUTOTUNE", "data.experimental.AUTOTUNE")(AUTOTUNE)
tf_export("data.INFINITE_CARDINALITY", "data.experimental.INFINITE_CARDINALITY")(INFINITE)
tf_export("data.UNKNOWN_CARDINALITY", "data.experimental.UNKNOWN_CARDINALITY")(UNKNOWN)


def _int(value):
    """A count or size argument as a Python int, with TF's errors for other values."""
    if isinstance(value, int) or hasattr(value, "__index__") and not isinstance(value, Tensor):
        return operator.index(value)
    if not isinstance(value, Tensor):
        value = array_ops.convert_to_tensor(value, dtype=dtypes.int64)  # raises TF's error for 'a', 2.5, None
    if not hasattr(value, "numpy"):
        raise NotImplementedError("graphfn builds datasets from known values: a count or size computed inside a "
                                  "tf.function (%s) is not supported yet" % (value,))
    return int(value.numpy())


class _Extensions:
    """Modules that build on this one and register here when imported (graphfn/__init__.py
    imports them): graphfn.data.nested (datasets built inside dataset functions) and
    graphfn.data.transformations (flat_map, interleave, window, ...)."""
    nested = None
    transformations = None


def _build(op_name, make, *args):
    """make(*args) with a C++ argument error reported as TF reports the dataset op's."""
    try:
        return make(*args)
    except errors.InvalidArgumentError as e:
        device = "/job:localhost/replica:0/task:0/device:CPU:0"
        raise errors.InvalidArgumentError(
            None, None, "{{function_node __wrapped__%s_device_%s}} %s [Op:%s] name: "
            % (op_name, device, e.message, op_name)) from None


@tf_export("data.Dataset")
class DatasetV2(CompositeTensor):
    """A sequence of elements, each a nest of tensors described by element_spec."""

    def __init__(self, node, element_spec):
        self._node = node
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    def __repr__(self):
        return "<%s element_spec=%r>" % (type(self).__name__, self._element_spec)

    # Iterating ---------------------------------------------------------------------------------

    def __iter__(self):
        return iterator_ops.OwnedIterator(self)

    def _graph_loop_source(self):
        """For AutoGraph's `for x in dataset` in a traced function: an iterator node of this
        dataset in the current graph, and two functions adding the nodes that ask whether an
        element follows (the loop's condition) and take it (the loop's body)."""
        if _Extensions.nested.has_datasets(self._element_spec):
            raise NotImplementedError("graphfn does not support looping over a dataset of datasets (window) inside a "
                                      "tf.function yet: flat_map the windows, or loop eagerly")
        iterator = ops.GraphfnDatasetIterator(self._variant_tensor)
        specs = structure.flatten(self._element_spec)
        types = [s.dtype for s in specs]
        shapes = [s.shape for s in specs]

        def has_next():
            return ops.GraphfnIteratorHasNext(iterator)

        def get_next():
            components = ops.GraphfnIteratorGetNext(iterator, output_types=types)
            components = list(components) if isinstance(components, (list, tuple)) else [components]
            for component, shape in zip(components, shapes):
                component.set_shape(shape)
            return structure.pack(self._element_spec, components)

        return has_next, get_next

    def as_numpy_iterator(self):
        return iterator_ops.NumpyIterator(self)

    def cardinality(self):
        return array_ops.constant(self._node.cardinality(), dtype=dtypes.int64)

    def __len__(self):
        n = self._node.cardinality()
        if n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self):
        return True  # as TF: a dataset is truthy even when empty (no __len__ call)

    def reduce(self, initial_state, reduce_func, name=None):
        state = structure.to_tensors(initial_state)
        state_spec = structure.map_structure(structure.spec_of, state)
        spec = (state_spec, self._element_spec)
        traced = TracedFunction(lambda s, e: reduce_func(s, e), spec, "reduce_func")
        final = _core.data_reduce(self._node, structure.flatten(state), traced.compiled)
        return structure.pack(traced.output_spec, final)

    # Sources -----------------------------------------------------------------------------------

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        value = structure.to_tensors(tensors)
        flat = structure.flatten(value)
        if not flat:
            raise ValueError("Invalid `element`. `element` should not be empty.")
        for t in flat:
            if t.shape.rank == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        for t in flat[1:]:
            if t.shape[0] != flat[0].shape[0]:
                raise ValueError("Dimensions %d and %d are not compatible" % (flat[0].shape[0], t.shape[0]))
        spec = structure.map_structure(lambda t: structure.spec_of(t, batched=True), value)
        return _Extensions.nested.tensors_source(_TensorSliceDataset, True, flat, spec)

    @staticmethod
    def from_tensors(tensors, name=None):
        value = structure.to_tensors(tensors)
        spec = structure.map_structure(structure.spec_of, value)
        return _Extensions.nested.tensors_source(_TensorDataset, False, structure.flatten(value), spec)

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None):
        if not 1 <= len(args) <= 3:
            raise ValueError("Invalid `args`. The length of `args` should be between 1 and 3 but was %d." % len(args))
        symbolic = _Extensions.nested.symbolic_range(args, dtypes.as_dtype(output_type))
        if symbolic is not None:
            return symbolic
        args = [_int(a) for a in args]
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (args + [1])[:3]
        output_type = dtypes.as_dtype(output_type)
        node = _build("RangeDataset", _core.data_range, start, stop, step, output_type.as_datatype_enum)
        return _RangeDataset(node, TensorSpec([], output_type))

    @staticmethod
    def zip(*args, datasets=None, name=None):
        if datasets is None:
            if not args:
                raise TypeError("Must pass at least one dataset to `zip`.")
            datasets = args[0] if len(args) == 1 else args
        elif args:
            raise TypeError("Both `*args` and `datasets` cannot be set.")
        for d in structure.flatten(datasets):
            if not isinstance(d, DatasetV2):
                raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                                "`tf.data.Dataset` objects." + (" Python `list` is not supported and you should "
                                                                 "use `tuple` instead." if isinstance(d, list) else ""))
        spec = structure.map_structure(lambda d: d.element_spec, datasets)
        symbolic = _Extensions.nested.symbolic_zip(datasets, spec)
        if symbolic is not None:
            return symbolic
        return _ZipDataset(_core.data_zip([d._node for d in structure.flatten(datasets)]), spec)

    # Transformations ---------------------------------------------------------------------------

    def concatenate(self, dataset, name=None):
        a, b = self._element_spec, dataset.element_spec
        compatible = structure.same_structure(a, b) and all(
            x.dtype == y.dtype for x, y in zip(structure.flatten(a), structure.flatten(b)))
        if not compatible:
            raise TypeError("Incompatible dataset elements:\n  %r vs.   %r" % (a, b))
        common = structure.pack(a, [TensorSpec(structure.most_specific_common_shape(x.shape, y.shape), x.dtype)
                                    for x, y in zip(structure.flatten(a), structure.flatten(b))])
        return _ConcatenateDataset(_core.data_concatenate(self._node, dataset._node), common)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        traced = TracedFunction(map_func, self._element_spec, getattr(map_func, "__name__", "map_func"))
        workers = 0 if num_parallel_calls is None else _int(num_parallel_calls)
        if workers < -1 or workers == 0 and num_parallel_calls is not None:
            raise ValueError("num_parallel_calls must be a positive integer or tf.data.AUTOTUNE, got %d" % workers)
        node = _core.data_map(self._node, traced.compiled, workers)
        cls = _MapDataset if num_parallel_calls is None else _ParallelMapDataset
        return cls(node, traced.output_spec)

    def filter(self, predicate, name=None):
        traced = TracedFunction(predicate, self._element_spec, getattr(predicate, "__name__", "predicate"))
        out = traced.output_spec
        if not (isinstance(out, TensorSpec) and out.dtype == dtypes.bool and out.shape.rank == 0):
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its "
                             "return type is %r." % (out,))
        return _FilterDataset(_core.data_filter(self._node, traced.compiled), self._element_spec)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        size = _int(batch_size)
        node = _build("BatchDatasetV2", _core.data_batch, self._node, size, bool(drop_remainder))
        dim = size if drop_remainder else None
        spec = structure.map_structure(lambda s: TensorSpec(_batched_shape(dim, s.shape), s.dtype),
                                       self._element_spec)
        return _BatchDataset(node, spec)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        specs = structure.flatten(self._element_spec)
        if padded_shapes is None:
            for s in specs:
                if s.shape.rank is None:
                    raise ValueError("You must provide `padded_shapes` argument because component %s has unknown "
                                     "rank." % (s,))
            shapes = [s.shape for s in specs]
        else:
            shapes = [TensorShape(s) for s in structure.flatten(
                structure.map_structure(lambda s: TensorShape(s), _shapes_as_structure(padded_shapes)))]
            for shape, s in zip(shapes, specs):
                known = s.shape
                if known.rank is not None and (shape.rank != known.rank or any(
                        a is not None and b is not None and a < b for a, b in zip(shape.as_list(), known.as_list()))):
                    raise ValueError("The padded shape %s is not compatible with the shape %s of the corresponding "
                                     "input component." % (tuple(shape.as_list()), tuple(known.as_list())))
        if padding_values is None:
            values = [array_ops.constant("" if s.dtype == dtypes.string else 0, dtype=s.dtype) for s in specs]
        else:
            values = [array_ops.convert_to_tensor(v, dtype=s.dtype)
                      for v, s in zip(structure.flatten(padding_values), specs)]
        size = _int(batch_size)
        node = _build("PaddedBatchDatasetV2", _core.data_padded_batch, self._node, size, bool(drop_remainder),
                      [[-1 if d is None else d for d in s.as_list()] for s in shapes], values)
        dim = size if drop_remainder else None
        spec = structure.pack(self._element_spec, [TensorSpec(_batched_shape(dim, shape), s.dtype)
                                                   for shape, s in zip(shapes, specs)])
        return _PaddedBatchDataset(node, spec)

    def unbatch(self, name=None):
        for s in structure.flatten(self._element_spec):
            if s.shape.rank == 0:
                raise ValueError("Cannot unbatch an input with scalar components.")
        spec = structure.map_structure(
            lambda s: TensorSpec(s.shape[1:] if s.shape.rank is not None else None, s.dtype), self._element_spec)
        return _UnbatchDataset(_core.data_unbatch(self._node), spec)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        seed, seed2 = random_seed.get_seed(seed)
        if seed is None:  # unseeded: a new order each time the program runs, as TF
            seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
        node = _build("ShuffleDatasetV3", _core.data_shuffle, self._node, _int(buffer_size), seed, seed2,
                      bool(reshuffle_each_iteration))
        return _ShuffleDataset(node, self._element_spec)

    def repeat(self, count=None, name=None):
        count = -1 if count is None else _int(count)
        return _RepeatDataset(_core.data_repeat(self._node, count), self._element_spec)

    def take(self, count, name=None):
        return _TakeDataset(_core.data_take(self._node, _int(count)), self._element_spec)

    def skip(self, count, name=None):
        return _SkipDataset(_core.data_skip(self._node, _int(count)), self._element_spec)

    def prefetch(self, buffer_size, name=None):
        node = _build("PrefetchDataset", _core.data_prefetch, self._node, _int(buffer_size))
        return _PrefetchDataset(node, self._element_spec)

    def enumerate(self, start=0, name=None):
        counter = DatasetV2.range(_int(start), _INT64_MAX)
        return DatasetV2.zip((counter, self))

    def apply(self, transformation_func):
        return transformation_func(self)

    # Sources, files, cache and options (dssrc) -------------------------------------------------
    # Helpers: graphfn/data/generator.py, readers.py, selection.py, options.py.

    _options = None  # the tf.data.Options set on this dataset or an input (see _keep_options below)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None):
        from graphfn.data import generator as generator_lib  # lazily: it imports numpy

        node, spec = generator_lib.from_generator(generator, output_types, output_shapes, args, output_signature)
        return _FlatMapDataset(node, spec)

    # These five live in readers.py, selection.py and saving.py, which import this module and fill
    # _SOURCES when graphfn is imported (importing them from here would be an import cycle).

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        return _SOURCES["list_files"](file_pattern, shuffle, seed)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        return _SOURCES["choose_from_datasets"](datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        return _SOURCES["sample_from_datasets"](datasets, weights, seed, stop_on_empty_dataset)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        return _SOURCES["counter"](start, step, dtype)

    def cache(self, filename="", name=None):
        if isinstance(filename, Tensor):
            filename = filename.numpy()
        if isinstance(filename, bytes):
            filename = filename.decode()
        if not isinstance(filename, str):
            array_ops.convert_to_tensor(filename, dtype=dtypes.string)  # TF's TypeError for 3, None, ...
        types = [s.dtype.as_datatype_enum for s in structure.flatten(self._element_spec)]
        return _CacheDataset(_core.data_cache(self._node, filename, types), self._element_spec)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        _SOURCES["save"](self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None):
        node, spec = _SOURCES["load"](path, element_spec, compression, reader_func)
        return _LoadDataset(node, spec)

    def with_options(self, options, name=None):
        if not isinstance(options, options_lib.Options):
            raise AttributeError("'%s' object has no attribute '_to_proto'" % type(options).__name__)
        result = _OptionsDataset(self._node, self._element_spec)
        result._options = options if self._options is None else self._options.merge(options)
        return result

    def options(self):
        return options_lib.Options() if self._options is None else self._options.merge(options_lib.Options())


    # dsfn: function-based and structural transformations (python/graphfn/data/transformations.py,
    # nested.py) ----------------------------------------------------------------------------------

    def flat_map(self, map_func, name=None):
        return _Extensions.transformations.flat_map(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        return _Extensions.transformations.interleave(self, map_func, cycle_length, block_length, num_parallel_calls)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        return _Extensions.transformations.window(self, size, shift, stride, drop_remainder)

    def scan(self, initial_state, scan_func, name=None):
        return _Extensions.transformations.scan(self, initial_state, scan_func)

    def take_while(self, predicate, name=None):
        return _Extensions.transformations.take_while(self, predicate)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        return _Extensions.transformations.group_by_window(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        return _Extensions.transformations.bucket_by_sequence_length(
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes, padding_values,
            pad_to_bucket_boundary, no_padding, drop_remainder)

    def shard(self, num_shards, index, name=None):
        return _Extensions.transformations.shard(self, num_shards, index)

    def unique(self, name=None):
        return _Extensions.transformations.unique(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        return _Extensions.transformations.rebatch(self, batch_size, drop_remainder)

    def ignore_errors(self, log_warning=False, name=None):
        return _Extensions.transformations.ignore_errors(self)

    def get_single_element(self, name=None):
        return _Extensions.transformations.get_single_element(self)

    # dsfit: datasets as tf.function arguments (dataset_spec.py) ----------------------------------

    @property
    def _variant_tensor(self):
        """The dataset as a scalar resource tensor: what a function's dataset parameter is fed
        (TF's name for a dataset's variant)."""
        return self._node.as_tensor()

    @property
    def _type_spec(self):
        return DatasetSpec(self._element_spec)


def _batched_shape(dim, shape):
    return TensorShape(None) if shape.rank is None else TensorShape([dim] + shape.as_list())


def _shapes_as_structure(padded_shapes):
    """padded_shapes with each shape (a list, tuple of ints or TensorShape) made a TensorShape leaf,
    so that tuples of shapes and shapes given as tuples are told apart."""
    if isinstance(padded_shapes, TensorShape) or isinstance(padded_shapes, list):
        return TensorShape(padded_shapes)
    if isinstance(padded_shapes, tuple) and all(d is None or isinstance(d, int) for d in padded_shapes):
        return TensorShape(list(padded_shapes))
    if isinstance(padded_shapes, tuple):
        return tuple(_shapes_as_structure(s) for s in padded_shapes)
    if isinstance(padded_shapes, dict):
        return {k: _shapes_as_structure(v) for k, v in padded_shapes.items()}
    return TensorShape(padded_shapes)


class _TensorSliceDataset(DatasetV2): pass  # noqa: E701
class _TensorDataset(DatasetV2): pass  # noqa: E701
class _RangeDataset(DatasetV2): pass  # noqa: E701
class _ZipDataset(DatasetV2): pass  # noqa: E701
class _ConcatenateDataset(DatasetV2): pass  # noqa: E701
class _MapDataset(DatasetV2): pass  # noqa: E701
class _ParallelMapDataset(DatasetV2): pass  # noqa: E701
class _FilterDataset(DatasetV2): pass  # noqa: E701
class _BatchDataset(DatasetV2): pass  # noqa: E701
class _PaddedBatchDataset(DatasetV2): pass  # noqa: E701
class _UnbatchDataset(DatasetV2): pass  # noqa: E701
class _ShuffleDataset(DatasetV2): pass  # noqa: E701
class _RepeatDataset(DatasetV2): pass  # noqa: E701
class _TakeDataset(DatasetV2): pass  # noqa: E701
class _SkipDataset(DatasetV2): pass  # noqa: E701
class _PrefetchDataset(DatasetV2): pass  # noqa: E701
# Sources implemented in modules that import this one (readers.py, selection.py, saving.py).
_SOURCES = {}


class _FlatMapDataset(DatasetV2): pass  # noqa: E701
class _CacheDataset(DatasetV2): pass  # noqa: E701
class _OptionsDataset(DatasetV2): pass  # noqa: E701
class _LoadDataset(DatasetV2): pass  # noqa: E701
_CacheDataset.__name__ = _CacheDataset.__qualname__ = "CacheDataset"  # TF's repr: <CacheDataset element_spec=...>


def _input_datasets(values):
    """The datasets among a call's arguments (nested in tuples, lists and dicts too), in order."""
    found = []
    for v in values:
        if isinstance(v, DatasetV2):
            found.append(v)
        elif isinstance(v, (tuple, list)):
            found.extend(_input_datasets(v))
        elif isinstance(v, dict):
            found.extend(_input_datasets(list(v.values())))
    return found


def _keep_options(method):
    """A transformation (or source of several datasets) whose result carries the options of its
    inputs, merged in order (TF: options set anywhere upstream apply to the whole pipeline)."""
    def transformation(*args, **kwargs):
        result = method(*args, **kwargs)
        if isinstance(result, DatasetV2) and result._options is None:
            for d in _input_datasets(list(args) + list(kwargs.values())):
                if d is not result and d._options is not None:
                    result._options = d._options if result._options is None else result._options.merge(d._options)
        return result

    transformation.__name__ = method.__name__
    transformation.__qualname__ = method.__qualname__
    transformation.__doc__ = method.__doc__
    transformation.__wrapped__ = method
    return transformation


for _name, _member in list(vars(DatasetV2).items()):
    if _name.startswith("_") or _name in ("with_options", "options"):
        continue
    if isinstance(_member, staticmethod):
        setattr(DatasetV2, _name, staticmethod(_keep_options(_member.__func__)))
    elif isinstance(_member, types.FunctionType):
        setattr(DatasetV2, _name, _keep_options(_member))



class _VariantDataset(DatasetV2):
    """The dataset a traced function receives as an argument: its graph input tensor and the
    element spec it was traced for. Loops (`for x in ds`) run over it; the pipeline itself is
    only known at call time, so it cannot be transformed inside the function."""

    def __init__(self, variant, element_spec):
        super().__init__(None, element_spec)
        self._variant = variant

    @property
    def _variant_tensor(self):
        return self._variant

    def reduce(self, initial_state, reduce_func, name=None):
        """In the traced function: a graph While over the argument dataset's iterator, the state
        carried as loop variables (reduce_func runs once, while tracing)."""
        from graphfn.ops import control_flow_ops  # loaded when a function is traced, not at import
        state = structure.to_tensors(initial_state)
        has_next, get_next = self._graph_loop_source()

        def body(*flat_state):
            new_state = structure.to_tensors(reduce_func(structure.pack(state, list(flat_state)), get_next()))
            if not structure.same_structure(state, new_state):
                raise TypeError("The element types for the new state must match the initial state. Expected %s; "
                                "got %s." % (structure.map_structure(structure.spec_of, state),
                                             structure.map_structure(structure.spec_of, new_state)))
            return structure.flatten(new_state)

        final = control_flow_ops.while_loop(lambda *flat_state: has_next(), body, structure.flatten(state))
        final = list(final) if isinstance(final, (list, tuple)) else [final]
        return structure.pack(state, final)

    @property
    def _node(self):
        raise NotImplementedError(
            "graphfn cannot yet transform, reduce or measure a tf.data.Dataset that a tf.function receives as "
            "an argument (only `for x in dataset` runs over it inside the function): build the pipeline "
            "outside the function and pass the result in")

    @_node.setter
    def _node(self, value):
        pass  # DatasetV2.__init__ sets it; the argument dataset has no node while tracing


DatasetSpec._value_type = DatasetV2
DatasetSpec._argument_type = _VariantDataset
