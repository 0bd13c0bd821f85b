"""The function-based and structural transformations of tf.data (flat_map, interleave, window,
scan, take_while, group_by_window, bucket_by_sequence_length, shard, unique, rebatch,
ignore_errors, assert_cardinality, get_single_element) and their tf.data.experimental names.
DatasetV2's methods forward here; the pipeline runs in C++ (nested_datasets.cc,
fn_transforms.cc, structural.cc)."""

import sys

from graphfn import _core
from graphfn import context
from graphfn.data import dataset_ops
from graphfn.data import nested
from graphfn.data import structure
from graphfn.data.dataset_ops import AUTOTUNE, DatasetSpec, DatasetV2, _int
from graphfn.data.traced import TracedFunction
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.ops import array_ops
from graphfn.util.tf_export import tf_export

_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def _op_error(wrapped_name, op_name, make, *args):
    """make(*args) with a C++ error reported as TF's eager op reports it."""
    try:
        return make(*args)
    except errors.OpError as e:
        raise type(e)(None, None, "{{function_node __wrapped__%s_device_%s}} %s [Op:%s] name: "
                      % (wrapped_name, _DEVICE, e.message, op_name)) from None


def _fn_name(fn, default):
    return getattr(fn, "__name__", default)


def flat_map(dataset, map_func):
    compiled, recipe, spec = nested.trace_dataset_function(
        map_func, dataset.element_spec, _fn_name(map_func, "flat_map_func"),
        lambda r: nested.returns_dataset_error("map_func", r))
    return _FlatMapDataset(_core.data_flat_map(dataset._node, compiled, recipe), spec)


def interleave(dataset, map_func, cycle_length, block_length, num_parallel_calls):
    cycle = AUTOTUNE if cycle_length is None else _int(cycle_length)
    block = 1 if block_length is None else _int(block_length)
    compiled, recipe, spec = nested.trace_dataset_function(
        map_func, dataset.element_spec, _fn_name(map_func, "interleave_func"),
        lambda r: nested.returns_dataset_error("map_func", r))
    parallel = None if num_parallel_calls is None else _int(num_parallel_calls)
    if parallel == 0:  # 0 means "sequential" to the C++ factory
        parallel = -2
    if parallel is None:
        node = _op_error("InterleaveDataset_Targuments_0", "InterleaveDataset", _core.data_interleave, dataset._node,
                         compiled, recipe, cycle, block, 0)
        return _InterleaveDataset(node, spec)
    node = _op_error("ParallelInterleaveDatasetV4_Targuments_0", "ParallelInterleaveDatasetV4", _core.data_interleave,
                     dataset._node, compiled, recipe, cycle, block, parallel)
    return _ParallelInterleaveDataset(node, spec)


def window(dataset, size, shift, stride, drop_remainder):
    size = _int(size)
    shift = size if shift is None else _int(shift)
    node = _op_error("WindowDataset", "WindowDataset", _core.data_window, dataset._node, size, shift, _int(stride),
                     bool(drop_remainder))
    return _WindowDataset(node, structure.map_structure(lambda s: DatasetSpec(s), dataset.element_spec))


def _as_tensor_or_none(value):
    return None if value is None else structure.to_tensors(value)


def scan(dataset, initial_state, scan_func):
    state = structure.to_tensors(initial_state)
    state_spec = structure.map_structure(structure.spec_of, state)
    flat_state = structure.flatten(state)
    # As TF: when the new state's shapes differ from the initial state's, trace again with the
    # shapes relaxed to what both fit.
    for _ in range(2):
        traced = TracedFunction(lambda s, e: scan_func(s, e), (state_spec, dataset.element_spec),
                                _fn_name(scan_func, "scan_func"))
        out = traced.output_spec
        if not (isinstance(out, tuple) and len(out) == 2):
            raise TypeError("Invalid `scan_func`. `scan_func` should return a pair consisting of new state and the "
                            "output value but its return type is %r." % (out,))
        new_state, output_spec = out
        if not structure.same_structure(state_spec, new_state):
            raise TypeError("Invalid `scan_func`. The element classes for the new state must match the initial state. "
                            "Expected %r, got %r." % (state_spec, new_state))
        old, new = structure.flatten(state_spec), structure.flatten(new_state)
        for a, b in zip(old, new):
            if a.dtype != b.dtype:
                raise TypeError("Invalid `scan_func`. The element types for the new state must match the initial "
                                "state. Expected <dtype: '%s'>, got <dtype: '%s'>." % (a.dtype.name, b.dtype.name))
        relaxed = [TensorSpec(structure.most_specific_common_shape(a.shape, b.shape), a.dtype) for a, b in zip(old, new)]
        if all(r.shape == a.shape for r, a in zip(relaxed, old)):
            break
        state_spec = structure.pack(state_spec, relaxed)
    return _ScanDataset(_core.data_scan(dataset._node, flat_state, traced.compiled), output_spec)


