"""keras.Model: a layer with training entry points. Models are written by subclassing (layers
set as attributes, the forward pass in call); the functional API (Model(inputs, outputs)) is
not implemented."""

from graphfn.keras.layers.layer import Layer
from graphfn.keras.models.summary import summary_lines
from graphfn.keras.models.trainer import Trainer


class Model(Trainer, Layer):
    """A Layer that lists its layers (`layers`) and can be compiled and trained
    (compile/fit/evaluate/predict, see trainer.py)."""

    def __new__(cls, *args, **kwargs):
        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            raise NotImplementedError("graphfn.keras does not implement the functional API (Model(inputs, "
                                      "outputs)); subclass Model or use Sequential")
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        trainable = kwargs.pop("trainable", True)
        name = kwargs.pop("name", None)
        dtype = kwargs.pop("dtype", None)
        super().__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)
        self.optimizer = None
        self.compiled = False

    @property
    def layers(self):
        return self._layers

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                layer_range=None):
        """Prints Keras 3's summary table (top-level layers only)."""
        text = "\n".join(summary_lines(self)) + "\n"
        if print_fn is None:
            print(text, end="")
        else:
            print_fn(text)

    def get_layer(self, name=None, index=None):
        if index is not None and name is not None:
            raise ValueError("Provide only a layer name or a layer index. Received: index=%s, name=%s."
                             % (index, name))
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError("Was asked to retrieve layer at index %s but model only has %d layers."
                                 % (index, len(self.layers)))
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError("No such layer: %s. Existing layers are: %s." % (name, [l.name for l in self.layers]))
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")
