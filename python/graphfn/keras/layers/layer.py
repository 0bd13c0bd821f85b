"""keras.layers.Layer: the base of every layer and model.

A layer owns the variables it creates with add_weight and the layers and Keras variables it
holds in attributes (also inside lists, tuples and dicts). It builds itself on its first call:
build(input_shape) runs once with the first input's shape, inside the layer's scope, so its
variables are named "<outer layers>/<layer>/<weight>" as in Keras 3."""

import functools
import inspect
import threading
import warnings

import numpy as np

from graphfn.framework import dtypes
from graphfn.framework import name_scope as _name_scope
from graphfn.framework.tensor import Tensor
from graphfn.keras import backend
from graphfn.keras import initializers
from graphfn.keras.layers import input_spec as _input_spec
from graphfn.keras.variables import Variable
from graphfn.ops import array_ops, math_ops
from graphfn.util import nest

_context = threading.local()  # .training: the resolved `training` of the innermost layer call

# Attributes holding bookkeeping, never walked for layers and variables.
_BOOKKEEPING = frozenset(("_own_weights", "_trainable_ids", "_input_spec_arg", "_tracked_names"))
_TRACKABLE = None  # (Layer, Variable, list, tuple, dict), set once Layer exists


class _LayerScope:
    """The layer's path scope (variable names) and graphfn name scope (graph node names),
    entered once even when build or add_weight re-enter it from inside a call."""

    __slots__ = ("_layer", "_path", "_names")

    def __init__(self, layer):
        self._layer = layer
        self._path = self._names = None

    def __enter__(self):
        if backend.innermost_owner() is self._layer:
            return self
        self._path = backend.path_scope(self._layer.name, owner=self._layer)
        self._path.__enter__()
        self._names = _name_scope.name_scope(self._layer.name)
        self._names.__enter__()
        return self

    def __exit__(self, *exc_info):
        if self._path is not None:
            self._names.__exit__(*exc_info)
            self._path.__exit__(*exc_info)
        return False


def _wrap_build(build):
    """A subclass's build, made to run in the layer's scope and to mark the layer built (so
    calling layer.build(shape) directly works as in Keras)."""
    @functools.wraps(build)
    def wrapper(self, *args, **kwargs):
        with _LayerScope(self):
            result = build(self, *args, **kwargs)
        self.built = True
        return result
    wrapper._keras_build_wrapper = True
    return wrapper


def _leaves(value):
    """The objects inside lists, tuples and dicts (dicts in insertion order, as Keras tracks
    them)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _shape_tuple(value):
    if isinstance(value, (Tensor, Variable)):
        return tuple(value.shape.as_list()) if value.shape.rank is not None else None
    if isinstance(value, np.ndarray):
        return value.shape
    return None


def _convert_input(value, dtype):
    """Arrays become tensors and floating inputs take the layer's dtype (Keras's autocast)."""
    if isinstance(value, (np.ndarray, np.generic)):
        value = array_ops.convert_to_tensor(value)
    if isinstance(value, Tensor) and value.dtype.is_floating and value.dtype != dtype:
        value = array_ops.convert_to_tensor(value)
        value = math_ops.cast(value, dtype)
    return value


class _DTypePolicy:
    """A layer's dtype policy: graphfn.keras has only plain float policies (no mixed precision)."""

    def __init__(self, name):
        self.name = self.compute_dtype = self.variable_dtype = name

    def __repr__(self):
        return '<DTypePolicy "%s">' % self.name