def take_while(dataset, predicate):
    traced = TracedFunction(predicate, dataset.element_spec, _fn_name(predicate, "predicate"))
    out = traced.output_spec
    if not (isinstance(out, TensorSpec) and out.dtype == dtypes.bool and out.shape.rank == 0):
        raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its return type "
                         "is%r." % (out,))
    return _TakeWhileDataset(_core.data_take_while(dataset._node, traced.compiled), dataset.element_spec)


def group_by_window(dataset, key_func, reduce_func, window_size, window_size_func):
    if (window_size is None) == (window_size_func is None):
        raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be specified.")
    spec = dataset.element_spec

    def key_as_int64(*args):
        return array_ops.convert_to_tensor(key_func(*args), dtype=dtypes.int64)

    key = TracedFunction(key_as_int64, spec, _fn_name(key_func, "key_func"))
    key_spec = TensorSpec([], dtypes.int64)

    def not_a_dataset(result):
        raise TypeError("Invalid `reduce_func`. `reduce_func` must return a single `tf.data.Dataset` object but its "
                        "return type is %s." % nested._spec_text(result))

    compiled, recipe, out_spec = nested.trace_dataset_function(
        reduce_func, (key_spec, DatasetSpec(spec)), _fn_name(reduce_func, "reduce_func"), not_a_dataset)
    size_fn = None
    size = 0
    if window_size_func is not None:
        size_fn = TracedFunction(lambda k: array_ops.convert_to_tensor(window_size_func(k), dtype=dtypes.int64),
                                 key_spec, _fn_name(window_size_func, "window_size_func")).compiled
    else:
        size = _int(window_size)
        if size <= 0:
            raise errors.InvalidArgumentError(None, None, "Window size must be greater than zero, but got %d." % size)
    node = _core.data_group_by_window(dataset._node, key.compiled, compiled, recipe, size, size_fn)
    return _GroupByWindowDataset(node, out_spec)


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
                              padding_values, pad_to_bucket_boundary, no_padding, drop_remainder):
    from graphfn.ops import math_ops, reduction_ops  # noqa: PLC0415 - only when bucketing
    boundaries = list(bucket_boundaries)
    sizes = list(bucket_batch_sizes)
    if len(sizes) != len(boundaries) + 1:
        raise ValueError("`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
                         "`len(bucket_batch_sizes)=%d` and `len(bucket_boundaries)=%d`." % (len(sizes), len(boundaries)))
    if boundaries != sorted(boundaries):
        raise ValueError("`bucket_boundaries` must be sorted in increasing order.")
    if pad_to_bucket_boundary:
        raise NotImplementedError("graphfn does not support bucket_by_sequence_length(pad_to_bucket_boundary=True) yet")
    int64_min, int64_max = -2 ** 63, 2 ** 63 - 1

    def key_func(*args):
        length = math_ops.cast(element_length_func(*args), dtypes.int64)
        lower = array_ops.constant([int64_min] + boundaries, dtype=dtypes.int64)
        upper = array_ops.constant(boundaries + [int64_max], dtype=dtypes.int64)
        inside = math_ops.logical_and(math_ops.less_equal(lower, length), math_ops.less(length, upper))
        return reduction_ops.reduce_min(array_ops.where(inside))

    def window_size_func(bucket):
        return array_ops.gather(array_ops.constant(sizes, dtype=dtypes.int64), bucket)

    def reduce_func(bucket, window):
        batch_size = window_size_func(bucket)
        if no_padding:
            return window.batch(batch_size, drop_remainder=drop_remainder)
        return window.padded_batch(batch_size, padded_shapes, padding_values, drop_remainder=drop_remainder)

    return group_by_window(dataset, key_func, reduce_func, None, window_size_func)


def shard(dataset, num_shards, index):
    node = _op_error("ShardDataset", "ShardDataset", _core.data_shard, dataset._node, _int(num_shards), _int(index))
    return _ShardDataset(node, dataset.element_spec)


def unique(dataset):
    specs = structure.flatten(dataset.element_spec)
    for s in specs:
        if not isinstance(s, TensorSpec) or s.dtype not in (dtypes.int32, dtypes.int64, dtypes.string):
            raise TypeError("`tf.data.Dataset.unique` does not support type <dtype: '%s'> -- only `tf.int32`, `tf.int64`, and "
                            "`tf.string` are supported." % (getattr(getattr(s, "dtype", None), "name", s),))
    if len(specs) != 1:
        raise errors.InvalidArgumentError(
            None, None, "{{function_node __wrapped__UniqueDataset_device_%s}} UniqueDataset only supports inputs with a "
            "single component. [Op:UniqueDataset] name: " % _DEVICE)
    return _UniqueDataset(_core.data_unique(dataset._node), dataset.element_spec)


