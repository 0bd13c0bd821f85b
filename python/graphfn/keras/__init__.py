"""graphfn.keras: a small Keras 3 (tf.keras in TF 2.21) on graphfn.

Layers (Layer, Dense, Activation, Flatten, Dropout), models (subclassed Model, Sequential),
initializers, activations, losses, metrics and optimizers (SGD, Adam, RMSprop), with Keras 3's
names, reprs and update formulas. docs/keras.md lists what exists and what does not."""

from graphfn.keras import activations  # noqa: F401
from graphfn.keras import backend  # noqa: F401
from graphfn.keras import initializers  # noqa: F401
from graphfn.keras import layers  # noqa: F401
from graphfn.keras import losses  # noqa: F401
from graphfn.keras import metrics  # noqa: F401
from graphfn.keras import models  # noqa: F401
from graphfn.keras import optimizers  # noqa: F401
from graphfn.keras import utils  # noqa: F401
from graphfn.keras.initializers import Initializer  # noqa: F401
from graphfn.keras.layers import Input, InputSpec, Layer  # noqa: F401
from graphfn.keras.losses import Loss  # noqa: F401
from graphfn.keras.metrics import Metric  # noqa: F401
from graphfn.keras.models import Model, Sequential  # noqa: F401
from graphfn.keras.optimizers import Optimizer  # noqa: F401
from graphfn.keras.variables import Variable  # noqa: F401