class Layer:
    """Subclasses implement call(inputs, ...) and, for weights that depend on the input shape,
    build(input_shape) with add_weight(...)."""

    def __new__(cls, *args, **kwargs):
        layer = super().__new__(cls)
        state = layer.__dict__
        state["_own_weights"] = []     # this layer's variables, in the order they were tracked
        state["_trainable_ids"] = set()  # ids of those that were trainable when tracked
        state["_tracked_names"] = {}   # attributes holding layers, variables or containers, in order
        state["built"] = False
        return layer

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_keras_build_wrapper", False):
            cls.build = _wrap_build(build)

    def __init__(self, *, activity_regularizer=None, trainable=True, dtype=None, autocast=True, name=None,
                 **kwargs):
        input_shape = kwargs.pop("input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        batch_size = kwargs.pop("batch_size", None)
        kwargs.pop("input_dtype", None)
        if kwargs:
            raise ValueError("Unrecognized keyword arguments passed to %s: %s" % (type(self).__name__, kwargs))
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if input_shape is not None:
            warnings.warn("Do not pass an `input_shape`/`input_dim` argument to a layer. When using Sequential "
                          "models, prefer using an `Input(shape)` object as the first layer in the model instead.",
                          UserWarning, stacklevel=3)
            self._input_spec_arg = (batch_size,) + tuple(input_shape)
        self.name = name if name is not None else backend.auto_name(backend.snake_case(type(self).__name__))
        self._dtype = dtypes.as_dtype(dtype or backend.floatx())
        self._trainable = bool(trainable)
        self.autocast = autocast
        self.activity_regularizer = activity_regularizer
        self.input_spec = None
        self.supports_masking = False
        self._initialized = True

    # Tracking ------------------------------------------------------------------------------------

    def __setattr__(self, name, value):
        if name not in _BOOKKEEPING:
            if isinstance(value, _TRACKABLE):
                self._tracked_names[name] = None
                for leaf in _leaves(value):
                    if isinstance(leaf, Variable):
                        self._track_variable(leaf)
            else:
                self._tracked_names.pop(name, None)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._tracked_names.pop(name, None)
        object.__delattr__(self, name)

    def _track_variable(self, variable):
        if not any(v is variable for v in self._own_weights):
            self._own_weights.append(variable)
            if variable.trainable:
                self._trainable_ids.add(id(variable))

    def _attribute_leaves(self):
        """What the attributes holding layers, variables or containers hold now (containers
        are walked every time: they may have been changed since they were set)."""
        state = self.__dict__
        for name in list(self._tracked_names):
            if name in state:
                yield from _leaves(state[name])

    @property
    def _layers(self):
        """The layers held in attributes, in the order the attributes were first set."""
        layers, seen = [], {id(self)}
        for leaf in self._attribute_leaves():
            if isinstance(leaf, Layer) and id(leaf) not in seen:
                seen.add(id(leaf))
                layers.append(leaf)
        return layers

    def _own_variables(self):
        for leaf in self._attribute_leaves():
            if isinstance(leaf, Variable):
                self._track_variable(leaf)  # e.g. appended to a list attribute after it was set
        trainable = [v for v in self._own_weights if id(v) in self._trainable_ids]
        return trainable + [v for v in self._own_weights if id(v) not in self._trainable_ids]

    def _flatten_layers(self, include_self=True):
        """This layer and all layers under it, depth first (each once)."""
        result, seen = [], set()

        def visit(layer):
            if id(layer) in seen:
                return
            seen.add(id(layer))
            result.append(layer)
            for sub in layer._layers:
                visit(sub)
        visit(self)
        return result if include_self else result[1:]

    # Weights ---------------------------------------------------------------------------------------

    @property
    def weights(self):
        result, seen = [], set()
        for layer in self._flatten_layers():
            for v in layer._own_variables():
                if id(v) not in seen:
                    seen.add(id(v))
                    result.append(v)
        return result

    variables = weights

    @property
    def trainable_weights(self):
        return [v for v in self.weights if v.trainable] if self.trainable else []

    @property
    def non_trainable_weights(self):
        return [v for v in self.weights if not v.trainable] if self.trainable else self.weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        value = bool(value)
        self._trainable = value
        for v in self._own_weights:
            if id(v) in self._trainable_ids:
                v.trainable = value
        for layer in self._layers:
            layer.trainable = value

    def add_weight(self, shape=None, initializer=None, dtype=None, trainable=True, autocast=True,
                   regularizer=None, constraint=None, aggregation="none", overwrite_with_gradient=False,
                   name=None):
        """Creates a variable of this layer (named "<layer path>/<name>") and tracks it."""
        shape = () if shape is None else tuple(shape)
        dtype = dtypes.as_dtype(dtype or self._dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        initializer = initializers.get(initializer)
        with _LayerScope(self):
            variable = Variable(initializer, shape=shape, dtype=dtype, trainable=trainable, autocast=autocast,
                                name=name)
        variable.regularizer = regularizer
        variable._constraint = constraint  # tf.Variable.constraint is read-only, as in TF
        self._track_variable(variable)
        return variable

    add_variable = add_weight

    def get_weights(self):
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights):
        layer_weights = self.weights
        if len(layer_weights) != len(weights):
            raise ValueError("You called `set_weights(weights)` on layer '%s' with a weight list of length %d, but "
                             "the layer was expecting %d weights." % (self.name, len(weights), len(layer_weights)))
        for variable, value in zip(layer_weights, weights):
            value_shape = tuple(np.shape(value))
            if tuple(variable.shape.as_list()) != value_shape:
                raise ValueError("Layer %s weight shape %s is not compatible with provided weight shape %s."
                                 % (self.name, tuple(variable.shape.as_list()), value_shape))
        for variable, value in zip(layer_weights, weights):
            variable.assign(np.asarray(value, variable.dtype.as_numpy_dtype))

    def count_params(self):
        if not self.built:
            raise ValueError("You tried to call `count_params` on layer '%s', but the layer isn't built. You can "
                             "build it manually via: `layer.build(input_shape)`." % self.name)
        return int(sum(np.prod(v.shape.as_list(), dtype=np.int64) for v in self.weights))

    # Dtypes ----------------------------------------------------------------------------------------

    @property
    def dtype(self):
        return self._dtype.name

    @property
    def dtype_policy(self):
        return _DTypePolicy(self._dtype.name)

    @property
    def compute_dtype(self):
        return self._dtype.name

    @property
    def variable_dtype(self):
        return self._dtype.name

    # Building and calling ----------------------------------------------------------------------------

    def build(self, input_shape=None):
        """The default build only marks the layer built (Keras warns when sublayers are still
        unbuilt; here that is checked after the first call, which builds them)."""
        self.built = True

    def call(self, *args, **kwargs):
        raise NotImplementedError("Layer %s does not have a `call` method implemented." % type(self).__name__)

    def compute_output_shape(self, input_shape):
        raise NotImplementedError("Layer %s should implement `def compute_output_shape(self, input_shape)`."
                                  % type(self).__name__)

    def _call_info(self):
        """(accepts `training`, its default), read once per class from call's signature."""
        cls = type(self)
        info = cls.__dict__.get("_keras_call_info")
        if info is None:
            try:
                parameter = inspect.signature(self.call).parameters.get("training")
            except (TypeError, ValueError):
                parameter = None
            info = (parameter is not None,
                    None if parameter is None or parameter.default is inspect.Parameter.empty else parameter.default)
            type.__setattr__(cls, "_keras_call_info", info)
        return info

    def __call__(self, *args, **kwargs):
        if not self.__dict__.get("_initialized"):
            raise RuntimeError("You must call `super().__init__()` in the layer constructor.")
        args = nest.map_structure(lambda v: _convert_input(v, self._dtype), args)
        kwargs = {k: (v if k == "training" else nest.map_structure(lambda x: _convert_input(x, self._dtype), v))
                  for k, v in kwargs.items()}
        first = args[0] if args else next(iter(kwargs.values()), None)
        first_shape = nest.map_structure(_shape_tuple, first) if first is not None else None
        if isinstance(first, (Tensor, Variable)):
            _input_spec.assert_input_compatibility(self.input_spec, first_shape, self.name)
        building = not self.built
        if building:
            with _LayerScope(self):
                self.build(first_shape)
            if isinstance(first, (Tensor, Variable)):
                _input_spec.assert_input_compatibility(self.input_spec, first_shape, self.name)

        accepts_training, default = self._call_info()
        outer = getattr(_context, "training", None)
        training = outer
        if not accepts_training and "training" in kwargs:
            # `training` is a call-context argument: passed on to the layers called inside.
            training = kwargs.pop("training")
            if training is None:
                training = outer
        elif accepts_training:
            training = kwargs.get("training")
            if training is None:
                training = outer if outer is not None else default
                if training is not None:
                    kwargs["training"] = training
        _context.training = training
        try:
            with _LayerScope(self):
                outputs = self.call(*args, **kwargs)
        finally:
            _context.training = outer
        self.built = True
        if building and isinstance(outputs, Tensor):  # Model.summary() shows the first call's shape
            self.__dict__["_output_shape"] = tuple(outputs.shape.as_list())
        if building and type(self).build is Layer.build and any(not l.built for l in self._layers):
            warnings.warn("`build()` was called on layer '%s', however the layer does not have a `build()` method "
                          "implemented and it looks like it has unbuilt state. This will cause the layer to be marked "
                          "as built, despite not being actually built, which may cause failures down the line. Make "
                          "sure to implement a proper `build()` method." % self.name, UserWarning, stacklevel=2)
        return outputs

    # Configuration -----------------------------------------------------------------------------------

    def get_config(self):
        return {"name": self.name, "trainable": self.trainable, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return "<%s name=%s, built=%s>" % (type(self).__name__, self.name, self.built)


_TRACKABLE = (Layer, Variable, list, tuple, dict)