def rebatch(dataset, batch_size, drop_remainder):
    for s in structure.flatten(dataset.element_spec):
        if s.shape.rank == 0:
            raise ValueError("Invalid `batch_sizes`. Expected dataset with rank of >= 1 but found a dataset with scalar "
                             "elements. Fix the issue by adding the `batch` transformation to the dataset.")
    sizes = array_ops.convert_to_tensor(batch_size, dtype=dtypes.int64)
    if sizes.shape.rank not in (0, 1):
        raise ValueError("Invalid `batch_size`. Expected a scalar or a vector, got shape %s." % (sizes.shape,))
    scalar = sizes.shape.rank == 0
    values = [int(v) for v in sizes.numpy().reshape(-1)]
    node = _op_error("RebatchDatasetV2", "RebatchDatasetV2", _core.data_rebatch, dataset._node, values,
                     bool(drop_remainder))
    dim = values[0] if scalar and drop_remainder else None
    spec = structure.map_structure(
        lambda s: TensorSpec(TensorShape([dim] + s.shape.as_list()[1:]) if s.shape.rank is not None else None, s.dtype),
        dataset.element_spec)
    return _RebatchDataset(node, spec)


def ignore_errors(dataset):
    return _IgnoreErrorsDataset(_core.data_ignore_errors(dataset._node), dataset.element_spec)


def get_single_element(dataset):
    if not context.executing_eagerly():
        raise NotImplementedError("graphfn does not support Dataset.get_single_element inside a tf.function yet: call it "
                                  "eagerly")
    spec = dataset.element_spec
    flat = _op_error("DatasetToSingleElement_output_types_%d" % len(structure.flatten(spec)), "DatasetToSingleElement",
                     _core.data_single_element, dataset._node)
    if nested.has_datasets(spec):
        flat = nested.element_datasets(spec, flat)
    return structure.pack(spec, flat)


# tf.data.experimental ------------------------------------------------------------------------

@tf_export("data.experimental.assert_cardinality")
def assert_cardinality(expected_cardinality):
    expected = _int(expected_cardinality)

    def apply(dataset):
        return _AssertCardinalityDataset(_core.data_assert_cardinality(dataset._node, expected), dataset.element_spec)

    return apply


@tf_export("data.experimental.ignore_errors")
def experimental_ignore_errors(log_warning=False):
    return lambda dataset: dataset.ignore_errors(log_warning)


@tf_export("data.experimental.get_single_element")
def experimental_get_single_element(dataset):
    if not isinstance(dataset, DatasetV2):
        raise TypeError("Invalid `dataset`. Expected a `tf.data.Dataset` object but got %s." % type(dataset))
    return dataset.get_single_element()


@tf_export("data.experimental.group_by_window")
def experimental_group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)


@tf_export("data.experimental.bucket_by_sequence_length")
def experimental_bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                                           padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                           no_padding=False, drop_remainder=False):
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes, padding_values,
        pad_to_bucket_boundary, no_padding, drop_remainder)


@tf_export("data.experimental.scan")
def experimental_scan(initial_state, scan_func):
    return lambda dataset: dataset.scan(initial_state, scan_func)


@tf_export("data.experimental.take_while")
def experimental_take_while(predicate):
    return lambda dataset: dataset.take_while(predicate)


@tf_export("data.experimental.unique")
def experimental_unique():
    return lambda dataset: dataset.unique()


@tf_export("data.experimental.cardinality")
def experimental_cardinality(dataset):
    """The dataset's cardinality, as `dataset.cardinality()`."""
    if not isinstance(dataset, DatasetV2):
        raise TypeError("Invalid `dataset`. Expected a `tf.data.Dataset` object but got %s." % type(dataset))
    return dataset.cardinality()


@tf_export("data.experimental.shuffle_and_repeat")
def experimental_shuffle_and_repeat(buffer_size, count=None, seed=None):
    """Deprecated in TF: `shuffle(buffer_size, seed)` then `repeat(count)`, each epoch reshuffled."""
    def apply(dataset):
        shuffled = dataset.shuffle(buffer_size, seed=seed).repeat(count)
        result = _ShuffleAndRepeatDataset(shuffled._node, shuffled.element_spec)
        result._options = shuffled._options
        return result

    return apply


# Reprs, as TF's classes ----------------------------------------------------------------------

class _FlatMapDataset(DatasetV2): pass  # noqa: E701
class _InterleaveDataset(DatasetV2): pass  # noqa: E701
class _ParallelInterleaveDataset(DatasetV2): pass  # noqa: E701
class _WindowDataset(DatasetV2): pass  # noqa: E701
class _ScanDataset(DatasetV2): pass  # noqa: E701
class _TakeWhileDataset(DatasetV2): pass  # noqa: E701
class _GroupByWindowDataset(DatasetV2): pass  # noqa: E701
class _ShardDataset(DatasetV2): pass  # noqa: E701
class _UniqueDataset(DatasetV2): pass  # noqa: E701
class _RebatchDataset(DatasetV2): pass  # noqa: E701
class _IgnoreErrorsDataset(DatasetV2): pass  # noqa: E701
class _AssertCardinalityDataset(DatasetV2): pass  # noqa: E701
class _ShuffleAndRepeatDataset(DatasetV2): pass  # noqa: E701


dataset_ops._Extensions.transformations = sys.modules[__name__]
