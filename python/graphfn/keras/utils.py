"""keras.utils: set_random_seed."""

from graphfn.keras.random_state import set_random_seed  # noqa: F401
