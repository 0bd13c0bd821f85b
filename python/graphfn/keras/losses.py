"""keras.losses: loss classes (reduced to a scalar, by default the mean over every element of
the per-sample losses: "sum_over_batch_size") and the per-sample loss functions."""

import warnings

import graphfn as _tf
from graphfn.framework import name_scope as _name_scope
from graphfn.keras import backend
from graphfn.ops import array_ops

_REDUCTIONS = ("sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight")


def standardize_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError("Invalid value for argument `reduction`. Expected one of %s. Received: reduction=%s"
                         % (set(_REDUCTIONS), reduction))
    return reduction


def _to_tensor(value, dtype=None):
    """convert_to_tensor, casting a tensor of another dtype (as Keras's does)."""
    value = array_ops.convert_to_tensor(value)
    if dtype is not None and value.dtype != dtype:
        value = _tf.cast(value, dtype)
    return value


def _rank(x):
    return x.shape.rank


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """When the ranks differ by one and the longer tensor's last dimension is 1, drop it (or,
    against a vector, give the vector a last dimension of 1)."""
    r1, r2 = _rank(x1), _rank(x2)
    if r1 is None or r2 is None or r1 == r2:
        return x1, x2
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = _tf.expand_dims(x2, axis=-1)
        else:
            x1 = _tf.squeeze(x1, axis=-1)
    if r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = _tf.expand_dims(x1, axis=-1)
        else:
            x2 = _tf.squeeze(x2, axis=-1)
    return x1, x2


def _divide_no_nan(x, y):
    safe = _tf.where(_tf.equal(y, 0), _tf.ones_like(y), y)
    return _tf.where(_tf.equal(y, 0), _tf.zeros_like(x), x / safe)


def apply_mask(sample_weight, mask, dtype, reduction):
    """Folds a mask of valid entries into the sample weights; for the mean reductions valid
    entries weigh total / valid, so that dividing by the number of entries averages over the
    valid ones."""
    if mask is None:
        return sample_weight
    if reduction in ("mean", "sum_over_batch_size"):
        total = _tf.cast(_tf.size(mask), dtype)
        valid = _tf.reduce_sum(_tf.cast(mask, dtype))
        float_mask = _tf.where(mask, _tf.fill(_tf.shape(mask), _divide_no_nan(total, valid)),
                               _tf.zeros(_tf.shape(mask), dtype))
    else:
        float_mask = _tf.cast(mask, dtype)
    if sample_weight is None:
        return float_mask
    sample_weight = _tf.cast(_to_tensor(sample_weight), dtype)
    float_mask, sample_weight = squeeze_or_expand_to_same_rank(float_mask, sample_weight)
    return sample_weight * float_mask


def reduce_values(values, sample_weight=None, reduction="sum_over_batch_size"):
    if reduction is None or reduction == "none" or values.shape.as_list() in ([], [0]):
        return values
    loss = _tf.reduce_sum(values)
    if reduction in ("sum_over_batch_size", "mean", "mean_with_sample_weight"):
        if reduction == "mean_with_sample_weight" and sample_weight is not None:
            divisor = _tf.cast(_tf.reduce_sum(sample_weight), loss.dtype)
        else:
            divisor = _tf.cast(_tf.size(values), loss.dtype)
        loss = _divide_no_nan(loss, divisor)
    return loss


