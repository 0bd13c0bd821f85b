"""keras.optimizers: SGD, Adam, RMSprop and get()."""

from graphfn.keras.optimizers.adam import Adam
from graphfn.keras.optimizers.optimizer import Optimizer
from graphfn.keras.optimizers.rmsprop import RMSprop
from graphfn.keras.optimizers.sgd import SGD

_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop}


def get(identifier):
    """An optimizer from a name ("adam"), a config dict or an instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        cls = _BY_NAME.get(str(identifier.get("class_name", "")).lower())
        if cls is not None:
            return cls.from_config(identifier.get("config", {}))
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError("Could not interpret optimizer identifier: %s" % (identifier,))


__all__ = ["Adam", "Optimizer", "RMSprop", "SGD", "get"]
