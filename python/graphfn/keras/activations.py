"""keras.activations: element-wise functions applied to a layer's output, by name or callable.

softmax remembers its logits, so that the cross-entropy losses compute from logits when given
its output (Keras does this with a `_keras_logits` attribute on the output)."""

import math

import numpy as np

import graphfn as _tf  # the public ops; activations also run while tracing
from graphfn.keras import backend
from graphfn.ops import array_ops


def _float(x):
    x = array_ops.convert_to_tensor(x)
    return x if x.dtype.is_floating else _tf.cast(x, backend.floatx())


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """max(x, 0); with `threshold`, values up to it become 0; with `max_value`, values are
    capped; with `negative_slope`, values below the threshold keep that fraction of their
    distance to it, negated."""
    x = _float(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0.0:
        return leaky_relu(x, negative_slope)
    below = None
    if negative_slope != 0.0:
        below = _tf.nn.relu(threshold - x) if threshold != 0.0 else _tf.nn.relu(-x)
    if threshold != 0.0:
        y = x * _tf.cast(_tf.greater(x, _tf.cast(threshold, x.dtype)), x.dtype)
    else:
        y = _tf.nn.relu(x)
    if max_value is not None:
        y = _tf.clip_by_value(y, _tf.cast(0, x.dtype), _tf.cast(max_value, x.dtype))
    if below is not None:
        y = y - _tf.cast(negative_slope, x.dtype) * below
    return y


def relu6(x):
    """min(max(x, 0), 6); the gradient is 0 at 0 and at 6 (as TF's Relu6)."""
    x = _float(x)
    six = _tf.cast(6, x.dtype)
    return _tf.where(_tf.less(x, six), _tf.nn.relu(x), _tf.fill(_tf.shape(x), six))


def leaky_relu(x, negative_slope=0.2):
    x = _float(x)
    return _tf.where(_tf.greater(x, _tf.cast(0, x.dtype)), x, x * _tf.cast(negative_slope, x.dtype))


def _elu_core(x):
    """x for x >= 0, exp(x) - 1 below (gradient 1 at 0, as TF's Elu)."""
    return _tf.where(_tf.less(x, _tf.cast(0, x.dtype)), _tf.exp(_tf.minimum(x, _tf.cast(0, x.dtype))) -
                     _tf.cast(1, x.dtype), x)


def elu(x, alpha=1.0):
    x = _float(x)
    y = _elu_core(x)
    if alpha == 1:
        return y
    return _tf.where(_tf.greater(x, _tf.cast(0, x.dtype)), y, _tf.cast(alpha, x.dtype) * y)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(x):
    """scale * (x for x >= 0, alpha * (exp(x) - 1) below)."""
    x = _float(x)
    zero = _tf.cast(0, x.dtype)
    negative = _tf.cast(_SELU_ALPHA, x.dtype) * (_tf.exp(_tf.minimum(x, zero)) - _tf.cast(1, x.dtype))
    return _tf.cast(_SELU_SCALE, x.dtype) * _tf.where(_tf.less(x, zero), negative, x)


def sigmoid(x):
    x = _float(x)
    output = _tf.sigmoid(x)
    backend.annotate(output, "logits", ("sigmoid", x))
    return output


def hard_sigmoid(x):
    x = _float(x)
    return relu6(x + _tf.cast(3, x.dtype)) / _tf.cast(6, x.dtype)


def tanh(x):
    return _tf.tanh(_float(x))


def softplus(x):
    """log(1 + exp(x)); like TF's kernel, exp(x) far below 0 and x far above, where the two
    agree to float precision (and exp cannot overflow)."""
    x = _float(x)
    threshold = _tf.cast(math.log(np.finfo(x.dtype.as_numpy_dtype).eps) + 2.0, x.dtype)
    middle = _tf.clip_by_value(x, threshold, -threshold)
    return _tf.where(_tf.less(x, threshold), _tf.exp(_tf.minimum(x, threshold)),
                     _tf.where(_tf.greater(x, -threshold), x,
                               _tf.math.log(_tf.cast(1, x.dtype) + _tf.exp(middle))))


def softsign(x):
    x = _float(x)
    return x / (_tf.abs(x) + _tf.cast(1, x.dtype))


def silu(x):
    x = _float(x)
    return x * _tf.sigmoid(x)


swish = silu


def exponential(x):
    return _tf.exp(_float(x))


def linear(x):
    return x


def softmax(x, axis=-1):
    x = _float(x)
    output = _tf.nn.softmax(x, axis=axis)
    backend.annotate(output, "logits", ("softmax", x))
    return output


def log_softmax(x, axis=-1):
    return _tf.nn.log_softmax(_float(x), axis=axis)


_BY_NAME = {f.__name__: f for f in (relu, relu6, leaky_relu, elu, selu, sigmoid, hard_sigmoid, tanh, softplus,
                                     softsign, silu, exponential, linear, softmax, log_softmax)}
_BY_NAME["swish"] = silu


def get(identifier):
    """The activation for a name, None (linear) or a callable."""
    if identifier is None:
        return linear
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret activation function identifier: %s" % (identifier,))


def serialize(activation):
    name = getattr(activation, "__name__", None)
    if _BY_NAME.get(name) is activation:
        return name
    raise ValueError("Could not serialize activation %s" % (activation,))

