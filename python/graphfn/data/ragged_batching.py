"""Ragged elements in tf.data: Dataset.from_tensor_slices of a RaggedTensor, Dataset.batch of
ragged elements, Dataset.ragged_batch and tf.data.experimental.dense_to_ragged_batch.

TF batches ragged elements through variant tensors; graphfn's runtime carries an element as its
flat component tensors (structure.py), so a batch of ragged elements is made of dense steps:
each element becomes its components plus their lengths, PaddedBatch stacks them (padding the
ragged lengths), and a map cuts the padding off and joins the row partitions into one
RaggedTensor of one more ragged dimension. Element specs are TF's (RaggedTensorSpec._batch)."""

import copy
import sys

from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.data import structure
from graphfn.data.dataset_ops import DatasetV2
from graphfn.ops import ragged_dense as dense
from graphfn.ops.shape_index import sequence_mask
from graphfn.ops.slicing import boolean_mask
from graphfn.util.tf_export import tf_export


def _ragged_module():
    import graphfn.ops.ragged  # noqa: F401,PLC0415 (loads RaggedTensor with its methods, on first use)
    return sys.modules["graphfn.ops.ragged_tensor"]


def _is_ragged_spec(spec):
    module = sys.modules.get("graphfn.ops.ragged_tensor")
    return module is not None and isinstance(spec, module.RaggedTensorSpec)


def _is_ragged(value):
    module = sys.modules.get("graphfn.ops.ragged_tensor")
    return module is not None and isinstance(value, module.RaggedTensor)


def _with_spec(dataset, spec):
    """`dataset` with `spec` as its element spec (the flat components are unchanged)."""
    result = copy.copy(dataset)
    result._element_spec = spec
    return result


# Dataset.from_tensor_slices ---------------------------------------------------------------------

def from_tensor_slices_with_ragged(tensors):
    """The dataset of the rows of `tensors` (a structure with RaggedTensor leaves): row i of a
    ragged leaf is its ragged_rank-1 slice (a Tensor when ragged_rank is 1)."""
    value = structure.to_tensors(tensors)
    ragged = _ragged_module()
    nrows = [int(v.nrows()) if isinstance(v, ragged.RaggedTensor) else int(dense.shape(v)[0]) for v in _leaves(value)]
    for n in nrows[1:]:
        if n != nrows[0]:
            raise ValueError("Dimensions %d and %d are not compatible" % (nrows[0], n))
    spec = structure.map_structure(
        lambda v: v._type_spec._unbatch() if isinstance(v, ragged.RaggedTensor) else structure.spec_of(v, batched=True),
        value)
    rows = DatasetV2.range(nrows[0]).map(lambda i: structure.map_structure(lambda v: v[i], value))
    return _with_spec(rows, spec)


def _leaves(value):
    """The leaves of an element (RaggedTensors whole)."""
    found = []
    structure.map_structure(found.append, value)
    return found


# Batching ---------------------------------------------------------------------------------------

def _to_ragged_spec(spec, row_splits_dtype):
    """TF's dense_to_ragged rule: a tensor whose shape is not fully known becomes ragged up to
    its last unknown dimension; other leaves stay as they are."""
    if not isinstance(spec, TensorSpec) or spec.shape.rank is None or spec.shape.is_fully_defined():
        return spec
    ragged_rank = max(axis for axis, size in enumerate(spec.shape.as_list()) if size is None)
    return _ragged_module().RaggedTensorSpec(spec.shape, spec.dtype, ragged_rank, row_splits_dtype)


def _encode(spec, value):
    """A leaf as the tensors PaddedBatch stacks: for a ragged leaf, its flat values and row
    splits with their lengths, and its number of rows."""
    if not _is_ragged_spec(spec):
        return value
    ragged = _ragged_module()
    if spec.ragged_rank > 0 and not isinstance(value, ragged.RaggedTensor):
        value = ragged.RaggedTensor.from_tensor(value, ragged_rank=spec.ragged_rank,
                                                row_splits_dtype=spec.row_splits_dtype)
    if isinstance(value, ragged.RaggedTensor):
        parts = [value.flat_values] + list(value.nested_row_splits)
        nrows = dense.cast(value.nrows(), dtypes.int64)
    else:
        parts = [value]
        nrows = dense.shape(value, out_type=dtypes.int64)[0]
    lengths = [dense.shape(p, out_type=dtypes.int64)[0] for p in parts]
    return (nrows, tuple(parts), tuple(lengths))


