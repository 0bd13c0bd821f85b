"""The core layers: Dense, Activation, Flatten, Dropout, and Input/InputLayer (a shape that
builds a Sequential model at once)."""

import graphfn as _tf
from graphfn.framework import dtypes
from graphfn.keras import activations
from graphfn.keras import backend
from graphfn.keras import initializers
from graphfn.keras.layers.input_spec import InputSpec
from graphfn.keras.layers.layer import Layer
from graphfn.keras.random_state import draw_seed
from graphfn.ops import array_ops


def _serialize_initializer(initializer):
    name = type(initializer).__name__
    config = initializer.get_config() if hasattr(initializer, "get_config") else {}
    return {"module": "keras.initializers", "class_name": name, "config": config, "registered_name": None}


class Dense(Layer):
    """activation(inputs @ kernel + bias): kernel is (input_dim, units), created on the first
    call from the input's last dimension."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError("Received an invalid value for `units`, expected a positive integer. Received: "
                             "units=%s" % (units,))
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape):
        input_dim = input_shape[-1]
        self._kernel = self.add_weight(name="kernel", shape=(input_dim, self.units),
                                       initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                       constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.units,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})

    @property
    def kernel(self):
        if not self.built or "_kernel" not in self.__dict__:
            raise AttributeError("You must build the layer before accessing `kernel`.")
        return self._kernel

    def call(self, inputs, training=None):
        if inputs.dtype != self._kernel.dtype:
            inputs = _tf.cast(inputs, self._kernel.dtype)
        x = _tf.matmul(inputs, self._kernel)
        if self.bias is not None:
            x = _tf.add(x, self.bias)
        if self.activation is not None:
            x = self.activation(x)
        return x

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)[:-1] + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": _serialize_initializer(self.kernel_initializer),
            "bias_initializer": _serialize_initializer(self.bias_initializer),
            "kernel_regularizer": None, "bias_regularizer": None,
            "kernel_constraint": None, "bias_constraint": None,
        })
        return config


class Activation(Layer):
    """Applies an activation function (a name or a callable) to its input."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config


class Flatten(Layer):
    """Reshapes (batch, d1, d2, ...) to (batch, d1 * d2 * ...)."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        rest = self.compute_output_shape(tuple(inputs.shape.as_list()))[1]
        batch = array_ops.shape(inputs)[:1]
        return _tf.reshape(inputs, _tf.concat([batch, [-1 if rest is None else rest]], axis=0))

    def compute_output_shape(self, input_shape):
        rest = 1
        for d in input_shape[1:]:
            rest = None if (rest is None or d is None) else rest * d
        return (input_shape[0], rest)


class Dropout(Layer):
    """In training, zeroes each input with probability `rate` and scales the others by
    1 / (1 - rate); otherwise the identity."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float value between 0 and 1. "
                             "Received: rate=%s" % (rate,))
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        self._op_seed = draw_seed() if seed is None else seed

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        shape = self.noise_shape if self.noise_shape is not None else array_ops.shape(inputs)
        keep = _tf.random.uniform(shape, dtype=inputs.dtype, seed=self._op_seed) >= self.rate
        return _tf.where(keep, inputs / (1.0 - self.rate), _tf.zeros_like(inputs))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class InputLayer(Layer):
    """The shape (and dtype) of a model's input: as the first entry of a Sequential model it
    builds the model at once."""

    def __init__(self, shape=None, batch_size=None, dtype=None, name=None, **kwargs):
        super().__init__(name=name or backend.auto_name("input_layer"))
        self.batch_shape = (batch_size,) + tuple(shape or ())
        self._input_dtype = dtypes.as_dtype(dtype or backend.floatx())
        self.built = True

    def call(self, inputs):
        return inputs


class KerasTensor:
    """What Input() returns: a symbolic placeholder describing a model input (only usable to
    start a Sequential model here)."""

    def __init__(self, shape, dtype, name):
        self.shape = tuple(shape)
        self.dtype = dtypes.as_dtype(dtype).name
        self.name = name
        self.ndim = len(self.shape)

    def __repr__(self):
        return "<KerasTensor shape=%s, dtype=%s, sparse=False, ragged=False, name=%s>" % (
            self.shape, self.dtype, self.name)


def Input(shape=None, batch_size=None, dtype=None, name=None, **kwargs):  # noqa: N802 (Keras's name)
    tensor = KerasTensor((batch_size,) + tuple(shape or ()), dtype or backend.floatx(),
                         name or backend.auto_name("keras_tensor"))
    tensor._keras_input_layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype)
    return tensor
