"""keras.metrics: stateful running statistics (update_state / result / reset_state), kept in
non-trainable Keras variables named "<metric>/total", "<metric>/count"."""

import graphfn as _tf
from graphfn.framework import dtypes
from graphfn.keras import backend
from graphfn.keras import initializers
from graphfn.keras import losses as _losses
from graphfn.keras.losses import squeeze_or_expand_to_same_rank
from graphfn.keras.variables import Variable
from graphfn.ops import array_ops


class Metric:
    """Metric(dtype=None, name=None): subclasses create state with add_variable and implement
    update_state and result."""

    def __init__(self, dtype=None, name=None):
        self.name = name or backend.auto_name(backend.snake_case(type(self).__name__))
        self._dtype = dtypes.as_dtype(dtype or backend.floatx())
        self._variables = []

    @property
    def dtype(self):
        return self._dtype.name

    @property
    def variables(self):
        return list(self._variables)

    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        with backend.path_scope(self.name.replace("/", ">"), owner=self):
            variable = Variable(initializers.get(initializer), shape=shape, dtype=dtype or self._dtype,
                                trainable=False, name=name)
        self._variables.append(variable)
        return variable

    add_weight = add_variable

    def reset_state(self):
        for v in self._variables:
            v.assign(_tf.zeros(v.shape.as_list(), dtype=v.dtype))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return "<%s name=%s>" % (type(self).__name__, self.name)

    __str__ = __repr__


def _divide_no_nan(x, y):
    return _losses._divide_no_nan(x, y)


