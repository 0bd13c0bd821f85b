"""keras.layers: Layer and the core layers."""

from graphfn.keras.layers.core import Activation, Dense, Dropout, Flatten, Input, InputLayer  # noqa: F401
from graphfn.keras.layers.input_spec import InputSpec  # noqa: F401
from graphfn.keras.layers.layer import Layer  # noqa: F401
