"""Datasets that pick elements from other datasets (Dataset.choose_from_datasets,
sample_from_datasets, their tf.data.experimental aliases) and tf.data.experimental.Counter /
Dataset.counter. The C++ nodes are in cpp/graphfn/data/choose.cc."""

import os

from graphfn import _core
from graphfn.data import dataset_ops
from graphfn.data import readers
from graphfn.data import structure
from graphfn.framework import dtypes
from graphfn.framework import random_seed
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.util.tf_export import tf_export


class _DirectedInterleaveDataset(dataset_ops.DatasetV2): pass  # noqa: E701
class _ScanDataset(dataset_ops.DatasetV2): pass  # noqa: E701


def _common_spec(datasets):
    """The element_spec every dataset fits (TF's most specific compatible spec), or TF's TypeError."""
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    first = datasets[0].element_spec
    for index, d in enumerate(datasets[1:], 1):
        spec = d.element_spec
        if not (structure.same_structure(first, spec) and all(
                a.dtype == b.dtype for a, b in zip(structure.flatten(first), structure.flatten(spec)))):
            raise TypeError("Invalid `datasets`. `datasets` must have compatible element specs.\n Dataset 0 "
                            "element_spec=%r.\nDataset %d element_spec=%r." % (first, index, spec))
    flat = [structure.flatten(d.element_spec) for d in datasets]
    common = []
    for leaves in zip(*flat):
        shape = leaves[0].shape
        for leaf in leaves[1:]:
            shape = structure.most_specific_common_shape(shape, leaf.shape)
        common.append(TensorSpec(shape, leaves[0].dtype))
    return structure.pack(first, common)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    datasets = list(datasets)
    spec = _common_spec(datasets)
    if not isinstance(choice_dataset, dataset_ops.DatasetV2):
        raise TypeError("Invalid `choice_dataset`. `choice_dataset` must be a `tf.data.Dataset` but is %s."
                        % type(choice_dataset))
    choice = choice_dataset.element_spec
    if not (isinstance(choice, TensorSpec) and choice.dtype == dtypes.int64 and choice.shape.rank == 0):
        raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` tensors but "
                        "are %r." % (choice,))
    node = _core.data_directed_interleave(choice_dataset._node, [d._node for d in datasets],
                                          bool(stop_on_empty_dataset))
    return _DirectedInterleaveDataset(node, spec)


def _weights(weights, count):
    """The weights as floats, with TF's checks."""
    if isinstance(weights, dataset_ops.DatasetV2):
        raise NotImplementedError("graphfn's sample_from_datasets takes `weights` as a list or tensor, not a dataset")
    if isinstance(weights, Tensor):
        if not weights.shape.is_compatible_with([count]):
            raise ValueError("Invalid `weights`. The shape of `weights` should be compatible with `[len(datasets)]` "
                             "but is %s." % (weights.shape,))
    elif len(weights) != count:
        raise ValueError("Invalid `weights`. `weights` should have the same length as `datasets` but got "
                         "`len(weights)=%d` vs. `len(datasets)=%d`." % (len(weights), count))
    tensor = readers.eager_tensor(weights, what="weights")
    if tensor.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError("Invalid `weights`. `weights` type must be either `tf.float32` or `tf.float64` but is %s."
                        % (tensor.dtype,))
    return [float(w) for w in tensor.numpy().reshape(-1)]


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if weights is None:
        values = [1.0] * len(datasets)
    else:
        values = _weights(weights, len(datasets))
        # As TF for a list of weights: datasets of weight <= 0 are never drawn, so they are left out
        # (graphfn does so for a tensor too: a draw can then never wait on an exhausted input forever).
        kept = [(d, w) for d, w in zip(datasets, values) if w > 0]
        datasets, values = ([d for d, _ in kept], [w for _, w in kept]) if kept else ([datasets[0].take(0)], [1.0])
    if len(datasets) == 1:
        return datasets[0]  # as TF: nothing to choose from
    spec = _common_spec(datasets)
    seed, seed2 = random_seed.get_seed(seed)
    if seed is None:  # unseeded: a new order each time the program runs, as TF
        seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
    selector = _core.data_categorical_selector(values, seed, seed2)
    node = _core.data_directed_interleave(selector, [d._node for d in datasets], bool(stop_on_empty_dataset))
    return _DirectedInterleaveDataset(node, spec)


@tf_export("data.experimental.choose_from_datasets")
def experimental_choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
    return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


@tf_export("data.experimental.sample_from_datasets")
def experimental_sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


def counter(start=0, step=1, dtype=dtypes.int64):
    dtype = dtypes.as_dtype(dtype)
    start_t = readers.eager_tensor(start, dtype, what="start")
    step_t = readers.eager_tensor(step, dtype, what="step")
    node = dataset_ops._build("ScanDataset", _core.data_counter, start_t, step_t)
    return _ScanDataset(node, TensorSpec([], dtype))


@tf_export("data.experimental.Counter")
def Counter(start=0, step=1, dtype=dtypes.int64, name=None):  # noqa: N802 (TF's name)
    return counter(start, step, dtype)


dataset_ops._SOURCES.update(choose_from_datasets=choose_from_datasets, sample_from_datasets=sample_from_datasets,
                          counter=counter)