def reduce_to_samplewise_values(values, sample_weight, reduce_fn, dtype):
    """Values (and weights) reduced with `reduce_fn` to one per sample (the first axis), the
    values multiplied by the weights."""
    values = _tf.cast(array_ops.convert_to_tensor(values), dtype)
    if sample_weight is not None:
        sample_weight = _tf.cast(array_ops.convert_to_tensor(sample_weight), dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        weight_ndim, values_ndim = sample_weight.shape.rank, values.shape.rank
        if values_ndim > weight_ndim:
            values = reduce_fn(values, axis=list(range(weight_ndim, values_ndim)))
        sample_weight = _tf.broadcast_to(sample_weight, _tf.shape(values))
        values = values * sample_weight
        if weight_ndim > 1:
            sample_weight = reduce_fn(sample_weight, axis=list(range(1, weight_ndim)))
    if values.shape.rank > 1:
        values = reduce_fn(values, axis=list(range(1, values.shape.rank)))
    return values, sample_weight


class Sum(Metric):
    """The (weighted) sum of every value seen."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer="zeros", dtype=self._dtype, name="total")

    def update_state(self, values, sample_weight=None):
        values, _ = reduce_to_samplewise_values(values, sample_weight, _tf.reduce_sum, self._dtype)
        self.total.assign_add(_tf.reduce_sum(values))

    def result(self):
        return _tf.identity(self.total)


class Mean(Metric):
    """The (weighted) mean of the values seen: each update adds the per-sample means to
    `total` and the number of samples (or the sum of the weights) to `count`."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer="zeros", dtype=self._dtype, name="total")
        self.count = self.add_variable(shape=(), initializer="zeros", dtype=self._dtype, name="count")

    def update_state(self, values, sample_weight=None):
        values, sample_weight = reduce_to_samplewise_values(values, sample_weight, _tf.reduce_mean, self._dtype)
        self.total.assign_add(_tf.reduce_sum(values))
        if sample_weight is not None:
            num_samples = _tf.reduce_sum(sample_weight)
        elif values.shape.rank >= 1:
            num_samples = _tf.shape(values)[0]
        else:
            num_samples = 1
        self.count.assign_add(_tf.cast(num_samples, self._dtype))

    def result(self):
        return _divide_no_nan(self.total.read_value(), _tf.cast(self.count, self._dtype))


class MeanMetricWrapper(Mean):
    """The mean of fn(y_true, y_pred, **kwargs)."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name or backend.auto_name(backend.snake_case(type(self).__name__)), dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        sample_weight = _losses.apply_mask(sample_weight, backend.annotation(values, "mask"), self._dtype, "sum")
        return super().update_state(values, sample_weight=sample_weight)


# Per-sample functions ----------------------------------------------------------------------------


def _floatx():
    return backend.floatx()


def accuracy(y_true, y_pred):
    y_pred = array_ops.convert_to_tensor(y_pred)
    y_true = _tf.cast(array_ops.convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return _tf.cast(_tf.equal(y_true, y_pred), _floatx())


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = array_ops.convert_to_tensor(y_pred)
    y_true = _tf.cast(array_ops.convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    y_pred = _tf.cast(_tf.greater(y_pred, _tf.cast(threshold, y_pred.dtype)), y_true.dtype)
    return _tf.cast(_tf.equal(y_true, y_pred), _floatx())


def _class_matches(y_true, y_pred):
    """1.0 where argmax(y_pred) is the label y_true (shape y_pred.shape[:-1], or with a last
    dimension of 1)."""
    y_pred = array_ops.convert_to_tensor(y_pred)
    y_true = _tf.cast(array_ops.convert_to_tensor(y_true), y_pred.dtype)
    original_shape = _tf.shape(y_true)
    reshape = False
    if y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1:
        y_true = _tf.squeeze(y_true, -1)
        reshape = True
    predicted = _tf.cast(_tf.argmax(y_pred, axis=-1), y_true.dtype)
    matches = _tf.cast(_tf.equal(y_true, predicted), _floatx())
    if reshape:
        matches = _tf.reshape(matches, original_shape)
    if matches.shape.rank > 1 and matches.shape[-1] == 1:
        matches = _tf.squeeze(matches, -1)
    return matches


def sparse_categorical_accuracy(y_true, y_pred):
    return _class_matches(y_true, y_pred)


def categorical_accuracy(y_true, y_pred):
    return _class_matches(_tf.argmax(array_ops.convert_to_tensor(y_true), axis=-1), y_pred)


# Classes -------------------------------------------------------------------------------------------


def _wrapper(class_name, fn, default_name, doc):
    def __init__(self, name=default_name, dtype=None):
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype)
    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


Accuracy = _wrapper("Accuracy", accuracy, "accuracy", "How often y_pred equals y_true.")
SparseCategoricalAccuracy = _wrapper("SparseCategoricalAccuracy", sparse_categorical_accuracy,
                                     "sparse_categorical_accuracy",
                                     "How often argmax(y_pred) equals the integer label y_true.")
CategoricalAccuracy = _wrapper("CategoricalAccuracy", categorical_accuracy, "categorical_accuracy",
                               "How often argmax(y_pred) equals argmax(y_true) (one-hot labels).")
MeanSquaredError = _wrapper("MeanSquaredError", _losses.mean_squared_error, "mean_squared_error",
                            "The mean of mean((y_true - y_pred)^2) over the last axis.")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", _losses.mean_absolute_error, "mean_absolute_error",
                             "The mean of mean(|y_true - y_pred|) over the last axis.")


class BinaryAccuracy(MeanMetricWrapper):
    """How often (y_pred > threshold) equals y_true."""

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)
        self.threshold = threshold


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False, axis=-1):
        super().__init__(_losses.sparse_categorical_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         axis=axis)


MSE = mse = _losses.mean_squared_error
MAE = mae = _losses.mean_absolute_error

_BY_NAME = {
    "accuracy": Accuracy, "binary_accuracy": BinaryAccuracy,
    "sparse_categorical_accuracy": SparseCategoricalAccuracy, "categorical_accuracy": CategoricalAccuracy,
    "mean_squared_error": MeanSquaredError, "mse": MeanSquaredError,
    "mean_absolute_error": MeanAbsoluteError, "mae": MeanAbsoluteError,
    "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
}


def get(identifier):
    """A metric from a name ("sparse_categorical_accuracy", "mse"), a Metric or a callable."""
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str):
        key = identifier if identifier in _BY_NAME else backend.snake_case(identifier)
        if key in _BY_NAME:
            return _BY_NAME[key]()
    elif callable(identifier):
        return MeanMetricWrapper(identifier, name=getattr(identifier, "__name__", None))
    raise ValueError("Could not interpret metric identifier: %s" % (identifier,))
