"""graphfn.autograph: converts Python control flow in functions traced by graphfn.function into
graph control flow (TensorFlow's tf.autograph). See docs/autograph.md."""

import logging

from graphfn.autograph import experimental  # noqa: F401
from graphfn.autograph.impl.api import to_code, to_graph  # noqa: F401
from graphfn.autograph.impl.error_utils import StagingError  # noqa: F401


def set_verbosity(level, alsologtostdout=False):
    """Accepted for compatibility; graphfn logs conversion failures as warnings."""
    logging.getLogger("graphfn.autograph").setLevel(logging.DEBUG if level > 0 else logging.WARNING)


def trace(*args):
    """Prints its arguments at trace time (tf.autograph.trace)."""
    print(*args)
