"""keras.Sequential: a model that calls its layers one after the other."""

from graphfn.keras.layers.core import InputLayer, KerasTensor
from graphfn.keras.layers.layer import Layer, _LayerScope
from graphfn.keras.models.model import Model


class Sequential(Model):
    """Sequential(layers=None, name=None). Built on the first call, or at once when it starts
    with an Input(shape)/InputLayer (or a layer given input_shape=...)."""

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(trainable=trainable, name=name)
        self._stack = []
        self._input_shape = None
        for layer in layers or ():
            self.add(layer, rebuild=False)
        self._maybe_rebuild()

    def add(self, layer, rebuild=True):
        if isinstance(layer, KerasTensor):
            layer = layer._keras_input_layer
        if not isinstance(layer, Layer):
            raise ValueError("Only instances of `keras.Layer` can be added to a Sequential model. Received: %s "
                             "(of type %s)" % (layer, type(layer)))
        if isinstance(layer, InputLayer):
            if self._stack:
                raise ValueError("Sequential model '%s' has already been configured to use input shape %s. You "
                                 "cannot add a different Input layer to it." % (self.name, self._input_shape))
            self._input_shape = layer.batch_shape
        elif not self._stack and getattr(layer, "_input_spec_arg", None) is not None:
            self._input_shape = layer._input_spec_arg
        self._stack.append(layer)
        if rebuild:
            self._maybe_rebuild()

    def pop(self, rebuild=True):
        layers = self.layers
        if not layers:
            raise TypeError("There are no layers in the model.")
        layer = layers[-1]
        self._stack.remove(layer)
        self.built = False
        if rebuild:
            self._maybe_rebuild()
        return layer

    @property
    def layers(self):
        return [layer for layer in self._stack if not isinstance(layer, InputLayer)]

    def _maybe_rebuild(self):
        if self._input_shape is not None and self.layers:
            self.build(self._input_shape)

    def build(self, input_shape=None):
        """Builds each layer from the shape the previous one outputs (layers that cannot say
        their output shape, and those after them, build on the first call instead)."""
        shape = tuple(input_shape) if input_shape is not None else self._input_shape
        if shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        with _LayerScope(self):
            for layer in self.layers:
                if not layer.built:
                    layer.build(shape)
                try:
                    shape = layer.compute_output_shape(shape)
                except NotImplementedError:
                    return
                layer.__dict__["_output_shape"] = tuple(shape)
        self.built = True

    def call(self, inputs, training=None):
        for layer in self.layers:
            inputs = layer(inputs)
        return inputs

    def compute_output_shape(self, input_shape):
        for layer in self.layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape
