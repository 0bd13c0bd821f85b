"""Iterators over a dataset: OwnedIterator (what iter(dataset) returns) pulls elements from a
C++ iterator and packs them into the element structure; NumpyIterator gives NumPy values."""

from graphfn import _core
from graphfn import context
from graphfn.data import structure
from graphfn.framework import errors
from graphfn.util.tf_export import tf_export

nested = None  # graphfn.data.nested sets itself here when imported (it imports this module)


@tf_export("data.Iterator")
class Iterator:
    """The type of the iterators that can be read inside a tf.function (TF's iterator resources).
    graphfn's iterators (`iter(dataset)`) are read eagerly only, so they are not instances yet:
    code that checks, such as Keras's training loop, then pulls each batch eagerly."""


class OwnedIterator:  # not an Iterator yet: that type promises get_next() inside tf.function
    def __init__(self, dataset):
        if not context.executing_eagerly():
            # A `for` loop over a dataset in a traced function is a graph loop (AutoGraph, see
            # Dataset._graph_loop_source); TF's iter()/next() in a graph make iterator resources
            # and optionals graphfn does not have yet, and the dataset is not unrolled instead.
            raise NotImplementedError(
                "graphfn does not support iter()/next() on a tf.data.Dataset inside a tf.function yet "
                "(a `for` loop over the dataset, which AutoGraph converts into a graph loop, works): "
                "loop with `for`, or iterate eagerly outside the function")
        self._dataset = dataset
        self._spec = dataset.element_spec
        self._iterator = _core.DatasetIterator(dataset._node)
        self._nested = nested if nested.has_datasets(self._spec) else None  # windows and groups: datasets

    def __iter__(self):
        return self

    def __next__(self):
        if not context.executing_eagerly():
            # Pulling now would bake this element into the graph as a constant: every call of the
            # function would then see the same element.
            raise NotImplementedError(
                "graphfn does not support next()/get_next() on a tf.data iterator inside a tf.function yet "
                "(TF reads it with an iterator resource): iterate eagerly and pass the elements to the "
                "function, or loop over the dataset with `for` inside it")
        try:
            flat = self._iterator.next()
        except errors.OpError as e:
            # As TF's eager IteratorGetNext reports a pipeline's error.
            raise type(e)(None, None, "{{function_node __wrapped__IteratorGetNext_output_types_%d_device_/job:localhost/"
                          "replica:0/task:0/device:CPU:0}} %s [Op:IteratorGetNext] name: "
                          % (len(structure.flatten(self._spec)), e.message)) from None
        if flat is None:
            raise StopIteration
        if self._nested is not None:
            flat = self._nested.element_datasets(self._spec, flat)
        return structure.pack(self._spec, flat)

    def get_next(self):
        return self.__next__()

    @property
    def element_spec(self):
        return self._spec


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