def reduce_weighted_values(values, sample_weight=None, reduction="sum_over_batch_size", dtype=None):
    reduction = standardize_reduction(reduction)
    values = _to_tensor(values, dtype)
    if sample_weight is not None:
        sample_weight = _to_tensor(sample_weight, values.dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        values = values * sample_weight
    return reduce_values(values, sample_weight, reduction)


class Loss:
    """Loss(name=None, reduction="sum_over_batch_size", dtype=None): subclasses implement
    call(y_true, y_pred) returning per-sample losses; __call__ converts both to the loss's
    dtype, applies sample_weight and reduces."""

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or backend.auto_name(backend.snake_case(type(self).__name__))
        self.reduction = standardize_reduction(reduction)
        self._dtype = _tf.as_dtype(dtype or backend.floatx())

    @property
    def dtype(self):
        return self._dtype.name

    def __call__(self, y_true, y_pred, sample_weight=None):
        with _name_scope.name_scope(self.name):
            y_pred = _to_tensor(y_pred, self._dtype)
            y_true = _to_tensor(y_true, self._dtype)
            losses = self.call(y_true, y_pred)
            sample_weight = apply_mask(sample_weight, backend.annotation(losses, "mask"), self._dtype,
                                       self.reduction)
            return reduce_weighted_values(losses, sample_weight=sample_weight, reduction=self.reduction,
                                          dtype=self._dtype)

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss computing fn(y_true, y_pred, **kwargs) per sample."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def __repr__(self):
        return "<LossFunctionWrapper(%s, kwargs=%s)>" % (self.fn, self._fn_kwargs)


# Per-sample loss functions ---------------------------------------------------------------------


def _pred_and_true(y_true, y_pred):
    y_pred = _to_tensor(y_pred)
    y_true = _to_tensor(y_true, y_pred.dtype)
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


def mean_squared_error(y_true, y_pred):
    """mean((y_true - y_pred)^2) over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    return _tf.reduce_mean(_tf.square(y_true - y_pred), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """mean(|y_true - y_pred|) over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    return _tf.reduce_mean(_tf.abs(y_true - y_pred), axis=-1)


def _logits(output, from_logits, fn_name, activation):
    """The logits behind a softmax/sigmoid output of keras.activations (Keras computes the
    cross-entropy from them, warning when from_logits=True was passed for such an output)."""
    note = backend.annotation(output, "logits")
    if note is None or note[0] != activation:
        return output, from_logits
    logits = note[1]
    if from_logits:
        warnings.warn('"`%s` received `from_logits=True`, but the `output` argument was produced by a %s '
                      'activation and thus does not represent logits. Was this intended?'
                      % (fn_name, activation.capitalize()), UserWarning, stacklevel=3)
    return logits, True


def _check_shapes_equal(target, output):
    if target.shape.rank != output.shape.rank:
        raise ValueError("Arguments `target` and `output` must have the same rank (ndim). Received: "
                         "target.shape=%s, output.shape=%s" % (target.shape, output.shape))
    for e1, e2 in zip(target.shape.as_list(), output.shape.as_list()):
        if e1 is not None and e2 is not None and e1 != e2:
            raise ValueError("Arguments `target` and `output` must have the same shape. Received: "
                             "target.shape=%s, output.shape=%s" % (target.shape, output.shape))


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    """-log(probability of the true class), from integer labels (shape y_pred.shape[:-1], or
    with a last dimension of 1) and probabilities (clipped to [eps, 1 - eps]) or logits."""
    y_pred = _to_tensor(y_pred)
    y_true = _to_tensor(y_true)
    if axis != -1 and axis != y_pred.shape.rank - 1:
        raise ValueError("Only axis=-1 is currently supported. Received: axis=%s" % (axis,))
    if y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1:
        y_true = _tf.squeeze(y_true, axis=-1)
    valid = None
    if ignore_class is not None:
        valid = _tf.not_equal(y_true, _tf.cast(ignore_class, y_true.dtype))
        y_true = _tf.where(valid, y_true, _tf.zeros_like(y_true))
        y_pred = _tf.where(_tf.expand_dims(valid, -1), y_pred, _tf.zeros_like(y_pred))
    output, from_logits = _logits(y_pred, from_logits, "sparse_categorical_crossentropy", "softmax")
    output = _to_tensor(output)
    target = _tf.cast(y_true, "int64")
    if target.shape.rank == output.shape.rank and target.shape[-1] == 1:
        target = _tf.squeeze(target, axis=-1)
    if output.shape.rank is not None and output.shape.rank < 1:
        raise ValueError("Argument `output` must be at least rank 1. Received: output.shape=%s" % (output.shape,))
    if target.shape.rank != output.shape.rank - 1:
        raise ValueError("Argument `output` must have rank (ndim) `target.ndim - 1`. Received: target.shape=%s, "
                         "output.shape=%s" % (target.shape, output.shape))
    for e1, e2 in zip(target.shape.as_list(), output.shape.as_list()[:-1]):
        if e1 is not None and e2 is not None and e1 != e2:
            raise ValueError("Arguments `target` and `output` must have the same shape up until the last "
                             "dimension: target.shape=%s, output.shape=%s" % (target.shape, output.shape))
    if not from_logits:
        eps = backend.epsilon()
        output = _tf.math.log(_tf.clip_by_value(output, _tf.cast(eps, output.dtype),
                                                _tf.cast(1 - eps, output.dtype)))
    result = _tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if valid is not None:
        result = _tf.where(valid, result, _tf.zeros_like(result))
        backend.annotate(result, "mask", valid)  # the reduction then averages over valid entries only
    return result


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-sum(y_true * log(y_pred)) over `axis`, from one-hot (or soft) targets and probabilities
    (renormalised, clipped to [eps, 1 - eps]) or logits."""
    if isinstance(axis, bool):
        raise ValueError("`axis` must be of type `int`. Received: axis=%s of type %s" % (axis, type(axis)))
    y_pred = _to_tensor(y_pred)
    y_true = _tf.cast(_to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        num_classes = _tf.cast(_tf.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + (label_smoothing / num_classes)
    if y_true.shape.rank is not None and y_true.shape.rank < 1:
        raise ValueError("Arguments `target` and `output` must be at least rank 1. Received: target.shape=%s, "
                         "output.shape=%s" % (y_true.shape, y_pred.shape))
    _check_shapes_equal(y_true, y_pred)
    output, from_logits = _logits(y_pred, from_logits, "categorical_crossentropy", "softmax")
    if from_logits:
        return _tf.nn.softmax_cross_entropy_with_logits(labels=y_true, logits=output, axis=axis)
    output = output / _tf.reduce_sum(output, axis, keepdims=True)
    eps = backend.epsilon()
    output = _tf.clip_by_value(output, _tf.cast(eps, output.dtype), _tf.cast(1 - eps, output.dtype))
    return -_tf.reduce_sum(y_true * _tf.math.log(output), axis)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """mean over `axis` of -(y log p + (1 - y) log(1 - p)), p clipped to [eps, 1 - eps], or
    from logits max(x, 0) - x y + log(1 + exp(-|x|))."""
    y_pred = _to_tensor(y_pred)
    y_true = _tf.cast(_to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    _check_shapes_equal(y_true, y_pred)
    output, from_logits = _logits(y_pred, from_logits, "binary_crossentropy", "sigmoid")
    if from_logits:
        x = output
        per_element = (_tf.nn.relu(x) - x * y_true +
                       _tf.math.log(1 + _tf.exp(-_tf.abs(x))))
    else:
        eps = backend.epsilon()
        p = _tf.clip_by_value(output, _tf.cast(eps, output.dtype), _tf.cast(1 - eps, output.dtype))
        per_element = -(y_true * _tf.math.log(p) + (1 - y_true) * _tf.math.log(1 - p))
    return _tf.reduce_mean(per_element, axis=axis)


# Classes -------------------------------------------------------------------------------------------


class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class MeanAbsoluteError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=-1)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"from_logits": self.from_logits, "ignore_class": self.ignore_class})
        return config


class _SmoothedCrossentropy(LossFunctionWrapper):
    """The categorical and binary cross-entropies: the same options and config."""

    def __init__(self, fn, from_logits, label_smoothing, axis, reduction, name, dtype):
        super().__init__(fn, name=name, reduction=reduction, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"from_logits": self.from_logits, "label_smoothing": self.label_smoothing,
                       "axis": self.axis})
        return config


class CategoricalCrossentropy(_SmoothedCrossentropy):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="categorical_crossentropy", dtype=None):
        super().__init__(categorical_crossentropy, from_logits, label_smoothing, axis, reduction, name, dtype)


class BinaryCrossentropy(_SmoothedCrossentropy):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_crossentropy", dtype=None):
        super().__init__(binary_crossentropy, from_logits, label_smoothing, axis, reduction, name, dtype)


# tf.keras.losses spells the short forms MSE/mse and MAE/mae (keras.losses has the long names).
MSE = mse = mean_squared_error
MAE = mae = mean_absolute_error

# get(): function names give the functions, class names instances (as Keras).
_FUNCTIONS = {f.__name__: f for f in (mean_squared_error, mean_absolute_error, sparse_categorical_crossentropy,
                                      categorical_crossentropy, binary_crossentropy)}
_FUNCTIONS.update({"mse": mse, "MSE": MSE, "mae": mae, "MAE": MAE})
_CLASSES = {c.__name__: c for c in (MeanSquaredError, MeanAbsoluteError, SparseCategoricalCrossentropy,
                                    CategoricalCrossentropy, BinaryCrossentropy)}


def get(identifier):
    """A loss from a name: a function's ("mse", "sparse_categorical_crossentropy") gives the
    function, a class's ("MeanSquaredError") an instance; a Loss or any callable is returned."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier in _FUNCTIONS:
            return _FUNCTIONS[identifier]
        if identifier in _CLASSES:
            return _CLASSES[identifier]()
    elif callable(identifier):
        return identifier
    raise ValueError("Could not interpret loss identifier: %s" % (identifier,))
