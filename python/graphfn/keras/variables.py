"""keras.Variable: a graphfn.Variable with Keras 3's naming and repr.

`name` is the short name ("kernel"), `path` the scopes it was created in ("dense/kernel"), and
the repr is Keras's `<Variable path=dense/kernel, shape=(3, 4), dtype=float32, value=[...]>`.
Being a graphfn.Variable, it is read and written with the same ops, watched by GradientTape
and found by graphfn.Module."""

import numpy as np

from graphfn import variables as _variables
from graphfn.framework import name_scope as _name_scope
from graphfn.framework.tensor import EagerTensor, Tensor
from graphfn.keras import backend


class Variable(_variables.Variable):
    """Variable(initializer, shape=None, dtype=None, trainable=True, name=None): `initializer`
    is a value, or an initializer (a callable taking shape and dtype) used with `shape`."""

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, autocast=True,
                 aggregation="none", synchronization="auto", name=None, **kwargs):
        if name is None:
            name = backend.auto_name("variable")
        elif not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                             "Received: name=%s" % (name,))
        if callable(initializer):
            if shape is None:
                raise ValueError("When creating a Variable from an initializer, the `shape` argument should be "
                                 "specified. Received: initializer=%s and shape=%s" % (initializer, shape))
            value = initializer(tuple(shape), dtype=dtype or backend.floatx())
        else:
            value = initializer
        if dtype is None and not isinstance(value, (Tensor, np.ndarray, np.generic, _variables.Variable)):
            value = np.asarray(value)
            if value.dtype == np.float64:  # Python floats become floatx, as in Keras
                dtype = backend.floatx()
            elif value.dtype == np.int64:
                dtype = "int32"
        self._path = backend.current_path(name)
        # The underlying variable's TF name is "<path>:0" ("dense/kernel:0").
        with _name_scope.name_scope(""):
            super().__init__(value, trainable=trainable, name=self._path, dtype=dtype)
        self._short_name = name
        self._keras_trainable = bool(trainable)
        self._autocast = autocast

    @property
    def name(self):
        return self._short_name

    @property
    def path(self):
        return self._path

    @property
    def trainable(self):
        return self._keras_trainable

    @trainable.setter
    def trainable(self, value):
        # Keras's flag only: as in TF, GradientTape keeps watching a variable created trainable.
        self._keras_trainable = bool(value)

    @property
    def value(self):
        """The current value as a tensor (Keras's `.value` is the backend variable)."""
        return self.read_value()

    @property
    def ndim(self):
        return self.shape.rank

    def __repr__(self):
        value = ""
        if isinstance(self.handle, EagerTensor):
            array = self.numpy()
            value = ", value=%s" % (array.item() if array.ndim == 0 else array)
        return "<Variable path=%s, shape=%s, dtype=%s%s>" % (self._path, tuple(self.shape.as_list()),
                                                               self.dtype.name, value)

    __str__ = __repr__
