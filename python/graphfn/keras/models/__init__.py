"""keras.models: Model and Sequential."""

from graphfn.keras.models.model import Model  # noqa: F401
from graphfn.keras.models.sequential import Sequential  # noqa: F401
