"""Iterators over a dataset: OwnedIterator (what iter(dataset) returns) pulls elements from a
C++ iterator and packs them into the element structure; NumpyIterator gives NumPy values."""

from graphfn import _core
from graphfn import context
from graphfn.data import structure
from graphfn.data.element_spec_type import ElementSpecTypeSpec
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.util.tf_export import tf_export

nested = None  # graphfn.data.nested sets itself here when imported (it imports this module)


@tf_export("data.Iterator")
class Iterator:
    """The type of the iterators that can be read inside a tf.function (TF's iterator resources):
    `iter(dataset)` gives one (an OwnedIterator)."""


class OwnedIterator(Iterator, CompositeTensor):
    """An iterator over a dataset. Eagerly, next() pulls an element from the C++ iterator with
    the GIL released. Passed to (or captured by) a function, it is its resource tensor, and
    next()/get_next() in the trace add a GraphfnIteratorGetNext node reading the same iterator:
    each call of the function takes the next element, and after the last one the call raises
    OutOfRangeError ("End of sequence"), as TF's."""

    def __init__(self, dataset):
        if not context.executing_eagerly():
            # TF's iter() in a graph makes a new iterator resource per call of the function;
            # graphfn's iterators are made eagerly, and a `for` loop over the dataset is a graph loop.
            raise NotImplementedError(
                "graphfn does not support iter() on a tf.data.Dataset inside a tf.function yet (a `for` loop "
                "over the dataset, which AutoGraph converts into a graph loop, works; so does next() on an "
                "iterator made outside the function and passed in): loop with `for`, or pass the iterator in")
        self._spec = dataset.element_spec
        iterator = _core.DatasetIterator(dataset._node)
        # The handle first: attributes are released in order, so the C++ iterator, released
        # last, joins the pipeline's threads without the GIL.
        self._handle = iterator.handle()
        self._iterator = iterator
        self._nested = nested if nested.has_datasets(self._spec) else None  # windows and groups: datasets

    @classmethod
    def _of_handle(cls, handle, element_spec):
        """What a traced function receives for an iterator argument: its resource tensor."""
        iterator = cls.__new__(cls)
        iterator._spec = element_spec
        iterator._handle = handle
        iterator._iterator = None
        iterator._nested = None
        return iterator

    def __iter__(self):
        return self

    def __next__(self):
        if not context.executing_eagerly() or self._iterator is None:
            return self._graph_next()
        try:
            flat = self._iterator.next()
        except errors.OpError as e:
            # As TF's eager IteratorGetNext reports a pipeline's error.
            raise type(e)(None, None, _eager_get_next_message(self._spec, e.message)) from None
        if flat is None:
            raise StopIteration
        if self._nested is not None:
            flat = self._nested.element_datasets(self._spec, flat)
        return structure.pack(self._spec, flat)

    def _graph_next(self):
        if nested.has_datasets(self._spec):
            raise NotImplementedError("graphfn does not support next() inside a tf.function on an iterator of a "
                                      "dataset of datasets (window, group_by_window) yet")
        from graphfn.ops._op_table import ops  # the op table: loaded by the time a function is traced
        specs = structure.flatten(self._spec)
        components = ops.GraphfnIteratorGetNext(self._handle, output_types=[s.dtype for s in specs])
        components = list(components) if isinstance(components, (list, tuple)) else [components]
        for component, spec in zip(components, specs):
            component.set_shape(spec.shape)
        return structure.pack(self._spec, components)

    def get_next(self):
        if context.executing_eagerly() and self._iterator is not None:
            try:
                return self.__next__()
            except StopIteration:
                raise errors.OutOfRangeError(None, None, _eager_get_next_message(self._spec, "End of sequence")) from None
        return self._graph_next()

    def get_next_as_optional(self):
        """The next element as an Optional, empty after the last one."""
        from graphfn.data.optional import Optional  # lazily, as tf.experimental.Optional
        if context.executing_eagerly() and self._iterator is not None:
            try:
                return Optional.from_value(self.__next__())
            except StopIteration:
                return Optional.empty(self._spec)
        if nested.has_datasets(self._spec):
            raise NotImplementedError("graphfn does not support get_next_as_optional() inside a tf.function on an "
                                      "iterator of a dataset of datasets (window, group_by_window) yet")
        from graphfn.ops._op_table import ops  # the op table: loaded by the time a function is traced
        specs = structure.flatten(self._spec)
        handle = ops.GraphfnIteratorGetNextAsOptional(self._handle, output_types=[s.dtype for s in specs])
        return Optional(handle, self._spec)

    @property
    def element_spec(self):
        return self._spec

    @property
    def _type_spec(self):
        return IteratorSpec(self._spec)


@tf_export("data.IteratorSpec")
class IteratorSpec(ElementSpecTypeSpec):
    """The type of an iterator: its element_spec. A function traces an iterator argument by it
    (one concrete function for iterators of equal element specs) and receives its resource."""

    @property
    def value_type(self):
        return OwnedIterator

    @property
    def _component_specs(self):
        return TensorSpec((), dtypes.resource)

    def _to_components(self, value):
        return value._handle

    def _from_components(self, components):
        return OwnedIterator._of_handle(components, self._element_spec)


def _eager_get_next_message(element_spec, message):
    """`message` as TF's eager IteratorGetNext reports it."""
    return ("{{function_node __wrapped__IteratorGetNext_output_types_%d_device_/job:localhost/replica:0/task:0/"
            "device:CPU:0}} %s [Op:IteratorGetNext] name: " % (len(structure.flatten(element_spec)), message))


class NumpyIterator:
    def __init__(self, dataset):
        if nested.has_datasets(dataset.element_spec):
            raise TypeError("`tf.data.Dataset.as_numpy_iterator()` is not supported for datasets that produce values "
                            "of type %s" % (next(c for c in type(dataset).__mro__ if c.__name__ == "DatasetV2"),))
        self._iterator = OwnedIterator(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        return structure.map_structure(lambda t: t.numpy(), next(self._iterator))

    def __repr__(self):
        return "NumpyIterator(iterator=%r)" % (self._iterator,)
