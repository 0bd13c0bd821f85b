"""Dataset.save / Dataset.load: a dataset's elements written once into a folder and read back
later, also by another process. graphfn's format (not TF's snapshot format, which TensorFlow
and graphfn cannot exchange): "<path>/elements.data-00000-of-00001" and "elements.index", the
file cache of cache.cc, and "<path>/dataset_spec.json", the element_spec and the number of
elements."""

import collections
import json
import os
import shutil

from graphfn import _core
from graphfn.data import dataset_ops
from graphfn.data import structure
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.util.tf_export import tf_export

_SPEC_FILE = "dataset_spec.json"
_ELEMENTS = "elements"


def _spec_to_json(spec):
    if isinstance(spec, TensorSpec):
        shape = None if spec.shape.rank is None else spec.shape.as_list()
        return {"spec": {"shape": shape, "dtype": spec.dtype.name}}
    if isinstance(spec, tuple) and not hasattr(type(spec), "_fields"):
        return {"tuple": [_spec_to_json(s) for s in spec]}
    if isinstance(spec, dict):
        return {"dict": [[k, _spec_to_json(v)] for k, v in spec.items()],
                "ordered": isinstance(spec, collections.OrderedDict)}
    raise NotImplementedError("graphfn's Dataset.save supports elements of tensors, tuples and dicts, not %r" % (spec,))


def _spec_from_json(data):
    if "spec" in data:
        return TensorSpec(TensorShape(data["spec"]["shape"]), dtypes.as_dtype(data["spec"]["dtype"]))
    if "tuple" in data:
        return tuple(_spec_from_json(s) for s in data["tuple"])
    items = [(k, _spec_from_json(v)) for k, v in data["dict"]]
    return collections.OrderedDict(items) if data["ordered"] else dict(items)


def _dtype_enums(spec):
    return [s.dtype.as_datatype_enum for s in structure.flatten(spec)]


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    if shard_func is not None or checkpoint_args is not None:
        raise NotImplementedError("graphfn's Dataset.save does not support shard_func or checkpoint_args yet")
    path = os.fspath(path)
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):  # as TF: saving again replaces what the folder held
        if name.startswith(_ELEMENTS) or name == _SPEC_FILE:
            os.remove(os.path.join(path, name))
    prefix = os.path.join(path, _ELEMENTS)
    writer = _core.DatasetIterator(_core.data_cache(dataset._node, prefix, _dtype_enums(dataset.element_spec)))
    count = 0
    while writer.next() is not None:
        count += 1
    with open(os.path.join(path, _SPEC_FILE), "w") as f:
        json.dump({"element_spec": _spec_to_json(dataset.element_spec), "cardinality": count}, f)


def load(path, element_spec=None, compression=None, reader_func=None):
    """(C++ node, element_spec) of a saved dataset."""
    if reader_func is not None:
        raise NotImplementedError("graphfn's Dataset.load does not support reader_func yet")
    path = os.fspath(path)
    spec_file = os.path.join(path, _SPEC_FILE)
    if not os.path.exists(spec_file):
        raise errors.NotFoundError(None, None, "tf.data snapshot element_spec file not found: %s." % spec_file)
    with open(spec_file) as f:
        saved = json.load(f)
    spec = _spec_from_json(saved["element_spec"]) if element_spec is None else element_spec
    node = _core.data_load(os.path.join(path, _ELEMENTS), _dtype_enums(spec), saved["cardinality"])
    return node, spec


@tf_export("data.experimental.save")
def experimental_save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    return dataset.save(path, compression, shard_func, checkpoint_args)


@tf_export("data.experimental.load")
def experimental_load(path, element_spec=None, compression=None, reader_func=None):
    return dataset_ops.DatasetV2.load(path, element_spec, compression, reader_func)


dataset_ops._SOURCES.update(save=save, load=load)
