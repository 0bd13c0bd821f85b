"""tf.data datasets as the input of fit / evaluate / predict, as Keras 3 reads them: each element
is one batch, x or (x, y) or (x, y, sample_weight); the arguments a dataset already carries (y,
sample_weight, validation_split) are Keras's ValueErrors; batch_size is ignored; a dataset is
not shuffled by fit."""

import warnings

from graphfn.data.dataset_ops import UNKNOWN, INFINITE, DatasetV2

_RAN_OUT = ("Your input ran out of data; interrupting training. Make sure that your dataset or generator can "
            "generate at least `steps_per_epoch * epochs` batches. You may need to use the `.repeat()` function when "
            "building your dataset.")


def is_dataset(value):
    return isinstance(value, DatasetV2)


def check_dataset_arguments(x, y, sample_weight, validation_split=0.0, shuffle=False):
    if y is not None:
        raise ValueError("When providing `x` as a tf.data.Dataset, `y` should not be passed. Instead, the targets "
                         "should be included as part of the tf.data.Dataset.")
    if sample_weight is not None:
        raise ValueError("When providing `x` as a tf.data.Dataset, `sample_weights` should not be passed. Instead, "
                         "the sample weights should be included as part of the tf.data.Dataset.")
    if validation_split:
        raise ValueError("Argument `validation_split` is only supported for tensors or NumPy arrays.Found "
                         "incompatible type in the input: [%s]" % (type(x),))
    if shuffle:
        warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as a "
                      "tf.data.Dataset. The Dataset is expected to already be shuffled (via "
                      "`.shuffle(buffer_size)`).", UserWarning, stacklevel=3)


def _num_batches(dataset):
    n = dataset._node.cardinality()
    return None if n in (UNKNOWN, INFINITE) else n


def dataset_batches(dataset, steps=None):
    """evaluate / predict: a fresh pass over the dataset, at most `steps` batches."""
    for step, batch in enumerate(dataset):
        if steps is not None and step >= steps:
            return
        yield batch


class DatasetEpochs:
    """fit's batches per epoch (Keras 3's epoch iterator). Without steps_per_epoch, each epoch is
    one pass over the dataset. With it, one iterator continues across epochs; a dataset of known
    length starts again once all its batches were taken, and an epoch that would take more stops
    early with Keras's warning."""

    def __init__(self, dataset, steps_per_epoch=None):
        self._dataset = dataset
        self._steps_per_epoch = None if steps_per_epoch is None else int(steps_per_epoch)
        self._num_batches = _num_batches(dataset)
        self._iterator = None
        self._seen = 0

    @property
    def steps(self):
        """The steps an epoch takes, as History.params reports them (None when unknown)."""
        return self._steps_per_epoch or self._num_batches

    def epoch(self):
        if self._steps_per_epoch is None:
            yield from iter(self._dataset)
            return
        if self._iterator is None:
            self._iterator, self._seen = iter(self._dataset), 0
        for _ in range(self._steps_per_epoch):
            if self._num_batches is not None and self._seen >= self._num_batches:
                warnings.warn(_RAN_OUT, UserWarning, stacklevel=2)
                break
            try:
                batch = next(self._iterator)
            except StopIteration:  # a dataset of unknown length ended: the next epoch starts it again
                warnings.warn(_RAN_OUT, UserWarning, stacklevel=2)
                self._iterator = None
                return
            self._seen += 1
            yield batch
        if self._num_batches is not None and self._seen >= self._num_batches:
            self._iterator = None
