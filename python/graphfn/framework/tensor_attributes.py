"""The attributes Keras 3 sets on tensors (`output._keras_logits = logits`, `_keras_mask`), which
TF's tensors accept as any Python object does.

graphfn's tensors are C++ objects without a __dict__ (one per tensor would cost every eager op
time and memory), and a type-wide __getattr__ would slow every `hasattr(tensor, ...)` test of the
op wrappers. So each of these names is a property whose value lives in a side table keyed by the
tensor's id and cleared when the tensor dies: only tensors given one pay for it. Other names
still raise AttributeError, where TF would store them."""

import weakref

from graphfn.framework import tensor as tensor_lib

# The names Keras 3.15's TensorFlow backend assigns on tensors.
NAMES = ("_keras_logits", "_keras_mask", "_keras_history", "_keras_shape", "_keras_call_info_injected")

_values = {}  # id(tensor) -> {name: value}


def _forget(key):
    _values.pop(key, None)


def _attribute(name, type_name):
    def get(self):
        extra = _values.get(id(self))
        if extra is None or name not in extra:
            raise AttributeError("'%s' object has no attribute '%s'" % (type_name, name))
        return extra[name]

    def set(self, value):
        key = id(self)
        extra = _values.get(key)
        if extra is None:
            extra = _values[key] = {}
            weakref.finalize(self, _forget, key)
        extra[name] = value

    def delete(self):
        extra = _values.get(id(self))
        if extra is None or name not in extra:
            raise AttributeError(name)
        del extra[name]

    return property(get, set, delete)


for _cls, _type_name in ((tensor_lib.EagerTensor, "graphfn._core.EagerTensor"),
                         (tensor_lib.SymbolicTensor, "SymbolicTensor")):
    for _name in NAMES:
        setattr(_cls, _name, _attribute(_name, _type_name))