def _decode(spec, encoded):
    """The batched RaggedTensor of a padded batch of `_encode`d leaves."""
    if not _is_ragged_spec(spec):
        return encoded
    ragged = _ragged_module()
    nrows, parts, lengths = encoded
    splits_dtype = spec.row_splits_dtype
    outer = dense.concat([dense.zeros([1], dtypes.int64), dense.cumsum(nrows)], axis=0)
    nested = [dense.cast(outer, splits_dtype)]
    for splits, length in zip(parts[1:], lengths[1:]):
        splits = dense.cast(splits, dtypes.int64)
        width = dense.shape(splits, out_type=dtypes.int64)[1]
        # Element b's splits count from 0; shifted by the values of the elements before it.
        last = dense.reduce_max(dense.where(sequence_mask(length, width), splits, dense.zeros_like(splits)), axis=1)
        shift = dense.cumsum(last, exclusive=True)
        keep = dense.logical_and(sequence_mask(length, width),
                                 dense.greater(dense.range(width, dtype=dtypes.int64), 0))
        joined = boolean_mask(splits + dense.expand_dims(shift, 1), keep)
        nested.append(dense.cast(dense.concat([dense.zeros([1], dtypes.int64), joined], axis=0), splits_dtype))
    values = parts[0]
    values = boolean_mask(values, sequence_mask(lengths[0], dense.shape(values, out_type=dtypes.int64)[1]))
    return ragged.RaggedTensor.from_nested_row_splits(values, nested, validate=False)


def batch_ragged(dataset, batch_size, drop_remainder, element_spec):
    """Batches `dataset` whose element spec, with ragged leaves as TF batches them, is
    `element_spec` (ragged leaves become RaggedTensors of one more ragged dimension)."""
    encoded = dataset.map(lambda *args: _encode_element(element_spec, _element(args, element_spec)))
    batched = encoded.padded_batch(batch_size, drop_remainder=drop_remainder)
    decoded = batched.map(lambda *args: _decode_element(element_spec, _element(args, batched.element_spec)))
    dim = int(batch_size) if drop_remainder else None
    spec = structure.map_structure(
        lambda s: s._batch(dim) if _is_ragged_spec(s) else TensorSpec([dim] + (s.shape.as_list() or []), s.dtype),
        element_spec)
    return _with_spec(decoded, spec)


def _element(args, spec):
    """A map function's arguments as the element: tf.data passes a tuple's items as arguments."""
    return args if type(spec) is tuple else args[0]


def _encode_element(spec, element):
    return _zip_structure(spec, element, _encode)


def _decode_element(spec, element):
    return _zip_structure(spec, element, _decode)


def _zip_structure(spec, value, fn):
    if structure._is_namedtuple(spec):
        return type(spec)(*[_zip_structure(s, v, fn) for s, v in zip(spec, value)])
    if isinstance(spec, tuple):
        return tuple(_zip_structure(s, v, fn) for s, v in zip(spec, value))
    if isinstance(spec, dict):
        return structure._dict_like(spec, [(k, _zip_structure(spec[k], value[k], fn)) for k in spec])
    return fn(spec, value)


def _has_ragged(spec):
    return any(_is_ragged_spec(s) for s in _leaves(spec))


def _ragged_batch_method(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64, name=None):
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    spec = structure.map_structure(lambda s: _to_ragged_spec(s, row_splits_dtype), self.element_spec)
    return batch_ragged(self, batch_size, drop_remainder, spec)


@tf_export("data.experimental.dense_to_ragged_batch")
def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
    """A transformation for Dataset.apply: `dataset.ragged_batch(...)`."""
    def apply(dataset):
        return dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)
    return apply


_plain_batch = DatasetV2.batch
_plain_from_tensor_slices = DatasetV2.from_tensor_slices


def _batch_method(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
    if _has_ragged(self.element_spec):
        return batch_ragged(self, batch_size, drop_remainder, self.element_spec)
    return _plain_batch(self, batch_size, drop_remainder, num_parallel_calls, deterministic, name)


def _from_tensor_slices(tensors, name=None):
    if any(_is_ragged(v) for v in _leaves(tensors) if not isinstance(v, Tensor)):
        return from_tensor_slices_with_ragged(tensors)
    return _plain_from_tensor_slices(tensors, name)


DatasetV2.ragged_batch = _ragged_batch_method
DatasetV2.batch = _batch_method
DatasetV2.from_tensor_slices = staticmethod(_from_tensor_slices)
